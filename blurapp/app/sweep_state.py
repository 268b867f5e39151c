"""The scaling sweep's state without Qt: what is swept, the sizes done, whether a sweep runs,
and the words for all of it; the sweep itself goes to a runner (blurapp.app.jobs.sweep_job),
whose answers are taken from the newest sweep only.

The sweep window renders it when it tells its listeners what changed (see `subscribe`):
"subject", "running", "point" (a size done: the last of `points`), "finished", "stopped" or
"failed" (why: `failure`). Its words are the sweep window's ("SweepWindow" to translators).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from blurapp.app.captions import ENGINES_CONTEXT, Translate
from blurapp.app.first_calls import FirstCalls, Program
from blurapp.app.jobs import failure_words, sweep_job
from blurapp.app.recompiles import Recompiles, getting_seconds
from blurapp.app.running import JobHandle, JobRunner
from blurapp.app.session import Newest
from blurapp.core.engines import get_engine
from blurapp.core.engines.runs import Payer
from blurapp.core.measuring.sweep import (
    DEFAULT_MAX_MEGAPIXELS,
    SweepBreakEven,
    SweepPoint,
    accelerator_break_even,
    sweep_break_even,
    sweep_break_even_words,
)
from blurapp.core.media.photo import Photo
from blurapp.core.report.figures import CONTEXT as FIGURES_CONTEXT
from blurapp.core.report.figures import FIRST_CALL_NOTES, format_megapixels, format_ms, paid_words
from blurapp.core.spec import BlurSpec, describe_kernel
from blurapp.core.wording import QT_TRANSLATE_NOOP, display_path

CONTEXT = "SweepWindow"


def _english(context: str, text: str) -> str:
    return text


class SweepChange(StrEnum):
    """What of a SweepState changed, told to its listeners (as its name, a str)."""

    FAILED = "failed"
    FINISHED = "finished"
    POINT = "point"
    RUNNING = "running"
    STOPPED = "stopped"
    SUBJECT = "subject"


class SweepState:
    def __init__(
        self,
        photo: Photo,
        parameters: BlurSpec,
        engines: Sequence[str],
        runner: JobRunner,
        translate: Translate = _english,
        *,
        repeats: int | None = None,
        first_calls: FirstCalls | None = None,
        recompiles: Recompiles | None = None,
        before_start: Callable[[], None] | None = None,
    ) -> None:
        """`first_calls`: the window's record of what each compiled program's first call cost
        and who paid it, which the sweep reads and adds to; `recompiles`: the window's count of
        the programs the compiled engines got, to which the sweep adds those it gets;
        `before_start`: called as each sweep starts, before its job is given to the runner
        (the window's, to stop what else measures)."""
        self.runner, self.translate = runner, translate
        self.before_start = before_start
        self.first_calls = first_calls if first_calls is not None else FirstCalls()
        self.recompiles = recompiles if recompiles is not None else Recompiles()
        self.repeats = repeats  # None: as many steady calls as each engine needs
        self.max_megapixels = DEFAULT_MAX_MEGAPIXELS
        self.points: list[SweepPoint] = []
        self.running = False
        self.status = ""
        self.failure: tuple[str, BaseException] | None = None  # why the last sweep failed
        self.job: JobHandle | None = None  # the last sweep given to the runner
        self._sweeps = Newest()
        self._listeners: list[Callable[[SweepChange], None]] = []
        self.photo, self.parameters, self.engines = photo, parameters, tuple(engines)

    def subscribe(self, listener: Callable[[SweepChange], None]) -> None:
        self._listeners.append(listener)

    def _changed(self, what: SweepChange) -> None:
        for listener in list(self._listeners):
            listener(what)

    def tr(self, text: str) -> str:
        return self.translate(CONTEXT, text)

    def title(self, engine: str) -> str:
        return self.translate(ENGINES_CONTEXT, get_engine(engine).title)

    # --- What is swept ---------------------------------------------------------------------

    def set_subject(self, photo: Photo, parameters: BlurSpec, engines: Sequence[str]) -> None:
        """Sweep `photo` with `parameters` and `engines` from now on; the sizes done go."""
        self.stop()
        self.photo, self.parameters, self.engines = photo, parameters, tuple(engines)
        self.points = []
        self.status = ""
        self._changed(SweepChange.SUBJECT)

    def subject(self) -> str:
        """The photo, its size, the kernel and the engines swept, in a line."""
        parameters, photo = self.parameters, self.photo
        kernel = describe_kernel(
            parameters.size,
            parameters.sigma,
            parameters.algorithm,
            lambda text: self.translate(FIGURES_CONTEXT, text),
        )
        return self.tr(
            QT_TRANSLATE_NOOP("SweepWindow", "{photo}, {size} · kernel {kernel} · {engines}")
        ).format(
            photo=display_path(photo.path.name),
            size=format_megapixels(photo.width, photo.height),
            kernel=kernel,
            engines=", ".join(self.title(name) for name in self.engines),
        )

    # --- Running ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start the sweep, from 0.1 MP to `max_megapixels`; one in progress starts over."""
        if self.before_start is not None:
            self.before_start()
        if self.job is not None:
            self.job.quit()
        number = self._sweeps.next()
        self.points = []
        self.running = True
        self.failure = None
        self.status = self.tr(QT_TRANSLATE_NOOP("SweepWindow", "Running…"))
        self.job = self.runner.start(
            sweep_job,
            self.photo,
            self.parameters,
            self.engines,
            self.max_megapixels,
            self.repeats,
            on_event=lambda point: self._on_point(number, point),
            on_return=lambda points: self._on_finished(number),
            on_error=lambda error: self._on_failed(number, error),
        )
        self._changed(SweepChange.RUNNING)

    def stop(self) -> None:
        """Stop the sweep in progress; the sizes done stay."""
        if not self.running:
            return
        self.running = False
        self._sweeps.drop()  # its last answers, still on their way, are refused
        if self.job is not None:
            self.job.quit()
        self.status = self._with_break_even(
            self.tr(QT_TRANSLATE_NOOP("SweepWindow", "Stopped after {count} sizes")).format(
                count=len(self.points)
            )
        )
        self._changed(SweepChange.RUNNING)
        self._changed(SweepChange.STOPPED)

    # --- What comes back -------------------------------------------------------------------

    def _program(self, point: SweepPoint, engine: str) -> Program:
        """The program `engine` ran at `point`'s size (the sweep blurs the photo's grey)."""
        parameters = self.parameters
        device = point.first_calls[engine].device
        shape = (point.height, point.width)
        return Program(engine, shape, parameters.size, parameters.algorithm, device)

    def _on_point(self, number: int, point: SweepPoint) -> None:
        if not self._sweeps.wanted(number):
            return
        for engine, call in point.first_calls.items():
            program = self._program(point, engine)
            self.first_calls.record(program, call.seconds, call.compilation, Payer.SWEEP)
            if get_engine(engine).compiles:
                seconds = getting_seconds(call.parts, call.seconds)
                self.recompiles.record_first_call(program, call.compilation, seconds, Payer.SWEEP)
        self.points.append(point)
        self.status = self.tr(QT_TRANSLATE_NOOP("SweepWindow", "{size} done")).format(
            size=format_megapixels(point.width, point.height)
        )
        self._changed(SweepChange.POINT)

    def _on_finished(self, number: int) -> None:
        if not self._sweeps.done(number):
            return
        self.running = False
        self.status = self._with_break_even(
            self.tr(QT_TRANSLATE_NOOP("SweepWindow", "Done: {count} sizes")).format(
                count=len(self.points)
            )
        )
        self._changed(SweepChange.RUNNING)
        self._changed(SweepChange.FINISHED)

    def _on_failed(self, number: int, error: BaseException) -> None:
        if not self._sweeps.done(number):
            return
        self.running = False
        self.status = self.tr(QT_TRANSLATE_NOOP("SweepWindow", "The sweep failed"))
        self.failure = (failure_words(error, memory_for="the next size"), error)
        self._changed(SweepChange.RUNNING)
        self._changed(SweepChange.FAILED)

    def break_even(self) -> SweepBreakEven | None:
        """From which size JAX-jit beats NumPy at the sizes done (None: not both timed)."""
        return sweep_break_even(self.points)

    def _with_break_even(self, status: str) -> str:
        """`status`, then from which size JAX-jit beats NumPy, and JAX-jit on the accelerator
        beats it on the CPU, when the sizes done say."""
        found = [self.break_even(), accelerator_break_even(self.points)]
        figures = lambda text: self.translate(FIGURES_CONTEXT, text)  # noqa: E731
        words = [sweep_break_even_words(one, self.title, figures) for one in found if one]
        return " · ".join([status, *words])

    def first_call_words(self) -> str:
        """Each compiled engine's first call at every size done, with where its program was
        paid for: '0.10 MP: 512 ms (includes compilation) · 0.24 MP, this photo: 1,234 ms,
        compiled during the live preview'; '' before a size is done."""
        figures = lambda text: self.translate(FIGURES_CONTEXT, text)  # noqa: E731
        lines = []
        for engine in self.engines:
            sizes = []
            for point in self.points:
                call = point.first_calls.get(engine)
                if call is None:
                    continue
                paid = self.first_calls.for_call(self._program(point, engine), call.compilation)
                if paid is not None:
                    words = paid_words(paid, figures)
                else:
                    note = figures(FIRST_CALL_NOTES[call.compilation])
                    words = f"{format_ms(call.seconds)} ({note})"
                size = f"{point.megapixels:.2f} MP"
                if not point.resampled:
                    size += ", " + self.tr(QT_TRANSLATE_NOOP("SweepWindow", "this photo"))
                sizes.append(f"{size}: {words}")
            if sizes:
                first = self.tr(QT_TRANSLATE_NOOP("SweepWindow", "{engine} first call: {sizes}"))
                lines.append(first.format(engine=self.title(engine), sizes=" · ".join(sizes)))
        return "\n".join(lines)

    def failure_message(self) -> tuple[str, str]:
        """The title and text that tell the user why the last sweep failed."""
        words = self.failure[0] if self.failure is not None else ""
        return (
            self.tr(QT_TRANSLATE_NOOP("SweepWindow", "Sweep Failed")),
            self.tr(QT_TRANSLATE_NOOP("SweepWindow", "The sweep stopped: {reason}")).format(
                reason=words
            ),
        )
