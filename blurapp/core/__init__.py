"""BlurApp's core: photos and clips read, the kernel, the engines and their comparison. No Qt
here.

jax is imported lazily, only by the functions that run the JAX engine. Each name below is
imported when first used: the window and the command line import the submodules they need,
and importing any of them runs this file first, which then imports only what that caller
asked for, not the whole core.
"""

from __future__ import annotations

import os

import lazy_loader


def _parts(init: str) -> set[str]:
    """The core's submodules and subpackages, by their files beside `init`."""
    folder = os.path.dirname(init)
    return {
        name.removesuffix(".py")
        for name in os.listdir(folder)
        if not name.startswith("_")
        and (name.endswith(".py") or os.path.isdir(os.path.join(folder, name)))
    }


# The public names and parts, and the module each comes from: __init__.pyi, which type
# checkers read too.
__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
# The parts (`from . import kernel` in the stub) are reached as attributes, but are no names of
# the core's for `import *`: those are its functions, classes and constants alone, as before.
__all__[:] = [name for name in __all__ if name not in _parts(__file__)]
