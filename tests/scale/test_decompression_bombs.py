"""Decompression bombs inside one tile, strip or chunk, blurred by blocks: refused before they are
decoded, naming the file and the segment, with memory staying small."""

from __future__ import annotations

import struct
import tracemalloc
import zlib

import numpy as np
import pytest

# The scale extra's (Dask): skipped, saying so, where it is not installed (the TPU machine).
pytest.importorskip("distributed", reason="needs the scale extra (Dask), not installed here")
import tifffile

from blurapp.core.kernel import gaussian_kernel
from blurapp.core.media.photo_checks import PhotoError
from blurapp.scale import segment_sizes, tiled

HUGE = 16_000  # pixels a side a bomb declares (WebP's lossless header holds up to 16,384)


def _declare(kind: str, segment: bytes, rows: int, columns: int) -> bytes:
    """`segment` (one tile's compressed bytes) with its header declaring rows × columns."""
    data = bytearray(segment)
    if kind == "jpeg":
        at = next(data.find(m) for m in (b"\xff\xc0", b"\xff\xc1", b"\xff\xc2") if m in data)
        struct.pack_into(">HH", data, at + 5, rows, columns)
    elif kind == "png":
        struct.pack_into(">II", data, 16, columns, rows)
        struct.pack_into(">I", data, 29, zlib.crc32(bytes(data[12:29])))  # a valid header
    elif kind == "jpeg2000":
        at = data.find(b"\xff\x4f\xff\x51") + 6
        struct.pack_into(">II", data, at + 2, columns, rows)
    elif kind == "webp":
        assert data[12:16] == b"VP8L", data[12:16]
        bits = int.from_bytes(data[21:25], "little") & ~((1 << 28) - 1)
        data[21:25] = (bits | (rows - 1) << 14 | (columns - 1)).to_bytes(4, "little")
    return bytes(data)


def _bomb_tiff(path, kind: str, rows: int = HUGE, columns: int = HUGE) -> None:
    """A 64 × 64 TIFF of one 64 × 64 tile whose compressed stream declares rows × columns."""
    levels = np.random.default_rng(3).integers(0, 256, (64, 64), dtype=np.uint8)
    options = {"compressionargs": {"lossless": True}} if kind == "webp" else {}
    if kind == "webp":
        levels = np.repeat(levels[..., None], 3, axis=2)
    tifffile.imwrite(path, levels, tile=(64, 64), compression=kind, **options)
    with tifffile.TiffFile(path) as tiff:
        offset, count = tiff.pages.first.dataoffsets[0], tiff.pages.first.databytecounts[0]
    data = bytearray(path.read_bytes())
    patched = _declare(kind, bytes(data[offset : offset + count]), rows, columns)
    data[offset : offset + len(patched)] = patched
    path.write_bytes(bytes(data))


def _blur_measured(source, output):
    """blur_file_tiled's error and the most memory Python and NumPy held meanwhile."""
    tracemalloc.start()
    try:
        with pytest.raises(PhotoError) as raised:
            tiled.blur_file_tiled(source, output, kernel=gaussian_kernel(3))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return str(raised.value), peak


@pytest.mark.parametrize("kind", ["jpeg", "png", "jpeg2000", "webp"])
def test_a_tile_declaring_a_huge_image_is_refused_before_it_is_decoded(tmp_path, kind):
    source = tmp_path / f"bomb-{kind}.tif"
    _bomb_tiff(source, kind)
    message, peak = _blur_measured(source, tmp_path / "out.tif")
    assert str(source) in message
    assert "tile 0 (row 0, column 0) declares 16,000 × 16,000 pixels" in message, message
    assert "64 × 64" in message
    assert peak < 50e6, f"{peak / 1e6:.0f} MB held while refusing it"
    assert not (tmp_path / "out.tif").exists()


@pytest.mark.parametrize("kind", ["jpeg", "png", "jpeg2000", "webp"])
def test_a_tile_declaring_its_own_size_is_still_blurred(tmp_path, kind):
    source = tmp_path / f"fine-{kind}.tif"
    _bomb_tiff(source, kind, rows=64, columns=64)  # the header rewritten as it was
    result = tiled.blur_file_tiled(source, tmp_path / "out.npy", kernel=gaussian_kernel(3))
    assert (result.width, result.height) == (64, 64)


def _zarr_with_one_chunk(folder, codec: str):
    import numcodecs
    import zarr

    compressor = {"zlib": numcodecs.Zlib(level=1), "zstd": numcodecs.Zstd(level=1)}[codec]
    array = zarr.create_array(folder, shape=(256, 256), chunks=(256, 256), dtype=np.uint8,
                              zarr_format=2, compressors=compressor)  # fmt: skip
    array[:] = 7
    return folder / "0.0"


