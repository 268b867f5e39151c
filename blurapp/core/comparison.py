"""Run both engines on one photo and kernel, and time each part on its own."""

from __future__ import annotations

import logging
import statistics
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from blurapp.core.jax_engine import Compilation
from blurapp.core.kernel import (
    DEFAULT_ALGORITHM,
    DEFAULT_KERNEL_SIZE,
    DEFAULT_SIGMA,
    Algorithm,
    KernelSize,
    kernel_for,
)
from blurapp.core.numpy_engine import BlurCancelled, blur_numpy

log = logging.getLogger(__name__)

Engine = Literal["numpy", "jax"]
ENGINES: tuple[Engine, ...] = ("numpy", "jax")
DEFAULT_REPEATS = 3
# The two engines sum the same float32 products in different orders; they must agree this closely.
TOLERANCE = 1e-5


@dataclass(frozen=True, eq=False)
class NumpyRun:
    output: np.ndarray
    seconds: float


@dataclass(frozen=True, eq=False)
class JaxRun:
    output: np.ndarray
    first_call_seconds: float  # trace + compile + run (just the run when already compiled)
    seconds: float  # steady: the median of the repeats, input already on the device
    repeat_seconds: tuple[float, ...]
    to_device_seconds: float
    from_device_seconds: float
    device: str
    compilation: Compilation  # compiled now, loaded from the disk cache, or reused

    @property
    def compiled(self) -> bool:
        """Whether the first call had to get a program (compile it, or load it from disk)."""
        return self.compilation is not Compilation.REUSED


@dataclass(frozen=True, eq=False)
class ComparisonResult:
    kernel: np.ndarray  # k×k for the 2-D algorithm, k weights for the separable one
    sigma: float
    algorithm: Algorithm = DEFAULT_ALGORITHM
    numpy: NumpyRun | None = None
    jax: JaxRun | None = None
    jax_error: str | None = None  # why there is no JAX run, in a user's words
    max_abs_diff: float | None = field(init=False)

    def __post_init__(self) -> None:
        diff = None
        if self.numpy is not None and self.jax is not None:
            diff = max_abs_difference(self.numpy.output, self.jax.output)
        object.__setattr__(self, "max_abs_diff", diff)

    @property
    def kernel_size(self) -> int:
        return int(self.kernel.shape[0])

    @property
    def speedup(self) -> float | None:
        """NumPy seconds ÷ JAX steady seconds."""
        if self.numpy is None or self.jax is None or self.jax.seconds <= 0:
            return None
        return self.numpy.seconds / self.jax.seconds

    @property
    def within_tolerance(self) -> bool | None:
        return None if self.max_abs_diff is None else self.max_abs_diff <= TOLERANCE


