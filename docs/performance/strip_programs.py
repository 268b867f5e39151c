"""How many values JAX-jit's accelerator program should blur in one pass, timed in one process on
the chip (docs/performance.md, "The strips"). 24 MP, 9 × 9, float32 in, medians of 12 steady
calls (the first part) and of 10 (the second):

1. one pass over a grey photo (height × width) and a colour one in several shapes: rows of
   values (height × 3·width), its three planes side by side, its rows cut into three blocks of
   columns side by side, and the planes taken apart on the chip; each with one, three or all
   nine kernel rows summed a loop step;
2. the photo in 1 to 24 strips of rows, one after another (lax.map), each strip one pass, grey
   and colour, 2-D and separable.

Every variant is checked against the program as it stands. Run on the machine with the
accelerator, from the project's root (PROBE_SMALL=1: small sizes, to try it on a CPU):

    python docs/performance/strip_programs.py   # writes $OUT/strip_probe.json (or /tmp)
"""

import os
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from probe_timing import log, ms, write

from blurapp.core.engines import jax_program
from blurapp.core.kernel import gaussian_kernel_1d

SMALL = os.environ.get("PROBE_SMALL") == "1"
H, W = (64, 300) if SMALL else (4000, 6000)
RADIUS = 4


def timed(key, function, values, weights, expected=None, times=10):
    """Compile `function` for these operands, time the median of `times` calls, and say how far
    its result is from `expected` (None: not compared)."""
    try:
        start = time.perf_counter()
        compiled = jax.jit(function).lower(values, weights).compile()
        compile_s = round(time.perf_counter() - start, 3)
        result = compiled(values, weights)
        differs = float(jnp.max(jnp.abs(result - expected))) if expected is not None else None
        log(
            key,
            {
                "ms": ms(lambda: compiled(values, weights), times),
                "compile_s": compile_s,
                "differs": differs,
            },
        )
        return result
    except Exception as error:  # noqa: BLE001 (out of the chip's memory, say)
        log(key, f"error {type(error).__name__}: {str(error)[:300]}")
        return None


rng = np.random.default_rng(0)
grey = jax.device_put(rng.random((H, W), dtype=np.float32))
rows = jax.device_put(rng.random((H, 3 * W), dtype=np.float32))
planes = jax.device_put(jnp.moveaxis(rows.reshape(H, W, 3), -1, 0))
w1 = jnp.asarray(gaussian_kernel_1d(9), jnp.float32)
w2 = jnp.outer(w1, w1)
grey_blurred = jax.jit(jax_program.blur_on_accelerator)(grey, w2)
rows_blurred = jax.jit(lambda v, w: jax_program.blur_on_accelerator(v, w, step=3))(rows, w2)
planes_blurred = jnp.moveaxis(rows_blurred.reshape(H, W, 3), -1, 0)


def pad(values, step):
    return jax_program._pad_values(values, RADIUS, step)


def kernel_rows_a_step(padded, weights, height, width, step, group):
    """The 2-D blur, `group` kernel rows summed a loop step (9: no loop)."""
    row_axis = padded.ndim - 2

    def add_rows(first, output):
        for row in range(group):
            dy = first + row
            band = lax.dynamic_slice_in_dim(padded, dy, height, axis=row_axis)
            kernel_row = lax.dynamic_index_in_dim(weights, dy, keepdims=False)
            term = jax_program._row_sum(band, kernel_row, width, step)
            output = term if output is None else output + term
        return output

    if group >= weights.shape[0]:
        return add_rows(0, None)
    zeros = jnp.zeros((*padded.shape[:row_axis], height, width), padded.dtype)
    steps = weights.shape[0] // group
    return lax.fori_loop(0, steps, lambda i, output: add_rows(i * group, output), zeros)


def column_blocks(values, weights):
    padded = pad(values, 3)
    halo = 2 * RADIUS * 3
    blocks = jnp.stack(
        [lax.slice_in_dim(padded, b * W, (b + 1) * W + halo, axis=1) for b in range(3)]
    )
    return jnp.concatenate(list(kernel_rows_a_step(blocks, weights, H, W, 3, 1)), axis=1)


def planes_apart_on_the_chip(values, weights):
    apart = [values[:, channel::3] for channel in range(3)]
    blurred = [kernel_rows_a_step(pad(plane, 1), weights, H, W, 1, 1) for plane in apart]
    return jnp.stack(blurred, axis=-1).reshape(H, 3 * W)


def planes_side_by_side(values, weights):
    return jax.vmap(lambda plane: kernel_rows_a_step(pad(plane, 1), weights, H, W, 1, 1))(values)


# Part 1: one pass, the colour's shape and the kernel rows a loop step.
for group in (1, 3, 9):
    timed(
        f"grey_rows{group}",
        lambda v, w, g=group: kernel_rows_a_step(pad(v, 1), w, H, W, 1, g),
        grey,
        w2,
        grey_blurred,
        times=12,
    )
    timed(
        f"colour_values_rows{group}",
        lambda v, w, g=group: kernel_rows_a_step(pad(v, 3), w, H, 3 * W, 3, g),
        rows,
        w2,
        rows_blurred,
        times=12,
    )
timed("colour_column_blocks", column_blocks, rows, w2, rows_blurred, times=12)
timed("colour_planes_apart_on_the_chip", planes_apart_on_the_chip, rows, w2, rows_blurred, times=12)
timed("colour_planes_side_by_side", planes_side_by_side, planes, w2, planes_blurred, times=12)
for name, values in (("grey", grey), ("colour_values", rows), ("colour_planes", planes)):
    copy = jax.jit(lambda a: a + 1.0)
    log(f"copy_{name}", ms(lambda: copy(values), 12))


# Part 2: strips of rows, one after another, each one pass.
def in_strips(values, weights, step, strips):
    height, row_values = values.shape
    if strips == 1:
        return jax_program.blur_on_accelerator(values, weights, step=step)
    strip_rows = -(-height // strips)
    strip_rows = -(-strip_rows // 8) * 8
    padded = jax_program._pad_values(values, RADIUS, step, below=strips * strip_rows - height)

    def blur_strip(index):
        block = lax.dynamic_slice_in_dim(padded, index * strip_rows, strip_rows + 2 * RADIUS)
        return jax_program._blur_block(block, weights, strip_rows, row_values, step, looped=True)

    blurred = lax.map(blur_strip, jnp.arange(strips))
    return blurred.reshape(strips * strip_rows, row_values)[:height]


for label, values, step in (("grey", grey, 1), ("colour", rows, 3)):
    for kernel_name, weights in (("2d", w2), ("sep", w1)):
        one_pass = None
        for strips in (1, 2, 3, 4, 6, 8, 12, 24):
            result = timed(
                f"{label}_{kernel_name}_strips{strips}",
                lambda v, w, s=step, n=strips: in_strips(v, w, s, n),
                values,
                weights,
                one_pass,
            )
            one_pass = result if one_pass is None else one_pass

write("strip_probe.json")
