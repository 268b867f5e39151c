"""BlurApp's core: photo loading, the kernel, both engines and the comparison. No Qt here.

jax is imported lazily, only by the functions that run the JAX engine.
"""

from blurapp.core.comparison import (
    DEFAULT_REPEATS,
    ENGINES,
    TOLERANCE,
    ComparisonResult,
    Engine,
    JaxRun,
    NumpyRun,
    compare,
    difference_picture,
    max_abs_difference,
    run_jax,
    run_numpy,
)
from blurapp.core.jax_engine import Compilation, JaxUnavailableError, blur_jax
from blurapp.core.kernel import (
    ALGORITHMS,
    DEFAULT_ALGORITHM,
    DEFAULT_KERNEL_SIZE,
    DEFAULT_SIGMA,
    Algorithm,
    InvalidKernelError,
    KernelSize,
    auto_kernel_size,
    check_kernel_size,
    check_sigma,
    effective_kernel_size,
    gaussian_kernel,
    gaussian_kernel_1d,
    kernel_for,
)
from blurapp.core.numpy_engine import BlurCancelled, blur_numpy
from blurapp.core.photo import Photo, PhotoError, load_grayscale, load_photo
from blurapp.core.sample import sample_photo_path
from blurapp.core.saving import OutputError, save_output, to_8bit, write_atomically

__all__ = [
    "ALGORITHMS",
    "DEFAULT_ALGORITHM",
    "DEFAULT_KERNEL_SIZE",
    "DEFAULT_REPEATS",
    "DEFAULT_SIGMA",
    "ENGINES",
    "TOLERANCE",
    "Algorithm",
    "BlurCancelled",
    "ComparisonResult",
    "Compilation",
    "Engine",
    "InvalidKernelError",
    "JaxRun",
    "JaxUnavailableError",
    "KernelSize",
    "NumpyRun",
    "OutputError",
    "Photo",
    "PhotoError",
    "auto_kernel_size",
    "blur_jax",
    "blur_numpy",
    "check_kernel_size",
    "check_sigma",
    "compare",
    "difference_picture",
    "effective_kernel_size",
    "gaussian_kernel",
    "gaussian_kernel_1d",
    "kernel_for",
    "load_grayscale",
    "load_photo",
    "max_abs_difference",
    "run_jax",
    "run_numpy",
    "sample_photo_path",
    "save_output",
    "to_8bit",
    "write_atomically",
]
