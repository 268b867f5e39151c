"""The window's runner (blurapp.ui.runner) with real threads: handlers on the window's thread,
one job at a time, failures told, quit honoured, nothing told after stop()."""

import subprocess
import sys
import threading
import time

from helpers.window import RUN_TIMEOUT_MS

from blurapp.ui.runner import Runner, running_jobs


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
    runner = Runner()
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
    first, second, log = Runner(), Runner(), []
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
    job = Runner().start(failing, on_error=errors.append)
    with qtbot.waitSignal(job.ended, timeout=RUN_TIMEOUT_MS):
        pass
    [error] = errors
    assert type(error) is RuntimeError and str(error) == "device lost"


def test_quit_stops_a_job_at_its_next_step_and_tells_on_stop(qtbot):
    told, log = [], []
    runner = Runner()
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
    runner = Runner()
    job = runner.start(
        ticking, 100, 0.01, log, on_event=told.append, on_stop=lambda: told.append("stopped")
    )
    qtbot.waitUntil(lambda: len(log) >= 2, timeout=RUN_TIMEOUT_MS)
    assert runner.stop(wait_ms=5000)
    assert not job.is_running()
    count = len(told)
    qtbot.wait(100)
    assert len(told) == count


MANY_SHORT_JOBS = """
from PySide6.QtWidgets import QApplication
app = QApplication([])
from blurapp.ui.runner import Runner

def short(*, cancelled, report):
    report("event")
    yield "step"
    return "answer"

runner, told = Runner(), []
for _ in range(200):
    for _ in range(20):
        runner.start(short, on_event=told.append, on_return=told.append)
    while runner.busy():
        app.processEvents()
print(len(told))
"""


def test_thousands_of_short_jobs_end_without_crashing_the_program():
    # Each job's worker was once let go of by whichever thread came last, and a worker dropped
    # by the pool's thread while the window's thread handled its last signal crashed the
    # program: with short jobs, within a second. In a process of its own, so a crash is a
    # failure told here, not the end of the test run.
    done = subprocess.run(
        [sys.executable, "-c", MANY_SHORT_JOBS], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == [str(4000 * 3)]  # an event, a step and an answer each
    assert "Traceback" not in done.stderr