def _inflating_to(size: int) -> bytes:
    """A zlib stream of `size` zero bytes, made a megabyte at a time."""
    compressor, parts, block = zlib.compressobj(9), [], bytes(1 << 20)
    for _ in range(size // len(block)):
        parts.append(compressor.compress(block))
    return b"".join(parts) + compressor.flush()


def test_a_zlib_chunk_inflating_a_thousandfold_is_refused_before_it_is_inflated(tmp_path):
    folder = tmp_path / "bomb.zarr"
    chunk = _zarr_with_one_chunk(folder, "zlib")
    # Small enough a file to be a chunk's (zlib inflates at most about a thousandfold).
    chunk.write_bytes(_inflating_to(70 << 20))
    message, peak = _blur_measured(folder, tmp_path / "out.npy")
    assert str(folder) in message and "its chunk 0.0 decodes to more than 65,536 bytes" in message
    assert peak < 30e6, f"{peak / 1e6:.0f} MB held while refusing it"


def test_a_zstd_chunk_declaring_more_than_its_place_is_refused(tmp_path):
    import numcodecs

    folder = tmp_path / "bomb.zarr"
    chunk = _zarr_with_one_chunk(folder, "zstd")
    chunk.write_bytes(numcodecs.Zstd(level=1).encode(bytes(50 << 20)))
    message, peak = _blur_measured(folder, tmp_path / "out.npy")
    assert f"its chunk 0.0 decodes to {50 << 20:,} bytes, where it holds 65,536" in message
    assert peak < 30e6, f"{peak / 1e6:.0f} MB held while refusing it"


def test_a_chunk_file_larger_than_its_chunk_is_refused_unread(tmp_path):
    folder = tmp_path / "big.zarr"
    chunk = _zarr_with_one_chunk(folder, "zlib")
    with open(chunk, "r+b") as file:
        file.truncate(64 << 20)
    message, _ = _blur_measured(folder, tmp_path / "out.npy")
    assert f"its chunk 0.0 takes {64 << 20:,} bytes" in message


def test_tiles_too_large_for_memory_are_refused_from_the_header(tmp_path, monkeypatch):
    source = tmp_path / "wide-tiles.tif"
    tifffile.imwrite(source, np.zeros((1024, 1024, 3), np.uint8), tile=(1024, 1024))
    monkeypatch.setattr(segment_sizes, "available_memory", lambda: 2_000_000)
    message, _ = _blur_measured(source, tmp_path / "out.tif")
    assert str(source) in message and "its tiles are 1,024 × 1,024 pixels" in message, message


@pytest.mark.parametrize("codec", ["gzip", "bz2", "lzma"])
def test_a_chunk_of_several_streams_counts_them_all(codec):
    import bz2
    import gzip
    import lzma

    from blurapp.scale.segment_sizes import SegmentTooLarge, check_chunk

    compress = {"gzip": gzip.compress, "bz2": bz2.compress, "lzma": lzma.compress}[codec]
    small = compress(bytes(4096))
    check_chunk(codec, small, 4096)  # one stream of the chunk's size: fine
    with pytest.raises(SegmentTooLarge, match="decodes to more than 4,096 bytes"):
        check_chunk(codec, small + compress(bytes(50 << 20)), 4096)


def test_a_zstd_chunk_of_several_frames_counts_them_all():
    import numcodecs

    from blurapp.scale.segment_sizes import SegmentTooLarge, check_chunk

    zstd = numcodecs.Zstd(level=1)
    one = zstd.encode(bytes(4096))
    check_chunk("zstd", one, 4096)
    with pytest.raises(SegmentTooLarge, match=f"decodes to {4096 + (50 << 20):,} bytes"):
        check_chunk("zstd", bytes(one) + bytes(zstd.encode(bytes(50 << 20))), 4096)


def test_a_jp2_tile_is_sized_by_its_codestream_not_a_decoy_in_another_box():
    import imagecodecs

    from blurapp.scale.segment_sizes import SegmentTooLarge, check_tiff_segment

    jp2 = imagecodecs.jpeg2k_encode(np.zeros((256, 256), np.uint8), codecformat="jp2")
    decoy_siz = b"\xff\x4f\xff\x51\x00\x29\x00\x00" + struct.pack(">IIII", 16, 16, 0, 0)
    box = struct.pack(">I", 8 + len(decoy_siz) + 8) + b"xml " + decoy_siz + bytes(8)
    at = jp2.index(b"jp2h") - 4  # before the header box, ahead of the codestream
    with pytest.raises(SegmentTooLarge, match="declares 256 × 256 pixels, where it holds 16 × 16"):
        check_tiff_segment(33004, jp2[:at] + box + jp2[at:], None, 16, 16)


def test_a_zarr_filtered_with_a_compressor_is_refused(tmp_path):
    import numcodecs
    import zarr

    folder = tmp_path / "filtered.zarr"
    array = zarr.create_array(folder, shape=(64, 64), chunks=(64, 64), dtype=np.uint8,
                              zarr_format=2, filters=[numcodecs.BZ2()], compressors=None)  # fmt: skip
    array[:] = 1
    with pytest.raises(PhotoError, match="filtered with bz2"):
        tiled.blur_file_tiled(folder, tmp_path / "out.npy", kernel=gaussian_kernel(3))


def test_a_lerc_tiff_is_refused_by_blocks(tmp_path):
    source = tmp_path / "lerc.tif"
    tifffile.imwrite(source, np.zeros((32, 32), np.uint8), tile=(16, 16), compression="lerc")
    with pytest.raises(PhotoError, match="compressed with LERC"):
        tiled.blur_file_tiled(source, tmp_path / "out.npy", kernel=gaussian_kernel(3))
