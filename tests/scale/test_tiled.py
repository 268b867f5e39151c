"""Blurring in tiles (blurapp.scale.tiled) against scipy's correlation and the in-memory blur."""

from __future__ import annotations

import json
import os
import zlib

import numpy as np
import pytest

# The scale extra's (Dask): skipped, saying so, where it is not installed (the TPU machine).
pytest.importorskip("distributed", reason="needs the scale extra (Dask), not installed here")
import tifffile
from helpers.oracle import blur_oracle
from helpers.photos import noise

from blurapp.core.kernel import gaussian_kernel, gaussian_kernel_1d
from blurapp.core.media.photo import load_photo
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.media.saving import OutputError
from blurapp.scale import tiled, tiled_read, tiled_write


def floats(shape, dtype, seed=13) -> np.ndarray:
    return np.random.default_rng(seed).random(shape).astype(dtype)


def write_tiff(path, data, tile=(64, 64), **options):
    tifffile.imwrite(path, data, tile=tile, **options)
    return path


def as_float(data: np.ndarray) -> np.ndarray:
    if data.dtype == np.uint8:
        return np.multiply(data, np.float32(1 / 255), dtype=np.float32)
    return np.divide(data, np.float32(np.iinfo(data.dtype).max), dtype=np.float32)


@pytest.mark.slow
def test_sixty_megapixels_by_blocks_match_scipy(tmp_path):
    data = noise((7750, 7750))
    source = write_tiff(tmp_path / "big.tif", data, tile=(512, 512))
    kernel = gaussian_kernel(9, 2.5)

    blurred = tiled.blur_tiled(tiled_read.open_tiled(source, block=2048), kernel).compute()

    image = as_float(data)
    del data
    assert blurred.dtype == np.float32 and blurred.shape == image.shape
    # In float32 (scipy still sums in float64): 240 MB, not 480.
    assert np.abs(blurred - blur_oracle(image, kernel, np.float32)).max() <= 1e-5


def test_separable_kernel_matches_scipy(tmp_path):
    data = noise((600, 700))
    source = write_tiff(tmp_path / "photo.tif", data, tile=(128, 128))
    kernel = gaussian_kernel_1d(15, 3.0)

    blurred = tiled.blur_tiled(tiled_read.open_tiled(source, block=256), kernel).compute()

    assert np.abs(blurred - blur_oracle(as_float(data), kernel)).max() <= 1e-5


def test_small_blocks_under_a_wide_kernel_leave_no_seams(tmp_path):
    # 16-pixel blocks that do not divide the image, under a kernel reaching 20 pixels out.
    data = noise((90, 75))
    source = write_tiff(tmp_path / "small.tif", data, tile=(32, 32))
    kernel = gaussian_kernel(41, 6.0)

    blurred = tiled.blur_tiled(tiled_read.open_tiled(source, block=16), kernel).compute()

    assert np.abs(blurred - blur_oracle(as_float(data), kernel)).max() <= 1e-5


def test_sixteen_bit_colour_is_blurred_per_channel(tmp_path):
    data = noise((300, 410, 3), np.uint16)
    source = write_tiff(tmp_path / "colour.tif", data, photometric="rgb")
    kernel = gaussian_kernel(9, 2.5)

    array = tiled_read.open_tiled(source, color=True, block=128)
    assert array.shape == (300, 410, 3) and array.chunksize == (128, 128, 3)
    blurred = tiled.blur_tiled(array, kernel).compute()

    assert np.abs(blurred - blur_oracle(as_float(data), kernel)).max() <= 1e-5

    output = tmp_path / "colour-blurred.tif"
    result = tiled.blur_file_tiled(source, output, kernel=kernel, color=True, block=128)
    assert (result.width, result.height, result.channels) == (410, 300, 3)
    written = tifffile.imread(output)
    assert written.dtype == np.uint16 and written.shape == (300, 410, 3)
    assert np.abs(written.astype(np.int64) - np.rint(blurred * 65535)).max() <= 1


