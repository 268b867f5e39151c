"""The work the window must never do on its own thread: loading, the engines, 8-bit pictures.

A single Worker lives in a QThread and takes requests one at a time through queued signals.
Every request carries a number; the window remembers the newest one it wants, and the worker
stops early (between kernel taps, between JAX calls) once its request is no longer wanted.
Results travel back as plain data: NumPy arrays and the core's result objects.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, QThread, Signal, Slot

from blurapp.core.comparison import ComparisonResult, compare, difference_picture
from blurapp.core.kernel import Algorithm, KernelSize
from blurapp.core.photo import Photo, PhotoError, load_photo
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
    picture: tuple[np.ndarray, ...]  # the grayscale photo as a uint8 pyramid, ready to show


@dataclass(frozen=True, eq=False)
class RunRequest:
    number: int
    photo: Photo
    kernel_size: KernelSize
    sigma: float
    algorithm: Algorithm
    engines: tuple[str, ...]  # engine names, in the order they run
    repeats: int


@dataclass(frozen=True, eq=False)
class EngineResult:
    """One engine's run (or why it failed) with its output as a picture."""

    request: int
    engine: str
    run: EngineRun | None
    picture: tuple[np.ndarray, ...] | None  # the output as a uint8 pyramid
    error: str | None
    sent_at: float = field(default_factory=time.perf_counter)  # to time the display


@dataclass(frozen=True, eq=False)
class RunOutcome:
    request: RunRequest
    result: ComparisonResult
    difference: tuple[np.ndarray, ...] | None  # |NumPy − JAX| pyramid, largest difference white
    difference_scale: float | None  # the difference that white stands for
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
        from blurapp.core.jax_engine import JaxUnavailableError, describe_device, jax_device

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
            photo = load_photo(path)
            picture = build_pyramid(to_8bit(photo.gray))
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
            self.photo_loaded.emit(LoadedPhoto(request, photo, picture))

    @Slot(object)
    def run(self, request: RunRequest) -> None:
        number = request.number

        def cancelled() -> bool:
            return number != self._wanted_run or self._stopping.is_set()

        if cancelled():
            self.run_cancelled.emit(number)
            return
        last_percent = -1

        def progress(engine: str, done: int, total: int) -> None:
            nonlocal last_percent
            percent = done * 100 // total
            if percent != last_percent:  # at most 101 signals, however many taps
                last_percent = percent
                self.progress.emit(number, engine, done, total)

        def engine_done(engine: str, run: EngineRun | None, error: str | None) -> None:
            nonlocal last_percent
            picture = build_pyramid(to_8bit(run.output)) if run is not None else None
            self.engine_finished.emit(EngineResult(number, engine, run, picture, error))
            following = request.engines.index(engine) + 1
            if following < len(request.engines):
                last_percent = -1
                # Busy, length unknown, until (unless) the next engine reports its taps.
                self.progress.emit(number, request.engines[following], 0, 0)

        try:
            self.progress.emit(number, request.engines[0], 0, 0)
            result = compare(
                request.photo.gray,
                kernel_size=request.kernel_size,
                sigma=request.sigma,
                algorithm=request.algorithm,
                repeats=request.repeats,
                engines=request.engines,
                progress=progress,
                cancelled=cancelled,
                on_engine_done=engine_done,
            )
            difference = scale = None
            if result.numpy is not None and result.jax is not None:
                difference, scale = difference_picture(
                    result.numpy.output, result.jax.output, result.max_abs_diff
                )
                difference = build_pyramid(difference)
        except BlurCancelled:
            self.run_cancelled.emit(number)
            return
        except Exception as error:
            self.run_failed.emit(number, error)
            return
        if cancelled():
            self.run_cancelled.emit(number)
            return
        self.run_finished.emit(RunOutcome(request, result, difference, scale))


class WorkerThread:
    """A Worker in its own QThread, started at once and stopped with `stop()`."""

    def __init__(self) -> None:
        self.thread = QThread()
        self.thread.setObjectName("blurapp-worker")
        self.worker = Worker()
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
