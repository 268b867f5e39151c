"""JAX Pallas's tiles and chunks, and JAX-jit's accelerator program with its kernel rows
written out or a loop, timed in one process on the chip (docs/performance.md, "On a TPU"):
each program's compile and steady call on a 24 MP photo, grey and colour, against a jitted
copy; and 8-bit levels copied to the chip and back.

The loop is asked for by setting UNROLL_TAPS to 0, as the program stood when this was run
(it is now the accelerator's 2-D program whatever the taps).

Run on the machine with the accelerator, from the project's root:

    python docs/performance/pallas_tiles.py   # writes $OUT/probe.json (or /tmp)
"""

import json
import os
import statistics
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np

from blurapp.core.engines import jax_program, pallas_program
from blurapp.core.kernel import gaussian_kernel

SMALL = os.environ.get("PROBE_SMALL") == "1"
INTERPRET = jax.default_backend() != "tpu"
H, W = (64, 300) if SMALL else (4000, 6000)
out = {}


def log(key, value):
    out[key] = value
    print(key, value, flush=True)


def ms(step, times=15):
    step()
    seconds = []
    for _ in range(times):
        start = time.perf_counter()
        jax.block_until_ready(step())
        seconds.append(time.perf_counter() - start)
    return round(statistics.median(seconds) * 1000, 3)


rng = np.random.default_rng(0)
grey = jax.device_put(rng.random((H, W), dtype=np.float32))
colour = jax.device_put(rng.random((H, W, 3), dtype=np.float32))
planes = jax.device_put(rng.random((3, H, W), dtype=np.float32))
from blurapp.core.kernel import gaussian_kernel_1d  # noqa: E402

w1 = jnp.asarray(gaussian_kernel_1d(9), jnp.float32)
w2 = jnp.outer(w1, w1)

# First call: compile of the accelerator program, unrolled vs kernel rows in a loop.
for unroll in (225, 0):
    jax_program.UNROLL_TAPS = unroll
    for name, weights in (("2d", w2), ("sep", w1)):
        fn = jax.jit(lambda x, w: jax_program.blur_on_accelerator(x, w))
        start = time.perf_counter()
        lowered = fn.lower(grey, weights)
        lower_s = time.perf_counter() - start
        compiled = lowered.compile()
        compile_s = time.perf_counter() - start - lower_s
        log(f"xla_first_{name}_unroll{unroll}", {
            "lower_s": round(lower_s, 3), "compile_s": round(compile_s, 3),
            "ms": ms(lambda: compiled(grey, weights)),
        })
jax_program.UNROLL_TAPS = 225

copy = jax.jit(lambda x: x + 1.0)
log("copy_grey_ms", ms(lambda: copy(grey)))
log("copy_colour_ms", ms(lambda: copy(colour)))
transpose = jax.jit(lambda x: jnp.moveaxis(x, -1, 0))
log("transpose_colour_ms", ms(lambda: transpose(colour)))

# Pallas: tile rows × chunk lanes, grey, 2-D and separable.
for name, weights in (("2d", w2), ("sep", w1)):
    for tile in (32, 64, 128):
        for chunk in (512, 1024, 2048, 8192):
            if SMALL and chunk > 512:
                continue
            fn = jax.jit(
                lambda x, w, t=tile, c=chunk: pallas_program.blur(x, w, t, c, INTERPRET)
            )
            try:
                start = time.perf_counter()
                jax.block_until_ready(fn(grey, weights))
                first = time.perf_counter() - start
                log(f"pallas_{name}_t{tile}_c{chunk}", {"ms": ms(lambda: fn(grey, weights)), "first_s": round(first, 3)})
            except Exception as error:  # noqa: BLE001
                log(f"pallas_{name}_t{tile}_c{chunk}", f"error {type(error).__name__}: {str(error)[:300]}")
    # colour as the engine does it (transpose inside) vs planes given.
    fn = jax.jit(lambda x, w: pallas_program.blur(x, w, interpret=INTERPRET))
    log(f"pallas_{name}_colour_ms", ms(lambda: fn(colour, weights)))
    fnp = jax.jit(
        lambda x, w: jax.vmap(lambda p: pallas_program.blur(p, w, interpret=INTERPRET))(x)
    )
    try:
        log(f"pallas_{name}_planes_vmap_ms", ms(lambda: fnp(planes, weights)))
    except Exception as error:  # noqa: BLE001
        log(f"pallas_{name}_planes_vmap_ms", f"error {type(error).__name__}: {str(error)[:300]}")
    rows = jax.device_put(rng.random((H, W * 3), dtype=np.float32))
    xla = jax.jit(lambda x, w: jax_program.blur_on_accelerator(x, w, step=3))
    log(f"xla_{name}_colour_rows_ms", ms(lambda: xla(rows, weights)))
    xg = jax.jit(lambda x, w: jax_program.blur_on_accelerator(x, w, step=1))
    log(f"xla_{name}_grey_ms", ms(lambda: xg(grey, weights)))
    # XLA on planes: three greys through vmap.
    xp = jax.jit(lambda x, w: jax.vmap(lambda p: jax_program.blur_on_accelerator(p, w))(x))
    log(f"xla_{name}_planes_vmap_ms", ms(lambda: xp(planes, weights)))


# Transfers of levels.
lv8 = rng.integers(0, 255, (H, W), dtype=np.uint8)
lv8c = rng.integers(0, 255, (H, W * 3), dtype=np.uint8)
for label, host in (("grey_u8", lv8), ("colour_u8", lv8c)):
    log(f"put_{label}_ms", ms(lambda: jax.device_put(host)))
    on = jax.device_put(host)
    plus = jax.jit(lambda x: x + jnp.uint8(1))
    def back():
        y = plus(on)
        return np.asarray(y)
    log(f"roundtrip_{label}_ms", ms(back))

json.dump(out, open(os.path.join(os.environ.get("OUT", "/tmp"), "probe.json"), "w"), indent=1)
