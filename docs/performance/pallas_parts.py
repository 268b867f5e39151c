"""JAX Pallas's kernel taken apart on the chip (docs/performance.md, "On a TPU"): what its
multiply-adds cost alone, what its rotations cost alone, and kernels that rotate more or less,
beside a jitted copy of the same photo; then the engine's kernel at other tiles and chunks, grey
and colour. All in one process: the measurement behind the kernel's shared rotations, and
behind why the 2-D blur is not within 3 copies.

Each variant replaces the kernel's inner step (pallas_program._blur_chunk), so the tiles,
chunks, padding and copies in and out stay the engine's own:

- now: the engine's kernel (2-D: a lane rotation per kernel column, shared by the kernel
  rows, then a row rotation per kernel row's weighted sum: 18 rotations at 9 × 9).
- each_tap_rotated (2-D): the kernel before: a row rotation per kernel row, then a lane
  rotation per tap (90 rotations at 9 × 9).
- taps_only: every tap weighs the same unrotated window: the multiply-adds and nothing else.
- rotations_only: every tap's window rotated as each_tap_rotated rotates it (90 rotations at
  9 × 9), summed unweighted: those rotations and the adds.
- slices (2-D and separable): each tap's window an unaligned slice of the chunk, no rotation
  written (Mosaic makes what it needs).

Run on the machine with the accelerator, from the project's root (PROBE_SMALL=1: a small photo
in Pallas's interpret mode, checked against SciPy, to try it on a CPU):

    python docs/performance/pallas_parts.py   # writes $OUT/pallas-parts.json (or /tmp)
"""

import functools
import operator
import os
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np
from probe_timing import log, ms, write

from blurapp.core.engines import pallas_program
from blurapp.core.engines.pallas_program import _lanes_from, _rows_from
from blurapp.core.kernel import gaussian_kernel_1d

SMALL = os.environ.get("PROBE_SMALL") == "1"
INTERPRET = jax.default_backend() != "tpu"
H, W = (70, 300) if SMALL else (4000, 6000)
ENGINE_CHUNK = pallas_program._blur_chunk


def _lanes(stacked, size):
    return stacked.shape[1] - pallas_program._round_up(2 * (size // 2), pallas_program.LANES)


def _summed(terms):
    """The terms added one after another, as the engine's kernel adds its taps."""
    return functools.reduce(operator.add, terms)


def taps_only(stacked, weights_ref, size, separable, rows):
    window = stacked[:rows, : _lanes(stacked, size)]
    taps = range(2 * size) if separable else range(size * size)
    return _summed(weights_ref[tap % size if separable else tap] * window for tap in taps)


def rotations_only(stacked, weights_ref, size, separable, rows):
    lanes = _lanes(stacked, size)
    if separable:
        along = _summed(_lanes_from(stacked, dx, lanes) for dx in range(size))
        return _summed(_rows_from(along, dy, rows) for dy in range(size))
    bands = [_rows_from(stacked, dy, rows) for dy in range(size)]
    return _summed(_lanes_from(bands[dy], dx, lanes) for dy in range(size) for dx in range(size))


def each_tap_rotated(stacked, weights_ref, size, separable, rows):
    if separable:
        return ENGINE_CHUNK(stacked, weights_ref, size, separable, rows)
    lanes = _lanes(stacked, size)
    bands = [_rows_from(stacked, dy, rows) for dy in range(size)]
    return _summed(
        weights_ref[dy * size + dx] * _lanes_from(bands[dy], dx, lanes)
        for dy in range(size)
        for dx in range(size)
    )


def slices(stacked, weights_ref, size, separable, rows):
    lanes = _lanes(stacked, size)
    if separable:
        along = _summed(weights_ref[dx] * stacked[:, dx : dx + lanes] for dx in range(size))
        return _summed(weights_ref[dy] * along[dy : dy + rows] for dy in range(size))
    return _summed(
        weights_ref[dy * size + dx] * stacked[dy : dy + rows, dx : dx + lanes]
        for dy in range(size)
        for dx in range(size)
    )


VARIANTS = {
    "now": ENGINE_CHUNK,
    "taps_only": taps_only,
    "rotations_only": rotations_only,
    "each_tap_rotated": each_tap_rotated,
    "slices": slices,
}
BLURS = ("now", "each_tap_rotated", "slices")

rng = np.random.default_rng(0)
photo = rng.random((H, W), dtype=np.float32)
grey = jax.device_put(photo)
w1 = jnp.asarray(gaussian_kernel_1d(9), jnp.float32)
w2 = jnp.outer(w1, w1)
log("device", str(jax.devices()[0]))
copy = jax.jit(lambda x: x + 1.0)
log("copy_ms", ms(lambda: copy(grey)))
oracle = None
if SMALL:
    from scipy import ndimage

    oracle = {
        "2d": ndimage.correlate(photo, np.asarray(w2), mode="nearest"),
        "sep": ndimage.correlate(photo, np.asarray(w2), mode="nearest"),  # the same kernel
    }

for name, weights in (("2d", w2), ("sep", w1)):
    for variant, chunk_step in VARIANTS.items():
        if name == "sep" and variant == "each_tap_rotated":
            continue
        pallas_program._blur_chunk = chunk_step
        key = f"{name}_{variant}"
        try:
            fn = jax.jit(lambda x, w: pallas_program.blur(x, w, interpret=INTERPRET))
            start = time.perf_counter()
            compiled = fn.lower(grey, weights).compile()
            compile_s = round(time.perf_counter() - start, 3)
            figures = {
                "ms": ms(lambda c=compiled, w=weights: c(grey, w)),
                "compile_s": compile_s,
            }
            if oracle is not None and variant in BLURS:
                difference = np.abs(np.asarray(compiled(grey, weights)) - oracle[name]).max()
                figures["max_difference"] = float(difference)
            log(key, figures)
        except Exception as error:  # a variant Mosaic cannot compile says why and the rest go on
            log(key, {"error": f"{type(error).__name__}: {str(error)[:300]}"})
        finally:
            pallas_program._blur_chunk = ENGINE_CHUNK
        sys.stdout.flush()

# The engine's kernel at other tiles and chunks, grey and colour (three planes).
colour = jax.device_put(rng.random((H, W, 3), dtype=np.float32))
log("copy_colour_ms", ms(lambda: copy(colour)))
for label, image in (("grey", grey), ("colour", colour)):
    for tile in (32, 64):
        for chunk in (256, 512, 1024, 2048):
            if SMALL and chunk > 256:
                continue
            key = f"2d_{label}_t{tile}_c{chunk}"
            try:
                fn = jax.jit(
                    lambda x, w, t=tile, c=chunk: pallas_program.blur(x, w, t, c, INTERPRET)
                )
                start = time.perf_counter()
                compiled = fn.lower(image, w2).compile()
                compile_s = round(time.perf_counter() - start, 3)
                call = lambda c=compiled, x=image: c(x, w2)  # noqa: E731
                log(key, {"ms": ms(call), "compile_s": compile_s})
            except Exception as error:
                log(key, {"error": f"{type(error).__name__}: {str(error)[:300]}"})

write("pallas-parts.json")
