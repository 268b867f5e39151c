"""Pictures at several resolutions, so a zoomed-out 24 MP photo is drawn from a small copy.

Made by the jobs (blurapp.app.jobs) off the window's thread, with Pillow (NumPy for other than 1
or 3 channels); the panes only pick a level and draw part of it.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

# Levels stop once the picture fits in this many pixels on its longer side.
SMALLEST_LEVEL = 512


def build_pyramid(picture: np.ndarray) -> tuple[np.ndarray, ...]:
    """`picture` (uint8, height × width, or height × width × channels) and successive halvings,
    each pixel the mean of 2×2."""
    picture = np.ascontiguousarray(picture, dtype=np.uint8)
    levels = [picture]
    while max(levels[-1].shape[:2]) > SMALLEST_LEVEL and min(levels[-1].shape[:2]) >= 2:
        levels.append(_halve(levels[-1]))
    return tuple(levels)


def _halve(picture: np.ndarray) -> np.ndarray:
    """Each 2×2 block's mean, rounded half up; an odd last row or column is left out."""
    height, width = picture.shape[0] // 2 * 2, picture.shape[1] // 2 * 2
    if picture.ndim == 2 or picture.shape[2] == 3:
        # Pillow's reduce: one pass in C, the same levels, quicker than the slices below, which
        # walk an RGB picture's channels one value at a time. (Pillow averages 2 or 4 channels
        # as grey and alpha, so those take the slices.)
        return np.array(Image.fromarray(picture).reduce(2, box=(0, 0, width, height)))
    # The four pixels of each 2×2 added as four strided slices, in place: several times
    # quicker than a sum over a 4-D reshape. uint16 cannot overflow (4 × 255).
    total = picture[0:height:2, 0:width:2].astype(np.uint16)
    total += picture[1:height:2, 0:width:2]
    total += picture[0:height:2, 1:width:2]
    total += picture[1:height:2, 1:width:2]
    total += 2  # rounds to nearest
    total >>= 2
    return total.astype(np.uint8)
