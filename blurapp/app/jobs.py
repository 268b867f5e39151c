"""The window's long jobs as plain generator functions, without Qt: open a photo, compare the
engines (a timed run or a live preview), sweep the sizes, blur a file by blocks.

Every job is called as `job(*arguments, cancelled=…, report=…)` and gives back a generator: it
yields as each step ends (a runner asks it to quit there), and returns its answer. Within one
step, one call into the core, it checks `cancelled()` (between kernel taps, between JAX calls)
and tells what happens there through `report(event)`, which a runner delivers as it delivers
what is yielded. blurapp.ui.background_runner runs them off the window's thread; InlineRunner
(blurapp.app.running) runs them here, step by step, for tests and scripts. Answers are plain
data: NumPy arrays and the core's result objects.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Generator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from blurapp.app.pyramid import Pyramid, build_pyramid, output_pyramid
from blurapp.app.run_records import RunPlan
from blurapp.app.running import Report
from blurapp.core.engines import Engine, engine_names, get_engine
from blurapp.core.engines.jax_runtime import JaxUnavailableError, describe_device, jax_device
from blurapp.core.engines.runs import BlurCancelled, Cancelled, EngineRun
from blurapp.core.kernel import PREVIEW_KERNEL_SIZES, pad_kernel, preview_kernel_size
from blurapp.core.measuring.comparison import (
    ComparisonResult,
    Watch,
    compare_engines,
    difference_picture,
)
from blurapp.core.measuring.profiler_trace import (
    SteadyTrace,
    TraceError,
    WrittenTrace,
    make_trace_folder,
)
from blurapp.core.measuring.sweep import SweepPoint, sweep_points, sweep_sizes
from blurapp.core.media.photo import Photo, load_photo
from blurapp.core.media.photo_checks import NotEnoughMemory, PhotoError
from blurapp.core.media.saving import OutputError, to_8bit
from blurapp.core.spec import BlurSpec
from blurapp.core.wording import QT_TRANSLATE_NOOP, display_path

log = logging.getLogger(__name__)


def never() -> bool:
    return False


def ignore(event: Any) -> None:
    pass


# --- What the jobs tell ----------------------------------------------------------------------


@dataclass(frozen=True)
class Loading:
    """A photo's load has come to `step`, in English marked for translation ("reading the
    file"): its panes say so while they have nothing to show."""

    step: str


READING = QT_TRANSLATE_NOOP("Session", "reading the file")
MAKING_PICTURE = QT_TRANSLATE_NOOP("Session", "making the picture to show")


@dataclass(frozen=True)
class EngineProgress:
    """How far an engine is: `done` of `total` kernel taps (total 0: busy, no count)."""

    engine: str
    done: int
    total: int


@dataclass(frozen=True)
class Compiling:
    """`engine` is compiling (or loading from the cache) its program for a `size` × `size`
    kernel: a call that takes a second, not the blur's usual time."""

    engine: str
    size: int


@dataclass(frozen=True)
class BlocksDone:
    """How far a blur by blocks is: `done` of `total` blocks, at this rate so far."""

    done: int
    total: int
    megapixels_per_second: float


@dataclass(frozen=True, eq=False)
class LoadedPhoto:
    photo: Photo
    picture: tuple[np.ndarray, ...]  # the photo (grey or RGB) as a uint8 pyramid, ready to show
    grey_for_memory: bool = False  # a colour photo opened in grey: its colour blur would not fit
    # A colour photo's grey, the one a grey blur starts from, as a pyramid; None for a grey one.
    grey_picture: tuple[np.ndarray, ...] | None = None


@dataclass(frozen=True, eq=False)
class EngineResult:
    """One engine's run (or why it failed) with its output as a picture."""

    engine: str
    run: EngineRun | None
    picture: Pyramid | None  # the output as a uint8 pyramid
    error: str | None
    final: bool = True  # False: the first call only, its steady calls still to be timed
    program_size: int | None = None  # the kernel size its program is for (a padded preview's)


@dataclass(frozen=True, eq=False)
class RunOutcome:
    result: ComparisonResult
    # engine → (|reference − engine| as a pyramid, largest difference white; that difference)
    differences: Mapping[str, tuple[tuple[np.ndarray, ...], float]]
    trace: WrittenTrace | None = None  # where the run's profiler trace went, if it recorded one


@dataclass(frozen=True)
class JaxStart:
    """How JAX's start went: the device it runs on, or why it cannot run."""

    device: str | None = None
    problem: str | None = None


