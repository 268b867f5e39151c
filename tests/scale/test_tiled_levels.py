"""Blurring by blocks into levels: the blocks an engine's levels_call can take as they are stored
go to it, every other block through floats; either way the levels written are scipy's."""

from __future__ import annotations

import numpy as np
import pytest

# The scale extra's (Dask): skipped, saying so, where it is not installed (the TPU machine).
pytest.importorskip("distributed", reason="needs the scale extra (Dask), not installed here")
import tifffile
from helpers.oracle import blur_oracle
from helpers.photos import noise
from scipy.ndimage import correlate

from blurapp.core import engines as registry
from blurapp.core.engines import Blocks, Computation, Engine, get_engine, register
from blurapp.core.engines.jax_engine import blur_jax
from blurapp.core.engines.runs import Call, FirstCall
from blurapp.core.kernel import gaussian_kernel, gaussian_kernel_1d
from blurapp.core.media.photo import load_photo
from blurapp.core.media.saving import to_8bit, to_16bit
from blurapp.core.spec import BlurSpec
from blurapp.scale import tiled


def scipy_weights(kernel):
    return kernel if kernel.ndim == 2 else np.outer(kernel, kernel)


def first_call(image, kernel, *, platform, progress, cancelled):
    blurred = blur_oracle(image, kernel).astype(np.float32)
    return FirstCall(output=blurred, again=lambda: Call(1e-3), seconds=1e-3)


@pytest.fixture
def levels_engine():
    """An engine with a levels call of its own (scipy's correlation), which counts the blocks
    it is given."""
    given = []

    def levels_call(levels, kernel, *, platform):
        given.append((levels.dtype, levels.shape))
        white = np.iinfo(levels.dtype).max
        radius = kernel.shape[0] // 2
        pixels = levels / white
        weights = scipy_weights(kernel)
        if pixels.ndim == 3:
            blurred = np.stack(
                [correlate(pixels[..., c], weights, mode="nearest") for c in range(3)], axis=-1
            )
        else:
            blurred = correlate(pixels, weights, mode="nearest")
        inner = blurred[radius : levels.shape[0] - radius, radius : levels.shape[1] - radius]
        return np.rint(np.clip(inner, 0, 1) * white).astype(levels.dtype)

    register(
        Engine(
            "scipy-levels", "SciPy by levels", first_call, blocks=Blocks(levels_call=levels_call)
        )
    )
    yield given
    registry.unregister("scipy-levels")


