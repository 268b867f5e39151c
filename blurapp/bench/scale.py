"""`blurapp bench --sections scale`: folders of photos through `blurapp batch`, and a gigapixel
image blurred by blocks, with its time and peak memory."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from blurapp.bench.synthetic import synthetic_image
from blurapp.core.engines import DEFAULT_ENGINES, REFERENCE_ENGINE

_MEASURE_SCRIPT = textwrap.dedent(
    """
    import json, resource, sys, time
    from blurapp.core.kernel import gaussian_kernel
    from blurapp.scale.tiled import blur_file_tiled
    source, output, size, block, engine = sys.argv[1:6]
    start = time.perf_counter()
    result = blur_file_tiled(
        source, output, kernel=gaussian_kernel(int(size)), engine=engine, block=int(block)
    )
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"seconds": seconds, "peak_rss_bytes": peak, "blocks": result.blocks}))
    """
)


def write_test_tiff(
    path: str | os.PathLike[str],
    side: int,
    *,
    tile: int = 512,
    compression: str | None = None,
    zeros: bool = False,
) -> Path:
    """Write a `side` × `side` 8-bit grey tiled BigTIFF from a generator of tiles, so making
    even a gigapixel one holds a tile at a time: a noisy gradient, or zeros."""
    import tifffile

    rng = np.random.default_rng(13)
    noise = rng.integers(0, 64, size=(tile, tile), dtype=np.uint8)
    count = -(-side // tile)

    def tiles() -> Iterator[np.ndarray]:
        for row in range(count):
            for column in range(count):
                if zeros:
                    yield np.zeros((tile, tile), np.uint8)
                else:
                    level = (row * 7 + column * 3) % 192
                    yield np.roll(noise, row + column, axis=1) + np.uint8(level)

    tifffile.imwrite(
        path,
        data=tiles(),
        shape=(side, side),
        dtype=np.uint8,
        tile=(tile, tile),
        bigtiff=True,
        photometric="minisblack",
        compression=compression,
        metadata=None,
    )
    return Path(path)


def measure_gigapixel(
    tmp_folder: str | os.PathLike[str],
    *,
    side: int = 32768,
    kernel_size: int = 9,
    block: int = 2048,
    engine: str = REFERENCE_ENGINE,
) -> dict[str, Any]:
    """Blur a `side` × `side` (by default 1-gigapixel) 8-bit grey tiled TIFF in tiles, in a
    process of its own, and return {seconds, peak_rss_bytes, pixels, …}: the peak is that
    process's resident memory alone. The input and output (about 2 GB) go in `tmp_folder` and
    are removed after."""
    folder = Path(tmp_folder)
    source = folder / "gigapixel-source.tif"
    output = folder / "gigapixel-blurred.tif"
    try:
        write_test_tiff(source, side)
        # On disk before the clock starts, as a user's scan is: the blur timed should not share
        # the disk with the kernel writing this 1 GB back (no difference was measured either way).
        with open(source, "rb") as written:
            os.fsync(written.fileno())
        completed = subprocess.run(
            [
                sys.executable,
                "-c",
                _MEASURE_SCRIPT,
                *map(str, (source, output, kernel_size)),
                str(block),
                engine,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if completed.returncode != 0:
            raise RuntimeError(f"the tiled blur failed:\n{completed.stderr.strip()}")
        figures = json.loads(completed.stdout.strip().splitlines()[-1])
    finally:
        for path in (source, output):
            with contextlib.suppress(OSError):
                path.unlink()
    return {
        "seconds": figures["seconds"],
        "peak_rss_bytes": figures["peak_rss_bytes"],
        "pixels": side * side,
        "blocks": figures["blocks"],
        "block": block,
        "kernel_size": kernel_size,
        "engine": engine,
    }


SCALE_PHOTOS = 24  # photos of 1 MP in the batch measured
SCALE_ENGINES = DEFAULT_ENGINES


def scale(folder: Path) -> dict:
    """`blurapp batch`'s throughput on 1 core and on all, each engine, into PNG; and the
    gigapixel blur by blocks with each engine: its time and its peak memory."""
    # the scale extra's batch layer (75 ms: asyncio, sockets): only when this section runs
    from blurapp.scale.batch_plan import plan_batch
    from blurapp.scale.batch_run import run_batch

    photos = folder / "scale-photos"
    photos.mkdir()
    for index in range(SCALE_PHOTOS):
        levels = (synthetic_image(1.0, seed=index, channels=3) * 255).astype(np.uint8)
        Image.fromarray(levels).save(photos / f"photo-{index:02d}.jpg", quality=90)
    cores = os.cpu_count() or 1
    batch = []
    for engine, workers in itertools.product(SCALE_ENGINES, sorted({1, cores})):
        out = folder / f"scale-out-{engine}-{workers}"
        # One untimed photo first: JAX compiles for the size once, not inside the figure.
        run_batch(plan_batch([photos / "photo-00.jpg"], folder / "warm-up", overwrite=True),
                  engine=engine, workers=1)  # fmt: skip
        summary = run_batch(plan_batch([photos], out), engine=engine, workers=workers)
        batch.append(
            {
                "engine": engine,
                "workers": workers,
                "photos": summary.done,
                "failed": len(summary.failed),
                "seconds": summary.seconds,
                "photos_per_second": summary.photos_per_second,
                "megapixels_per_second": summary.megapixels_per_second,
            }
        )
    gigapixel = [measure_gigapixel(folder, engine=engine) for engine in SCALE_ENGINES]
    return {"batch": batch, "gigapixel": gigapixel}
