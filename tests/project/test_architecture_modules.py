"""docs/architecture.md names every module of blurapp/ and says what it holds: a new module is a
line on the page. The page names a module by its file name (`spec.py`) in the section of its
package (`## blurapp/core`), or by its path from anywhere (`core/blurring/blur_clip_file.py`); a
package's `__init__.py` is told by its package's section."""

import re
from pathlib import Path

from helpers.architecture import PAGE

PACKAGE = Path(__file__).resolve().parents[2] / "blurapp"


def sections(text: str) -> dict[str, str]:
    """The page's `## ` sections, by heading (what comes before the first: "")."""
    found: dict[str, str] = {}
    heading = ""
    for line in text.splitlines(keepends=True):
        if line.startswith("## "):
            heading = line[3:].strip()
        found[heading] = found.get(heading, "") + line
    return found


def where_named(module: Path, text: str) -> bool:
    """Whether the page names `module`: its path from blurapp/ (the part after any folder will
    do, `core/media/clip.py` or `media/clip.py`) anywhere, or its file name in the section
    about its top package (the whole page for a module at the top, or a package with none)."""
    parts = module.relative_to(PACKAGE).parts
    for start in range(len(parts) - 1):
        if f"`{'/'.join(parts[start:])}`" in text or f"`blurapp/{'/'.join(parts)}`" in text:
            return True
    bare = re.compile(rf"`{re.escape(parts[-1])}`")
    if len(parts) == 1:
        return bool(bare.search(text))
    home = [body for heading, body in sections(text).items() if f"`blurapp/{parts[0]}`" in heading]
    return any(bare.search(body) for body in home) if home else bool(bare.search(text))


def modules() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if path.name != "__init__.py")


def test_the_page_names_every_module():
    text = PAGE.read_text(encoding="utf-8")
    missing = [
        str(path.relative_to(PACKAGE.parent)) for path in modules() if not where_named(path, text)
    ]
    assert missing == [], "add a line to docs/architecture.md for each: " + ", ".join(missing)


def test_a_module_is_found_by_its_file_name_only_in_its_packages_section():
    text = "## `blurapp/scale`\n\n| `batch.py` | a batch |\n\n## `blurapp/cli`\n\n`compare.py`\n"
    assert where_named(PACKAGE / "scale" / "batch.py", text)
    assert not where_named(PACKAGE / "cli" / "batch.py", text)
    assert where_named(PACKAGE / "cli" / "compare.py", text)
    assert where_named(PACKAGE / "start.py", "`start.py`")
    assert where_named(
        PACKAGE / "core" / "blurring" / "blur_clip_file.py", "`core/blurring/blur_clip_file.py`"
    )
