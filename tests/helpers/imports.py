"""BlurApp's imports as its source states them, read without importing anything: the layer
test checks them, and docs/architecture.md's picture of the packages is drawn from them.

Every `import` counts, at module level or inside a function (a lazy import is still a
dependency), except those under `if TYPE_CHECKING:`, which only name types. A package whose
names are imported when first used lists them in its `__init__.pyi` (lazy_loader reads it), so
the stub's imports are the package's."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "blurapp"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


def source_of(path: Path) -> str:
    """The text whose imports are `path`'s: a package's `__init__.pyi` counts with its
    `__init__.py`, since lazy_loader imports what the stub names."""
    text = path.read_text(encoding="utf-8")
    stub = path.with_suffix(".pyi")
    if path.name == "__init__.py" and stub.exists():
        text += "\n" + stub.read_text(encoding="utf-8")
    return text


def _type_checking_blocks(tree: ast.AST) -> set[int]:
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def imports_of(name: str, path: Path, known: set[str], *, for_typing: bool = False) -> set[str]:
    """The modules `name` imports: blurapp's own resolved to the module named (a package's
    submodule when `from package import submodule`), others by their top-level name; with
    `for_typing`, those imported for type checking only too."""
    tree = ast.parse(source_of(path))
    typing_only = set() if for_typing else _type_checking_blocks(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in known else base)
    return found


def graph(*, for_typing: bool = False) -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {
        name: {
            other
            for other in imports_of(name, path, known, for_typing=for_typing)
            if other in known and other != name
        }
        for name, path in found.items()
    }
