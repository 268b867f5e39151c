"""Every engine blurs a colour image (height × width × channels) channel by channel, each
channel as scipy's correlate would (issue 12's engine part; the window and files come later)."""

import numpy as np
import pytest
from helpers.oracle import blur_oracle

from blurapp.core import TOLERANCE, compare_engines, gaussian_kernel, gaussian_kernel_1d, get_engine
from blurapp.core.engines.jax_engine import compiled_blurs

# Run where the accelerator is: `pytest -m accelerator` (docs/contributing.md).
pytestmark = pytest.mark.accelerator

ENGINES = ("numpy", "jax", "jax-eager")


def colour_image(height, width, channels=3, seed=0):
    return np.random.default_rng(seed).random((height, width, channels), dtype=np.float32)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("shape", [(1, 1, 3), (5, 3, 3), (40, 17, 3), (150, 97, 4)])
@pytest.mark.parametrize("separable", [False, True])
@pytest.mark.parametrize("size", [1, 3, 9])
def test_each_channel_is_blurred_as_scipy_blurs_it(engine, shape, separable, size):
    image = colour_image(*shape, seed=size)
    sigma = 0.3 * size + 0.5
    kernel = gaussian_kernel_1d(size, sigma) if separable else gaussian_kernel(size, sigma)
    output = get_engine(engine).blur(image, kernel, repeats=0).output
    assert output.shape == shape and output.dtype == np.float32
    np.testing.assert_allclose(output, blur_oracle(image, kernel), rtol=0, atol=TOLERANCE)


@pytest.mark.slow
def test_a_tall_colour_photo_through_jax_jits_strips_and_a_large_kernel():
    image = colour_image(473, 300, seed=5)
    for kernel in (gaussian_kernel(9, 2.5), gaussian_kernel(25, 5.0), gaussian_kernel_1d(31, 6)):
        output = get_engine("jax").blur(image, kernel, repeats=0).output
        np.testing.assert_allclose(output, blur_oracle(image, kernel), rtol=0, atol=TOLERANCE)


def test_jax_jit_blurs_the_channels_in_one_compiled_program():
    image = colour_image(64, 48, seed=2)
    compiled_blurs.clear()
    get_engine("jax").blur(image, gaussian_kernel(5, 1.5), repeats=0)
    from blurapp.core.engines.jax_runtime import jax_device

    assert compiled_blurs.held() == 1
    assert compiled_blurs.holds((64, 48, 3), (5, 5), jax_device())


def test_grey_with_a_square_kernel_and_colour_with_separable_taps_get_programs_of_their_own():
    # (10, 12) + (3, 3) and (10, 12, 3) + (3,) once flattened into one cache key alike.
    grey, colour = colour_image(10, 12, seed=4)[..., 0].copy(), colour_image(10, 12, seed=4)
    compiled_blurs.clear()
    jax = get_engine("jax")
    for image, kernel in ((grey, gaussian_kernel(3, 1.0)), (colour, gaussian_kernel_1d(3, 1.0))):
        output = jax.blur(image, kernel, repeats=0).output
        np.testing.assert_allclose(output, blur_oracle(image, kernel), rtol=0, atol=TOLERANCE)


def test_a_comparison_of_a_colour_image_agrees_across_engines():
    result = compare_engines(colour_image(60, 90, seed=3), repeats=2)
    assert result.reference_run.output.shape == (60, 90, 3)
    assert result.max_abs_diff <= TOLERANCE


def test_numpy_reports_taps_once_for_all_channels():
    seen = []
    get_engine("numpy").blur(
        colour_image(8, 8), gaussian_kernel(3, 1.0), repeats=0, progress=lambda d, t: seen.append(t)
    )
    assert seen == [9] * 9  # 9 taps, each over the three channels at once
