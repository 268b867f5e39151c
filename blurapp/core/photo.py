"""Turning a photo file into the float32 array that the engines blur.

Grayscale by default; in colour (red, green, blue) when the caller asks and the photo has colour.
"""

from __future__ import annotations

import functools
import io
import os
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np
from PIL import ExifTags, Image, ImageFile, ImageOps, UnidentifiedImageError

from blurapp.core.wording import QT_TRANSLATE_NOOP, FileProblem

# ITU-R 601-2 luma, the weights Pillow's own "L" conversion uses, here in floating point.
LUMA_WEIGHTS = np.array([0.299, 0.587, 0.114], dtype=np.float32)

# Integer samples wider than 8 bits: "I;16*" hold 16 bits, "I" holds 32.
_WIDE_INTEGER_MODES = {"I;16", "I;16L", "I;16B", "I;16N", "I"}
_ALPHA_MODES = {"RGBA", "RGBa", "LA", "La", "PA"}
# Modes with one channel of values (and perhaps alpha); every other mode, palettes included,
# has colour to keep when a caller asks for it.
_GRAY_MODES = {"1", "L", "LA", "La", "F", *_WIDE_INTEGER_MODES}
# The TIFF tags (and their values) that tell 16-bit colour from the header.
_BITS_PER_SAMPLE, _PHOTOMETRIC, _EXTRA_SAMPLES, _SAMPLE_FORMAT = 258, 262, 338, 339
_PHOTOMETRIC_RGB, _ASSOCIATED_ALPHA, _UNASSOCIATED_ALPHA = 2, 1, 2
# What libpng (through imagecodecs) and tifffile say when a file ends before its pixels do.
_CUT_SHORT = ("input stream too small", "failed to read")


class _UnsupportedPixels(ValueError):
    """Pixels that decode fine but have no grayscale meaning BlurApp can give them."""


class PhotoError(FileProblem):
    """A photo that BlurApp cannot read; the message names the file and the problem."""


class NotEnoughMemory(PhotoError):
    """A photo refused before decoding: blurring it would not fit in the memory available."""


@dataclass(frozen=True, eq=False)
class Photo:
    """A photo as the engines see it: float32 in [0, 1].

    `pixels` is height × width for a grayscale photo or a grayscale load, and
    height × width × 3 (red, green, blue) for a colour photo loaded in colour.
    """

    path: Path
    pixels: np.ndarray
    bit_depth: int  # 8 or 16: what the source file held, so outputs can keep its precision

    @property
    def height(self) -> int:
        return int(self.pixels.shape[0])

    @property
    def width(self) -> int:
        return int(self.pixels.shape[1])

    @property
    def channels(self) -> int:
        """1 for grayscale pixels, 3 for colour."""
        return 1 if self.pixels.ndim == 2 else int(self.pixels.shape[2])

    @functools.cached_property
    def gray(self) -> np.ndarray:
        """The photo as grayscale, height × width: `pixels` itself when they are grayscale."""
        if self.pixels.ndim == 2:
            return self.pixels
        gray = np.multiply(self.pixels[..., 0], LUMA_WEIGHTS[0], dtype=np.float32)
        for index in (1, 2):
            gray += self.pixels[..., index] * LUMA_WEIGHTS[index]
        return np.clip(gray, 0, 1, out=gray)

    def to_blur(self, *, color: bool) -> np.ndarray:
        """What the engines blur: the colour channels when `color` and the photo has them, else
        its grey (the tutorial's comparison)."""
        return self.pixels if color else self.gray


def load_grayscale(path: str | os.PathLike[str]) -> np.ndarray:
    """The photo at `path` as a float32 height×width array in [0, 1]. Raises PhotoError."""
    return load_photo(path).gray


