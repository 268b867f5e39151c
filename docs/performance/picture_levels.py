"""How long a live preview's picture takes to make on its device: the blurred floats made 8-bit
and halved there (blurapp.core.engines.on_device.OutputOnDevice.picture_levels), with each
2 × 2 halving written four ways, timed apart from the copy of the levels to the host, for a
24 MP grey and colour output (section "halving"); then the picture a pane gets, with the levels
crossing as one 2-D array each or as one flat array of them all (section "crossing"), at the
live preview's 2 and 24 MP; each way's levels checked against the host's pyramid
(blurapp.app.pyramid.build_pyramid), which they must equal.

Run on the machine with the device, from the project's root:

    python docs/performance/picture_levels.py [--small] [--sections=halving,crossing]
    # writes $OUT/picture_levels.json
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

import jax
import numpy as np
from jax import lax

from blurapp.app.pyramid import SHOWN_SIDE, build_pyramid, level_sizes, output_pyramid
from blurapp.core.engines import host_link, on_device
from blurapp.core.media.saving import to_8bit


def by_reshape(plane):
    height, width = plane.shape[0] // 2 * 2, plane.shape[1] // 2 * 2
    total = plane[:height, :width].reshape(height // 2, 2, width // 2, 2).sum(axis=(1, 3))
    return (total + 2) >> 2


def by_slices(plane):
    height, width = plane.shape[0] // 2 * 2, plane.shape[1] // 2 * 2
    plane = plane[:height, :width]
    total = plane[0::2, 0::2] + plane[1::2, 0::2] + plane[0::2, 1::2] + plane[1::2, 1::2]
    return (total + 2) >> 2


def by_window(plane):
    height, width = plane.shape[0] // 2 * 2, plane.shape[1] // 2 * 2
    total = lax.reduce_window(plane[:height, :width], np.int32(0), lax.add, (2, 2), (2, 2), "VALID")
    return (total + 2) >> 2


def by_rows_then_transposed(plane):
    """Rows paired over a reshape of the row axis (sublanes), then the columns the same way
    in the transposed plane, transposed back."""
    height, width = plane.shape[0] // 2 * 2, plane.shape[1] // 2 * 2
    rows = plane[:height, :width].reshape(height // 2, 2, width).sum(axis=1)
    columns = rows.T.reshape(width // 2, 2, height // 2).sum(axis=1).T
    return (columns + 2) >> 2


WAYS = {
    "reshape": by_reshape,
    "slices": by_slices,
    "reduce_window": by_window,
    "rows, transposed": by_rows_then_transposed,
}


def milliseconds(step, times=9) -> float:
    step()
    seconds = []
    for _ in range(times):
        start = time.perf_counter()
        step()
        seconds.append(time.perf_counter() - start)
    return round(statistics.median(seconds) * 1000, 3)


def first_shown(height: int, width: int) -> tuple[int, int]:
    """The first level a pane gets at once (pyramid.PictureOnDevice) and how many from it."""
    sizes = level_sizes(height, width)
    first = next(
        (level for level, size in enumerate(sizes) if max(size) <= SHOWN_SIDE), len(sizes) - 1
    )
    return first, len(sizes) - first


def on_the_device(height: int, width: int, channels: int, device, rng):
    """A blurred output of random floats on `device` as the blur leaves it (rows of values):
    its shape, the values there, the host's pyramid of it, and the levels a pane gets at once
    (first, count)."""
    shape = (height, width) if channels == 1 else (height, width, channels)
    floats = rng.random(shape, dtype=np.float32)
    values = jax.device_put(floats.reshape(height, -1), device)
    return shape, values, build_pyramid(to_8bit(floats)), *first_shown(height, width)


def equal_to_the_hosts(made: list, expected: tuple, first: int) -> bool:
    return all(np.array_equal(level, expected[first + index]) for index, level in enumerate(made))


def halving(height: int, width: int, device, rng) -> dict:
    """Each way of halving, on the device and with the copy of its levels to the host."""
    found: dict = {}
    copy = jax.jit(lambda x: x + 0)
    halve_as_written = on_device._halve
    for channels in (1, 3):
        shape, values, expected, first, count = on_the_device(height, width, channels, device, rng)
        row: dict = {
            "levels": [list(size) for size in level_sizes(height, width)[first:]],
            "copy of the floats (x + 0), ms": milliseconds(
                lambda: jax.block_until_ready(copy(values))
            ),
        }
        for way, halve in WAYS.items():
            on_device._halve = lambda plane, platform, halve=halve: halve(plane)
            on_device._levels_program.cache_clear()
            output = on_device.OutputOnDevice(jax, values, shape)
            program = on_device._levels_program(jax, shape, first, count, device.platform, False)
            with host_link.forced_layout(host_link.AS_IT_IS):
                made = output.picture_levels(first, count)
                row[way] = {
                    "equal to the host's": equal_to_the_hosts(made, expected, first),
                    "on the device, ms": milliseconds(
                        lambda: jax.block_until_ready(program(values))
                    ),
                    "with the copy to the host, ms": milliseconds(
                        lambda: output.picture_levels(first, count)
                    ),
                }
        on_device._halve = halve_as_written
        on_device._levels_program.cache_clear()
        name = "grey" if channels == 1 else "colour"
        found[name] = row
        print(name, json.dumps(row, indent=1))
    return found


# The photos of the window's live preview (blurapp.bench.LIVE_MEGAPIXELS, 3 × 2), and a pane's
# view in the bench's window, (height, width) in screen pixels.
CROSSING_SHAPES = {"2 MP": (1155, 1732), "24 MP": (4000, 6000)}
VIEW_SIZE = (560, 760)


def crossing(shapes: dict, device, rng) -> dict:
    """A pane's picture as the window gets it (pyramid.output_pyramid: the levels that cross at
    once, then the picture fitted to the pane) with the levels crossing as 2-D arrays, one a
    level, and as one flat array of them all."""
    found: dict = {}
    for label, (height, width) in shapes.items():
        for channels in (1, 3):
            shape, values, expected, first, count = on_the_device(
                height, width, channels, device, rng
            )
            row: dict = {}
            for layout, name in ((host_link.AS_IT_IS, "2-D arrays"), (host_link.PIECES, "flat")):
                with host_link.forced_layout(layout):
                    output = on_device.OutputOnDevice(jax, values, shape)
                    made = output.picture_levels(first, count)
                    row[name] = {
                        "equal to the host's": equal_to_the_hosts(made, expected, first),
                        "levels, ms": milliseconds(lambda: output.picture_levels(first, count)),
                        "the pane's picture, ms": milliseconds(
                            lambda: output_pyramid(output, VIEW_SIZE)
                        ),
                    }
            key = f"{label} {'grey' if channels == 1 else 'colour'}"
            found[key] = row
            print(key, json.dumps(row))
    return found


def main(argv: list[str]) -> int:
    small = "--small" in argv
    sections = ("halving", "crossing")
    for argument in argv:
        if argument.startswith("--sections="):
            sections = tuple(argument.split("=", 1)[1].split(","))
    device = jax.devices()[0]
    rng = np.random.default_rng(0)
    found: dict = {"device": str(device), "jax": jax.__version__}
    if "halving" in sections:
        found["halving"] = halving(*((400, 600) if small else (4000, 6000)), device, rng)
    if "crossing" in sections:
        shapes = {"small": (300, 500)} if small else CROSSING_SHAPES
        found["crossing"] = crossing(shapes, device, rng)
    out = Path(os.environ.get("OUT", "/tmp")) / "picture_levels.json"
    out.write_text(json.dumps(found, indent=2))
    print("written", out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
