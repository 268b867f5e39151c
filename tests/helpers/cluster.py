"""A real Dask cluster for the tests: a scheduler and workers in processes of their own on
127.0.0.1, as on a network of machines, and ways to lose a worker on purpose; and stand-ins
for a future and a client, for what a real cluster does only by chance (a result's fetch
reset under it as the scheduler dies)."""

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import distributed
import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
START_SECONDS = 60


def _wait_for_file(path: Path, processes: list[subprocess.Popen], logs: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while not path.exists():
        for process in processes:
            if process.poll() is not None:
                pytest.fail(f"a Dask process ended at start:\n{_tail(logs)}")
        if time.monotonic() > deadline:
            pytest.fail(f"the Dask scheduler did not start in {START_SECONDS} s:\n{_tail(logs)}")
        time.sleep(0.1)
    # The scheduler writes the file then fills it: wait until it reads as JSON.
    while True:
        with contextlib.suppress(ValueError):
            json.loads(path.read_text())
            return
        time.sleep(0.05)


def _tail(logs: Path) -> str:
    return "\n".join(f"--- {log.name}\n{log.read_text()[-3000:]}" for log in sorted(logs.iterdir()))


def _stop(processes: list[subprocess.Popen]) -> None:
    """Workers first, while the scheduler is there to see them go (stopping both at once
    left a worker waiting on the lost scheduler for seconds), then the scheduler."""
    for process in reversed(processes):
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@contextlib.contextmanager
def dask_cluster(folder: Path, workers: int = 2):
    """(scheduler address, scheduler process, worker processes) of a cluster on 127.0.0.1:
    workers without a nanny, so each worker is the very process started here, importing this
    repository's blurapp. Everything is stopped after."""
    logs = folder / "logs"
    logs.mkdir(parents=True)
    scheduler_file = folder / "scheduler.json"
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPOSITORY), *sys.path]))
    processes: list[subprocess.Popen] = []

    def start(name: str, *arguments: str) -> subprocess.Popen:
        with open(logs / f"{name}.log", "wb") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", *arguments],
                cwd=REPOSITORY,
                env=environment,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        processes.append(process)
        return process

    try:
        scheduler = start(
            "scheduler",
            *("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0"),
            *("--scheduler-file", str(scheduler_file), "--no-dashboard"),
        )
        _wait_for_file(scheduler_file, processes, logs)
        started = [
            start(
                f"worker-{index}",
                *("distributed.cli.dask_worker", "--scheduler-file", str(scheduler_file)),
                *("--nthreads", "1", "--no-dashboard", "--no-nanny", "--host", "127.0.0.1"),
                *("--memory-limit", "0", "--name", f"blurapp-test-{index}"),
            )
            for index in range(workers)
        ]
        address = json.loads(scheduler_file.read_text())["address"]
        with distributed.Client(address, set_as_default=False, timeout=30) as client:
            try:
                client.wait_for_workers(workers, timeout=START_SECONDS)
            except TimeoutError:
                pytest.fail(f"{workers} Dask workers did not start:\n{_tail(logs)}")
        yield address, scheduler, started
    finally:
        _stop(processes)


def killing(worker: subprocess.Popen):
    """A progress callback that kills `worker` when first called, as a machine lost: no
    goodbye to the scheduler."""

    def kill(*progress):
        if worker.poll() is None:
            worker.kill()

    return kill


def finishes_within(seconds: float, work, failure: str):
    """What `work()` returns (or raises), run on a thread of its own; the test fails saying
    `failure` if it still runs after `seconds` (a wait that never ends must fail the test, not
    hang it)."""
    ended: list = []

    def run():
        try:
            ended.append((work(), None))
        except BaseException as error:  # raised again in the test's own thread
            ended.append((None, error))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout=seconds)
    if thread.is_alive():
        pytest.fail(failure)
    [(value, error)] = ended
    if error is not None:
        raise error
    return value


class EndedFuture:
    """A Dask future whose task has ended, with `status` "finished" or "error", and whose
    result() raises `error`: a fetch that failed, or the task's own error."""

    def __init__(self, status, error):
        self.status, self._error = status, error

    def done(self):
        return True

    def result(self, timeout=None):
        raise self._error


class FakeClient:
    """A Dask client whose compute() gives `future`, with distributed.wait (`wait`) for a
    future that is done."""

    def __init__(self, future=None):
        self.future = future

    def compute(self, collection):
        return self.future

    @contextlib.contextmanager
    def as_current(self):
        yield

    @staticmethod
    def wait(futures, timeout=None):
        return None
