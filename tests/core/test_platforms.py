"""One table answers every platform question (blurapp.core.platforms.PLATFORM_TRAITS): no other
module of blurapp/ tests a device's platform by its name, and a platform added to the table is
what the engines ask."""

import argparse
import ast
from pathlib import Path
from types import SimpleNamespace

import pytest

from blurapp.core import platforms
from blurapp.core.engines import host_link
from blurapp.core.engines.jax_program import pass_values_on
from blurapp.core.platforms import (
    PLATFORM_TRAITS,
    PLATFORMS,
    Platform,
    on_accelerator,
    platform_traits,
)

PACKAGE = Path(platforms.__file__).resolve().parents[1]
# The one module that names a platform to answer a question about it.
THE_TABLE = PACKAGE / "core" / "platforms.py"


def _names_a_platform(node: ast.AST) -> bool:
    """Whether `node` is a platform's name written out ("cpu"), or a tuple, list or set of
    values holding one (`platform in (None, "cpu")`)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value.lower() in PLATFORMS
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_a_platform(element) for element in node.elts)
    return False


def platform_names_compared(source: str) -> list[int]:
    """The lines of `source` that compare something to a platform's name."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Compare)
        and any(_names_a_platform(side) for side in (node.left, *node.comparators))
    )


def test_no_module_but_the_table_compares_a_platform_to_its_name():
    found = {
        path.relative_to(PACKAGE).as_posix(): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != THE_TABLE
        and (lines := platform_names_compared(path.read_text(encoding="utf-8")))
    }
    assert found == {}


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        ('if device.platform == "cpu":\n    pass\n', [1]),
        ('ok = platform in (None, "TPU")\n', [1]),
        ('x = 1\nok = "gpu" != name\n', [2]),
        ('ok = sys.platform == "win32"\nok = platform == "auto"\n', []),
    ],
)
def test_a_platform_compared_to_its_name_is_found(source, lines):
    assert platform_names_compared(source) == lines


def test_every_platform_a_user_names_has_its_traits_and_only_the_cpu_is_the_host():
    assert tuple(PLATFORMS) == ("cpu", "gpu", "tpu")
    assert [on_accelerator(name) for name in PLATFORMS] == [False, True, True]
    # As JAX names a GPU's platform, and as a user might write a name.
    assert platform_traits("cuda") is platform_traits("rocm") is PLATFORM_TRAITS["gpu"]
    assert platform_traits("TPU") is PLATFORM_TRAITS["tpu"]
    assert platform_traits(SimpleNamespace(platform="CUDA")) is PLATFORM_TRAITS["gpu"]


def test_a_platform_the_table_does_not_know_is_taken_for_an_accelerator_measured_nowhere():
    unknown = platform_traits(SimpleNamespace(platform="npu"))
    assert unknown == Platform() == PLATFORM_TRAITS["gpu"]
    assert unknown.accelerator and unknown.link == "pieces" and unknown.pass_values is None
    assert not unknown.compiles_pallas and not unknown.blurs_in_strips


def test_a_platform_added_to_the_table_is_what_the_engines_ask(monkeypatch):
    device = SimpleNamespace(platform="npu", id=0)
    large = 64 << 20
    # Not in the table: an accelerator's defaults, a large picture crossing in pieces.
    assert host_link.pieces_for(large, device) == host_link.LINK_PIECES
    assert pass_values_on("npu") is None
    monkeypatch.setitem(PLATFORM_TRAITS, "npu", Platform(link="as it is", pass_values=1_000))
    assert host_link.pieces_for(large, device) == 0
    assert pass_values_on("npu") == 1_000
    assert on_accelerator(device)


def test_a_fake_platform_added_to_the_table_alone_answers_every_platform_question(monkeypatch):
    """One line in the table, and a platform is one a user names (`--device`, `jax@npu`) and
    every question BlurApp asks of a platform gets its answer."""
    from blurapp.cli.options import add_engine_options
    from blurapp.core.engines import get_engine
    from blurapp.core.engines.pallas_engine import runs_natively
    from blurapp.core.measuring.floors import ComputeFloor

    npu = Platform(
        accelerator=True,
        blurs_in_strips=True,
        pass_values=1_000,
        compiles_pallas=True,
        link="words",
        halves_by_pooling=False,
        keeps_freed_memory=True,
        products_on_a_matrix_unit=True,
    )
    monkeypatch.setitem(PLATFORM_TRAITS, "npu", npu)
    device = SimpleNamespace(platform="npu", id=0, device_kind="NPU 1")

    assert "npu" in PLATFORMS
    jit_there = get_engine("jax@npu")
    assert jit_there.platform == "npu" and jit_there.title == "JAX-jit (NPU)"
    parser = argparse.ArgumentParser()
    add_engine_options(parser, several=True)
    assert parser.parse_args(["--device", "npu"]).device == "npu"

    assert platform_traits(device) is platform_traits("NPU") is npu
    assert on_accelerator(device)
    assert pass_values_on("npu") == 1_000
    assert runs_natively(device)
    assert host_link.layout_for(device) == "words"
    product = ComputeFloor("npu: NPU 1", 0.5, 3, 1024)
    assert product.on_a_matrix_unit
