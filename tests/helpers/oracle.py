"""The tests' independent oracle: every blur BlurApp makes must equal scipy's correlation."""

import contextlib
import time

import numpy as np
from scipy.ndimage import correlate


def blur_oracle(image, kernel, dtype=np.float64):
    """scipy's correlation with the edge repeated (mode "nearest"), channel by channel for a
    colour image (channels last); a 1-D kernel stands for its outer product.

    In float64 unless `dtype` says otherwise: scipy sums in float64 whatever the type, so a
    float32 result differs only by its rounding, at half the memory of a huge image."""
    weights = np.asarray(kernel, np.float64)
    if weights.ndim == 1:
        weights = np.outer(weights, weights)
    pixels = np.asarray(image, dtype)
    if pixels.ndim == 3:
        return np.stack(
            [correlate(pixels[..., c], weights, mode="nearest") for c in range(pixels.shape[2])],
            axis=-1,
        )
    return correlate(pixels, weights, mode="nearest")


def halved(picture):
    """An 8-bit picture (2-D) halved: each pixel the mean of 2 × 2, rounded half up; an odd
    last row or column left out."""
    height, width = picture.shape[0] // 2, picture.shape[1] // 2
    blocks = np.asarray(picture[: 2 * height, : 2 * width], np.int64)
    return (blocks.reshape(height, 2, width, 2).sum(axis=(1, 3)) + 2) // 4


def covered_mean(picture, height, width):
    """`picture` (2-D) reduced to height × width, each pixel the mean of the pixels whose
    centres fall within it."""

    def weights(count, length):
        edges = np.arange(count + 1) * (length / count)
        centres = np.arange(length) + 0.5
        inside = (centres[None, :] > edges[:-1, None]) & (centres[None, :] <= edges[1:, None])
        return inside / inside.sum(axis=1, keepdims=True)

    rows, columns = picture.shape
    return weights(height, rows) @ np.asarray(picture, np.float64) @ weights(width, columns).T


def check_against_oracle(output, image, kernel):
    """Asserts `output` is `image` blurred by `kernel`: its shape, in float32, within
    TOLERANCE of the oracle's."""
    from blurapp.core import TOLERANCE

    assert output.shape == image.shape and output.dtype == np.float32
    np.testing.assert_allclose(output, blur_oracle(image, kernel), rtol=0, atol=TOLERANCE)


@contextlib.contextmanager
def slow_oracle_engine(seconds):
    """An engine named "slow", registered while in the block, that blurs right (scipy's
    correlation) but takes `seconds` a frame: an engine that falls behind a clip."""
    from blurapp.core.engines import Engine, register, unregister
    from blurapp.core.engines.runs import Call, FirstCall

    def first_call(image, kernel, *, platform, progress, cancelled):
        time.sleep(seconds)
        output = correlate(image, kernel, mode="nearest").astype(np.float32)
        return FirstCall(output=output, again=lambda: Call(seconds), seconds=seconds)

    register(Engine("slow", "Slow", first_call))
    try:
        yield "slow"
    finally:
        unregister("slow")
