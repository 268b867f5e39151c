"""Is one JAX-jit program for every kernel size up to a limit (the weights zero-padded to the
limit's size) worth its extra work a call, against the compiles it saves? For each image size,
algorithm and kernel size: the time to get that size's own program, and a steady call of its
own program and of the limit's program with the padded weights, the two interleaved in one run.
"calls to repay" is how many calls of the padded program add up to the own program's getting:
a preview that makes more calls than that at one size loses by padding.

    export XDG_CACHE_HOME=$(mktemp -d)   # an empty persistent compilation cache
    python docs/performance/padded_kernels.py 25   # every program compiled
    python docs/performance/padded_kernels.py 25   # every program loaded from that cache
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

from blurapp.core.engines.jax_engine import compiled_blurs
from blurapp.core.engines.jax_runtime import import_jax, jax_device
from blurapp.core.kernel import kernel_for, pad_kernel

IMAGE_SIZES = ((600, 400), (1340, 894), (3000, 2000))  # the bundled photo's, 1.2 MP, 6 MP
KERNEL_SIZES = (5, 9, 15)
CALLS = 21


def main(limit: int) -> None:
    jax = import_jax()
    device = jax_device("cpu")
    rng = np.random.default_rng(0)
    print(f"limit {limit} x {limit}; median of {CALLS} interleaved steady calls each")
    print("image      algorithm  kernel  program ms  own ms  padded ms  padded/own  calls to repay")
    for width, height in IMAGE_SIZES:
        image = jax.device_put(rng.random((height, width), np.float32), device)
        for algorithm in ("2d", "separable"):
            limit_weights = kernel_for(algorithm, limit, limit / 6)
            start = time.perf_counter()
            limit_blur, _ = compiled_blurs.get(image.shape, limit_weights.shape, device)
            limit_seconds = time.perf_counter() - start
            for size in KERNEL_SIZES:
                weights = kernel_for(algorithm, size, size / 6)
                own_weights = jax.device_put(weights, device)
                padded_weights = jax.device_put(pad_kernel(weights, limit), device)
                start = time.perf_counter()
                own_blur, how = compiled_blurs.get(image.shape, weights.shape, device)
                program_seconds = time.perf_counter() - start
                jax.block_until_ready(own_blur(image, own_weights))
                jax.block_until_ready(limit_blur(image, padded_weights))
                own, padded = [], []
                for _ in range(CALLS):
                    start = time.perf_counter()
                    jax.block_until_ready(own_blur(image, own_weights))
                    own.append(time.perf_counter() - start)
                    start = time.perf_counter()
                    jax.block_until_ready(limit_blur(image, padded_weights))
                    padded.append(time.perf_counter() - start)
                own_ms = statistics.median(own) * 1e3
                padded_ms = statistics.median(padded) * 1e3
                extra = padded_ms - own_ms
                repay = program_seconds * 1e3 / extra if extra > 0 else float("inf")
                print(
                    f"{width}x{height:<5} {algorithm:<10} {size:>2}x{size:<3} "
                    f"{program_seconds * 1e3:>10.0f}  {own_ms:>6.2f}  {padded_ms:>9.2f}  "
                    f"{padded_ms / own_ms:>10.2f}  {repay:>14.1f}  ({how})"
                )
            print(f"   ({limit}x{limit} program: {limit_seconds * 1e3:.0f} ms to get)")
        compiled_blurs.clear()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 25)
