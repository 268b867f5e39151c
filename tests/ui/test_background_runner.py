"""The window's runner (blurapp.ui.background_runner) with real threads: handlers on the
window's thread, one job at a time, failures told, quit honoured, nothing told after stop()."""

import subprocess
import sys
import threading
import time

import pytest
from helpers.window import RUN_TIMEOUT_MS

from blurapp.ui.background_runner import BackgroundRunner, running_jobs


def ticking(count, seconds, log, *, cancelled, report):
    """`count` steps of `seconds` each, logging when each begins and ends."""
    for number in range(count):
        log.append(("begin", number, threading.get_ident()))
        time.sleep(seconds)
        report(("tick", number))
        log.append(("end", number, threading.get_ident()))
        yield number
    return count


def test_handlers_run_on_the_windows_thread_in_order(qtbot):
    runner = BackgroundRunner()
    told, log, threads = [], [], []

    def on_event(event):
        threads.append(threading.get_ident())
        told.append(event)

    with qtbot.waitSignal(
        runner.start(ticking, 2, 0.01, log, on_event=on_event, on_return=told.append).ended,
        timeout=RUN_TIMEOUT_MS,
    ):
        pass
    assert told == [("tick", 0), 0, ("tick", 1), 1, 2]
    assert set(threads) == {threading.get_ident()}
    assert {ident for *_, ident in log} != {threading.get_ident()}  # the job ran elsewhere


def test_jobs_of_two_runners_run_one_after_the_other(qtbot):
    first, second, log = BackgroundRunner(), BackgroundRunner(), []
    first.start(ticking, 3, 0.02, log)
    job = second.start(ticking, 3, 0.02, log)
    with qtbot.waitSignal(job.ended, timeout=RUN_TIMEOUT_MS):
        pass
    steps = [(what, number) for what, number, _ in log]
    assert steps == [(what, n) for _ in range(2) for n in range(3) for what in ("begin", "end")]


def test_a_runtime_error_in_a_job_is_told_as_it_was_raised(qtbot):
    # superqt's worker takes a RuntimeError for its own deletion and drops it; JAX raises them.
    def failing(*, cancelled, report):
        yield None
        raise RuntimeError("device lost")

    errors = []
    job = BackgroundRunner().start(failing, on_error=errors.append)
    with qtbot.waitSignal(job.ended, timeout=RUN_TIMEOUT_MS):
        pass
    [error] = errors
    assert type(error) is RuntimeError and str(error) == "device lost"


def test_a_job_that_exits_or_answers_with_an_error_leaves_the_next_job_its_turn(qtbot):
    # superqt's worker catches only Exception, and takes an answer that is a RuntimeError for
    # its own deletion: either way it never said the job had finished, and every later job
    # waited for ever.
    def exiting(*, cancelled, report):
        yield None
        raise SystemExit(3)

    def answering_an_error(*, cancelled, report):
        yield None
        return RuntimeError("an answer, not a failure")

    runner, errors, answers, log = BackgroundRunner(), [], [], []
    runner.start(exiting, on_error=errors.append)
    runner.start(answering_an_error, on_return=answers.append)
    last = runner.start(ticking, 1, 0, log, on_return=answers.append)
    with qtbot.waitSignal(last.ended, timeout=RUN_TIMEOUT_MS):
        pass
    [error] = errors
    assert type(error) is SystemExit and error.code == 3
    assert [type(answer) for answer in answers] == [RuntimeError, int] and answers[1] == 1
    assert not runner.busy()


def test_a_failing_stop_handler_leaves_the_next_job_its_turn(qtbot):
    def failing_handler():
        raise ValueError("a handler's own bug")

    runner, log, answers = BackgroundRunner(), [], []
    first = runner.start(ticking, 100, 0.01, log, on_stop=failing_handler)
    last = runner.start(ticking, 1, 0, log, on_return=answers.append)
    qtbot.waitUntil(lambda: len(log) >= 2, timeout=RUN_TIMEOUT_MS)
    with (
        qtbot.captureExceptions() as raised,
        qtbot.waitSignal(last.ended, timeout=RUN_TIMEOUT_MS),
    ):
        first.quit()
    assert answers == [1] and not runner.busy()
    assert [str(error) for _, error, _ in raised] == ["a handler's own bug"]  # not hidden


def test_a_warning_inside_a_job_goes_to_the_log(qtbot, caplog):
    import warnings

    def warning(*, cancelled, report):
        warnings.warn("the kernel is cut short", UserWarning, stacklevel=1)
        yield None
        return "done"

    answers = []
    with qtbot.waitSignal(
        BackgroundRunner().start(warning, on_return=answers.append).ended, timeout=RUN_TIMEOUT_MS
    ):
        pass
    assert answers == ["done"]
    assert any("the kernel is cut short" in record.getMessage() for record in caplog.records)


def test_quit_stops_a_job_at_its_next_step_and_tells_on_stop(qtbot):
    told, log = [], []
    runner = BackgroundRunner()
    job = runner.start(
        ticking, 100, 0.01, log, on_event=told.append, on_stop=lambda: told.append("stopped")
    )
    qtbot.waitUntil(lambda: len(log) >= 4, timeout=RUN_TIMEOUT_MS)
    with qtbot.waitSignal(job.ended, timeout=RUN_TIMEOUT_MS):
        job.quit()
    assert told[-1] == "stopped" and len(log) < 200
    assert not runner.busy() and running_jobs() == []