def _abs_difference_blocks(a: np.ndarray, b: np.ndarray):
    """(rows, |a − b| in float64) a block of rows at a time, so memory stays flat."""
    if a.shape != b.shape:
        raise ValueError(f"cannot compare outputs of shapes {a.shape} and {b.shape}")
    rows_per_block = max(1, (1 << 20) // max(1, a.shape[-1]))
    for start in range(0, a.shape[0], rows_per_block):
        rows = slice(start, start + rows_per_block)
        yield rows, np.abs(a[rows].astype(np.float64) - b[rows].astype(np.float64))


def max_abs_difference(a: np.ndarray, b: np.ndarray) -> float:
    """max |a − b| computed in float64."""
    return max(
        (float(diff.max()) for _, diff in _abs_difference_blocks(a, b) if diff.size), default=0.0
    )


def difference_picture(
    a: np.ndarray, b: np.ndarray, largest: float | None = None
) -> tuple[np.ndarray, float]:
    """|a − b| as a uint8 picture scaled so the largest difference is white, and that largest
    difference (0 when the two are identical, and the picture is then black).

    Pass `largest` when it is known already (a ComparisonResult's max_abs_diff) to save a pass.
    """
    if largest is None:
        largest = max_abs_difference(a, b)
    picture = np.zeros(a.shape, dtype=np.uint8)
    if largest > 0:
        for rows, diff in _abs_difference_blocks(a, b):
            picture[rows] = np.rint(diff * (255 / largest))
    return picture, largest


def run_numpy(
    image: np.ndarray,
    kernel: np.ndarray,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> NumpyRun:
    start = time.perf_counter()
    output = blur_numpy(image, kernel, progress=progress, cancelled=cancelled)
    return NumpyRun(output=output, seconds=time.perf_counter() - start)


def run_jax(
    image: np.ndarray,
    kernel: np.ndarray,
    *,
    repeats: int = DEFAULT_REPEATS,
    cancelled: Callable[[], bool] | None = None,
) -> JaxRun:
    """Time JAX's transfers, first call and steady calls apart. Raises JaxUnavailableError.

    `cancelled()` is checked between the steps (a compiled call itself cannot be stopped);
    when it returns True, BlurCancelled is raised.
    """

    def check() -> None:
        if cancelled is not None and cancelled():
            raise BlurCancelled

    from blurapp.core.jax_engine import compiled_blurs, describe_device, import_jax, jax_device

    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, not {repeats}")
    jax = import_jax()
    device = jax_device()
    image = np.ascontiguousarray(image, dtype=np.float32)
    kernel = np.ascontiguousarray(kernel, dtype=np.float32)

    start = time.perf_counter()
    image_on_device = jax.device_put(image, device)
    kernel_on_device = jax.device_put(kernel, device)
    jax.block_until_ready((image_on_device, kernel_on_device))
    to_device = time.perf_counter() - start

    check()
    start = time.perf_counter()
    blur, compilation = compiled_blurs.get(image.shape, kernel.shape)
    output = blur(image_on_device, kernel_on_device).block_until_ready()
    first_call = time.perf_counter() - start

    repeat_seconds = []
    for _ in range(repeats):
        check()
        start = time.perf_counter()
        output = blur(image_on_device, kernel_on_device).block_until_ready()
        repeat_seconds.append(time.perf_counter() - start)

    check()
    start = time.perf_counter()
    host_output = jax.device_get(output)
    from_device = time.perf_counter() - start
    # No copy on top (it is not part of the transfer): this array is only ever read.
    host_output = np.asarray(host_output, dtype=np.float32)

    return JaxRun(
        output=host_output,
        first_call_seconds=first_call,
        seconds=statistics.median(repeat_seconds),
        repeat_seconds=tuple(repeat_seconds),
        to_device_seconds=to_device,
        from_device_seconds=from_device,
        device=describe_device(device),
        compilation=compilation,
    )


def describe_jax_failure(error: Exception) -> str:
    """Why a JAX run failed, in a user's words: running out of memory is told apart."""
    if isinstance(error, MemoryError) or "RESOURCE_EXHAUSTED" in str(error):
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        return f"JAX ran out of memory for this photo ({first_line or type(error).__name__})"
    return f"JAX failed: {type(error).__name__}: {error}"


def compare(
    image: np.ndarray,
    *,
    kernel_size: KernelSize = DEFAULT_KERNEL_SIZE,
    sigma: float = DEFAULT_SIGMA,
    algorithm: Algorithm = DEFAULT_ALGORITHM,
    repeats: int = DEFAULT_REPEATS,
    engines: Collection[Engine] = ENGINES,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    on_engine_done: Callable[[Engine, NumpyRun | JaxRun | None, str | None], None] | None = None,
) -> ComparisonResult:
    """Blur `image` with each of `engines` and gather the figures into one result.

    A JAX failure (not installed, out of device memory, a compile error) does not stop
    the NumPy run: it is reported in `jax_error`. BlurCancelled is raised when
    `cancelled()` turns True. `on_engine_done(engine, run, error)` is called as each
    engine finishes, so a view can show one result while the other is still computing.
    """
    from blurapp.core.jax_engine import JaxUnavailableError

    kernel = kernel_for(algorithm, kernel_size, sigma)
    numpy_run = jax_run = jax_error = None
    if "numpy" in engines:
        numpy_run = run_numpy(image, kernel, progress=progress, cancelled=cancelled)
        if on_engine_done is not None:
            on_engine_done("numpy", numpy_run, None)
    if "jax" in engines:
        try:
            jax_run = run_jax(image, kernel, repeats=repeats, cancelled=cancelled)
        except BlurCancelled:
            raise
        except JaxUnavailableError as error:
            log.warning("%s", error, exc_info=True)
            jax_error = str(error)
        except Exception as error:
            log.warning("the JAX engine failed", exc_info=True)
            jax_error = describe_jax_failure(error)
        if on_engine_done is not None:
            on_engine_done("jax", jax_run, jax_error)
    return ComparisonResult(
        kernel=kernel,
        sigma=float(sigma),
        algorithm=algorithm,
        numpy=numpy_run,
        jax=jax_run,
        jax_error=jax_error,
    )