# --- Failures in a user's words ----------------------------------------------------------------


def failure_words(
    error: BaseException, *, subject: str | Path | None = None, memory_for: str | None = None
) -> str:
    """Why a job failed, for the user: a problem with a file as its message says it (the
    message names the file), not enough memory as that (for `memory_for`, when given), anything
    else as its type and message; all of it after `subject`'s name, when given."""
    if isinstance(error, _file_problems()):
        return str(error)
    if isinstance(error, MemoryError):
        words = "not enough memory" + (f" for {memory_for}" if memory_for else "")
    else:
        words = f"{type(error).__name__}: {error}"
    return f"{display_path(subject)}: {words}" if subject is not None else words


def is_foreseen(error: BaseException) -> bool:
    """Whether `error` is a failure its words explain in full (a file's problem, not enough
    memory), rather than a bug whose traceback the log should keep."""
    return isinstance(error, (*_file_problems(), MemoryError))


def _file_problems() -> tuple[type[BaseException], ...]:
    return (PhotoError, OutputError, TraceError, *_scale_problems())


def _scale_problems() -> tuple[type[BaseException], ...]:
    """The scale layer's problems that name what failed; none before it is imported, when none
    of them can have been raised."""
    import sys

    scheduler = sys.modules.get("blurapp.scale.scheduler")
    return () if scheduler is None else (scheduler.MissingExtraError, scheduler.ClusterError)


# --- The jobs ------------------------------------------------------------------------------


def warm_up_job(
    *, cancelled: Cancelled = never, report: Report = ignore
) -> Generator[None, None, JaxStart]:
    """Import JAX and find its device, so the first Run does not wait for it."""
    yield None
    return start_jax()


def start_jax() -> JaxStart:
    """Import JAX and open its default device, here and now: how it went, never raising. The
    warm-up job's one step; the window calls it itself, before it is shown, where opening the
    device holds Python's lock for seconds (blurapp.ui.launch.open_window)."""
    try:
        return JaxStart(device=describe_device(jax_device()))
    except JaxUnavailableError as error:
        log.warning("%s", error, exc_info=True)
        return JaxStart(problem=str(error))
    except Exception as error:
        log.exception("JAX failed to start")
        return JaxStart(problem=f"JAX failed to start: {error}")


def stop_preview_job(
    *, cancelled: Cancelled = never, report: Report = ignore
) -> Generator[None, None, None]:
    """The live preview is off: each engine lets go of what it kept between changes (JAX-jit:
    the photo on its device). A job of its own, so it runs after any preview in flight."""
    yield None
    _let_previews_go()


def _let_previews_go(previewing: tuple[str, ...] = ()) -> None:
    """Every engine but those `previewing` lets go of what its live preview kept, so a job
    that does not preview with it has the memory: a timed run, a sweep, a blur by blocks, or
    a preview of the other engines."""
    kept = {get_engine(name).preview.stop for name in previewing}
    # JAX-jit on each platform shares one stop (jax@gpu is JAX-jit): each called once.
    stops = {get_engine(name).preview.stop for name in engine_names()} - kept
    for stop in stops:
        if stop is None:
            continue
        try:
            stop()
        except Exception:  # a plugin's: the others still let go, and the job goes on
            log.warning("an engine failed to let go of its live preview", exc_info=True)


def load_job(
    path: Path, *, cancelled: Cancelled = never, report: Report = ignore
) -> Generator[None, None, LoadedPhoto]:
    """Open `path` in colour, whatever the Colour switch says: Show ▸ Original shows the photo
    as it is. A colour photo whose colour blur would not fit in memory opens in grey. Fails
    with a PhotoError naming the file, whatever went wrong. Reports each step as a Loading:
    decoding the file is most of a large photo's wait, one call that cannot count its way."""
    try:
        grey_for_memory = False
        report(Loading(READING))
        try:
            photo = load_photo(path, color=True)
        except NotEnoughMemory:
            photo, grey_for_memory = load_photo(path), True
            log.info("%s: opened in grey, too large to blur in colour here", path)
        yield None
        report(Loading(MAKING_PICTURE))
        picture = build_pyramid(to_8bit(photo.pixels))
        grey_picture = None
        if photo.channels > 1:
            yield None
            grey_picture = build_pyramid(to_8bit(photo.gray))
    except PhotoError:
        raise
    except Exception as error:
        unexpected = PhotoError(
            path, QT_TRANSLATE_NOOP("FileProblem", "unexpected error: {reason}"), reason=error
        )
        raise unexpected from error  # the log shows its traceback
    return LoadedPhoto(photo, picture, grey_for_memory, grey_picture)


