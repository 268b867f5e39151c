"""The stored levels a photo's float32 pixels were made from, told from the pixels: what of a
photo crosses to an accelerator (blurapp.core.engines.jax_runtime.to_move); and a clip's frames
given as levels (Clip.levels) made floats and back on the host, for an engine that blurs floats
only."""

from __future__ import annotations

import threading
import weakref

import numpy as np


class _StoredLevels:
    """The stored levels a photo's float32 pixels were made from, when they were: a photo read
    from an 8-bit file holds level × (1/255) in float32 (blurapp.core.media.pixels), and
    copying its levels to an accelerator moves a quarter of the bytes. Told from the pixels
    themselves (the engines get pixels, not files), once a photo: the answer for the last
    photo nothing can write to is kept while it lives."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: tuple[weakref.ref[np.ndarray], np.ndarray | None] | None = None

    def of(self, image: np.ndarray) -> np.ndarray | None:
        """`image`'s levels (uint8 or uint16, its shape), or None when its pixels are not
        exactly levels of either."""
        with self._lock:
            if self._last is not None and self._last[0]() is image:
                return self._last[1]
        levels = _levels_of(image)
        if cannot_change(image):
            with self._lock:
                self._last = (weakref.ref(image), levels)
        return levels


def _levels_of(image: np.ndarray) -> np.ndarray | None:
    for dtype in (np.uint8, np.uint16):
        white = np.iinfo(dtype).max
        scale = np.float32(1 / white)
        # The first row first: most pixels that are not levels say so there, at once.
        for part in (image[:1], image):
            with np.errstate(invalid="ignore", over="ignore"):
                scaled = np.rint(part * np.float32(white))
            if not (np.all(scaled >= 0) and np.all(scaled <= white)):
                break
            levels = scaled.astype(dtype)
            # In float32 as the host and the device make them (NumPy 1's value-based casting
            # would make 8-bit levels times a float32 scalar float16).
            if not np.array_equal(np.multiply(levels, scale, dtype=np.float32), part):
                break
        else:
            levels.flags.writeable = False  # kept for the photo and handed out again
            return levels
    return None


stored_levels = _StoredLevels()


def cannot_change(image: np.ndarray) -> bool:
    """Whether nothing can write to `image`'s values: it is read-only, and so is every array
    it is a view of (a read-only view of a writeable array changes with it)."""
    array: object = image
    while isinstance(array, np.ndarray):
        if array.flags.writeable:
            return False
        array = array.base
    return array is None or isinstance(array, bytes)


def levels_type(values: np.ndarray) -> np.dtype | None:
    """The type of stored levels `values` are, uint8 or uint16 in this machine's byte order (a
    big-endian file's samples too), or None for any other type (floats)."""
    if values.dtype.kind == "u" and values.dtype.itemsize in (1, 2):
        return np.dtype(np.uint8 if values.dtype.itemsize == 1 else np.uint16)
    return None


def pixels_or_levels(image: np.ndarray) -> np.ndarray:
    """`image` contiguous: as float32 pixels, or as the stored levels (uint8, uint16) a clip's
    frame is given in to a display call that takes them (LivePreview.takes_levels), which stay
    levels and cross as they are."""
    if levels_type(image) is not None:
        return np.ascontiguousarray(image)
    return np.ascontiguousarray(image, dtype=np.float32)


def levels_as_floats(levels: np.ndarray) -> np.ndarray:
    """Stored levels (uint8, uint16) as the float32 a photo's or a clip's reader makes of them:
    a level × (1/white), white the type's largest value (blurapp.core.media.pixels)."""
    white = np.iinfo(levels.dtype).max
    return np.multiply(levels, np.float32(1 / white), dtype=np.float32)


def floats_as_levels(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Float32 values in [0, 1] as levels of `dtype`, rounded as saving rounds them (clipped,
    times white, half to even: blurapp.core.media.saving; jax_program.floats_to_levels on a
    device)."""
    # In float32, or wider for wider floats (a plugin's float64), as saving works.
    work = np.clip(values, 0, 1, dtype=np.result_type(values.dtype, np.float32))
    np.multiply(work, np.iinfo(dtype).max, out=work)
    np.rint(work, out=work)
    return work.astype(dtype)
