"""The accelerator's programs, their copies and a clip's passes, timed apart in one process on
the chip (docs/performance.md, "On a TPU"): a jitted copy of a 24 MP photo, grey and colour;
JAX-jit's program, colour as rows of values or as planes of their own, each compiled and
called; JAX Pallas's kernel over tiles and chunks of several sizes; 8-bit levels copied to the
chip and back; and 4K clips of 8-bit frames, one after another or with their copies
overlapping the blur (2, 3 or 4 batches in flight), read in the pass's thread or ahead on
another.

Run on the machine with the accelerator, from the project's root (PROBE_SMALL=1: small sizes,
Pallas in interpret mode, to try it on a CPU):

    python docs/performance/accelerator_programs.py   # writes $OUT/probe.json (or /tmp)
"""

import os
import queue
import threading
import time

import jax
import jax.numpy as jnp
import numpy as np
from probe_timing import log, ms, write

from blurapp.core.engines import jax_frames, jax_program, pallas_program
from blurapp.core.kernel import gaussian_kernel_1d

SMALL = os.environ.get("PROBE_SMALL") == "1"
INTERPRET = jax.default_backend() != "tpu"
H, W = (64, 300) if SMALL else (4000, 6000)
CH, CW = (48, 64) if SMALL else (2160, 3840)
FRAMES = 32


rng = np.random.default_rng(0)
grey = jax.device_put(rng.random((H, W), dtype=np.float32))
rows = jax.device_put(rng.random((H, W * 3), dtype=np.float32))
w1 = jnp.asarray(gaussian_kernel_1d(9), jnp.float32)
w2 = jnp.outer(w1, w1)


def blur(values, weights, step, planes):
    """JAX-jit's accelerator program; with `planes`, a colour photo's channels moved apart
    into planes of their own, each blurred as grey is, and back."""
    if not planes:
        return jax_program.blur_on_accelerator(values, weights, step=step)
    height, row_values = values.shape
    apart = jnp.moveaxis(values.reshape(height, row_values // step, step), -1, 0)
    blurred = jax.vmap(lambda plane: jax_program.blur_on_accelerator(plane, weights))(apart)
    return jnp.moveaxis(blurred, 0, -1).reshape(height, row_values)


for name, weights in (("2d", w2), ("sep", w1)):
    for planes in (False, True):
        for label, x, step in (("grey", grey, 1), ("colour", rows, 3)):
            if label == "grey" and planes:
                continue
            fn = jax.jit(lambda v, w, s=step, p=planes: blur(v, w, s, p))
            start = time.perf_counter()
            compiled = fn.lower(x, weights).compile()
            first = time.perf_counter() - start
            log(
                f"xla_{name}_{label}_planes{int(planes)}",
                {"ms": ms(lambda: compiled(x, weights)), "compile_s": round(first, 3)},
            )

colour = jax.device_put(rng.random((H, W, 3), dtype=np.float32))
copy = jax.jit(lambda x: x + 1.0)
log("copy_grey_ms", ms(lambda: copy(grey)))
log("copy_colour_ms", ms(lambda: copy(colour)))

# JAX Pallas: tile rows × chunk lanes, grey; colour at the engine's own tiles.
for name, weights in (("2d", w2), ("sep", w1)):
    for tile in (32, 64, 128):
        for chunk in (512, 1024, 2048, 8192):
            if SMALL and chunk > 512:
                continue
            fn = jax.jit(lambda x, w, t=tile, c=chunk: pallas_program.blur(x, w, t, c, INTERPRET))
            key = f"pallas_{name}_t{tile}_c{chunk}"
            try:
                start = time.perf_counter()
                jax.block_until_ready(fn(grey, weights))
                first = round(time.perf_counter() - start, 3)
                log(key, {"ms": ms(lambda: fn(grey, weights)), "first_s": first})
            except Exception as error:  # noqa: BLE001 (a tile too large for VMEM, say)
                log(key, f"error {type(error).__name__}: {str(error)[:300]}")
    fn = jax.jit(lambda v, w: pallas_program.blur(v, w, interpret=INTERPRET))
    log(f"pallas_{name}_colour", ms(lambda: fn(colour, weights)))

# 8-bit levels to the chip, and to the chip and back.
plus_one = jax.jit(lambda x: x + jnp.uint8(1))
for label, shape in (("grey_u8", (H, W)), ("colour_u8", (H, W * 3))):
    host = rng.integers(0, 256, shape, dtype=np.uint8)
    log(f"put_{label}_ms", ms(lambda: jax.device_put(host)))
    on = jax.device_put(host)
    log(f"roundtrip_{label}_ms", ms(lambda: np.asarray(plus_one(on))))

# Clip passes, 4K 8-bit, 32 frames: serial, overlapped (in flight 2, 3, 4), read ahead or not.
kernel = np.outer(gaussian_kernel_1d(9), gaussian_kernel_1d(9)).astype(np.float32)
device = jax.devices()[0]
for colour in (False, True):
    shape = (CH, CW, 3) if colour else (CH, CW)
    made = [rng.integers(0, 256, shape, dtype=np.uint8) for _ in range(2)]

    def frames(batch):
        for index in range(0, FRAMES, batch):
            yield np.stack([made[(index + j) % 2].copy() for j in range(batch)])

    def ahead(source, depth=2):
        ready = queue.Queue(maxsize=depth)

        def make():
            for item in source:
                ready.put(item)
            ready.put(None)

        threading.Thread(target=make, daemon=True).start()
        while (item := ready.get()) is not None:
            yield item

    tag = "colour" if colour else "grey"
    for batch in (1, 2):
        for _ in jax_frames.overlapped_frames_on_device(
            jax, frames(batch), kernel, device, lambda: 0
        ):
            pass  # compile
        start = time.perf_counter()
        for b in frames(batch):
            jax_frames.blur_frames_on_device(jax, b, kernel, device, "tpu", lambda: 0, as_rows=True)
        log(f"clip_{tag}_b{batch}_serial_fps", round(FRAMES / (time.perf_counter() - start), 1))
        for flight in (2, 3, 4):
            jax_frames.BATCHES_IN_FLIGHT = flight
            for read in ("inline", "ahead"):
                source = frames(batch) if read == "inline" else ahead(frames(batch))
                start = time.perf_counter()
                for _ in jax_frames.overlapped_frames_on_device(
                    jax, source, kernel, device, lambda: 0
                ):
                    pass
                log(
                    f"clip_{tag}_b{batch}_flight{flight}_{read}_fps",
                    round(FRAMES / (time.perf_counter() - start), 1),
                )
        jax_frames.BATCHES_IN_FLIGHT = 3
    # the pieces alone, batch 1
    one = made[0][None]
    rows_of = one.reshape(1, CH, -1)
    log(f"clip_{tag}_put_ms", ms(lambda: jax.device_put(rows_of, device)))
    on = jax.device_put(rows_of, device)
    program, _ = jax_frames.compiled_frame_blurs.get(
        jax, one.shape, kernel.shape, device, lambda: 0, as_rows=True, dtype=one.dtype
    )
    wd = jax.device_put(kernel, device)
    log(f"clip_{tag}_blur_ms", ms(lambda: program(on, wd)))
    log(f"clip_{tag}_get_ms", ms(lambda: np.asarray(jax.device_get(program(on, wd)))))

write("probe.json")
