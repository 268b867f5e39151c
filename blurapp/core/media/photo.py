"""Turning a photo file into the float32 array that the engines blur.

Grayscale by default; in colour (red, green, blue) when the caller asks and the photo has colour.
"""

from __future__ import annotations

import functools
import io
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np
from PIL import ExifTags, Image, ImageFile, ImageOps, UnidentifiedImageError

from blurapp.core.media.camera_raw import develop_raw
from blurapp.core.media.colour_profiles import embedded_profile, image_in_srgb, levels_in_srgb
from blurapp.core.media.containers import is_camera_raw, prepare_readers
from blurapp.core.media.photo_checks import (
    PhotoError,
    check_fits_in_memory,
    check_is_readable_file,
    check_tiff_data,
    damaged,
    not_an_image,
    os_problem,
    too_large_to_open,
)
from blurapp.core.media.pixels import (
    ASSOCIATED_ALPHA,
    UNASSOCIATED_ALPHA,
    UnsupportedPixels,
    luma,
    samples_to_float,
    white_of,
)
from blurapp.core.media.tiff_pages import (
    MIN_IS_BLACK,
    MIN_IS_WHITE,
    RGB,
    TIFF_MAGIC,
    PageKind,
    page_kind,
    page_pixels,
    page_samples,
)
from blurapp.core.wording import QT_TRANSLATE_NOOP

# The TIFF tag saying how samples are meant: 0 MinIsWhite, 1 MinIsBlack, 2 RGB, ...
_PHOTOMETRIC = 262
# Integer samples wider than 8 bits: "I;16*" hold 16 bits, "I" holds 32.
WIDE_INTEGER_MODES = {"I;16", "I;16L", "I;16B", "I;16N", "I"}
_ALPHA_MODES = {"RGBA", "RGBa", "LA", "La", "PA"}
# Modes with one channel of values (and perhaps alpha); every other mode, palettes included,
# has colour to keep when a caller asks for it.
GRAY_MODES = {"1", "L", "LA", "La", "F", *WIDE_INTEGER_MODES}
# The TIFF tags (and their values) that tell 16-bit colour from the header.
_BITS_PER_SAMPLE, _PHOTOMETRIC, _EXTRA_SAMPLES, _SAMPLE_FORMAT = 258, 262, 338, 339
_PHOTOMETRIC_RGB = 2
# What libpng (through imagecodecs) and tifffile say when a file ends before its pixels do.
_CUT_SHORT = ("input stream too small", "failed to read")


def _read_only(array: np.ndarray) -> np.ndarray:
    """A photo's arrays are read-only, so that what an engine keeps of them (JAX-jit's copy on
    its device, for the live preview) is what they hold."""
    array.flags.writeable = False
    return array


@dataclass(frozen=True, eq=False)
class Photo:
    """A photo as the engines see it: float32 in [0, 1].

    `pixels` is height × width for a grayscale photo or a grayscale load, and
    height × width × 3 (red, green, blue) for a colour photo loaded in colour.
    """

    path: Path
    pixels: np.ndarray
    bit_depth: int  # 8 or 16: what the source file held, so outputs can keep its precision
    # A colour load's grey, worked out as the grey load's is (None: worked out from `pixels`),
    # so that the window and the command line blur the very same values with Colour off.
    loaded_gray: np.ndarray | None = field(default=None, repr=False, kw_only=True)

    def __post_init__(self) -> None:
        _read_only(self.pixels)
        if self.loaded_gray is not None:
            _read_only(self.loaded_gray)

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
        """The photo as grayscale, height × width (`pixels` itself when they are grayscale)."""
        if self.loaded_gray is not None:
            return self.loaded_gray
        if self.pixels.ndim == 2:
            return self.pixels
        return _read_only(luma(self.pixels))

    def to_blur(self, *, color: bool) -> np.ndarray:
        """What the engines blur: the colour channels when `color` and the photo has them, else
        its grey (the tutorial's comparison)."""
        return self.pixels if color else self.gray


