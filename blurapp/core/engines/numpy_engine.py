"""The tutorial's manual convolution in NumPy: edge padding, one weighted shifted slice per tap."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from blurapp.core.engines.engine import Engine
from blurapp.core.runs import BlurCancelled, Call, Cancelled, FirstCall, Progress
from blurapp.core.wording import QT_TRANSLATE_NOOP


def blur_numpy(
    image: np.ndarray,
    kernel: np.ndarray,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> np.ndarray:
    """Correlate `image` with `kernel`, edges padded by repeating the border pixels.

    `image` is height × width, or height × width × channels (each channel blurred alike, all
    of them in every tap). A k×k kernel is applied as the tutorial does, one tap at a time; a
    1-D kernel of k weights is applied along the rows and then along the columns (separable:
    2k taps).
    `progress(done, total)` is called after each tap; `cancelled()` is checked before
    each tap and, when it returns True, BlurCancelled is raised.
    """
    image = _as_float32_image(image)
    kernel = np.asarray(kernel, dtype=np.float32)
    radius = kernel.shape[0] // 2
    channels = image.shape[2:]
    padded = np.pad(image, ((radius, radius), (radius, radius), *[(0, 0)] * len(channels)), "edge")
    taps = _Taps(kernel.size if kernel.ndim == 2 else 2 * kernel.size, progress, cancelled)
    if kernel.ndim == 2:
        return _add_shifted_slices(padded, kernel, image.shape, taps)
    # Rows first, over every padded row, so the column pass has its border rows to read.
    rows_shape = (padded.shape[0], image.shape[1], *channels)
    rows = _add_shifted_slices(padded, kernel[None, :], rows_shape, taps)
    return _add_shifted_slices(rows, kernel[:, None], image.shape, taps)


class _Taps:
    """Counts kernel taps for progress, and stops between taps when asked to."""

    def __init__(self, total, progress, cancelled) -> None:
        self.total, self.done = total, 0
        self._progress, self._cancelled = progress, cancelled

    def before(self) -> None:
        if self._cancelled is not None and self._cancelled():
            raise BlurCancelled

    def after(self) -> None:
        self.done += 1
        if self._progress is not None:
            self._progress(self.done, self.total)


def _add_shifted_slices(
    padded: np.ndarray, kernel: np.ndarray, shape: tuple[int, ...], taps: _Taps
) -> np.ndarray:
    height, width = shape[:2]
    output = np.zeros(shape, dtype=np.float32)
    scratch = np.empty(shape, dtype=np.float32)  # reused for every tap: no new array per tap
    for dy in range(kernel.shape[0]):
        for dx in range(kernel.shape[1]):
            taps.before()
            np.multiply(padded[dy : dy + height, dx : dx + width], kernel[dy, dx], out=scratch)
            output += scratch
            taps.after()
    return output


def first_numpy_call(
    image: np.ndarray,
    kernel: np.ndarray,
    *,
    platform: str | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> FirstCall:
    """Blur once, timed; NumPy has nothing to compile or copy, and runs on the CPU whatever
    the registry's `platform`. Taps are reported on this call only; every call stops between
    taps when `cancelled()` turns True."""
    image = _as_float32_image(image)

    def blur(report: Progress | None) -> tuple[np.ndarray, float]:
        start = time.perf_counter()
        output = blur_numpy(image, kernel, progress=report, cancelled=cancelled)
        return output, time.perf_counter() - start

    output, seconds = blur(progress)
    return FirstCall(output=output, again=lambda: Call(blur(None)[1]), seconds=seconds)


def _as_float32_image(image: np.ndarray) -> np.ndarray:
    image = np.asarray(image, dtype=np.float32)
    if image.ndim not in (2, 3):
        raise ValueError(
            "expected an image of height × width (grayscale) or height × width × channels, "
            f"got an array of shape {image.shape}"
        )
    return image


# What the comparison measures every other engine against.
NUMPY = Engine(
    "numpy",
    QT_TRANSLATE_NOOP("Engines", "NumPy"),
    first_numpy_call,
    colour="#4c72b0",
    column="NumPy",
    # One pass over its image per kernel tap: fastest on pieces whose copies stay in the CPU's
    # cache. Strips of 64 rows of a 2048-wide block (about 0.5 MB each) blur three times faster
    # on a 2-core machine than the whole block (8 MB a copy).
    strip_rows=64,
)
ENGINES = (NUMPY,)
