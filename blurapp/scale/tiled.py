"""Blurring images too large to hold in memory: read tile by tile, blurred block by block with
Dask, written band by band.

A gigapixel TIFF (or a zarr array) is opened lazily as float32 blocks (`open_tiled`); each
block is blurred by an engine with a halo of the kernel's radius borrowed from its neighbours
(`blur_tiled`), so the result has no seams and the image's outer edges are padded as the
engines pad them; `blur_file_tiled` computes one row of blocks at a time and streams it into a
tiled BigTIFF or a .npy file, so memory holds a band, not the image. The same graph runs on a
`distributed` cluster. Dask, distributed and zarr come with the `scale` extra and are imported
only here, when they are used.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import os
import shutil
import stat
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np

from blurapp.core.engines import REFERENCE_ENGINE
from blurapp.core.photo import UPRIGHT
from blurapp.core.photo_checks import (
    WORKING_BYTES_PER_PIXEL,
    PhotoError,
    available_memory,
    check_is_readable_file,
    check_tiff_data,
    os_problem,
)
from blurapp.core.pixels import (
    ASSOCIATED_ALPHA,
    UNASSOCIATED_ALPHA,
    UnsupportedPixels,
    pixel_type_words,
    samples_to_float,
    white_level,
)
from blurapp.core.runs import BlurCancelled, Cancelled
from blurapp.core.saving import OutputError, check_output_path, write_atomically
from blurapp.core.wording import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    import dask.array

SCALE_EXTRA = "pip install 'blurapp[scale]'"
# Blocks of 2048 × 2048: a 9 × 9 kernel's halo adds under 1 % to each, and 16 of them span a
# 32768-pixel row. Measured (blurapp.bench.scale.measure_gigapixel, 1 gigapixel, 9 × 9, this 2-core
# machine under load): 2048 took 119 s at 0.97 GB peak; 1024 took 146 s at 0.43 GB (four
# times the blocks).
DEFAULT_BLOCK = 2048
# The written TIFF's tiles: small enough that a viewer reads little to show a corner.
OUTPUT_TILE = (256, 256)
OUTPUT_EXTENSIONS = (".tif", ".tiff", ".npy")
_TIFF_EXTENSIONS = {".tif", ".tiff", ".btf", ".tf8"}

# progress(done_blocks, total_blocks), called as each band of blocks is written.
BlockProgress = Callable[[int, int], None]


class MissingExtraError(RuntimeError):
    """Blurring in tiles needs packages of the `scale` extra that are not installed."""


class ClusterError(RuntimeError):
    """The Dask scheduler given could not be reached."""


@dataclass(frozen=True)
class TiledResult:
    """What blur_file_tiled wrote: the image's size, and how long it took in how many blocks."""

    width: int
    height: int
    channels: int  # 1 (grayscale) or 3 (colour)
    seconds: float
    blocks: int


def _dask_array() -> Any:
    try:
        import dask.array
    except ImportError as error:
        raise MissingExtraError(
            f"blurring an image in tiles needs Dask, which is not installed: {SCALE_EXTRA}"
        ) from error
    return dask.array


def _zarr() -> Any:
    try:
        import zarr
    except ImportError as error:
        raise MissingExtraError(
            f"reading an image in tiles needs zarr, which is not installed: {SCALE_EXTRA}"
        ) from error
    return zarr


def _open_zarr(path: Path) -> Any:
    """The zarr array in the folder `path`, read only from regular files."""
    zarr = _zarr()
    from zarr.storage import LocalStore

    class RegularFilesStore(LocalStore):
        # zarr's own store opens each chunk by name: a FIFO put in a chunk's place would
        # block that read (and the program) until something writes to it.
        def get_sync(self, key: str, *, prototype: Any = None, byte_range: Any = None) -> Any:
            _check_regular(self.root / key)
            return super().get_sync(key, prototype=prototype, byte_range=byte_range)

        async def get(self, key: str, prototype: Any = None, byte_range: Any = None) -> Any:
            _check_regular(self.root / key)
            return await super().get(key, prototype=prototype, byte_range=byte_range)

    return zarr.open_array(RegularFilesStore(path, read_only=True), mode="r")


