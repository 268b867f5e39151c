"""Properties every Gaussian blur has, checked on both engines and both algorithms."""

import numpy as np
import pytest
from helpers.engine_calls import first_output
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from blurapp.core import engine_names, gaussian_kernel, kernel_for
from blurapp.core.kernel import MAX_SIGMA, MIN_SIGMA

ENGINES = engine_names()
# Small shapes keep the JAX compilations (one per shape and kernel size) affordable; kernels
# up to 15 are often larger than the image itself.
SIZES = st.sampled_from([1, 3, 5, 9, 15])
SHAPES = st.tuples(st.integers(1, 12), st.integers(1, 12))
SIGMAS = st.floats(0.3, 6.0)
SMALLEST_NORMAL = np.finfo(np.float32).tiny
PROPERTY_SETTINGS = settings(max_examples=25, deadline=None)


def images(shape):
    return arrays(np.float32, shape, elements=st.floats(0, 1, width=32))


@st.composite
def setups(draw):
    engine = draw(st.sampled_from(sorted(ENGINES)))
    algorithm = draw(st.sampled_from(["2d", "separable"]))
    kernel = kernel_for(algorithm, draw(SIZES), draw(SIGMAS))
    return engine, algorithm, kernel


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(setup=setups(), shape=SHAPES, value=st.floats(0, 1, width=32))
def test_a_constant_image_stays_constant(setup, shape, value):
    engine, _, kernel = setup
    output = first_output(engine, np.full(shape, value, np.float32), kernel)
    np.testing.assert_allclose(output, value, atol=1e-6, rtol=0)


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(setup=setups(), data=st.data(), shape=SHAPES)
def test_the_output_stays_within_the_inputs_range(setup, data, shape):
    engine, _, kernel = setup
    image = data.draw(images(shape))
    output = first_output(engine, image, kernel)
    assert output.min() >= image.min() - 1e-6
    assert output.max() <= image.max() + 1e-6


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(setup=setups(), data=st.data(), shape=SHAPES)
def test_blurring_the_transpose_is_the_transpose_of_the_blur(setup, data, shape):
    engine, _, kernel = setup
    image = data.draw(images(shape))
    np.testing.assert_allclose(
        first_output(engine, np.ascontiguousarray(image.T), kernel),
        first_output(engine, image, kernel).T,
        atol=1e-6,
        rtol=0,
    )


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(
    setup=setups(),
    data=st.data(),
    shape=SHAPES,
    a=st.floats(-2, 2, width=32),
    b=st.floats(-2, 2, width=32),
)
def test_the_blur_is_linear(setup, data, shape, a, b):
    engine, _, kernel = setup
    f, g = data.draw(images(shape)), data.draw(images(shape))
    combined = (np.float32(a) * f + np.float32(b) * g).astype(np.float32)
    expected = np.float32(a) * first_output(engine, f, kernel) + np.float32(b) * first_output(
        engine, g, kernel
    )
    np.testing.assert_allclose(first_output(engine, combined, kernel), expected, atol=1e-5, rtol=0)


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize("algorithm", ["2d", "separable"])
@settings(max_examples=10, deadline=None)
@given(data=st.data(), shape=SHAPES, sigma=SIGMAS)
def test_a_kernel_of_size_one_is_the_identity(engine, algorithm, data, shape, sigma):
    image = data.draw(images(shape))
    output = first_output(engine, image, kernel_for(algorithm, 1, sigma))
    # The engines promise the identity up to subnormals, which XLA on the CPU flushes to zero.
    subnormal = image < SMALLEST_NORMAL
    np.testing.assert_array_equal(output[~subnormal], image[~subnormal])
    assert ((output[subnormal] == image[subnormal]) | (output[subnormal] == 0)).all()


@settings(max_examples=200, deadline=None)
@given(size=st.integers(0, 50).map(lambda n: 2 * n + 1), sigma=st.floats(MIN_SIGMA, MAX_SIGMA))
def test_the_kernel_sums_to_one_and_is_symmetric(size, sigma):
    kernel = gaussian_kernel(size, sigma)
    assert float(kernel.sum(dtype=np.float64)) == pytest.approx(1.0, abs=1e-5)
    np.testing.assert_array_equal(kernel, kernel.T)
    np.testing.assert_array_equal(kernel, kernel[::-1, :])
    np.testing.assert_array_equal(kernel, kernel[:, ::-1])
    assert (kernel >= 0).all()
