"""BlurSpec: one checked value for what the user asked for, and what follows from it."""

import numpy as np
import pytest

from blurapp.core.kernel import InvalidKernelError, gaussian_kernel, gaussian_kernel_1d
from blurapp.core.spec import BlurSpec


def test_a_spec_is_checked_when_it_is_made():
    with pytest.raises(InvalidKernelError):
        BlurSpec(kernel_size=4)
    with pytest.raises(InvalidKernelError):
        BlurSpec(sigma=float("nan"))
    with pytest.raises(InvalidKernelError):
        BlurSpec(algorithm="3d")
    assert BlurSpec(kernel_size=" AUTO ", sigma="2").kernel_size == "auto"


def test_auto_uses_the_size_that_covers_three_sigmas():
    spec = BlurSpec(kernel_size="auto", sigma=2.5)
    assert spec.size == 17
    assert spec.kernel.shape == (17, 17)
    assert spec.same_blur(BlurSpec(kernel_size=17, sigma=2.5))


def test_the_kernel_follows_the_algorithm():
    np.testing.assert_array_equal(BlurSpec(9, 2.5).kernel, gaussian_kernel(9, 2.5))
    np.testing.assert_array_equal(BlurSpec(9, 2.5, "separable").kernel, gaussian_kernel_1d(9, 2.5))


def test_colour_matters_only_for_a_colour_photo():
    grey, colour = BlurSpec(color=False), BlurSpec(color=True)
    assert not grey.same_blur(colour)
    assert grey.same_blur(colour, in_colour=False)


def test_words_and_file_names():
    spec = BlurSpec(11, 2.5, "separable")
    assert spec.words() == "11 × 11, sigma 2.5, separable (11 + 11 taps)"
    assert spec.result_name("coffee", "jax@gpu", in_colour=True) == (
        "coffee-jax-gpu-11x11-s2.5-separable-colour"
    )
    assert BlurSpec().result_name("coffee", "numpy") == "coffee-numpy-9x9-s2.5"


def test_the_description_names_the_engine_as_the_command_line_does():
    described = BlurSpec(13, 3.0).description("jax", channels=3)
    assert described["engine"] == "jax"
    assert described["kernel size"] == "13" and described["sigma"] == "3"
    assert described["algorithm"] == "2d" and described["channels"] == "3"
    assert described["Software"].startswith("BlurApp ")
