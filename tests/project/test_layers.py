"""The package's layers, read from its source (helpers.imports): what each may import, and no
circle of imports."""

import ast
import io
import tokenize
from pathlib import Path

import pytest
from helpers.imports import PACKAGE, graph, imports_of, modules

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
    # The core's groups (docs/architecture.md): media and engines know nothing of each other,
    # measuring puts them together, report shows what it measured; blurring is used by none.
    "blurapp.core.media": {
        "blurapp.core.engines",
        "blurapp.core.measuring",
        "blurapp.core.report",
        "blurapp.core.blurring",
    },
    "blurapp.core.engines": {
        "blurapp.core.media",
        "blurapp.core.measuring",
        "blurapp.core.report",
        "blurapp.core.blurring",
    },
    "blurapp.core.measuring": {"blurapp.core.report", "blurapp.core.blurring"},
    "blurapp.core.report": {"blurapp.core.blurring"},
    "blurapp.app": {"PySide6", "blurapp.ui", "blurapp.cli"},
    "blurapp.scale": {"PySide6", "blurapp.ui", "blurapp.app", "blurapp.cli"},
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


def test_blurapp_has_no_circle_of_imports_not_even_for_type_checking():
    # An import made only for type checking still ties the two modules together: a reader
    # (and mypy) cannot take one without the other.
    assert circles(graph(for_typing=True)) == []


def window_attributes_set(path: Path) -> list[str]:
    """`window.name = …` (or `self.window.name`, `self._window.name`) in `path`: a module
    setting an attribute of the main window it was handed."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            parts = target.elts if isinstance(target, ast.Tuple) else [target]
            for part in parts:
                if isinstance(part, ast.Attribute) and ast.unparse(part.value) in (
                    "window",
                    "self.window",
                    "self._window",
                ):
                    found.append(f"{path.name}:{node.lineno}: {ast.unparse(part)}")
    return found


def test_the_window_attribute_finder_finds_one_set(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def lay_out(window):\n    window.panes = []\n    x = window.panes\n"
        "    window.messages.boxes = False\n    window.a, y = 1, 2\n"
    )
    assert window_attributes_set(sample) == ["sample.py:2: window.panes", "sample.py:5: window.a"]


def test_only_the_main_window_sets_its_own_attributes():
    # Its helpers are handed what they use (a Protocol of it, or the objects themselves) and
    # hand back what they make (WindowWidgets, WindowActions), so the window's attributes are
    # all in one file.
    set_elsewhere = [
        line
        for path in sorted((PACKAGE / "ui").glob("*.py"))
        if path.name != "main_window.py"
        for line in window_attributes_set(path)
    ]
    assert set_elsewhere == []


def class_methods(path: Path, name: str) -> list[str]:
    """The methods (properties among them) that class `name` of `path` defines itself."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    [found] = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == name]
    return [node.name for node in found.body if isinstance(node, ast.FunctionDef)]


# The window lays out its widgets and connects them; its decisions are the WindowController's,
# what it shows its WindowDisplay's. Lower this as methods move out; never raise it.
MAIN_WINDOW_METHODS = 21


def test_the_main_window_has_no_more_methods_than_it_had():
    methods = class_methods(PACKAGE / "ui" / "main_window.py", "MainWindow")
    assert "closeEvent" in methods and "__init__" in methods  # the finder reads the class
    assert len(methods) <= MAIN_WINDOW_METHODS, methods


# An engine is its name, title and first call, what else it does in small typed objects beside
# them (core/engines/engine.py). Lower this as fields move out; never raise it.
ENGINE_FIELDS = 10


def test_an_engine_has_no_more_fields_than_it_had():
    import dataclasses

    from blurapp.core.engines import Engine

    fields = [field.name for field in dataclasses.fields(Engine)]
    assert fields[:3] == ["name", "title", "first_call"]  # a plugin's simple engine, in order
    assert len(fields) <= ENGINE_FIELDS, fields


