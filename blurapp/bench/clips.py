"""`blurapp bench --sections playing clip-file`: clips as a user meets them.

- playing: a clip playing in the real window through both panes (NumPy and JAX-jit), each
  pane's frames per second and frames dropped, and the event loop's longest stall
  (blurapp.ui.probe, in a process of its own);
- clip-file: `blurapp blur CLIP -o OUT.mp4 --engine jax` on an H.264 clip written first, timed
  as a whole command (start-up, decoding, the blur, encoding) with its peak resident memory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from blurapp.bench.peak import peak_of
from blurapp.bench.video import parse_resolution
from blurapp.core.engines import get_engine
from blurapp.core.media.clip import ClipInfo
from blurapp.core.media.clip_saving import save_clip

# How long the playing section times each clip playing, once both panes have shown a frame.
DEFAULT_PLAYING_SECONDS = 15.0
# The clip-file section's clip: as many frames as a ten-second clip at 30 frames/s.
DEFAULT_CLIP_FRAMES = (300,)
CLIP_RATE = 30.0
# Distinct frames the written clip cycles through (each moved a pixel): enough that the encoder
# cannot make every frame a copy of the one before.
_DISTINCT_FRAMES = 24


def playing(resolutions: Sequence[str], seconds: float = DEFAULT_PLAYING_SECONDS) -> dict:
    """The window playing a grey clip of each resolution for `seconds`, timed from when both
    panes have shown a frame (see blurapp.ui.probe.measure_playing)."""
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    rows = []
    with tempfile.TemporaryDirectory(prefix="blurapp-bench-cache-") as cache:
        env["BLURAPP_CACHE_DIR"] = cache
        for text in resolutions:
            label, width, height = parse_resolution(text)
            probe = ["-m", "blurapp.ui.probe", "--playing", str(width), str(height), str(seconds)]
            run = subprocess.run(
                [sys.executable, *probe],
                capture_output=True,
                text=True,
                timeout=900,
                env=env,
            )
            row: dict = {"resolution": label, "width": width, "height": height}
            row["seconds"] = seconds
            if run.returncode != 0:
                lines = run.stderr.strip().splitlines()
                row["error"] = lines[-1] if lines else "the probe failed"
            else:
                row |= json.loads(run.stdout.strip().splitlines()[-1])
            rows.append(row)
    return {"rows": rows}


def clip_file(
    resolutions: Sequence[str], frame_counts: Sequence[int] = DEFAULT_CLIP_FRAMES
) -> dict:
    """`blurapp blur` of a grey H.264 clip of each resolution and length to an .mp4 with
    JAX-jit: frames per second of the whole command, and its peak resident memory."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="blurapp-bench-clip-") as folder:
        env = {**os.environ, "BLURAPP_CACHE_DIR": os.path.join(folder, "cache")}
        for text in resolutions:
            label, width, height = parse_resolution(text)
            for count in frame_counts:
                source = Path(folder) / f"clip-{label}-{count}.mp4"
                info = ClipInfo(source.name, width, height, count, CLIP_RATE, colour=False)
                save_clip(source, _moving_frames(width, height, count), info)
                output = Path(folder) / f"blurred-{label}-{count}.mp4"
                command = ["-m", "blurapp", "blur", str(source), "-o", str(output)]
                start = time.perf_counter()
                peak = peak_of([*command, "--engine", "jax"], env)
                seconds = time.perf_counter() - start
                row: dict = {"resolution": label, "width": width, "height": height}
                row["frames"] = count
                if peak is None or not output.exists():
                    row["error"] = "blurapp blur failed on the clip"
                else:
                    row |= {
                        "seconds": seconds,
                        "frames_per_second": count / seconds,
                        "peak_bytes": peak,
                    }
                rows.append(row)
                source.unlink()
                output.unlink(missing_ok=True)
    return {"engine": "jax", "rows": rows}


