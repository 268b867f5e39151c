"""What every command shares in how it speaks: one `error:` line for a failure already worded,
paths as people read them, stdout that may be full or gone; and the photo a command opens."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from blurapp.core.media.photo import load_photo
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.media.sample import sample_photo_path
from blurapp.core.wording import display_path, in_grey

log = logging.getLogger("blurapp")


class CommandFailed(Exception):
    """A failure already worded for the user: printed as one `error:` line, exit status 1."""


def shown(path: os.PathLike[str] | str) -> str:
    return display_path(path)


def print_line(text: str = "") -> None:
    """Print to stdout; a stdout that cannot take it (a full disk) is a clean error."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        raise
    except OSError as error:
        silence_stdout()
        raise CommandFailed(f"cannot write the output: {error.strerror or error}") from None


def json_text(document: Any) -> str:
    """`document` as strict JSON, indented: a float that is not finite (NaN, infinity), which
    JSON cannot hold, is null; the figure's meaning is said in words where it arises."""
    import json
    import math

    def finite(value: Any) -> Any:
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if isinstance(value, dict):
            return {key: finite(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [finite(item) for item in value]
        return value

    return json.dumps(finite(document), indent=2, allow_nan=False)


def silence_stdout() -> None:
    """Send later writes to stdout (Python's own flush at exit) nowhere, instead of failing."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


# ---------------------------------------------------------------------------------------------
# Argument types: the checks themselves live beside the kernel.


def source_photo(path: Path | None) -> Path:
    """The photo a command works on: the one named, or the bundled sample."""
    return path if path is not None else sample_photo_path()


def load(path: Path, *, color: bool = False):
    try:
        return load_photo(path, color=color)
    except PhotoError as error:
        raise CommandFailed(str(error)) from error


def grey_note(color: bool, has_colour: Callable[[], bool]) -> str | None:
    """'in grey (--color keeps the colour)' for a result blurred in grey (`color` not asked
    for) from a source that `has_colour`; None otherwise. `blur` says it after the name
    written, `compare` after the photo's size."""
    return None if color or not has_colour() else in_grey("--color")


def note_short_kernel(args: argparse.Namespace) -> None:
    # the figures' module (4 ms): only when a command runs, not for `blurapp --help`
    from blurapp.core.report.figures import short_kernel_note

    note = short_kernel_note(args.spec.size, args.spec.sigma)
    if note is not None:
        print(f"note: {note}", file=sys.stderr)
