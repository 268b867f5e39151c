"""What the window's session keeps of its runs: each engine's last result, the last run that
finished, and the run in flight."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from blurapp.core.engines.runs import EngineRun
from blurapp.core.measuring.comparison import ComparisonResult
from blurapp.core.measuring.profiler_trace import WrittenTrace
from blurapp.core.media.photo import Photo
from blurapp.core.spec import BlurSpec


@dataclass(frozen=True, eq=False)
class KeptResult:
    """An engine's last result (or why it has none), and what made it."""

    engine: str
    run: EngineRun | None
    error: str | None
    picture: Any  # the output as the view draws it; the session only keeps it
    photo: Photo
    parameters: BlurSpec
    serial: int  # the session's run that made it
    final: bool = True  # False: the output of a first call, its steady calls not yet timed
    live: bool = False  # made by the live preview: one call, not timed in rounds
    # The kernel size of the program that made it, when that is not the kernel's own: the
    # live preview's kernel zero-padded to one of a few sizes (blurapp.core.kernel).
    program_size: int | None = None

    @property
    def output_channels(self) -> int:
        """1 for a grey result, 3 for a colour one."""
        return self.photo.channels if self.parameters.color else 1


@dataclass(frozen=True, eq=False)
class Outcome:
    """The last run that finished: its comparison, and each engine's |NumPy − engine| picture
    with the difference that white stands for."""

    result: ComparisonResult
    photo: Photo
    parameters: BlurSpec
    serial: int
    differences: Mapping[str, tuple[Any, float]] = field(default_factory=dict)
    trace: WrittenTrace | None = None  # where its profiler trace went, when it recorded one


@dataclass(frozen=True)
class RunPlan:
    """What a run the session has started computes."""

    serial: int
    photo: Photo
    parameters: BlurSpec
    engines: tuple[str, ...]
    live: bool = False  # a live preview: the panes' engines, one call each, JAX-jit first
    moving: bool = False  # a preview of parameters the user is changing (counted per second)
    # Run ▸ Record Profiler Trace: the folder the steady calls' trace goes in (made if missing).
    trace: Path | None = None
    # engine → the (height, width) in screen pixels of the view of the pane showing it: its
    # picture comes fitted to that view too (blurapp.app.pyramid.output_pyramid).
    view_sizes: Mapping[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def repeats(self) -> int | None:
        """The steady calls the worker times: none for a live preview (the panes only need
        the outputs), as many as each engine needs for a run."""
        return 0 if self.live else None
