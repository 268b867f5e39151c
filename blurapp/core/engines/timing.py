"""How BlurApp times its engines: every engine the same way, so their figures can be divided.

After each engine's first call (which compiles, for JAX-jit), every engine makes one untimed
warm-up call; then the engines are timed in rounds, one steady call each per round, the order
reversed every other round, so that a burst of noise on the machine (another program, the CPU
changing its clock) falls on all of them alike instead of on whichever ran then. Like `timeit`'s
autorange, an engine quicker than SAMPLE_SECONDS is timed in samples of several calls in a row
(each sample their mean), and the number of samples is chosen so that each engine is measured
over at least MEASURE_SECONDS: first from the warm-up call, then, as the samples come in, from
their median (a first call or two after compilation can be several times slower than the rest).
Slow engines are capped so a comparison stays short. A figure is the median of the samples,
shown with its quartiles. Around each timed sample the CPU time is taken with the wall time (the
calling thread's for an engine that computes in it, NumPy; else the process's), so a comparison
can tell when the machine was busy (blurapp.core.measuring.contention).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Hashable, Mapping
from typing import TypeVar

from blurapp.core.engines.runs import (
    BlurCancelled,
    Call,
    Cancelled,
    EngineRun,
    FirstCall,
    check_cancelled,
)

# Each engine is timed over at least this long…
MEASURE_SECONDS = 0.3
# …in at least this many calls, and at most this many…
MIN_CALLS = 5
MAX_CALLS = 1000
# …unless that would take longer than this: a slow engine (NumPy on 24 MP: over a second a
# call) is timed fewer times, at least once.
MAX_MEASURE_SECONDS = 4.0
# A timed sample lasts at least this long: an engine quicker than that is called several times in
# a row per sample (timeit's `number`) and the sample is their mean. JAX-jit's calls on a small
# photo can alternate between two times, one about twice the other; one call per sample makes
# the median jump between the two from run to run.
SAMPLE_SECONDS = 0.005
MAX_CALLS_PER_SAMPLE = 100
# The calls in a sample are chosen from the quickest of up to WARM_UP_CALLS warm-up calls of
# an engine whose warm-up took less than QUICK_WARM_UP_SECONDS: one warm-up call caught by
# another program (5 ms or more for JAX-jit's 1 ms on the bundled photo) made its samples single
# calls, and that launch's median one of the two times above.
WARM_UP_CALLS = 3
QUICK_WARM_UP_SECONDS = 10 * SAMPLE_SECONDS

# What is timed is named by its key: an engine's name, or whatever else a caller times beside
# the engines (blurapp.core.measuring.comparison's copy of the image on a device).
Timed = TypeVar("Timed", bound=Hashable)
# (calls timed so far, calls to time in all), after each timed call.
Counted = Callable[[int, int], None]


def calls_for(seconds: float) -> int:
    """How many steady calls to time of an engine whose one call took `seconds`."""
    wanted = max(MIN_CALLS, math.ceil(MEASURE_SECONDS / max(seconds, 1e-9)))
    affordable = max(1, math.floor(MAX_MEASURE_SECONDS / max(seconds, 1e-9)))
    return min(MAX_CALLS, wanted, affordable)


def calls_per_sample(seconds: float) -> int:
    """How many calls in a row make one sample of an engine whose quickest call took
    `seconds`: enough to last SAMPLE_SECONDS, and an even number when more than one, so that
    calls alternating between two times hold as many of each in every sample (an odd count
    gave samples of two kinds, and a median that took either)."""
    quick = math.ceil(SAMPLE_SECONDS / max(seconds, 1e-9))
    if quick <= 1:
        return 1
    return min(MAX_CALLS_PER_SAMPLE, quick + quick % 2)


def time_engines(
    first_calls: Mapping[Timed, FirstCall],
    *,
    repeats: int | None = None,
    max_repeats: Mapping[Timed, int | None] | None = None,
    cancelled: Cancelled | None = None,
    failed: Callable[[Timed, Exception], None] | None = None,
    progress: Counted | None = None,
) -> dict[Timed, EngineRun]:
    """Time the steady calls of engines whose first call is done, interleaved round by round.

    `repeats`: the steady calls of every engine (0: none, the first call only); None chooses
    them per engine (see calls_for), capped by name by `max_repeats`. An engine
    whose steady call raises is left out of the answer and reported to `failed(name, error)`
    (without `failed`, the error propagates). BlurCancelled is raised when `cancelled()` turns
    True between calls. `progress(done, total)` follows the timed calls.
    """
    if repeats is not None and repeats < 0:
        raise ValueError(f"repeats must be 0 or more, not {repeats}")
    caps = dict(max_repeats or {})
    calls: dict[Timed, list[Call]] = {name: [] for name in first_calls}
    rounds: dict[Timed, list[int]] = {name: [] for name in first_calls}
    wanted: dict[Timed, int] = {}
    per_sample = dict.fromkeys(first_calls, 1)
    alive = list(first_calls)
    # (wall, CPU) seconds of each engine's timed samples, measured around them.
    spent = {name: [0.0, 0.0] for name in first_calls}
    last_spent = (0.0, 0.0)

    def call(name: Timed) -> Call | None:
        nonlocal last_spent
        check_cancelled(cancelled)
        try:
            # An engine that computes in this thread is timed by this thread's CPU clock: the
            # process's also counts its other threads, and an accelerator's runtime keeps
            # several busy (on a TPU machine NumPy's calls took 2.4× their wall time of it).
            clock = time.thread_time if first_calls[name].in_calling_thread else time.process_time
            wall, cpu = time.perf_counter(), clock()
            sample = _mean([first_calls[name].again() for _ in range(per_sample[name])])
            last_spent = (time.perf_counter() - wall, clock() - cpu)
            return sample
        except Exception as error:
            if failed is None or isinstance(error, BlurCancelled):
                raise
            failed(name, error)
            alive.remove(name)
            return None

    def want(name: Timed, seconds: float) -> None:
        if repeats is not None:  # --repeat N: N calls of every engine, slow ones too
            wanted[name] = repeats
            return
        count, cap = calls_for(seconds * per_sample[name]), caps.get(name)
        wanted[name] = max(len(calls[name]), count if cap is None else min(count, cap))

    def left(name: Timed) -> int:
        return wanted.get(name, 0) - len(calls[name])

    if repeats != 0:
        for name in list(alive):  # the warm-up round, untimed but for choosing the count
            warm_up, tries = call(name), 1
            # A quick engine's first calls after compiling are often slower, and any call can
            # be caught by another program: the quickest of a few chooses.
            while (
                warm_up is not None
                and repeats is None
                and warm_up.seconds < QUICK_WARM_UP_SECONDS
                and tries < WARM_UP_CALLS
            ):
                again, tries = call(name), tries + 1
                warm_up = again if again is None else min(warm_up, again)
            if warm_up is not None:
                if repeats is None:
                    per_sample[name] = calls_per_sample(warm_up.seconds)
                want(name, warm_up.seconds)
    round_number = 0
    while any(left(name) > 0 for name in alive):
        # Every engine still to be timed takes part in every round, the ones with more calls
        # left making more of them, so all of them end together: a fast engine's hundreds of
        # calls are spread over the whole time a slow one is measured, not bunched after it.
        fewest = min(left(name) for name in alive if left(name) > 0)
        order = alive if round_number % 2 == 0 else alive[::-1]
        for name in list(order):
            for _ in range(math.ceil(max(left(name), 0) / fewest)):
                if left(name) <= 0:  # its count fell as its calls came in slower
                    break
                done = call(name)
                if done is None:
                    break
                calls[name].append(done)
                rounds[name].append(round_number)
                spent[name][0] += last_spent[0]
                spent[name][1] += last_spent[1]
                want(name, statistics.median(c.seconds for c in calls[name]))
                if progress is not None:
                    done_so_far = sum(len(calls[name]) for name in alive)
                    progress(done_so_far, sum(wanted[name] for name in alive))
        round_number += 1
    return {
        name: _engine_run(
            first_calls[name], calls[name], per_sample[name], spent[name], rounds[name]
        )
        for name in alive
    }


def first_call_run(first: FirstCall) -> EngineRun:
    """An engine's figures from its first call alone, no steady call timed: a preview's, or
    its output while the others are timed."""
    return _engine_run(first, [])


def _mean(calls: list[Call]) -> Call:
    """The calls of one sample as one call: the mean of each of its times."""
    if len(calls) == 1:
        return calls[0]

    def mean(times: list[float | None]) -> float | None:
        known = [time for time in times if time is not None]
        return statistics.fmean(known) if known else None

    return Call(
        statistics.fmean(call.seconds for call in calls),
        mean([call.to_device_seconds for call in calls]),
        mean([call.from_device_seconds for call in calls]),
        mean([call.in_bands_seconds for call in calls]),
        max(call.bands for call in calls),
    )


def _engine_run(
    first: FirstCall,
    calls: list[Call],
    per_sample: int = 1,
    spent: list[float] | None = None,
    rounds: list[int] | None = None,
) -> EngineRun:
    copies = first.to_device_seconds is not None
    # An engine with nothing to compile or copy has no first call of its own to show: untimed
    # beyond it, its one call is its time.
    own_first_call = first.compilation is not None or copies
    steady = tuple(call.seconds for call in calls)
    if not steady and not own_first_call:
        steady = (first.seconds,)
    return EngineRun(
        output=first.output,
        repeat_seconds=steady,
        device=first.device,
        first_call_seconds=first.seconds if own_first_call else None,
        compilation=first.compilation,
        to_device_seconds=_median_or(first.to_device_seconds, [c.to_device_seconds for c in calls]),
        from_device_seconds=_median_or(
            first.from_device_seconds, [c.from_device_seconds for c in calls]
        ),
        end_to_end_repeat_seconds=tuple(call.end_to_end_seconds for call in calls)
        if copies
        else (),
        bands=max((call.bands for call in calls), default=1),
        calls_per_sample=per_sample if calls else 1,
        calls_wall_seconds=spent[0] if spent else 0.0,
        calls_cpu_seconds=spent[1] if spent else 0.0,
        first_call_parts=first.parts,
        sample_rounds=tuple(rounds or ()),
    )


def _median_or(first: float | None, figures: list[float | None]) -> float | None:
    timed = [figure for figure in figures if figure is not None]
    return statistics.median(timed) if timed else first
