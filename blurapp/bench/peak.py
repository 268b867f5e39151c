"""The peak resident memory of a whole Python process, as `blurapp bench` measures it."""

from __future__ import annotations

import subprocess
import sys

# Runs Python with the given arguments, then reports the process's own high-water mark of
# resident memory. (The rusage of a child is no good here: Linux counts in it what the parent
# had resident when it forked, and the bench itself holds large images by then.)
_PEAK_WRAPPER = """
import atexit, runpy, sys
def report():
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    sys.stderr.write(f"\\npeak_rss_kb={peak}\\n")
atexit.register(report)
arguments = sys.argv[1:]
if arguments[0] == "-m":
    sys.argv = [arguments[1], *arguments[2:]]
    runpy.run_module(arguments[1], run_name="__main__", alter_sys=True)
else:
    sys.argv = ["-c"]
    exec(arguments[1])
"""


def peak_of(arguments: list[str], env: dict) -> int | None:
    """Bytes: the high-water mark of `python ARGUMENTS`' resident memory; None when it fails."""
    run = subprocess.run(
        [sys.executable, "-c", _PEAK_WRAPPER, *arguments],
        capture_output=True,
        text=True,
        timeout=1800,
        env=env,
    )
    lines = [line for line in run.stderr.splitlines() if line.startswith("peak_rss_kb=")]
    if run.returncode != 0 or not lines:
        return None
    return int(lines[-1].split("=")[1]) * 1024
