"""The Pallas kernels that make 8-bit levels, crossed as words, floats on the device and round
floats back into words (blurapp.core.engines.word_kernels), against NumPy's own arithmetic:
Pallas's interpreter runs them here, Mosaic on a TPU (the accelerator tests)."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from blurapp.core.engines import word_kernels  # noqa: E402
from blurapp.core.platforms import platform_traits  # noqa: E402

# A row of one word, a column of one, rows past a chunk by a word, whole chunks and one more,
# several planes (a batch of frames), more rows than a step takes.
SHAPES = [(1, 1, 4), (1, 9, 4), (1, 3, 516), (2, 17, 1028), (3, 5, 72), (1, 1200, 2048)]


def interpreted() -> bool:
    return not platform_traits(jax.devices()[0]).compiles_pallas


def levels(shape, seed=0):
    return np.random.default_rng(seed).integers(0, 256, size=shape, dtype=np.uint8)


def as_words(host: np.ndarray) -> np.ndarray:
    return host.view(np.int32)


@pytest.mark.parametrize("shape", SHAPES)
def test_words_become_the_floats_the_host_makes_of_their_levels(shape):
    host = levels(shape, seed=1)

    floats = word_kernels.unpacked_floats(
        jax.numpy.asarray(as_words(host)), shape[-1], interpret=interpreted()
    )

    assert floats.shape == shape and floats.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(floats), host.astype(np.float32) * np.float32(1 / 255))


@pytest.mark.parametrize("shape", SHAPES)
def test_floats_become_words_of_their_levels_rounded_as_saving_rounds(shape):
    rng = np.random.default_rng(2)
    # Every half level (0.5, 1.5, …: half to even), values past black and white, any between.
    halves = rng.integers(0, 511, size=shape).astype(np.float32) / np.float32(2 * 255)
    floats = np.where(rng.random(shape) < 0.5, halves, rng.uniform(-0.2, 1.2, shape))
    floats = floats.astype(np.float32)

    words = word_kernels.packed_levels(jax.numpy.asarray(floats), interpret=interpreted())

    assert words.shape == (*shape[:-1], shape[-1] // 4) and words.dtype == np.int32
    got = np.ascontiguousarray(np.asarray(words)).view(np.uint8)
    expected = np.round(np.clip(floats, 0, 1) * np.float32(255)).astype(np.uint8)
    np.testing.assert_array_equal(got, expected)


def test_levels_cross_back_and_forth_unchanged():
    host = levels((2, 33, 520), seed=3)
    floats = word_kernels.unpacked_floats(
        jax.numpy.asarray(as_words(host)), 520, interpret=interpreted()
    )
    words = word_kernels.packed_levels(floats, interpret=interpreted())
    np.testing.assert_array_equal(np.ascontiguousarray(np.asarray(words)).view(np.uint8), host)


def test_rows_that_are_no_whole_number_of_words_are_refused():
    with pytest.raises(ValueError, match="words"):
        word_kernels.packed_levels(jax.numpy.zeros((1, 2, 6), np.float32), interpret=True)
    with pytest.raises(ValueError, match="levels"):
        word_kernels.unpacked_floats(jax.numpy.zeros((1, 2, 3), np.int32), 10, interpret=True)


@pytest.mark.accelerator
@pytest.mark.parametrize(
    "shape",
    # A camera's grey and colour photos, a batch of 4K frames, and tall pictures of narrow
    # rows (a strip of one word a row, a long scroll 100 values wide).
    [(1, 4000, 6000), (1, 4000, 18000), (2, 2160, 11520), (1, 60000, 4), (1, 30000, 100)],
)
def test_a_camera_sized_photo_and_a_4k_batch_round_trip_on_the_device(shape):
    host = levels(shape, seed=4)
    floats = word_kernels.unpacked_floats(
        jax.numpy.asarray(as_words(host)), shape[-1], interpret=interpreted()
    )
    np.testing.assert_array_equal(
        np.asarray(floats[:, ::97]), host[:, ::97].astype(np.float32) * np.float32(1 / 255)
    )
    words = word_kernels.packed_levels(floats, interpret=interpreted())
    np.testing.assert_array_equal(np.ascontiguousarray(np.asarray(words)).view(np.uint8), host)
