"""Writing results without ever leaving a damaged file behind."""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import numpy as np
from PIL import Image

from blurapp.core.wording import QT_TRANSLATE_NOOP, FileProblem

_SIXTEEN_BIT_EXTENSIONS = {".png", ".tif", ".tiff"}


class OutputError(FileProblem):
    """A result that could not be written; the message names the file and the problem."""


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# Read once: os.umask can only be read by setting it, which is not safe once threads run.
_NEW_FILE_MODE = 0o666 & ~_current_umask()


def write_atomically(path: str | os.PathLike[str], write: Callable[[BinaryIO], None]) -> None:
    """Write `path` through a temporary file in the same folder, then rename it into place.

    If anything fails, an existing file at `path` is left exactly as it was and no
    temporary file remains. Raises OutputError.
    """
    path = Path(path)
    folder = path.parent
    if path.is_dir():
        raise OutputError(
            path, QT_TRANSLATE_NOOP("FileProblem", "this is a folder; give a file name")
        )
    if not folder.is_dir():
        raise OutputError(
            path,
            QT_TRANSLATE_NOOP("FileProblem", "the folder {folder} does not exist"),
            folder=folder,
        )
    try:
        mode = path.stat().st_mode & 0o7777 if path.exists() else _NEW_FILE_MODE
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".part")
    except OSError as error:
        raise OutputError(
            path,
            QT_TRANSLATE_NOOP("FileProblem", "cannot write in {folder}: {reason}"),
            folder=folder,
            reason=error.strerror or error,
        ) from error
    try:
        with os.fdopen(handle, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise OutputError(
                path,
                QT_TRANSLATE_NOOP("FileProblem", "the file could not be written: {reason}"),
                reason=error.strerror or error,
            ) from error
        raise


def to_8bit(image: np.ndarray) -> np.ndarray:
    """A [0, 1] float image as uint8, rounded to the nearest level."""
    return np.rint(np.clip(image, 0, 1) * 255).astype(np.uint8)


def to_16bit(image: np.ndarray) -> np.ndarray:
    """A [0, 1] float image as uint16, rounded to the nearest level."""
    return np.rint(np.clip(image, 0, 1) * 65535).astype(np.uint16)


def check_output_path(path: str | os.PathLike[str]) -> None:
    """Raise OutputError now if `path` could not take a result: unknown format, no folder."""
    path = Path(path)
    _image_format(path)
    if path.is_dir():
        raise OutputError(
            path, QT_TRANSLATE_NOOP("FileProblem", "this is a folder; give a file name")
        )
    if not path.parent.is_dir():
        raise OutputError(
            path,
            QT_TRANSLATE_NOOP("FileProblem", "the folder {folder} does not exist"),
            folder=path.parent,
        )


def _image_format(path: Path) -> str | None:
    """Pillow's format name for `path`'s extension; None for .npy. Raises OutputError."""
    extension = path.suffix.lower()
    if extension == ".npy":
        return None
    image_format = Image.registered_extensions().get(extension)
    if image_format is None or image_format not in Image.SAVE:
        raise OutputError(
            path,
            QT_TRANSLATE_NOOP(
                "FileProblem", "unknown output format {extension}; use .png, .tif, .jpg or .npy"
            ),
            extension=repr(extension or "(none)"),
        )
    return image_format


def save_output(path: str | os.PathLike[str], image: np.ndarray, *, bit_depth: int = 8) -> None:
    """Save a blurred image atomically; the format follows the file's extension.

    `.npy` keeps the float32 array exactly; an image extension gives 8-bit grayscale,
    or 16-bit for PNG and TIFF when `bit_depth` is 16. Raises OutputError.
    """
    path = Path(path)
    image_format = _image_format(path)
    if image_format is None:
        array = np.asarray(image, dtype=np.float32)
        write_atomically(path, lambda file: np.save(file, array, allow_pickle=False))
        return
    extension = path.suffix.lower()
    if bit_depth == 16 and extension in _SIXTEEN_BIT_EXTENSIONS:
        picture = Image.fromarray(to_16bit(image))  # uint16 gives mode "I;16"
    else:
        picture = Image.fromarray(to_8bit(image))  # uint8 gives mode "L"

    # Encode in memory first, so an encoder error cannot leave a half-written temporary file.
    buffer = io.BytesIO()
    try:
        picture.save(buffer, format=image_format)
    except (OSError, ValueError, KeyError) as error:
        raise OutputError(
            path,
            QT_TRANSLATE_NOOP("FileProblem", "{format} cannot store this image: {reason}"),
            format=image_format,
            reason=error,
        ) from error
    write_atomically(path, lambda file: file.write(buffer.getvalue()))