def test_grey_from_colour_and_alpha_as_the_photo_loader_reads_them(tmp_path):
    rgba = noise((120, 90, 4))
    for name, data in (("rgb.tif", rgba[..., :3]), ("rgba.tif", rgba)):
        extra = {"extrasamples": ["unassalpha"]} if data.shape[2] == 4 else {}
        source = write_tiff(tmp_path / name, data, photometric="rgb", **extra)

        grey = tiled_read.open_tiled(source, block=64).compute()

        assert grey.shape == (120, 90)
        assert np.abs(grey - load_photo(source).gray).max() <= 1e-6


def test_written_bigtiff_is_tiled_eight_bit_and_describes_itself(tmp_path):
    data = noise((700, 900))
    source = write_tiff(tmp_path / "photo.tif", data)
    output = tmp_path / "blurred.tif"
    kernel = gaussian_kernel(9, 2.5)
    description = {"Software": "BlurApp test", "kernel size": "9"}

    result = tiled.blur_file_tiled(
        source, output, kernel=kernel, block=256, description=description
    )

    assert (result.width, result.height, result.channels, result.blocks) == (900, 700, 1, 12)
    with tifffile.TiffFile(output) as tiff:
        assert tiff.is_bigtiff
        page = tiff.pages.first
        assert page.is_tiled and (page.tilelength, page.tilewidth) == tiled_write.OUTPUT_TILE
        assert page.dtype == np.uint8
        assert json.loads(page.description) == description
        written = page.asarray()
    expected = np.rint(blur_oracle(as_float(data), kernel) * 255)
    assert np.abs(written.astype(np.int64) - expected).max() <= 1
    assert not list(tmp_path.glob(".blurapp-*"))  # no temporary file left


def test_npy_output_is_the_float_blur(tmp_path):
    data = noise((333, 257))
    source = write_tiff(tmp_path / "photo.tif", data)
    kernel = gaussian_kernel(7, 1.5)

    tiled.blur_file_tiled(source, tmp_path / "blurred.npy", kernel=kernel, block=100)

    written = np.load(tmp_path / "blurred.npy")
    assert written.dtype == np.float32
    assert np.abs(written - blur_oracle(as_float(data), kernel)).max() <= 1e-5


def test_progress_counts_up_to_every_block(tmp_path):
    source = write_tiff(tmp_path / "photo.tif", noise((500, 300)))
    calls = []

    result = tiled.blur_file_tiled(
        source,
        tmp_path / "blurred.tif",
        kernel=gaussian_kernel(5, 1.0),
        block=128,
        progress=lambda *call: calls.append(call),
    )

    assert result.blocks == 4 * 3
    assert [done for done, _, _ in calls] == [3, 6, 9, 12]
    assert {total for _, total, _ in calls} == {12}
    # The megapixels written so far: rows of 128 rows (the last 116) of 300 pixels.
    assert [megapixels for _, _, megapixels in calls] == pytest.approx(
        [128 * 300 / 1e6, 256 * 300 / 1e6, 384 * 300 / 1e6, 500 * 300 / 1e6]
    )


def test_output_over_the_source_is_refused_and_the_source_kept(tmp_path):
    source = write_tiff(tmp_path / "photo.tif", noise((64, 64)))
    before = source.read_bytes()

    with pytest.raises(OutputError, match="photo being blurred"):
        tiled.blur_file_tiled(source, tmp_path / "." / "photo.tif", kernel=gaussian_kernel(3))

    assert source.read_bytes() == before


def test_unknown_output_format_is_refused(tmp_path):
    source = write_tiff(tmp_path / "photo.tif", noise((64, 64)))
    with pytest.raises(OutputError, match=r"\.png"):
        tiled.blur_file_tiled(source, tmp_path / "blurred.png", kernel=gaussian_kernel(3))


@pytest.mark.parametrize(
    "content", [b"this is not an image at all", b"II*\x00\xff\xff\xff\x7f", b""]
)
def test_a_file_that_is_no_tiff_is_named_in_the_error(tmp_path, content):
    path = tmp_path / "damaged.tif"
    path.write_bytes(content)
    with pytest.raises(PhotoError, match=r"damaged\.tif"):
        tiled_read.open_tiled(path)
    assert not tiled_read.needs_tiles(path)