def has_colour(path: str | os.PathLike[str]) -> bool:
    """Whether the photo at `path` has colour that load_photo(color=True) would keep, told
    from its header without decoding it; False for a file it cannot tell of."""
    if is_camera_raw(path):
        return True  # developed in colour, whatever its mosaic
    try:
        with open(path, "rb") as file, warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            prepare_readers(Path(path), file)
            floats = _float_tiff_kind(file)
            if floats is not None:
                return floats.has_colour
            with Image.open(file) as image:
                own_bands = _sixteen_bit_colour_bands(image) or _premultiplied_eight_bit_bands(
                    image
                )
                return _has_colour(image, own_bands)
    except Exception:  # said by load_photo, whose error is the one a user sees
        return False


def _has_colour(image: Image.Image, own_bands: str | None) -> bool:
    if own_bands:
        return own_bands != "LA"
    return image.mode not in GRAY_MODES


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
    animation is used. Colours are converted to sRGB through the file's ICC profile
    (blurapp.core.media.colour_profiles); HEIC is read through pillow-heif (10- and 12-bit
    kept at 16 bits), camera RAW files developed through rawpy (camera_raw), a TIFF of floats
    (16-, 32- or 64-bit, grey or colour, from 0 to 1) through tifffile, as a blur by blocks
    reads it. 32-bit integer grayscale is scaled by the range its values are in: 0-255 as
    8-bit, 0-65535 as 16-bit; values beyond that are refused.
    """
    path = Path(path)
    check_is_readable_file(path)
    if is_camera_raw(path):
        return _camera_raw_photo(path, color=color)
    try:
        with open(path, "rb") as file, warnings.catch_warnings():
            # Empty by what it holds, not by its size: /proc files have a size of 0 yet hold
            # text, which is then refused as not being an image.
            if not file.peek(1):
                raise PhotoError(path, QT_TRANSLATE_NOOP("FileProblem", "the file is empty"))
            # A file just over Pillow's pixel limit only warns; treat it like one far over it.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            prepare_readers(path, file)
            if _float_tiff_kind(file) is not None:
                pixels, gray = _float_tiff(path, file, color=color)
                # Floats are finer than 8-bit levels: written, they keep 16 bits, as a blur
                # by blocks writes them (blurapp.scale.tiled_read.FileLayout.bit_depth).
                bit_depth = 16
            else:
                pixels, gray, bit_depth = _through_pillow(path, file, color=color)
    except PhotoError:
        raise
    except UnsupportedPixels as error:
        raise PhotoError(
            path,
            QT_TRANSLATE_NOOP("FileProblem", "this kind of image is not supported: {reason}"),
            reason=error,
        ) from error
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise too_large_to_open(path) from error
    except UnidentifiedImageError as error:
        raise not_an_image(path) from error
    except MemoryError as error:
        raise PhotoError(
            path, QT_TRANSLATE_NOOP("FileProblem", "there is not enough memory to open this image")
        ) from error
    except OSError as error:
        raise os_problem(path, error) from error
    except Exception as error:
        # Pillow's decoders raise many kinds of error on damaged files; each means the same here.
        raise damaged(path, error) from error
    if pixels.size == 0:
        raise PhotoError(path, QT_TRANSLATE_NOOP("FileProblem", "the image has no pixels"))
    return Photo(path=path, pixels=pixels, bit_depth=bit_depth, loaded_gray=gray)


def _through_pillow(
    path: Path, file: IO[bytes], *, color: bool
) -> tuple[np.ndarray, np.ndarray | None, int]:
    """The photo open in `file` (at `path`) as Pillow decodes it, or as imagecodecs and tifffile
    decode the bands Pillow would cut to 8 bits: its pixels, grey or in colour (`color`); in
    colour, the grey a grey load gives; and its bit depth."""
    # Given a file object rather than a name, Pillow reads the pixels instead of memory-mapping
    # the file: a mapped file cut short by another program while the photo loads kills the
    # whole process with SIGBUS; a read one is just truncated.
    with Image.open(file) as image:
        if image.format == "TIFF":
            _check_tiff_data_tags(path, image, file)
        wide_bands = _sixteen_bit_colour_bands(image)
        own_bands = wide_bands or _premultiplied_eight_bit_bands(image)
        in_colour = color and _has_colour(image, own_bands)
        check_fits_in_memory(path, *image.size, channels=3 if in_colour else 1)
        gray = None  # of a colour load: made as a grey load makes it, bit for bit
        if own_bands:
            # Not image.load(): Pillow would decode these at 8 bits a channel, and un-premultiply
            # premultiplied alpha at 8 bits (a level off, here and there).
            pixels, gray = _sixteen_bit_colour(path, file, image, in_colour=in_colour)
            bit_depth = 16 if wide_bands else 8
        else:
            image.seek(0)
            image.load()
            # In place: a 24 MP photo is not copied just to learn it needs no turning.
            ImageOps.exif_transpose(image, in_place=True)
            if image.mode in WIDE_INTEGER_MODES:
                pixels, bit_depth = wide_integers_to_gray(image)
            else:
                shown = image_in_srgb(path, image)
                if in_colour:
                    pixels, gray = image_to_colour(shown), image_to_gray(shown)
                else:
                    pixels = image_to_gray(shown)
                bit_depth = 8
    return pixels, gray, bit_depth


def _camera_raw_photo(path: Path, *, color: bool) -> Photo:
    """A camera RAW file developed into 16-bit sRGB (blurapp.core.media.camera_raw)."""
    try:
        levels = develop_raw(path, channels=3 if color else 1)
    except PhotoError:
        raise
    except MemoryError as error:
        raise PhotoError(
            path, QT_TRANSLATE_NOOP("FileProblem", "there is not enough memory to open this image")
        ) from error
    except OSError as error:
        raise os_problem(path, error) from error
    pixels = _sixteen_bits_to_float(levels, in_colour=color, premultiplied=False)
    gray = _sixteen_bits_to_float(levels, in_colour=False, premultiplied=False) if color else None
    return Photo(path=path, pixels=pixels, bit_depth=16, loaded_gray=gray)


# TIFF tags that say where a first image's pixels lie: in strips, or in tiles.
_STRIP_OFFSETS, _STRIP_BYTE_COUNTS, _TILE_OFFSETS, _TILE_BYTE_COUNTS = 273, 279, 324, 325


def _tiff_tags(image: Image.Image) -> Any:
    """The tags of a photo Pillow opened as a TIFF."""
    from PIL import TiffImagePlugin  # loaded already: Pillow opened a TIFF

    assert isinstance(image, TiffImagePlugin.TiffImageFile)  # what Pillow opens as "TIFF"
    return image.tag_v2


def _check_tiff_data_tags(path: Path, image: Image.Image, file: IO[bytes]) -> None:
    tags = _tiff_tags(image)
    if _TILE_OFFSETS in tags:
        offsets, counts = tags.get(_TILE_OFFSETS), tags.get(_TILE_BYTE_COUNTS)
    else:
        offsets, counts = tags.get(_STRIP_OFFSETS), tags.get(_STRIP_BYTE_COUNTS)
    check_tiff_data(path, offsets, counts, os.fstat(file.fileno()).st_size)


def _float_tiff_kind(file: IO[bytes]) -> PageKind | None:
    """What the first image of the TIFF open in `file` holds (tiff_pages.page_kind) when its
    samples are floats, which Pillow decodes only as one 32-bit grey sample a pixel, and not
    as MinIsWhite says: _float_tiff reads them all. None for any other file, and for a header
    that cannot be read: Pillow says what is wrong with it. The file is left at its start."""
    try:
        if file.read(4) not in TIFF_MAGIC:
            return None
        file.seek(0)
        import tifffile  # imported already where a TIFF was told from a stack (is_clip)

        with tifffile.TiffFile(file) as tiff:
            page = tiff.pages.first
            return page_kind(page) if page.sampleformat == tifffile.SAMPLEFORMAT.IEEEFP else None
    except Exception:
        return None
    finally:
        file.seek(0)


def _float_tiff(
    path: Path, file: IO[bytes], *, color: bool
) -> tuple[np.ndarray, np.ndarray | None]:
    """The first image of the TIFF of floats open in `file` (at `path`), read through tifffile
    as a stack's page is (tiff_pages) and as a blur by blocks reads it: grey, MinIsWhite or
    red, green and blue, in planes or not, with alpha or not (16-, 32- and 64-bit floats, from
    0 to 1), turned upright as its Orientation tag says. Its pixels, grey or in colour
    (`color`), and in colour the grey a grey load gives."""
    import tifffile

    with tifffile.TiffFile(file) as tiff:
        page = tiff.pages.first
        check_tiff_data(
            path, page.dataoffsets, page.databytecounts, os.fstat(file.fileno()).st_size
        )
        if page.photometric not in (MIN_IS_BLACK, MIN_IS_WHITE, RGB):
            raise UnsupportedPixels(
                f"its floats are in {tifffile.PHOTOMETRIC(page.photometric).name}; "
                "BlurApp reads floats in grey or RGB"
            )
        width, height = int(page.imagewidth), int(page.imagelength)
        # Pillow's guard against decompression bombs holds for every photo, these too.
        limit = Image.MAX_IMAGE_PIXELS
        if limit is not None and width * height > limit:
            raise Image.DecompressionBombError(f"{width * height} pixels")
        kind = page_kind(page)
        in_colour = color and kind.has_colour
        check_fits_in_memory(path, width, height, channels=3 if in_colour else 1)
        values = page_samples(page, kind)
        if values.shape[:2] != (height, width):
            raise ValueError(
                f"its pixels decode as {values.shape}, not the {width} × {height} its header "
                "announces"
            )
        orientation = int(page.tags.valueof(int(ExifTags.Base.Orientation), 1) or 1)
        pixels = page_pixels(page, values, kind, in_colour=in_colour)
        gray = page_pixels(page, values, kind, in_colour=False) if pixels.ndim == 3 else None
    if orientation not in UPRIGHT:
        orientation = 1
    upright = turn_upright(pixels, orientation)
    return upright, None if gray is None else turn_upright(gray, orientation)


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
            raise UnsupportedPixels(f"Pillow mode {mode!r} has no colour conversion") from None
    return image


def image_to_gray(image: Image.Image) -> np.ndarray:
    """Height × width float32 grey in [0, 1] from an image of any mode but the wide integers
    (wide_integers_to_gray), composited over white."""
    if image.mode == "F":
        values = np.asarray(image)
        return samples_to_float(values, white=white_of(values), colour=False)
    image = _displayable(image)
    return samples_to_float(
        np.asarray(image),
        white=255,
        colour=image.mode in {"RGB", "RGBA"},
        alpha=UNASSOCIATED_ALPHA if image.mode in {"LA", "RGBA"} else None,
    )


def image_to_colour(image: Image.Image) -> np.ndarray:
    """Height × width × 3 float32 from an 8-bit image whose mode has colour."""
    image = _displayable(image)  # RGB or RGBA, since the mode has colour
    return samples_to_float(
        np.asarray(image),
        white=255,
        colour=True,
        alpha=UNASSOCIATED_ALPHA if image.mode == "RGBA" else None,
        in_colour=True,
    )


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
    elif image.format == "HEIF" and image.mode in {"RGB", "RGBA"}:
        # pillow-heif gives Pillow 8 bits a channel; a 10- or 12-bit photo is decoded apart.
        if image.info.get("bit_depth", 8) > 8:
            return image.mode
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


def _premultiplied_eight_bit_bands(image: Image.Image) -> str | None:
    """The bands (RGBA or LA) of an 8-bit TIFF with associated (premultiplied) alpha, which
    Pillow would un-premultiply at 8 bits: decoded as they are stored instead."""
    if image.format != "TIFF" or image.mode not in {"RGBA", "RGBa", "LA", "La"}:
        return None
    tags = _tiff_tags(image)
    bits = tags.get(_BITS_PER_SAMPLE, ())
    extra = tags.get(_EXTRA_SAMPLES)
    if set(bits if isinstance(bits, tuple) else (bits,)) != {8}:
        return None
    if (extra if isinstance(extra, tuple) else (extra,))[:1] != (ASSOCIATED_ALPHA,):
        return None
    return "LA" if image.mode in {"LA", "La"} else "RGBA"


def _sixteen_bit_colour(
    path: Path, file: IO[bytes], image: Image.Image, *, in_colour: bool
) -> tuple[np.ndarray, np.ndarray | None]:
    """Decode a 16-bit PNG or TIFF or a HEIF of more than 8 bits (see
    _sixteen_bit_colour_bands), or an 8-bit TIFF with premultiplied alpha
    (_premultiplied_eight_bit_bands), as stored, converted to sRGB through its profile: the
    pixels, and, when they are in colour, the grey a grey load would give."""
    file.seek(0)
    data = file.read()
    premultiplied = False
    try:
        if image.format == "HEIF":
            values = _deep_heif(data, image.info.get("bit_depth", 16))
        elif image.format == "PNG":
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
            premultiplied = meaning == (ASSOCIATED_ALPHA,)
            if (
                values.ndim == 3
                and values.shape[2] in (2, 4)
                and not (premultiplied or meaning == (UNASSOCIATED_ALPHA,))
            ):
                # A band of no stated meaning (RGBX) is not transparency: left out.
                values = values[..., :-1]
    except (RuntimeError, ValueError) as error:
        # Said as Pillow says it, so that a cut-short file is called truncated here too.
        if any(words in str(error) for words in _CUT_SHORT):
            raise OSError("image file is truncated") from error
        raise
    values = levels_in_srgb(path, values, embedded_profile(image))
    orientation = _orientation(image, png=data if image.format == "PNG" else None)
    del data  # the compressed file need not stay in memory beside the floats made next
    # Either way round: Pillow gives a TIFF turned by its orientation the turned size already.
    sizes = {(image.height, image.width), (image.width, image.height)}
    if (
        values.dtype not in (np.uint8, np.uint16)
        or values.ndim != 3
        or values.shape[:2] not in sizes
        or values.shape[2] not in (2, 3, 4)
    ):
        raise ValueError(
            f"its pixels decode as {values.dtype} {values.shape}, "
            f"not the {image.width} × {image.height} its header announces"
        )
    pixels = _sixteen_bits_to_float(values, in_colour=in_colour, premultiplied=premultiplied)
    gray = None
    if pixels.ndim == 3:
        gray = _sixteen_bits_to_float(values, in_colour=False, premultiplied=premultiplied)
        gray = turn_upright(gray, orientation)
    return turn_upright(pixels, orientation), gray


def _deep_heif(data: bytes, bit_depth: int) -> np.ndarray:
    """The primary image of the HEIF file `data`, of `bit_depth` (10 or 12) bits, as 16-bit
    levels (its white 65,535), turned upright as libheif turns it (irot, imir)."""
    import pillow_heif  # registered already: Pillow opened the HEIF through it

    heif = pillow_heif.open_heif(io.BytesIO(data), convert_hdr_to_8bit=False)
    # pillow-heif shifts the samples to the top of 16 bits (1023 becomes 65,472): stretched
    # instead, so that white stays white.
    stored = np.asarray(heif).astype(np.uint32) >> (16 - bit_depth)
    top = (1 << bit_depth) - 1
    return ((stored * 65535 + top // 2) // top).astype(np.uint16)


def _sixteen_bits_to_float(
    values: np.ndarray, *, in_colour: bool, premultiplied: bool
) -> np.ndarray:
    """Bands of 8- or 16-bit values (grey or RGB, then perhaps alpha) as float32 over white."""
    return samples_to_float(
        values,
        white=white_of(values),
        colour=values.shape[2] >= 3,
        alpha=ASSOCIATED_ALPHA if premultiplied else UNASSOCIATED_ALPHA,
        in_colour=in_colour,
    )


def _orientation(image: Image.Image, *, png: bytes | None = None) -> int:
    """The EXIF orientation, 1 to 8, read without decoding the pixels: for a PNG whose bytes
    are `png`, from its eXIf chunk wherever it is, as Pillow finds it for a PNG it decodes."""
    # The base class's reading: PNG's own getexif() decodes the whole image to look for an
    # eXIf chunk after the pixels; the base class sees only one before them.
    exif = Image.Image.getexif(image)
    if png is not None and ExifTags.Base.Orientation not in exif:
        stored = _png_chunk(png, b"eXIf")
        if stored is not None:
            exif = Image.Exif()
            exif.load(stored)
    orientation = exif.get(ExifTags.Base.Orientation, 1)
    return orientation if orientation in UPRIGHT else 1


def _png_chunk(png: bytes, kind: bytes) -> bytes | None:
    """The data of the first chunk of `kind` in the PNG file `png`, None if there is none."""
    at = 8  # past the signature
    while at + 8 <= len(png):
        length = int.from_bytes(png[at : at + 4], "big")
        if png[at + 4 : at + 8] == kind:
            return png[at + 8 : at + 8 + length]
        if png[at + 4 : at + 8] == b"IEND":
            return None
        at += 12 + length
    return None


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


def turn_upright(pixels: np.ndarray, orientation: int) -> np.ndarray:
    """`pixels` as stored, turned upright for the EXIF `orientation` (a key of UPRIGHT):
    a photo decoded without Pillow, a video's frame."""
    # Contiguous, as every other load gives: the engines and Qt expect rows in order.
    return np.ascontiguousarray(UPRIGHT[orientation](pixels))