def load_photo(path: str | os.PathLike[str], *, color: bool = False) -> Photo:
    """Read the photo at `path` as a viewer would show it. Raises PhotoError.

    Grayscale unless `color` is true and the photo has colour: then the pixels are
    height × width × 3 (red, green, blue); CMYK, YCbCr, Lab and HSV become RGB as
    Pillow converts them, and palettes become RGB even when all their colours are grey.
    EXIF orientation is applied, transparency is composited over white, 16-bit
    grayscale and 16-bit RGB keep their full range, and only the first frame of an
    animation is used. 32-bit integer grayscale is scaled by the range its values are
    in: 0-255 as 8-bit, 0-65535 as 16-bit; values beyond that are refused.
    """
    path = Path(path)
    check_is_readable_file(path)
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
                wide_bands = _sixteen_bit_colour_bands(image)
                if wide_bands:
                    in_colour = color and wide_bands != "LA"
                else:
                    in_colour = color and image.mode not in _GRAY_MODES
                _check_fits_in_memory(path, *image.size, channels=3 if in_colour else 1)
                gray = None  # of a colour load: made as a grey load makes it, bit for bit
                if wide_bands:
                    # Not image.load(): Pillow would decode these at 8 bits a channel.
                    pixels, gray = _sixteen_bit_colour(file, image, in_colour=in_colour)
                    bit_depth = 16
                else:
                    image.seek(0)
                    image.load()
                    # In place: a 24 MP photo is not copied just to learn it needs no turning.
                    ImageOps.exif_transpose(image, in_place=True)
                    if image.mode in _WIDE_INTEGER_MODES:
                        pixels, bit_depth = _wide_integers_to_gray(image)
                    elif in_colour:
                        pixels, gray, bit_depth = _to_colour(image), _to_gray(image), 8
                    else:
                        pixels, bit_depth = _to_gray(image), 8
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
        raise os_problem(path, error) from error
    except Exception as error:
        # Pillow's decoders raise many kinds of error on damaged files; each means the same here.
        raise PhotoError(
            path,
            QT_TRANSLATE_NOOP("FileProblem", "the file is damaged or not a valid image ({reason})"),
            reason=error,
        ) from error
    if pixels.size == 0:
        raise PhotoError(path, QT_TRANSLATE_NOOP("FileProblem", "the image has no pixels"))
    photo = Photo(path=path, pixels=pixels, bit_depth=bit_depth)
    if gray is not None:
        # The grey the engines get with Colour off equals the grey load's, so the window and
        # the command line blur the very same values.
        photo.__dict__["gray"] = gray
    return photo


# Bytes of memory per pixel and per channel a whole comparison takes at its peak: the float32
# photo, the NumPy engine's padded copy, output and scratch, JAX's copies on the device and its
# output, and the pictures shown. Measured with `blurapp bench` (memory) on grayscale: about 30
# to 38 bytes a pixel. Each of those arrays has a plane per channel: colour needs three times that.
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


def _check_fits_in_memory(path: Path, width: int, height: int, *, channels: int) -> None:
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


def _displayable(image: Image.Image) -> Image.Image:
    """The image in mode L, LA, RGB or RGBA: what a viewer would show, before compositing."""
    mode = image.mode
    if mode == "P":
        return image.convert("RGBA" if "transparency" in image.info else "RGB")
    if mode in _ALPHA_MODES:
        return image.convert("LA" if mode in {"LA", "La"} else "RGBA")
    if mode in {"L", "RGB"} and "transparency" in image.info:
        # A PNG's single transparent colour (its tRNS chunk): composite that over white too.
        return image.convert("LA" if mode == "L" else "RGBA")
    if mode in {"1", "L"}:
        return image.convert("L")
    if mode != "RGB":
        # CMYK, YCbCr, LAB, HSV and the rest: Pillow knows how to reach RGB from each.
        try:
            return image.convert("RGB")
        except ValueError:
            raise _UnsupportedPixels(f"Pillow mode {mode!r} has no colour conversion") from None
    return image


def _over_white(values: np.ndarray, alpha: np.ndarray, *, premultiplied: bool = False) -> None:
    """Composite `values` (height × width, or × channels) over a white background, in place."""
    if values.ndim == 3:
        alpha = alpha[..., np.newaxis]
    if not premultiplied:
        values *= alpha
    values += np.float32(1) - alpha


