"""The probes under docs/performance/, which the performance page tells a reader to run on an
accelerator (`python docs/performance/NAME.py`), import what BlurApp still has: a name moved
to another module would fail there, on the machine that measures, before the first figure."""

import ast
import importlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBES = sorted((ROOT / "docs" / "performance").glob("*.py"))


def missing_imports(script: Path) -> list[str]:
    """Each `from blurapp... import NAME` of `script` whose module has no NAME (nor a
    submodule of that name), as 'line: module.NAME'."""
    missing = []
    for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith("blurapp"):
            continue
        module = importlib.import_module(node.module)  # type: ignore[arg-type]
        for alias in node.names:
            if hasattr(module, alias.name):
                continue
            try:
                importlib.import_module(f"{node.module}.{alias.name}")
            except ImportError:
                missing.append(f"{node.lineno}: {node.module}.{alias.name}")
    return missing


def test_every_probe_imports_names_blurapp_has():
    assert PROBES
    problems = {probe.name: found for probe in PROBES if (found := missing_imports(probe))}
    assert problems == {}
