"""JAX Pallas's kernel timed on the chip alone, 24 MP, 9×9, grey and colour, 2-D and
separable, as the engine calls it (pallas_program.blur_planes on the photo as rows of values,
colour's channels side by side), in every variant of pallas_program.VARIANTS and at a few
tilings of the engine's; beside them, a jitted copy of each photo: the memory's floor.

The variants: "rotated" (the engine's kernel: groups of 16 rows rotated, chunks of 512
lanes, colour in tiles of 64 rows), "tall" (colour's tiles of 128 rows, VMEM enough), "wide"
(those tiles, groups of 32 rows, chunks of 1,024 lanes), "wide_overlapped" ("wide" with the
lanes past a row's whole chunks in one more whole chunk overlapping the one before, so Mosaic
compiles the chunks' code once: about 30% less of it at 24 MP), "staged" (the separable blur's rows'
taps first, into VMEM, its columns' taps loads at their rows' offsets; its 2-D blur is
"rotated"'s), "matrix" (the kernel, rank one, as two banded products on the matrix unit, at
lax.Precision.HIGHEST), "matrix_columns" (the rows' taps rotated as "staged" does, the
columns' a banded product on the matrix unit), "strided" (each kernel row's taps a strided
load from VMEM rather than a rotation: pallas_strided). The engine's default is
pallas_program.DEFAULT_VARIANT; the table marks it. A variant at three bfloat16 passes was
timed once and removed: it missed the tolerance (docs/performance.md).

Earlier versions of this probe (git log -p docs/performance/pallas_speed.py) also timed the
kernel before the fused one, the same kernel on a photo XLA padded first, and a kernel row's
taps as loads at the rows' offsets instead of rotations (slower in 2-D); pallas_program's
comments give their figures.

Every figure is the chip's work only: the photo already on the device, the median of several
calls each waited for (block_until_ready), after one left out. Every blur's output is checked
against SciPy's correlation (or, where SciPy is missing, a float64 NumPy correlation with the
same edges), and its largest difference written beside its time.

Run on the machine with the accelerator, from the project's root:

    PYTHONPATH=. python docs/performance/pallas_speed.py   # writes $OUT/pallas-speed.json

`--small`: a small photo, few repeats (to try it on a CPU, where Pallas's interpreter runs
every kernel, as it does wherever the device is not a TPU or `--interpret` is given).
`--variants matrix,matrix_columns`: only those variants; `--no-sweep`: only their own tilings.
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
parser.add_argument(
    "--variants",
    default=",".join(pallas_program.VARIANTS),
    help="the variants to time, by name, with commas (default: all)",
)
parser.add_argument("--no-sweep", action="store_true", help="each variant's own tiling only")
arguments = parser.parse_args()
CHOSEN = arguments.variants.split(",")
for name in CHOSEN:
    if name not in pallas_program.VARIANTS:
        parser.error(f"no variant {name!r}: {', '.join(pallas_program.VARIANTS)}")
INTERPRET = arguments.interpret or jax.devices()[0].platform != "tpu"
HEIGHT, WIDTH = (70, 300) if arguments.small else (4000, 6000)
TIMES = 2 if arguments.small else 9
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
del grey, colour
log("device", str(jax.devices()[0]))
log("jax", jax.__version__)
log("shape", [HEIGHT, WIDTH])
log("tolerance", TOLERANCE)
log("interpret", INTERPRET)
log("default_variant", pallas_program.DEFAULT_VARIANT)


def measure(key, program, values, weights, expected, step, tiling):
    """Compile `program` for (values, weights), time it and check its output; `tiling`: the
    tile, group and chunk rows and lanes and the VMEM for blocks, written with the tile rows
    the kernel took."""
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


def kernel(values, weights, step, **options):
    planes = pallas_program.blur_planes(values[None], weights, step, interpret=INTERPRET, **options)
    return planes[0]


# The floor: a copy of each photo (read and write once).
copy = jax.jit(lambda x: x + 1.0)
for label, (values, _, _) in PHOTOS.items():
    log(f"copy_{label}_ms", ms(lambda v=values: copy(v), TIMES))

# What is timed: each variant with its own tiling, then a few other tilings (tile rows, group
# rows, chunk lanes) of a variant's, each part of "wide" apart.
SWEEP = [
    ("rotated", (128, 16, 1024)),
    ("rotated", (128, 32, 512)),
    ("tall", (128, 16, 1024)),
    ("staged", (128, 16, 1024)),
    ("matrix", (112, 8, 256)),
    ("matrix", (240, 8, 128)),
    ("matrix", (240, 8, 256)),
    ("matrix_columns", (240, 16, 512)),
    ("matrix_columns", (112, 16, 1024)),
]
RUNS = [(name, None) for name in CHOSEN] + [
    (name, tiling) for name, tiling in SWEEP if name in CHOSEN and not arguments.no_sweep
]
for algorithm, weights in WEIGHTS.items():
    for label, (values, step, expected) in PHOTOS.items():
        for name, tiling in RUNS:
            variant = pallas_program.VARIANTS[name]
            if algorithm == "2d" and variant.separable == "staged" and variant.matrix is None:
                continue  # its 2-D blur is "rotated"'s
            tile, group, chunk = tiling or (
                variant.tile_rows,
                variant.group_rows,
                variant.chunk_lanes,
            )
            program = functools.partial(
                kernel,
                step=step,
                variant=name,
                tile_rows=tile,
                group_rows=group,
                chunk_lanes=chunk,
            )
            key = f"{algorithm}_{label}_{name}" + (
                "" if tiling is None else f"_t{tile}_g{group}_c{chunk}"
            )
            taken = (tile, group, chunk, variant.block_bytes, variant.last_chunk, variant.strided)
            measure(key, program, values, weights, expected, step, taken)

# A short table: each blur's time, its share of a copy, its largest difference, colour ÷ grey.
print(f"\n{'kernel':<42} {'ms':>8} {'× copy':>7} {'max diff':>10} {'colour ÷ grey':>14}")
for key, value in list(figures.items()):
    if not isinstance(value, dict) or not key.startswith(("sep_", "2d_")):
        continue
    if "ms" not in value:
        print(f"{key:<42} {value.get('error', '')[:60]}")
        continue
    grey_twin = figures.get(key.replace("_colour_", "_grey_"), {})
    ratio = value["ms"] / grey_twin["ms"] if "_colour_" in key and "ms" in grey_twin else None
    if ratio is not None:
        figures.setdefault("colour_over_grey", {})[key] = round(ratio, 2)
    floor = figures["copy_colour_ms" if "_colour_" in key else "copy_grey_ms"]
    shown = "" if ratio is None else f"{ratio:.2f}"
    # keys are algorithm_photo_variant, a sweep's tiling after it
    default = " (default)" if key.split("_", 2)[2] == pallas_program.DEFAULT_VARIANT else ""
    print(
        f"{key + default:<42} {value['ms']:>8.3f} {value['ms'] / floor:>7.2f}"
        f" {value['max_difference']:>10.2e} {shown:>14}"
    )
write("pallas-speed.json")