def _to_gray(image: Image.Image) -> np.ndarray:
    if image.mode == "F":
        values = np.asarray(image, dtype=np.float32)
        if not np.all(np.isfinite(values)) or values.min() < 0 or values.max() > 1:
            raise _UnsupportedPixels("32-bit float pixels must lie between 0 and 1")
        return np.ascontiguousarray(values)
    image = _displayable(image)

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
        _over_white(gray, np.multiply(band(image.getbands().index("A")), scale, out=channel))
    return np.clip(gray, 0, 1, out=gray)


def _to_colour(image: Image.Image) -> np.ndarray:
    """Height × width × 3 float32 from an 8-bit image whose mode has colour."""
    image = _displayable(image)  # RGB or RGBA, since the mode has colour
    scale = np.float32(1 / 255)
    # Channel by channel: the 8-bit copy of one channel at a time, not of the whole image.
    pixels = np.empty((image.height, image.width, 3), dtype=np.float32)
    for index in range(3):
        np.multiply(np.asarray(image.getchannel(index)), scale, out=pixels[..., index])
    if image.mode == "RGBA":
        alpha = np.multiply(np.asarray(image.getchannel("A")), scale, dtype=np.float32)
        _over_white(pixels, alpha)
    return np.clip(pixels, 0, 1, out=pixels)


def _sixteen_bit_colour_bands(image: ImageFile.ImageFile) -> str | None:
    """The bands of a 16-bit PNG or TIFF that Pillow would cut to 8 bits: RGB, RGBA or LA.

    Decided from the header alone, before any pixel is decoded. Pillow gives a 16-bit
    grey-and-alpha PNG the mode RGBA, so the bands come from the PNG's raw mode, not the mode.
    """
    if image.format == "PNG" and image.tile:
        rawmode = image.tile[0][3]  # "RGB;16B", "RGBA;16B", "LA;16B"
        if isinstance(rawmode, str):
            bands, _, layout = rawmode.partition(";")
            if layout.startswith("16") and bands in {"RGB", "RGBA", "LA"}:
                return bands
    elif image.format == "TIFF" and image.mode in {"RGB", "RGBA"}:
        # The tags, not the raw mode: a TIFF with one plane per colour has tiles that say
        # only "R", "G" and "B", whatever their depth.
        from PIL import TiffImagePlugin  # loaded already: Pillow opened a TIFF

        assert isinstance(image, TiffImagePlugin.TiffImageFile)  # what Pillow opens as "TIFF"
        tags = image.tag_v2
        bits = tags.get(_BITS_PER_SAMPLE, ())
        formats = tags.get(_SAMPLE_FORMAT, (1,))
        if (
            tags.get(_PHOTOMETRIC) == _PHOTOMETRIC_RGB
            and set(bits if isinstance(bits, tuple) else (bits,)) == {16}
            and set(formats if isinstance(formats, tuple) else (formats,)) == {1}  # unsigned
        ):
            return image.mode
    return None


