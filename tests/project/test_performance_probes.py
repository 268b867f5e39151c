"""The probes under docs/performance/, which the performance page tells a reader to run on an
accelerator (`python docs/performance/NAME.py`), import what BlurApp still has: a name moved
to another module would fail there, on the machine that measures, before the first figure."""

import ast
import importlib
from pathlib import Path

import pytest

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


def test_the_first_call_compile_probe_runs_each_program_where_photos_cross_in_words(
    monkeypatch, capsys
):
    """first_call_compiles.py's child, on a TPU (the CPU standing in for one, its link taking
    words): each program it times takes the photo as it crosses there, so each one runs."""
    import importlib.util
    import json

    pytest.importorskip("jax")
    from helpers.stand_in_accelerator import take_the_cpu_for_an_accelerator

    from blurapp.core import platforms
    from blurapp.core.engines import host_link, jax_engine, pallas_engine

    spec = importlib.util.spec_from_file_location(
        "first_call_compiles", ROOT / "docs" / "performance" / "first_call_compiles.py"
    )
    assert spec is not None and spec.loader is not None
    probe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probe)
    take_the_cpu_for_an_accelerator(monkeypatch)
    monkeypatch.setattr(platforms, "on_accelerator", lambda device: True)
    # A TPU's Mosaic program is not what this test is about (nor quick to lower).
    monkeypatch.setattr(probe, "mosaic_registers", lambda *args: None)

    try:
        # 16 × 24 levels: rows of a whole number of words.
        with host_link.forced_layout(host_link.WORDS):
            probe.child(16 * 24 / 1e6, ["rotated"], 0)
    finally:
        jax_engine.compiled_blurs.clear()
        pallas_engine.compiled_kernels.clear()

    found = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [(each["engine"], each["algorithm"]) for each in found["programs"]] == [
        ("jax", "2d"),
        ("jax", "separable"),
        ("pallas", "2d"),
        ("pallas", "separable"),
    ]
