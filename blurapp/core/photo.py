"""Turning a photo file into the grayscale float32 array that both engines blur."""

from __future__ import annotations

import os
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from blurapp.core.wording import QT_TRANSLATE_NOOP, FileProblem

# ITU-R 601-2 luma, the weights Pillow's own "L" conversion uses, here in floating point.
LUMA_WEIGHTS = np.array([0.299, 0.587, 0.114], dtype=np.float32)

# Integer samples wider than 8 bits: "I;16*" hold 16 bits, "I" holds 32.
_WIDE_INTEGER_MODES = {"I;16", "I;16L", "I;16B", "I;16N", "I"}
_ALPHA_MODES = {"RGBA", "RGBa", "LA", "La", "PA"}


class _UnsupportedPixels(ValueError):
    """Pixels that decode fine but have no grayscale meaning BlurApp can give them."""


class PhotoError(FileProblem):
    """A photo that BlurApp cannot read; the message names the file and the problem."""


@dataclass(frozen=True, eq=False)
class Photo:
    """A photo as the engines see it: grayscale float32 in [0, 1], shaped height × width."""

    path: Path
    gray: np.ndarray
    bit_depth: int  # 8 or 16: what the source file held, so outputs can keep its precision

    @property
    def height(self) -> int:
        return int(self.gray.shape[0])

    @property
    def width(self) -> int:
        return int(self.gray.shape[1])


def load_grayscale(path: str | os.PathLike[str]) -> np.ndarray:
    """The photo at `path` as a float32 height×width array in [0, 1]. Raises PhotoError."""
    return load_photo(path).gray


def load_photo(path: str | os.PathLike[str]) -> Photo:
    """Read the photo at `path` as grayscale, as a viewer would show it. Raises PhotoError.

    EXIF orientation is applied, transparency is composited over white, 16-bit
    grayscale keeps its full range, and only the first frame of an animation is used.
    32-bit integer grayscale is scaled by the range its values are in: 0-255 as 8-bit,
    0-65535 as 16-bit; values beyond that are refused.
    """
    path = Path(path)
    _check_is_readable_file(path)
    try:
        with open(path, "rb") as file, warnings.catch_warnings():
            # Empty by what it holds, not by its size: /proc files have a size of 0 yet hold
            # text, which is then refused as not being an image.
            if not file.peek(1):
                raise PhotoError(path, QT_TRANSLATE_NOOP("FileProblem", "the file is empty"))
            # A file just over Pillow's pixel limit only warns; treat it like one far over it.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            # Given a file object rather than a name, Pillow reads the pixels instead of
            # memory-mapping the file: a mapped file cut short by another program while the
            # photo loads kills the whole process with SIGBUS; a read one is just truncated.
            with Image.open(file) as image:
                _check_fits_in_memory(path, *image.size)
                image.seek(0)
                image.load()
                # In place: a 24 MP photo is not copied just to learn it needs no turning.
                ImageOps.exif_transpose(image, in_place=True)
                if image.mode in _WIDE_INTEGER_MODES:
                    gray, bit_depth = _wide_integers_to_gray(image)
                else:
                    gray, bit_depth = _to_gray(image), 8
    except PhotoError:
        raise
    except _UnsupportedPixels as error:
        raise PhotoError(
            path,
            QT_TRANSLATE_NOOP("FileProblem", "this kind of image is not supported: {reason}"),
            reason=error,
        ) from error
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise PhotoError(
            path,
            QT_TRANSLATE_NOOP(
                "FileProblem", "the image is too large to open safely (over {limit} pixels)"
            ),
            limit=f"{Image.MAX_IMAGE_PIXELS:,}",
        ) from error
    except UnidentifiedImageError as error:
        raise PhotoError(
            path, QT_TRANSLATE_NOOP("FileProblem", "this is not an image file BlurApp can read")
        ) from error
    except MemoryError as error:
        raise PhotoError(
            path, QT_TRANSLATE_NOOP("FileProblem", "there is not enough memory to open this image")
        ) from error
    except OSError as error:
        raise _os_problem(path, error) from error
    except Exception as error:
        # Pillow's decoders raise many kinds of error on damaged files; each means the same here.
        raise PhotoError(
            path,
            QT_TRANSLATE_NOOP("FileProblem", "the file is damaged or not a valid image ({reason})"),
            reason=error,
        ) from error
    if gray.size == 0:
        raise PhotoError(path, QT_TRANSLATE_NOOP("FileProblem", "the image has no pixels"))
    return Photo(path=path, gray=gray, bit_depth=bit_depth)


