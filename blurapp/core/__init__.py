"""BlurApp's core: photo loading, the kernel, both engines and the comparison. No Qt here.

jax is imported lazily, only by the functions that run the JAX engine.
"""

from blurapp.core.engines import (
    DEFAULT_ENGINES,
    REFERENCE_ENGINE,
    Engine,
    UnknownEngineError,
    engine_names,
    get_engine,
    parse_engines,
    register,
)
from blurapp.core.engines.jax_eager_engine import blur_jax_eager
from blurapp.core.engines.jax_engine import JaxUnavailableError, blur_jax
from blurapp.core.engines.numpy_engine import blur_numpy
from blurapp.core.engines.runs import BlurCancelled, Call, Compilation, EngineRun, FirstCall
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
from blurapp.core.measuring.comparison import (
    TOLERANCE,
    ComparisonResult,
    compare,
    difference_picture,
    max_abs_difference,
)
from blurapp.core.media.photo import Photo, load_grayscale, load_photo
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.media.sample import sample_photo_path
from blurapp.core.media.saving import OutputError, save_output, to_8bit, write_atomically

__all__ = [
    "ALGORITHMS",
    "DEFAULT_ALGORITHM",
    "DEFAULT_ENGINES",
    "DEFAULT_KERNEL_SIZE",
    "DEFAULT_SIGMA",
    "REFERENCE_ENGINE",
    "TOLERANCE",
    "Algorithm",
    "BlurCancelled",
    "Call",
    "ComparisonResult",
    "Compilation",
    "Engine",
    "EngineRun",
    "FirstCall",
    "InvalidKernelError",
    "JaxUnavailableError",
    "KernelSize",
    "OutputError",
    "Photo",
    "PhotoError",
    "UnknownEngineError",
    "auto_kernel_size",
    "blur_jax",
    "blur_jax_eager",
    "blur_numpy",
    "check_kernel_size",
    "check_sigma",
    "compare",
    "difference_picture",
    "effective_kernel_size",
    "engine_names",
    "gaussian_kernel",
    "gaussian_kernel_1d",
    "get_engine",
    "kernel_for",
    "load_grayscale",
    "load_photo",
    "max_abs_difference",
    "parse_engines",
    "register",
    "sample_photo_path",
    "save_output",
    "to_8bit",
    "write_atomically",
]
