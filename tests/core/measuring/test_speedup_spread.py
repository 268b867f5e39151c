"""The speed-up taken round by round: its median the figure, its middle half told beside it,
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


def test_the_speedup_and_its_spread_come_from_the_speedups_round_by_round():
    # 10 ms ÷ 2, 1, 2, 4, 1 ms; round 5, which JAX-jit had no part in, is left out.
    assert SPREAD.round_speedups_of("jax") == pytest.approx([5, 10, 5, 2.5, 10])
    assert SPREAD.speedup == pytest.approx(5)  # their median
    assert SPREAD.speedup_spread == pytest.approx((5, 10))  # their middle half


def test_a_busy_moment_that_slows_both_engines_in_a_round_cancels():
    # Another program took the CPU in rounds 3 and 4 (NumPy 10 → 30 ms, JAX-jit 1 → 3 ms), and
    # JAX-jit alone lost its second core in round 2 (3 ms).
    busy = comparison((0, 1, 2, 3, 4), (0.001, 0.001, 0.003, 0.003, 0.003), (0, 1, 2, 3, 4))
    numpy = EngineRun(IMAGE, (0.010, 0.010, 0.010, 0.030, 0.030), sample_rounds=(0, 1, 2, 3, 4))
    busy = ComparisonResult(
        kernel=busy.kernel, sigma=1.0, runs={"numpy": numpy, "jax": busy.runs["jax"]}
    )
    # Round by round 10, 10, 3.3, 10, 10: the median 10×, where the medians' ratio, 10 ms ÷ 3 ms,
    # would say 3.3×.
    assert busy.round_speedups_of("jax") == pytest.approx([10, 10, 10 / 3, 10, 10])
    assert busy.speedup == pytest.approx(10)


def test_the_end_to_end_speedup_divides_round_by_round_with_the_copies():
    result = comparison((0, 1, 2), (0.001, 0.001, 0.001), (0, 1, 2))
    jax = result.runs["jax"]
    with_copies = EngineRun(
        jax.output,
        jax.repeat_seconds,
        first_call_seconds=0.5,
        compilation=Compilation.COMPILED,
        end_to_end_repeat_seconds=(0.002, 0.004, 0.004),
        sample_rounds=(0, 1, 2),
    )
    numpy = EngineRun(IMAGE, (0.010, 0.020, 0.010), sample_rounds=(0, 1, 2))
    result = ComparisonResult(
        kernel=result.kernel, sigma=1.0, runs={"numpy": numpy, "jax": with_copies}
    )
    # 10, 20, 10 ms ÷ 2, 4, 4 ms: 5, 5, 2.5 (the medians' ratio, 10 ms ÷ 4 ms, 2.5).
    assert result.end_to_end_speedup == pytest.approx(5)


def test_the_speedup_row_says_its_spread_and_the_json_holds_it():
    rows = {row.key: row for row in comparison_figures(SPREAD, "street.png", 6, 4)}
    assert rows["speedup"].text == (
        "5.0× (NumPy ÷ JAX steady; median of 5 rounds, middle half 5.0–10.0×)"
    )
    data = comparison_dict(SPREAD)
    assert data["speedup_spread"] == pytest.approx([5, 10])
    assert data["jax"]["speedup_spread"] == pytest.approx([5, 10])
    assert data["numpy"]["speedup_spread"] is None  # the reference is not sped up against itself
    # A script can divide the engines round by round itself.
    assert data["jax"]["sample_rounds"] == [0, 0, 1, 2, 3, 4]
    assert data["numpy"]["sample_rounds"] == [0, 1, 2, 3, 4, 5]


def test_too_few_rounds_shared_give_the_medians_ratio_and_no_spread():
    few = comparison((0, 1), (0.001, 0.002), (0, 1))
    assert few.speedup_spread is None
    assert few.speedup == pytest.approx(10 / 1.5)  # NumPy's median ÷ JAX-jit's
    rows = {row.key: row for row in comparison_figures(few, "street.png", 6, 4)}
    assert rows["speedup"].text == "6.7× (NumPy ÷ JAX steady)"
    assert comparison_dict(few)["speedup_spread"] is None
    # Runs whose rounds were not kept (made by hand, or by an older BlurApp) have none either.
    unkept = comparison((), (0.001,) * 5, (), numpy_samples=5)
    assert unkept.round_speedups_of("jax") == [] and unkept.speedup_spread is None
