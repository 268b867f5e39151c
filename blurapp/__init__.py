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

import lazy_loader

from blurapp._version import __version__ as __version__

# The public names, and the module each comes from: __init__.pyi, which type checkers read too.
__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
__all__.remove("__version__")  # imported above, for the stub's readers; not a name of the API
