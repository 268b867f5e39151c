"""What one engine's run gives back: its output and its timings, the same shape for every engine."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

Progress = Callable[[int, int], None]  # (taps done, taps in all)
# Steady calls of an engine a comparison takes the median of, unless told otherwise.
DEFAULT_REPEATS = 3
Cancelled = Callable[[], bool]


class BlurCancelled(Exception):
    """The caller asked the blur to stop before it finished."""


class Compilation(StrEnum):
    """How a compiled engine's first call got its program."""

    COMPILED = "compiled"  # traced and compiled now
    FROM_CACHE = "from cache"  # loaded from the persistent compilation cache on disk
    REUSED = "already compiled"  # compiled earlier in this session


@dataclass(frozen=True, eq=False)
class EngineRun:
    """One engine's blur of one image: the output, and every figure timed on its own.

    `seconds` is the steady time: the median of `repeat_seconds` (a single run for an engine
    timed once). Engines on a device time their copies apart; a compiled engine its first call.
    """

    output: np.ndarray
    repeat_seconds: tuple[float, ...]
    device: str = "cpu"
    first_call_seconds: float | None = None  # with compilation, or just the run when reused
    compilation: Compilation | None = None  # None: the engine compiles nothing
    to_device_seconds: float | None = None
    from_device_seconds: float | None = None

    @property
    def seconds(self) -> float:
        """The median steady time; the first call's when no steady call was timed."""
        if not self.repeat_seconds:
            return self.first_call_seconds or 0.0
        return statistics.median(self.repeat_seconds)

    @property
    def compiled(self) -> bool:
        """Whether the first call had to get a program (compile it, or load it from disk)."""
        return self.compilation is not None and self.compilation is not Compilation.REUSED


def check_cancelled(cancelled: Cancelled | None) -> None:
    """Raise BlurCancelled when the caller has asked to stop."""
    if cancelled is not None and cancelled():
        raise BlurCancelled
