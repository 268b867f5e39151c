"""Where a live preview's change goes, step by step: the window's live probe
(blurapp.ui.probe.measure_live) with the time from each change to each step, the median over
its changes; then the CPU time each kind of thread spent a change over the drag (read from
/proc/self/task/*/schedstat, where the system has it), which a busy machine leaves as it is
where it stretches the times: the window's thread, XLA's, the jobs' (Qt's pool) and the rest.

    python docs/performance/live_parts.py PHOTO
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import blurapp.app.jobs as jobs
import blurapp.app.photo_controller as photo_controller
from blurapp.app.session import Session
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


def kind_of(thread: str, name: str) -> str:
    if thread == str(os.getpid()):
        return "the window's thread"
    if name.startswith("tf_XLA"):
        return "XLA's threads"
    if name == "Thread (pooled)":
        return "the jobs' threads"
    return "other threads"


STEPS = ("job start", "engine done", "picture made", "window got it", "shown jax", "shown numpy")


def main(argv: list[str]) -> int:
    marks: dict[str, list[float]] = {}

    def mark(step: str) -> None:
        marks.setdefault(step, []).append(time.perf_counter())

    compare_job = jobs.compare_job

    def timed_compare_job(plan, **keywords):
        mark("job start")
        return compare_job(plan, **keywords)

    photo_controller.compare_job = timed_compare_job
    output_pyramid = jobs.output_pyramid

    def timed_output_pyramid(output, *arguments):
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
    figures = probe.measure_live(Path(argv[0]), "2d")
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
        spent: Counter[str] = Counter()
        for thread, (name, ran) in cpu[1].items():
            spent[kind_of(thread, name)] += ran - cpu[0].get(thread, (name, 0))[1]
        changes = len(marks["change"])
        print(f"CPU a change, over the drag ({changes} changes):")
        for kind, ran in spent.most_common():
            print(f"  {kind:20s} {ran / 1e6 / changes:7.1f} ms")
        print(f"  {'all':20s} {sum(spent.values()) / 1e6 / changes:7.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
