"""The bench's images: made, not loaded, so every run times the same pixels."""

from __future__ import annotations

import math

import numpy as np

# Photo-like aspect ratio 3:2, as the 24 MP reference image (6000 × 4000).
_ASPECT = 1.5


def synthetic_image(megapixels: float, seed: int = 0, channels: int = 1) -> np.ndarray:
    """A reproducible float32 image in [0, 1] of about `megapixels`, 3:2 landscape; height ×
    width, or height × width × `channels` when there are more than one."""
    height = max(1, round(math.sqrt(megapixels * 1e6 / _ASPECT)))
    width = max(1, round(height * _ASPECT))
    shape = (height, width) if channels == 1 else (height, width, channels)
    return np.random.default_rng(seed).random(shape, dtype=np.float32)
