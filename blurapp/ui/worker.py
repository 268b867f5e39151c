"""The work the window must never do on its own thread: loading, the engines, 8-bit pictures.

A single Worker lives in a QThread and takes requests one at a time through queued signals.
Every request carries a number; the WorkerClient, on the window's thread, hands out the numbers,
remembers the newest one wanted and passes on only its answers, while the worker stops early
(between kernel taps, between JAX calls) once its request is no longer wanted. Results travel
back as plain data: NumPy arrays and the core's result objects.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, QThread, Signal, Slot

from blurapp.app.session import BlurSpec, Newest
from blurapp.core.comparison import ComparisonResult, compare, difference_picture
from blurapp.core.kernel import Algorithm, KernelSize
from blurapp.core.photo import NotEnoughMemory, Photo, PhotoError, load_photo
from blurapp.core.runs import BlurCancelled, EngineRun
from blurapp.core.saving import to_8bit
from blurapp.core.wording import QT_TRANSLATE_NOOP
from blurapp.ui.pyramid import build_pyramid

log = logging.getLogger(__name__)

# Every worker thread the window starts, so tests can check none outlives its window.
_started_threads: weakref.WeakSet[QThread] = weakref.WeakSet()


def running_worker_threads() -> list[QThread]:
    return [thread for thread in list(_started_threads) if thread.isRunning()]


@dataclass(frozen=True, eq=False)
class LoadedPhoto:
    request: int
    photo: Photo
    picture: tuple[np.ndarray, ...]  # the photo (grey or RGB) as a uint8 pyramid, ready to show
    grey_for_memory: bool = False  # a colour photo opened in grey: its colour blur would not fit


@dataclass(frozen=True, eq=False)
class RunRequest:
    number: int
    photo: Photo
    kernel_size: KernelSize
    sigma: float
    algorithm: Algorithm
    color: bool  # blur a colour photo's channels, not its grey
    engines: tuple[str, ...]  # engine names, in the order they run
    repeats: int | None  # None: as many as each engine needs (blurapp.core.timing)


@dataclass(frozen=True, eq=False)
class EngineResult:
    """One engine's run (or why it failed) with its output as a picture."""

    request: int
    engine: str
    run: EngineRun | None
    picture: tuple[np.ndarray, ...] | None  # the output as a uint8 pyramid
    error: str | None
    final: bool = True  # False: the first call only, its steady calls still to be timed
    sent_at: float = field(default_factory=time.perf_counter)  # to time the display


@dataclass(frozen=True, eq=False)
class RunOutcome:
    request: RunRequest
    result: ComparisonResult
    # engine → (|reference − engine| as a pyramid, largest difference white; that difference)
    differences: dict[str, tuple[tuple[np.ndarray, ...], float]]
    sent_at: float = field(default_factory=time.perf_counter)  # to time the display


