"""BlurApp's core: photo loading, the kernel, both engines and the comparison. No Qt here.

jax is imported lazily, only by the functions that run the JAX engine. Each name below is
imported when first used: the window and the command line import the submodules they need,
and importing any of them runs this file first, which then imports only what that caller
asked for, not the whole core.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Each public name → the module that defines it.
_PUBLIC = {
    "ALGORITHMS": "blurapp.core.kernel",
    "DEFAULT_ALGORITHM": "blurapp.core.kernel",
    "DEFAULT_ENGINES": "blurapp.core.engines",
    "DEFAULT_KERNEL_SIZE": "blurapp.core.kernel",
    "DEFAULT_SIGMA": "blurapp.core.kernel",
    "REFERENCE_ENGINE": "blurapp.core.engines",
    "TOLERANCE": "blurapp.core.measuring.comparison",
    "Algorithm": "blurapp.core.kernel",
    "BlurCancelled": "blurapp.core.engines.runs",
    "Call": "blurapp.core.engines.runs",
    "ComparisonResult": "blurapp.core.measuring.comparison",
    "Compilation": "blurapp.core.engines.runs",
    "Engine": "blurapp.core.engines",
    "EngineRun": "blurapp.core.engines.runs",
    "FirstCall": "blurapp.core.engines.runs",
    "InvalidKernelError": "blurapp.core.kernel",
    "JaxUnavailableError": "blurapp.core.engines.jax_engine",
    "KernelSize": "blurapp.core.kernel",
    "OutputError": "blurapp.core.media.saving",
    "Photo": "blurapp.core.media.photo",
    "PhotoError": "blurapp.core.media.photo_checks",
    "UnknownEngineError": "blurapp.core.engines",
    "auto_kernel_size": "blurapp.core.kernel",
    "blur_jax": "blurapp.core.engines.jax_engine",
    "blur_jax_eager": "blurapp.core.engines.jax_eager_engine",
    "blur_numpy": "blurapp.core.engines.numpy_engine",
    "check_kernel_size": "blurapp.core.kernel",
    "check_sigma": "blurapp.core.kernel",
    "compare": "blurapp.core.measuring.comparison",
    "difference_picture": "blurapp.core.measuring.comparison",
    "effective_kernel_size": "blurapp.core.kernel",
    "engine_names": "blurapp.core.engines",
    "gaussian_kernel": "blurapp.core.kernel",
    "gaussian_kernel_1d": "blurapp.core.kernel",
    "get_engine": "blurapp.core.engines",
    "kernel_for": "blurapp.core.kernel",
    "load_grayscale": "blurapp.core.media.photo",
    "load_photo": "blurapp.core.media.photo",
    "max_abs_difference": "blurapp.core.measuring.comparison",
    "parse_engines": "blurapp.core.engines",
    "register": "blurapp.core.engines",
    "sample_photo_path": "blurapp.core.media.sample",
    "save_output": "blurapp.core.media.saving",
    "to_8bit": "blurapp.core.media.saving",
    "write_atomically": "blurapp.core.media.saving",
}

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

if TYPE_CHECKING:
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


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        # A submodule (blurapp.core.kernel, …), reached as an attribute as before.
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as missing:
            if missing.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module 'blurapp.core' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
