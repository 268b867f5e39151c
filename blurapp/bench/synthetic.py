"""The bench's images and clips: made, not loaded, so every run times the same pixels."""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from blurapp.core.media.clip import Clip, ClipInfo

# Photo-like aspect ratio 3:2, as the 24 MP reference image (6000 × 4000).
_ASPECT = 1.5


def synthetic_image(megapixels: float, seed: int = 0, channels: int = 1) -> np.ndarray:
    """A reproducible float32 image in [0, 1] of about `megapixels`, 3:2 landscape; height ×
    width, or height × width × `channels` when there are more than one. Its pixels are 8-bit
    levels, as a photo read from an 8-bit file holds them (blurapp.core.media.pixels), so an
    engine that moves a photo's levels rather than its floats moves them here too."""
    height = max(1, round(math.sqrt(megapixels * 1e6 / _ASPECT)))
    width = max(1, round(height * _ASPECT))
    shape = (height, width) if channels == 1 else (height, width, channels)
    levels = np.random.default_rng(seed).integers(0, 256, shape, dtype=np.uint8)
    return levels * np.float32(1 / 255)


class SyntheticClip(Clip):
    """A clip of `count` frames made, not read: a few distinct random frames of 8-bit levels,
    each frame handed out anew (a fresh copy of its levels, or fresh floats made of them), as a
    decoder writes each frame anew. Reading it costs the least any clip's reading can: the
    bench's stand-in for decoding."""

    DISTINCT = 2
    gives_levels = True

    def __init__(self, width: int, height: int, count: int, *, colour: bool = False) -> None:
        shape = (height, width, 3) if colour else (height, width)
        rng = np.random.default_rng(0)
        self._made = [rng.integers(0, 256, shape, dtype=np.uint8) for _ in range(self.DISTINCT)]
        self.info = ClipInfo(
            name=f"synthetic {width}×{height}{' colour' if colour else ''}",
            width=width,
            height=height,
            frame_count=count,
            frames_per_second=30.0,
            colour=colour,
        )

    def _read(self, start: int) -> Iterator[np.ndarray]:
        for index in range(start, self.info.frame_count or 0):
            levels = self._made[index % self.DISTINCT]
            yield np.multiply(levels, np.float32(1 / 255), dtype=np.float32)

    def _read_levels(self, start: int) -> Iterator[np.ndarray]:
        for index in range(start, self.info.frame_count or 0):
            yield self._made[index % self.DISTINCT].copy()
