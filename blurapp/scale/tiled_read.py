"""Reading an image too large for memory: what a TIFF or zarr file holds (its layout, checked
before any work), and its pixels read on demand for the region a block asks for, converted by the
whole-image loader's own rule (blurapp.core.media.pixels)."""

from __future__ import annotations

import dataclasses
import math
import os
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from blurapp.core.media.photo import UPRIGHT
from blurapp.core.media.photo_checks import (
    WORKING_BYTES_PER_PIXEL,
    PhotoError,
    available_memory,
    check_is_readable_file,
    check_tiff_data,
    damaged,
    os_problem,
)
from blurapp.core.media.pixels import (
    ASSOCIATED_ALPHA,
    UNASSOCIATED_ALPHA,
    UnsupportedPixels,
    pixel_type_words,
    samples_to_float,
    white_level,
)
from blurapp.core.wording import QT_TRANSLATE_NOOP
from blurapp.scale.scheduler import (
    MissingExtraError,
    dask_array,
)
from blurapp.scale.segment_sizes import (
    UNCHECKED_IMAGE_COMPRESSIONS,
    SegmentTooLarge,
    check_segment_fits,
    segment_too_large,
)
from blurapp.scale.tiff_tiles import TiffTiles
from blurapp.scale.zarr_store import UnsupportedChunks, open_zarr

if TYPE_CHECKING:
    import dask.array

# Blocks of 2048 × 2048: a 9 × 9 kernel's halo adds under 1 % to each, and 16 of them span a
# 32768-pixel row. Of 1024, 2048 and 4096 (blurapp.bench.scale.measure_gigapixel), 2048 blurred
# fastest with NumPy and JAX-jit; smaller blocks use less memory but pay for four times as many.
DEFAULT_BLOCK = 2048


_TIFF_EXTENSIONS = {".tif", ".tiff", ".btf", ".tf8"}


@dataclass(frozen=True)
class FileLayout:
    """How a file's first image stores its pixels, read from its header alone."""

    path: Path
    kind: str  # "tiff" or "zarr"
    height: int
    width: int
    samples: int  # per pixel, alpha included
    dtype: np.dtype
    colour: bool  # red, green and blue samples
    alpha: int | None  # ASSOCIATED_ALPHA, UNASSOCIATED_ALPHA or None
    inverted: bool  # TIFF MinIsWhite: 0 is white
    orientation: int = 1  # the TIFF Orientation tag, as EXIF's: how to turn it upright
    # Bits a sample as stored: 2 or 4 for a TIFF whose levels tifffile hands over as bytes
    # of 0-3 or 0-15 (white is then 3 or 15, as the whole-image loader reads it); 0 when
    # the type says.
    bits: int = 0
    # How it is stored: each segment (a tile, strip or chunk) decoded whole, as
    # (what it is called, rows, columns, bytes a pixel); checked to fit before blocks are read.
    segment: tuple[str, int, int, int] = ("tile", 0, 0, 0)
    # The stored value of white (blurapp.core.media.pixels.white_level); None until the values
    # are read, for the types whose values decide it.
    white: float | None = None

    @property
    def pixels(self) -> int:
        return self.height * self.width

    @property
    def bit_depth(self) -> int:
        """8 for 8-bit (and 1-bit) samples and for wider integers holding 0-255, 16 for the
        rest: what a written result keeps, as the whole-image loader keeps it."""
        return 8 if self.dtype.itemsize == 1 or self.white == 255 else 16


def is_zarr_folder(path: Path) -> bool:
    """Whether the folder `path` is a zarr array (an image, not a folder of photos)."""
    return path.suffix.lower() == ".zarr" or any(
        (path / name).is_file() for name in ("zarr.json", ".zarray")
    )


def _read_layout(path: str | os.PathLike[str]) -> FileLayout:
    """The layout of the TIFF, BigTIFF or zarr array at `path`. Raises PhotoError."""
    # Absolute: a cluster's workers open it from working folders of their own.
    path = Path(os.path.abspath(path))
    try:
        if path.is_dir() and is_zarr_folder(path):
            return _zarr_layout(path)
        # Missing, a folder, not a regular file: refused as the whole-image loader refuses them.
        check_is_readable_file(path)
        return _tiff_layout(path)
    except OSError as error:
        raise os_problem(path, error) from error