def _moving_frames(width: int, height: int, count: int) -> Iterator[np.ndarray]:
    """`count` grey frames of smooth noise drifting a pixel a frame, as a panning camera's."""
    rng = np.random.default_rng(0)
    coarse = rng.random((height // 8 + _DISTINCT_FRAMES + 2, width // 8 + 2), dtype=np.float32)
    texture = np.kron(coarse, np.ones((8, 8), np.float32))
    for index in range(count):
        shift = index % _DISTINCT_FRAMES
        yield texture[shift : shift + height, :width]


def playing_lines(figures: dict) -> list[str]:
    lines = [
        "A clip playing in the window, both panes (9×9, σ 2.5, grey, 30 frames/s), timed from",
        "when both panes have shown a frame (their first calls, JAX-jit's compile, apart):",
    ]
    for row in figures["rows"]:
        heading = f"  {row['resolution']:>6} {row['width']}×{row['height']}"
        if "error" in row:
            lines.append(f"{heading}: {row['error']}")
            continue
        panes = []
        for name, engine in row["engines"].items():
            rate = engine["frames_per_second"]
            shown = "—" if rate is None else f"{rate:.1f} frames/s"
            panes.append(f"{name} {shown}, {engine['frames_dropped']} dropped")
        stall = row["stall_max_seconds"] * 1000
        first = row["first_frames_seconds"]
        lines.append(
            f"{heading}: {'; '.join(panes)}; longest stall {stall:.0f} ms"
            f" (first frames after {first:.1f} s)"
        )
    return lines


def clip_file_lines(figures: dict) -> list[str]:
    lines = ["blurapp blur CLIP.mp4 -o OUT.mp4 --engine jax (9×9, σ 2.5, grey; the whole command):"]
    for row in figures["rows"]:
        heading = f"  {row['resolution']:>6} {row['width']}×{row['height']}, {row['frames']} frames"
        if "error" in row:
            lines.append(f"{heading}: {row['error']}")
            continue
        lines.append(
            f"{heading}: {row['frames_per_second']:.1f} frames/s ({row['seconds']:.1f} s), "
            f"peak memory {row['peak_bytes'] / 1e6:,.0f} MB"
        )
    return lines


def playing_rows(figures: dict, row_of: Callable[..., dict], value: Callable[..., Any]) -> list:
    """The playing section as a bench record's typed rows (see blurapp.bench.video.video_rows)."""
    rows = []
    for row in figures["rows"]:
        if "error" in row:
            continue
        what = f"{row['resolution']} ({row['width']}×{row['height']}) grey, both panes playing"
        how = (
            f"a 30 frames/s clip played in the window for {row['seconds']:g} s from when both"
            " panes had shown a frame"
        )
        for name, engine in row["engines"].items():
            title = get_engine(name).title
            rate = value(engine["frames_per_second"])
            rows.append(row_of("playing", what, title, rate, "frames/s", how))
            dropped = engine["frames_dropped"]
            rows.append(row_of("playing", f"{what}, dropped", title, dropped, "frames", how))
        stall = value(row["stall_max_seconds"], 1000)
        rows.append(row_of("playing", f"{what}, longest stall", None, stall, "ms", how))
    return rows


def clip_file_rows(figures: dict, row_of: Callable[..., dict], value: Callable[..., Any]) -> list:
    """The clip-file section as a bench record's typed rows."""
    rows = []
    for row in figures["rows"]:
        if "error" in row:
            continue
        what = f"{row['resolution']} ({row['width']}×{row['height']}) grey, {row['frames']} frames"
        how = "blurapp blur CLIP.mp4 -o OUT.mp4 --engine jax, the whole command"
        title = get_engine(figures["engine"]).title
        fps = value(row["frames_per_second"])
        rows.append(row_of("clip-file", f"{what}, blur to a file", title, fps, "frames/s", how))
        peak = value(row["peak_bytes"], 1e-6)
        rows.append(row_of("clip-file", f"{what}, peak memory", title, peak, "MB", how))
    return rows
