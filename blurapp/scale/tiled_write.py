"""Writing a blurred image a row of blocks at a time: a tiled BigTIFF or a .npy, checked to fit on
the disk before the first block is blurred."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import BinaryIO

import numpy as np

from blurapp.core.media.saving import OutputError
from blurapp.core.wording import QT_TRANSLATE_NOOP

# The written TIFF's tiles: small enough that a viewer reads little to show a corner.
OUTPUT_TILE = (256, 256)


OUTPUT_EXTENSIONS = (".tif", ".tiff", ".npy")


def check_fits_on_disk(output: Path, shape: tuple[int, ...], dtype: np.dtype) -> None:
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


def write_npy(file: BinaryIO, shape: tuple[int, ...], bands: Iterator[np.ndarray]) -> None:
    """Write a float32 .npy of `shape` to `file` from `bands` of whole rows, top to bottom."""
    header = {"descr": np.lib.format.dtype_to_descr(np.dtype("<f4")), "fortran_order": False}
    np.lib.format.write_array_header_2_0(file, {**header, "shape": tuple(shape)})
    for band in bands:  # rows in order: C order is the bands one after another
        file.write(np.ascontiguousarray(band, dtype="<f4").data)


def write_tiff(
    file: BinaryIO,
    shape: tuple[int, ...],
    dtype: type[np.unsignedinteger],
    bands: Iterator[np.ndarray],
    *,
    description: Mapping[str, str] | None,
) -> None:
    """Write a tiled BigTIFF of `shape` and `dtype` to `file` from `bands` of whole rows, top to
    bottom, with `description` as JSON in its ImageDescription."""
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
        # Joined only to rows left over from the band before (a band a whole number of tiles
        # high leaves none): a copy of every band cost a gigapixel blur 1 GB of memory traffic.
        pending = band if pending is None or not len(pending) else np.concatenate([pending, band])
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
