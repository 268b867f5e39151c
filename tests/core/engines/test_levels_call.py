"""JAX-jit's levels call (Blocks.levels_call): a block of stored 8- or 16-bit levels with its
halo, blurred into levels by one compiled program."""

import numpy as np
import pytest
from helpers.oracle import blur_oracle

from blurapp.core.engines import get_engine
from blurapp.core.engines.jax_engine import blur_jax
from blurapp.core.kernel import gaussian_kernel, gaussian_kernel_1d
from blurapp.core.media.saving import to_8bit, to_16bit

# Run where the accelerator is: `pytest -m accelerator` (docs/contributing.md).
pytestmark = pytest.mark.accelerator

KERNELS = {
    "2d 9": gaussian_kernel(9, 2.5),
    "separable 15": gaussian_kernel_1d(15, 3.0),
    "2d 3": gaussian_kernel(3, 1.0),
    "2d 25 (looped taps)": gaussian_kernel(25, 5.0),
}
# One strip (fewer rows than a strip of the compiled program), several strips, colour.
SHAPES = [(40, 300), (300, 170), (150, 90, 3)]


def levels_of(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(0, np.iinfo(dtype).max, shape, dtype=dtype, endpoint=True)


# Every kernel on every shape. On an image of one strip every kernel meets both types: there,
# XLA's fused conversion once differed from the host's by one unit in the last place, which
# only a 16-bit level shows (rounded the other way). Elsewhere the type alternates, so that
# each kernel and each shape still meets both.
CASES = [
    (name, shape, dtype)
    for k, name in enumerate(KERNELS)
    for s, shape in enumerate(SHAPES)
    for dtype in ((np.uint8, np.uint16) if s == 0 else [(np.uint8, np.uint16)[(k + s) % 2]])
]


@pytest.mark.slow
@pytest.mark.parametrize(
    "kernel_name, shape, dtype", CASES, ids=[f"{n}-{s}-{d.__name__}" for n, s, d in CASES]
)
def test_levels_are_those_of_the_floats_blurred_and_rounded_on_the_host(kernel_name, shape, dtype):
    kernel = KERNELS[kernel_name]
    levels = levels_of(dtype, shape, seed=len(kernel_name))
    radius = kernel.shape[0] // 2
    white = np.iinfo(dtype).max

    blurred = get_engine("jax").blocks.levels_call(levels, kernel, platform=None)

    # The halo is left out; the type is kept.
    inner = (slice(radius, shape[0] - radius), slice(radius, shape[1] - radius))
    assert blurred.dtype == dtype and blurred.shape == levels[inner].shape
    # Within a level of scipy's correlation of the same floats, rounded...
    pixels = np.multiply(levels, np.float32(1 / white), dtype=np.float32)
    expected = np.rint(np.clip(blur_oracle(pixels, kernel), 0, 1) * white)[inner]
    assert np.abs(blurred.astype(np.int64) - expected).max() <= 1
    # ...and exactly the levels the host's conversions around JAX-jit's float blur give.
    on_the_host = (to_8bit if dtype == np.uint8 else to_16bit)(blur_jax(pixels, kernel))
    np.testing.assert_array_equal(blurred, on_the_host[inner])


def test_black_and_white_stay_black_and_white():
    # The rounding's ends: no level below 0 or above white, a flat block stays flat.
    for value in (0, 255):
        levels = np.full((70, 80), value, np.uint8)
        blurred = get_engine("jax").blocks.levels_call(
            levels, gaussian_kernel(9, 2.5), platform=None
        )
        assert blurred.shape == (62, 72) and (blurred == value).all()
