"""JAX Pallas's kernel timed on the chip alone, 24 MP, 9 × 9, grey and colour, 2-D and
separable, as the engine calls it (pallas_program.blur_rows: the photo as rows of values,
colour's channels side by side), at a few tiles, groups and chunks; beside it, a jitted copy of
each photo: the memory's floor.

The version of this probe that chose the kernel (commit 26ef2bc) also timed the kernel before
it (tiles rotated whole, colour made planes and back), the same kernel on a photo XLA padded
first (the padding alone as long as a copy in grey, far longer in colour: a pixel's 3 values
are a poor shape for the chip), and a kernel row's taps as loads at the rows' offsets instead
of rotations (slower in 2-D); pallas_program's comments give its figures.

Every figure is the chip's work only: the photo already on the device, the median of several
calls each waited for (block_until_ready), after one left out. Every blur's output is checked
against SciPy's correlation (or, where SciPy is missing, a float64 NumPy correlation with the
same edges), and its largest difference written beside its time.

Run on the machine with the accelerator, from the project's root:

    PYTHONPATH=. python docs/performance/pallas_speed.py   # writes $OUT/pallas-speed.json

`--small --interpret`: a small photo, few repeats, Pallas's interpreter (to try it on a CPU).
"""

import argparse
import functools
import time

import jax
import numpy as np
from probe_timing import figures, log, ms, write

from blurapp.core import TOLERANCE
from blurapp.core.engines import pallas_program
from blurapp.core.kernel import gaussian_kernel_1d

parser = argparse.ArgumentParser()
parser.add_argument("--small", action="store_true", help="a 70 × 300 photo, few repeats")
parser.add_argument("--interpret", action="store_true", help="Pallas's interpreter runs kernels")
arguments = parser.parse_args()
INTERPRET = arguments.interpret
HEIGHT, WIDTH = (70, 300) if arguments.small else (4000, 6000)
TIMES = 3 if arguments.small else 9
SIZE = 9


def oracle(photo: np.ndarray, row: np.ndarray) -> np.ndarray:
    """The photo correlated with the outer product of `row`, edges repeated, in float64."""
    kernel = np.outer(row, row).astype(np.float64)
    if photo.ndim == 3:
        kernel = kernel[:, :, None]
    try:
        from scipy import ndimage
    except ImportError:
        figures["oracle"] = "numpy float64"
        radius = len(row) // 2
        pad = ((radius, radius), (radius, radius)) + ((0, 0),) * (photo.ndim - 2)
        padded = np.pad(photo.astype(np.float64), pad, mode="edge")
        total = np.zeros(photo.shape)
        for dy in range(len(row)):
            for dx in range(len(row)):
                window = padded[dy : dy + photo.shape[0], dx : dx + photo.shape[1]]
                total += kernel[dy, dx] * window
        return total
    figures["oracle"] = "scipy.ndimage.correlate float64"
    return ndimage.correlate(photo.astype(np.float64), kernel, mode="nearest")


rng = np.random.default_rng(0)
row = np.asarray(gaussian_kernel_1d(SIZE), np.float32)
square = np.outer(row, row).astype(np.float32)
WEIGHTS = {"sep": jax.device_put(row), "2d": jax.device_put(square)}
grey = rng.random((HEIGHT, WIDTH), dtype=np.float32)
colour = rng.random((HEIGHT, WIDTH, 3), dtype=np.float32)
# On an accelerator a photo crosses as rows of values (jax_program.rows_of_values): colour as
# height × width·3, its channels side by side.
PHOTOS = {
    "grey": (jax.device_put(grey), 1, oracle(grey, row)),
    "colour": (jax.device_put(colour.reshape(HEIGHT, -1)), 3, oracle(colour, row)),
}
log("device", str(jax.devices()[0]))
log("jax", jax.__version__)
log("shape", [HEIGHT, WIDTH])
log("tolerance", TOLERANCE)


def measure(key, program, values, weights, expected, step, tiling):
    """Compile `program` for (values, weights), time it and check its output; `tiling`: the
    tile, group and chunk asked for, written beside the tile rows the kernel took."""
    try:
        jitted = jax.jit(program)
        start = time.perf_counter()
        compiled = jitted.lower(values, weights).compile()
        compile_s = round(time.perf_counter() - start, 3)
        result = {"ms": ms(lambda: compiled(values, weights), TIMES), "compile_s": compile_s}
        taken = pallas_program.Tiling(HEIGHT, values.shape[1], step, SIZE, *tiling)
        result["tile_rows_taken"] = taken.tile_rows
        output = np.asarray(compiled(values, weights), np.float64).reshape(expected.shape)
        result["max_difference"] = float(np.abs(output - expected).max())
        result["within_tolerance"] = result["max_difference"] <= TOLERANCE
        log(key, result)
    except Exception as error:  # a variant Mosaic cannot compile says why and the rest go on
        log(key, {"error": f"{type(error).__name__}: {str(error)[:400]}"})
    # Written after every figure: a run stopped part way keeps what it had measured.
    write("pallas-speed.json")


def kernel(values, weights, step, **tiling):
    planes = pallas_program.blur_planes(values[None], weights, step, interpret=INTERPRET, **tiling)
    return planes[0]


# The floor: a copy of each photo (read and write once).
copy = jax.jit(lambda x: x + 1.0)
for label, (values, _, _) in PHOTOS.items():
    log(f"copy_{label}_ms", ms(lambda v=values: copy(v), TIMES))

# Tiling: (tile rows, group rows, chunk lanes), the engine's first.
ENGINE = (pallas_program.TILE_ROWS, pallas_program.GROUP_ROWS, pallas_program.CHUNK_LANES)
SWEEP = (ENGINE, (64, 16, 512), (256, 16, 512), (128, 8, 512), (128, 16, 256), (128, 16, 1024))
for algorithm, weights in WEIGHTS.items():
    for label, (values, step, expected) in PHOTOS.items():
        for tile, group, chunk in dict.fromkeys(SWEEP):
            program = functools.partial(
                kernel, step=step, tile_rows=tile, group_rows=group, chunk_lanes=chunk
            )
            key = f"{algorithm}_{label}_t{tile}_g{group}_c{chunk}"
            measure(key, program, values, weights, expected, step, (tile, group, chunk))

# A short table: each blur's time, its largest difference, and colour ÷ grey.
print(f"\n{'kernel':<28} {'ms':>8} {'max diff':>10} {'colour ÷ grey':>14}")
for key, value in list(figures.items()):
    if isinstance(value, dict) and "ms" in value:
        grey_twin = figures.get(key.replace("_colour_", "_grey_"), {})
        ratio = value["ms"] / grey_twin["ms"] if "_colour_" in key and "ms" in grey_twin else None
        if ratio is not None:
            figures.setdefault("colour_over_grey", {})[key] = round(ratio, 2)
        shown = "" if ratio is None else f"{ratio:.2f}"
        print(f"{key:<28} {value['ms']:>8.3f} {value['max_difference']:>10.2e} {shown:>14}")
write("pallas-speed.json")
