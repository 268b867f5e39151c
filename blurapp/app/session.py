"""The window's session as plain data, without Qt: the photo, the parameters, the engines the
two panes show and the engines a run times, each engine's last result or error, what is out
of date and why, and the words the window shows for all of it.

What it shows (pictures and words) is read by its Captions, blurapp.app.captions. The window
forwards what the user does to a Session and renders it when it tells its
listeners what changed (see `subscribe`); tests drive a Session with no window at all.
Every phrase goes through the `translate(context, text)` given to the Session (the window
passes Qt's; the default keeps English), marked with QT_TRANSLATE_NOOP for pyside6-lupdate.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any

from blurapp.app.captions import SHOW_LABELS, Captions, Translate
from blurapp.app.first_calls import FirstCalls, program_of
from blurapp.app.live_rates import LiveRates
from blurapp.app.recompiles import Recompiles
from blurapp.app.run_records import KeptResult, Outcome, RunPlan
from blurapp.core.engines import (
    DEFAULT_ENGINES,
    UnknownEngineError,
    engine_names,
    get_engine,
    offered_engine_names,
)
from blurapp.core.engines.runs import EngineRun, PaidFirstCall, Payer
from blurapp.core.measuring.comparison import ComparisonResult
from blurapp.core.measuring.profiler_trace import WrittenTrace
from blurapp.core.media.photo import Photo
from blurapp.core.spec import BlurSpec

DEFAULT_PANE_ENGINES = DEFAULT_ENGINES  # left, right: the reference and JAX-jit


def _english(context: str, text: str) -> str:
    return text


def offered_engine(name: str) -> str:
    """`name` if it is one of the engines the window offers on this machine
    (offered_engine_names(): no @platform variants, which the panes do not list, and no engine
    whose Shown.offered says no here), else
    UnknownEngineError: settings saved on another machine fall back to their defaults."""
    offered = offered_engine_names()
    if name not in offered:
        raise UnknownEngineError(
            f"no engine called {name!r} to choose; the engines are {', '.join(offered)}"
        )
    return name


class Change(StrEnum):
    """What of a Session changed, told to its listeners (as its name, a str)."""

    COMPILING = "compiling"
    ENGINES = "engines"
    JAX = "jax"
    LIVE = "live"
    OUTCOME = "outcome"
    PARAMETERS = "parameters"
    PHOTO = "photo"
    PLAYED = "played"  # the figures of a clip's last playing are no longer kept
    OPENING = "opening"  # a file is opening, or has come to another step, or is no longer
    PROGRAMS = "programs"  # a compiled engine got a program (the live preview, a Run, the sweep)
    RESULTS = "results"
    RUNNING = "running"
    SHOW = "show"


class Newest:
    """Request numbers where only the newest is wanted: a slider dragged ten times gets the
    last answer only."""

    def __init__(self) -> None:
        self.number = 0
        self.pending = False

    def next(self) -> int:
        self.number += 1
        self.pending = True
        return self.number

    def wanted(self, number: int) -> bool:
        return self.pending and number == self.number

    def done(self, number: int) -> bool:
        """Mark `number` answered; whether it was the one wanted."""
        if not self.wanted(number):
            return False
        self.pending = False
        return True

    def drop(self) -> bool:
        """Stop wanting the pending request; whether there was one. A new number is taken, so
        the old one's late answers are refused."""
        was = self.pending
        self.number += 1
        self.pending = False
        return was


