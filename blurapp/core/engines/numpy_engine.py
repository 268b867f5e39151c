"""The tutorial's manual convolution in NumPy: edge padding, one weighted shifted slice per tap.

Two formulations of the same sums: the reference engine ("numpy") adds the shifted slices a
block of BLOCK_ROWS rows at a time, so a block and its slices stay in the CPU's cache while
every tap reads them, as JAX-jit's strips do; the tutorial's loop ("numpy-loop") makes one pass
over the whole image per tap. Both add the taps in the same order, so their outputs are equal.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from blurapp.core.engines.engine import Blocks, Engine, Floors, Shown
from blurapp.core.engines.gemm import TimedGemm, chosen_gemm
from blurapp.core.engines.runs import BlurCancelled, Call, Cancelled, FirstCall, Progress
from blurapp.core.platforms import HOST_PLATFORM
from blurapp.core.wording import QT_TRANSLATE_NOOP

# Output rows blurred per block. A block of 64 rows of a 6000-wide grey photo is 1.5 MB, and
# the slices each tap reads lie within 64 + k rows of it: blocks of 32 to 128 rows run in well
# under half the time of one pass per tap over the whole image (docs/performance.md, "What the
# code's settings rest on").
BLOCK_ROWS = 64


def blur_numpy(
    image: np.ndarray,
    kernel: np.ndarray,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> np.ndarray:
    """Correlate `image` with `kernel`, edges padded by repeating the border pixels, a block
    of BLOCK_ROWS output rows at a time.

    `image` is height × width, or height × width × channels (each channel blurred alike, all
    of them in every tap). A k×k kernel is applied one tap at a time, as the tutorial does; a
    1-D kernel of k weights along the rows and then along the columns (separable: 2k taps), a
    block's rows (with the kernel's reach of rows around it) before its columns.
    `progress(done, total)` counts kernel taps' worth of work over the whole image, once per
    whole tap; `cancelled()` is checked before each tap of each block and, when it returns
    True, BlurCancelled is raised.
    """
    image = _as_float32_image(image)
    kernel = np.asarray(kernel, dtype=np.float32)
    padded = _padded_in_blocks(image, kernel, cancelled)
    height = image.shape[0]
    radius = kernel.shape[0] // 2
    taps = _Taps(kernel.size if kernel.ndim == 2 else 2 * kernel.size, progress, cancelled)
    taps.rows_in_all = height
    output = np.empty(image.shape, dtype=np.float32)
    scratch = np.empty((min(BLOCK_ROWS, height), *image.shape[1:]), dtype=np.float32)
    if kernel.ndim == 1:
        rows_shape = (min(BLOCK_ROWS, height) + 2 * radius, *image.shape[1:])
        rows, rows_scratch = np.empty(rows_shape, np.float32), np.empty(rows_shape, np.float32)
    for top in range(0, height, BLOCK_ROWS):
        count = min(BLOCK_ROWS, height - top)
        taps.rows_now = count
        if kernel.ndim == 2:
            band = padded[top : top + count + 2 * radius]
            _add_slices_into(output[top : top + count], band, kernel, scratch[:count], taps)
            continue
        # The block's rows and the kernel's reach around it first, so its columns have them.
        block_rows = rows[: count + 2 * radius]
        band = padded[top : top + count + 2 * radius]
        _add_slices_into(block_rows, band, kernel[None, :], rows_scratch[: len(block_rows)], taps)
        _add_slices_into(
            output[top : top + count], block_rows, kernel[:, None], scratch[:count], taps
        )
    return output


def blur_numpy_loop(
    image: np.ndarray,
    kernel: np.ndarray,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> np.ndarray:
    """blur_numpy as the tutorial writes it: each tap one pass over the whole image (a
    separable kernel's row pass over every padded row, then its column pass).
    `progress(done, total)` is called after each tap; `cancelled()` is checked before each."""
    image = _as_float32_image(image)
    kernel = np.asarray(kernel, dtype=np.float32)
    padded = _padded(image, kernel)
    taps = _Taps(kernel.size if kernel.ndim == 2 else 2 * kernel.size, progress, cancelled)
    if kernel.ndim == 2:
        return _add_shifted_slices(padded, kernel, image.shape, taps)
    rows_shape = (padded.shape[0], *image.shape[1:])
    rows = _add_shifted_slices(padded, kernel[None, :], rows_shape, taps)
    return _add_shifted_slices(rows, kernel[:, None], image.shape, taps)


def _padded(image: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    radius = kernel.shape[0] // 2
    channels = [(0, 0)] * (image.ndim - 2)  # a colour photo's channels are not padded
    return np.pad(image, ((radius, radius), (radius, radius), *channels), "edge")


# Rows padded between two looks at `cancelled`: the whole pad of a 24 MP photo is one call of
# 30 to 200 ms (its fresh memory faulted in), which a live preview's next change would wait for.
PAD_BLOCK_ROWS = 256


def _padded_in_blocks(
    image: np.ndarray, kernel: np.ndarray, cancelled: Callable[[], bool] | None
) -> np.ndarray:
    """_padded's array (each edge pixel repeated), made PAD_BLOCK_ROWS rows at a time,
    `cancelled()` checked before each (BlurCancelled)."""
    radius = kernel.shape[0] // 2
    height, width = image.shape[:2]
    padded = np.empty((height + 2 * radius, width + 2 * radius, *image.shape[2:]), image.dtype)
    for top in range(0, height, PAD_BLOCK_ROWS):
        if cancelled is not None and cancelled():
            raise BlurCancelled
        rows = image[top : top + PAD_BLOCK_ROWS]
        into = padded[radius + top : radius + top + len(rows)]
        into[:, radius : radius + width] = rows
        into[:, :radius] = rows[:, :1]
        into[:, radius + width :] = rows[:, -1:]
    padded[:radius] = padded[radius]
    padded[radius + height :] = padded[radius + height - 1]
    return padded


class _Taps:
    """Counts kernel taps for progress, and stops between taps when asked to.

    A blocked blur reports taps' worth of work: `rows_now` rows of `rows_in_all` per tap."""

    def __init__(self, total, progress, cancelled) -> None:
        self.total, self.done = total, 0
        self._progress, self._cancelled = progress, cancelled
        self.rows_in_all = self.rows_now = 1
        self._rows_done = 0  # tap × rows, summed over the taps done

    def before(self) -> None:
        if self._cancelled is not None and self._cancelled():
            raise BlurCancelled

    def after(self) -> None:
        self._rows_done += self.rows_now
        done = self._rows_done // self.rows_in_all
        if done > self.done:
            self.done = done
            if self._progress is not None:
                self._progress(done, self.total)


def _add_slices_into(
    output: np.ndarray, band: np.ndarray, kernel: np.ndarray, scratch: np.ndarray, taps: _Taps
) -> None:
    """output = Σ kernel[dy, dx] × band shifted by (dy, dx), the taps in the tutorial's order:
    the first written, each next one added."""
    height, width = output.shape[:2]
    for dy in range(kernel.shape[0]):
        for dx in range(kernel.shape[1]):
            taps.before()
            weighted = output if dy == dx == 0 else scratch
            np.multiply(band[dy : dy + height, dx : dx + width], kernel[dy, dx], out=weighted)
            if weighted is scratch:
                output += scratch
            taps.after()


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


def _first_call(blur_function: Callable[..., np.ndarray]):
    def first_call(
        image: np.ndarray,
        kernel: np.ndarray,
        *,
        platform: str | None = None,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> FirstCall:
        """Blur once, timed; NumPy has nothing to compile or copy, and runs on the CPU whatever
        the registry's `platform`. Taps are reported on this call only; every call stops
        between taps when `cancelled()` turns True."""
        image = _as_float32_image(image)

        def blur(report: Progress | None) -> tuple[np.ndarray, float]:
            start = time.perf_counter()
            output = blur_function(image, kernel, progress=report, cancelled=cancelled)
            return output, time.perf_counter() - start

        output, seconds = blur(progress)
        return FirstCall(
            output=output,
            again=lambda: Call(blur(None)[1]),
            seconds=seconds,
            in_calling_thread=True,
        )

    return first_call


first_numpy_call = _first_call(blur_numpy)
first_numpy_loop_call = _first_call(blur_numpy_loop)


def first_numpy_copy(
    image: np.ndarray,
    kernel: np.ndarray,
    *,
    platform: str | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> FirstCall:
    """The floor of any blur on the CPU: the image read once and written once, into an array
    made beforehand (np.copyto), timed as the engines are."""
    image = _as_float32_image(image)
    copy = np.empty_like(image)

    def again() -> Call:
        start = time.perf_counter()
        np.copyto(copy, image)
        return Call(time.perf_counter() - start)

    first = again()
    # Its output is the image itself: the copy is dropped with the timing, not kept.
    return FirstCall(output=image, again=again, seconds=first.seconds, in_calling_thread=True)


def numpy_product(size: int) -> Callable[[], Call]:
    """The product of two `size` × `size` float32 matrices by NumPy's BLAS (np.matmul into
    an array made beforehand), timed."""
    a = np.random.default_rng(0).random((size, size), dtype=np.float32)
    b, product = a.T.copy(), np.empty_like(a)

    def again() -> Call:
        start = time.perf_counter()
        np.matmul(a, b, out=product)
        return Call(time.perf_counter() - start)

    return again


def first_numpy_gemm(platform: str | None = None) -> TimedGemm:
    """The compute floor of the CPU: NumPy's BLAS at a product size that saturates it."""
    return chosen_gemm("numpy", numpy_product, HOST_PLATFORM)


def _as_float32_image(image: np.ndarray) -> np.ndarray:
    image = np.asarray(image, dtype=np.float32)
    if image.ndim not in (2, 3):
        raise ValueError(
            "expected an image of height × width (grayscale) or height × width × channels, "
            f"got an array of shape {image.shape}"
        )
    return image


# What the comparison measures every other engine against: the best formulation of the
# tutorial's sums that plain NumPy allows, so the speed-up is what `jit` and the device buy.
# NumPy blurs a clip's frames one by one (no Frames): a batch of four 1080p grey frames
# blurred as the channels of one image measured no quicker a frame, and needs two transposes
# of the batch.
NUMPY = Engine(
    "numpy",
    QT_TRANSLATE_NOOP("Engines", "NumPy"),
    first_numpy_call,
    floors=Floors(copy=first_numpy_copy, gemm=first_numpy_gemm),
    shown=Shown(colour="#4c72b0", column="NumPy"),
)
# The tutorial's own loop, for the seed's exact contrast: about 2.6× slower than NUMPY at 24 MP.
NUMPY_LOOP = Engine(
    "numpy-loop",
    QT_TRANSLATE_NOOP("Engines", "NumPy, tutorial loop"),
    first_numpy_loop_call,
    # One pass over its image per kernel tap: fastest on pieces whose copies stay in the CPU's
    # cache. Strips of 64 rows of a 2048-wide block (about 0.5 MB each) blur several times
    # faster than the whole block (8 MB a copy), which no CPU's cache holds.
    blocks=Blocks(strip_rows=64),
    floors=Floors(copy=first_numpy_copy, gemm=first_numpy_gemm),
    shown=Shown(colour="#8da0cb", column="loop"),
)
ENGINES = (NUMPY, NUMPY_LOOP)
