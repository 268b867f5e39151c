"""The vector floor (blurapp.core.engines.vector_floor) on a TPU: the float32 multiply-add rate of
its kernel's chains, for the kernel's settings and a few others (block rows × lanes, chains a
value), each also with its chain twice as long, whose time should double if the kernel is bound
by arithmetic and not by memory or the call; its output checked against NumPy's float64 chains;
then the floor as the yardsticks measure it (first_vector_floor). Elsewhere (no TPU) Pallas's
interpreter runs the kernel: use --quick there, the figures then say nothing of a chip.

Run on the machine with the accelerator, from the project's root:

    python docs/performance/vector_floor.py            # writes $OUT/vector_floor.json (or /tmp)
    python docs/performance/vector_floor.py --quick    # small, interpreted off a TPU: a check
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

from blurapp.core.engines import vector_floor
from blurapp.core.engines.jax_runtime import describe_device, import_jax, jax_device

# (rows, lanes, chains a value): the kernel's settings first.
SETTINGS = (
    (vector_floor.ROWS, vector_floor.LANES, vector_floor.ACCUMULATORS),
    (8, 512, 1),
    (8, 512, 2),
    (8, 512, 8),
    (8, 128, 4),
    (8, 1024, 4),
    (16, 512, 4),
    (32, 512, 4),
)
CALLS = 5


def chains_in_float64(blocks: np.ndarray, accumulators: int, steps: int) -> np.ndarray:
    total = np.zeros(blocks.shape)
    for chain in range(accumulators):
        values = blocks.astype(np.float64) + chain
        for _ in range(steps):
            values = values * vector_floor.MULTIPLIER + vector_floor.ADDEND
        total += values
    return total


def timed(jax, device, rows, lanes, accumulators, steps, grid_steps, interpret) -> tuple:
    """The quickest of CALLS calls (after an untimed one) over `grid_steps` blocks, in
    seconds, and the output of the first."""
    program = jax.jit(
        lambda blocks: vector_floor.fma_chain(
            blocks,
            rows=rows,
            lanes=lanes,
            accumulators=accumulators,
            steps=steps,
            interpret=interpret,
        )
    )
    blocks = np.random.default_rng(0).random((grid_steps * rows, lanes), dtype=np.float32)
    there = jax.block_until_ready(jax.device_put(blocks, device))
    output = np.asarray(jax.block_until_ready(program(there)))
    seconds = []
    for _ in range(CALLS):
        start = time.perf_counter()
        jax.block_until_ready(program(there))
        seconds.append(time.perf_counter() - start)
    return min(seconds), blocks, output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, few settings")
    arguments = parser.parse_args()
    jax = import_jax()
    device = jax_device()
    interpret = not vector_floor.compiled_for(device)
    steps = 64 if arguments.quick else vector_floor.CHAIN_STEPS
    settings = SETTINGS[:2] if arguments.quick else SETTINGS
    print(f"device: {describe_device(device)}" + (" (Pallas interpreted)" if interpret else ""))
    print(f"chains of {steps} multiply-adds a value; twice: {2 * steps}; quickest of {CALLS}")
    print("rows  lanes  chains  grid   ms     ms ×2  ×2 ratio  multiply-adds/s   GFLOP/s  max diff")
    figures: dict = {"device": describe_device(device), "interpreted": interpret, "settings": []}
    for rows, lanes, accumulators in settings:
        grid_steps = 2 if arguments.quick else vector_floor.FIRST_GRID_STEPS
        while True:
            seconds, blocks, output = timed(
                jax, device, rows, lanes, accumulators, steps, grid_steps, interpret
            )
            if arguments.quick or seconds >= vector_floor.LEAST_CALL_SECONDS:
                break
            if grid_steps >= vector_floor.MOST_GRID_STEPS:
                break
            grid_steps *= 2
        twice, _, _ = timed(
            jax, device, rows, lanes, accumulators, 2 * steps, grid_steps, interpret
        )
        # The first block's chains, against NumPy's in float64.
        first = slice(0, rows)
        expected = chains_in_float64(blocks[first], accumulators, steps)
        difference = float(np.abs(output[first] - expected).max())
        counted = vector_floor.multiply_adds(grid_steps, rows, lanes, accumulators, steps)
        rate = counted / seconds
        print(
            f"{rows:>4}  {lanes:>5}  {accumulators:>6}  {grid_steps:>4}  {seconds * 1e3:6.2f}"
            f"  {twice * 1e3:6.2f}  {twice / seconds:8.2f}  {rate:15.3e}  {2 * rate / 1e9:8.0f}"
            f"  {difference:.1e}"
        )
        figures["settings"].append(
            {
                "rows": rows,
                "lanes": lanes,
                "accumulators": accumulators,
                "chain_steps": steps,
                "grid_steps": grid_steps,
                "seconds": seconds,
                "twice_as_long_seconds": twice,
                "multiply_adds": counted,
                "multiply_adds_per_second": rate,
                "max_abs_diff_from_float64": difference,
            }
        )
    if not interpret:
        floor = vector_floor.first_vector_floor()
        assert floor is not None
        rate = floor.multiply_adds / floor.first.seconds
        print(
            f"the yardsticks' vector floor: {floor.grid_steps} grid steps, "
            f"{floor.first.seconds * 1e3:.2f} ms, {rate:.3e} float32 multiply-adds/s = "
            f"{2 * rate / 1e9:,.0f} GFLOP/s"
        )
        figures["yardstick"] = {
            "grid_steps": floor.grid_steps,
            "seconds": floor.first.seconds,
            "multiply_adds": floor.multiply_adds,
            "multiply_adds_per_second": rate,
        }
    out = Path(os.environ.get("OUT", "/tmp")) / "vector_floor.json"
    out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