class Session:
    """The window's state, and its wording. Listeners get the name of what changed:
    "photo", "parameters", "engines", "show", "live", "jax", "results", "outcome", "running",
    "programs", "played" or "opening".

    `running` is the one record of a run in flight: whatever drops it (a new photo, a cancel)
    tells listeners "running", and the answers of a run it no longer holds are refused."""

    def __init__(self, translate: Translate = _english) -> None:
        self.translate = translate
        self.photo: Photo | None = None
        self.original: Any = None  # the photo as the view draws it
        self.grey_original: Any = None  # a colour photo's grey, as the view draws it
        self.parameters = BlurSpec()
        self.pane_engines: list[str] = list(DEFAULT_PANE_ENGINES)
        # Each pane's view's (height, width) in screen pixels, as the window last told it (see
        # set_view_size): a run's pictures come fitted to them.
        self.view_sizes: list[tuple[int, int] | None] = [None] * len(self.pane_engines)
        self.timed: tuple[str, ...] = DEFAULT_ENGINES
        self.show = "blurred"
        self.jax_device: str | None = None
        self.jax_unavailable: str | None = None
        self.results: dict[str, KeptResult] = {}
        self.outcome: Outcome | None = None
        self.running: RunPlan | None = None
        # Live preview: every change of the parameters re-blurs the panes at once.
        self.live = True
        self.live_rates = LiveRates()
        # What each compiled program's first call cost, and who paid; the sweep adds its own.
        self.first_calls = FirstCalls()
        # Every program the compiled engines got, why, and what it cost; the sweep adds its own.
        self.recompiles = Recompiles()
        self.recompiles.subscribe(lambda got: self._changed(Change.PROGRAMS))
        self.compiling: dict[str, int] = {}  # engine → the kernel size the run in flight compiles
        # engine → what its pane said when a clip last stopped playing ("11.8 frames/s · 37
        # dropped"): its captions keep it, over the frame paused on, until a Run or the next play.
        self.played: dict[str, str] = {}
        # The name of the file opening, and the step it has come to (English, for translation;
        # None before one is told): the panes say so while they have no photo to show.
        self.opening: str | None = None
        self.opening_step: str | None = None
        self._serial = 0
        self._listeners: list[Callable[[Change], None]] = []
        # What the window shows of this state: pictures, captions and every word about them.
        self.captions = Captions(self)

    # --- Listening -----------------------------------------------------------------------

    def subscribe(self, listener: Callable[[Change], None]) -> None:
        self._listeners.append(listener)

    def _changed(self, what: Change) -> None:
        for listener in list(self._listeners):
            listener(what)

    # --- What the user does --------------------------------------------------------------

    def set_photo(self, photo: Photo, original: Any = None, grey_original: Any = None) -> None:
        """A new photo: every result of the old one goes, and a run in flight with it.
        `grey_original`: a colour photo's grey as the view draws it (None for a grey photo)."""
        self.photo, self.original, self.grey_original = photo, original, grey_original
        self.opening = self.opening_step = None  # what was opening is open
        self.results.clear()
        self.live_rates.clear()
        self.outcome = None
        was_running, self.running = self.running is not None, None
        self.compiling.clear()
        self._changed(Change.PHOTO)
        if was_running:
            self._changed(Change.RUNNING)

    def set_parameters(self, parameters: BlurSpec) -> None:
        if parameters != self.parameters:
            self.parameters = parameters
            self._changed(Change.PARAMETERS)

    def set_pane_engine(self, pane: int, engine: str) -> None:
        """Show `engine` in `pane`; a run then times it too, for as long as a pane shows it."""
        offered_engine(engine)
        changed = self.pane_engines[pane] != engine or engine not in self.timed
        self.pane_engines[pane] = engine
        self.timed = self._in_order({*self.timed, engine})
        if changed:
            self._changed(Change.ENGINES)

    def set_timed(self, engine: str, timed: bool) -> None:
        """Time `engine` in the next runs, or stop timing it. An engine a pane shows is always
        timed (so Run always refreshes both panes): untiming it raises ValueError."""
        offered_engine(engine)
        if not timed and engine in self.pane_engines:
            raise ValueError(f"{engine!r} is shown in a pane: choose another engine there first")
        engines = set(self.timed) | {engine} if timed else set(self.timed) - {engine}
        self._set_timed(engines)

    def set_timed_engines(self, engines: tuple[str, ...]) -> None:
        """Time `engines` and the panes' engines (as settings restore them)."""
        for engine in engines:
            offered_engine(engine)
        self._set_timed(set(engines) | set(self.pane_engines))

    def _set_timed(self, engines: set[str]) -> None:
        if self._in_order(engines) != self.timed:
            self.timed = self._in_order(engines)
            self._changed(Change.ENGINES)

    def untimeable(self) -> tuple[str, ...]:
        """The engines that cannot be untimed: those the panes show."""
        return self._in_order(set(self.pane_engines))

    @staticmethod
    def _in_order(engines: set[str]) -> tuple[str, ...]:
        """Registered engines first in the registry's order (NumPy, the reference, first)."""
        order = {name: index for index, name in enumerate(engine_names())}
        return tuple(sorted(engines, key=lambda name: (order.get(name, len(order)), name)))

    def set_live(self, live: bool) -> None:
        if live != self.live:
            self.live = live
            if not live and self.running is not None and self.running.live:
                self.running = None  # a preview in flight would still land in the panes
                self.compiling.clear()
                self._changed(Change.RUNNING)
            self._changed(Change.LIVE)

    def set_show(self, show: str) -> None:
        if show not in SHOW_LABELS:
            raise ValueError(f"nothing to show called {show!r}")
        if show != self.show:
            self.show = show
            self._changed(Change.SHOW)

    # --- What the worker tells --------------------------------------------------------------

    def compiling_started(self, engine: str, size: int) -> None:
        """`engine` of the run in flight is compiling (or loading) its program for a `size` ×
        `size` kernel: its pane says so until its result comes."""
        if self.running is not None:
            self.compiling[engine] = size
            self._changed(Change.COMPILING)

    def jax_started(self, device: str) -> None:
        self.jax_device = device
        self._changed(Change.JAX)

    def jax_failed(self, reason: str) -> None:
        self.jax_unavailable = reason
        self._changed(Change.JAX)

    def start_run(self, trace: Path | None = None) -> RunPlan | None:
        """Begin a run of the timed engines with the parameters now, recording a profiler
        trace of their steady calls in the folder `trace` when given; None without a photo or
        an engine. A run still going is superseded."""
        if self.photo is None or not self.timed:
            return None
        self.forget_played()
        self._serial += 1
        self.running = RunPlan(
            self._serial,
            self.photo,
            self.parameters,
            self.timed,
            trace=trace,
            view_sizes=self.engine_view_sizes(),
        )
        self.compiling.clear()
        self._changed(Change.RUNNING)
        return self.running

    def start_live_preview(self, moving: bool = False) -> RunPlan | None:
        """Re-blur the panes whose result does not show the photo and parameters now, one
        call per engine, as the live preview does on every change (`moving`: a change of the
        parameters); None when it is off, there is no photo or nothing to re-blur. The
        compiled engines go first: their panes keep up while NumPy's lags. Supersedes a run
        going, unless it is a timed run of these very parameters, which shows them soon."""
        if not self.live or self.photo is None:
            return None
        running = self.running
        if (
            running is not None
            and not running.live
            and running.photo is self.photo
            and running.parameters.same_blur(self.parameters, in_colour=self._in_colour())
        ):
            return None  # its outcome will show them; a pane it leaves out is previewed after
        stale = {engine for engine in self.pane_engines if not self._shows_now(engine)}
        if not stale:
            if running is not None and (
                running.photo is not self.photo
                or not running.parameters.same_blur(self.parameters, in_colour=self._in_colour())
            ):
                # Back to what the panes show before a preview of a passing value came: it
                # would land on them, under a caption for parameters no longer chosen.
                self.running = None
                self.compiling.clear()
                self._changed(Change.RUNNING)
            return None
        engines = sorted(self._in_order(stale), key=lambda name: not get_engine(name).compiles)
        self._serial += 1
        self.running = RunPlan(
            self._serial,
            self.photo,
            self.parameters,
            tuple(engines),
            live=True,
            moving=moving,
            view_sizes=self.engine_view_sizes(),
        )
        self.compiling.clear()
        self._changed(Change.RUNNING)
        return self.running

    def set_view_size(self, pane: int, height: int, width: int) -> None:
        """Pane `pane`'s view shows pictures in `height` × `width` screen pixels now; the runs
        started from now on bring its engine's picture fitted to that too. Changes nothing
        shown: the panes draw the pictures they have at any size."""
        self.view_sizes[pane] = (height, width) if height > 0 and width > 0 else None

    def engine_view_sizes(self) -> dict[str, tuple[int, int]]:
        """Each pane's engine and its view's (height, width), where the view has a size."""
        return {
            engine: size
            for engine, size in zip(self.pane_engines, self.view_sizes, strict=True)
            if size is not None
        }

    def engine_done(
        self,
        engine: str,
        run: EngineRun | None,
        error: str | None,
        picture: Any = None,
        final: bool = True,
        program_size: int | None = None,
    ) -> bool:
        """One engine of the run in flight has finished (`final` False: its first call has,
        and its output can be shown while it is timed; `program_size`: the kernel size its
        program was compiled for, when not the kernel's own); whether it was taken (the answer
        of a run no longer going is not)."""
        plan = self.running
        if plan is None:
            return False
        padded = program_size if program_size != plan.parameters.size else None
        self.results[engine] = KeptResult(
            engine,
            run,
            error,
            picture,
            plan.photo,
            plan.parameters,
            plan.serial,
            final,
            plan.live,
            padded,
        )
        self.compiling.pop(engine, None)
        if run is not None:
            paid_by = Payer.LIVE_PREVIEW if plan.live else Payer.RUN
            size = padded or plan.parameters.size
            program = program_of(engine, plan.photo, plan.parameters, run, size)
            self.first_calls.record(program, run.first_call_seconds, run.compilation, paid_by)
            if get_engine(engine).compiles:
                self.recompiles.record(program, run, paid_by, plan.serial)
        if plan.moving and run is not None:
            self.live_rates.record(engine)
        self._changed(Change.RESULTS)
        return True

    def run_done(
        self,
        result: ComparisonResult,
        differences: Mapping[str, tuple[Any, float]] | None = None,
        trace: WrittenTrace | None = None,
    ) -> bool:
        """The run in flight has finished (`trace`: where its profiler trace went, if it
        recorded one); whether it was taken. Listeners hear "results", "running", then
        "outcome" (the figures to show), last, when all else is up to date."""
        plan = self.running
        if plan is None:
            return False
        self.running = None
        self.compiling.clear()
        if plan.live:
            # One call each is a preview, not a measurement: the figures stay the last run's.
            self._changed(Change.RUNNING)
            return True
        self.outcome = Outcome(
            result, plan.photo, plan.parameters, plan.serial, dict(differences or {}), trace
        )
        self._changed(Change.RESULTS)
        self._changed(Change.RUNNING)
        self._changed(Change.OUTCOME)
        return True

    def opening_started(self, name: str) -> None:
        """The file called `name` is opening: set_photo ends it, or opening_ended."""
        self.opening, self.opening_step = name, None
        self._changed(Change.OPENING)

    def opening_went(self, step: str) -> None:
        """The file opening has come to `step` ("reading the file")."""
        if self.opening is not None:
            self.opening_step = step
            self._changed(Change.OPENING)

    def opening_ended(self, name: str | None = None) -> None:
        """The file opening will not become the photo (it could not be read); given `name`,
        only when that is the file opening (another may have been opened since)."""
        if self.opening is not None and name in (None, self.opening):
            self.opening = self.opening_step = None
            self._changed(Change.OPENING)

    def clip_played(self, pane_words: Mapping[str, str]) -> None:
        """A clip stopped playing (paused, or at its end) with each engine's pane saying
        `pane_words` ("11.8 frames/s · 37 dropped"; nothing, or a failure, is not kept).
        Listeners hear nothing yet: the frame paused on is shown next, as the photo, under
        these words; until then the panes keep the last frames played, under the same words."""
        self.played = {engine: words for engine, words in pane_words.items() if words}

    def forget_played(self) -> None:
        """The figures of the last playing no longer describe the panes: a Run, a play, another
        file."""
        if self.played:
            self.played = {}
            self._changed(Change.PLAYED)

    def paid_first_calls(self) -> dict[str, PaidFirstCall]:
        """For each engine of the last run that found its program compiled, what that program's
        first call cost and who paid it, when this session knows."""
        outcome = self.outcome
        if outcome is None:
            return {}
        paid = {}
        for engine, run in outcome.result.runs.items():
            program = program_of(engine, outcome.photo, outcome.parameters, run)
            price = self.first_calls.for_call(program, run.compilation)
            if price is not None:
                paid[engine] = price
        return paid

    def _shows_now(self, engine: str) -> bool:
        """Whether `engine`'s kept result is of the photo and the parameters now."""
        kept = self.results.get(engine)
        return (
            kept is not None
            and kept.photo is self.photo
            and kept.parameters.same_blur(self.parameters, in_colour=self._in_colour())
        )

    def _in_colour(self) -> bool:
        """Whether the photo open has colour, so the Colour switch changes its blur."""
        return self.photo is not None and self.photo.channels > 1

    def run_stopped(self) -> None:
        """The run in flight was cancelled, or failed: what it finished stays."""
        if self.running is not None:
            self.running = None
            self.compiling.clear()
            self._changed(Change.RUNNING)
