"""`blurapp` on the command line, for the command-line tests: run as a user runs it, a process
of its own, where the process is what a test checks (a traceback at exit, signals, the
terminal's encoding, start-up); called in this process where the test checks what a command
does, which spares each call an interpreter and every import."""

import contextlib
import fcntl
import io
import logging
import os
import pty
import signal
import struct
import subprocess
import sys
import termios


def blurapp(*args, cwd=None, env=None):
    """`python -m blurapp ARGS…` (in `env`, by default this process's environment), its output
    as text; never longer than five minutes."""
    return subprocess.run(
        [sys.executable, "-m", "blurapp", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env=env,
    )


def blurapp_in_process(*args, cwd=None):
    """`blurapp ARGS…` through `blurapp.cli.main` in this process: what `blurapp` (above)
    gives, an exit status and the text written to stdout and stderr. An exception that escapes
    main, a traceback for a user, escapes here too and fails the test.

    What main changes for the process is put back after: the root logger's handlers and
    level, the SIGTERM and SIGHUP handlers, the working folder."""
    from blurapp import cli

    argv = [str(arg) for arg in args]
    stdout, stderr = io.StringIO(), io.StringIO()
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    signals = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        with (
            contextlib.chdir(cwd or "."),
            contextlib.redirect_stdout(stdout),
            contextlib.redirect_stderr(stderr),
        ):
            try:
                returncode = cli.main(argv)
            except SystemExit as stop:  # argparse's usage errors, --help, --version
                returncode = 0 if stop.code is None else stop.code
            # What a process's exit flushes: the log lines still held by a handler.
            for handler in root.handlers:
                handler.flush()
    finally:
        # The handlers main installed write to this call's stderr: off with them.
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
                handler.close()
        root.setLevel(level)
        for signum, handler in signals.items():
            signal.signal(signum, handler)
    return subprocess.CompletedProcess(
        ["blurapp", *argv], returncode, stdout.getvalue(), stderr.getvalue()
    )


def run_on_a_terminal(*args):
    """The command with its stderr on a pseudo-terminal, as in a user's shell; what it showed."""
    leader, follower = pty.openpty()
    # 40 rows of 120 columns: a new pseudo-terminal has none, and a bar 0 wide shows nothing.
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    process = subprocess.Popen(
        [sys.executable, "-m", "blurapp", *map(str, args)],
        stdout=subprocess.DEVNULL,
        stderr=follower,
    )
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        shown += chunk
    process.wait(timeout=300)
    os.close(leader)
    return process.returncode, shown.decode("utf-8", "replace")
