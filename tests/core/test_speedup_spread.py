"""The speed-up's spread: how far it moved from one timing round to the next, told beside it,
worked out here from made-up per-round times."""

import numpy as np
import pytest

from blurapp.core.engines.runs import Compilation, EngineRun
from blurapp.core.measuring.comparison import ComparisonResult, comparison_dict
from blurapp.core.report.figures import comparison_figures

IMAGE = np.zeros((4, 6), np.float32)


def comparison(numpy_rounds, jax_samples, jax_rounds, numpy_samples=None):
    """NumPy at 10 ms in each of `numpy_rounds` (or `numpy_samples` of it); JAX-jit's
    `jax_samples` timed in `jax_rounds`."""
    numpy_samples = len(numpy_rounds) if numpy_samples is None else numpy_samples
    runs = {
        "numpy": EngineRun(IMAGE, (0.010,) * numpy_samples, sample_rounds=numpy_rounds),
        "jax": EngineRun(
            IMAGE,
            jax_samples,
            first_call_seconds=0.5,
            compilation=Compilation.COMPILED,
            to_device_seconds=0.0001,
            from_device_seconds=0.0001,
            sample_rounds=jax_rounds,
        ),
    }
    return ComparisonResult(kernel=np.ones((3, 3), np.float32) / 9, sigma=1.0, runs=runs)


# Round 0 holds two JAX-jit samples (their median, 2 ms, is the round's), round 5 NumPy's alone.
SPREAD = comparison(
    (0, 1, 2, 3, 4, 5), (0.001, 0.003, 0.001, 0.002, 0.004, 0.001), (0, 0, 1, 2, 3, 4)
)


def test_the_spread_is_the_middle_half_of_the_speedups_round_by_round():
    # 10 ms ÷ 2, 1, 2, 4, 1 ms; round 5, which JAX-jit had no part in, is left out.
    assert SPREAD.round_speedups_of("jax") == pytest.approx([5, 10, 5, 2.5, 10])
    assert SPREAD.speedup_spread == pytest.approx((5, 10))
    assert SPREAD.speedup == pytest.approx(10 / 1.5)  # the headline stays the medians' ratio


def test_the_speedup_row_says_its_spread_and_the_json_holds_it():
    rows = {row.key: row for row in comparison_figures(SPREAD, "street.png", 6, 4)}
    assert (
        rows["speedup"].text == "6.7× (NumPy ÷ JAX steady; round by round, middle half 5.0–10.0×)"
    )
    data = comparison_dict(SPREAD)
    assert data["speedup_spread"] == pytest.approx([5, 10])
    assert data["jax"]["speedup_spread"] == pytest.approx([5, 10])
    assert data["numpy"]["speedup_spread"] is None  # the reference is not sped up against itself
    # A script can divide the engines round by round itself.
    assert data["jax"]["sample_rounds"] == [0, 0, 1, 2, 3, 4]
    assert data["numpy"]["sample_rounds"] == [0, 1, 2, 3, 4, 5]


def test_too_few_rounds_shared_give_no_spread():
    few = comparison((0, 1), (0.001, 0.002), (0, 1))
    assert few.speedup_spread is None
    rows = {row.key: row for row in comparison_figures(few, "street.png", 6, 4)}
    assert rows["speedup"].text == "6.7× (NumPy ÷ JAX steady)"
    assert comparison_dict(few)["speedup_spread"] is None
    # Runs whose rounds were not kept (made by hand, or by an older BlurApp) have none either.
    unkept = comparison((), (0.001,) * 5, (), numpy_samples=5)
    assert unkept.round_speedups_of("jax") == [] and unkept.speedup_spread is None