def _check_regular(path: Path) -> None:
    """Refuse a chunk or metadata file of a zarr array that is not a regular file; a missing
    one is left to zarr (an absent chunk holds the fill value)."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return
    except OSError as error:
        raise os_problem(path, error) from error
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise PhotoError(path, QT_TRANSLATE_NOOP("FileProblem", "this is not a regular file"))


# --- What the file holds --------------------------------------------------------------------


@dataclass(frozen=True)
class _Layout:
    """How a file's first image stores its pixels, read from its header alone."""

    path: Path
    kind: str  # "tiff" or "zarr"
    height: int
    width: int
    samples: int  # per pixel, alpha included
    planar: bool  # samples stored as separate planes (TIFF SYX) rather than per pixel (YXS)
    dtype: np.dtype
    colour: bool  # red, green and blue samples
    alpha: int | None  # ASSOCIATED_ALPHA, UNASSOCIATED_ALPHA or None
    inverted: bool  # TIFF MinIsWhite: 0 is white
    orientation: int = 1  # the TIFF Orientation tag, as EXIF's: how to turn it upright
    # The stored value of white (blurapp.core.pixels.white_level); None until the values
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


def _read_layout(path: str | os.PathLike[str]) -> _Layout:
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


def _tiff_layout(path: Path) -> _Layout:
    import tifffile

    try:
        with tifffile.TiffFile(path) as tiff:
            page = tiff.pages.first
            shape, axes, dtype = page.shape, page.axes, np.dtype(page.dtype)
            photometric, extrasamples = int(page.photometric), tuple(page.extrasamples)
            jpeg = page.compression == tifffile.COMPRESSION.JPEG
            orientation = int(page.tags.valueof(274, 1) or 1)
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
    planar = axes == "SYX"
    if axes == "YX":
        height, width, samples = *shape, 1
    elif planar:
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
    layout = _Layout(
        path=path,
        kind="tiff",
        height=height,
        width=width,
        samples=samples,
        planar=planar,
        dtype=dtype,
        colour=colour,
        alpha=alpha,
        inverted=photometric == tifffile.PHOTOMETRIC.MINISWHITE,
        orientation=orientation if orientation in range(1, 9) else 1,
    )
    _check_samples(layout)
    return layout


def _zarr_layout(path: Path) -> _Layout:
    try:
        array = _open_zarr(path)
    except PhotoError:
        raise
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
    layout = _Layout(
        path=path,
        kind="zarr",
        height=height,
        width=width,
        samples=samples,
        planar=False,
        dtype=np.dtype(array.dtype),
        colour=samples >= 3,
        alpha=UNASSOCIATED_ALPHA if samples in (2, 4) else None,
        inverted=False,
    )
    _check_samples(layout)
    return layout


def _check_samples(layout: _Layout) -> None:
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


# --- Reading ----------------------------------------------------------------------------------


class _StoredSamples:
    """An image's stored samples (rows × columns × samples, as stored), read on demand for the
    region asked for: what Dask's blocks slice.

    It pickles as its layout, so a distributed worker opens the file itself.
    """

    def __init__(self, layout: _Layout) -> None:
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
                zarr = _zarr()
                if self.layout.kind == "zarr":
                    self._stored = _open_zarr(self.layout.path)
                else:
                    import tifffile

                    tiff = tifffile.TiffFile(self.layout.path)
                    store = tiff.aszarr(key=0)
                    # The file stays open for the blocks still to read, and closes with this.
                    weakref.finalize(self, _close_all, store, tiff)
                    self._stored = zarr.open_array(store, mode="r")
            return self._stored

    def _read(self, rows: Any, columns: Any) -> np.ndarray:
        layout = self.layout
        try:
            stored = self._open()
            if layout.planar:
                return np.moveaxis(np.asarray(stored[:, rows, columns]), 0, -1)
            if stored.ndim == 2:  # one sample a pixel, stored without a samples axis
                return np.asarray(stored[rows, columns])[..., None]
            return np.asarray(stored[rows, columns, :])
        except PhotoError:
            raise
        except Exception as error:  # a codec's error for a damaged tile has no common base
            raise PhotoError(
                layout.path,
                QT_TRANSLATE_NOOP(
                    "FileProblem", "the file is damaged or not a valid image ({reason})"
                ),
                reason=error,
            ) from error

    def __getitem__(self, index: Any) -> np.ndarray:
        if not isinstance(index, tuple):
            index = (index,)
        index = index + (slice(None),) * (self.ndim - len(index))
        return self._read(index[0], index[1])[(slice(None), slice(None), *index[2:])]


