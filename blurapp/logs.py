"""Logging for the command line and the window: a rotating file of warnings and errors with
their tracebacks, and short lines on stderr (debug lines too with --verbose)."""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
import sys
from pathlib import Path

from blurapp.core.paths import log_file_path, private_folder

LOG_FILE_BYTES = 1_000_000
LOG_FILE_BACKUPS = 3

_installed: list[logging.Handler] = []


class _OneLineFormatter(logging.Formatter):
    """A terminal user gets one line per warning; the traceback goes to the log file."""

    def format(self, record: logging.LogRecord) -> str:
        # "warning: …" as BlurApp's own lines read ("error: …", "note: …").
        return f"{record.levelname.lower()}: {_what_it_says(record)}"


def _what_it_says(record: logging.LogRecord) -> str:
    """A record's message; for one logged with no words of its own (a library's
    `log.exception(error)` of an error with an empty text), the exception's name and text."""
    message = record.getMessage().strip()
    if message or not record.exc_info or record.exc_info[1] is None:
        return message
    error = record.exc_info[1]
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


class _LogFile(logging.handlers.RotatingFileHandler):
    """The log file. When it cannot be written (a full disk, a removed folder) the user is told
    once on stderr and logging to the file stops, instead of a traceback for every record."""

    _failed = False

    def handleError(self, record: logging.LogRecord) -> None:
        if self._failed:
            return
        self._failed = True
        error = sys.exc_info()[1]
        reason = getattr(error, "strerror", None) or error
        print(
            f"warning: cannot write the log file {self.baseFilename}: {reason}; "
            "logging to it stops",
            file=sys.stderr,
        )
        logging.getLogger().removeHandler(self)
        with contextlib.suppress(OSError):  # closing flushes, and would fail the same way
            self.close()


class _Terminal(logging.StreamHandler):
    """Lines on stderr. If stderr itself cannot be written there is nobody to tell: stay quiet."""

    def handleError(self, record: logging.LogRecord) -> None:
        pass

    def emit(self, record: logging.LogRecord) -> None:
        if _what_it_says(record):  # never a line that says nothing
            super().emit(record)


class _NotFileOnly(logging.Filter):
    """Records already shown to the user another way (an `error:` line) stay out of stderr."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(record, "file_only", False)


# Readers that log what they find wrong in a file as they read it (tifffile: "<TiffPage 0 @8>
# incorrect StripByteCounts count", for a header that promises more than the file holds).
# BlurApp says what it makes of the file in one line of its own, or reads it anyway; theirs go
# to the log file, and to the terminal with --verbose.
_FILE_READERS = ("tifffile",)


class _NotAFileReader(logging.Filter):
    """A file reader's own records stay out of stderr (see _FILE_READERS)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.name.partition(".")[0] not in _FILE_READERS


def configure_logging(verbose: bool = False) -> Path | None:
    """Send warnings to the log file and stderr; return the log file, or None if it can't be
    written (BlurApp then logs to stderr only)."""
    terminal = _Terminal(sys.stderr)
    terminal.addFilter(_NotFileOnly())
    if verbose:
        terminal.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        terminal.setLevel(logging.DEBUG)
    else:
        terminal.setFormatter(_OneLineFormatter())
        terminal.setLevel(logging.WARNING)
        terminal.addFilter(_NotAFileReader())
    handlers: list[logging.Handler] = [terminal]

    path: Path | None  # None once the log file cannot be written
    path = log_file_path()
    try:
        path = private_folder(path.parent) / path.name
        # backslashreplace: a file name that is not UTF-8 is logged, not a logging error.
        to_file = _LogFile(
            path,
            maxBytes=LOG_FILE_BYTES,
            backupCount=LOG_FILE_BACKUPS,
            encoding="utf-8",
            errors="backslashreplace",
        )
    except OSError as error:
        print(
            f"warning: cannot write the log file {path}: {error.strerror or error}",
            file=sys.stderr,
        )
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
