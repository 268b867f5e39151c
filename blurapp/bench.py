"""`blurapp bench`: NumPy against JAX-jit on synthetic images of several sizes.

A benchmark to read, not a timed test: it prints figures and asserts nothing.
"""

from __future__ import annotations

import itertools
import math
import os
import platform
from collections.abc import Callable, Sequence

import numpy as np

from blurapp import __version__
from blurapp.core.comparison import compare
from blurapp.core.kernel import ALGORITHMS, Algorithm, KernelSize

# Photo-like aspect ratio 3:2, as the 24 MP reference image (6000 × 4000).
_ASPECT = 1.5


def synthetic_image(megapixels: float, seed: int = 0) -> np.ndarray:
    """A reproducible float32 image in [0, 1] of about `megapixels`, 3:2 landscape."""
    height = max(1, round(math.sqrt(megapixels * 1e6 / _ASPECT)))
    width = max(1, round(height * _ASPECT))
    return np.random.default_rng(seed).random((height, width), dtype=np.float32)


def _cpu_model() -> str | None:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def describe_machine() -> dict:
    from blurapp.core.jax_engine import JaxUnavailableError, describe_device, jax_device

    try:
        device = describe_device(jax_device())
        import jax

        jax_version = jax.__version__
    except JaxUnavailableError as error:
        device, jax_version = f"unavailable ({error})", None
    cpu = _cpu_model() or platform.processor() or platform.machine()
    cores = os.cpu_count()
    return {
        "description": f"{platform.system()} {platform.machine()}, {cores} cores ({cpu}), "
        f"Python {platform.python_version()}",
        "cores": cores,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "jax": jax_version,
        "jax_device": device,
        "blurapp": __version__,
    }


def run_bench(
    *,
    megapixels: Sequence[float],
    kernel_sizes: Sequence[KernelSize],
    algorithms: Sequence[Algorithm] = ALGORITHMS,
    repeats: int,
    sigma: float,
    on_start: Callable[[dict], None] | None = None,
    on_row: Callable[[dict], None] | None = None,
) -> dict:
    machine = describe_machine()
    if on_start is not None:
        on_start(machine)
    rows = []
    for mp in megapixels:
        image = synthetic_image(mp)
        for kernel_size, algorithm in itertools.product(kernel_sizes, algorithms):
            result = compare(
                image, kernel_size=kernel_size, sigma=sigma, algorithm=algorithm, repeats=repeats
            )
            jax = result.jax
            row = {
                "algorithm": algorithm,
                "megapixels": image.size / 1e6,
                "width": int(image.shape[1]),
                "height": int(image.shape[0]),
                "kernel_size": result.kernel_size,
                "sigma": sigma,
                "numpy_seconds": result.numpy.seconds,
                "jax_first_call_seconds": jax.first_call_seconds if jax else None,
                "jax_seconds": jax.seconds if jax else None,
                "jax_to_device_seconds": jax.to_device_seconds if jax else None,
                "jax_from_device_seconds": jax.from_device_seconds if jax else None,
                "speedup": result.speedup,
                "max_abs_diff": result.max_abs_diff,
                "jax_error": result.jax_error,
            }
            rows.append(row)
            if on_row is not None:
                on_row(row)
            del result
    return {"machine": machine, "results": rows}
