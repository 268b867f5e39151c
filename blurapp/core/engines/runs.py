"""What one engine's run gives back: its output and its timings, the same shape for every engine."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

import numpy as np

from blurapp.core.platforms import HOST_PLATFORM

Progress = Callable[[int, int], None]  # (taps done, taps in all)
Cancelled = Callable[[], bool]


class BlurCancelled(Exception):
    """The caller asked the blur to stop before it finished."""


class Compilation(StrEnum):
    """How a compiled engine's first call got its program."""

    COMPILED = "compiled"  # traced and compiled now
    FROM_CACHE = "from cache"  # loaded from the persistent compilation cache on disk
    REUSED = "already compiled"  # compiled earlier in this session


class CacheLookup(StrEnum):
    """What JAX's persistent compilation cache did for a program being compiled."""

    HIT = "hit"  # the program was loaded from it
    MISS = "miss"  # not there: compiled, and written to it
    OFF = "off"  # not asked: the cache is off (or JAX had the program in memory already)


class ProgramStages(NamedTuple):
    """How long each of JAX's ahead-of-time stages took to get a compiled engine its program:
    jit(f).trace(…), .lower(), .compile() (or the load from the persistent cache)."""

    tracing_seconds: float
    lowering_seconds: float
    compiling_seconds: float
    cache: CacheLookup


class FirstCallParts(NamedTuple):
    """A compiled engine's first call taken apart: the stages of getting its program, the
    program's first run (waited for), and what is left of the first call's time besides them
    (`other_seconds`: looking up and setting up the call). The five add up to the first call.
    `copies_seconds`, the copies to and from the device around it, are not part of it: they
    are timed apart (the transfers), and shown beside it."""

    tracing_seconds: float
    lowering_seconds: float
    compiling_seconds: float
    cache: CacheLookup
    first_run_seconds: float
    copies_seconds: float
    other_seconds: float

    @property
    def first_call_seconds(self) -> float:
        """The first call these parts add up to."""
        return (
            self.tracing_seconds
            + self.lowering_seconds
            + self.compiling_seconds
            + self.first_run_seconds
            + self.other_seconds
        )

    def as_dict(self) -> dict[str, float | str]:
        """The parts as plain data, under the keys of `compare --json`'s first_call_parts."""
        return {**self._asdict(), "cache": str(self.cache)}


class Payer(StrEnum):
    """What made a program's first call: whoever did paid its compilation."""

    LIVE_PREVIEW = "live preview"
    RUN = "run"
    SWEEP = "sweep"


class PaidFirstCall(NamedTuple):
    """What a program's first call cost (with its compilation, or its load from the cache),
    and who paid it: what a later call that found it compiled shows as its first call."""

    seconds: float
    compilation: Compilation  # COMPILED or FROM_CACHE
    paid_by: Payer


class Call(NamedTuple):
    """One steady call of an engine, timed: the blur itself and, on a device, the copies of
    the photo to it and of the result back (None for an engine that copies nothing)."""

    seconds: float
    to_device_seconds: float | None = None
    from_device_seconds: float | None = None
    # The same call end to end with the photo in `bands` bands, their copies overlapping the
    # blur (blurapp.core.engines.bands); None where the call was only made in one piece.
    in_bands_seconds: float | None = None
    bands: int = 1

    @property
    def end_to_end_seconds(self) -> float:
        """What the call takes with its copies: in bands where it was made so, else its
        parts one after another."""
        if self.in_bands_seconds is not None:
            return self.in_bands_seconds
        return self.seconds + (self.to_device_seconds or 0.0) + (self.from_device_seconds or 0.0)


@dataclass(frozen=True, eq=False)
class FirstCall:
    """An engine's first call on an image, done: its output and figures, and `again()`, which
    times one more call of the same blur (see blurapp.core.engines.timing)."""

    output: np.ndarray
    again: Callable[[], Call]
    seconds: float  # with compilation, for an engine that compiles
    device: str = HOST_PLATFORM
    compilation: Compilation | None = None  # None: the engine compiles nothing
    to_device_seconds: float | None = None
    from_device_seconds: float | None = None
    # The first call taken apart, when it got its program (compiled it, or loaded it).
    parts: FirstCallParts | None = None
    # Its calls compute in the thread that makes them (NumPy's), so that thread's CPU clock
    # is theirs; otherwise the process's clock is (a device's or a library's threads).
    in_calling_thread: bool = False


