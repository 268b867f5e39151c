"""The one runner of the window's long jobs (blurapp.app.jobs): each job runs on a superqt
GeneratorWorker in Qt's thread pool, one job at a time for the whole program, in the order
they were started.

One at a time: a run, a sweep and a blur by blocks each fill the machine, and two at once
would skew each other's figures; and a superqt worker swaps the process's warning filters
while it runs (warnings.catch_warnings), which two workers at once would leave scrambled. A
job asked to quit stops at its next yield (superqt's own check) or at the core's next check of
`cancelled()` (between kernel taps, between JAX calls); one inside a single uninterruptible
call (a compiled JAX call on a large photo) ends on its own, and the program waits for it
before it exits.

Handlers run on the window's thread: the worker's signals are queued to its BackgroundJob, a
QObject of that thread, which passes them on to the handlers for as long as its
BackgroundRunner has not stopped.
"""

from __future__ import annotations

import atexit
import functools
import logging
import os
import threading
import warnings
import weakref
from collections import deque
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QObject, QThreadPool, QTimer, Signal, Slot

from blurapp.app.running import Handlers, JobFunction
from blurapp.core.engines.runs import BlurCancelled

log = logging.getLogger(__name__)

_waiting: deque[BackgroundJob] = deque()  # started, their turn not come yet
_current: BackgroundJob | None = None  # the one job running
_retired: list[BackgroundJob] = []  # ended, kept until their threads have let go (see _retire)


def running_jobs() -> list[BackgroundJob]:
    """The job whose thread still runs it, if any: tests check none outlives its window."""
    return [job for job in [_current] if job is not None and job.is_running()]


