"""Where a blur's time goes end to end on an accelerator: each copy, each engine's program and
the host's own copies timed apart, then the call made in bands and frames one after another,
for 24 MP and 4K photos, grey and colour, as 8-bit levels (docs/performance.md, "On a TPU").

Run on the machine with the accelerator, from the project's root:

    python docs/performance/accelerator_copies.py   # writes $OUT/probe1.json (or /tmp)
"""
import json
import os
import statistics
import time

import jax
import numpy as np

from blurapp.core.engines import jax_program, pallas_program
from blurapp.core.kernel import gaussian_kernel
out = {}
def log(*a):
    print(*a, flush=True)
dev = jax.devices()[0]
out["device"] = str(dev.device_kind)
log("device", dev, dev.device_kind)
k2 = np.asarray(gaussian_kernel(9, 2.0), np.float32)
w2 = jax.device_put(k2, dev)

def med(f, n=7):
    ts = []
    for _ in range(n):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return statistics.median(ts) * 1000

prog = jax.jit(jax_program.blur_on_accelerator, static_argnames=("step",))
pal = jax.jit(pallas_program.blur_rows, static_argnames=("step", "tile_rows", "chunk_lanes", "interpret"))
rng = np.random.default_rng(0)
for label, shape in (("grey24", (4000, 6000)), ("colour24", (4000, 6000, 3)), ("grey4k", (2160, 3840)), ("colour4k", (2160, 3840, 3))):
    levels = rng.integers(0, 256, shape, dtype=np.uint8)
    step = shape[2] if len(shape) == 3 else 1
    rows = levels.reshape(shape[0], -1)
    floats = (rows * np.float32(1/255)).astype(np.float32)
    r = {}
    on = jax.block_until_ready(jax.device_put(rows, dev))
    onf = jax.block_until_ready(jax.device_put(floats, dev))
    r["to_u8"] = med(lambda: jax.block_until_ready(jax.device_put(rows, dev)))
    r["to_f32"] = med(lambda: jax.block_until_ready(jax.device_put(floats, dev)))
    for name, p in (("jit", prog), ("pallas", pal)):
        lv, fl = jax.block_until_ready(p(on, w2, step=step))
        r[f"{name}_blur_levels_in"] = med(lambda: jax.block_until_ready(p(on, w2, step=step)))
        r[f"{name}_blur_f32_in"] = med(lambda: jax.block_until_ready(p(onf, w2, step=step)))
    r["from_u8"] = med(lambda: np.asarray(jax.device_get(lv)))
    r["from_f32"] = med(lambda: np.asarray(jax.device_get(fl)))
    r["host_copy_f32"] = med(lambda: floats.copy())
    r["host_u8_to_f32"] = med(lambda: np.multiply(rows, np.float32(1/255), dtype=np.float32))
    r["serial_jit_u8"] = med(lambda: np.asarray(prog(jax.device_put(rows, dev), w2, step=step)[0]))
    r["serial_pallas_u8"] = med(lambda: np.asarray(pal(jax.device_put(rows, dev), w2, step=step)[0]))
    # Bands: each with its halo rows, put, blurred, copied back asynchronously, then cropped.
    H = shape[0]; rad = 4
    for bands in (2, 4, 8):
        edges = np.linspace(0, H, bands + 1).astype(int)
        def pipelined(p=prog, bands=bands, edges=edges):
            outs = []
            for i in range(bands):
                a, b = edges[i], edges[i + 1]
                s, e = max(0, a - rad), min(H, b + rad)
                lvl = p(jax.device_put(rows[s:e], dev), w2, step=step)[0]
                lvl.copy_to_host_async()
                outs.append((lvl, a - s, b - a))
            res = np.empty_like(rows)
            top = 0
            for lvl, off, n in outs:
                res[top:top + n] = np.asarray(lvl)[off:off + n]
                top += n
            return res
        check = pipelined()
        full = np.asarray(prog(on, w2, step=step)[0])
        r[f"bands{bands}_equal"] = bool(np.array_equal(check, full))
        r[f"bands{bands}_jit"] = med(pipelined)
        r[f"bands{bands}_pallas"] = med(lambda: pipelined(pal))
    # Frames pipelined: 8 frames, each put while the one before blurs.
    fr = [rng.integers(0, 256, shape, dtype=np.uint8).reshape(shape[0], -1) for _ in range(2)]
    def frames_serial(n=8):
        for i in range(n):
            np.asarray(prog(jax.device_put(fr[i % 2], dev), w2, step=step)[0])
    def frames_pipelined(n=8, p=prog):
        pend = []
        for i in range(n):
            lvl = p(jax.device_put(fr[i % 2], dev), w2, step=step)[0]
            lvl.copy_to_host_async()
            pend.append(lvl)
            if len(pend) > 2:
                np.asarray(pend.pop(0))
        for lvl in pend:
            np.asarray(lvl)
    r["frames8_serial_ms_per_frame"] = med(frames_serial, 3) / 8
    r["frames8_pipelined_ms_per_frame"] = med(frames_pipelined, 3) / 8
    r["frames8_pipelined_pallas_ms_per_frame"] = med(lambda: frames_pipelined(p=pal), 3) / 8
    out[label] = r
    log(label, json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in r.items()}))
# BlurApp's own frames call on a 4K colour float32 frame, its parts.
from blurapp.core.engines.jax_engine import blur_frames_jax
for label, shape in (("frames_call_grey4k", (1, 2160, 3840)), ("frames_call_colour4k", (1, 2160, 3840, 3))):
    f = rng.random(shape, dtype=np.float32)
    blur_frames_jax(f, k2)
    calls = [blur_frames_jax(f, k2).call for _ in range(5)]
    out[label] = [[round(x * 1000, 2) for x in c] for c in calls]
    log(label, out[label])
json.dump(out, open(os.path.join(os.environ.get("OUT", "/tmp"), "probe1.json"), "w"), indent=1)
