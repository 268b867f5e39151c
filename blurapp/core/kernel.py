"""The Gaussian kernel of the tutorial, and the one place its parameters are checked."""

from __future__ import annotations

import math
from typing import Literal

import numpy as np

DEFAULT_KERNEL_SIZE = 9
DEFAULT_SIGMA = 2.5
# A direct convolution costs size² operations per pixel: at 101 × 101 a 24 MP photo already
# takes minutes in NumPy, and the unrolled JAX program grows with the size.
MAX_KERNEL_SIZE = 101
# One range for the command line and the window. Beyond 16.5 the automatic size
# (2·ceil(3σ)+1) would pass MAX_KERNEL_SIZE, and any kernel that fits would cut the Gaussian
# short; below 0.1 every kernel is the identity to float32 precision (exp(-50) ≈ 2e-22).
MIN_SIGMA = 0.1
MAX_SIGMA = 16.5
# A kernel whose edge lies closer to its centre than this many sigmas cuts off enough of the
# Gaussian to look like a box blur: worth a note. The tutorial's 9 × 9 at σ 2.5 reaches 1.6σ.
SHORT_KERNEL_SIGMAS = 1.5

KernelSize = int | Literal["auto"]
# "2d": the tutorial's k² taps; "separable": k taps along rows, then k along columns.
Algorithm = Literal["2d", "separable"]
ALGORITHMS: tuple[Algorithm, ...] = ("2d", "separable")
DEFAULT_ALGORITHM: Algorithm = "2d"


def multiply_adds_per_pixel(size: int, algorithm: Algorithm) -> int:
    """The multiply-adds (FMA) a blur does for each pixel of each channel, counted by its
    algorithm's sums, not by what an engine's program ends up doing: k² for the 2-D k × k
    kernel, 2k for the separable one (k along the rows, k along the columns)."""
    return size * size if algorithm == "2d" else 2 * size


class InvalidKernelError(ValueError):
    """A kernel size or sigma that no Gaussian kernel can be made from."""


def check_sigma(sigma: float | str) -> float:
    """Return sigma as a float, or raise InvalidKernelError saying why it cannot be used."""
    try:
        value = float(sigma)
    except (TypeError, ValueError):
        raise InvalidKernelError(f"sigma must be a number, not {sigma!r}") from None
    if not math.isfinite(value):
        raise InvalidKernelError(f"sigma must be a finite number, not {value}")
    if not MIN_SIGMA <= value <= MAX_SIGMA:
        # .10g: 16.500001 must not read as the 16.5 it is refused beside.
        raise InvalidKernelError(
            f"sigma must be between {MIN_SIGMA:g} and {MAX_SIGMA:g}, not {value:.10g}"
        )
    return value


def auto_kernel_size(sigma: float) -> int:
    """The kernel size that covers three sigmas on each side: 2·ceil(3σ)+1."""
    return 2 * math.ceil(3 * check_sigma(sigma)) + 1


def check_kernel_size(size: object) -> KernelSize:
    """Return a valid kernel size (an odd int >= 1, or "auto"), or raise InvalidKernelError."""
    if isinstance(size, str):
        text = size.strip().lower()
        if text == "auto":
            return "auto"
        try:
            size = int(text)
        except ValueError:
            raise InvalidKernelError(
                f"kernel size must be an odd whole number or 'auto', not {size!r}"
            ) from None
    if isinstance(size, bool) or not isinstance(size, int | np.integer):
        raise InvalidKernelError(f"kernel size must be an odd whole number, not {size!r}")
    size = int(size)
    if size < 1:
        raise InvalidKernelError(f"kernel size must be at least 1, not {size}")
    if size > MAX_KERNEL_SIZE:
        raise InvalidKernelError(f"kernel size must be at most {MAX_KERNEL_SIZE}, not {size}")
    if size % 2 == 0:
        raise InvalidKernelError(
            f"kernel size must be odd so the kernel has a centre pixel, not {size}"
        )
    return size