# Bytes of memory per pixel a whole comparison takes at its peak: the float32 photo, the NumPy
# engine's padded copy, output and scratch, JAX's copies on the device and its output, and the
# pictures shown. Measured with `blurapp bench` (memory): about 30 to 38 bytes a pixel.
WORKING_BYTES_PER_PIXEL = 40


def available_memory() -> int | None:
    """Bytes of memory the system can still give this process, or None if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _check_fits_in_memory(path: Path, width: int, height: int) -> None:
    """Refuse, before decoding, a photo whose comparison would not fit in memory."""
    needed = width * height * WORKING_BYTES_PER_PIXEL
    available = available_memory()
    if available is not None and needed > available:
        raise PhotoError(
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


def _check_is_readable_file(path: Path) -> None:
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
        raise _os_problem(path, error) from error


def _os_problem(path: Path, error: OSError) -> PhotoError:
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


def _to_gray(image: Image.Image) -> np.ndarray:
    mode = image.mode
    if mode == "F":
        values = np.asarray(image, dtype=np.float32)
        if not np.all(np.isfinite(values)) or values.min() < 0 or values.max() > 1:
            raise _UnsupportedPixels("32-bit float pixels must lie between 0 and 1")
        return np.ascontiguousarray(values)
    if mode == "P":
        image = image.convert("RGBA" if "transparency" in image.info else "RGB")
    elif mode in _ALPHA_MODES:
        image = image.convert("LA" if mode in {"LA", "La"} else "RGBA")
    elif mode in {"L", "RGB"} and "transparency" in image.info:
        # A PNG's single transparent colour (its tRNS chunk): composite that over white too.
        image = image.convert("LA" if mode == "L" else "RGBA")
    elif mode in {"1", "L"}:
        image = image.convert("L")
    elif mode != "RGB":
        # CMYK, YCbCr, LAB, HSV and the rest: Pillow knows how to reach RGB from each.
        try:
            image = image.convert("RGB")
        except ValueError:
            raise _UnsupportedPixels(f"Pillow mode {mode!r} has no colour conversion") from None

    # One channel at a time, in float32: a 24 MP colour photo never exists as a float array
    # of all three channels (that alone would be 288 MB).
    scale = np.float32(1 / 255)
    if image.mode == "L":
        return np.multiply(np.asarray(image), scale, dtype=np.float32)

    def band(index: int) -> np.ndarray:
        return np.asarray(image.getchannel(index))  # one 8-bit channel

    gray = np.empty((image.height, image.width), dtype=np.float32)
    channel = np.empty_like(gray)
    if image.mode == "LA":
        np.multiply(band(0), scale, out=gray)
    else:
        np.multiply(band(0), LUMA_WEIGHTS[0] * scale, out=gray)
        for index in (1, 2):
            np.multiply(band(index), LUMA_WEIGHTS[index] * scale, out=channel)
            gray += channel
    if image.mode in {"LA", "RGBA"}:
        alpha = np.multiply(band(image.getbands().index("A")), scale, out=channel)
        gray *= alpha
        gray += np.float32(1) - alpha  # over a white background
    return np.clip(gray, 0, 1, out=gray)


def _wide_integers_to_gray(image: Image.Image) -> tuple[np.ndarray, int]:
    """Grayscale in [0, 1] and the bit depth (8 or 16) the photo's values were made in."""
    values = np.asarray(image)
    bit_depth = 16
    # 32-bit integers say nothing of the range they were written in, so their values decide:
    # a 0-255 photo stored 32 bits wide would otherwise show nearly black. A PGM's 16-bit
    # samples also arrive as "I", but Pillow has already put them on 0-65535.
    if image.mode == "I" and image.format != "PPM" and values.size:
        low, high = values.min(), values.max()
        if low < 0 or high > 65535:
            raise _UnsupportedPixels("32-bit integer pixels fall outside the 16-bit range")
        if high <= 255:
            bit_depth = 8
    gray = np.divide(values, np.float32(2**bit_depth - 1), dtype=np.float32)
    # A PNG's single transparent level (its tRNS chunk), in the file's own 16-bit values:
    # composited over white like every other transparency.
    key = image.info.get("transparency")
    if isinstance(key, int):
        gray[values == key] = 1.0
    return gray, bit_depth
