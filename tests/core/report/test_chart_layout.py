"""The chart of times is drawn for the two bars the speed-up divides (NumPy's and JAX-jit's
steady times): a first call far longer is drawn broken, never shrinking them to slivers."""

import numpy as np
import pytest

from blurapp.core.engines.runs import Compilation, EngineRun
from blurapp.core.measuring.comparison import ComparisonResult
from blurapp.core.report.chart_bars import timing_bars
from blurapp.core.report.chart_layout import HEADLINE_ROOM, chart_layout

# What the window showed on a TPU: the speed-up's two bars beside a first call 3,300 × longer.
ON_A_TPU = [
    ("NumPy", 0.00910),
    ("JAX without jit", 0.124),
    ("JAX first call", 2.094),
    ("JAX steady", 0.000632),
]
HEADLINE = ("NumPy", "JAX steady")


def width_in_characters(text: str) -> float:
    return 7.0 * len(text)


def length(layout, name: str) -> float:
    bar = next(bar for bar in layout.bars if bar.name == name)
    return bar.end - layout.bar_left


@pytest.mark.parametrize("width", [330, 500, 900])
def test_numpy_and_jax_steady_are_drawn_to_scale_and_long_enough_to_compare(width):
    layout = chart_layout(ON_A_TPU, width, width_in_characters, HEADLINE)
    numpy, steady = length(layout, "NumPy"), length(layout, "JAX steady")
    axis = layout.axis_end - layout.bar_left
    assert numpy >= 0.5 * axis  # the reference fills most of the axis
    assert steady == pytest.approx(numpy * 0.632 / 9.10, abs=1)  # to scale with it
    assert steady >= 6  # more than a sliver (MIN_BAR is 2 px): the eye sees both
    broken = {bar.name for bar in layout.bars if bar.broken}
    assert broken == {"JAX first call", "JAX without jit"}  # beyond the axis, times printed
    assert all(not bar.broken for bar in layout.bars if bar.name in HEADLINE)


def test_a_first_call_close_to_the_headline_stays_to_scale():
    bars = [("NumPy", 0.073), ("JAX first call", 0.050 * HEADLINE_ROOM), ("JAX steady", 0.0106)]
    layout = chart_layout(bars, 400, width_in_characters, HEADLINE)
    assert not any(bar.broken for bar in layout.bars)
    assert length(layout, "JAX first call") == pytest.approx(
        length(layout, "NumPy") * 0.2 / 0.073, abs=1
    )


def jit_run(steady, first):
    return EngineRun(
        output=np.zeros((4, 6), np.float32),
        repeat_seconds=(steady,) * 3,
        first_call_seconds=first,
        compilation=Compilation.COMPILED,
    )


def test_the_headline_bars_are_the_reference_and_the_jit_engines_steady_times():
    runs = {
        "numpy": EngineRun(output=np.zeros((4, 6), np.float32), repeat_seconds=(0.0091,)),
        "jax": jit_run(0.000632, 2.094),
    }
    result = ComparisonResult(kernel=np.ones((3, 3), np.float32), sigma=1.0, runs=runs)
    headline = [bar.label for bar in timing_bars(result) if bar.headline]
    assert headline == ["NumPy", "JAX steady"]


def test_without_a_jit_engine_there_is_no_headline():
    runs = {"numpy": EngineRun(output=np.zeros((4, 6), np.float32), repeat_seconds=(0.0091,))}
    result = ComparisonResult(kernel=np.ones((3, 3), np.float32), sigma=1.0, runs=runs)
    assert not any(bar.headline for bar in timing_bars(result))


def test_a_long_bar_name_wraps_whole_rather_than_being_cut():
    # "JAX first call (live pre…" was all a 1024 px window showed of this bar's name.
    bars = [("NumPy", 0.015), ("JAX first call (live preview)", 0.6), ("JAX steady", 0.0014)]
    layout = chart_layout(bars, 290, width_in_characters, HEADLINE)
    first_call = next(bar for bar in layout.bars if bar.name.startswith("JAX first call"))
    assert first_call.name_lines == ("JAX first call", "(live preview)")
    assert layout.name_lines == 2
    for bar in layout.bars:
        assert " ".join(bar.name_lines) == bar.name  # every word, none cut
        assert all(width_in_characters(line) <= layout.name_width - 6 for line in bar.name_lines)
    # Wide enough, it keeps one line.
    wide = chart_layout(bars, 900, width_in_characters, HEADLINE)
    assert wide.name_lines == 1 and all(len(bar.name_lines) == 1 for bar in wide.bars)