def test_stop_waits_for_the_job_and_tells_nothing_more(qtbot):
    told, log = [], []
    runner = BackgroundRunner()
    job = runner.start(
        ticking, 100, 0.01, log, on_event=told.append, on_stop=lambda: told.append("stopped")
    )
    qtbot.waitUntil(lambda: len(log) >= 2, timeout=RUN_TIMEOUT_MS)
    count = len(told)
    # The job's end is its last word, after any answer or event it sent while stopping.
    with qtbot.waitSignal(job.ended, timeout=RUN_TIMEOUT_MS):
        assert runner.stop(wait_ms=RUN_TIMEOUT_MS)
        assert not job.is_running()
    assert len(told) == count


# The start of a program of its own that runs jobs, noting in `freed` which thread lets go of
# each worker's signals (a QObject of the window's thread's).
WATCHED_WORKERS = """
import gc, threading, time, warnings, weakref
from PySide6.QtWidgets import QApplication
app = QApplication([])
from blurapp.ui import background_runner as runner_module
from blurapp.ui.background_runner import BackgroundRunner

freed = []
begin = runner_module.BackgroundJob._begin

def begin_watched(job):
    begin(job)
    name = lambda: freed.append(threading.current_thread().name)
    weakref.finalize(job.worker.signals, name)

runner_module.BackgroundJob._begin = begin_watched
"""


def run_watched(program: str, timeout: int) -> subprocess.CompletedProcess:
    """`program` after WATCHED_WORKERS, in a process of its own, so a crash is a failure told
    here (with its threads' stacks), not the end of the test run."""
    done = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", WATCHED_WORKERS + program],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


MANY_SHORT_JOBS = """
def short(*, cancelled, report):
    report("event")
    yield "step"
    return "answer"

class Owner:  # keeps its job, in a reference cycle with it through the handler, as windows do
    def __init__(self, runner):
        self.told = []
        self.job = runner.start(short, on_event=self.told.append, on_return=self.told.append)

runner, owners = BackgroundRunner(), []
for _ in range(200):
    owners += [Owner(runner) for _ in range(20)]
    while runner.busy():
        app.processEvents()
while runner_module._retired:
    app.processEvents()
told = sum(len(owner.told) for owner in owners)
del owners
gc.collect()
print(told, len(freed), sorted(set(freed)))
"""


@pytest.mark.slow
def test_thousands_of_short_jobs_end_without_crashing_the_program():
    # Each job's worker was once let go of by whichever thread came last, and a worker dropped
    # by the pool's thread while the window's thread handled its last signal crashed the
    # program: with short jobs, within a second.
    done = run_watched(MANY_SHORT_JOBS, timeout=300)
    # An event, a step and an answer told for each of the 4,000 jobs; every worker's signals
    # let go of, by the window's thread.
    assert done.stdout.split() == [str(4000 * 3), "4000", "['MainThread']"], done.stdout
    assert "Traceback" not in done.stderr


WARNINGS_KEPT_ACROSS_JOBS = """
running, go_on = threading.Event(), threading.Event()

def job(*, cancelled, report):
    running.set()  # its way of showing warnings is in `warnings` now
    go_on.wait(60)
    for _ in range(5):
        yield None
    return 1

def until_running():
    # The first job begins once superqt is imported on a thread of its own, which the event
    # loop hears.
    end = time.monotonic() + 60
    while not running.is_set() and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.001)
    return running.is_set()

def finish(runner):
    go_on.set()
    while runner.busy() or runner_module._retired:
        app.processEvents()
    running.clear()
    go_on.clear()

runner = BackgroundRunner()
runner.start(job)
assert until_running()
around = warnings.catch_warnings()
around.__enter__()  # keeps the first job's, as pytest's catch_warnings around a test does
finish(runner)
runner.start(job)
assert until_running()
around.__exit__(None, None, None)  # puts the first job's back, while the second job runs
del around
finish(runner)
for _ in range(10):
    app.processEvents()
print(sorted(freed))
"""


def test_a_catch_warnings_spanning_two_jobs_leaves_no_worker_to_the_pools_thread():
    done = run_watched(WARNINGS_KEPT_ACROSS_JOBS, timeout=120)
    assert done.stdout.split() == ["['MainThread',", "'MainThread']"], done.stdout


SUPERQT_WATCHED = """
import sys

class Watch:  # notes the thread that imports superqt, and finds nothing itself
    def find_spec(self, name, path=None, target=None):
        if name == "superqt":
            imported_on.append(threading.current_thread().name)
        return None

imported_on = []
sys.meta_path.insert(0, Watch())

def short(*, cancelled, report):
    yield None
    return "answer"

runner, told = BackgroundRunner(), []
runner.start(short, on_return=told.append)
runner.start(short, on_return=told.append)
end = time.monotonic() + 60
while len(told) < 2 and time.monotonic() < end:
    app.processEvents()
    time.sleep(0.001)
print(imported_on, told)
"""


def test_the_first_job_has_superqt_imported_off_the_windows_thread_then_begins():
    # Imported on the window's thread as the first job began, just after the window's first
    # paint, superqt stood the event loop still for up to a second.
    done = run_watched(SUPERQT_WATCHED, timeout=120)
    assert done.stdout.split("\n")[0] == "['blurapp-runner-import'] ['answer', 'answer']"
