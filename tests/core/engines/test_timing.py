"""How engines are timed: warm-up, interleaved rounds, autorange, medians and spread (the figures
`compare --json` gives for them are in tests/cli/test_timing_json.py)."""

import math
import statistics

import numpy as np
import pytest

from blurapp.core import Call, FirstCall, compare_engines
from blurapp.core.engines import Engine
from blurapp.core.engines.timing import (
    MAX_CALLS,
    MAX_MEASURE_SECONDS,
    MEASURE_SECONDS,
    MIN_CALLS,
    SAMPLE_SECONDS,
    calls_for,
    time_engines,
)
from blurapp.core.spec import BlurSpec

# What is under test here is the timing itself: each engine timed as long as BlurApp times it.
pytestmark = pytest.mark.real_timing


def scripted(name: str, seconds: float, log: list[str]) -> FirstCall:
    """An engine whose every call 'takes' `seconds` and is written to `log`."""

    def again() -> Call:
        log.append(name)
        return Call(seconds)

    return FirstCall(output=np.zeros((2, 2), np.float32), again=again, seconds=seconds)


def test_engines_are_timed_in_interleaved_rounds_after_one_warm_up_call_each():
    log: list[str] = []
    runs = time_engines({"a": scripted("a", 0.01, log), "b": scripted("b", 0.01, log)}, repeats=3)
    # Warm-up a, b; then the rounds, each other one in reverse order.
    assert log == ["a", "b", "a", "b", "b", "a", "a", "b"]
    assert runs["a"].repeat_seconds == (0.01,) * 3 and runs["b"].repeat_seconds == (0.01,) * 3


