"""What a session shows: each pane's picture, its caption and placeholder, why a result is out
of date, the kernel used, the status line, and the names and descriptions of saved results.

Every phrase goes through the session's `translate(context, text)`, marked with
QT_TRANSLATE_NOOP for pyside6-lupdate; they keep the "Session" context they were translated in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from blurapp.app.first_calls import program_of
from blurapp.app.recompiles import Changed, ProgramGot, Reason
from blurapp.core.engines import REFERENCE_ENGINE, get_engine
from blurapp.core.engines.engine import Caveat
from blurapp.core.engines.runs import Compilation, Payer
from blurapp.core.kernel import auto_kernel_size
from blurapp.core.measuring.comparison import TIMING
from blurapp.core.measuring.profiler_trace import CONTEXT as TRACE_CONTEXT
from blurapp.core.platforms import HOST_PLATFORM, jax_opens_a_tpu
from blurapp.core.report.figures import CONTEXT as FIGURES_CONTEXT
from blurapp.core.report.figures import (
    Figure,
    first_call_words,
    format_megapixels,
    format_ms,
    short_kernel_note,
    steady_figure,
)
from blurapp.core.spec import BlurSpec, describe_kernel
from blurapp.core.wording import QT_TRANSLATE_NOOP, display_path

if TYPE_CHECKING:
    from blurapp.app.first_calls import FirstCalls
    from blurapp.app.live_rates import LiveRates
    from blurapp.app.recompiles import Recompiles
    from blurapp.app.run_records import KeptResult, Outcome, RunPlan
    from blurapp.core.media.photo import Photo

Translate = Callable[[str, str], str]  # (context, text) → text in the user's language


def _size_words(size: object) -> str:
    """(width, height) as '600 × 400'."""
    width, height = cast("tuple[int, int]", size)
    return f"{width:,} × {height:,}"


CONTEXT = "Session"
ENGINES_CONTEXT = "Engines"  # where the registry's titles are marked
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


class SessionState(Protocol):
    """What Captions read of a Session (blurapp.app.session): its state, never its methods."""

    translate: Translate
    photo: Photo | None
    parameters: BlurSpec
    pane_engines: list[str]
    show: str
    jax_device: str | None
    results: dict[str, KeptResult]
    outcome: Outcome | None
    running: RunPlan | None
    original: Any
    grey_original: Any
    jax_unavailable: str | None
    live_rates: LiveRates
    first_calls: FirstCalls
    recompiles: Recompiles
    compiling: dict[str, int]
    played: dict[str, str]
    opening: str | None
    opening_step: str | None


class Captions:
    """What a session shows of its state: the panes' pictures, and every word about them.
    It only reads the session; the Session's own methods change the state."""

    def __init__(self, session: SessionState) -> None:
        self.session = session

    def tr(self, text: str) -> str:
        return self.session.translate(CONTEXT, text)

    def title(self, engine: str) -> str:
        """An engine's title from the registry, in the user's language."""
        return self.session.translate(ENGINES_CONTEXT, get_engine(engine).title)

    def choice(self, engine: str) -> str:
        """An engine as the window offers it (its check box, the panes' lists): its title, and
        what this machine makes of it where that matters ('JAX Pallas (interpreted)')."""
        caveat = self._caveat(engine)
        if caveat is None:
            return self.title(engine)
        words = self.session.translate(ENGINES_CONTEXT, caveat.words)
        return f"{self.title(engine)} ({words})"

    def choice_tip(self, engine: str) -> str | None:
        """Why an engine's choice carries words of this machine, or None where it has none."""
        caveat = self._caveat(engine)
        return None if caveat is None else self.session.translate(ENGINES_CONTEXT, caveat.why)

    @staticmethod
    def _caveat(engine: str) -> Caveat | None:
        caveat_here = get_engine(engine).shown.caveat
        return None if caveat_here is None else caveat_here()

    def out_of_date(self, photo: Photo, parameters: BlurSpec, serial: int) -> str | None:
        """Why figures made from `photo` with `parameters` in run `serial` no longer match
        what a run would compute now, or None if they still do."""
        tr = self.tr
        reasons = []
        if photo is not self.session.photo:
            reasons.append(tr(QT_TRANSLATE_NOOP("Session", "another photo is open")))
        now = self.session.parameters
        old_size, new_size = parameters.size, now.size
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
        newest = max(
            (kept.serial for kept in self.session.results.values() if not kept.live), default=0
        )
        if not reasons and serial < newest:
            reasons.append(tr(QT_TRANSLATE_NOOP("Session", "a later run replaced other results")))
        if not reasons:
            return None
        return tr(QT_TRANSLATE_NOOP("Session", "{reasons}; press Run")).format(
            reasons="; ".join(reasons)
        )

    def result_out_of_date(self, engine: str) -> str | None:
        kept = self.session.results.get(engine)
        if kept is None:
            return None
        return self.out_of_date(kept.photo, kept.parameters, kept.serial)

    def figures_out_of_date(self) -> str | None:
        outcome = self.session.outcome
        if outcome is None:
            return None
        return self.out_of_date(outcome.photo, outcome.parameters, outcome.serial)

    def error_for(self, engine: str) -> str | None:
        """Why `engine` has no result to show, if it could not run."""
        kept = self.session.results.get(engine)
        if kept is not None:
            return kept.error
        if get_engine(engine).uses_jax:
            return self.session.jax_unavailable
        return None

    def _difference(self) -> tuple[Any, float] | None:
        engine = self.session.pane_engines[RIGHT]
        if self.session.outcome is None:
            return None
        return self.session.outcome.differences.get(engine)

    def picture(self, pane: int) -> Any:
        """What `pane` draws, or None (its placeholder says why)."""
        engine = self.session.pane_engines[pane]
        if self.session.show == "original":
            return self.session.original
        if self.session.show == "difference" and pane == RIGHT:
            difference = self._difference()
            return difference[0] if difference is not None else None
        kept = self.session.results.get(engine)
        if kept is not None and kept.run is not None:
            return kept.picture
        # Before a first run each pane shows the photo itself, so there is something to see.
        return None if self.error_for(engine) else self.session.original

    def picture_before(self, pane: int) -> Any:
        """What `pane` draws left of its divider when showing before/after (the original; the
        right side is `picture`), or None when the pane shows one picture whole.

        The original as the blur right of it saw it: a grey blur of a colour photo has its grey
        on the left, so the divider shows the blur and nothing else changing."""
        if self.session.show != "split" or self.picture(pane) is None:
            return None
        kept = self.session.results.get(self.session.pane_engines[pane])
        shows_grey_blur = kept is not None and kept.run is not None and kept.output_channels == 1
        if shows_grey_blur and self.session.grey_original is not None:
            return self.session.grey_original
        return self.session.original

    def placeholder(self, pane: int) -> str:
        """What `pane` says where there is no picture to draw ('' when there is one)."""
        tr = self.tr
        engine = self.session.pane_engines[pane]
        if self.session.photo is None:
            if self.session.opening is not None:
                words = tr(QT_TRANSLATE_NOOP("Session", "Opening {name}…")).format(
                    name=self.session.opening
                )
                step = self.session.opening_step
                return words if step is None else f"{words}\n{tr(step)}"
            return tr(
                QT_TRANSLATE_NOOP("Session", "Open a photo: File ▸ Open (Ctrl+O), or drop one here")
            )
        if self.picture(pane) is not None:
            return ""
        if self.session.show == "difference" and pane == RIGHT:
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
        """A pane's caption; after a clip played, its engine's frames per second then come
        first, over the frame paused on, until a Run or the next play."""
        caption = self._caption(pane)
        engine = self.session.pane_engines[pane]
        played = self.session.played.get(engine)
        shows_engine = self.session.show in ("blurred", "split") or (
            self.session.show == "difference" and pane != RIGHT
        )
        if played is None or not shows_engine:
            return caption
        words = self.tr(QT_TRANSLATE_NOOP("Session", "played: {figures}")).format(figures=played)
        return dataclasses.replace(caption, details=(words, *caption.details))

    def _caption(self, pane: int) -> Caption:
        tr = self.tr
        engine = self.session.pane_engines[pane]
        title = self.title(engine)
        if self.session.show == "original":
            # The pane draws the photo as it was opened, whatever the Colour switch says: in
            # colour unless the photo is grey or was opened in grey (jobs.load_job).
            in_colour = self.session.photo is not None and self.session.photo.channels > 1
            details = [
                tr(QT_TRANSLATE_NOOP("Session", "colour"))
                if in_colour
                else tr(QT_TRANSLATE_NOOP("Session", "grayscale"))
            ]
            if self.session.photo is not None:
                details.append(f"{self.session.photo.width} × {self.session.photo.height}")
            return Caption(tr(SHOW_LABELS["original"]), tuple(details))
        if self.session.show == "difference" and pane == RIGHT:
            return self._difference_caption(engine)
        if self.session.show == "split" and self.picture(pane) is not None:
            # What each side of the divider shows, then the result's figures as usual.
            title = tr(QT_TRANSLATE_NOOP("Session", "Left: original, right: {engine}")).format(
                engine=title
            )
        kept = self.session.results.get(engine)
        if kept is None or kept.run is None:
            if self.error_for(engine):
                return Caption(title, (tr(QT_TRANSLATE_NOOP("Session", "unavailable")),))
            details = [self._device_before_run(engine)]
            if self.session.photo is not None:
                not_run = (
                    QT_TRANSLATE_NOOP(
                        "Session", "not run yet: the original on both sides, press Run"
                    )
                    if self.session.show == "split"
                    else QT_TRANSLATE_NOOP(
                        "Session", "not run yet: showing the original, press Run"
                    )
                )
                details.append(tr(not_run))
            return Caption(title, (*details, *self._compiling(engine)))
        run = kept.run
        if kept.live:
            one_call = tr(QT_TRANSLATE_NOOP("Session", "live: {time}, one call"))
            details = [run.device, one_call.format(time=format_ms(run.seconds))]
            # A new kernel size: this call compiled (or loaded) its program.
            if run.compiled and run.compilation is not None:
                details[-1] += f" ({tr(COMPILATION_WORDS[run.compilation])})"
            if kept.program_size is not None:
                padded = tr(QT_TRANSLATE_NOOP("Session", "kernel zero-padded to {size}"))
                details.append(padded.format(size=f"{kept.program_size} × {kept.program_size}"))
            details.extend(self._programs(engine))
            rate = self.session.live_rates.rate(engine)
            if rate is not None:
                per_second = tr(QT_TRANSLATE_NOOP("Session", "{rate} updates/s"))
                details.append(per_second.format(rate=f"{rate:.1f}"))
        elif not kept.final:
            details = [run.device]
            if run.first_call_seconds is not None:
                details.append(self._first_call_words(kept))
            if self.session.running is not None and self.session.running.serial == kept.serial:
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
                self._first_call_words(kept),
            ]
        made = kept.parameters
        size = made.size
        details.append(f"{size} × {size}, σ {made.sigma:g}")
        if made.algorithm == "separable":
            details[-1] += ", " + tr(QT_TRANSLATE_NOOP("Session", "separable"))
        if kept.output_channels > 1:
            details[-1] += ", " + tr(QT_TRANSLATE_NOOP("Session", "colour"))
        elif kept.photo.channels > 1:
            # A colour photo blurred in grey: say so, and how to keep the colour.
            details[-1] += ", " + tr(QT_TRANSLATE_NOOP("Session", "grey: Blur in colour is off"))
        return Caption(title, (*details, *self._compiling(engine)), self.result_out_of_date(engine))

    def _compiling(self, engine: str) -> tuple[str, ...]:
        """'compiling for 23 × 23…' while the run in flight compiles `engine`'s program."""
        size = self.session.compiling.get(engine) if self.session.running is not None else None
        if size is None:
            return ()
        words = self.tr(QT_TRANSLATE_NOOP("Session", "compiling for {size}…"))
        return (words.format(size=f"{size} × {size}"),)

    def _programs(self, engine: str) -> tuple[str, ...]:
        """'programs this session: 3; last: kernel 9 × 9 → 11 × 11, compiled in 412 ms' for
        an engine that compiles, once it has got a program."""
        recompiles = self.session.recompiles
        last = recompiles.last(engine)
        if last is None:
            return ()
        words = (
            QT_TRANSLATE_NOOP(
                "Session", "programs this session: {count}; last: {why}, compiled in {time}"
            )
            if last.compilation is Compilation.COMPILED
            else QT_TRANSLATE_NOOP(
                "Session",
                "programs this session: {count}; last: {why}, loaded from the cache in {time}",
            )
        )
        count = recompiles.count(engine)
        return (
            self.tr(words).format(
                count=count, why=self.why_program(last), time=format_ms(last.seconds)
            ),
        )

    def why_program(self, got: ProgramGot) -> str:
        """Why `got` was needed, what changed since its engine's program before: 'kernel 9 × 9
        → 11 × 11', 'grey → colour', 'image 600 × 400 → 1,200 × 800'; one the scaling sweep
        got says so: 'image 387 × 258 → 548 × 365, in the scaling sweep'."""
        why = ", ".join(self.reason_words(reason) for reason in got.reasons)
        if got.paid_by is Payer.SWEEP:
            words = self.tr(QT_TRANSLATE_NOOP("Session", "{why}, in the scaling sweep"))
            return words.format(why=why)
        return why

    def reason_words(self, reason: Reason) -> str:
        tr = self.tr
        old, new = reason.old, reason.new
        match reason.changed:
            case Changed.KERNEL:
                words = tr(QT_TRANSLATE_NOOP("Session", "kernel {old} → {new}"))
                return words.format(old=f"{old} × {old}", new=f"{new} × {new}")
            case Changed.ALGORITHM:
                words = tr(QT_TRANSLATE_NOOP("Session", "algorithm {old} → {new}"))
                return words.format(
                    old=tr(ALGORITHM_LABELS[str(old)]), new=tr(ALGORITHM_LABELS[str(new)])
                )
            case Changed.IMAGE:
                words = tr(QT_TRANSLATE_NOOP("Session", "image {old} → {new}"))
                return words.format(old=_size_words(old), new=_size_words(new))
            case Changed.COLOUR:
                return (
                    tr(QT_TRANSLATE_NOOP("Session", "grey → colour"))
                    if new
                    else tr(QT_TRANSLATE_NOOP("Session", "colour → grey"))
                )
            case Changed.DEVICE:
                words = tr(QT_TRANSLATE_NOOP("Session", "device {old} → {new}"))
                return words.format(old=old, new=new)
            case Changed.FIRST:
                return tr(QT_TRANSLATE_NOOP("Session", "the first of the session"))
        return tr(QT_TRANSLATE_NOOP("Session", "the same program again"))

    def program_rows(self) -> list[Figure]:
        """A figure row for each compiled engine that got programs in this session: how many,
        and the last one's reason and cost."""
        rows = []
        recompiles = self.session.recompiles
        for engine in dict.fromkeys(got.program.engine for got in recompiles.all()):
            last = recompiles.last(engine)
            assert last is not None  # the engine got a program: it is one of all()
            count = recompiles.count(engine)
            last_words = self.tr(
                QT_TRANSLATE_NOOP("Session", "{engine}; last: {why} ({time}, {how})")
            ).format(
                engine=self.title(engine),
                why=self.why_program(last),
                time=format_ms(last.seconds),
                how=self.tr(COMPILATION_WORDS[last.compilation]),
            )
            label = QT_TRANSLATE_NOOP("Figures", "programs this session")
            rows.append(
                Figure(f"{engine}.programs", label, count, "", f"{count}", last_words, ", ")
            )
        return rows

    def _first_call_words(self, kept: KeptResult) -> str:
        tr = self.tr
        run = kept.run
        assert run is not None, "a result with a run"
        first = format_ms(run.first_call_seconds)
        if run.compilation is None:
            return tr(QT_TRANSLATE_NOOP("Session", "first call {first}")).format(first=first)
        program = program_of(kept.engine, kept.photo, kept.parameters, run)
        paid = self.session.first_calls.for_call(program, run.compilation)
        figures = lambda text: self.session.translate(FIGURES_CONTEXT, text)  # noqa: E731
        first = first_call_words(run, paid, figures) if paid else first
        if paid is None:
            first += f" ({tr(COMPILATION_WORDS[run.compilation])})"
        return tr(QT_TRANSLATE_NOOP("Session", "first call {first}")).format(first=first)

    def _device_before_run(self, engine: str) -> str:
        described = get_engine(engine)
        if described.platform:
            return described.platform
        if not described.uses_jax:
            return HOST_PLATFORM
        if self.session.jax_device:
            return self.session.jax_device
        if jax_opens_a_tpu():
            # Said before it happens: the window cannot paint while the TPU opens. A window
            # opened as `blurapp` opens it has opened the chip before it was shown, and names
            # the device. (Where JAX failed to start, the pane says "unavailable" before.)
            opening = QT_TRANSLATE_NOOP(
                "Session", "the TPU, opening: the window may not answer for a few seconds"
            )
            return self.tr(opening)
        either = QT_TRANSLATE_NOOP("Session", "the accelerator when present, else the CPU")
        return self.tr(either)

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
        if self.session.outcome is not None and self.session.outcome.result.channels > 1:
            details.append(
                tr(QT_TRANSLATE_NOOP("Session", "each pixel its largest over R, G and B"))
            )
        return Caption(heading, tuple(details), self.figures_out_of_date())

    def out_of_date_mark(self) -> str:
        return self.tr(QT_TRANSLATE_NOOP("Session", "out of date"))

    def kernel_used(self) -> str:
        """'13 × 13 (auto, 2·ceil(3σ)+1 = 13)': the kernel a run uses."""
        parameters = self.session.parameters
        size = parameters.size
        text = f"{size} × {size}"
        if parameters.kernel_size == "auto":
            auto = self.tr(QT_TRANSLATE_NOOP("Session", "(auto, 2·ceil(3σ)+1 = {size})"))
            text += " " + auto.format(size=auto_kernel_size(parameters.sigma))
        return text

    def short_kernel_note(self) -> str | None:
        figures = lambda text: self.session.translate(FIGURES_CONTEXT, text)  # noqa: E731
        return short_kernel_note(
            self.session.parameters.size, self.session.parameters.sigma, figures
        )

    def earlier_rows(self) -> list[Figure]:
        """Figure rows for the results kept from runs before the last one that finished."""
        if self.session.outcome is None:
            return []
        result = self.session.outcome.result
        earlier = self.tr(QT_TRANSLATE_NOOP("Session", "earlier run, out of date"))
        return [
            steady_figure(engine, kept.run.seconds, earlier)
            for engine, kept in self.session.results.items()
            if kept.run is not None
            and not kept.live  # one call is no steady figure
            and engine not in result.runs
            and engine not in result.errors
        ]

    def summary(self) -> str:
        """The status line after a run: every engine's steady time; first, for a run that
        recorded a profiler trace, where it went and what opens it."""
        tr = self.tr
        outcome = self.session.outcome
        assert outcome is not None, "summary() is the status line after a run"
        result = outcome.result
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
        done = tr(QT_TRANSLATE_NOOP("Session", "Done: {figures}")).format(figures=", ".join(parts))
        if outcome.trace is None:
            return done
        # First: a long status line is cut at its end, and this is what the user asked for.
        trace = outcome.trace.words(lambda text: self.session.translate(TRACE_CONTEXT, text))
        return f"{trace} · {done}"

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
        photo = self.session.photo
        assert photo is not None, "photo_status() is the status line of an open photo"
        if is_sample:
            where = self.tr(QT_TRANSLATE_NOOP("Session", "sample photo ({name})")).format(
                name=photo.path.name
            )
        else:
            where = display_path(photo.path)
        return f"{where}  ·  {format_megapixels(photo.width, photo.height)}"

    def saved_results(self) -> dict[str, KeptResult]:
        """Every engine's result that can be saved."""
        return {
            engine: kept for engine, kept in self.session.results.items() if kept.run is not None
        }

    def result_file_name(self, engine: str) -> str:
        """The default name of `engine`'s result: the photo's name and what made the result,
        e.g. coffee-numpy-9x9-s2.5.png."""
        kept = self.session.results[engine]
        in_colour = kept.output_channels > 1
        return (
            kept.parameters.result_name(kept.photo.path.stem, engine, in_colour=in_colour) + ".png"
        )

    def result_description(self, engine: str) -> dict[str, str]:
        """What made `engine`'s result, written into the file beside the pixels."""
        kept = self.session.results[engine]
        description = kept.parameters.description(engine, channels=kept.output_channels)
        description["photo"] = display_path(kept.photo.path.name)
        if get_engine(engine).uses_jax and kept.run is not None:
            description["device"] = kept.run.device
        return description

    def mixed_parameters(self) -> list[str]:
        """'NumPy: 11 × 11, sigma 2.5' for each result, when the results to save were made
        with different parameters; [] when they were all made alike."""
        kept = self.saved_results()
        made = {
            engine: (k.parameters.size, k.parameters.sigma, k.parameters.algorithm)
            for engine, k in kept.items()
        }
        if len(set(made.values())) < 2:
            return []
        figures = lambda text: self.session.translate(FIGURES_CONTEXT, text)  # noqa: E731
        return [
            f"{self.title(engine)}: {describe_kernel(*values, figures)}"
            for engine, values in made.items()
        ]
