"""What the engines' tests blur: random images and the Gaussian weights of a size."""

import numpy as np

from blurapp.core import gaussian_kernel
from blurapp.core.kernel import MAX_SIGMA


def random_image(shape, seed=0):
    """Random float32 pixels in [0, 1) of `shape` (height × width, × channels for colour, or
    frames first for a batch)."""
    return np.random.default_rng(seed).random(shape, dtype=np.float32)


def weights(size, algorithm):
    """The Gaussian of `size` taps a side: k × k, or its k weights for the separable blur."""
    kernel = gaussian_kernel(size, min(MAX_SIGMA, 0.3 * size + 0.5))
    if algorithm == "2d":
        return kernel
    row = kernel.sum(axis=0, dtype=np.float64)
    return (row / row.sum()).astype(np.float32)