def test_damaged_tiles_are_named_in_the_error(tmp_path):
    source = write_tiff(tmp_path / "cut.tif", noise((256, 256)), compression="zlib")
    with tifffile.TiffFile(source) as tiff:
        offsets = tiff.pages.first.dataoffsets
    content = bytearray(source.read_bytes())
    content[offsets[1] : offsets[1] + 64] = b"\x00" * 64  # one tile's zlib stream broken
    source.write_bytes(bytes(content))

    with pytest.raises(PhotoError, match=r"cut\.tif"):
        tiled.blur_tiled(tiled_read.open_tiled(source, block=128), gaussian_kernel(3)).compute()


def test_a_missing_file_is_named_in_the_error(tmp_path):
    with pytest.raises(PhotoError, match=r"nowhere\.tif: no such file"):
        tiled_read.open_tiled(tmp_path / "nowhere.tif")


def test_needs_tiles_reads_the_size_from_the_header(tmp_path):
    # 400 MP of zero tiles, each given to tifffile already compressed, so the file is small
    # and quick to make: past Pillow's pixel limit all the same.
    tile = np.zeros((1024, 1024), np.uint8)
    compressed = zlib.compress(tile.tobytes())
    huge = tmp_path / "huge.tif"
    tifffile.imwrite(
        huge,
        data=(compressed for _ in range(20 * 20)),
        shape=(20000, 20000),
        dtype=np.uint8,
        tile=tile.shape,
        compression="zlib",
        bigtiff=True,
    )
    assert huge.stat().st_size < 1_000_000
    assert tiled_read.needs_tiles(huge)

    small = write_tiff(tmp_path / "small.tif", noise((64, 64)))
    assert not tiled_read.needs_tiles(small)
    png = tmp_path / "small.png"
    from PIL import Image

    Image.fromarray(noise((64, 64))).save(png)
    assert not tiled_read.needs_tiles(png)


def test_needs_tiles_follows_pillows_limit(tmp_path, monkeypatch):
    from PIL import Image

    small = write_tiff(tmp_path / "small.tif", noise((64, 64)))
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 64 * 64 - 1)
    assert tiled_read.needs_tiles(small)


def test_needs_tiles_when_memory_is_short(tmp_path, monkeypatch):
    small = write_tiff(tmp_path / "small.tif", noise((64, 64)))
    monkeypatch.setattr(tiled_read, "available_memory", lambda: 64 * 64 * 10)
    assert tiled_read.needs_tiles(small)


def test_zarr_folder_is_read_in_tiles(tmp_path):
    import zarr

    data = noise((200, 150))
    folder = tmp_path / "image.zarr"
    zarr.create_array(folder, shape=data.shape, chunks=(64, 64), dtype=np.uint8)[:] = data
    assert tiled_read.needs_tiles(folder)

    blurred = tiled.blur_tiled(
        tiled_read.open_tiled(folder, block=64), gaussian_kernel(5)
    ).compute()

    assert np.abs(blurred - blur_oracle(as_float(data), gaussian_kernel(5))).max() <= 1e-5


def test_jax_engine_in_tiles_matches_scipy(tmp_path):
    # Blocks that divide the image: every block with its halo has one shape, one compilation.
    data = noise((128, 128))
    source = write_tiff(tmp_path / "photo.tif", data)
    kernel = gaussian_kernel(9, 2.5)

    blurred = tiled.blur_tiled(tiled_read.open_tiled(source, block=64), kernel, "jax").compute()

    assert np.abs(blurred - blur_oracle(as_float(data), kernel)).max() <= 1e-5


@pytest.mark.slow
def test_a_distributed_cluster_computes_the_blocks(tmp_path):
    import distributed

    data = noise((300, 200))
    source = write_tiff(tmp_path / "photo.tif", data)
    kernel = gaussian_kernel(9, 2.5)
    output = tmp_path / "blurred.npy"

    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=True, dashboard_address=":0"
    ) as cluster:
        tiled.blur_file_tiled(
            source, output, kernel=kernel, block=128, scheduler=cluster.scheduler_address
        )

    assert np.abs(np.load(output) - blur_oracle(as_float(data), kernel)).max() <= 1e-5


