"""The window's session as plain data, without Qt: the photo, the parameters, the engines the
two panes show and the engines a run times, each engine's last result or error, what is out
of date and why, and the words the window shows for all of it.

The window forwards what the user does to a Session and renders it when it tells its
listeners what changed (see `subscribe`); tests drive a Session with no window at all.
Every phrase goes through the `translate(context, text)` given to the Session (the window
passes Qt's; the default keeps English), marked with QT_TRANSLATE_NOOP for pyside6-lupdate.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from blurapp.core.comparison import TIMING, ComparisonResult
from blurapp.core.engines import (
    DEFAULT_ENGINES,
    REFERENCE_ENGINE,
    UnknownEngineError,
    engine_names,
    get_engine,
)
from blurapp.core.figures import CONTEXT as FIGURES_CONTEXT
from blurapp.core.figures import (
    describe_kernel,
    format_megapixels,
    format_ms,
    short_kernel_note,
    steady_key,
)
from blurapp.core.kernel import (
    DEFAULT_ALGORITHM,
    DEFAULT_KERNEL_SIZE,
    DEFAULT_SIGMA,
    Algorithm,
    KernelSize,
    auto_kernel_size,
    check_algorithm,
    check_kernel_size,
    check_sigma,
    effective_kernel_size,
)
from blurapp.core.photo import Photo
from blurapp.core.runs import Compilation, EngineRun
from blurapp.core.saving import output_description
from blurapp.core.wording import QT_TRANSLATE_NOOP, display_path

CONTEXT = "Session"
ENGINES_CONTEXT = "Engines"  # where the registry's titles are marked
DEFAULT_PANE_ENGINES = DEFAULT_ENGINES  # left, right: the reference and JAX-jit
# A pane's live updates per second count those of the last this many seconds: long enough to
# be steady while a slider moves, short enough to vanish soon after it stops.
LIVE_RATE_SECONDS = 2.0
LEFT, RIGHT = 0, 1

ALGORITHM_LABELS: dict[str, str] = {
    "2d": QT_TRANSLATE_NOOP("Session", "2-D (tutorial)"),
    "separable": QT_TRANSLATE_NOOP("Session", "Separable"),
}
SHOW_LABELS: dict[str, str] = {
    "blurred": QT_TRANSLATE_NOOP("Session", "Blurred results"),
    "original": QT_TRANSLATE_NOOP("Session", "Original"),
    "difference": QT_TRANSLATE_NOOP("Session", "Difference"),
    # Each pane: the original left of a divider the user drags, its engine's blur right of it.
    "split": QT_TRANSLATE_NOOP("Session", "Before/after"),
}
COMPILATION_WORDS = {
    Compilation.COMPILED: QT_TRANSLATE_NOOP("Session", "compiled"),
    Compilation.FROM_CACHE: QT_TRANSLATE_NOOP("Session", "from cache"),
    Compilation.REUSED: QT_TRANSLATE_NOOP("Session", "already compiled"),
}

Translate = Callable[[str, str], str]  # (context, text) → text in the user's language


def _english(context: str, text: str) -> str:
    return text


def offered_engine(name: str) -> str:
    """`name` if it is one of the engines the window offers (engine_names(): no @platform
    variants, which the panes do not list), else UnknownEngineError."""
    if name not in engine_names():
        raise UnknownEngineError(
            f"no engine called {name!r} to choose; the engines are {', '.join(engine_names())}"
        )
    return name


@dataclass(frozen=True)
class Parameters:
    """The blur's parameters as one value, checked by the core's own rules: the kernel size
    setting (an odd size or "auto"), sigma in the core's range, the algorithm, and whether a
    colour photo is blurred in colour (each of R, G and B) or, as the tutorial did, in grey."""

    kernel_size: KernelSize = DEFAULT_KERNEL_SIZE
    sigma: float = DEFAULT_SIGMA
    algorithm: Algorithm = DEFAULT_ALGORITHM
    color: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "kernel_size", check_kernel_size(self.kernel_size))
        object.__setattr__(self, "sigma", check_sigma(self.sigma))
        check_algorithm(self.algorithm)

    @property
    def effective_size(self) -> int:
        """The kernel size a run uses: the size set, or the automatic size for sigma."""
        return effective_kernel_size(self.kernel_size, self.sigma)

    def same_blur(self, other: Parameters, *, in_colour: bool = True) -> bool:
        """Whether both give the same blur (auto and the size it picks are the same). With
        `in_colour` False (a grey photo) the Colour switch changes nothing."""
        colour = (self.color, other.color) if in_colour else (False, False)
        return (self.effective_size, self.sigma, self.algorithm, colour[0]) == (
            other.effective_size,
            other.sigma,
            other.algorithm,
            colour[1],
        )


@dataclass(frozen=True, eq=False)
class KeptResult:
    """An engine's last result (or why it has none), and what made it."""

    engine: str
    run: EngineRun | None
    error: str | None
    picture: Any  # the output as the view draws it; the session only keeps it
    photo: Photo
    parameters: Parameters
    serial: int  # the session's run that made it
    final: bool = True  # False: the output of a first call, its steady calls not yet timed
    live: bool = False  # made by the live preview: one call, not timed in rounds

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
    parameters: Parameters
    serial: int
    differences: Mapping[str, tuple[Any, float]] = field(default_factory=dict)


