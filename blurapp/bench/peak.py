"""The peak resident memory of a whole Python process, as `blurapp bench` measures it."""

from __future__ import annotations

import subprocess
import sys

# On Linux and macOS: a Python of a few MB starts the run and, once it has ended, reports the
# largest resident set of its children (getrusage). The run is not asked its own ru_maxrss:
# Linux carries across exec what the parent had resident when it started the run, and the
# bench holds large images by then. Nothing is measured in this small parent but its child.
_POSIX_LAUNCHER = """
import resource, subprocess, sys
returncode = subprocess.call([sys.executable, *sys.argv[1:]])
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
peak *= 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB elsewhere
sys.stderr.write(f"\\npeak_rss_bytes={peak}\\n")
sys.exit(returncode)
"""

# On Windows, where no rusage is kept: the run reports its own peak working set as it exits.
_WINDOWS_WRAPPER = """
import atexit, runpy, sys
def report():
    import psutil
    sys.stderr.write(f"\\npeak_rss_bytes={psutil.Process().memory_info().peak_wset}\\n")
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
    program = _WINDOWS_WRAPPER if sys.platform == "win32" else _POSIX_LAUNCHER
    run = subprocess.run(
        [sys.executable, "-c", program, *arguments],
        capture_output=True,
        text=True,
        timeout=1800,
        env=env,
    )
    lines = [line for line in run.stderr.splitlines() if line.startswith("peak_rss_bytes=")]
    if run.returncode != 0 or not lines:
        return None
    return int(lines[-1].split("=")[1])
