"""An engine's output left on the device that blurred it, for a live preview.

A pane shows a few hundred thousand screen pixels of a photo of millions: the picture it draws
is made 8-bit and halved on the device (`picture_levels`), so what crosses to the host is what
is seen; a part at full size (`picture_region`: the 100% inset, the value under the cursor)
crosses alone. The float output itself crosses only when a caller reads it (saving, the
difference): `OutputOnDevice` reads as the float32 array it stands for (`np.asarray`, its
shape, indexing, any array method), fetched once and kept.

jax is imported by the engine that made the output; this module only uses what it is given.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

import numpy as np


class OutputOnDevice:
    """An image's blurred float32 pixels (height × width, or × channels), kept on `device` as
    rows of values (height × width·channels) until read."""

    def __init__(self, jax: Any, values: Any, shape: tuple[int, ...]) -> None:
        self._jax, self._values = jax, values
        self.shape = tuple(shape)
        self.dtype = np.dtype(np.float32)
        self.ndim = len(self.shape)
        self.size = int(np.prod(self.shape))
        self._lock = threading.Lock()
        self._fetched: np.ndarray | None = None

    @property
    def fetched(self) -> bool:
        """Whether the floats have crossed to the host (read by some caller)."""
        return self._fetched is not None

    def fetch(self) -> np.ndarray:
        """The float32 pixels on the host, read-only, fetched on the first call."""
        with self._lock:
            if self._fetched is None:
                host = np.asarray(self._jax.device_get(self._values), dtype=np.float32)
                host = host.reshape(self.shape)
                host.flags.writeable = False
                self._fetched = host
            return self._fetched

    # Read as the array it stands for.
    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        pixels = self.fetch()
        if dtype is not None and np.dtype(dtype) != pixels.dtype:
            return pixels.astype(dtype)
        return pixels.copy() if copy else pixels

    def __getitem__(self, key: Any) -> Any:
        return self.fetch()[key]

    def __len__(self) -> int:
        return self.shape[0]

    def __getattr__(self, name: str) -> Any:
        # Called only for what this class lacks: the array's own methods (astype, reshape, …).
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.fetch(), name)

    # The picture a pane draws, made on the device.
    @property
    def channels(self) -> int:
        return self.shape[2] if self.ndim == 3 else 1

    def picture_levels(self, first: int, count: int) -> list[np.ndarray]:
        """The 8-bit picture (each float clipped to [0, 1], times 255, rounded half to even, as
        saving rounds) halved `first` times, and `count` - 1 halvings more, each a level of the
        host's pyramid (blurapp.app.pyramid: each 2 × 2 block's mean rounded half up, an odd
        last row or column left out): height × width uint8, or × 3. Only these cross."""
        program = _levels_program(self._jax, self.shape, first, count)
        levels = self._jax.device_get(program(self._values))
        return [_as_picture(np.asarray(level)) for level in levels]

    def picture_region(self, top: int, left: int, height: int, width: int) -> np.ndarray:
        """Rows top … top + height, columns left … left + width of the 8-bit picture at full
        size (uint8, height × width, or × 3); only they cross."""
        full_height, full_width = self.shape[:2]
        if min(top, left) < 0 or min(height, width) <= 0 or top + height > full_height:
            raise IndexError(f"rows {top}:{top + height} are not inside {full_height}")
        if left + width > full_width:
            raise IndexError(f"columns {left}:{left + width} are not inside {full_width}")
        program = _region_program(self._jax, self.shape, height, width)
        region = np.asarray(self._jax.device_get(program(self._values, top, left)))
        return _as_picture(region)


def _as_picture(planes: np.ndarray) -> np.ndarray:
    """A grey level as it is; a colour level's three planes as height × width × 3, contiguous
    (the planes keep the device's last axis wide: a pixel's 3 channels there fill 3 of a TPU's
    128 lanes)."""
    if planes.ndim == 2:
        return np.ascontiguousarray(planes)
    return np.ascontiguousarray(np.moveaxis(planes, 0, -1))


def _to_8bit(jnp: Any, lax: Any, values: Any) -> Any:
    """Floats as 8-bit levels, rounded as blurapp.core.media.saving.to_8bit rounds them."""
    rounded = lax.round(
        lax.mul(jnp.clip(values, 0, 1), np.float32(255)), lax.RoundingMethod.TO_NEAREST_EVEN
    )
    return rounded.astype(jnp.int32)


def _planes(values: Any, channels: int) -> list[Any]:
    """Rows of values (height × width·channels) as one plane per channel."""
    if channels == 1:
        return [values]
    return [values[:, channel::channels] for channel in range(channels)]


def _halve(plane: Any) -> Any:
    """Each 2 × 2 block's mean of an int32 plane of levels, rounded half up; an odd last row
    or column left out."""
    height, width = plane.shape[0] // 2 * 2, plane.shape[1] // 2 * 2
    # Summed over a reshape, not as four strided slices: XLA reads the plane once.
    total = plane[:height, :width].reshape(height // 2, 2, width // 2, 2).sum(axis=(1, 3))
    return (total + 2) >> 2


@functools.lru_cache(maxsize=32)
def _levels_program(jax: Any, shape: tuple[int, ...], first: int, count: int) -> Any:
    import jax.numpy as jnp
    from jax import lax

    channels = shape[2] if len(shape) == 3 else 1

    def levels(values: Any) -> tuple[Any, ...]:
        values = values.reshape(shape[0], -1)  # rows of values, as the blur hands them back
        planes = [_to_8bit(jnp, lax, plane) for plane in _planes(values, channels)]
        made = []
        for halving in range(first + count):
            if halving >= first:
                made.append(planes)
            planes = [_halve(plane) for plane in planes]
        return tuple(
            (level[0] if channels == 1 else jnp.stack(level)).astype(jnp.uint8) for level in made
        )

    return jax.jit(levels)


@functools.lru_cache(maxsize=32)
def _region_program(jax: Any, shape: tuple[int, ...], height: int, width: int) -> Any:
    import jax.numpy as jnp
    from jax import lax

    channels = shape[2] if len(shape) == 3 else 1

    def region(values: Any, top: Any, left: Any) -> Any:
        values = values.reshape(shape[0], -1)
        part = lax.dynamic_slice(values, (top, left * channels), (height, width * channels))
        planes = [_to_8bit(jnp, lax, plane) for plane in _planes(part, channels)]
        return (planes[0] if channels == 1 else jnp.stack(planes)).astype(jnp.uint8)

    return jax.jit(region)