@dataclass(frozen=True)
class RunPlan:
    """What a run the session has started computes."""

    serial: int
    photo: Photo
    parameters: Parameters
    engines: tuple[str, ...]
    live: bool = False  # a live preview: the panes' engines, one call each, JAX-jit first
    moving: bool = False  # a preview of parameters the user is changing (counted per second)

    @property
    def repeats(self) -> int | None:
        """The steady calls the worker times: none for a live preview (the panes only need
        the outputs), as many as each engine needs for a run."""
        return 0 if self.live else None


@dataclass(frozen=True)
class Caption:
    """A pane's caption: its heading, the figures after it, and why it is out of date."""

    heading: str
    details: tuple[str, ...] = ()
    out_of_date: str | None = None  # the reason, when the pane shows an older result

    def text(self, out_of_date_mark: str = "out of date") -> str:
        parts = [self.heading, *self.details]
        if self.out_of_date:
            parts.append(out_of_date_mark)
        return " · ".join(parts)


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
    "photo", "parameters", "engines", "show", "live", "jax", "results", "outcome" or "running".

    `running` is the one record of a run in flight: whatever drops it (a new photo, a cancel)
    tells listeners "running", and the answers of a run it no longer holds are refused."""

    def __init__(self, translate: Translate = _english) -> None:
        self.translate = translate
        self.photo: Photo | None = None
        self.original: Any = None  # the photo as the view draws it
        self.parameters = Parameters()
        self.pane_engines: list[str] = list(DEFAULT_PANE_ENGINES)
        self.timed: tuple[str, ...] = DEFAULT_ENGINES
        self.show = "blurred"
        self.jax_device: str | None = None
        self.jax_unavailable: str | None = None
        self.results: dict[str, KeptResult] = {}
        self.outcome: Outcome | None = None
        self.running: RunPlan | None = None
        # Live preview: every change of the parameters re-blurs the panes at once.
        self.live = True
        self._live_updates: dict[str, list[float]] = {}  # engine → when its live results came
        self._serial = 0
        self._listeners: list[Callable[[str], None]] = []

    # --- Listening -----------------------------------------------------------------------

    def subscribe(self, listener: Callable[[str], None]) -> None:
        self._listeners.append(listener)

    def _changed(self, what: str) -> None:
        for listener in list(self._listeners):
            listener(what)

    def tr(self, text: str) -> str:
        return self.translate(CONTEXT, text)

    def title(self, engine: str) -> str:
        """An engine's title from the registry, in the user's language."""
        return self.translate(ENGINES_CONTEXT, get_engine(engine).title)

    # --- What the user does --------------------------------------------------------------

    def set_photo(self, photo: Photo, original: Any = None) -> None:
        """A new photo: every result of the old one goes, and a run in flight with it."""
        self.photo, self.original = photo, original
        self.results.clear()
        self._live_updates.clear()
        self.outcome = None
        was_running, self.running = self.running is not None, None
        self._changed("photo")
        if was_running:
            self._changed("running")

    def set_parameters(self, parameters: Parameters) -> None:
        if parameters != self.parameters:
            self.parameters = parameters
            self._changed("parameters")

    def set_pane_engine(self, pane: int, engine: str) -> None:
        """Show `engine` in `pane`; a run then times it too, for as long as a pane shows it."""
        offered_engine(engine)
        changed = self.pane_engines[pane] != engine or engine not in self.timed
        self.pane_engines[pane] = engine
        self.timed = self._in_order({*self.timed, engine})
        if changed:
            self._changed("engines")

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
            self._changed("engines")

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
                self._changed("running")
            self._changed("live")

    def set_show(self, show: str) -> None:
        if show not in SHOW_LABELS:
            raise ValueError(f"nothing to show called {show!r}")
        if show != self.show:
            self.show = show
            self._changed("show")

    # --- What the worker tells --------------------------------------------------------------

    def jax_started(self, device: str) -> None:
        self.jax_device = device
        self._changed("jax")

    def jax_failed(self, reason: str) -> None:
        self.jax_unavailable = reason
        self._changed("jax")

    def start_run(self) -> RunPlan | None:
        """Begin a run of the timed engines with the parameters now; None without a photo or
        an engine. A run still going is superseded."""
        if self.photo is None or not self.timed:
            return None
        self._serial += 1
        self.running = RunPlan(self._serial, self.photo, self.parameters, self.timed)
        self._changed("running")
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
                self._changed("running")
            return None
        engines = sorted(self._in_order(stale), key=lambda name: not get_engine(name).compiles)
        self._serial += 1
        self.running = RunPlan(
            self._serial, self.photo, self.parameters, tuple(engines), live=True, moving=moving
        )
        self._changed("running")
        return self.running

    def engine_done(
        self,
        engine: str,
        run: EngineRun | None,
        error: str | None,
        picture: Any = None,
        final: bool = True,
    ) -> bool:
        """One engine of the run in flight has finished (`final` False: its first call has,
        and its output can be shown while it is timed); whether it was taken (the answer of a
        run no longer going is not)."""
        plan = self.running
        if plan is None:
            return False
        self.results[engine] = KeptResult(
            engine, run, error, picture, plan.photo, plan.parameters, plan.serial, final, plan.live
        )
        if plan.moving and run is not None:
            now = time.monotonic()
            recent = [t for t in self._live_updates.get(engine, []) if now - t < LIVE_RATE_SECONDS]
            self._live_updates[engine] = [*recent, now]
        self._changed("results")
        return True

    def run_done(
        self, result: ComparisonResult, differences: Mapping[str, tuple[Any, float]] | None = None
    ) -> bool:
        """The run in flight has finished; whether it was taken. Listeners hear "results",
        "running", then "outcome" (the figures to show), last, when all else is up to date."""
        plan = self.running
        if plan is None:
            return False
        self.running = None
        if plan.live:
            # One call each is a preview, not a measurement: the figures stay the last run's.
            self._changed("running")
            return True
        self.outcome = Outcome(
            result, plan.photo, plan.parameters, plan.serial, dict(differences or {})
        )
        self._changed("results")
        self._changed("running")
        self._changed("outcome")
        return True

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

    def live_rate(self, engine: str, now: float | None = None) -> float | None:
        """How many live results a second `engine`'s pane got while the parameters moved
        (over the last LIVE_RATE_SECONDS); None once they have been still that long, or
        with fewer than two updates to count between."""
        now = time.monotonic() if now is None else now
        times = [t for t in self._live_updates.get(engine, []) if now - t < LIVE_RATE_SECONDS]
        if len(times) < 2:
            return None
        return (len(times) - 1) / max(times[-1] - times[0], 1e-6)

    def run_stopped(self) -> None:
        """The run in flight was cancelled, or failed: what it finished stays."""
        if self.running is not None:
            self.running = None
            self._changed("running")

    # --- Out of date -------------------------------------------------------------------------

    def out_of_date(self, photo: Photo, parameters: Parameters, serial: int) -> str | None:
        """Why figures made from `photo` with `parameters` in run `serial` no longer match
        what a run would compute now, or None if they still do."""
        tr = self.tr
        reasons = []
        if photo is not self.photo:
            reasons.append(tr(QT_TRANSLATE_NOOP("Session", "another photo is open")))
        now = self.parameters
        old_size, new_size = parameters.effective_size, now.effective_size
        if old_size != new_size:
            reasons.append(
                tr(
                    QT_TRANSLATE_NOOP(
                        "Session", "kernel size changed from {old} to {new} since this run"
                    )
                ).format(old=f"{old_size} × {old_size}", new=f"{new_size} × {new_size}")
            )
        if parameters.sigma != now.sigma:
            reasons.append(
                tr(
                    QT_TRANSLATE_NOOP("Session", "sigma changed from {old} to {new} since this run")
                ).format(old=f"{parameters.sigma:g}", new=f"{now.sigma:g}")
            )
        if parameters.algorithm != now.algorithm:
            reasons.append(
                tr(
                    QT_TRANSLATE_NOOP(
                        "Session", "algorithm changed from {old} to {new} since this run"
                    )
                ).format(
                    old=tr(ALGORITHM_LABELS[parameters.algorithm]),
                    new=tr(ALGORITHM_LABELS[now.algorithm]),
                )
            )
        if parameters.color != now.color and photo.channels > 1:
            reasons.append(
                tr(QT_TRANSLATE_NOOP("Session", "colour turned on since this run"))
                if now.color
                else tr(QT_TRANSLATE_NOOP("Session", "colour turned off since this run"))
            )
        # A preview replaces no figures: only a later timed run makes these out of date.
        newest = max((kept.serial for kept in self.results.values() if not kept.live), default=0)
        if not reasons and serial < newest:
            reasons.append(tr(QT_TRANSLATE_NOOP("Session", "a later run replaced other results")))
        if not reasons:
            return None
        return tr(QT_TRANSLATE_NOOP("Session", "{reasons}; press Run")).format(
            reasons="; ".join(reasons)
        )

    def result_out_of_date(self, engine: str) -> str | None:
        kept = self.results.get(engine)
        if kept is None:
            return None
        return self.out_of_date(kept.photo, kept.parameters, kept.serial)

    def figures_out_of_date(self) -> str | None:
        outcome = self.outcome
        if outcome is None:
            return None
        return self.out_of_date(outcome.photo, outcome.parameters, outcome.serial)

    # --- The panes -----------------------------------------------------------------------

    def error_for(self, engine: str) -> str | None:
        """Why `engine` has no result to show, if it could not run."""
        kept = self.results.get(engine)
        if kept is not None:
            return kept.error
        if get_engine(engine).uses_jax:
            return self.jax_unavailable
        return None

    def _difference(self) -> tuple[Any, float] | None:
        engine = self.pane_engines[RIGHT]
        if self.outcome is None:
            return None
        return self.outcome.differences.get(engine)

    def picture(self, pane: int) -> Any:
        """What `pane` draws, or None (its placeholder says why)."""
        engine = self.pane_engines[pane]
        if self.show == "original":
            return self.original
        if self.show == "difference" and pane == RIGHT:
            difference = self._difference()
            return difference[0] if difference is not None else None
        kept = self.results.get(engine)
        if kept is not None and kept.run is not None:
            return kept.picture
        # Before a first run each pane shows the photo itself, so there is something to see.
        return None if self.error_for(engine) else self.original

    def picture_before(self, pane: int) -> Any:
        """What `pane` draws left of its divider when showing before/after (the original; the
        right side is `picture`), or None when the pane shows one picture whole."""
        if self.show != "split" or self.picture(pane) is None:
            return None
        return self.original

    def placeholder(self, pane: int) -> str:
        """What `pane` says where there is no picture to draw ('' when there is one)."""
        tr = self.tr
        engine = self.pane_engines[pane]
        if self.photo is None:
            return tr(
                QT_TRANSLATE_NOOP("Session", "Open a photo: File ▸ Open (Ctrl+O), or drop one here")
            )
        if self.picture(pane) is not None:
            return ""
        if self.show == "difference" and pane == RIGHT:
            if engine == REFERENCE_ENGINE:
                return tr(
                    QT_TRANSLATE_NOOP(
                        "Session",
                        "Choose another engine for this pane to see its difference from "
                        "{reference}",
                    )
                ).format(reference=self.title(REFERENCE_ENGINE))
            return tr(
                QT_TRANSLATE_NOOP(
                    "Session", "The difference appears after a run with {reference} and {engine}"
                )
            ).format(reference=self.title(REFERENCE_ENGINE), engine=self.title(engine))
        error = self.error_for(engine)
        if error:
            could_not = tr(QT_TRANSLATE_NOOP("Session", "{engine} could not run:"))
            return could_not.format(engine=self.title(engine)) + f"\n{error}"
        return ""

    def caption(self, pane: int) -> Caption:
        tr = self.tr
        engine = self.pane_engines[pane]
        title = self.title(engine)
        if self.show == "original":
            details = [tr(QT_TRANSLATE_NOOP("Session", "grayscale"))]
            if self.photo is not None:
                details.append(f"{self.photo.width} × {self.photo.height}")
            return Caption(tr(SHOW_LABELS["original"]), tuple(details))
        if self.show == "difference" and pane == RIGHT:
            return self._difference_caption(engine)
        if self.show == "split" and self.picture(pane) is not None:
            # What each side of the divider shows, then the result's figures as usual.
            title = tr(QT_TRANSLATE_NOOP("Session", "Left: original, right: {engine}")).format(
                engine=title
            )
        kept = self.results.get(engine)
        if kept is None or kept.run is None:
            if self.error_for(engine):
                return Caption(title, (tr(QT_TRANSLATE_NOOP("Session", "unavailable")),))
            details = [self._device_before_run(engine)]
            if self.photo is not None:
                not_run = (
                    QT_TRANSLATE_NOOP(
                        "Session", "not run yet: the original on both sides, press Run"
                    )
                    if self.show == "split"
                    else QT_TRANSLATE_NOOP(
                        "Session", "not run yet: showing the original, press Run"
                    )
                )
                details.append(tr(not_run))
            return Caption(title, tuple(details))
        run = kept.run
        if kept.live:
            one_call = tr(QT_TRANSLATE_NOOP("Session", "live: {time}, one call"))
            details = [run.device, one_call.format(time=format_ms(run.seconds))]
            if run.compiled:  # a new kernel size: this call compiled (or loaded) its program
                details[-1] += f" ({tr(COMPILATION_WORDS[run.compilation])})"
            rate = self.live_rate(engine)
            if rate is not None:
                per_second = tr(QT_TRANSLATE_NOOP("Session", "{rate} updates/s"))
                details.append(per_second.format(rate=f"{rate:.1f}"))
        elif not kept.final:
            details = [run.device]
            if run.first_call_seconds is not None:
                details.append(self._first_call_words(run))
            if self.running is not None and self.running.serial == kept.serial:
                details.append(tr(QT_TRANSLATE_NOOP("Session", "timing…")))
            else:
                details.append(tr(QT_TRANSLATE_NOOP("Session", "not timed: the run stopped")))
        elif run.first_call_seconds is None:
            details = [run.device, format_ms(run.seconds)]
        else:
            details = [
                run.device,
                tr(QT_TRANSLATE_NOOP("Session", "steady {steady}")).format(
                    steady=format_ms(run.seconds)
                ),
                self._first_call_words(run),
            ]
        made = kept.parameters
        size = made.effective_size
        details.append(f"{size} × {size}, σ {made.sigma:g}")
        if made.algorithm == "separable":
            details[-1] += ", " + tr(QT_TRANSLATE_NOOP("Session", "separable"))
        if kept.output_channels > 1:
            details[-1] += ", " + tr(QT_TRANSLATE_NOOP("Session", "colour"))
        return Caption(title, tuple(details), self.result_out_of_date(engine))

    def _first_call_words(self, run: EngineRun) -> str:
        tr = self.tr
        first = format_ms(run.first_call_seconds)
        if run.compilation is not None:
            first += f" ({tr(COMPILATION_WORDS[run.compilation])})"
        return tr(QT_TRANSLATE_NOOP("Session", "first call {first}")).format(first=first)

    def _device_before_run(self, engine: str) -> str:
        described = get_engine(engine)
        if described.platform:
            return described.platform
        if not described.uses_jax:
            return "cpu"
        either = self.tr(QT_TRANSLATE_NOOP("Session", "GPU when present, else CPU"))
        return self.jax_device or either

    def _difference_caption(self, engine: str) -> Caption:
        tr = self.tr
        pair = f"|{self.title(REFERENCE_ENGINE)} − {self.title(engine)}|"
        heading = f"{tr(SHOW_LABELS['difference'])} {pair}"
        difference = self._difference()
        if difference is None:
            return Caption(heading)
        scale = difference[1]
        if scale == 0:
            detail = tr(QT_TRANSLATE_NOOP("Session", "identical outputs (all black)"))
        else:
            detail = tr(
                QT_TRANSLATE_NOOP(
                    "Session",
                    "black = 0, white = {white} ({levels} of an 8-bit level), stretched to be seen",
                )
            ).format(white=f"{scale:.2g}", levels=f"{scale * 255:.2g}")
        details = [detail]
        if self.outcome.result.channels > 1:
            details.append(
                tr(QT_TRANSLATE_NOOP("Session", "each pixel its largest over R, G and B"))
            )
        return Caption(heading, tuple(details), self.figures_out_of_date())

    def out_of_date_mark(self) -> str:
        return self.tr(QT_TRANSLATE_NOOP("Session", "out of date"))

    # --- The parameters, the figures and the status line -------------------------------------

    def kernel_used(self) -> str:
        """'13 × 13 (auto, 2·ceil(3σ)+1 = 13)': the kernel a run uses."""
        parameters = self.parameters
        size = parameters.effective_size
        text = f"{size} × {size}"
        if parameters.kernel_size == "auto":
            auto = self.tr(QT_TRANSLATE_NOOP("Session", "(auto, 2·ceil(3σ)+1 = {size})"))
            text += " " + auto.format(size=auto_kernel_size(parameters.sigma))
        return text

    def short_kernel_note(self) -> str | None:
        figures = lambda text: self.translate(FIGURES_CONTEXT, text)  # noqa: E731
        return short_kernel_note(self.parameters.effective_size, self.parameters.sigma, figures)

    def earlier_rows(self) -> list[tuple[str, str]]:
        """Figure rows for the results kept from runs before the last one that finished."""
        if self.outcome is None:
            return []
        result = self.outcome.result
        earlier = self.tr(QT_TRANSLATE_NOOP("Session", "earlier run, out of date"))
        return [
            (steady_key(engine), f"{format_ms(kept.run.seconds)} ({earlier})")
            for engine, kept in self.results.items()
            if kept.run is not None
            and not kept.live  # one call is no steady figure
            and engine not in result.runs
            and engine not in result.errors
        ]

    def summary(self) -> str:
        """The status line after a run: every engine's steady time."""
        tr = self.tr
        result = self.outcome.result
        parts = []
        for engine, run in result.runs.items():
            if get_engine(engine).uses_jax:
                on = tr(QT_TRANSLATE_NOOP("Session", "{engine} {time} on {device}"))
                time = format_ms(run.seconds)
                parts.append(on.format(engine=self.title(engine), time=time, device=run.device))
            else:
                parts.append(f"{self.title(engine)} {format_ms(run.seconds)}")
        for engine in result.errors:
            unavailable = tr(QT_TRANSLATE_NOOP("Session", "{engine} unavailable"))
            parts.append(unavailable.format(engine=self.title(engine)))
        return tr(QT_TRANSLATE_NOOP("Session", "Done: {figures}")).format(figures=", ".join(parts))

    def progress(self, engine: str, done: int, total: int) -> tuple[str, str]:
        """(status line, progress bar format) while `engine` runs: its taps when it counts them."""
        tr = self.tr
        if engine == TIMING:
            timing = tr(QT_TRANSLATE_NOOP("Session", "timing the engines: {done} of {total} calls"))
            return timing.format(done=done, total=total), tr(
                QT_TRANSLATE_NOOP("Session", "timing %p%")
            )
        title = self.title(engine)
        if total:
            taps = tr(QT_TRANSLATE_NOOP("Session", "{engine}: {done} of {total} kernel taps"))
            return taps.format(engine=title, done=done, total=total), f"{title} %p%"
        return tr(QT_TRANSLATE_NOOP("Session", "{engine}: running…")).format(engine=title), title

    def photo_status(self, is_sample: bool) -> str:
        photo = self.photo
        if is_sample:
            where = self.tr(QT_TRANSLATE_NOOP("Session", "sample photo ({name})")).format(
                name=photo.path.name
            )
        else:
            where = display_path(photo.path)
        return f"{where}  ·  {format_megapixels(photo.width, photo.height)}"

    # --- Saving ----------------------------------------------------------------------------

    def saved_results(self) -> dict[str, KeptResult]:
        """Every engine's result that can be saved."""
        return {engine: kept for engine, kept in self.results.items() if kept.run is not None}

    def result_file_name(self, engine: str) -> str:
        """The default name of `engine`'s result: the photo's name and what made the result,
        e.g. coffee-numpy-9x9-s2.5.png."""
        kept = self.results[engine]
        size = kept.parameters.effective_size
        safe = engine.replace("@", "-")
        name = f"{kept.photo.path.stem}-{safe}-{size}x{size}-s{kept.parameters.sigma:g}"
        if kept.parameters.algorithm != DEFAULT_ALGORITHM:
            name += f"-{kept.parameters.algorithm}"
        if kept.output_channels > 1:
            name += "-colour"
        return f"{name}.png"

    def result_description(self, engine: str) -> dict[str, str]:
        """What made `engine`'s result, written into the file beside the pixels."""
        kept = self.results[engine]
        made = kept.parameters
        description = output_description(
            get_engine(engine).title, made.effective_size, made.sigma, made.algorithm
        )
        description["photo"] = display_path(kept.photo.path.name)
        description["channels"] = str(kept.output_channels)
        if get_engine(engine).uses_jax:
            description["device"] = kept.run.device
        return description

    def mixed_parameters(self) -> list[str]:
        """'NumPy: 11 × 11, sigma 2.5' for each result, when the results to save were made
        with different parameters; [] when they were all made alike."""
        kept = self.saved_results()
        made = {
            engine: (k.parameters.effective_size, k.parameters.sigma, k.parameters.algorithm)
            for engine, k in kept.items()
        }
        if len(set(made.values())) < 2:
            return []
        figures = lambda text: self.translate(FIGURES_CONTEXT, text)  # noqa: E731
        return [
            f"{self.title(engine)}: {describe_kernel(*values, figures)}"
            for engine, values in made.items()
        ]