class _Failed(Exception):
    """A job's RuntimeError, or an exception that is not an Exception (SystemExit), carried
    past superqt's worker: it takes a RuntimeError for a sign that its own Qt object was
    deleted, and drops it with a warning instead of `errored` (a JAX XlaRuntimeError, or the
    scale layer's ClusterError, would vanish unseen); the others it does not catch, and then
    never says the job finished, which would leave every later job waiting."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


def _steps(
    function: JobFunction, *arguments: Any, **keywords: Any
) -> Generator[Any, Any, tuple[Any]]:
    """`function`'s own steps, its answer in a tuple (superqt takes an answer that is an
    exception for a failure of its own) and its failures that superqt drops in a _Failed."""
    try:
        return ((yield from function(*arguments, **keywords)),)
    except GeneratorExit:
        raise  # the worker closing the steps of a job asked to quit
    except RuntimeError as error:
        raise _Failed(error) from error
    except Exception:
        raise
    except BaseException as error:
        raise _Failed(error) from error


if TYPE_CHECKING:
    from superqt.utils import GeneratorWorker as _Worker
    from superqt.utils._qthreading import GeneratorWorkerSignals


@functools.cache
def _worker_class() -> type[_Worker]:
    """superqt's GeneratorWorker, which also closes the job's generator once it stops (a job
    quit at a yield runs its `finally` blocks then, on its own thread).

    superqt is imported here, when the first job begins, not with the window: it imports all
    its widgets through qtpy, a large share of the start-up's imports, and the window's first
    job begins once the window is on screen.
    """
    os.environ.setdefault("QT_API", "pyside6")  # superqt speaks through qtpy: our binding
    from superqt.utils import GeneratorWorker

    class Worker(GeneratorWorker):
        def work(self) -> Any:
            # superqt shows the job's warnings through a lambda holding the worker, put in
            # `warnings` for as long as the job runs; a catch_warnings on another thread that
            # spans the job's end (pytest's around each test) would put it back, and a later
            # job's thread would then drop the worker last. This one holds it weakly.
            signals = weakref.ref(self.signals)

            def show(*shown: Any) -> None:
                emitter = signals()
                if emitter is not None:
                    emitter.warned.emit(shown)

            # warnings calls it with its arguments by position only, whatever their number.
            warnings.showwarning = cast(Callable[..., None], show)
            try:
                return super().work()
            finally:
                self._gen.close()

    return Worker


def _run_on_pool_thread(box: list[_Worker], ended: threading.Event) -> None:
    """Run the worker in `box`, then let go of it before saying the job has ended.

    The pool is given this function, not the worker: Qt would delete a worker it was given on
    the pool's thread once it had run, and whichever thread drops the last reference to a
    worker deletes its signals' QObject, which lives on the window's thread. Deleted from here
    while the window's thread handled its last signal, that crashes the program (a stress test
    of short jobs shows it within seconds). The window's thread keeps the
    worker, through its BackgroundJob, until `ended` says this thread holds no reference to it.
    """
    worker = box.pop()
    try:
        worker.run()
    finally:
        del worker
        ended.set()


class BackgroundJob(QObject):
    """One job given to a BackgroundRunner: `quit()` asks it to stop; `ended` comes once its
    thread is done with it, whether it answered, failed, stopped or was dropped before its
    turn."""

    ended = Signal()

    def __init__(
        self,
        runner: BackgroundRunner,
        function: JobFunction,
        arguments: tuple,
        handlers: Handlers,
    ) -> None:
        super().__init__()  # no parent: it outlives a window closed while it runs
        self._runner: BackgroundRunner | None = runner
        self._function, self._arguments, self._handlers = function, arguments, handlers
        self._quit = threading.Event()
        self._answered = False
        self.worker: _Worker | None = None
        self._ended = threading.Event()  # set on its pool thread

    def quit(self) -> None:
        self._quit.set()
        if self.worker is not None:
            self.worker.quit()

    def is_running(self) -> bool:
        """Whether its thread has it: begun, and not yet ended."""
        return self.worker is not None and not self._ended.is_set()

    def wait(self, ms: int | None = None) -> bool:
        """Wait up to `ms` (None: as long as it takes) for its thread to end it; whether it has."""
        if self.worker is None:
            return True
        return self._ended.wait(None if ms is None else ms / 1000)

    def _begin(self) -> None:
        # mypy solves the ParamSpec of GeneratorWorker's func for the class itself, not for a
        # type[GeneratorWorker] (here its subclass); _steps is a generator function as it asks.
        worker = self.worker = _worker_class()(
            _steps,  # type: ignore[arg-type]
            self._function,
            *self._arguments,
            cancelled=self._quit.is_set,
            report=self._report,
        )
        worker.yielded.connect(self._on_yielded)
        worker.returned.connect(self._on_returned)
        worker.errored.connect(self._on_errored)
        worker.warned.connect(self._on_warned)
        # superqt types `finished`, a signal of no values, as one that carries None.
        worker.finished.connect(self._on_finished)  # type: ignore[arg-type]
        # Into the pool now: superqt's start() waits for the event loop to do it, and a window
        # closed before then would wait for a job that had not begun.
        QThreadPool.globalInstance().start(
            functools.partial(_run_on_pool_thread, [worker], self._ended)
        )

    def _report(self, event: Any) -> None:
        """On the job's thread: an event from inside one step, delivered as a yield is."""
        worker = self.worker
        assert worker is not None  # made before the job began, kept until it has ended
        cast("GeneratorWorkerSignals", worker.signals).yielded.emit(event)  # a GeneratorWorker's

    def _told(self) -> Handlers:
        """Whom to tell: its handlers, until its BackgroundRunner stops (then nobody)."""
        return self._handlers if self._runner is not None else Handlers()

    @Slot(object)
    def _on_yielded(self, event: Any) -> None:
        if event is not None and not self._quit.is_set():
            self._told().event(event)

    @Slot(object)
    def _on_returned(self, answer: tuple) -> None:
        if not self._quit.is_set():
            self._answered = True
            self._told().returned(*answer)

    @Slot(object)
    def _on_errored(self, error: BaseException) -> None:
        if isinstance(error, _Failed):
            error = error.error
        if not isinstance(error, BlurCancelled) and not self._quit.is_set():
            self._answered = True
            self._told().failed(error)

    @Slot(tuple)
    def _on_warned(self, shown: tuple) -> None:
        log.warning("%s", warnings.formatwarning(*shown[:4]).rstrip())

    @Slot()
    def _on_finished(self) -> None:
        try:
            self._end()
        finally:  # a handler that failed must not stop the jobs after it
            _next()
            _retire(self)

    def _end(self) -> None:
        try:
            if not self._answered:
                self._told().stopped()
        finally:  # ended whatever its handler did
            if self._runner is not None:
                self._runner._forget(self)
            self.ended.emit()


