"""The package's layers, read from its source: what each may import, and no circle of imports.

Every `import` counts, at module level or inside a function (a lazy import is still a
dependency), except those under `if TYPE_CHECKING:`, which only name types."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "blurapp"
# A smell alarm, not a rule to split by: a module past it likely holds more than one concept.
MAX_LINES = 800
# Generated: the translation's fill script is a table of sentences.
LONG_ALLOWED = {"blurapp/i18n/fill_zh_CN.py"}

# What a layer may not import, top-level package names.
FORBIDDEN = {
    "blurapp.core": {
        "PySide6",
        "dask",
        "distributed",
        "zarr",
        "argparse",
        "blurapp.ui",
        "blurapp.app",
    },
    "blurapp.app": {"PySide6", "blurapp.ui", "blurapp.cli"},
    "blurapp.scale": {"PySide6", "blurapp.ui", "blurapp.app", "blurapp.cli"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


def _type_checking_blocks(tree: ast.AST) -> set[int]:
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules `name` imports: blurapp's own resolved to the module named (a package's
    submodule when `from package import submodule`), others by their top-level name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = _type_checking_blocks(tree)
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


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {
        name: {other for other in imports_of(name, path, known) if other in known and other != name}
        for name, path in found.items()
    }


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_blurapp_has_no_circle_of_imports():
    assert circles(graph()) == []


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_it_must_not(layer):
    found = modules()
    known = set(found)
    wrong = {}
    for name, path in found.items():
        if name == layer or name.startswith(layer + "."):
            bad = {
                other
                for other in imports_of(name, path, known)
                if any(other == f or other.startswith(f + ".") for f in FORBIDDEN[layer])
            }
            if bad:
                wrong[name] = sorted(bad)
    assert wrong == {}


def test_no_module_is_over_800_lines():
    long = {
        str(path.relative_to(PACKAGE.parent)): lines
        for path in PACKAGE.rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert {name: lines for name, lines in long.items() if name not in LONG_ALLOWED} == {}


# The one module allowed to read /proc, and why (blurapp/bench/machine.py says more).
PROC_ALLOWED = {
    "blurapp/bench/machine.py": "the CPU's model: Linux tells it in /proc/cpuinfo only",
}


def test_machine_facts_come_from_libraries_that_serve_every_system():
    # A /proc path is read on Linux only: psutil and platformdirs tell the same facts on
    # macOS and Windows too. Comments may still speak of /proc; no string in the code names it.
    naming = {}
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        strings = [
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        ]
        found = sorted({s for s in strings if "/proc" in s})
        if found:
            naming[str(path.relative_to(PACKAGE.parent))] = found
    assert {name: found for name, found in naming.items() if name not in PROC_ALLOWED} == {}
    # An exception goes with its reason.
    assert set(PROC_ALLOWED) <= set(naming)