def _tiff_layout(path: Path) -> FileLayout:
    import tifffile

    try:
        with tifffile.TiffFile(path) as tiff:
            page = tiff.pages.first
            shape, axes, dtype = page.shape, page.axes, np.dtype(page.dtype)
            photometric, extrasamples = int(page.photometric), tuple(page.extrasamples)
            jpeg = page.compression == tifffile.COMPRESSION.JPEG
            orientation = int(page.tags.valueof(274, 1) or 1)
            compression = int(page.compression)
            bits = int(page.bitspersample)
            segment = (
                (page.tilelength, page.tilewidth)
                if page.is_tiled
                else (min(page.rowsperstrip, page.imagelength), page.imagewidth)
            )
            segment_samples = page.samplesperpixel if page.planarconfig != 2 else 1
            segment_kind = "tile" if page.is_tiled else "strip"
    except (tifffile.TiffFileError, ValueError, IndexError, KeyError, TypeError) as error:
        raise PhotoError(
            path,
            QT_TRANSLATE_NOOP(
                "FileProblem",
                "this is not a TIFF file, or it is damaged; only TIFF, BigTIFF and zarr images "
                "can be blurred in tiles ({reason})",
            ),
            reason=error,
        ) from error
    if axes not in ("YX", "YXS", "SYX"):
        raise _unsupported(path, f"its first image has axes {axes}, not rows × columns")
    if compression in UNCHECKED_IMAGE_COMPRESSIONS:
        name = tifffile.COMPRESSION(compression).name
        raise _unsupported(
            path,
            f"its tiles are compressed with {name}, whose decoded size BlurApp cannot check "
            "before decoding them",
        )
    if axes == "YX":
        height, width, samples = *shape, 1
    elif axes == "SYX":  # samples stored as separate planes
        samples, height, width = shape
    else:
        height, width, samples = shape
    if photometric == tifffile.PHOTOMETRIC.YCBCR and jpeg:
        # Usual for large scans: tifffile's decoder gives these tiles as RGB.
        photometric = int(tifffile.PHOTOMETRIC.RGB)
    colour = photometric == tifffile.PHOTOMETRIC.RGB and samples >= 3
    if photometric not in (
        tifffile.PHOTOMETRIC.MINISBLACK,
        tifffile.PHOTOMETRIC.MINISWHITE,
        tifffile.PHOTOMETRIC.RGB,
    ):
        name = tifffile.PHOTOMETRIC(photometric).name
        raise _unsupported(path, f"its colour space is {name}; tiles need gray or RGB")
    alpha = None
    if extrasamples and extrasamples[0] in (ASSOCIATED_ALPHA, UNASSOCIATED_ALPHA):
        alpha = extrasamples[0]
    layout = FileLayout(
        path=path,
        kind="tiff",
        height=height,
        width=width,
        samples=samples,
        dtype=dtype,
        colour=colour,
        alpha=alpha,
        inverted=photometric == tifffile.PHOTOMETRIC.MINISWHITE,
        bits=bits,
        segment=(segment_kind, *segment, segment_samples * dtype.itemsize),
        orientation=orientation if orientation in range(1, 9) else 1,
    )
    _check_samples(layout)
    return layout


def _zarr_layout(path: Path) -> FileLayout:
    try:
        array = open_zarr(path)
    except PhotoError:
        raise
    except UnsupportedChunks as error:
        raise _unsupported(path, str(error)) from error
    except Exception as error:  # zarr raises many kinds for a folder that is not an array
        raise PhotoError(
            path,
            QT_TRANSLATE_NOOP(
                "FileProblem", "this is not a zarr array BlurApp can read ({reason})"
            ),
            reason=error,
        ) from error
    shape = tuple(array.shape)
    if len(shape) == 2:
        shape = (*shape, 1)
    if len(shape) != 3 or shape[2] not in (1, 2, 3, 4):
        raise _unsupported(path, f"a zarr array of shape {array.shape} is not rows × columns")
    height, width, samples = shape
    chunk = tuple(array.chunks)
    layout = FileLayout(
        path=path,
        kind="zarr",
        height=height,
        width=width,
        samples=samples,
        dtype=np.dtype(array.dtype),
        colour=samples >= 3,
        alpha=UNASSOCIATED_ALPHA if samples in (2, 4) else None,
        inverted=False,
        segment=("chunk", chunk[0], chunk[1], math.prod(chunk[2:]) * array.dtype.itemsize),
    )
    _check_samples(layout)
    return layout


def _check_samples(layout: FileLayout) -> None:
    dtype = layout.dtype
    if not (dtype == np.bool_ or dtype.kind == "f" or (dtype.kind in "iu" and dtype.itemsize <= 4)):
        raise _unsupported(
            layout.path,
            f"its samples are {pixel_type_words(dtype)}; BlurApp reads integers of up to "
            "32 bits, or floats",
        )
    if layout.height < 1 or layout.width < 1:
        raise PhotoError(layout.path, QT_TRANSLATE_NOOP("FileProblem", "the image has no pixels"))