def test_a_cancelled_blur_leaves_no_file(tmp_path):
    from blurapp.core.engines.runs import BlurCancelled

    source = write_tiff(tmp_path / "photo.tif", noise((300, 300)))
    output = tmp_path / "blurred.tif"
    with pytest.raises(BlurCancelled):
        tiled.blur_file_tiled(
            source, output, kernel=gaussian_kernel(3), block=128, cancelled=lambda: True
        )
    assert sorted(path.name for path in tmp_path.iterdir()) == ["photo.tif"]


@pytest.mark.parametrize("size", [(5, 5), (1, 7), (3, 40)])
def test_a_kernel_wider_than_the_image_still_matches_scipy(tmp_path, size):
    levels = np.random.default_rng(11).integers(0, 256, size, dtype=np.uint8)
    source = tmp_path / "small.tif"
    tifffile.imwrite(source, levels)
    kernel = gaussian_kernel(31, 5.0)
    blurred = tiled.blur_tiled(tiled_read.open_tiled(source), kernel).compute()
    expected = blur_oracle(levels / 255.0, kernel)
    np.testing.assert_allclose(blurred, expected, atol=1e-5, rtol=0)


@pytest.mark.parametrize("orientation", range(1, 9))
def test_the_tiff_orientation_is_applied_as_the_whole_image_loader_applies_it(
    tmp_path, orientation
):
    levels = np.arange(4 * 6, dtype=np.uint8).reshape(4, 6) * 10
    source = tmp_path / "turned.tif"
    tifffile.imwrite(source, levels, extratags=[(274, "H", 1, orientation, True)])
    whole = load_photo(source).pixels
    turned = tiled_read.open_tiled(source, block=2).compute()
    np.testing.assert_array_equal(turned, whole)


def test_a_jpeg_compressed_colour_tiff_is_read_in_colour(tmp_path):
    rgb = np.zeros((512, 512, 3), np.uint8)
    rgb[..., 0] = 200
    rgb[..., 2] = 90
    source = tmp_path / "scan.tif"
    tifffile.imwrite(source, rgb, tile=(256, 256), compression="jpeg")  # stored as YCbCr
    pixels = tiled_read.open_tiled(source, color=True).compute()
    assert pixels.shape == (512, 512, 3)
    np.testing.assert_allclose(pixels[100, 100] * 255, [200, 0, 90], atol=3)


def test_a_non_ascii_description_is_written_into_a_tiled_tiff(tmp_path):
    source = tmp_path / "scan.tif"
    tifffile.imwrite(source, np.zeros((64, 64), np.uint8), tile=(32, 32))
    description = {"photo": "café.tif", "engine": "NumPy"}
    tiled.blur_file_tiled(
        source, tmp_path / "out.tif", kernel=gaussian_kernel(3, 1.0), description=description
    )
    with tifffile.TiffFile(tmp_path / "out.tif") as written:
        assert json.loads(written.pages[0].description) == description


# --- Loaded whole or by blocks: the same pixels ---------------------------------------------


