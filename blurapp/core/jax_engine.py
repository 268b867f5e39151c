"""The same manual convolution under jax.jit, on the GPU when there is one.

jax is imported only inside these functions: importing blurapp.core, or asking
`blurapp --version`, must stay fast and must work where jax is broken.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

# Without this, JAX reserves 75% of the GPU's memory on start; a desktop program should not.
_PREALLOCATE_VARIABLE = "XLA_PYTHON_CLIENT_PREALLOCATE"


class JaxUnavailableError(RuntimeError):
    """JAX could not be imported or could not start a device."""


def import_jax() -> ModuleType:
    """Import jax (once), after keeping it from preallocating GPU memory unless the user chose."""
    os.environ.setdefault(_PREALLOCATE_VARIABLE, "false")
    try:
        import jax
    except Exception as error:
        raise JaxUnavailableError(f"JAX could not be loaded: {error}") from error
    return jax


def jax_device() -> Any:
    """The device JAX computes on: its default backend's first device (a GPU when present)."""
    jax = import_jax()
    try:
        return jax.devices()[0]
    except Exception as error:
        raise JaxUnavailableError(f"JAX found no device to run on: {error}") from error


def describe_device(device: Any) -> str:
    """A device in a user's words: 'gpu: NVIDIA H200', 'cpu'."""
    platform = str(device.platform).lower()
    if platform in {"gpu", "cuda", "rocm"}:
        return f"gpu: {device.device_kind}"
    if platform == "cpu":
        return "cpu"
    return f"{platform}: {device.device_kind}"


def _convolve(padded: Any, weights: Any, height: int, width: int, size: int) -> Any:
    """Sum of weight × shifted slice over every tap, one kernel row per loop step.

    The loop over kernel rows stays a loop in the compiled program while the taps of one
    row are unrolled: compile time then grows with the kernel's size, not its area, and
    XLA fuses each row's slices into one pass.
    """
    import jax.numpy as jnp
    from jax import lax

    def add_kernel_row(dy: Any, output: Any) -> Any:
        band = lax.dynamic_slice_in_dim(padded, dy, height, axis=0)
        row_weights = weights[dy]
        for dx in range(size):
            output = output + row_weights[dx] * band[:, dx : dx + width]
        return output

    return lax.fori_loop(0, size, add_kernel_row, jnp.zeros((height, width), padded.dtype))


def _blur(image: Any, weights: Any) -> Any:
    import jax.numpy as jnp

    height, width = image.shape  # static under jit: part of the compiled program's signature
    size = weights.shape[0]  # likewise static; the weights' values are traced
    padded = jnp.pad(image, size // 2, mode="edge")
    return _convolve(padded, weights, height, width, size)


class _CompiledBlurs:
    """One compiled blur per (image shape, kernel size); a new sigma reuses it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_key: dict[tuple[int, int, int], Callable[[Any, Any], Any]] = {}
        self._jitted: Any = None

    def get(self, shape: tuple[int, int], size: int) -> tuple[Callable[[Any, Any], Any], bool]:
        """The compiled blur, and whether it had to be compiled now."""
        key = (shape[0], shape[1], size)
        with self._lock:
            compiled = self._by_key.get(key)
            if compiled is not None:
                return compiled, False
            jax = import_jax()
            if self._jitted is None:
                self._jitted = jax.jit(_blur)
            image_spec = jax.ShapeDtypeStruct(shape, np.float32)
            weights_spec = jax.ShapeDtypeStruct((size, size), np.float32)
            compiled = self._jitted.lower(image_spec, weights_spec).compile()
            self._by_key[key] = compiled
            return compiled, True

    def clear(self) -> None:
        with self._lock:
            self._by_key.clear()


compiled_blurs = _CompiledBlurs()


def blur_jax(image: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """Correlate `image` with `kernel` under jax.jit; edges padded by repeating border pixels."""
    jax = import_jax()
    image = np.asarray(image, dtype=np.float32)
    kernel = np.asarray(kernel, dtype=np.float32)
    device = jax_device()
    blur, _ = compiled_blurs.get(image.shape, kernel.shape[0])
    output = blur(jax.device_put(image, device), jax.device_put(kernel, device))
    return np.asarray(jax.device_get(output), dtype=np.float32)
