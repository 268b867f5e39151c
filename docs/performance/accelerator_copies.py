"""Where a blur's time goes end to end on an accelerator: each copy, each engine's program and
the host's own copies timed apart, then the call made in bands and frames one after another,
for 24 MP and 4K photos, grey and colour, as 8-bit levels (docs/performance.md, "On a TPU").

The bands here take a halo of rows on either side (uneven heights at the photo's edges), where
blurapp.core.engines.bands makes every band the same height: the same bytes moved, give or take
a few rows.

Run on the machine with the accelerator, from the project's root:

    python docs/performance/accelerator_copies.py   # writes $OUT/probe1.json (or /tmp)
"""

import functools
import itertools
import json
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import jax
import numpy as np

from blurapp.core.engines import jax_program, pallas_program
from blurapp.core.engines.jax_engine import blur_frames_jax
from blurapp.core.kernel import gaussian_kernel

SHAPES = {
    "grey24": (4000, 6000),
    "colour24": (4000, 6000, 3),
    "grey4k": (2160, 3840),
    "colour4k": (2160, 3840, 3),
}
RADIUS = 4  # a 9 × 9 kernel's


def milliseconds(step: Callable[[], object], times: int = 7) -> float:
    """The median of `times` runs of `step`, in milliseconds."""
    seconds = []
    for _ in range(times):
        start = time.perf_counter()
        step()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds) * 1000


def in_bands(program, rows, weights, device, step: int, count: int) -> np.ndarray:
    """`rows` blurred in `count` bands, each put, blurred and copied back without waiting for
    the one before; the bands' levels gathered on the host."""
    height = rows.shape[0]
    edges = np.linspace(0, height, count + 1).astype(int)
    started = []
    for top, bottom in itertools.pairwise(edges):
        first, last = max(0, top - RADIUS), min(height, bottom + RADIUS)
        levels = program(jax.device_put(rows[first:last], device), weights, step=step)[0]
        levels.copy_to_host_async()
        started.append((levels, top - first, bottom - top))
    gathered = np.empty_like(rows)
    row = 0
    for levels, skip, taken in started:
        gathered[row : row + taken] = np.asarray(levels)[skip : skip + taken]
        row += taken
    return gathered


def frames_in_turn(program, frames, weights, device, step: int, count: int = 8) -> None:
    """`count` frames, each put, blurred and copied back before the next is put."""
    for index in range(count):
        blurred = program(jax.device_put(frames[index % 2], device), weights, step=step)[0]
        np.asarray(blurred)


def frames_overlapped(program, frames, weights, device, step: int, count: int = 8) -> None:
    """`count` frames, each put while the ones before are blurred and copied back, at most
    two of them waiting."""
    waiting = []
    for index in range(count):
        blurred = program(jax.device_put(frames[index % 2], device), weights, step=step)[0]
        blurred.copy_to_host_async()
        waiting.append(blurred)
        if len(waiting) > 2:
            np.asarray(waiting.pop(0))
    for blurred in waiting:
        np.asarray(blurred)


def photo_figures(shape, device, weights, programs, rng) -> dict:
    levels = rng.integers(0, 256, shape, dtype=np.uint8)
    step = shape[2] if len(shape) == 3 else 1
    rows = levels.reshape(shape[0], -1)
    floats = (rows * np.float32(1 / 255)).astype(np.float32)
    jit, pallas = programs["jit"], programs["pallas"]
    figures = {}
    on_device = jax.block_until_ready(jax.device_put(rows, device))
    floats_on_device = jax.block_until_ready(jax.device_put(floats, device))
    figures["to_u8"] = milliseconds(lambda: jax.block_until_ready(jax.device_put(rows, device)))
    figures["to_f32"] = milliseconds(lambda: jax.block_until_ready(jax.device_put(floats, device)))
    for name, program in programs.items():
        # The first call, which compiles.
        jax.block_until_ready(program(on_device, weights, step=step))
        figures[f"{name}_blur_levels_in"] = milliseconds(
            lambda program=program: jax.block_until_ready(program(on_device, weights, step=step))
        )
        figures[f"{name}_blur_f32_in"] = milliseconds(
            lambda program=program: jax.block_until_ready(
                program(floats_on_device, weights, step=step)
            )
        )
    figures["host_copy_f32"] = milliseconds(floats.copy)
    figures["host_u8_to_f32"] = milliseconds(
        lambda: np.multiply(rows, np.float32(1 / 255), dtype=np.float32)
    )
    for name, program in programs.items():
        figures[f"serial_{name}_u8"] = milliseconds(
            lambda program=program: np.asarray(
                program(jax.device_put(rows, device), weights, step=step)[0]
            )
        )
    whole = np.asarray(jit(on_device, weights, step=step)[0])
    for count in (2, 4, 8):
        banded = in_bands(jit, rows, weights, device, step, count)
        figures[f"bands{count}_equal"] = bool(np.array_equal(banded, whole))
        for name, program in programs.items():
            figures[f"bands{count}_{name}"] = milliseconds(
                lambda program=program, count=count: in_bands(
                    program, rows, weights, device, step, count
                )
            )
    frames = [rng.integers(0, 256, shape, dtype=np.uint8).reshape(shape[0], -1) for _ in range(2)]
    figures["frames8_serial_ms_per_frame"] = (
        milliseconds(lambda: frames_in_turn(jit, frames, weights, device, step), 3) / 8
    )
    figures["frames8_pipelined_ms_per_frame"] = (
        milliseconds(lambda: frames_overlapped(jit, frames, weights, device, step), 3) / 8
    )
    figures["frames8_pipelined_pallas_ms_per_frame"] = (
        milliseconds(lambda: frames_overlapped(pallas, frames, weights, device, step), 3) / 8
    )
    return figures


def main() -> None:
    device = jax.devices()[0]
    print("device", device, device.device_kind, flush=True)
    kernel = np.asarray(gaussian_kernel(9, 2.0), np.float32)
    weights = jax.device_put(kernel, device)
    programs = {
        "jit": jax.jit(
            functools.partial(
                jax_program.blur_on_accelerator,
                pass_values=jax_program.pass_values_on(device.platform),
            ),
            static_argnames=("step",),
        ),
        "pallas": jax.jit(
            pallas_program.blur_rows,
            static_argnames=("step", "tile_rows", "chunk_lanes", "interpret", "variant"),
        ),
    }
    rng = np.random.default_rng(0)
    found: dict = {"device": str(device.device_kind)}
    for label, shape in SHAPES.items():
        found[label] = photo_figures(shape, device, weights, programs, rng)
        rounded = {k: round(v, 3) if isinstance(v, float) else v for k, v in found[label].items()}
        print(label, json.dumps(rounded), flush=True)
    # BlurApp's own frames call on a 4K float32 frame: its parts (blur, to, back), in ms.
    for label, shape in (
        ("frames_call_grey4k", (1, 2160, 3840)),
        ("frames_call_colour4k", (1, 2160, 3840, 3)),
    ):
        frames = rng.random(shape, dtype=np.float32)
        blur_frames_jax(frames, kernel)
        calls = [blur_frames_jax(frames, kernel).call for _ in range(5)]
        found[label] = [[round(part * 1000, 2) for part in call[:3]] for call in calls]
        print(label, found[label], flush=True)
    out = Path(os.environ.get("OUT", "/tmp")) / "probe1.json"
    out.write_text(json.dumps(found, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