@pytest.mark.parametrize(
    ("name", "data", "options"),
    [
        ("grey32.tif", noise((90, 70), np.uint8).astype(np.uint32), {}),
        ("grey32-wide.tif", (noise((90, 70), np.uint16) // 2).astype(np.uint32), {}),
        (
            "premultiplied.tif",
            noise((90, 70, 4), np.uint8),
            {"photometric": "rgb", "extrasamples": ["assocalpha"]},
        ),
        (
            "premultiplied-grey.tif",
            noise((90, 70, 2), np.uint8),
            {"photometric": "minisblack", "extrasamples": ["assocalpha"]},
        ),
        ("white-is-zero.tif", noise((90, 70), np.uint8), {"photometric": "miniswhite"}),
        ("white-is-zero-16.tif", noise((90, 70), np.uint16), {"photometric": "miniswhite"}),
        ("grey4.tif", noise((90, 70)) % 16, {"bitspersample": 4}),
        (
            "white-is-zero-2.tif",
            noise((90, 70)) % 4,
            {"bitspersample": 2, "photometric": "miniswhite"},
        ),
        ("floats-rgb.tif", floats((90, 70, 3), np.float32), {"photometric": "rgb"}),
        (
            "floats16-rgb-planes.tif",
            floats((3, 90, 70), np.float16),
            {"photometric": "rgb", "planarconfig": "separate"},
        ),
        ("floats64-white-is-zero.tif", floats((90, 70), np.float64), {"photometric": "miniswhite"}),
        (
            "floats-rgba.tif",
            floats((90, 70, 4), np.float32),
            {"photometric": "rgb", "extrasamples": ["unassalpha"]},
        ),
    ],
)
def test_by_blocks_the_pixels_are_those_of_the_whole_image_load(tmp_path, name, data, options):
    source = write_tiff(tmp_path / name, data, tile=(32, 32), **options)
    whole = load_photo(source)

    by_blocks = tiled_read.open_tiled(source, block=48).compute()
    np.testing.assert_allclose(by_blocks, whole.gray, rtol=0, atol=1e-6)

    output = tmp_path / "blurred.tif"
    tiled.blur_file_tiled(source, output, kernel=np.ones((1, 1), np.float32), block=48)
    written = tifffile.imread(output)
    assert written.dtype == (np.uint8 if whole.bit_depth == 8 else np.uint16)
    np.testing.assert_array_equal(
        written, np.rint(whole.gray * (2**whole.bit_depth - 1)).astype(written.dtype)
    )


@pytest.mark.parametrize(("bits", "photometric"), [(4, "minisblack"), (2, "miniswhite"), (4, None)])
def test_a_tiff_of_fewer_than_8_bits_has_its_own_white_by_blocks(tmp_path, bits, photometric):
    levels = noise((40, 37)) % (1 << bits)
    tile = {"tile": (16, 16)} if photometric else {"tile": None, "rowsperstrip": 8}
    source = tmp_path / "low-bits.tif"
    tifffile.imwrite(source, levels, bitspersample=bits, photometric=photometric, **tile)
    expected = levels / np.float32((1 << bits) - 1)
    if photometric == "miniswhite":
        expected = 1 - expected
    by_blocks = tiled_read.open_tiled(source, block=24).compute()
    np.testing.assert_allclose(by_blocks, expected, rtol=0, atol=1e-6)
    oracle = blur_oracle(expected, gaussian_kernel(5))
    tiled.blur_file_tiled(source, tmp_path / "out.npy", kernel=gaussian_kernel(5), block=24)
    np.testing.assert_allclose(np.load(tmp_path / "out.npy"), oracle, rtol=0, atol=1e-5)
    # JAX-jit blurs 8-bit levels as they are stored: not these, whose white is not 255.
    tiled.blur_file_tiled(
        source, tmp_path / "out.tif", kernel=gaussian_kernel(5), block=24, engine="jax"
    )
    written = tifffile.imread(tmp_path / "out.tif")
    assert written.dtype == np.uint8
    assert np.abs(written.astype(np.float64) - oracle * 255).max() <= 0.5 + 1e-3


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
def test_a_min_is_white_tiff_loads_with_zero_as_white(tmp_path, dtype):
    # Pillow inverts an 8-bit one itself and hands a 16-bit one over as stored: both must show
    # 0 as white, as the TIFF says (the 16-bit one loaded whole showed it black).
    data = noise((30, 20), dtype)
    source = write_tiff(tmp_path / "scan.tif", data, photometric="miniswhite")
    expected = 1 - data / np.iinfo(dtype).max
    np.testing.assert_allclose(load_photo(source).gray, expected, rtol=0, atol=1e-6)


def test_a_premultiplied_colour_tiff_is_the_same_in_colour_whole_or_by_blocks(tmp_path):
    source = write_tiff(
        tmp_path / "premultiplied.tif",
        noise((64, 50, 4), np.uint8),
        photometric="rgb",
        extrasamples=["assocalpha"],
    )
    by_blocks = tiled_read.open_tiled(source, color=True, block=40).compute()
    np.testing.assert_allclose(by_blocks, load_photo(source, color=True).pixels, atol=1e-6)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (np.zeros((8, 8), np.int64), "signed 64-bit integers"),
        (np.zeros((8, 8), np.complex64), "complex"),
        (np.zeros((2, 8, 8, 1), np.uint8), "not rows × columns"),
        (np.zeros((8, 8, 5), np.uint8), "not rows × columns"),
        (np.zeros((0, 0), np.uint8), "no pixels"),
        (np.full((8, 8), -3, np.int16), "signed 16-bit integers from -3 to -3"),
    ],
)
def test_a_zarr_array_blurapp_cannot_read_says_why(tmp_path, data, words):
    import zarr

    folder = tmp_path / "image.zarr"
    zarr.create_array(folder, shape=data.shape, dtype=data.dtype)[...] = data
    assert tiled_read.needs_tiles(folder)  # so the command line and a batch blur it by blocks
    with pytest.raises(PhotoError) as raised:
        tiled.blur_file_tiled(folder, tmp_path / "out.npy", kernel=gaussian_kernel(3))
    assert str(folder) in str(raised.value) and words in str(raised.value)
    assert "folder" not in str(raised.value).replace(str(tmp_path), "")


