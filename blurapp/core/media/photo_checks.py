"""What is checked of a photo file before it is decoded: that it is a regular file that can be
read, that it has no more pixels than Pillow opens, that its decoded pixels fit in memory, and
that a TIFF's strips or tiles hold what its header declares; and an OS error in words."""

from __future__ import annotations

import stat
from pathlib import Path

import numpy as np
from PIL import Image

from blurapp.core.wording import QT_TRANSLATE_NOOP, FileProblem


class PhotoError(FileProblem):
    """A photo that BlurApp cannot read; the message names the file and the problem."""


class NotEnoughMemory(PhotoError):
    """A photo refused before decoding: blurring it would not fit in the memory available."""


# Bytes of memory per pixel and per channel a whole comparison takes at its peak: the float32
# photo, the NumPy engine's padded copy, output and scratch, JAX's copies on the device and its
# output, and the pictures shown. Measured with `blurapp bench` (memory) on grayscale: about 30
# to 38 bytes a pixel. Each of those arrays has a plane per channel: colour needs three times that.
WORKING_BYTES_PER_PIXEL = 40


def available_memory() -> int | None:
    """Bytes of memory the system can still give this process, or None if unknown."""
    import psutil  # imported when a photo is checked, not with every command (about 20 ms)

    try:
        # Linux's MemAvailable; what macOS and Windows count as free for a new allocation.
        return int(psutil.virtual_memory().available)
    except (OSError, RuntimeError, psutil.Error):  # a sandbox that hides the figures
        return None


def check_pixel_limit(path: Path, width: int, height: int) -> None:
    """Refuse, before decoding, a photo of more pixels than Pillow opens (Image.MAX_IMAGE_PIXELS,
    its guard against decompression bombs), as too_large_to_open says: for a reader Pillow does
    not guard (camera RAW's), so that one limit holds for every photo."""
    limit = Image.MAX_IMAGE_PIXELS
    if limit is not None and width * height > limit:
        raise too_large_to_open(path)


def check_fits_in_memory(path: Path, width: int, height: int, *, channels: int) -> None:
    """Refuse, before decoding, a photo whose comparison would not fit in memory."""
    needed = width * height * channels * WORKING_BYTES_PER_PIXEL
    available = available_memory()
    if available is not None and needed > available:
        raise NotEnoughMemory(
            path,
            QT_TRANSLATE_NOOP(
                "FileProblem",
                "the image is {width} × {height} pixels ({megapixels} MP); blurring it needs "
                "about {needed} GB of memory, but only {available} GB is available",
            ),
            width=f"{width:,}",
            height=f"{height:,}",
            megapixels=f"{width * height / 1e6:,.0f}",
            needed=f"{needed / 1e9:.1f}",
            available=f"{available / 1e9:.1f}",
        )


def check_is_readable_file(path: Path) -> None:
    """Refuse, with a PhotoError naming it, a path that is missing, a folder or not a regular
    file, before anything opens it."""
    try:
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            raise PhotoError(
                path, QT_TRANSLATE_NOOP("FileProblem", "this is a folder, not an image file")
            )
        # Never opened: opening a FIFO waits for a writer, and opening a device can act on it.
        if not stat.S_ISREG(mode):
            raise PhotoError(path, QT_TRANSLATE_NOOP("FileProblem", "this is not a regular file"))
    except (FileNotFoundError, NotADirectoryError) as error:
        raise PhotoError(path, QT_TRANSLATE_NOOP("FileProblem", "no such file")) from error
    except OSError as error:
        raise os_problem(path, error) from error


def check_tiff_data(path: Path, offsets: object, counts: object, file_size: int) -> None:
    """Refuse, before any pixel is decoded, a TIFF whose strips or tiles (at `offsets`,
    `counts` bytes long) cannot hold what its header declares: byte counts missing or not one
    for each piece, any piece of no bytes (one or all: there is no pixel in an empty tile, so
    none is made up), or one past the end of the file (truncated, as the loader says of a
    file that ends early). The same rule for a photo loaded whole and one read by blocks."""
    offsets = np.atleast_1d(np.asarray(offsets if offsets is not None else (), dtype=np.int64))
    counts = np.atleast_1d(np.asarray(counts if counts is not None else (), dtype=np.int64))
    if not len(offsets) or len(counts) != len(offsets):
        raise PhotoError(
            path,
            QT_TRANSLATE_NOOP(
                "FileProblem",
                "the file cannot hold the image its header declares (it gives {counts} byte "
                "counts for {pieces} strips or tiles)",
            ),
            counts=len(counts),
            pieces=len(offsets),
        )
    empty = np.flatnonzero(counts <= 0)
    if len(empty):
        raise PhotoError(
            path,
            QT_TRANSLATE_NOOP(
                "FileProblem",
                "the file cannot hold the image its header declares ({empty} of its {pieces} "
                "strips or tiles hold no bytes)",
            ),
            empty=f"{len(empty):,}",
            pieces=f"{len(offsets):,}",
        )
    if np.any(offsets < 0) or np.any(offsets + counts > file_size):
        raise PhotoError(
            path,
            QT_TRANSLATE_NOOP(
                "FileProblem", "the file is truncated (it ends before the image does)"
            ),
        )


def damaged(path: Path, reason: object, kind: type[PhotoError] = PhotoError) -> PhotoError:
    """`path` is damaged or no valid image, as the PhotoError (or `kind`) a user reads:
    `reason` says how (a decoder's error, say)."""
    template = QT_TRANSLATE_NOOP(
        "FileProblem", "the file is damaged or not a valid image ({reason})"
    )
    return kind(path, template, reason=reason)


def too_large_to_open(path: Path, kind: type[PhotoError] = PhotoError) -> PhotoError:
    """`path` holds an image (a photo, or a clip's frame) over Pillow's limit on pixels, a
    decompression bomb, as the PhotoError (or `kind`) a user reads."""
    template = QT_TRANSLATE_NOOP(
        "FileProblem", "the image is too large to open safely (over {limit} pixels)"
    )
    return kind(path, template, limit=f"{Image.MAX_IMAGE_PIXELS or 0:,}")


def not_an_image(path: Path, kind: type[PhotoError] = PhotoError) -> PhotoError:
    """`path` is no image Pillow knows, as the PhotoError (or `kind`) a user reads."""
    template = QT_TRANSLATE_NOOP("FileProblem", "this is not an image file BlurApp can read")
    return kind(path, template)


def os_problem(path: Path, error: OSError) -> PhotoError:
    """An OSError met reading `path`, as the PhotoError a user reads."""
    message = str(error.strerror or error)
    if "truncated" in message.lower():
        template = QT_TRANSLATE_NOOP(
            "FileProblem", "the file is truncated (it ends before the image does)"
        )
        return PhotoError(path, template)
    if isinstance(error, PermissionError):
        return PhotoError(path, QT_TRANSLATE_NOOP("FileProblem", "permission denied"))
    template = QT_TRANSLATE_NOOP("FileProblem", "the file could not be read ({reason})")
    return PhotoError(path, template, reason=message)