def _program_ready(engine: Engine, shape: tuple[int, ...], kernel_shape: tuple[int, ...]) -> bool:
    """Whether `engine` has its program for these shapes (True when it cannot tell: see
    Engine.holds_program)."""
    try:
        return engine.holds_program(shape, kernel_shape)
    except Exception:  # JAX cannot start: the engine's own call says why
        return True


def program_sizes(plan: RunPlan) -> tuple[dict[str, int], set[str]]:
    """The kernel size each compiled engine of `plan` runs a program for, and the engines
    that will compile (or load) it first.

    A timed run blurs with the exact kernel. So does a live preview, when that program is
    compiled already or the kernel size is set (a new sigma reuses it); with kernel size auto
    every sigma's step is a new size and a new compile, so the preview zero-pads its kernel to
    one of a few sizes (blurapp.core.kernel.PREVIEW_KERNEL_SIZES), a compiled one when there is
    one: one program serves several sizes, and the pane keeps up while sigma is dragged."""
    parameters = plan.parameters
    shape = plan.photo.to_blur(color=parameters.color).shape

    def kernel_shape(size: int) -> tuple[int, ...]:
        return (size, size) if parameters.algorithm == "2d" else (size,)

    sizes, compiles = {}, set()
    for name in plan.engines:
        engine = get_engine(name)
        if not engine.compiles:
            continue
        size = parameters.size
        ready = _program_ready(engine, shape, kernel_shape(size))
        if plan.live and not ready and parameters.kernel_size == "auto":
            # A program compiled for a larger size serves, up to twice the size (four times
            # the taps): dragging sigma down compiles nothing.
            larger = [bucket for bucket in PREVIEW_KERNEL_SIZES if size < bucket <= 2 * size]
            compiled = (b for b in larger if _program_ready(engine, shape, kernel_shape(b)))
            size = next(compiled, preview_kernel_size(size))
            ready = _program_ready(engine, shape, kernel_shape(size))
        sizes[name] = size
        if not ready:
            compiles.add(name)
    return sizes, compiles


def _padded(engine: Engine, size: int) -> Engine:
    """`engine`, its kernels zero-padded to `size` taps a side."""
    first_call = engine.first_call

    def padded_first_call(image: np.ndarray, kernel: np.ndarray, **options: Any) -> Any:
        return first_call(image, pad_kernel(kernel, size), **options)

    return dataclasses.replace(engine, first_call=padded_first_call)


# A live preview reports an engine's taps every this many percent (a timed run, every percent).
LIVE_PROGRESS_STEP = 10


