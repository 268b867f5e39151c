"""How many of the copy floor's images are alive on the device at once: JAX-jit's copy floor
(blurapp.core.engines.jax_calls.first_jax_copy) queues QUEUED_COPIES copies, each of the one
before, and waits once; its comment said two were alive at a time, which holds only if the
device lets go of each copy's input as soon as the next copy is queued. This dispatches the
same chain, reads the device's memory in use just after dispatching and its peak once done,
and gives both as a multiple of one image's bytes (2 or 3: as the comment said; up to
QUEUED_COPIES + 1: every copy alive until the last is done). On a TPU it gave QUEUED_COPIES + 1
at every size, which first_jax_copy's comment now says: the floor of a photo of N bytes holds
9 N of the chip's memory for a moment (docs/performance.md).

Run on the machine with the accelerator, from the project's root:

    python docs/performance/copy_floor_memory.py            # writes $OUT/copy_floor_memory.json
    python docs/performance/copy_floor_memory.py --small    # a quick check, small images

A device whose memory JAX does not report (a CPU) gives null figures.
"""

import argparse
import json
import os
from pathlib import Path

import jax
import numpy as np

from blurapp.core.engines.jax_calls import QUEUED_COPIES
from blurapp.core.engines.jax_runtime import jax_device

SHAPES = {"grey24": (4000, 6000), "colour24": (4000, 6000, 3), "colour96": (8000, 12000, 3)}
SMALL_SHAPES = {"grey": (200, 300), "colour": (200, 300, 3)}


def memory(device: object, key: str) -> int | None:
    stats = device.memory_stats()  # type: ignore[attr-defined]
    return None if not stats or key not in stats else int(stats[key])


def measured(shape: tuple[int, ...], device: object) -> dict:
    image = np.random.default_rng(0).random(shape, dtype=np.float32)
    copy = jax.jit(lambda values: values + 0)
    on_device = jax.block_until_ready(jax.device_put(image, device))
    jax.block_until_ready(copy(on_device))  # compiled outside what is measured
    before = memory(device, "bytes_in_use")
    copied = on_device
    for _ in range(QUEUED_COPIES):
        copied = copy(copied)  # as first_jax_copy's again() queues them
    dispatched = memory(device, "bytes_in_use")
    jax.block_until_ready(copied)
    peak = memory(device, "peak_bytes_in_use")

    def images(value: int | None) -> float | None:
        return None if value is None or before is None else (value - before) / image.nbytes + 1

    return {
        "shape": list(shape),
        "image_bytes": image.nbytes,
        "queued_copies": QUEUED_COPIES,
        "images_alive_after_dispatch": images(dispatched),
        "images_alive_at_peak": images(peak),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="small images, a quick check")
    arguments = parser.parse_args()
    device = jax_device()
    shapes = SMALL_SHAPES if arguments.small else SHAPES
    rows = {}
    for name, shape in shapes.items():  # growing: each peak is its own image's
        try:
            rows[name] = measured(shape, device)
        except Exception as error:  # out of the device's memory: an answer too
            rows[name] = {"shape": list(shape), "error": str(error)[:500]}
    record = {"device": str(device), "rows": rows}
    target = Path(os.environ.get("OUT", "/tmp")) / "copy_floor_memory.json"
    target.write_text(json.dumps(record, indent=2), encoding="utf-8")
    print(f"{'image':<10} {'MB':>8} {'alive after dispatch':>22} {'alive at peak':>15}")
    for name, row in rows.items():
        if "error" in row:
            print(f"{name:<10} failed: {row['error'][:100]}")
            continue
        after, peak = row["images_alive_after_dispatch"], row["images_alive_at_peak"]
        print(
            f"{name:<10} {row['image_bytes'] / 1e6:>8.0f} "
            f"{'n/a' if after is None else f'{after:.1f}':>22} "
            f"{'n/a' if peak is None else f'{peak:.1f}':>15}"
        )
    print(f"written to {target}")


if __name__ == "__main__":
    main()
