"""`blurapp` run as a user runs it: a separate process, for the command-line tests."""

import subprocess
import sys


def blurapp(*args, cwd=None):
    """`python -m blurapp ARGS…`, its output as text; never longer than five minutes."""
    return subprocess.run(
        [sys.executable, "-m", "blurapp", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )
