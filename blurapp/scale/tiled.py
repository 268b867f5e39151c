"""Blurring images too large to hold in memory: read tile by tile, blurred block by block with
Dask, written band by band.

A gigapixel TIFF (or a zarr array) is opened lazily as blocks of its stored samples; each block
is blurred by an engine with a halo of the kernel's radius borrowed from its neighbours, so the
result has no seams and the image's outer edges are padded as the engines pad them. A block
becomes the engines' float32 pixels inside its own task, or goes as its levels to an engine's
levels call (Blocks.levels_call). `blur_file_tiled` computes a row of blocks at a time (and,
straight to levels, the next while this one is written) and streams them into a tiled BigTIFF or
a .npy file, so memory holds a band or two, not the image. `open_tiled` and `blur_tiled` give
the same as lazy float32 arrays. The same graph runs on a `distributed` cluster. Dask,
distributed and zarr come with the `scale` extra and are imported only here, when they are used.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from blurapp.core.engines import DEFAULT_ENGINE, get_engine
from blurapp.core.engines.runs import BlurCancelled, Cancelled
from blurapp.core.media.saving import (
    OutputError,
    check_output_path,
    to_8bit,
    to_16bit,
    write_atomically,
)
from blurapp.core.wording import QT_TRANSLATE_NOOP
from blurapp.scale.scheduler import (
    computing,
    dask_array,
)
from blurapp.scale.tiled_read import (
    DEFAULT_BLOCK,
    FileLayout,
    lazy_pixels,
    open_samples,
    samples_to_pixels,
)
from blurapp.scale.tiled_write import (
    OUTPUT_EXTENSIONS,
    check_fits_on_disk,
    write_npy,
    write_tiff,
)

if TYPE_CHECKING:
    import dask.array


# progress(blocks done, blocks in all, megapixels written so far), called as each row of
# blocks is written (as a batch reports its photos).
BlockProgress = Callable[[int, int, float], None]


@dataclass(frozen=True)
class TiledResult:
    """What blur_file_tiled wrote: the image's size, and how long it took in how many blocks."""

    width: int
    height: int
    channels: int  # 1 (grayscale) or 3 (colour)
    seconds: float
    blocks: int


# --- Blurring ---------------------------------------------------------------------------------


def _check_kernel(kernel: np.ndarray) -> np.ndarray:
    kernel = np.asarray(kernel, dtype=np.float32)
    square = kernel.ndim == 2 and kernel.shape[0] == kernel.shape[1]
    if not (kernel.ndim == 1 or square) or kernel.shape[0] % 2 == 0:
        raise ValueError(f"expected an odd k×k or k-long kernel, got shape {kernel.shape}")
    return kernel


def _blur_block(
    block: np.ndarray, *, kernel: np.ndarray, engine: str, device: str = "auto"
) -> np.ndarray:
    """One block (halo included) blurred by `engine`, in strips of rows where that is faster
    (its Blocks.strip_rows): each strip carries the kernel's radius of rows above and below,
    and keeps its middle."""
    image = np.ascontiguousarray(block, dtype=np.float32)
    runner = get_engine(engine)
    rows = runner.blocks.strip_rows
    radius = kernel.shape[0] // 2
    if rows is None or image.shape[0] <= rows + 2 * radius:
        return np.asarray(
            runner.blur(image, kernel, repeats=0, device=device).output, dtype=np.float32
        )
    output = np.empty(image.shape, np.float32)
    for top in range(0, image.shape[0], rows):
        bottom = min(top + rows, image.shape[0])
        start, stop = max(top - radius, 0), min(bottom + radius, image.shape[0])
        strip = runner.blur(image[start:stop], kernel, repeats=0, device=device).output
        output[top:bottom] = strip[top - start : top - start + bottom - top]
    return output


def blur_tiled(
    array: dask.array.Array,
    kernel: np.ndarray,
    engine: str = DEFAULT_ENGINE,
    *,
    device: str = "auto",
) -> dask.array.Array:
    """`array` (float32, H×W or H×W×C) blurred block by block by `engine` (a JAX one on
    `device`, as Engine.start takes it): a lazy float32 array.

    Each block is blurred with a halo of the kernel's radius from its neighbours, then trimmed,
    so the blocks meet without seams; the image's outer edges repeat their border pixels, as
    the engines' own padding does (scipy.ndimage.correlate's mode="nearest").
    """
    get_engine(engine)  # an unknown name fails here, not in the first block
    kernel = _check_kernel(kernel)
    return _map_with_halo(
        array.astype(np.float32),
        kernel.shape[0] // 2,
        _blur_pixels_block,
        np.float32,
        ((array.shape[2],),) if array.ndim == 3 else (),  # every channel in one block
        kernel=kernel,
        engine=engine,
        device=device,
        levels=None,
    )


