"""The tests are found where the code is: each folder of tests/ is named after a folder of
blurapp/ (tests/core/engines/ tests blurapp/core/engines/), and no two test files share a name,
so that a test named in a report or a traceback is one file."""

from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
PACKAGE = ROOT / "blurapp"

# Folders of tests/ that stand for no folder of blurapp/, and why.
NOT_MIRRORS = {
    # Shared code the test files import (pyproject's `pythonpath`), no tests of its own.
    "helpers": "the tests' shared code",
    # Rules over the whole project: layers, lint, types, the docs.
    "project": "the project itself",
    # The repository's packaging/ folder and the wheel, not a package of blurapp/.
    "packaging": "packaging/ and the wheel",
    # The Python API is modules at the package's top (api.py, api_clips.py, notebook.py).
    "api": "blurapp's top-level API modules",
}


def folders_of_tests() -> list[Path]:
    return sorted(
        path
        for path in TESTS.rglob("*")
        if path.is_dir() and not any(part.startswith((".", "__")) for part in path.parts)
    )


def unmirrored(folders: list[Path], tests: Path, package: Path) -> list[str]:
    """The test folders named after no folder of the package (nor in NOT_MIRRORS)."""
    found = []
    for folder in folders:
        relative = folder.relative_to(tests)
        if relative.parts[0] in NOT_MIRRORS:
            continue
        if not (package / relative).is_dir():
            found.append(relative.as_posix())
    return found


def test_every_test_folder_mirrors_a_folder_of_blurapp():
    assert unmirrored(folders_of_tests(), TESTS, PACKAGE) == []


def test_the_exceptions_are_folders_that_exist():
    assert all((TESTS / name).is_dir() for name in NOT_MIRRORS)


def test_no_two_test_files_share_a_name():
    where = defaultdict(list)
    for path in TESTS.rglob("test_*.py"):
        where[path.name].append(path.relative_to(TESTS).as_posix())
    assert {name: sorted(paths) for name, paths in where.items() if len(paths) > 1} == {}


def test_a_folder_named_after_no_package_is_found(tmp_path):
    tests, package = tmp_path / "tests", tmp_path / "blurapp"
    for folder in (
        "tests/core/engines",
        "tests/core/misc",
        "tests/helpers",
        "blurapp/core/engines",
    ):
        (tmp_path / folder).mkdir(parents=True)
    folders = sorted(path for path in tests.rglob("*") if path.is_dir())
    assert unmirrored(folders, tests, package) == ["core/misc"]