class BlurredFrames(NamedTuple):
    """A batch of frames blurred in one call (blurapp.core.engines.engine.FramesCall): the
    outputs, frames × height × width (× 3), and the call's times, its copies apart."""

    output: np.ndarray
    call: Call
    device: str = HOST_PLATFORM
    # How a compiled engine got the program for this batch's shape (REUSED once it has it);
    # None: the engine compiles nothing.
    compilation: Compilation | None = None


@dataclass(frozen=True, eq=False)
class EngineRun:
    """One engine's blur of one image: the output, and every figure timed on its own.

    `seconds` is the steady time: the median of `repeat_seconds`, every steady sample timed (a
    sample is one call, or for a quick engine the mean of `calls_per_sample` calls in a row).
    Engines on a device time their copies apart; a compiled engine its first call.
    """

    output: np.ndarray
    repeat_seconds: tuple[float, ...]
    device: str = HOST_PLATFORM
    first_call_seconds: float | None = None  # with compilation, or just the run when reused
    compilation: Compilation | None = None  # None: the engine compiles nothing
    to_device_seconds: float | None = None  # the median copy (the first call's, if no steady)
    from_device_seconds: float | None = None
    # Each steady call with its copies; empty for an engine that copies nothing.
    end_to_end_repeat_seconds: tuple[float, ...] = ()
    # The bands those calls cut the photo into, their copies overlapping the blur
    # (blurapp.core.engines.bands); 1: one copy each way, waited for in turn.
    bands: int = 1
    # A quick engine's steady figures are samples, each the mean of this many calls in a row.
    calls_per_sample: int = 1
    # The wall-clock and the CPU seconds of the timed samples, measured around them (copies
    # included; the calling thread's CPU clock where FirstCall.in_calling_thread, else the
    # process's): a busy machine shows in the wall time running ahead of the CPU's.
    calls_wall_seconds: float = 0.0
    calls_cpu_seconds: float = 0.0
    # The first call taken apart (FirstCall.parts), when it got its program.
    first_call_parts: FirstCallParts | None = None
    # The timing round (blurapp.core.engines.timing) of each of `repeat_seconds`, so engines
    # timed side by side can be divided round by round; empty when rounds were not kept.
    sample_rounds: tuple[int, ...] = ()

    @property
    def seconds(self) -> float:
        """The median steady time; the first call's when no steady call was timed."""
        if not self.repeat_seconds:
            return self.first_call_seconds or 0.0
        return statistics.median(self.repeat_seconds)

    @property
    def end_to_end_seconds(self) -> float:
        """The median steady call with its copies to and from the device; for an engine that
        copies nothing, its steady time. Without steady calls: the first call with its copies."""
        if self.end_to_end_repeat_seconds:
            return statistics.median(self.end_to_end_repeat_seconds)
        copies = (self.to_device_seconds or 0.0) + (self.from_device_seconds or 0.0)
        return self.seconds + copies if not self.repeat_seconds else self.seconds

    @property
    def quartiles(self) -> tuple[float, float]:
        """The steady calls' spread: the first and third quartile (both the one time when
        only one call was timed)."""
        times = self.repeat_seconds or (self.seconds,)
        if len(times) == 1:
            return times[0], times[0]
        first, _, third = statistics.quantiles(times, n=4, method="inclusive")
        return first, third

    def round_seconds(self, *, end_to_end: bool = False) -> dict[int, float]:
        """Each timing round's median sample, by round (empty when rounds were not kept);
        `end_to_end`: with the copies to and from the device, for an engine that makes them."""
        samples = self.repeat_seconds
        if end_to_end and self.end_to_end_repeat_seconds:
            samples = self.end_to_end_repeat_seconds
        if not samples or len(self.sample_rounds) != len(samples):
            return {}
        by_round: dict[int, list[float]] = {}
        for round_number, seconds in zip(self.sample_rounds, samples, strict=True):
            by_round.setdefault(round_number, []).append(seconds)
        return {number: statistics.median(times) for number, times in by_round.items()}

    @property
    def spread(self) -> float | None:
        """The middle half of the steady samples as a fraction of their median (None: fewer
        than two, or a median of 0)."""
        if len(self.repeat_seconds) < 2 or self.seconds <= 0:
            return None
        low, high = self.quartiles
        return (high - low) / self.seconds

    @property
    def compiled(self) -> bool:
        """Whether the first call had to get a program (compile it, or load it from disk)."""
        return self.compilation is not None and self.compilation is not Compilation.REUSED


def check_cancelled(cancelled: Cancelled | None) -> None:
    """Raise BlurCancelled when the caller has asked to stop."""
    if cancelled is not None and cancelled():
        raise BlurCancelled