def _unsupported(path: Path, reason: str) -> PhotoError:
    return PhotoError(
        path,
        QT_TRANSLATE_NOOP("FileProblem", "this kind of image is not supported: {reason}"),
        reason=reason,
    )


def has_colour(path: str | os.PathLike[str]) -> bool:
    """Whether the TIFF or zarr image at `path` holds colour, as far as its header says (False
    when it cannot be read: the blur itself will say why)."""
    try:
        return _read_layout(path).colour
    except (PhotoError, OSError):
        return False


def needs_tiles(path: str | os.PathLike[str], *, color: bool = False) -> bool:
    """Whether the image at `path` must be blurred in tiles rather than loaded whole.

    True for a TIFF or BigTIFF with more pixels than Pillow's Image.MAX_IMAGE_PIXELS allows,
    or whose blur in memory (WORKING_BYTES_PER_PIXEL a pixel and channel) would not fit in the
    memory available; and for any zarr folder, which only the tiled path reads (and so says
    what is wrong with one it cannot blur). Reads only the header. Anything else, unreadable
    files included, is False: loading it whole says why.
    """
    from PIL import Image

    folder = Path(path)
    if folder.is_dir() and is_zarr_folder(folder):
        return True
    try:
        layout = _read_layout(path)
    except (PhotoError, MissingExtraError):
        return False
    if layout.kind == "zarr":
        return True
    limit = Image.MAX_IMAGE_PIXELS
    if limit is not None and layout.pixels > limit:
        return True
    channels = 3 if color and layout.colour else 1
    available = available_memory()
    needed = layout.pixels * channels * WORKING_BYTES_PER_PIXEL
    return available is not None and needed > available


class _StoredSamples:
    """An image's stored samples (rows × columns × samples, as stored), read on demand for the
    region asked for: what Dask's blocks slice.

    It pickles as its layout, so a distributed worker opens the file itself.
    """

    def __init__(self, layout: FileLayout) -> None:
        self.layout = layout
        self.shape: tuple[int, ...] = (layout.height, layout.width, layout.samples)
        self.ndim = 3
        self.dtype = layout.dtype
        self._stored: Any = None
        self._lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:
        return {"layout": self.layout}

    def __setstate__(self, state: dict[str, Any]) -> None:
        _StoredSamples.__init__(self, state["layout"])

    def _open(self) -> Any:
        with self._lock:
            if self._stored is None:
                if self.layout.kind == "zarr":
                    self._stored = open_zarr(self.layout.path)
                else:
                    tiles = TiffTiles(self.layout.path)
                    # The file stays open for the blocks still to read, and closes with this.
                    weakref.finalize(self, tiles.close)
                    self._stored = tiles
            return self._stored

    def _read(self, rows: Any, columns: Any) -> np.ndarray:
        layout = self.layout
        try:
            stored = self._open()
            if isinstance(stored, TiffTiles):  # a TIFF's planes too (zarr arrays have none)
                return stored.region(rows, columns)
            if stored.ndim == 2:  # one sample a pixel, stored without a samples axis
                return np.asarray(stored[rows, columns])[..., None]
            return np.asarray(stored[rows, columns, :])
        except PhotoError:
            raise
        except SegmentTooLarge as error:
            raise segment_too_large(layout.path, error) from error
        except Exception as error:  # a codec's error for a damaged tile has no common base
            raise damaged(layout.path, error) from error

    def __getitem__(self, index: Any) -> np.ndarray:
        if not isinstance(index, tuple):
            index = (index,)
        index = index + (slice(None),) * (self.ndim - len(index))
        return self._read(index[0], index[1])[(slice(None), slice(None), *index[2:])]


def _with_white(layout: FileLayout, block: int) -> FileLayout:
    """`layout` with its white level, as the whole-image loader decides it: from the type
    alone where it can, else from the range of the values, read once by blocks first."""
    dtype = layout.dtype
    try:
        if dtype == np.uint8 and 1 < layout.bits < 8:
            white = float(2**layout.bits - 1)
        elif dtype in (np.bool_, np.uint8, np.uint16):
            white = white_level(dtype, 0, 0)
        else:
            import dask

            da = dask_array()
            samples = da.from_array(
                _StoredSamples(layout),
                chunks=(block, block, -1),
                lock=False,
                asarray=False,
                meta=np.empty((0, 0, 0), dtype),
            )
            # Only the grey or colour samples: alpha is not a level.
            levels = samples[..., : 3 if layout.colour else 1]
            low, high = dask.compute(levels.min(), levels.max(), scheduler="threads")
            white = white_level(dtype, low.item(), high.item())
    except UnsupportedPixels as error:
        raise _unsupported(layout.path, str(error)) from error
    return dataclasses.replace(layout, white=white)


