"""The platforms JAX computes on, as a user names them, and whether JAX will open a TPU here:
told without importing JAX or NumPy, so that the `blurapp` program's first step
(blurapp.start) can ask before anything heavy is loaded."""

from __future__ import annotations

import importlib.util
import os
from typing import Any

# The platforms a user can choose by name, as JAX names them: `--device tpu`, or an engine name
# like `jax@gpu`. "cpu" is the host; the others are accelerators.
PLATFORMS = ("cpu", "gpu", "tpu")


def platform_of(device: Any) -> str:
    """A JAX device's platform as a user names it: CUDA and ROCm devices are both "gpu"."""
    platform = str(device.platform).lower()
    return "gpu" if platform in {"gpu", "cuda", "rocm"} else platform


def on_accelerator(device: Any) -> bool:
    """Whether the JAX device `device` is an accelerator (a GPU, a TPU), whose programs and
    copies are its own (jax_program.blur_on_accelerator, host_link), not the host's CPU."""
    return platform_of(device) != "cpu"


def tpu_runtime_installed() -> bool:
    """Whether this machine has a TPU's runtime (libtpu), told from what is installed without
    importing JAX or opening the device."""
    return importlib.util.find_spec("libtpu") is not None


def jax_opens_a_tpu() -> bool:
    """Whether JAX, as it starts here, will open a TPU (its runtime installed, and JAX_PLATFORMS
    unset or naming tpu among the platforms it opens, the default or not), told without
    importing JAX. Opening a TPU holds Python's lock for seconds at once, so a window stands
    still meanwhile whatever thread opens it (docs/performance.md, "The window, the commands
    and the host there"): the window opens it before it is shown (blurapp.ui.launch), and one
    shown before JAX has started says so."""
    # As JAX reads it: every platform listed is opened, names as written.
    platforms = os.environ.get("JAX_PLATFORMS", "")
    return tpu_runtime_installed() and (not platforms or "tpu" in platforms.split(","))