def test_a_zarr_chunk_that_is_a_fifo_is_refused_by_name_at_once(tmp_path):
    import threading

    import zarr

    folder = tmp_path / "image.zarr"
    zarr.create_array(folder, shape=(64, 64), chunks=(32, 32), dtype=np.uint8)[:] = noise((64, 64))
    chunk = next(path for path in folder.rglob("*") if path.is_file() and path.parent != folder)
    chunk.unlink()
    os.mkfifo(chunk)
    outcome = []

    def blur():
        try:
            tiled.blur_file_tiled(folder, tmp_path / "out.npy", kernel=gaussian_kernel(3))
        except PhotoError as error:
            outcome.append(str(error))

    thread = threading.Thread(target=blur, daemon=True)
    thread.start()
    thread.join(20)
    if thread.is_alive():  # the reader waits in open(): a writer that closes lets it go
        os.close(os.open(chunk, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(20)
        pytest.fail("blurring waited on a FIFO put in a chunk's place")
    [message] = outcome
    assert str(chunk) in message and "not a regular file" in message
    assert not (tmp_path / "out.npy").exists()


# --- Files whose header declares more than they hold ----------------------------------------


def tiff_declaring(width, height, *, counts, tile=None, data=b""):
    """A little-endian 8-bit grey TIFF whose header declares `width` × `height` pixels in
    strips (one, of all the rows) or `tile`s whose byte counts are `counts`, followed by
    `data`: a hostile file, small however large the image it declares."""
    import struct

    pieces = len(counts)
    header_size, entries = 8, 10
    ifd_size = 2 + entries * 12 + 4
    arrays_at = header_size + ifd_size
    offsets_at, counts_at = arrays_at, arrays_at + 4 * pieces
    data_at = counts_at + 4 * pieces
    offsets = [data_at] * pieces

    def entry(tag, kind, count, value):
        return struct.pack("<HHII", tag, kind, count, value)

    tags = [
        entry(256, 4, 1, width),
        entry(257, 4, 1, height),
        entry(258, 3, 1, 8),
        entry(259, 3, 1, 1),
        entry(262, 3, 1, 1),
        entry(277, 3, 1, 1),
    ]

    def value_or_place(values, at):  # one value fits in its entry; more lie at `at`
        return values[0] if pieces == 1 else at

    if tile:
        tags += [
            entry(322, 4, 1, tile),
            entry(323, 4, 1, tile),
            entry(324, 4, pieces, value_or_place(offsets, offsets_at)),
            entry(325, 4, pieces, value_or_place(counts, counts_at)),
        ]
    else:
        tags += [
            entry(273, 4, pieces, value_or_place(offsets, offsets_at)),
            entry(278, 4, 1, height),
            entry(279, 4, pieces, value_or_place(counts, counts_at)),
            entry(284, 3, 1, 1),
        ]
    assert len(tags) == entries
    ifd = struct.pack("<H", entries) + b"".join(sorted(tags)) + struct.pack("<I", 0)
    arrays = struct.pack(f"<{pieces}I", *offsets) + struct.pack(f"<{pieces}I", *counts)
    return b"II*\x00" + struct.pack("<I", header_size) + ifd + arrays + data


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("one-empty-strip.tif", tiff_declaring(100_000, 100_000, counts=[0]), "hold no bytes"),
        (
            "empty-tiles.tif",
            tiff_declaring(40_000, 40_000, counts=[0] * 157**2, tile=256),
            "hold no bytes",
        ),
        (
            "strip-past-the-end.tif",
            tiff_declaring(30_000, 30_000, counts=[900_000_000]),
            "truncated",
        ),
    ],
)
def test_a_tiff_that_cannot_hold_its_declared_image_is_refused_before_any_work(
    tmp_path, name, content, words
):
    source = tmp_path / name
    source.write_bytes(content)
    assert tiled_read.needs_tiles(
        source
    )  # far past Pillow's limit: the command line goes by blocks
    written = []
    output = tmp_path / "out.tif"
    with pytest.raises(PhotoError) as raised:
        tiled.blur_file_tiled(
            source,
            output,
            kernel=gaussian_kernel(3),
            progress=lambda done, total, megapixels: written.append(done),
            cancelled=lambda: bool(written),  # the old code: stop after one row of blocks
        )
    assert str(source) in str(raised.value) and words in str(raised.value)
    assert written == [] and sorted(path.name for path in tmp_path.iterdir()) == [name]


