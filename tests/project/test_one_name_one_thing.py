"""A name in blurapp/ means one thing: no class (nor a type given a name, `Name = Callable[...]`)
is defined at the top of two modules, and no module's file name is another's, so that a name in
a traceback, an import or a page says which one it is."""

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "blurapp"

# File names that every package has, or that stand for the same role in each folder.
SHARED_FILE_NAMES = {"__init__.py"}


def top_level_types(path: Path) -> list[tuple[str, int]]:
    """The classes a module defines at its top, and the types it names there (a CamelCase name
    assigned: `Progress = Callable[[int, int], None]`), with their lines."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef):
            found.append((node.name, node.lineno))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                name = getattr(target, "id", "")
                if name[:1].isupper() and not name.isupper() and "_" not in name:
                    found.append((name, node.lineno))
    return found


def defined_twice(paths: list[Path], root: Path) -> dict[str, list[str]]:
    where = defaultdict(list)
    for path in paths:
        for name, line in top_level_types(path):
            where[name].append(f"{path.relative_to(root).as_posix()}:{line}")
    return {name: places for name, places in where.items() if len(places) > 1}


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_no_class_or_type_name_is_defined_in_two_modules():
    assert defined_twice(modules(), PACKAGE.parent) == {}


def test_no_two_modules_share_a_file_name():
    where = defaultdict(list)
    for path in modules():
        if path.name not in SHARED_FILE_NAMES:
            where[path.name].append(path.relative_to(PACKAGE.parent).as_posix())
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}


def test_a_name_defined_twice_is_found_with_its_places(tmp_path):
    (tmp_path / "runs.py").write_text("Progress = Callable[[int, int], None]\nTILE = 8\n")
    (tmp_path / "jobs.py").write_text("class Progress:\n    pass\n\n\nclass Job:\n    pass\n")
    paths = sorted(tmp_path.glob("*.py"))
    assert defined_twice(paths, tmp_path) == {"Progress": ["jobs.py:1", "runs.py:1"]}
