"""Pictures at several resolutions, so a zoomed-out 24 MP photo is drawn from a small copy.

Made on the worker thread with NumPy; the panes only pick a level and draw part of it.
"""

from __future__ import annotations

import numpy as np

# Levels stop once the picture fits in this many pixels on its longer side.
SMALLEST_LEVEL = 512


def build_pyramid(picture: np.ndarray) -> tuple[np.ndarray, ...]:
    """`picture` (uint8, height × width) and successive halvings, each pixel the mean of 2×2."""
    picture = np.ascontiguousarray(picture, dtype=np.uint8)
    levels = [picture]
    while max(levels[-1].shape) > SMALLEST_LEVEL and min(levels[-1].shape) >= 2:
        levels.append(_halve(levels[-1]))
    return tuple(levels)


def _halve(picture: np.ndarray) -> np.ndarray:
    height, width = picture.shape[0] // 2 * 2, picture.shape[1] // 2 * 2
    quads = picture[:height, :width].reshape(height // 2, 2, width // 2, 2)
    # uint16 sums cannot overflow (4 × 255); +2 rounds to nearest.
    total = quads.sum(axis=(1, 3), dtype=np.uint16) + 2
    return (total // 4).astype(np.uint8)