@pytest.mark.parametrize("empty", ["all", "one"])
def test_a_tiled_tiff_with_empty_tiles_is_refused_whole_and_by_blocks_alike(tmp_path, empty):
    source = write_tiff(tmp_path / "empty.tif", noise((128, 128)), tile=(64, 64))
    with tifffile.TiffFile(source, mode="r+b") as tiff:
        tag = tiff.pages.first.tags[325]  # TileByteCounts
        counts = [0] * 4 if empty == "all" else [*tag.value[:3], 0]
        tag.overwrite(counts)
    with pytest.raises(PhotoError) as whole:
        load_photo(source)
    with pytest.raises(PhotoError) as by_blocks:
        tiled.blur_file_tiled(source, tmp_path / "out.tif", kernel=gaussian_kernel(3))
    assert str(whole.value) == str(by_blocks.value)
    assert str(source) in str(whole.value) and "hold no bytes" in str(whole.value)
    assert not (tmp_path / "out.tif").exists()


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_an_output_larger_than_the_free_space_is_refused_before_any_work(tmp_path, dtype):
    import shutil
    import threading

    import zarr

    # A zarr array with no chunk written holds its fill value everywhere: a valid image,
    # tiny on disk, whose blur would take four times the free space. Floats have their white
    # found from their values, read whole: the refusal must come before that.
    width = 4096
    height = 4 * shutil.disk_usage(tmp_path).free // (width * 4) + 1
    folder = tmp_path / "huge.zarr"
    zarr.create_array(folder, shape=(height, width), chunks=(4096, 4096), dtype=dtype)
    output = tmp_path / "out.npy"
    written, raised = [], []

    def blur():
        try:
            tiled.blur_file_tiled(
                folder,
                output,
                kernel=gaussian_kernel(3),
                progress=lambda done, total, megapixels: written.append(done),
                cancelled=lambda: bool(written),
            )
        except Exception as error:
            raised.append(error)

    thread = threading.Thread(target=blur, daemon=True)
    thread.start()
    thread.join(timeout=20)
    assert not thread.is_alive(), "the blur still reads the image instead of refusing it"
    assert len(raised) == 1 and isinstance(raised[0], OutputError), raised
    assert str(output) in str(raised[0]) and "not enough free space" in str(raised[0])
    assert written == [] and not output.exists()