def _retire(job: BackgroundJob) -> None:
    """Keep `job`, which has just told its end, until its pool thread has let go of its worker
    and this thread is out of the job's own slot (a QObject deleted inside its own slot, or a
    worker dropped last by the pool's thread, can crash the program)."""
    _retired.append(job)
    if len(_retired) == 1:  # else a look is already coming
        QTimer.singleShot(0, _let_go_of_retired)


def _let_go_of_retired() -> None:
    for job in _retired:
        if job._ended.is_set():
            # Let go of its worker here too: a BackgroundJob still held by whoever started it
            # (in a reference cycle with them, through its handlers) would otherwise take its
            # worker to whichever thread the garbage collector next runs on.
            job.worker, job._handlers = None, Handlers()
    _retired[:] = [job for job in _retired if not job._ended.is_set()]
    if _retired:  # its pool thread is just returning: look again soon
        QTimer.singleShot(10, _let_go_of_retired)


def _next() -> None:
    """Begin the next job whose turn has come; those quit while they waited are dropped."""
    global _current
    _current = None
    while _waiting:
        job = _waiting.popleft()
        if job._quit.is_set():
            job._end()
            continue
        _current = job
        job._begin()
        return


class BackgroundRunner(QObject):
    """A window's (or dialog's) side of the runner: it starts jobs and, until `stop()`, passes
    on what they tell. See blurapp.app.running.JobRunner for the handlers."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._jobs: list[BackgroundJob] = []

    def start(
        self,
        job: JobFunction,
        *arguments: Any,
        on_event: Callable[[Any], None] | None = None,
        on_return: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        on_stop: Callable[[], None] | None = None,
    ) -> BackgroundJob:
        handlers = Handlers.of(on_event, on_return, on_error, on_stop)
        started = BackgroundJob(self, job, arguments, handlers)
        self._jobs.append(started)
        _waiting.append(started)
        if _current is None:
            _next()
        return started

    def busy(self) -> bool:
        """Whether a job of this runner is waiting or running."""
        return bool(self._jobs)

    def stop(self, wait_ms: int | None = None) -> bool:
        """Quit every job of this runner, and tell nothing more of them; wait up to `wait_ms`
        (None: as long as it takes) for the one running to end. Whether it has ended (a job
        still inside one uninterruptible call ends on its own)."""
        jobs, self._jobs = self._jobs, []
        for job in jobs:
            job._runner = None
            job.quit()
        return all(job.wait(wait_ms) for job in jobs)

    def _forget(self, job: BackgroundJob) -> None:
        if job in self._jobs:
            self._jobs.remove(job)


def after_the_running_job(callback: Callable[[], Any]) -> None:
    """Call `callback` on this thread once the job running now has ended; at once if none is."""
    if _current is None:
        callback()
    else:
        _current.ended.connect(callback)


@atexit.register
def _wait_for_the_job_running() -> None:
    # A thread still running Python while the interpreter shuts down would crash it; and a job
    # given to the pool whose thread had not yet begun it (a window closed at once) began after
    # the Qt objects it reports through were deleted ("Signal source has been deleted").
    for job in [_current, *_retired]:
        if job is not None and job.worker is not None:
            job._ended.wait()