# (stored samples, tifffile options, blurred in colour, whether they are the levels as stored)
CASES = {
    "8-bit grey": (noise((150, 130), np.uint8, seed=3), {}, False, True),
    "16-bit colour in colour": (
        noise((150, 130, 3), np.uint16, seed=3),
        {"photometric": "rgb"},
        True,
        True,
    ),
    "8-bit colour in grey": (
        noise((150, 130, 3), np.uint8, seed=3),
        {"photometric": "rgb"},
        False,
        False,
    ),
    "8-bit colour with alpha in colour": (
        noise((150, 130, 4), np.uint8, seed=3),
        {"photometric": "rgb", "extrasamples": ["unassalpha"]},
        True,
        False,
    ),
    "8-bit MinIsWhite": (
        noise((150, 130), np.uint8, seed=3),
        {"photometric": "miniswhite"},
        False,
        False,
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_only_blocks_stored_as_their_levels_go_to_the_levels_call(tmp_path, levels_engine, case):
    data, options, color, as_levels = CASES[case]
    source = tmp_path / "source.tif"
    tifffile.imwrite(source, data, tile=(64, 64), **options)
    kernel = gaussian_kernel(9, 2.5)
    output = tmp_path / "blurred.tif"

    result = tiled.blur_file_tiled(
        source, output, kernel=kernel, engine="scipy-levels", color=color, block=64
    )

    assert len(levels_engine) == (result.blocks if as_levels else 0)
    written = tifffile.imread(output)
    pixels = load_photo(source, color=color)
    image = pixels.pixels if color else pixels.gray
    white = np.iinfo(written.dtype).max
    expected = np.rint(np.clip(blur_oracle(image, kernel), 0, 1) * white)
    assert written.shape == expected.shape
    assert np.abs(written.astype(np.int64) - expected).max() <= 1


def test_an_npy_output_is_blurred_as_floats_whatever_the_engine_offers(tmp_path, levels_engine):
    data = noise((100, 90), np.uint8, seed=3)
    tifffile.imwrite(tmp_path / "source.tif", data, tile=(32, 32))
    kernel = gaussian_kernel(5, 1.5)

    tiled.blur_file_tiled(
        tmp_path / "source.tif", tmp_path / "b.npy", kernel=kernel, engine="scipy-levels", block=32
    )

    assert levels_engine == []
    written = np.load(tmp_path / "b.npy")
    assert np.abs(written - blur_oracle(data / 255, kernel)).max() <= 1e-5


@pytest.mark.slow
@pytest.mark.accelerator  # JAX-jit's levels call on JAX's default device
@pytest.mark.parametrize(
    "shape, dtype, block",
    [((700, 650), np.uint8, 256), ((45, 600), np.uint16, 128), ((260, 300, 3), np.uint8, 100)],
    ids=["8-bit grey", "16-bit, one strip high", "8-bit colour"],
)
@pytest.mark.parametrize(
    "kernel", [gaussian_kernel(9, 2.5), gaussian_kernel_1d(9, 2.5)], ids=["2d", "separable"]
)
def test_jax_by_blocks_writes_the_levels_of_the_whole_image_blurred_in_memory(
    tmp_path, shape, dtype, block, kernel
):
    data = noise(shape, dtype, seed=shape[0])
    color = len(shape) == 3
    source = tmp_path / "source.tif"
    tifffile.imwrite(source, data, tile=(64, 64), **({"photometric": "rgb"} if color else {}))
    output = tmp_path / "blurred.tif"

    tiled.blur_file_tiled(source, output, kernel=kernel, engine="jax", color=color, block=block)

    written = tifffile.imread(output)
    white = np.iinfo(dtype).max
    pixels = np.multiply(data, np.float32(1 / white), dtype=np.float32)
    expected = np.rint(np.clip(blur_oracle(pixels, kernel), 0, 1) * white)
    assert written.dtype == dtype
    assert np.abs(written.astype(np.int64) - expected).max() <= 1
    # Block by block, the very levels of JAX-jit's blur of the whole image, saved.
    whole = (to_8bit if dtype == np.uint8 else to_16bit)(blur_jax(pixels, kernel))
    np.testing.assert_array_equal(written, whole)
    assert get_engine("jax").blocks.levels_call is not None


def test_straight_to_levels_a_blur_cancelled_after_its_first_row_leaves_no_file(
    tmp_path, levels_engine
):
    from blurapp.core.engines.runs import BlurCancelled

    tifffile.imwrite(tmp_path / "source.tif", noise((256, 64), np.uint8, seed=3), tile=(32, 32))
    rows_written = []

    with pytest.raises(BlurCancelled):
        tiled.blur_file_tiled(
            tmp_path / "source.tif",
            tmp_path / "blurred.tif",
            kernel=gaussian_kernel(3, 1.0),
            engine="scipy-levels",
            block=32,
            progress=lambda done, total, megapixels: rows_written.append(done),
            cancelled=lambda: bool(rows_written),
        )

    assert rows_written == [2]  # of 8 rows of 2 blocks
    assert len(levels_engine) <= 2 * 2  # that row, and at most the one blurred ahead
    assert sorted(path.name for path in tmp_path.iterdir()) == ["source.tif"]


def test_straight_to_levels_a_damaged_tile_in_a_later_row_is_named_and_no_file_left(
    tmp_path, levels_engine
):
    from blurapp.core.media.photo_checks import PhotoError

    source = tmp_path / "cut.tif"
    tifffile.imwrite(source, noise((256, 128), np.uint8, seed=3), tile=(64, 64), compression="zlib")
    with tifffile.TiffFile(source) as tiff:
        offsets = tiff.pages.first.dataoffsets
    content = bytearray(source.read_bytes())
    content[offsets[5] : offsets[5] + 64] = b"\x00" * 64  # the third row's second tile
    source.write_bytes(bytes(content))

    with pytest.raises(PhotoError, match=r"cut\.tif"):
        tiled.blur_file_tiled(
            source, tmp_path / "blurred.tif", kernel=gaussian_kernel(3, 1.0),
            engine="scipy-levels", block=64,
        )  # fmt: skip

    assert levels_engine  # the rows before it were blurred by levels
    assert sorted(path.name for path in tmp_path.iterdir()) == ["cut.tif"]


@pytest.mark.parametrize("engine", ["numpy", "scipy-levels"])
def test_blocks_run_on_one_thread_a_core_whichever_thread_starts_the_blur(
    tmp_path, levels_engine, engine, monkeypatch
):
    # The window blurs by blocks on its worker thread, and rows straight to levels are blurred
    # on a thread of their own: the blocks must still get one thread a core, not Dask's
    # cores + 4 of a pool it starts for a thread that is not the main one.
    import threading

    from dask.system import CPU_COUNT

    threads = set()
    real = tiled._blur_stored_block

    def noting_the_thread(block, **options):
        threads.add(threading.current_thread().name)
        return real(block, **options)

    monkeypatch.setattr(tiled, "_blur_stored_block", noting_the_thread)
    tifffile.imwrite(tmp_path / "source.tif", noise((320, 320), np.uint8, seed=3), tile=(32, 32))
    failures = []

    def blur():
        try:
            tiled.blur_file_tiled(
                tmp_path / "source.tif", tmp_path / "blurred.tif",
                kernel=gaussian_kernel(3, 1.0), engine=engine, block=32,
            )  # fmt: skip
        except Exception as error:  # told by the assertion below
            failures.append(error)

    worker = threading.Thread(target=blur, name="not-the-main-thread")
    worker.start()
    worker.join()

    assert failures == []
    assert tifffile.imread(tmp_path / "blurred.tif").shape == (320, 320)
    assert 1 <= len(threads) <= CPU_COUNT
    assert all(name.startswith("blurapp-blocks") for name in threads)


@pytest.mark.parametrize("output", ["blurred.tif", "blurred.npy"])
def test_the_device_asked_for_reaches_every_block_of_a_blur_and_of_a_batch(
    tmp_path, output, monkeypatch
):
    # `blur --device`, `batch --device`: the blocks of a JAX-like engine run on that platform,
    # through its levels call (to a TIFF) or its first call (floats, to .npy).
    from PIL import Image

    from blurapp.scale.batch_plan import plan_batch
    from blurapp.scale.batch_run import run_batch

    platforms = []

    def noting_first_call(image, kernel, *, platform, progress, cancelled):
        platforms.append(platform)
        return first_call(image, kernel, platform=platform, progress=None, cancelled=None)

    def noting_levels_call(levels, kernel, *, platform):
        platforms.append(platform)
        radius = kernel.shape[0] // 2
        return levels[radius : levels.shape[0] - radius, radius : levels.shape[1] - radius]

    register(
        Engine(
            "platformed", "On a platform", noting_first_call, Computation(uses_jax=True),
            blocks=Blocks(levels_call=noting_levels_call),
        )
    )  # fmt: skip
    try:
        source = tmp_path / "scan.tif"
        tifffile.imwrite(source, noise((90, 80), np.uint8, seed=3), tile=(32, 32))
        tiled.blur_file_tiled(
            source, tmp_path / output, kernel=gaussian_kernel(3, 1.0), engine="platformed",
            device="cpu", block=32,
        )  # fmt: skip
        assert platforms and set(platforms) == {"cpu"}

        platforms.clear()
        monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)  # so the batch blurs it by blocks
        summary = run_batch(
            plan_batch([source], tmp_path / "out", output_format=output.rpartition(".")[2]),
            BlurSpec(kernel_size=3, sigma=1.0), engine="platformed", device="cpu",
        )  # fmt: skip
        assert (summary.done, summary.failed) == (1, ())
        assert summary.workers == {"tiles": 1}
        assert platforms and set(platforms) == {"cpu"}
    finally:
        registry.unregister("platformed")


@pytest.mark.parametrize("chunks", [(16, 16, 3), (16, 16, 1), (40, 30, 2)], ids=str)
def test_a_colour_array_in_any_chunks_is_blurred_by_blur_tiled(chunks):
    # The channels of a pixel are put in one block whatever chunks the caller's array has.
    import dask.array as da

    image = np.random.default_rng(8).random((40, 30, 3), dtype=np.float32)
    kernel = gaussian_kernel(5, 1.0)

    blurred = tiled.blur_tiled(da.from_array(image, chunks=chunks), kernel).compute()

    assert blurred.shape == image.shape and blurred.dtype == np.float32
    assert np.abs(blurred - blur_oracle(image, kernel)).max() <= 1e-5


def test_samples_wider_than_the_pixels_cross_the_halo_as_pixels(tmp_path, monkeypatch):
    # 16-bit RGBA made grey: 8 bytes a pixel stored, 4 blurred. The blocks get floats (their
    # halo carried as floats), not the stored samples.
    shapes, stored = [], []
    real = tiled._blur_pixels_block

    def noting(block, **options):
        shapes.append((block.dtype, block.shape))
        return real(block, **options)

    def noting_stored(block, **options):
        stored.append(block.dtype)
        return real_stored(block, **options)

    real_stored = tiled._blur_stored_block
    monkeypatch.setattr(tiled, "_blur_pixels_block", noting)
    monkeypatch.setattr(tiled, "_blur_stored_block", noting_stored)
    data = noise((100, 90, 4), np.uint16, seed=3)
    source = tmp_path / "rgba.tif"
    tifffile.imwrite(source, data, tile=(32, 32), photometric="rgb", extrasamples=["unassalpha"])
    kernel = gaussian_kernel(5, 1.5)

    tiled.blur_file_tiled(source, tmp_path / "grey.tif", kernel=kernel, block=32)

    assert stored == []  # no block of the stored samples, halo and all
    assert shapes and {dtype for dtype, _ in shapes} == {np.dtype(np.float32)}
    assert {len(shape) for _, shape in shapes} == {2}  # grey floats, not RGBA samples
    written = tifffile.imread(tmp_path / "grey.tif")
    expected = np.rint(np.clip(blur_oracle(load_photo(source).gray, kernel), 0, 1) * 65535)
    assert np.abs(written.astype(np.int64) - expected).max() <= 1


def test_a_cancel_does_not_wait_for_the_row_blurred_ahead(tmp_path):
    # Straight to levels the next row is under way while this one is written; a cancel then
    # must not wait for the whole of it.
    import time

    from blurapp.core.engines.runs import BlurCancelled

    blurred = []

    def slow_levels_call(levels, kernel, *, platform):
        time.sleep(0.05)
        blurred.append(levels.shape)
        radius = kernel.shape[0] // 2
        return levels[radius : levels.shape[0] - radius, radius : levels.shape[1] - radius]

    register(Engine("slow-levels", "Slow", first_call, blocks=Blocks(levels_call=slow_levels_call)))
    try:
        tifffile.imwrite(tmp_path / "source.tif", noise((64, 512), np.uint8, seed=3), tile=(16, 16))
        rows_written = []
        with pytest.raises(BlurCancelled):
            tiled.blur_file_tiled(
                tmp_path / "source.tif", tmp_path / "blurred.tif",
                kernel=gaussian_kernel(3, 1.0), engine="slow-levels", block=16,
                progress=lambda done, total, megapixels: rows_written.append(done),
                cancelled=lambda: bool(rows_written),
            )  # fmt: skip
    finally:
        registry.unregister("slow-levels")

    from dask.system import CPU_COUNT

    # Rows of 32 blocks of 0.05 s: the first row, then at most the blocks already under way
    # (waiting for the row ahead made it 64).
    assert rows_written == [32]
    assert len(blurred) <= 32 + CPU_COUNT
    assert sorted(path.name for path in tmp_path.iterdir()) == ["source.tif"]
