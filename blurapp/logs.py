"""Logging for the command line and the window: a rotating file of warnings and errors with
their tracebacks, and short lines on stderr (debug lines too with --verbose)."""

from __future__ import annotations

import logging
import logging.handlers
import sys
from pathlib import Path

from blurapp.core.paths import log_file_path

LOG_FILE_BYTES = 1_000_000
LOG_FILE_BACKUPS = 3

_installed: list[logging.Handler] = []


class _OneLineFormatter(logging.Formatter):
    """A terminal user gets one line per warning; the traceback goes to the log file."""

    def formatException(self, ei) -> str:
        return ""

    def formatStack(self, stack_info: str) -> str:
        return ""


class _NotFileOnly(logging.Filter):
    """Records already shown to the user another way (an `error:` line) stay out of stderr."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(record, "file_only", False)


def configure_logging(verbose: bool = False) -> Path | None:
    """Send warnings to the log file and stderr; return the log file, or None if it can't be
    written (BlurApp then logs to stderr only)."""
    terminal = logging.StreamHandler(sys.stderr)
    terminal.addFilter(_NotFileOnly())
    if verbose:
        terminal.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        terminal.setLevel(logging.DEBUG)
    else:
        terminal.setFormatter(_OneLineFormatter("%(levelname)s: %(message)s"))
        terminal.setLevel(logging.WARNING)
    handlers: list[logging.Handler] = [terminal]

    path: Path | None = log_file_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        to_file = logging.handlers.RotatingFileHandler(
            path, maxBytes=LOG_FILE_BYTES, backupCount=LOG_FILE_BACKUPS, encoding="utf-8"
        )
    except OSError as error:
        print(f"warning: cannot write the log file {path}: {error.strerror}", file=sys.stderr)
        path = None
    else:
        to_file.setLevel(logging.WARNING)
        to_file.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        handlers.append(to_file)

    root = logging.getLogger()
    # Replace only the handlers an earlier call installed; others (a test runner's) stay.
    for old in _installed:
        root.removeHandler(old)
        old.close()
    _installed[:] = handlers
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.WARNING)
    if verbose:
        # jax's own debug output is mostly compiler detail; keep BlurApp's readable.
        logging.getLogger("jax").setLevel(logging.INFO)
    return path