class Worker(QObject):
    photo_loaded = Signal(object)  # LoadedPhoto
    # The window tells the user and logs each failure, with its traceback: the worker doesn't,
    # or every error would reach the terminal twice.
    photo_failed = Signal(int, object)  # request, PhotoError (its message names the file)
    progress = Signal(int, str, int, int)  # request, engine, done, total (total 0: unknown)
    engine_finished = Signal(object)  # EngineResult
    run_finished = Signal(object)  # RunOutcome
    run_cancelled = Signal(int)
    run_failed = Signal(int, object)  # request, the exception
    jax_ready = Signal(str)  # the device JAX will run on, once it is imported
    jax_unavailable = Signal(str)  # why JAX cannot run

    def __init__(self) -> None:
        super().__init__()
        # Written by the window's thread, read here: plain ints, so no lock is needed.
        self._wanted_load = 0
        self._wanted_run = 0
        self._stopping = threading.Event()

    # Called directly from the GUI thread -----------------------------------------------------

    def want_load(self, request: int) -> None:
        self._wanted_load = request

    def want_run(self, request: int) -> None:
        """Only run `request` is wanted now; an older one stops at its next check."""
        self._wanted_run = request

    def stop(self) -> None:
        """Drop everything: the window is closing."""
        self._stopping.set()
        self._wanted_load = self._wanted_run = -1

    # Slots, run on the worker's thread -----------------------------------------------------

    @Slot()
    def warm_up(self) -> None:
        """Import JAX and find its device now, so the first Run doesn't wait for it."""
        from blurapp.core.engines.jax_engine import JaxUnavailableError, describe_device, jax_device

        if self._stopping.is_set():
            return
        try:
            device = describe_device(jax_device())
        except JaxUnavailableError as error:
            log.warning("%s", error, exc_info=True)
            self.jax_unavailable.emit(str(error))
            return
        except Exception as error:
            log.exception("JAX failed to start")
            self.jax_unavailable.emit(f"JAX failed to start: {error}")
            return
        self.jax_ready.emit(device)

    @Slot(int, object)
    def load(self, request: int, path: Path) -> None:
        if request != self._wanted_load or self._stopping.is_set():
            return
        try:
            # In colour whatever the Colour switch says: Show ▸ Original shows the photo as it
            # is. A colour photo whose colour blur would not fit in memory opens in grey.
            grey_for_memory = False
            try:
                photo = load_photo(path, color=True)
            except NotEnoughMemory:
                photo, grey_for_memory = load_photo(path), True
                log.info("%s: opened in grey, too large to blur in colour here", path)
            picture = build_pyramid(to_8bit(photo.pixels))
        except PhotoError as error:
            self.photo_failed.emit(request, error)
            return
        except Exception as error:
            unexpected = PhotoError(
                path, QT_TRANSLATE_NOOP("FileProblem", "unexpected error: {reason}"), reason=error
            )
            unexpected.__cause__ = error  # the log shows its traceback
            self.photo_failed.emit(request, unexpected)
            return
        if request == self._wanted_load:
            self.photo_loaded.emit(LoadedPhoto(request, photo, picture, grey_for_memory))

    @Slot(object)
    def run(self, request: RunRequest) -> None:
        number = request.number

        def cancelled() -> bool:
            return number != self._wanted_run or self._stopping.is_set()

        if cancelled():
            self.run_cancelled.emit(number)
            return
        last_percent: tuple[str, int] | None = None

        def progress(engine: str, done: int, total: int) -> None:
            nonlocal last_percent
            percent = (engine, done * 100 // total)
            if percent != last_percent:  # at most 101 signals a step, however many taps
                last_percent = percent
                self.progress.emit(number, engine, done, total)

        pictures: dict[str, tuple[np.ndarray, ...]] = {}

        def engine_done(
            engine: str, run: EngineRun | None, error: str | None, final: bool = True
        ) -> None:
            nonlocal last_percent
            picture = pictures.get(engine)
            if picture is None and run is not None:
                picture = pictures[engine] = build_pyramid(to_8bit(run.output))
            self.engine_finished.emit(EngineResult(number, engine, run, picture, error, final))
            following = request.engines.index(engine) + 1
            if following < len(request.engines) and not (final and request.repeats != 0):
                last_percent = None
                # Busy, length unknown, until (unless) the next engine reports its taps.
                self.progress.emit(number, request.engines[following], 0, 0)

        def output_ready(engine: str, run: EngineRun) -> None:
            engine_done(engine, run, None, final=False)

        try:
            self.progress.emit(number, request.engines[0], 0, 0)
            result = compare(
                request.photo.to_blur(color=request.color),
                kernel_size=request.kernel_size,
                sigma=request.sigma,
                algorithm=request.algorithm,
                repeats=request.repeats,
                engines=request.engines,
                progress=progress,
                cancelled=cancelled,
                on_engine_done=engine_done,
                on_output=output_ready,
            )
            # A preview is never shown as figures: no difference pictures to spend on.
            previewing = request.repeats == 0
            differences = {} if previewing else _difference_pictures(result, cancelled)
        except BlurCancelled:
            self.run_cancelled.emit(number)
            return
        except Exception as error:
            self.run_failed.emit(number, error)
            return
        if cancelled():
            self.run_cancelled.emit(number)
            return
        self.run_finished.emit(RunOutcome(request, result, differences))


def _difference_pictures(
    result: ComparisonResult, cancelled: Callable[[], bool]
) -> dict[str, tuple[tuple[np.ndarray, ...], float]]:
    """Each engine's |reference − engine| as a pyramid, with the difference white stands for;
    as many as were made when `cancelled()` turns True."""
    differences = {}
    reference = result.runs.get(result.reference)
    for engine, difference in result.differences.items():
        if cancelled():
            break
        picture, scale = difference_picture(
            reference.output, result.runs[engine].output, difference
        )
        differences[engine] = (build_pyramid(picture), scale)
    return differences


class WorkerThread:
    """A worker in its own QThread, started at once and stopped with `stop()`: a Worker, or
    `worker` (any QObject with a stop() method) named `name`."""

    def __init__(self, worker: QObject | None = None, name: str = "blurapp-worker") -> None:
        self.thread = QThread()
        self.thread.setObjectName(name)
        self.worker = worker if worker is not None else Worker()
        self.worker.moveToThread(self.thread)
        _started_threads.add(self.thread)
        self.thread.start()

    def stop(self, wait_ms: int | None = None) -> bool:
        """Ask the work in hand to stop, and wait up to `wait_ms` (None: as long as it takes)
        for the thread to end. Returns whether it has ended.

        The worker stops at its next check: after a kernel tap or one compiled JAX call.
        """
        self.worker.stop()
        self.thread.quit()
        if wait_ms is None:
            return self.thread.wait()
        return self.thread.wait(wait_ms)


# Worker threads let go of while still inside one uninterruptible call: held until they end,
# as a QThread destroyed while running aborts the program.
_finishing: list[WorkerThread] = []


def finish_in_background(worker_thread: WorkerThread) -> None:
    """Hold `worker_thread`, already stopped, until its thread ends on its own: whoever closes
    need not wait for the call in hand, and the program waits for it before exiting."""
    _finishing[:] = [held for held in _finishing if not held.thread.wait(0)]
    if not worker_thread.thread.wait(0):
        _finishing.append(worker_thread)


@atexit.register
def _wait_for_finishing() -> None:
    while _finishing:
        _finishing.pop().thread.wait()


class WorkerClient(QObject):
    """The window's side of the worker: it numbers the requests, cancels the one superseded,
    and passes on only the answers to the newest, so the window keeps no bookkeeping."""

    photo_loaded = Signal(object)  # LoadedPhoto
    photo_failed = Signal(object)  # PhotoError
    progress = Signal(str, int, int)  # engine, done, total (0: busy, no count)
    engine_finished = Signal(object)  # EngineResult
    run_finished = Signal(object)  # RunOutcome
    run_failed = Signal(object)  # the exception
    run_stopped = Signal()  # the worker has let go of a cancelled or superseded run
    jax_ready = Signal(str)
    jax_unavailable = Signal(str)
    # Requests for the worker: connected across threads, so its slots run on its thread.
    _load_requested = Signal(int, object)
    _run_requested = Signal(object)
    _warm_up_requested = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._loads = Newest()
        self._runs = Newest()
        self._worker_thread = WorkerThread()
        self.thread = self._worker_thread.thread
        worker = self.worker = self._worker_thread.worker
        worker.photo_loaded.connect(self._on_photo_loaded)
        worker.photo_failed.connect(self._on_photo_failed)
        worker.progress.connect(self._on_progress)
        worker.engine_finished.connect(self._on_engine_finished)
        worker.run_finished.connect(self._on_run_finished)
        worker.run_cancelled.connect(self._on_run_cancelled)
        worker.run_failed.connect(self._on_run_failed)
        worker.jax_ready.connect(self.jax_ready)
        worker.jax_unavailable.connect(self.jax_unavailable)
        self._load_requested.connect(worker.load)
        self._run_requested.connect(worker.run)
        self._warm_up_requested.connect(worker.warm_up)

    # --- Requests --------------------------------------------------------------------------

    def load(self, path: Path) -> None:
        """Load `path`. The worker takes one request at a time: cancel a run in flight first,
        or the photo waits for it."""
        number = self._loads.next()
        self.worker.want_load(number)
        self._load_requested.emit(number, path)

    def run(
        self, photo: Photo, parameters: BlurSpec, engines: tuple[str, ...], repeats: int | None
    ) -> None:
        """Run `engines` on `photo`; a run still in flight is superseded."""
        number = self._runs.next()
        self.worker.want_run(number)
        self._run_requested.emit(
            RunRequest(
                number=number,
                photo=photo,
                kernel_size=parameters.kernel_size,
                sigma=parameters.sigma,
                algorithm=parameters.algorithm,
                color=parameters.color,
                engines=engines,
                repeats=repeats,
            )
        )

    def cancel(self) -> bool:
        """Stop wanting the run in flight; whether there was one."""
        if not self._runs.drop():
            return False
        self.worker.want_run(self._runs.number)
        return True

    def is_running(self) -> bool:
        return self._runs.pending

    def warm_up(self) -> None:
        self._warm_up_requested.emit()

    def stop(self, wait_ms: int | None = None) -> bool:
        """Drop everything and end the thread; whether it has ended within `wait_ms`."""
        self._runs.drop()
        self._loads.drop()
        return self._worker_thread.stop(wait_ms)

    # --- Answers: only the newest request's pass ---------------------------------------------

    @Slot(object)
    def _on_photo_loaded(self, loaded: LoadedPhoto) -> None:
        if self._loads.done(loaded.request):
            self.photo_loaded.emit(loaded)

    @Slot(int, object)
    def _on_photo_failed(self, request: int, error: PhotoError) -> None:
        if self._loads.done(request):
            self.photo_failed.emit(error)

    @Slot(int, str, int, int)
    def _on_progress(self, request: int, engine: str, done: int, total: int) -> None:
        if self._runs.wanted(request):
            self.progress.emit(engine, done, total)

    @Slot(object)
    def _on_engine_finished(self, done: EngineResult) -> None:
        if self._runs.wanted(done.request):
            self.engine_finished.emit(done)

    @Slot(object)
    def _on_run_finished(self, outcome: RunOutcome) -> None:
        if self._runs.done(outcome.request.number):
            self.run_finished.emit(outcome)

    @Slot(int)
    def _on_run_cancelled(self, request: int) -> None:
        log.debug("run %d stopped", request)
        self.run_stopped.emit()

    @Slot(int, object)
    def _on_run_failed(self, request: int, error: Exception) -> None:
        if self._runs.done(request):
            self.run_failed.emit(error)
