"""The tutorial's manual convolution in NumPy: edge padding, one weighted shifted slice per tap."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


class BlurCancelled(Exception):
    """The caller asked the blur to stop before it finished."""


def blur_numpy(
    image: np.ndarray,
    kernel: np.ndarray,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> np.ndarray:
    """Correlate `image` with `kernel`, edges padded by repeating the border pixels.

    `progress(done, total)` is called after each kernel tap; `cancelled()` is checked
    before each tap and, when it returns True, BlurCancelled is raised.
    """
    image = _as_float32_2d(image)
    kernel = np.asarray(kernel, dtype=np.float32)
    size = kernel.shape[0]
    radius = size // 2
    height, width = image.shape
    padded = np.pad(image, radius, mode="edge")

    output = np.zeros_like(image)
    scratch = np.empty_like(image)  # reused for every tap, so no new array per tap
    total = size * size
    done = 0
    for dy in range(size):
        for dx in range(size):
            if cancelled is not None and cancelled():
                raise BlurCancelled
            np.multiply(padded[dy : dy + height, dx : dx + width], kernel[dy, dx], out=scratch)
            output += scratch
            done += 1
            if progress is not None:
                progress(done, total)
    return output


def _as_float32_2d(image: np.ndarray) -> np.ndarray:
    image = np.asarray(image, dtype=np.float32)
    if image.ndim != 2:
        raise ValueError(f"expected a 2-D grayscale image, got an array of shape {image.shape}")
    return image
