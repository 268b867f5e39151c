"""BlurApp's core: photo loading, the kernel, both engines and the comparison. No Qt here.

jax is imported lazily, only by the functions that run the JAX engine. Each name below is
imported when first used: the window and the command line import the submodules they need,
and importing any of them runs this file first, which then imports only what that caller
asked for, not the whole core.
"""

from __future__ import annotations

import lazy_loader

# The public names and parts, and the module each comes from: __init__.pyi, which type
# checkers read too.
__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
