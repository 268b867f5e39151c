"""BlurApp: the same Gaussian blur with NumPy and with JAX-jit, side by side.

The Python API, for scripts and notebooks::

    import blurapp

    photo = blurapp.open_photo("coffee.png")
    spec = blurapp.BlurSpec(kernel_size=9, sigma=2.5)
    comparison = blurapp.compare(photo, spec)  # NumPy and JAX-jit, timed; draws itself in Jupyter
    blurred = blurapp.blur(photo, spec, engine="jax")  # one engine's output, a NumPy array
    clip = blurapp.compare_clip("waves.mp4", spec, frames=48)  # frames a second per engine

A photo is a path, a Photo from `open_photo`, or an array (NumPy's, a jax.Array, any that
NumPy reads): height × width (grey) or height × width × 3 (red, green, blue), perhaps with
alpha last, floats in [0, 1], or uint8 / uint16 levels.

Each name is imported when first used, so `import blurapp` stays quick and never imports jax.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

from blurapp._version import __version__ as __version__

# Each public name → the module that defines it.
_PUBLIC = {
    "BlurSpec": "blurapp.core.spec",
    "Clip": "blurapp.core.media.clip",
    "ClipComparison": "blurapp.api_clips",
    "ClipError": "blurapp.core.media.clip",
    "Comparison": "blurapp.api",
    "Engine": "blurapp.core.engines",
    "Figure": "blurapp.core.report.figures",
    "InvalidKernelError": "blurapp.core.kernel",
    "JaxUnavailableError": "blurapp.core.engines.jax_engine",
    "Photo": "blurapp.core.media.photo",
    "PhotoError": "blurapp.core.media.photo_checks",
    "UnknownEngineError": "blurapp.core.engines",
    "blur": "blurapp.api",
    "compare": "blurapp.api",
    "compare_clip": "blurapp.api_clips",
    "engine_names": "blurapp.core.engines",
    "get_engine": "blurapp.core.engines",
    "open_clip": "blurapp.api_clips",
    "open_photo": "blurapp.api",
    "register": "blurapp.core.engines",
    "sample_photo_path": "blurapp.core.media.sample",
}

__all__ = [
    "BlurSpec",
    "Clip",
    "ClipComparison",
    "ClipError",
    "Comparison",
    "Engine",
    "Figure",
    "InvalidKernelError",
    "JaxUnavailableError",
    "Photo",
    "PhotoError",
    "UnknownEngineError",
    "blur",
    "compare",
    "compare_clip",
    "engine_names",
    "get_engine",
    "open_clip",
    "open_photo",
    "register",
    "sample_photo_path",
]

if TYPE_CHECKING:
    from blurapp.api import Comparison, blur, compare, open_photo
    from blurapp.api_clips import ClipComparison, compare_clip, open_clip
    from blurapp.core.engines import (
        Engine,
        UnknownEngineError,
        engine_names,
        get_engine,
        register,
    )
    from blurapp.core.engines.jax_engine import JaxUnavailableError
    from blurapp.core.kernel import InvalidKernelError
    from blurapp.core.media.clip import Clip, ClipError
    from blurapp.core.media.photo import Photo
    from blurapp.core.media.photo_checks import PhotoError
    from blurapp.core.media.sample import sample_photo_path
    from blurapp.core.report.figures import Figure
    from blurapp.core.spec import BlurSpec


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        # Submodules (blurapp.cli, blurapp.ui, …) are found by the import system after this.
        raise AttributeError(f"module 'blurapp' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    """The public names, the package's submodules imported so far and its dunders; not the
    names this module itself imports (Any, importlib, …)."""
    shown = {
        name
        for name, value in globals().items()
        if name.startswith("__")
        or (
            isinstance(value, ModuleType)
            and value.__name__ == f"{__name__}.{name}"
            and not name.startswith("_")
        )
    }
    return sorted(shown | set(__all__))