def session_changers() -> set[str]:
    """The Session's public methods that change it: those that tell its listeners, themselves
    or through another of its methods."""
    tree = ast.parse((PACKAGE / "app" / "session.py").read_text(encoding="utf-8"))
    [session] = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Session"]
    calls = {
        method.name: {
            node.func.attr
            for node in ast.walk(method)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and ast.unparse(node.func.value) == "self"
        }
        for method in session.body
        if isinstance(method, ast.FunctionDef)
    }
    changers = {"_changed"}
    while grown := {name for name, called in calls.items() if called & changers} - changers:
        changers |= grown
    return {name for name in changers if not name.startswith("_")}


def session_changes(path: Path, changers: set[str]) -> list[str]:
    """`….session.name` or `session.name` in `path`, called or handed on (a signal connected
    to it), for `name` among `changers`."""
    return [
        f"{path.name}:{node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute)
        and node.attr in changers
        and ast.unparse(node.value).split(".")[-1] == "session"
    ]


def test_the_session_change_finder_finds_one(tmp_path):
    assert {"set_live", "set_timed", "set_parameters", "run_done"} <= session_changers()
    assert "subscribe" not in session_changers() and "untimeable" not in session_changers()
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def f(window, session):\n    window.session.set_live(True)\n"
        "    session.untimeable()\n    connect(session.set_show)\n"
    )
    found = session_changes(sample, {"set_live", "set_show"})
    assert found == ["sample.py:2: window.session.set_live", "sample.py:4: session.set_show"]


def test_the_window_changes_its_session_only_through_its_controller():
    # One way in: the WindowController (blurapp.app.window_controller) makes every change, and
    # the widgets and the menus ask it; they only read the session and listen to it.
    changers = session_changers()
    changed = [
        line
        for path in sorted((PACKAGE / "ui").glob("*.py"))
        for line in session_changes(path, changers)
    ]
    assert changed == []


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


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_names_taken(name: str, path: Path, known: set[str]) -> list[str]:
    """Each private name of another of blurapp's modules that module `name` (at `path`) takes,
    as "owner._name": `from owner import _name` anywhere, at module level, inside a
    function or under `if TYPE_CHECKING:`, or `owner._name` after `import owner` (or `from
    package import owner`). A private module (`from package import _shared`) is the package's
    own, open to its modules; what is taken must be a public name of it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    bound = {}  # a name this module binds to one of blurapp's modules: that module
    taken = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "blurapp" or alias.name.startswith("blurapp."):
                    local = alias.asname or alias.name.partition(".")[0]
                    bound[local] = alias.name if alias.asname else local
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base != "blurapp" and not base.startswith("blurapp."):
                continue
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in known:
                    bound[alias.asname or alias.name] = submodule
                elif _is_private(alias.name) and base != name:
                    taken.append(f"{base}.{alias.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_private(node.attr):
            owner = _dotted(node.value)
            first, _, rest = owner.partition(".")
            if first in bound:
                owner = ".".join(filter(None, [bound[first], rest]))
                if owner in known and owner != name:
                    taken.append(f"{owner}.{node.attr}")
    return taken


def _dotted(node: ast.expr) -> str:
    """`a.b.c` as text; "" for anything but names and attributes."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and (value := _dotted(node.value)):
        return f"{value}.{node.attr}"
    return ""


def test_the_private_name_finder_finds_what_is_taken(tmp_path):
    known = {"blurapp", "blurapp.core", "blurapp.core.media.photo", "blurapp.core.media._shared"}
    path = tmp_path / "clip_files.py"
    path.write_text(
        """
from typing import TYPE_CHECKING
from blurapp.core.media.photo import Photo, _to_gray
from ._shared import shared_rule
from blurapp.core.media import _shared, photo
import blurapp.core.media.photo
import blurapp.core.media.photo as photo_module
if TYPE_CHECKING:
    from .photo import _Layout
def read():
    from blurapp.core.media.photo import _GRAY_MODES
    return photo._to_colour, photo_module._wide, blurapp.core.media.photo._modes, _shared.rule
""",
        encoding="utf-8",
    )
    assert sorted(private_names_taken("blurapp.core.media.clip_files", path, known)) == [
        "blurapp.core.media.photo._GRAY_MODES",
        "blurapp.core.media.photo._Layout",
        "blurapp.core.media.photo._modes",
        "blurapp.core.media.photo._to_colour",
        "blurapp.core.media.photo._to_gray",
        "blurapp.core.media.photo._wide",
    ]
    assert private_names_taken("blurapp.core.media.photo", path, known) == []