def _sixteen_bit_colour(
    file: IO[bytes], image: Image.Image, *, in_colour: bool
) -> tuple[np.ndarray, np.ndarray | None]:
    """Decode a 16-bit PNG or TIFF (see _sixteen_bit_colour_bands) at its full precision: the
    pixels, and, when they are in colour, the grey a grey load would give."""
    file.seek(0)
    data = file.read()
    premultiplied = False
    try:
        if image.format == "PNG":
            import imagecodecs

            # libpng also turns a tRNS colour key into an alpha band.
            values = imagecodecs.png_decode(data)
        else:
            import tifffile
            from PIL import TiffImagePlugin

            with tifffile.TiffFile(io.BytesIO(data)) as tiff:
                page = tiff.pages.first
                values = page.asarray()
                if page.planarconfig == tifffile.PLANARCONFIG.SEPARATE:
                    values = np.moveaxis(values, 0, -1)
            assert isinstance(image, TiffImagePlugin.TiffImageFile)  # the bands' TIFF
            extra = image.tag_v2.get(_EXTRA_SAMPLES)
            meaning = (extra if isinstance(extra, tuple) else (extra,))[:1]
            premultiplied = meaning == (_ASSOCIATED_ALPHA,)
            if (
                values.ndim == 3
                and values.shape[2] in (2, 4)
                and not (premultiplied or meaning == (_UNASSOCIATED_ALPHA,))
            ):
                # A band of no stated meaning (RGBX) is not transparency: left out.
                values = values[..., :-1]
    except (RuntimeError, ValueError) as error:
        # Said as Pillow says it, so that a cut-short file is called truncated here too.
        if any(words in str(error) for words in _CUT_SHORT):
            raise OSError("image file is truncated") from error
        raise
    del data  # the compressed file need not stay in memory beside the floats made next
    # Either way round: Pillow gives a TIFF turned by its orientation the turned size already.
    sizes = {(image.height, image.width), (image.width, image.height)}
    if (
        values.dtype != np.uint16
        or values.ndim != 3
        or values.shape[:2] not in sizes
        or values.shape[2] not in (2, 3, 4)
    ):
        raise ValueError(
            f"its pixels decode as {values.dtype} {values.shape}, "
            f"not the 16-bit {image.width} × {image.height} its header announces"
        )
    orientation = _orientation(image)
    pixels = _sixteen_bits_to_float(values, in_colour=in_colour, premultiplied=premultiplied)
    gray = None
    if pixels.ndim == 3:
        gray = _sixteen_bits_to_float(values, in_colour=False, premultiplied=premultiplied)
        gray = _turn_upright(gray, orientation)
    return _turn_upright(pixels, orientation), gray


def _sixteen_bits_to_float(
    values: np.ndarray, *, in_colour: bool, premultiplied: bool
) -> np.ndarray:
    """Bands of 16-bit values (grey or RGB, then perhaps alpha) as float32 over white."""
    scale = np.float32(1 / 65535)
    if values.shape[2] <= 2:
        pixels = np.multiply(values[..., 0], scale, dtype=np.float32)
    elif in_colour:
        pixels = np.empty((*values.shape[:2], 3), dtype=np.float32)
        for index in range(3):
            np.multiply(values[..., index], scale, out=pixels[..., index])
    else:
        # One channel at a time, as for 8-bit colour.
        pixels = np.multiply(values[..., 0], LUMA_WEIGHTS[0] * scale, dtype=np.float32)
        channel = np.empty_like(pixels)
        for index in (1, 2):
            np.multiply(values[..., index], LUMA_WEIGHTS[index] * scale, out=channel)
            pixels += channel
    if values.shape[2] in (2, 4):
        alpha = np.multiply(values[..., -1], scale, dtype=np.float32)
        _over_white(pixels, alpha, premultiplied=premultiplied)
    return np.clip(pixels, 0, 1, out=pixels)


def _orientation(image: Image.Image) -> int:
    """The EXIF orientation, 1 to 8, read without decoding the pixels."""
    # The base class's reading: PNG's own getexif() decodes the whole image to look for an
    # eXIf chunk after the pixels, but PNG puts it before them, where Pillow has read it.
    orientation = Image.Image.getexif(image).get(ExifTags.Base.Orientation, 1)
    return orientation if orientation in UPRIGHT else 1


# What turns stored pixels upright for each EXIF orientation: the transposes Pillow's
# ImageOps.exif_transpose makes, for the photos decoded here without Pillow and for images
# blurred by blocks (slices and swapped axes only, so a Dask array turns lazily too).
UPRIGHT = {
    1: lambda pixels: pixels,
    2: lambda pixels: pixels[:, ::-1],
    3: lambda pixels: pixels[::-1, ::-1],
    4: lambda pixels: pixels[::-1],
    5: lambda pixels: pixels.swapaxes(0, 1),
    6: lambda pixels: pixels.swapaxes(0, 1)[:, ::-1],  # a quarter turn clockwise
    7: lambda pixels: pixels[::-1, ::-1].swapaxes(0, 1),
    8: lambda pixels: pixels.swapaxes(0, 1)[::-1],  # a quarter turn anticlockwise
}


def _turn_upright(pixels: np.ndarray, orientation: int) -> np.ndarray:
    # Contiguous, as every other load gives: the engines and Qt expect rows in order.
    return np.ascontiguousarray(UPRIGHT[orientation](pixels))


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