def _check_tiff_holds_its_image(path: Path) -> None:
    import tifffile

    try:
        with open(path, "rb") as file, tifffile.TiffFile(file) as tiff:
            page = tiff.pages.first
            offsets, counts = page.dataoffsets, page.databytecounts
            needed = math.prod(page.chunked)
            size = os.fstat(file.fileno()).st_size
    except OSError as error:
        raise os_problem(path, error) from error
    check_tiff_data(path, offsets, counts, size)
    if len(offsets) < needed:  # the last row of tiles left out, say: pixels it does not hold
        raise damaged(
            path, f"it lists {len(offsets):,} of the {needed:,} strips or tiles its image needs"
        )


def open_samples(
    path: str | os.PathLike[str],
    block: int,
    *,
    before_reading: Callable[[FileLayout], object] | None = None,
) -> tuple[dask.array.Array, FileLayout]:
    """The image at `path` as a lazy Dask array of its stored samples (height × width ×
    samples, upright), in chunks of `block` × `block` pixels, and its layout (white known).
    `before_reading(layout)` is called before any pixel is read (an image whose white is
    found from its values is read whole for that). Raises PhotoError, MissingExtraError."""
    da = dask_array()
    block = _check_block(block)
    layout = _read_layout(path)
    if layout.kind == "tiff":
        _check_tiff_holds_its_image(layout.path)
    kind, rows, columns, pixel_bytes = layout.segment
    check_segment_fits(layout.path, kind, (rows, columns), pixel_bytes)
    if before_reading is not None:
        before_reading(layout)
    layout = _with_white(layout, block)
    from dask.base import tokenize

    stat = os.stat(layout.path)
    name = "blurapp-read-" + tokenize(str(layout.path), stat.st_mtime_ns, stat.st_size, block)
    samples = da.from_array(
        _StoredSamples(layout),
        chunks=(block, block, -1),
        name=name,
        lock=False,
        asarray=False,
        meta=np.empty((0, 0, 0), layout.dtype),
    )
    # Upright as the whole-image loader shows it (lazily: slices and swapped axes of blocks).
    return UPRIGHT[layout.orientation](samples), layout


def samples_to_pixels(samples: np.ndarray, *, layout: FileLayout, color: bool) -> np.ndarray:
    """A block of `layout`'s stored samples as the engines' float32 pixels (the whole-image
    loader's rule, blurapp.core.media.pixels.samples_to_float): grey, or colour when `color` and
    the image has it."""
    assert layout.white is not None, "a layout's white is found before its pixels are read"
    return samples_to_float(
        samples,
        white=layout.white,
        colour=layout.colour,
        alpha=layout.alpha,
        inverted=layout.inverted,
        in_colour=color and layout.colour,
    )


def lazy_pixels(samples: dask.array.Array, layout: FileLayout, color: bool) -> dask.array.Array:
    """The lazy float32 pixels of an array of stored samples, block by block."""
    options: dict[str, Any] = {"layout": layout, "color": color}
    if color and layout.colour:  # red, green and blue, whatever else a pixel stores
        options["chunks"] = (*samples.chunks[:2], (3,))
        meta = np.empty((0, 0, 0), np.float32)
    else:
        options["drop_axis"] = 2
        meta = np.empty((0, 0), np.float32)
    return samples.map_blocks(samples_to_pixels, dtype=np.float32, meta=meta, **options)


def _check_block(block: int) -> int:
    if isinstance(block, bool) or not isinstance(block, int | np.integer) or block < 1:
        raise ValueError(f"block must be a whole number of pixels, at least 1, not {block!r}")
    return int(block)


def open_tiled(
    path: str | os.PathLike[str], *, color: bool = False, block: int = DEFAULT_BLOCK
) -> dask.array.Array:
    """The TIFF, BigTIFF or zarr image at `path` as a lazy float32 Dask array in [0, 1].

    Height × width, or height × width × 3 when `color` and the image has colour; chunks of
    `block` × `block` pixels (the channels in one chunk). Only the tiles a block needs are read,
    when it is computed. Samples become pixels as the whole-image loader makes them
    (blurapp.core.media.pixels.samples_to_float: integers wider than 16 bits and floats are read
    once first for their range), colour becomes grey by LUMA_WEIGHTS unless `color`, alpha
    is composited over white. Raises PhotoError
    naming the file (missing, not a TIFF, damaged), MissingExtraError without Dask.
    """
    samples, layout = open_samples(path, block)
    return lazy_pixels(samples, layout, color)