def _map_with_halo(
    array: dask.array.Array,
    radius: int,
    function: Callable[..., np.ndarray],
    dtype: Any,
    channels: tuple[tuple[int, ...], ...],
    **options: Any,
) -> dask.array.Array:
    """`function` over the blocks of `array` (H×W or H×W×C), each block with `radius` rows and
    columns of its neighbours on every side (the image's edges repeated past its border); it
    gives each block's result without that halo, of `dtype`, and `channels` (the chunks of a
    third axis; () for none)."""
    da = dask_array()
    height, width = array.shape[:2]
    if radius >= min(height, width):
        # Dask's halo cannot be wider than the image: repeat the edges by the radius first
        # (what "nearest" would give), blur, and keep the middle.
        edges = ((radius, radius), (radius, radius), *[(0, 0)] * (array.ndim - 2))
        padded = da.pad(array, edges, mode="edge")
        blurred = _map_with_halo(padded, radius, function, dtype, channels, **options)
        return blurred[radius : radius + height, radius : radius + width]
    from dask.array.overlap import ensure_minimum_chunksize

    depth = {0: radius, 1: radius}
    boundary = {0: "nearest", 1: "nearest"}
    # Blocks at least as wide as the halo (map_overlap would make them so itself, after the
    # chunks of the result below were worked out), and every channel of a pixel in one block.
    chunks = tuple(ensure_minimum_chunksize(radius, axis) for axis in array.chunks[:2])
    if array.ndim == 3:
        depth[2], boundary[2] = 0, "none"
        chunks += ((array.shape[2],),)
    if chunks != array.chunks:
        array = array.rechunk(chunks)
    return da.map_overlap(
        function,
        array,
        depth=depth,
        boundary=boundary,
        trim=False,  # each block's function leaves its halo out (of what it hands back, too)
        chunks=(*array.chunks[:2], *channels),
        drop_axis=[2] if array.ndim == 3 and not channels else [],
        dtype=dtype,
        meta=np.empty((0,) * (2 + len(channels)), dtype),
        **options,
    )


def _blur_pixels_block(
    block: np.ndarray,
    *,
    kernel: np.ndarray,
    engine: str,
    device: str,
    levels: type[np.unsignedinteger] | None,
) -> np.ndarray:
    """A block of float32 pixels with its halo blurred by `engine`, the halo left out, and
    rounded to `levels` (None: left float32)."""
    radius = kernel.shape[0] // 2
    height, width = block.shape[:2]
    blurred = _blur_block(block, kernel=kernel, engine=engine, device=device)
    blurred = blurred[radius : height - radius, radius : width - radius]
    return blurred if levels is None else _to_levels_block(blurred, levels=levels)


def _blur_stored_block(
    samples: np.ndarray,
    *,
    kernel: np.ndarray,
    engine: str,
    device: str,
    layout: FileLayout,
    color: bool,
    levels: type[np.unsignedinteger] | None,
    straight: bool,
) -> np.ndarray:
    """A block of the stored samples with its halo blurred into `levels` (float32 for None),
    the halo left out: `straight`, by one call of the engine's levels_call (see
    _straight_to_levels); else as floats (samples_to_pixels, the engine, then rounded to
    levels)."""
    runner = get_engine(engine)
    if straight and runner.blocks.levels_call is not None:  # (it has one when straight)
        values = samples[..., 0] if samples.shape[2] == 1 else samples
        return runner.levels(values, kernel, device=device)
    pixels = samples_to_pixels(samples, layout=layout, color=color)
    return _blur_pixels_block(pixels, kernel=kernel, engine=engine, device=device, levels=levels)


def _straight_to_levels(
    engine: str, layout: FileLayout, color: bool, levels: type[np.unsignedinteger] | None
) -> bool:
    """Whether the blocks go to the engine's levels_call as they are stored: written as
    levels, by an engine with a levels call, from samples that are those levels."""
    return (
        levels is not None
        and get_engine(engine).blocks.levels_call is not None
        and _stored_as_levels(layout, color, levels)
    )


def _stored_as_levels(layout: FileLayout, color: bool, levels: type[np.unsignedinteger]) -> bool:
    """Whether the stored samples are the pixels' levels as they are: of the levels' type on
    its full range, not inverted, and only the channels blurred (grey's one, or colour's three
    when blurred in colour; no alpha, no grey made from colour)."""
    return (
        layout.dtype == levels
        and layout.white == np.iinfo(levels).max  # not 4-bit levels held in bytes, say
        and not layout.inverted
        and layout.samples == (3 if color and layout.colour else 1)
    )


def _to_levels_block(block: np.ndarray, *, levels: type[np.unsignedinteger]) -> np.ndarray:
    return to_8bit(block) if levels == np.uint8 else to_16bit(block)