def test_the_number_of_calls_measures_each_engine_long_enough_and_caps_slow_ones():
    assert calls_for(0.005) * 0.005 >= MEASURE_SECONDS
    assert calls_for(1e-7) == MAX_CALLS
    assert calls_for(0.2) == MIN_CALLS
    assert calls_for(1.5) == int(MAX_MEASURE_SECONDS // 1.5)  # fewer than MIN_CALLS
    assert calls_for(60.0) == 1
    log: list[str] = []
    runs = time_engines({"fast": scripted("fast", 0.002, log), "slow": scripted("slow", 2.0, log)})
    # A 2 ms engine is timed in samples of 4 calls (3 make SAMPLE_SECONDS; an even count: see
    # test_calls_alternating_between_two_times_give_samples_of_one_kind), as many as 0.3 s holds.
    assert math.ceil(SAMPLE_SECONDS / 0.002) == 3 and runs["fast"].calls_per_sample == 4
    assert len(runs["fast"].repeat_seconds) == calls_for(0.008)
    assert runs["slow"].calls_per_sample == 1
    assert len(runs["slow"].repeat_seconds) == calls_for(2.0) == 2


def test_an_engine_cap_limits_its_chosen_calls_and_repeat_overrides_it():
    log: list[str] = []
    first_calls = {"a": scripted("a", 0.01, log), "capped": scripted("capped", 0.01, log)}
    runs = time_engines(first_calls, max_repeats={"capped": 2})
    assert len(runs["a"].repeat_seconds) == calls_for(0.01)
    assert len(runs["capped"].repeat_seconds) == 2
    # --repeat N forces N, for every engine.
    runs = time_engines(first_calls, repeats=6, max_repeats={"capped": 2})
    assert len(runs["a"].repeat_seconds) == 6 and len(runs["capped"].repeat_seconds) == 6


def test_a_fast_engines_many_calls_are_spread_over_a_slow_ones_time():
    log: list[str] = []
    time_engines({"fast": scripted("fast", 0.001, log), "slow": scripted("slow", 0.1, log)})
    # The warm-up round: three calls of a quick engine, the quickest choosing its samples.
    assert log[:4] == ["fast", "fast", "fast", "slow"]
    timed = log[4:]
    fast_calls, slow_calls = timed.count("fast"), timed.count("slow")
    # The fast engine in samples of 5 calls (5 ms), as many samples as 0.3 s holds.
    assert slow_calls == calls_for(0.1) and fast_calls == 5 * calls_for(0.005)
    slow_at = [index for index, name in enumerate(timed) if name == "slow"]
    # Each slow call is about where its share of the rounds puts it, not all at one end.
    for number, index in enumerate(slow_at, start=1):
        share = timed[: index + 1].count("fast") / fast_calls
        assert abs(share - number / slow_calls) <= 1 / slow_calls + 0.01, (number, share)


def test_no_repeats_means_the_first_call_only():
    log: list[str] = []
    runs = time_engines({"a": scripted("a", 0.01, log)}, repeats=0)
    assert log == []
    assert runs["a"].seconds == 0.01  # an engine with nothing to compile: its one call


def test_a_failing_steady_call_drops_that_engine_and_says_why():
    log: list[str] = []

    def broken() -> Call:
        raise RuntimeError("RESOURCE_EXHAUSTED")

    failures = {}
    runs = time_engines(
        {
            "a": scripted("a", 0.01, log),
            "b": FirstCall(output=np.zeros(1), again=broken, seconds=0.01),
        },
        repeats=2,
        failed=lambda name, error: failures.setdefault(name, str(error)),
    )
    assert list(runs) == ["a"] and failures == {"b": "RESOURCE_EXHAUSTED"}


def test_the_median_and_quartiles_come_from_every_call():
    times = iter([0.5, 0.001, 0.004, 0.002, 0.003, 0.005])

    def again() -> Call:
        return Call(next(times))

    first = FirstCall(output=np.zeros(1), again=again, seconds=1.0)
    run = time_engines({"a": first}, repeats=5)["a"]
    assert run.repeat_seconds == (0.001, 0.004, 0.002, 0.003, 0.005)  # the warm-up is left out
    assert run.seconds == 0.003
    assert run.quartiles == (0.002, 0.004)


def test_compare_times_every_engine_alike_and_the_speedup_divides_round_by_round():
    image = np.random.default_rng(0).random((64, 96), dtype=np.float32)
    result = compare_engines(image, repeats=4)
    for run in result.runs.values():
        assert len(run.repeat_seconds) == 4  # NumPy too
        assert run.seconds == statistics.median(run.repeat_seconds)
        assert run.sample_rounds == (0, 1, 2, 3)  # one call a round
    numpy, jax = result.reference_run, result.jit_run
    by_round = [a / b for a, b in zip(numpy.repeat_seconds, jax.repeat_seconds, strict=True)]
    assert result.speedup == pytest.approx(statistics.median(by_round))
    assert len(jax.end_to_end_repeat_seconds) == 4
    for steady, end_to_end in zip(jax.repeat_seconds, jax.end_to_end_repeat_seconds, strict=True):
        assert end_to_end >= steady
    by_round = [
        a / b for a, b in zip(numpy.repeat_seconds, jax.end_to_end_repeat_seconds, strict=True)
    ]
    assert result.end_to_end_speedup == pytest.approx(statistics.median(by_round))


def test_a_registered_engine_is_timed_like_the_others():
    calls = []

    def first_call(image, kernel, **_):
        def again():
            calls.append(1)
            return Call(0.001)

        return FirstCall(output=np.asarray(image, np.float32), again=again, seconds=0.001)

    custom = Engine("custom", "Custom", first_call)
    result = compare_engines(
        np.ones((8, 8), np.float32), BlurSpec(kernel_size=1), engines=["numpy", custom], repeats=5
    )
    assert len(calls) == 6  # warm-up and five
    assert result.speedup_of("custom") == pytest.approx(result.reference_run.seconds / 0.001)


def test_a_quick_engines_sample_is_the_mean_of_several_calls():
    """Calls alternating between two times, as JAX-jit's do on a small photo on this CPU: each
    sample averages them, so the median does not jump between the two."""
    times = iter([0.0005, 0.0005] + [0.0005, 0.0015] * 2000)

    def again() -> Call:
        return Call(next(times), 0.0001, 0.0001)

    first = FirstCall(output=np.zeros(1), again=again, seconds=0.1, to_device_seconds=0.0001)
    run = time_engines({"alternating": first})["alternating"]
    assert run.calls_per_sample == 10  # 5 ms of 0.5 ms calls
    assert run.seconds == pytest.approx(0.001)
    assert run.quartiles == (pytest.approx(0.001), pytest.approx(0.001))
    assert run.end_to_end_seconds == pytest.approx(0.0012)


def test_calls_alternating_between_two_times_give_samples_of_one_kind():
    """2 ms and 4 ms calls in turn: samples of 3 calls would be 2.7 or 3.3 ms by turns, and the
    median either; samples of an even count are all 3 ms."""
    times = iter([0.002, 0.004] * 2000)

    def again() -> Call:
        return Call(next(times))

    first = FirstCall(output=np.zeros(1), again=again, seconds=0.1)
    run = time_engines({"alternating": first})["alternating"]
    assert run.calls_per_sample % 2 == 0
    assert run.quartiles == (pytest.approx(0.003), pytest.approx(0.003))


def test_one_slow_warm_up_call_does_not_make_a_quick_engines_samples_single_calls():
    """The first warm-up call caught by another program (6 ms): the quickest of the warm-up
    calls (0.5 ms) chooses how many calls make a sample."""
    times = iter([0.006] + [0.0005] * 5000)

    def again() -> Call:
        return Call(next(times))

    first = FirstCall(output=np.zeros(1), again=again, seconds=0.1)
    run = time_engines({"quick": first})["quick"]
    assert run.calls_per_sample == 10  # 5 ms of 0.5 ms calls


def test_each_sample_keeps_the_round_it_was_timed_in():
    log: list[str] = []
    runs = time_engines({"fast": scripted("fast", 0.001, log), "slow": scripted("slow", 0.1, log)})
    slow, fast = runs["slow"], runs["fast"]
    assert slow.sample_rounds == tuple(range(len(slow.repeat_seconds)))
    assert len(fast.sample_rounds) == len(fast.repeat_seconds)
    # The fast engine's samples are spread over the same rounds, several to a round.
    assert set(fast.sample_rounds) == set(slow.sample_rounds)
    assert list(fast.sample_rounds) == sorted(fast.sample_rounds)


def test_a_time_not_measured_reads_as_a_dash_beside_times_that_were():
    from blurapp.core.report.figures import format_ms

    assert format_ms(None) == "—"
    assert [format_ms(s) for s in (1.532, 0.0421, 0.00421, 0.000421)] == [
        "1,532 ms",
        "42.1 ms",
        "4.21 ms",
        "0.421 ms",
    ]