def compare_job(
    plan: RunPlan, *, cancelled: Cancelled = never, report: Report = ignore
) -> Generator[EngineProgress | None, None, RunOutcome]:
    """Run `plan`'s engines on its photo: a timed run, or a live preview (plan.live: one call
    each, no difference pictures; see program_sizes for the kernels of its compiled engines).
    Reports each engine's taps (at most 101 reports a step, a live preview's 11), each
    engine's result as it comes (its first call's output first, while its steady calls are
    timed), which engine is busy next, and Compiling before an engine compiles its program.
    With `plan.trace`, a profiler trace of the steady calls goes in that folder, made first
    (TraceError, naming it, when it cannot be)."""
    engines, repeats = plan.engines, plan.repeats
    trace = None
    if plan.trace is not None:
        make_trace_folder(plan.trace)
        trace = SteadyTrace(plan.trace)
    _let_previews_go(engines if plan.live else ())
    sizes, compiles = program_sizes(plan)
    last_percent: tuple[str, int] | None = None
    # A live preview's taps are shown nowhere (a pane's words say it is coming): each report a
    # signal the window's thread handles while the engines blur, the next change's among them.
    step = LIVE_PROGRESS_STEP if plan.live else 1

    def progress(engine: str, done: int, total: int) -> None:
        nonlocal last_percent
        percent = (engine, done * 100 // total // step)
        if percent != last_percent:
            last_percent = percent
            report(EngineProgress(engine, done, total))

    pictures: dict[str, Pyramid] = {}

    def engine_done(
        engine: str, run: EngineRun | None, error: str | None, final: bool = True
    ) -> None:
        nonlocal last_percent
        picture = pictures.get(engine)
        if picture is None and run is not None:
            # A live preview's output left on its device is halved there (output_pyramid).
            try:
                view_size = plan.view_sizes.get(engine)
                picture = pictures[engine] = output_pyramid(run.output, view_size)
            except Exception as failure:  # the pane says so, as of any engine's failure
                log.warning("the %s engine's picture could not be made", engine, exc_info=True)
                run, error = None, failure_words(failure)
        report(EngineResult(engine, run, picture, error, final, program_size=sizes.get(engine)))
        following = engines.index(engine) + 1
        if following < len(engines) and not (final and repeats != 0):
            last_percent = None
            # Busy, length unknown, until (unless) the next engine reports its taps.
            report(EngineProgress(engines[following], 0, 0))
            starting(engines[following])

    def starting(engine: str) -> None:
        if engine in compiles:
            report(Compiling(engine, sizes[engine]))

    parameters = plan.parameters

    def engine_for(name: str) -> Engine | str:
        engine = get_engine(name)
        if plan.live:
            engine = engine.for_display()
        if name in sizes and sizes[name] != parameters.size:
            return _padded(engine, sizes[name])
        return engine

    class Reporting(Watch):
        """The comparison, followed by this job's reports."""

        def progress(self, step: str, done: int, total: int) -> None:
            progress(step, done, total)

        def output(self, engine: str, run: EngineRun) -> None:
            engine_done(engine, run, None, final=False)

        def engine_done(self, engine: str, run: EngineRun | None, error: str | None) -> None:
            engine_done(engine, run, error)

    chosen = [engine_for(name) for name in engines]
    yield EngineProgress(engines[0], 0, 0)
    starting(engines[0])
    result = compare_engines(
        plan.photo.to_blur(color=parameters.color),
        parameters,
        repeats=repeats,
        engines=chosen,
        watch=Reporting(cancelled),
        trace=trace,
    )
    # A preview is never shown as figures: no difference pictures to spend on.
    differences = {}
    reference = result.runs.get(result.reference)
    if not plan.live and reference is not None:
        for engine, difference in result.differences.items():
            yield None
            picture, scale = difference_picture(
                reference.output, result.runs[engine].output, difference
            )
            differences[engine] = (build_pyramid(picture), scale)
    if cancelled():
        raise BlurCancelled
    return RunOutcome(result, differences, trace.written if trace is not None else None)


def sweep_job(
    photo: Photo,
    parameters: BlurSpec,
    engines: tuple[str, ...],
    max_megapixels: float,
    repeats: int | None,
    *,
    cancelled: Cancelled = never,
    report: Report = ignore,
) -> Generator[SweepPoint, None, list[SweepPoint]]:
    """The scaling sweep of `photo`'s grey from 0.1 MP to `max_megapixels`: yields each size's
    point as it finishes, and returns them all."""
    _let_previews_go()
    points = []
    for point in sweep_points(
        photo.gray,
        sizes=sweep_sizes(photo.gray.shape, max_megapixels=max_megapixels),
        kernel_size=parameters.kernel_size,
        sigma=parameters.sigma,
        algorithm=parameters.algorithm,
        engines=engines,
        repeats=repeats,
        cancelled=cancelled,
    ):
        points.append(point)
        yield point
    if cancelled():
        raise BlurCancelled
    return points


def blur_to_file_job(
    source: Path,
    output: Path,
    parameters: BlurSpec,
    engine: str,
    *,
    cancelled: Cancelled = never,
    report: Report = ignore,
) -> Generator[None, None, Any]:
    """Blur `source`, an image too large to open, into `output` by blocks with `engine`,
    reporting BlocksDone after each row of blocks; returns the scale layer's TiledResult."""
    # the scale layer (20 ms): only when a file is blurred by blocks, not at the window's start
    from blurapp.scale import tiled

    yield None
    _let_previews_go()
    start = time.perf_counter()

    def blocks_done(done: int, total: int, megapixels: float) -> None:
        report(BlocksDone(done, total, megapixels / max(time.perf_counter() - start, 1e-9)))

    return tiled.blur_file_tiled(
        source,
        output,
        kernel=parameters.kernel,
        engine=engine,
        color=parameters.color,
        progress=blocks_done,
        cancelled=cancelled,
        block=tiled.DEFAULT_BLOCK,
        description=parameters.description(engine),
    )