def blur_file_tiled(
    source: str | os.PathLike[str],
    output: str | os.PathLike[str],
    *,
    kernel: np.ndarray,
    engine: str = DEFAULT_ENGINE,
    device: str = "auto",
    color: bool = False,
    scheduler: Any = None,
    progress: BlockProgress | None = None,
    block: int = DEFAULT_BLOCK,
    description: Mapping[str, str] | None = None,
    cancelled: Cancelled | None = None,
) -> TiledResult:
    """Blur the TIFF, BigTIFF or zarr image `source` in tiles into `output`, never holding more
    than two rows of blocks of it. Returns what was written.

    `output` ending .tif/.tiff: a tiled BigTIFF of 8-bit levels for an 8-bit source, 16-bit
    otherwise, `description` (what made it) as JSON in its ImageDescription; .npy: the float32
    blur. Written atomically (a temporary file beside it, renamed into place); the source is
    never written over. `device`: where a JAX engine without a platform of its own blurs the
    blocks ("auto", "cpu", "gpu", "tpu"; Engine.platform_for). `scheduler`: None for this machine's
    threads, "tcp://host:port" for a
    distributed cluster (its workers need BlurApp and the file), or anything dask's compute
    takes. `progress(done_blocks, total_blocks, megapixels)` is called from this thread as each
    row of blocks is written; `cancelled()` is checked between rows (BlurCancelled).
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

    get_engine(engine)  # an unknown name fails here, not in the first block
    kernel = _check_kernel(kernel)

    def check_fits_from_the_header(layout: FileLayout) -> None:
        # Before the values of a float or 32-bit image are read for its white level (hours
        # for a huge one): its smallest possible output (8-bit levels) against the free space.
        channels = (3,) if color and layout.colour else ()
        smallest = np.dtype(np.float32 if extension == ".npy" else np.uint8)
        check_fits_on_disk(output, (layout.height, layout.width, *channels), smallest)

    samples, layout = open_samples(source, block, before_reading=check_fits_from_the_header)
    levels_dtype = None
    if extension != ".npy":
        levels_dtype = np.uint8 if layout.bit_depth == 8 else np.uint16
    straight = _straight_to_levels(engine, layout, color, levels_dtype)
    channels = ((3,),) if color and layout.colour else ()
    options = {"kernel": kernel, "engine": engine, "device": device, "levels": levels_dtype}
    radius = kernel.shape[0] // 2
    if straight or layout.dtype.itemsize * layout.samples <= 4 * (3 if channels else 1):
        # The stored samples cross each block's halo and become floats inside its task: a
        # quarter of the bytes of float32 pixels for an 8-bit image, and one task a block.
        result = _map_with_halo(
            samples, radius, _blur_stored_block, levels_dtype or np.float32, channels,
            layout=layout, color=color, straight=straight, **options,
        )  # fmt: skip
    else:  # samples wider than the pixels (16-bit RGBA made grey, say): pixels cross it
        pixels = lazy_pixels(samples, layout, color)
        result = _map_with_halo(
            pixels, radius, _blur_pixels_block, levels_dtype or np.float32, channels, **options
        )
    check_fits_on_disk(output, result.shape, result.dtype)
    band_edges = np.cumsum((0, *result.chunks[0]))
    total = result.npartitions
    blocks_per_band = total // len(result.chunks[0])

    with computing(scheduler) as compute:

        def row_of_blocks(edges: tuple[int, int]) -> np.ndarray:
            return compute(result[edges[0] : edges[1]])

        def bands() -> Iterator[np.ndarray]:
            rows = [(int(top), int(bottom)) for top, bottom in itertools.pairwise(band_edges)]
            # Straight to levels, the next row is blurred while this one is written: the
            # writing (mostly the kernel copying into its page cache) left the cores idle.
            # Through floats on the host it made NumPy slower (more fresh memory at once,
            # twice the system time), so those rows are blurred one after the other.
            ahead = ThreadPoolExecutor(1, thread_name_prefix="blurapp-next-row")
            coming: Future[np.ndarray] | None = None
            try:
                for number, edges in enumerate(rows, start=1):
                    if cancelled is not None and cancelled():
                        raise BlurCancelled
                    coming = coming or ahead.submit(row_of_blocks, edges)
                    try:
                        band = coming.result()
                    except RuntimeError:
                        # Stopped while a row was in hand: a program exiting (its window
                        # closed) shuts down the thread pools under that row. A cancelled
                        # blur, not a failure.
                        if cancelled is not None and cancelled():
                            raise BlurCancelled from None
                        raise
                    coming = None
                    if straight and number < len(rows):
                        coming = ahead.submit(row_of_blocks, rows[number])
                    yield band
                    del band
                    if progress is not None:
                        megapixels = edges[1] * int(result.shape[1]) / 1e6
                        progress(number * blocks_per_band, total, megapixels)
            finally:
                # Stopped or failed, the row blurred ahead is not waited for: its blocks
                # under way finish (the pool below waits for them) and the rest are dropped.
                ahead.shutdown(wait=False, cancel_futures=True)

        if levels_dtype is None:
            write_atomically(output, lambda file: write_npy(file, result.shape, bands()))
        else:
            write_atomically(
                output,
                lambda file: write_tiff(
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