def test_no_module_takes_another_modules_private_name():
    """What two modules share is public in one of them, or in a module of its own."""
    found = modules()
    taken = sorted(
        f"{name} takes {private}"
        for name, path in found.items()
        for private in set(private_names_taken(name, path, set(found)))
    )
    assert not taken, "\n".join(taken)


def local_imports_without_a_reason(name: str, path: Path) -> list[str]:
    """Each import of one of blurapp's modules inside a function of module `name` (at `path`)
    with no comment to say why it is there and not at the top: none on its own lines, none on
    the line above it or above the imports it is one of a block of (one comment for a block)."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    commented = {
        token.start[0]
        for token in tokenize.generate_tokens(io.StringIO(text).readline)
        if token.type == tokenize.COMMENT
    }
    local = [
        node
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(function)
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]
    import_lines = {line for node in local for line in range(node.lineno, node.end_lineno + 1)}
    found = {}
    for node in local:
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            modules = [base]
        if not any(module == "blurapp" or module.startswith("blurapp.") for module in modules):
            continue
        own = set(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        above = node.lineno - 1
        while above in import_lines:  # the block of imports it is one of
            above -= 1
        if not (own | {node.lineno - 1, above}) & commented:
            found[node.lineno] = f"{name}:{node.lineno}: {ast.unparse(node)}"
    return [found[line] for line in sorted(found)]


def test_the_local_import_finder_finds_one_without_a_reason(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        """
import json
from blurapp.core import spec
def plain():
    import json
    from blurapp.core.media import photo
    from . import kernel
def explained():
    from blurapp.scale import tiled  # the scale layer: only for a big image
    # PyAV: only for a video
    from blurapp.core.media.clip_video import VideoClip
    from blurapp.core.media.clip_saving import (
        video_codec,
    )
    from .media import photo
def late():
    x = 1
    from blurapp.ui.launch import run_window
""",
        encoding="utf-8",
    )
    assert local_imports_without_a_reason("blurapp.core.sample", sample) == [
        "blurapp.core.sample:6: from blurapp.core.media import photo",
        "blurapp.core.sample:7: from . import kernel",
        "blurapp.core.sample:18: from blurapp.ui.launch import run_window",
    ]


def test_an_import_of_blurapps_own_inside_a_function_says_why():
    """At the top unless import time or a real need asks otherwise (a slower start, an import
    circle, an optional extra behind it); then a few words say which."""
    found = modules()
    unexplained = [
        line
        for name, path in sorted(found.items())
        for line in local_imports_without_a_reason(name, path)
    ]
    assert not unexplained, "\n".join(unexplained)


def imports_by_name(path: Path) -> list[str]:
    """Each call in `path` that imports a module named by a string (importlib.import_module,
    __import__): an import that neither a reader nor this file sees."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and _dotted(node.func).rpartition(".")[2] in {
            "import_module",
            "__import__",
        }:
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_import_by_name_finder_finds_one(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import importlib\nfrom importlib import import_module\n"
        "a = importlib.import_module('blurapp.cli.' + name)\nb = import_module(name)\n"
        "c = __import__('dask')\nimport dask.array\n",
        encoding="utf-8",
    )
    assert [line.partition(":")[2].partition(":")[0] for line in imports_by_name(sample)] == [
        "3",
        "4",
        "5",
    ]


def test_every_import_is_an_import_statement():
    """No module is imported by a name in a string: what each module uses is in its import
    statements (or its package's stub), which this file and a reader see."""
    found = [line for path in sorted(PACKAGE.rglob("*.py")) for line in imports_by_name(path)]
    assert found == []


def test_a_packages_stub_is_read_with_it():
    # blurapp's public names come from the API's modules through its stub alone.
    known = set(modules())
    imported = imports_of("blurapp", PACKAGE / "__init__.py", known)
    assert {"blurapp.api", "blurapp.api_clips", "blurapp.core.spec"} <= imported


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
