"""What the probes of the accelerator's programs share (accelerator_programs.py,
strip_programs.py, run as scripts from the project's root): their figures, printed as they come
and written to $OUT (or /tmp) at the end, and the median of steady calls waited for."""

import json
import os
import statistics
import time

import jax

figures = {}


def log(key, value):
    """Keep a figure and print it at once: a probe stopped part way has said what it had."""
    figures[key] = value
    print(key, value, flush=True)


def ms(step, times=15):
    """The median of `times` calls of `step`, each waited for, after one left out (its
    compilation, its first copies), in milliseconds."""
    step()
    seconds = []
    for _ in range(times):
        start = time.perf_counter()
        jax.block_until_ready(step())
        seconds.append(time.perf_counter() - start)
    return round(statistics.median(seconds) * 1000, 3)


def write(name):
    """Every figure kept, as JSON, in $OUT/`name` (or /tmp)."""
    with open(os.path.join(os.environ.get("OUT", "/tmp"), name), "w") as file:
        json.dump(figures, file, indent=1)