def effective_kernel_size(size: KernelSize, sigma: float) -> int:
    """The kernel size actually used: `size` itself, or the automatic size for `sigma`.

    Every sigma in range has an automatic size within MAX_KERNEL_SIZE.
    """
    size = check_kernel_size(size)
    return auto_kernel_size(sigma) if size == "auto" else size


def kernel_reach(size: int, sigma: float) -> float:
    """How far the kernel reaches from its centre, in sigmas: radius ÷ σ."""
    return (size // 2) / sigma


def cuts_gaussian_short(size: int, sigma: float) -> bool:
    """Whether a size × size kernel ends so close to its centre that the blur looks boxy."""
    return size > 1 and kernel_reach(size, sigma) < SHORT_KERNEL_SIGMAS


def _gaussian_1d(size: int, sigma: float) -> np.ndarray:
    """exp(-x²/(2σ²)) for x in -(size//2)…size//2, normalised to sum 1, in float64."""
    offsets = np.arange(size, dtype=np.float64) - size // 2
    # Scaling the offsets first keeps a tiny sigma from giving 0/0 at the centre.
    with np.errstate(over="ignore"):
        weights = np.exp(-((offsets / sigma) ** 2) / 2)
    return weights / weights.sum()


def gaussian_kernel(
    size: KernelSize = DEFAULT_KERNEL_SIZE, sigma: float = DEFAULT_SIGMA
) -> np.ndarray:
    """A size×size float32 Gaussian kernel normalised to sum 1.

    Weights are exp(-(x²+y²)/(2σ²)) for x, y in -(size//2)…size//2.
    """
    sigma = check_sigma(sigma)
    row = _gaussian_1d(effective_kernel_size(size, sigma), sigma)
    # exp(-(x²+y²)/2σ²) = exp(-x²/2σ²)·exp(-y²/2σ²), and the normalisations multiply too.
    return np.outer(row, row).astype(np.float32)


def gaussian_kernel_1d(
    size: KernelSize = DEFAULT_KERNEL_SIZE, sigma: float = DEFAULT_SIGMA
) -> np.ndarray:
    """The 1-D factor of `gaussian_kernel`: its outer product with itself is the 2-D kernel."""
    sigma = check_sigma(sigma)
    return _gaussian_1d(effective_kernel_size(size, sigma), sigma).astype(np.float32)


# The kernel sizes the live preview's compiled programs are made for, while kernel size is
# auto: each size between two of them is blurred with its kernel zero-padded to the next one,
# so dragging sigma compiles one program per bucket, not one per size. Each step is at most
# about 1.8× the taps of the size it stands for.
PREVIEW_KERNEL_SIZES = (5, 9, 13, 17, 25, 33, 45, 63, 87, MAX_KERNEL_SIZE)


def preview_kernel_size(size: int) -> int:
    """The smallest of PREVIEW_KERNEL_SIZES that holds a `size` × `size` kernel."""
    return next(bucket for bucket in PREVIEW_KERNEL_SIZES if bucket >= size)


def pad_kernel(kernel: np.ndarray, size: int) -> np.ndarray:
    """`kernel` (k×k, or k taps) centred in zeros to `size` (odd, ≥ k) on every axis. A zero
    tap adds an exact zero: the blur is the same, up to the order of float32 sums."""
    extra = size - kernel.shape[0]
    if extra < 0 or extra % 2:
        raise ValueError(f"cannot pad a kernel of {kernel.shape[0]} taps to {size}")
    return np.pad(kernel, extra // 2).astype(np.float32, copy=False)


def check_algorithm(algorithm: object) -> Algorithm:
    """Return `algorithm` if it is one of ALGORITHMS, or raise InvalidKernelError."""
    if algorithm not in ALGORITHMS:
        raise InvalidKernelError(
            f"algorithm must be one of {', '.join(ALGORITHMS)}, not {algorithm!r}"
        )
    return algorithm


def kernel_for(algorithm: Algorithm, size: KernelSize, sigma: float) -> np.ndarray:
    """The weights an engine takes: k×k for the 2-D algorithm, k for the separable one."""
    if check_algorithm(algorithm) == "2d":
        return gaussian_kernel(size, sigma)
    return gaussian_kernel_1d(size, sigma)