class _FloatPixels(_StoredSamples):
    """An image's pixels as float32 in [0, 1], read on demand for the region asked for, as the
    whole-image loader makes them (blurapp.core.pixels.samples_to_float). Grey from colour
    unless `color`; alpha over white. `layout.white` must be known."""

    def __init__(self, layout: _Layout, color: bool) -> None:
        super().__init__(layout)
        self.color = color and layout.colour
        self.shape = (
            (layout.height, layout.width, 3) if self.color else (layout.height, layout.width)
        )
        self.ndim = len(self.shape)
        self.dtype = np.dtype(np.float32)

    def __getstate__(self) -> dict[str, Any]:
        return {"layout": self.layout, "color": self.color}

    def __setstate__(self, state: dict[str, Any]) -> None:
        _FloatPixels.__init__(self, state["layout"], state["color"])

    def __getitem__(self, index: Any) -> np.ndarray:
        if not isinstance(index, tuple):
            index = (index,)
        index = index + (slice(None),) * (self.ndim - len(index))
        layout = self.layout
        assert layout.white is not None, "a layout's white is found before its pixels are read"
        values = samples_to_float(
            self._read(index[0], index[1]),
            white=layout.white,
            colour=layout.colour,
            alpha=layout.alpha,
            inverted=layout.inverted,
            in_colour=self.color,
        )
        return values[(slice(None), slice(None), *index[2:])]


def _close_all(*files: Any) -> None:
    for file in files:
        with contextlib.suppress(Exception):
            file.close()


def _with_white(layout: _Layout, block: int) -> _Layout:
    """`layout` with its white level, as the whole-image loader decides it: from the type
    alone where it can, else from the range of the values, read once by blocks first."""
    dtype = layout.dtype
    try:
        if dtype in (np.bool_, np.uint8, np.uint16):
            white = white_level(dtype, 0, 0)
        else:
            import dask

            da = _dask_array()
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
            size = os.fstat(file.fileno()).st_size
    except OSError as error:
        raise os_problem(path, error) from error
    check_tiff_data(path, offsets, counts, size)


def _open_pixels(
    path: str | os.PathLike[str], color: bool, block: int
) -> tuple[dask.array.Array, _Layout]:
    da = _dask_array()
    block = _check_block(block)
    layout = _read_layout(path)
    if layout.kind == "tiff":
        _check_tiff_holds_its_image(layout.path)
    layout = _with_white(layout, block)
    pixels = _FloatPixels(layout, color)
    chunks = (block, block, 3) if pixels.ndim == 3 else (block, block)
    from dask.base import tokenize

    stat = os.stat(layout.path)
    name = "blurapp-read-" + tokenize(
        str(layout.path), stat.st_mtime_ns, stat.st_size, color, block
    )
    array = da.from_array(
        pixels,
        chunks=chunks,
        name=name,
        lock=False,
        asarray=False,
        meta=np.empty((0,) * pixels.ndim, np.float32),
    )
    # Upright as the whole-image loader shows it (lazily: slices and swapped axes of blocks).
    return UPRIGHT[layout.orientation](array), layout


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
    (blurapp.core.pixels.samples_to_float: integers wider than 16 bits and floats are read
    once first for their range), colour becomes grey by LUMA_WEIGHTS unless `color`, alpha
    is composited over white. Raises PhotoError
    naming the file (missing, not a TIFF, damaged), MissingExtraError without Dask.
    """
    return _open_pixels(path, color, block)[0]


# --- Blurring ---------------------------------------------------------------------------------


def _check_kernel(kernel: np.ndarray) -> np.ndarray:
    kernel = np.asarray(kernel, dtype=np.float32)
    square = kernel.ndim == 2 and kernel.shape[0] == kernel.shape[1]
    if not (kernel.ndim == 1 or square) or kernel.shape[0] % 2 == 0:
        raise ValueError(f"expected an odd k×k or k-long kernel, got shape {kernel.shape}")
    return kernel


def _blur_block(block: np.ndarray, *, kernel: np.ndarray, engine: str) -> np.ndarray:
    """One block (halo included) blurred by `engine`, in strips of rows where that is faster
    (its Engine.strip_rows): each strip carries the kernel's radius of rows above and below,
    and keeps its middle."""
    from blurapp.core.engines import get_engine

    image = np.ascontiguousarray(block, dtype=np.float32)
    runner = get_engine(engine)
    rows = runner.strip_rows
    radius = kernel.shape[0] // 2
    if rows is None or image.shape[0] <= rows + 2 * radius:
        return np.asarray(runner.blur(image, kernel, repeats=0).output, dtype=np.float32)
    output = np.empty(image.shape, np.float32)
    for top in range(0, image.shape[0], rows):
        bottom = min(top + rows, image.shape[0])
        start, stop = max(top - radius, 0), min(bottom + radius, image.shape[0])
        strip = runner.blur(image[start:stop], kernel, repeats=0).output
        output[top:bottom] = strip[top - start : top - start + bottom - top]
    return output


def blur_tiled(
    array: dask.array.Array, kernel: np.ndarray, engine: str = REFERENCE_ENGINE
) -> dask.array.Array:
    """`array` (float32, H×W or H×W×C) blurred block by block by `engine`: a lazy float32 array.

    Each block is blurred with a halo of the kernel's radius from its neighbours, then trimmed,
    so the blocks meet without seams; the image's outer edges repeat their border pixels, as
    the engines' own padding does (scipy.ndimage.correlate's mode="nearest").
    """
    da = _dask_array()
    from blurapp.core.engines import get_engine

    get_engine(engine)  # an unknown name fails here, not in the first block
    kernel = _check_kernel(kernel)
    radius = kernel.shape[0] // 2
    height, width = array.shape[:2]
    if radius >= min(height, width):
        # Dask's halo cannot be wider than the image: repeat the edges by the radius first
        # (what "nearest" would give), blur, and keep the middle.
        edges = ((radius, radius), (radius, radius), *[(0, 0)] * (array.ndim - 2))
        padded = da.pad(array, edges, mode="edge")
        return blur_tiled(padded, kernel, engine)[radius : radius + height, radius : radius + width]
    depth = {0: radius, 1: radius}
    boundary = {0: "nearest", 1: "nearest"}
    if array.ndim == 3:
        depth[2], boundary[2] = 0, "none"
        if len(array.chunks[2]) > 1:
            array = array.rechunk({2: -1})  # every channel of a pixel in one block
    return da.map_overlap(
        _blur_block,
        array.astype(np.float32),
        depth=depth,
        boundary=boundary,
        dtype=np.float32,
        meta=np.empty((0,) * array.ndim, np.float32),
        kernel=kernel,
        engine=engine,
    )


def _to_levels_block(block: np.ndarray, *, levels: type[np.unsignedinteger]) -> np.ndarray:
    from blurapp.core.saving import to_8bit, to_16bit

    return to_8bit(block) if levels == np.uint8 else to_16bit(block)


# --- Writing ----------------------------------------------------------------------------------


# Dask's own schedulers by name; any other text is a cluster's address (tcp://host:8786, or
# host:8786 as distributed takes it too).
_LOCAL_SCHEDULERS = {
    "threads",
    "threading",
    "sync",
    "synchronous",
    "single-threaded",
    "processes",
    "multiprocessing",
}


@contextlib.contextmanager
def _dask_scheduler(scheduler: Any) -> Iterator[Any]:
    """What dask's compute takes as `scheduler`: the local threads for None, a Client of the
    cluster at an address ("tcp://host:port", closed after), or `scheduler` itself."""
    if scheduler is None:
        yield "threads"
        return
    if not isinstance(scheduler, str) or scheduler in _LOCAL_SCHEDULERS:
        yield scheduler
        return
    client = connect_to_cluster(scheduler)
    try:
        yield client
    finally:
        client.close()


def connect_to_cluster(address: str) -> Any:
    """A distributed Client of the scheduler at `address` ("tcp://host:port", or "host:port").

    Raises ClusterError for text that is no such address, before any connection is tried (a
    Client that fails to start takes a minute to give up while Python exits), and for a
    scheduler that cannot be reached; MissingExtraError without distributed.
    """
    try:
        import distributed
        from distributed.comm import registry
        from distributed.comm.addressing import parse_address, parse_host_port
    except ImportError as error:
        raise MissingExtraError(
            f"computing on a Dask cluster needs distributed, which is not installed: {SCALE_EXTRA}"
        ) from error
    try:
        scheme, location = parse_address(address)
        registry.get_backend(scheme)
        if scheme == "inproc":  # a scheduler inside this very process
            raise ValueError("inproc:// reaches only a scheduler in the same process")
        host, port = parse_host_port(location)
        if not host or not 0 < port < 65536:
            raise ValueError(f"no host and port (1–65535) in {location!r}")
    except ValueError as error:
        raise ClusterError(
            f"{address!r} is not the address of a Dask scheduler (tcp://HOST:PORT): {error}"
        ) from None
    try:
        return distributed.Client(address, set_as_default=False, timeout=30)
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {error}") from error


def blur_file_tiled(
    source: str | os.PathLike[str],
    output: str | os.PathLike[str],
    *,
    kernel: np.ndarray,
    engine: str = REFERENCE_ENGINE,
    color: bool = False,
    scheduler: Any = None,
    progress: BlockProgress | None = None,
    block: int = DEFAULT_BLOCK,
    description: Mapping[str, str] | None = None,
    cancelled: Cancelled | None = None,
) -> TiledResult:
    """Blur the TIFF, BigTIFF or zarr image `source` in tiles into `output`, never holding more
    than a row of blocks of it. Returns what was written.

    `output` ending .tif/.tiff: a tiled BigTIFF of 8-bit levels for an 8-bit source, 16-bit
    otherwise, `description` (what made it) as JSON in its ImageDescription; .npy: the float32
    blur. Written atomically (a temporary file beside it, renamed into place); the source is
    never written over. `scheduler`: None for Dask's local threads, "tcp://host:port" for a
    distributed cluster (its workers need BlurApp and the file), or anything dask's compute
    takes. `progress(done_blocks, total_blocks)` is called from this thread as each row of
    blocks is written; `cancelled()` is checked between rows (BlurCancelled).
    Raises PhotoError, OutputError, MissingExtraError, ClusterError.
    """
    start = time.perf_counter()
    output = Path(os.path.abspath(output))
    extension = output.suffix.lower()
    if extension not in OUTPUT_EXTENSIONS:
        raise OutputError(
            output,
            QT_TRANSLATE_NOOP(
                "FileProblem", "an image blurred in tiles is written as {accepted}, not {extension}"
            ),
            accepted=", ".join(OUTPUT_EXTENSIONS),
            extension=repr(extension or "(none)"),
        )
    check_output_path(output, source=source)
    array, layout = _open_pixels(source, color, block)
    blurred = blur_tiled(array, kernel, engine)
    if extension == ".npy":
        levels_dtype = None
        result = blurred
    else:
        levels_dtype = np.uint8 if layout.bit_depth == 8 else np.uint16
        # Levels in the blocks: a band's result is 1 or 2 bytes a pixel, not 4.
        # Array.map_blocks is typed as functools.wraps of the module's map_blocks: no bound self.
        result = blurred.map_blocks(_to_levels_block, dtype=levels_dtype, levels=levels_dtype)  # type: ignore[call-arg, arg-type]
    _check_fits_on_disk(output, result.shape, result.dtype)
    band_edges = np.cumsum((0, *result.chunks[0]))
    total = result.npartitions
    blocks_per_band = total // len(result.chunks[0])

    with _dask_scheduler(scheduler) as chosen:

        def bands() -> Iterator[np.ndarray]:
            for number, (top, bottom) in enumerate(itertools.pairwise(band_edges), start=1):
                if cancelled is not None and cancelled():
                    raise BlurCancelled
                try:
                    band = result[int(top) : int(bottom)].compute(scheduler=chosen)
                except RuntimeError:
                    # Stopped while a row was in hand: a program exiting (its window closed)
                    # shuts down the thread pools under that row. A cancelled blur, not a failure.
                    if cancelled is not None and cancelled():
                        raise BlurCancelled from None
                    raise
                yield band
                if progress is not None:
                    progress(number * blocks_per_band, total)

        if levels_dtype is None:
            write_atomically(output, lambda file: _write_npy(file, result.shape, bands()))
        else:
            write_atomically(
                output,
                lambda file: _write_tiff(
                    file, result.shape, levels_dtype, bands(), description=description
                ),
            )
    return TiledResult(
        width=int(result.shape[1]),
        height=int(result.shape[0]),
        channels=3 if result.ndim == 3 else 1,
        seconds=time.perf_counter() - start,
        blocks=total,
    )


def _check_fits_on_disk(output: Path, shape: tuple[int, ...], dtype: np.dtype) -> None:
    """Refuse, before any block is blurred, an output larger than the free space beside it."""
    height, width = shape[:2]
    channels = shape[2] if len(shape) == 3 else 1
    if dtype != np.float32:  # tiled TIFF: its last row and column of tiles are padded
        height = -(-height // OUTPUT_TILE[0]) * OUTPUT_TILE[0]
        width = -(-width // OUTPUT_TILE[1]) * OUTPUT_TILE[1]
    needed = height * width * channels * np.dtype(dtype).itemsize
    try:
        free = shutil.disk_usage(output.parent).free
    except OSError:
        return  # writing it will say what is wrong with the folder
    if needed > free:
        raise OutputError(
            output,
            QT_TRANSLATE_NOOP(
                "FileProblem",
                "there is not enough free space for it: it would take about {needed} GB, "
                "and {free} GB is free",
            ),
            needed=f"{needed / 1e9:,.1f}",
            free=f"{free / 1e9:,.1f}",
        )


def _write_npy(file: BinaryIO, shape: tuple[int, ...], bands: Iterator[np.ndarray]) -> None:
    header = {"descr": np.lib.format.dtype_to_descr(np.dtype("<f4")), "fortran_order": False}
    np.lib.format.write_array_header_2_0(file, {**header, "shape": tuple(shape)})
    for band in bands:  # rows in order: C order is the bands one after another
        file.write(np.ascontiguousarray(band, dtype="<f4").data)


def _write_tiff(
    file: BinaryIO,
    shape: tuple[int, ...],
    dtype: type[np.unsignedinteger],
    bands: Iterator[np.ndarray],
    *,
    description: Mapping[str, str] | None,
) -> None:
    import tifffile

    # Named, as tifffile wants of a stream; the name is only shown in its messages.
    handle = tifffile.FileHandle(file, mode="wb", name="blurred.tif")
    tifffile.imwrite(
        handle,
        data=_tiles(bands, OUTPUT_TILE),
        shape=tuple(shape),
        dtype=dtype,
        tile=OUTPUT_TILE,
        bigtiff=True,
        photometric="rgb" if len(shape) == 3 else "minisblack",
        planarconfig="contig" if len(shape) == 3 else None,
        description=json.dumps(dict(description)) if description else None,  # 7-bit, as TIFF wants
        metadata=None,
        software="BlurApp",
    )


def _tiles(bands: Iterator[np.ndarray], tile: tuple[int, int]) -> Iterator[np.ndarray]:
    """The tiles of an image given as bands of whole rows, in row-major order (the last ones
    of a row or column cut short: tifffile pads them)."""
    tile_height = tile[0]
    pending: np.ndarray | None = None
    for band in bands:
        pending = band if pending is None else np.concatenate([pending, band])
        whole = pending.shape[0] - pending.shape[0] % tile_height
        yield from _tile_rows(pending[:whole], tile)
        pending = pending[whole:]
    if pending is not None and len(pending):
        yield from _tile_rows(pending, tile)


def _tile_rows(rows: np.ndarray, tile: tuple[int, int]) -> Iterator[np.ndarray]:
    tile_height, tile_width = tile
    for top in range(0, rows.shape[0], tile_height):
        for left in range(0, rows.shape[1], tile_width):
            yield rows[top : top + tile_height, left : left + tile_width]
