"""Regions of a TIFF read straight from its tiles or strips (blurapp.scale.tiff_tiles), against
tifffile's own reading of the whole image."""

from __future__ import annotations

import contextlib
import os
import struct

import numpy as np
import pytest

# The scale extra's (Dask): skipped, saying so, where it is not installed (the TPU machine).
pytest.importorskip("distributed", reason="needs the scale extra (Dask), not installed here")
import tifffile

from blurapp.core.media.photo_checks import PhotoError
from blurapp.scale import tiff_tiles, tiled_read
from blurapp.scale.tiff_tiles import TiffTiles

HEIGHT, WIDTH = 157, 203  # neither a multiple of the tiles' 32 nor of the strips' rows

# How a TIFF's samples can be stored: a name, the stored array and tifffile's writing options.
STORAGE = {
    "grey tiles": ((HEIGHT, WIDTH), np.uint8, {"tile": (32, 32)}),
    "grey strips": ((HEIGHT, WIDTH), np.uint8, {"rowsperstrip": 10}),
    "one strip": ((HEIGHT, WIDTH), np.uint8, {"rowsperstrip": 1000}),
    "16-bit zlib and predictor": (
        (HEIGHT, WIDTH),
        np.uint16,
        {"tile": (32, 48), "compression": "zlib", "predictor": True},
    ),
    "RGB tiles": ((HEIGHT, WIDTH, 3), np.uint8, {"tile": (32, 32), "photometric": "rgb"}),
    "RGBA strips, LZW": (
        (HEIGHT, WIDTH, 4),
        np.uint8,
        {
            "rowsperstrip": 16,
            "photometric": "rgb",
            "extrasamples": ["unassalpha"],
            "compression": "lzw",
        },
    ),
    "RGB planes": (
        (3, HEIGHT, WIDTH),
        np.uint16,
        {"tile": (32, 32), "photometric": "rgb", "planarconfig": "separate"},
    ),
    "float32 tiles": ((HEIGHT, WIDTH), np.float32, {"tile": (48, 32)}),
}

REGIONS = [
    (slice(0, HEIGHT), slice(0, WIDTH)),  # all of it
    (slice(0, 1), slice(0, 1)),  # one pixel
    (slice(31, 33), slice(31, 97)),  # across tile edges
    (slice(150, HEIGHT), slice(190, WIDTH)),  # the partial tiles at the corner
    (slice(40, 41), slice(0, WIDTH)),  # one row
    (slice(None), slice(100, None)),  # open ends, as Dask's blocks never are but slicing is
    (slice(3, 140, 7), slice(None, None, 5)),  # every 7th row and 5th column, as a caller may
    (slice(None, None, -3), slice(60, 20, -1)),  # reversed
]


def stored(shape, dtype) -> np.ndarray:
    rng = np.random.default_rng(7)
    if np.dtype(dtype).kind == "f":
        return rng.random(shape, dtype=np.float32)
    return rng.integers(0, np.iinfo(dtype).max, size=shape, dtype=dtype, endpoint=True)


def change_tile_entry(path, index, *, offset, count=None) -> None:
    """Write over tile `index`'s offset (and byte count) in the TIFF's tile table."""
    with tifffile.TiffFile(path, mode="r+b") as tiff:
        tags = tiff.pages.first.tags
        for name, value in (("TileOffsets", offset), ("TileByteCounts", count)):
            if value is not None:
                entries = list(tags[name].value)
                entries[index] = value
                tags[name].overwrite(tuple(entries))


@pytest.mark.parametrize("name", STORAGE)
def test_every_region_is_the_samples_tifffile_reads(tmp_path, name):
    shape, dtype, options = STORAGE[name]
    path = tmp_path / "image.tif"
    tifffile.imwrite(path, stored(shape, dtype), **options)
    whole = tifffile.imread(path)
    if whole.ndim == 2:
        whole = whole[..., None]
    elif options.get("planarconfig") == "separate":
        whole = np.moveaxis(whole, 0, -1)
    with contextlib.closing(TiffTiles(path)) as tiles:
        for rows, columns in REGIONS:
            region = tiles.region(rows, columns)
            assert region.dtype == whole.dtype
            np.testing.assert_array_equal(
                region, whole[rows, columns], err_msg=str((rows, columns))
            )


def test_a_tile_not_stored_reads_as_zeros(tmp_path):
    # A TIFF may leave a tile out (offset and byte count 0): it holds the image's fill value.
    path = tmp_path / "sparse.tif"
    data = stored((64, 64), np.uint8)
    tifffile.imwrite(path, data, tile=(32, 32))
    change_tile_entry(path, 3, offset=0, count=0)
    expected = data.copy()
    expected[32:, 32:] = 0
    with contextlib.closing(TiffTiles(path)) as tiles:
        np.testing.assert_array_equal(
            tiles.region(slice(0, 64), slice(16, 64))[..., 0], expected[:, 16:]
        )


def test_a_segment_at_offset_zero_is_not_read_from_the_files_header(tmp_path):
    # As tifffile: offset 0 is inside the header, so the segment is not stored, whatever its count.
    path = tmp_path / "offset-zero.tif"
    data = stored((64, 64), np.uint8)
    tifffile.imwrite(path, data, tile=(32, 32))
    change_tile_entry(path, 0, offset=0)
    with contextlib.closing(TiffTiles(path)) as tiles:
        assert not tiles.region(slice(0, 32), slice(0, 32)).any()
        np.testing.assert_array_equal(
            tiles.region(slice(0, 32), slice(32, 64))[..., 0], data[:32, 32:]
        )


def test_a_strip_read_in_several_parts_is_read_whole(tmp_path, monkeypatch):
    # One pread returns at most 2 GiB on Linux, and tifffile writes an uncompressed image as a
    # single strip: a strip arriving in parts must still be read to its end.
    path = tmp_path / "one-strip.tif"
    data = stored((HEIGHT, WIDTH), np.uint8)
    tifffile.imwrite(path, data)  # one strip
    pread = os.pread
    monkeypatch.setattr(
        tiff_tiles.os, "pread", lambda fd, count, at: pread(fd, min(count, 999), at)
    )
    with contextlib.closing(TiffTiles(path)) as tiles:
        np.testing.assert_array_equal(
            tiles.region(slice(100, 120), slice(0, WIDTH))[..., 0], data[100:120]
        )


def test_a_tiff_listing_fewer_tiles_than_its_image_needs_is_refused_before_any_block(tmp_path):
    path = tmp_path / "fewer-tiles.tif"
    tifffile.imwrite(path, stored((HEIGHT, WIDTH), np.uint8), tile=(32, 32))
    with tifffile.TiffFile(path) as tiff:
        tags = tiff.pages.first.tags
        listed = len(tiff.pages.first.dataoffsets)
        entries = [tags["TileOffsets"].offset, tags["TileByteCounts"].offset]
    with open(path, "r+b") as file:  # the last row of 7 tiles left out of both lists
        for entry in entries:
            file.seek(entry + 4)
            file.write(struct.pack("<I", listed - 7))
    with pytest.raises(PhotoError) as refused:
        tiled_read.open_tiled(path)
    assert str(path) in str(refused.value) and f"{listed - 7} of the {listed}" in str(refused.value)
    with pytest.raises(ValueError, match="fewer than the image's"):
        TiffTiles(path)
