import math

import numpy as np
import pytest

from blurapp.core.kernel import (
    DEFAULT_KERNEL_SIZE,
    DEFAULT_SIGMA,
    MAX_KERNEL_SIZE,
    MAX_SIGMA,
    MIN_SIGMA,
    InvalidKernelError,
    auto_kernel_size,
    cuts_gaussian_short,
    effective_kernel_size,
    gaussian_kernel,
)


def test_defaults_are_the_tutorials():
    assert (DEFAULT_KERNEL_SIZE, DEFAULT_SIGMA) == (9, 2.5)
    assert gaussian_kernel().shape == (9, 9)


@pytest.mark.parametrize("size", [1, 3, 9, 31])
@pytest.mark.parametrize("sigma", [0.3, 1.0, 2.5, 10.0])
def test_kernel_matches_the_formula(size, sigma):
    kernel = gaussian_kernel(size, sigma)
    assert kernel.dtype == np.float32
    assert kernel.shape == (size, size)
    r = size // 2
    y, x = np.mgrid[-r : r + 1, -r : r + 1]
    expected = np.exp(-(x**2 + y**2) / (2 * sigma**2))
    expected /= expected.sum()
    np.testing.assert_allclose(kernel, expected, rtol=1e-6, atol=1e-9)
    assert math.isclose(float(kernel.sum(dtype=np.float64)), 1.0, abs_tol=1e-6)
    np.testing.assert_array_equal(kernel, kernel.T)
    np.testing.assert_array_equal(kernel, kernel[::-1, ::-1])


@pytest.mark.parametrize(("sigma", "size"), [(0.1, 3), (1.0, 7), (2.5, 17), (3.4, 23)])
def test_auto_size_is_two_ceil_three_sigma_plus_one(sigma, size):
    assert auto_kernel_size(sigma) == size
    assert effective_kernel_size("auto", sigma) == size
    assert gaussian_kernel("auto", sigma).shape == (size, size)


def test_the_smallest_sigma_gives_the_identity_not_nan():
    kernel = gaussian_kernel(5, MIN_SIGMA)
    assert np.isfinite(kernel).all()
    assert kernel[2, 2] == 1 and kernel.sum() == 1


def test_every_sigma_in_range_has_an_automatic_size_within_the_maximum():
    assert effective_kernel_size("auto", MAX_SIGMA) <= MAX_KERNEL_SIZE
    assert gaussian_kernel("auto", MAX_SIGMA).shape == (101, 101)


@pytest.mark.parametrize(
    ("size", "sigma", "short"),
    [(9, 2.5, False), (11, 9.0, True), (101, 16.5, False), (1, 16.5, False), (3, 1.5, True)],
)
def test_a_kernel_that_cuts_the_gaussian_short_is_noted(size, sigma, short):
    from blurapp.core.report.figures import short_kernel_note

    assert cuts_gaussian_short(size, sigma) is short
    note = short_kernel_note(size, sigma)
    if short:
        assert note is not None and f"{size} × {size}" in note and "cut short" in note
    else:
        assert note is None


@pytest.mark.parametrize(
    ("size", "words"),
    [(0, "at least 1"), (-3, "at least 1"), (4, "odd"), (2.5, "whole number"), ("big", "'auto'")],
)
def test_bad_size_is_refused_with_the_reason(size, words):
    with pytest.raises(InvalidKernelError, match=words):
        gaussian_kernel(size, 1.0)


@pytest.mark.parametrize(
    ("sigma", "words"),
    [
        (0, "between 0.1 and 16.5, not 0"),
        (-1, "between 0.1 and 16.5, not -1"),
        (16.500001, "between 0.1 and 16.5, not 16.500001"),
        (math.nan, "finite"),
        (math.inf, "finite"),
        (0.05, "between 0.1 and 16.5"),
        (16.6, "between 0.1 and 16.5"),
        (1e308, "between 0.1 and 16.5, not 1e\\+308"),
    ],
)
def test_bad_sigma_is_refused_with_the_reason(sigma, words):
    with pytest.raises(InvalidKernelError, match=f"sigma must be.*{words}"):
        gaussian_kernel(9, sigma)


def test_sizes_beyond_the_maximum_are_refused():
    with pytest.raises(InvalidKernelError, match="at most 101"):
        gaussian_kernel(103, 2.0)
    assert gaussian_kernel(101, MAX_SIGMA).shape == (101, 101)


def test_an_unknown_algorithm_is_refused_with_the_ones_there_are():
    from blurapp.core.kernel import check_algorithm, kernel_for

    assert check_algorithm("separable") == "separable"
    with pytest.raises(
        InvalidKernelError, match="algorithm must be one of 2d, separable, not 'fft'"
    ):
        kernel_for("fft", 9, 2.5)