def wide_integers_to_gray(image: Image.Image) -> tuple[np.ndarray, int]:
    """Grayscale in [0, 1] and the bit depth (8 or 16) the photo's values were made in."""
    values = np.asarray(image)
    white = 65535.0
    # 32-bit integers: their values decide (see white_level). A PGM's 16-bit samples also
    # arrive as "I", but Pillow has already put them on 0-65535.
    if image.mode == "I" and image.format != "PPM":
        white = white_of(values, _stored_integer_type(image))
    # Pillow inverts an 8-bit MinIsWhite TIFF, but hands over wider ones as stored (0 white).
    photometric = getattr(image, "tag_v2", {}).get(_PHOTOMETRIC) if image.format == "TIFF" else None
    gray = samples_to_float(values, white=white, colour=False, inverted=photometric == 0)
    # A PNG's single transparent level (its tRNS chunk), in the file's own 16-bit values:
    # composited over white like every other transparency.
    key = image.info.get("transparency")
    if isinstance(key, int):
        gray[values == key] = 1.0
    return gray, 8 if white == 255 else 16


def _stored_integer_type(image: Image.Image) -> np.dtype:
    """The integer type a photo Pillow gives as 32-bit ("I") was stored in: a TIFF's signed
    16-bit samples arrive as "I" too, and its words should say what they are."""
    if image.format == "TIFF":
        tags = _tiff_tags(image)
        bits = tags.get(_BITS_PER_SAMPLE, 32)
        kind = tags.get(_SAMPLE_FORMAT, 1)
        bits = bits[0] if isinstance(bits, tuple) else bits
        kind = kind[0] if isinstance(kind, tuple) else kind
        if bits in (8, 16, 32) and kind in (1, 2):
            return np.dtype(f"{'u' if kind == 1 else 'i'}{bits // 8}")
    return np.dtype(np.int32)
