"""JAX without jit: the tutorial's convolution dispatched op by op, as NumPy runs it, timed as
JAX-jit is. What it shows is what jit buys: the same operations, not fused into one program."""

from __future__ import annotations

from typing import Any

import numpy as np

from blurapp.core.engines.engine import Computation, Engine, Floors, Shown
from blurapp.core.engines.jax_calls import first_call_on_device, first_jax_copy, first_jax_gemm
from blurapp.core.engines.jax_runtime import jax_device
from blurapp.core.engines.runs import (
    Cancelled,
    FirstCall,
    Progress,
    check_cancelled,
)
from blurapp.core.wording import QT_TRANSLATE_NOOP


def blur_jax_eager(
    image: Any,
    kernel: Any,
    *,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> Any:
    """The tutorial's convolution in JAX *without* jit: one slice, multiply and add per tap,
    each dispatched on its own, as NumPy does. On the device of `image` (a JAX array, or a
    NumPy one for JAX's default device); returns a JAX array on that device.

    `progress` and `cancelled` work between taps, as in the NumPy engine.
    """
    import jax.numpy as jnp

    image = jnp.asarray(image, dtype=jnp.float32)
    kernel = jnp.asarray(kernel, dtype=jnp.float32)
    height, width = image.shape[:2]
    radius = kernel.shape[0] // 2
    channels = [(0, 0)] * (image.ndim - 2)  # a colour photo's channels are not padded
    padded = jnp.pad(image, ((radius, radius), (radius, radius), *channels), mode="edge")
    total = kernel.size if kernel.ndim == 2 else 2 * kernel.size
    done = 0

    def add_shifted_slices(source: Any, weights: Any, rows: int, columns: int) -> Any:
        nonlocal done
        output = None  # from the first tap on: no array of zeros made on some other device
        for dy in range(weights.shape[0]):
            for dx in range(weights.shape[1]):
                check_cancelled(cancelled)
                tap = weights[dy, dx] * source[dy : dy + rows, dx : dx + columns]
                output = tap if output is None else output + tap
                done += 1
                if progress is not None:
                    progress(done, total)
        return output

    if kernel.ndim == 2:
        return add_shifted_slices(padded, kernel, height, width)
    rows = add_shifted_slices(padded, kernel[None, :], height + 2 * radius, width)
    return add_shifted_slices(rows, kernel[:, None], height, width)


def first_jax_eager_call(
    image: np.ndarray,
    kernel: np.ndarray,
    *,
    platform: str | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> FirstCall:
    """JAX without jit, timed as JAX-jit is: its first call compiles each small operation once
    (JAX caches them per shape); the steady calls show what dispatching op by op costs. Taps
    are reported on the first call only, so a progress bar fills once."""
    device = jax_device(platform)
    reporting = progress  # handed to the first call only, then dropped

    def blur(image_on_device: Any, kernel_on_device: Any) -> Any:
        nonlocal reporting
        report, reporting = reporting, None
        return blur_jax_eager(
            image_on_device, kernel_on_device, progress=report, cancelled=cancelled
        )

    return first_call_on_device(image, kernel, device, lambda shape: (blur, None, None), cancelled)


# Op by op is tens of times slower than jit, and steadier than it is quick: three calls tell.
JAX_EAGER = Engine(
    "jax-eager",
    QT_TRANSLATE_NOOP("Engines", "JAX without jit"),
    first_jax_eager_call,
    computation=Computation(uses_jax=True, max_repeats=3),
    floors=Floors(copy=first_jax_copy, gemm=first_jax_gemm),
    shown=Shown(colour="#da8bc3", column="eager"),
)
ENGINES = (JAX_EAGER,)
