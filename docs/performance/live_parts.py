"""Where a live preview's change goes, step by step: the window's live probe
(blurapp.ui.probe.measure_live) with the time from each change to each step, the median over
its changes; then the CPU time each kind of thread spent a change (read from
/proc/self/task/*/schedstat, where the system has it), which a busy machine leaves as it is
where it stretches the times: the window's thread, XLA's, the jobs' (the Qt pool threads that
ran a job) and the rest, over the whole drag and within JAX-jit's call alone (from the job's
start to the engine's output), with the page faults the process took in that call: what
competes with the call, and what it costs itself.

XLA's worker threads take the name of the thread that started them ("Thread (pooled)" when a
job did): a thread is the jobs' only when a job ran on it.

It starts itself again with the memory settings `blurapp` starts with (blurapp.start: glibc's
huge pages, and freed memory kept where JAX opens a TPU), as `blurapp bench` hands them to its
live probe, and says them: without them every JAX-jit call faults its fresh output in 4 KiB
pages, which its CPU and its time then show. A GLIBC_TUNABLES of one's own is kept.

Reading every thread's CPU takes time on the job's thread, inside the steps it times: little on
a Linux kernel, tens of milliseconds a change in a sandbox whose /proc is slow (the TPU
machine's gVisor). `--steps` leaves the CPU out and times the steps alone.

    python docs/performance/live_parts.py PHOTO [--steps]
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import blurapp.app.jobs as jobs
import blurapp.app.photo_controller as photo_controller
from blurapp.app.session import Session
from blurapp.start import restart_with_memory_settings
from blurapp.ui import probe


def thread_cpu() -> dict[str, tuple[str, int]]:
    """Each thread of this process: (its name, the nanoseconds it has run); {} where the
    system does not tell."""
    threads = {}
    for thread in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{thread}/comm") as comm:
                name = comm.read().strip()
            with open(f"/proc/self/task/{thread}/schedstat") as schedstat:
                threads[thread] = (name, int(schedstat.read().split()[0]))
        except (OSError, ValueError, IndexError):
            continue
    return threads


def kind_of(thread: str, name: str, job_threads: set[str]) -> str:
    if thread == str(os.getpid()):
        return "the window's thread"
    if thread in job_threads:
        return "the jobs' threads"
    if name.startswith("tf_XLA") or name == "Thread (pooled)":
        return "XLA's threads"
    return "other threads"


def cpu_by_kind(
    before: dict[str, tuple[str, int]], after: dict[str, tuple[str, int]], job_threads: set[str]
) -> Counter[str]:
    """Nanoseconds of CPU each kind of thread ran from `before` to `after`."""
    spent: Counter[str] = Counter()
    for thread, (name, ran) in after.items():
        spent[kind_of(thread, name, job_threads)] += ran - before.get(thread, (name, 0))[1]
    return spent


def page_faults() -> int:
    """The page faults this process has taken so far, minor and major."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_minflt + usage.ru_majflt


STEPS = ("job start", "engine done", "picture made", "window got it", "shown jax", "shown numpy")


def main(argv: list[str]) -> int:
    counting = "--steps" not in argv
    marks: dict[str, list[float]] = {}
    job_threads: set[str] = set()
    # Per change while the drag lasts: (CPU of each thread, page faults) at the job's start,
    # then at the end of JAX-jit's call, its first engine (NumPy's output comes after).
    in_call: list[list[tuple[dict[str, tuple[str, int]], int]]] = []

    def mark(step: str) -> None:
        marks.setdefault(step, []).append(time.perf_counter())

    compare_job = jobs.compare_job

    def timed_compare_job(plan, **keywords):
        mark("job start")
        job_threads.add(str(threading.get_native_id()))  # on the job's own thread
        if counting and cpu and len(cpu) == 1:  # the drag has begun, and not ended
            in_call.append([(thread_cpu(), page_faults())])
        return compare_job(plan, **keywords)

    photo_controller.compare_job = timed_compare_job
    output_pyramid = jobs.output_pyramid

    def timed_output_pyramid(output, *arguments):
        if counting and in_call and len(in_call[-1]) == 1 and len(cpu) == 1:
            in_call[-1].append((thread_cpu(), page_faults()))
        mark("engine done")
        picture = output_pyramid(output, *arguments)
        mark("picture made")
        return picture

    jobs.output_pyramid = timed_output_pyramid
    engine_done = Session.engine_done

    def timed_engine_done(self, engine, *arguments, **keywords):
        if engine == "jax":
            mark("window got it")
        return engine_done(self, engine, *arguments, **keywords)

    Session.engine_done = timed_engine_done
    drag_sigma = probe._drag_sigma

    def timed_drag(window, photo, shown, wait_until, pause):
        window.display.live_shown.connect(lambda engine: mark("shown " + engine))
        set_parameters = window.set_parameters

        def changed(**parameters):
            if "change" not in marks:
                cpu.append(thread_cpu())
            mark("change")
            return set_parameters(**parameters)

        window.set_parameters = changed
        return drag_sigma(window, photo, shown, wait_until, pause)

    probe._drag_sigma = timed_drag
    cpu: list[dict[str, tuple[str, int]]] = []
    engine_end_to_end = probe._engine_end_to_end

    def drag_ended(window):
        cpu.append(thread_cpu())  # the drag's CPU, not that of the engine's calls after it
        return engine_end_to_end(window)

    probe._engine_end_to_end = drag_ended
    figures = probe.measure_live(Path(next(a for a in argv if a != "--steps")), "2d")
    print(f"memory settings: GLIBC_TUNABLES={os.environ.get('GLIBC_TUNABLES', '')}")
    print(
        f"latency median {figures['latency_median_seconds'] * 1e3:.1f} ms; engine end to end "
        f"{figures['engine_end_to_end_median_seconds'] * 1e3:.1f} ms"
    )
    for step in STEPS:
        after = []
        for change in marks["change"]:
            later = [moment for moment in marks.get(step, []) if moment > change]
            if later:
                after.append((later[0] - change) * 1e3)
        if after:
            print(f"{step:14s} {statistics.median(after):7.1f} ms after the change")
    if len(cpu) == 2 and cpu[0]:
        spent = cpu_by_kind(cpu[0], cpu[1], job_threads)
        changes = len(marks["change"])
        print(f"CPU a change, over the drag ({changes} changes):")
        for kind, ran in spent.most_common():
            print(f"  {kind:20s} {ran / 1e6 / changes:7.1f} ms")
        print(f"  {'all':20s} {sum(spent.values()) / 1e6 / changes:7.1f} ms")
    calls = [call for call in in_call if len(call) == 2 and call[0][0]]
    if calls:
        kinds: dict[str, list[float]] = {}
        for (before, _), (after, _) in calls:
            for kind, ran in cpu_by_kind(before, after, job_threads).items():
                kinds.setdefault(kind, []).append(ran / 1e6)
        print(f"CPU in JAX-jit's call, job start to engine done (median of {len(calls)}):")
        for kind, ran in sorted(kinds.items(), key=lambda item: -statistics.median(item[1])):
            ran += [0.0] * (len(calls) - len(ran))  # a kind that did not run in some calls
            print(f"  {kind:20s} {statistics.median(ran):7.1f} ms")
        faults = [after - before for (_, before), (_, after) in calls]
        print(
            f"page faults in the call: median {statistics.median(faults):.0f}, most {max(faults)}"
        )
    return 0


if __name__ == "__main__":
    restart_with_memory_settings()
    raise SystemExit(main(sys.argv[1:]))
