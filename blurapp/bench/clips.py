"""`blurapp bench --sections playing clip-file`: clips as a user meets them.

- playing: a clip playing in the real window through both panes (NumPy and JAX-jit), each
  pane's frames per second and frames dropped, and the event loop's longest stall
  (blurapp.ui.probe, in a process of its own);
- clip-file: `blurapp blur CLIP -o OUT --engine jax` (or with each engine `--engines` names)
  on a grey H.264 .mp4 and a grey FFV1 .mkv written first, each into its own format, timed as a
  whole command (start-up, decoding, the blur, encoding) with its peak resident memory, beside
  the codec's floor measured in the same run: PyAV alone decoding the clip, and alone encoding
  as many frames with the encoder and settings `blur` chooses; the slower of the two is as
  fast as the command could be.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from blurapp.bench.folders import own_folders
from blurapp.bench.peak import peak_of
from blurapp.bench.video import parse_resolution
from blurapp.core.engines import get_engine
from blurapp.core.media.clip import ClipInfo
from blurapp.core.media.clip_saving import (
    encoder_options,
    save_clip,
    video_codec,
    video_pixel_formats,
)

# How long the playing section times each clip playing, once both panes have shown a frame.
DEFAULT_PLAYING_SECONDS = 15.0
# The playing section's clip's frames a second, unless --playing-rate says otherwise.
DEFAULT_PLAYING_RATE = 30.0
# The clip-file section's clip: as many frames as a ten-second clip at 30 frames/s.
DEFAULT_CLIP_FRAMES = (300,)
CLIP_RATE = 30.0
# The clip-file section's formats, each blurred into its own: lossy H.264 and lossless FFV1.
CLIP_FILE_FORMATS = (".mp4", ".mkv")
# The clip-file section's engines unless `--engines` names them (blurapp.cli.bench).
CLIP_FILE_ENGINES = ("jax",)
# Distinct frames the written clip cycles through (each moved a pixel): enough that the encoder
# cannot make every frame a copy of the one before.
_DISTINCT_FRAMES = 24


def playing(
    resolutions: Sequence[str],
    seconds: float = DEFAULT_PLAYING_SECONDS,
    rate: float = DEFAULT_PLAYING_RATE,
    *,
    colour: bool = False,
) -> dict:
    """The window playing a clip of each resolution, grey (or `colour`, blurred in colour),
    `rate` frames a second, for `seconds`, timed from when both panes have shown a frame (see
    blurapp.ui.probe.measure_playing)."""
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    rows = []
    with own_folders(env) as env:
        for text in resolutions:
            label, width, height = parse_resolution(text)
            probe = [
                *("-m", "blurapp.ui.probe", "--playing"),
                *(str(width), str(height), str(seconds), str(rate)),
                *(("colour",) if colour else ()),
            ]
            run = subprocess.run(
                [sys.executable, *probe],
                capture_output=True,
                text=True,
                timeout=900,
                env=env,
            )
            row: dict = {"resolution": label, "width": width, "height": height}
            row["seconds"] = seconds
            row["clip_frames_per_second"] = rate
            row["colour"] = colour
            if run.returncode != 0:
                lines = run.stderr.strip().splitlines()
                row["error"] = lines[-1] if lines else "the probe failed"
            else:
                row |= json.loads(run.stdout.strip().splitlines()[-1])
            rows.append(row)
    return {"rows": rows}


def clip_file(
    resolutions: Sequence[str],
    frame_counts: Sequence[int] = DEFAULT_CLIP_FRAMES,
    formats: Sequence[str] = CLIP_FILE_FORMATS,
    engines: Sequence[str] = CLIP_FILE_ENGINES,
) -> dict:
    """`blurapp blur` of a grey clip of each resolution, length and format (CLIP_FILE_FORMATS)
    into the same format with each of `engines`: frames per second of the whole command, its
    peak resident memory, and the codec's floor (see codec_floor) measured just before and
    just after the command, the faster of the two kept, with the command's share of it."""
    rows = []
    with (
        tempfile.TemporaryDirectory(prefix="blurapp-bench-clip-") as folder,
        own_folders() as env,
    ):
        for text in resolutions:
            label, width, height = parse_resolution(text)
            for count in frame_counts:
                for extension in formats:
                    clip = _ClipFile(label, width, height, count, extension)
                    rows += _clip_file_rows(Path(folder), env, clip, engines)
    return {"engines": list(engines), "rows": rows}


@dataclass(frozen=True)
class _ClipFile:
    """The clip a clip-file row blurs: its resolution, length and format."""

    label: str
    width: int
    height: int
    frames: int
    extension: str


def _clip_file_rows(folder: Path, env: dict, clip: _ClipFile, engines: Sequence[str]) -> list[dict]:
    """A row per engine, each blurring the same clip written once, each with the codec's floor
    measured just before and just after its command."""
    extension = clip.extension
    source = folder / f"clip-{clip.label}-{clip.frames}{extension}"
    info = ClipInfo(source.name, clip.width, clip.height, clip.frames, CLIP_RATE, colour=False)
    save_clip(source, _moving_frames(clip.width, clip.height, clip.frames), info)
    output = folder / f"blurred-{clip.label}-{clip.frames}{extension}"
    codec = video_codec(output)
    heading: dict = {"resolution": clip.label, "width": clip.width, "height": clip.height}
    heading |= {"frames": clip.frames, "format": extension, "codec": codec}
    scratch = output.with_name(f"floor{extension}")
    floor_before = codec_floor(source, scratch, info, codec)
    rows = []
    for engine in engines:
        row = heading | {"engine": engine}
        command = ["-m", "blurapp", "blur", str(source), "-o", str(output), "--engine", engine]
        start = time.perf_counter()
        peak = peak_of(command, env)
        seconds = time.perf_counter() - start
        failed = peak is None or not output.exists()
        floor_after = codec_floor(source, scratch, info, codec)
        output.unlink(missing_ok=True)
        floors, floor_before = [floor_before, floor_after], floor_after
        if failed:
            rows.append(row | {"error": "blurapp blur failed on the clip"})
            continue
        floor = max(floors, key=lambda one: one["floor_frames_per_second"])
        rate = clip.frames / seconds
        rows.append(
            row
            | {
                "seconds": seconds,
                "frames_per_second": rate,
                "peak_bytes": peak,
                **floor,
                "floor_share": rate / floor["floor_frames_per_second"],
            }
        )
    source.unlink()
    return rows


def codec_floor(source: Path, scratch: Path, info: ClipInfo, codec: str) -> dict:
    """How fast PyAV alone decodes `source` (FFmpeg's threads as BlurApp's reader sets them,
    each frame as grey levels) and, apart, encodes as many of those frames into `scratch`
    with `codec` and the settings `blurapp blur` writes with (clip_saving.encoder_options),
    in frames a second; the floor is the slower. Neither is BlurApp's own code: the codec's
    speed on this machine, with nothing blurred and nothing else running in between."""
    import av

    kept: list[np.ndarray] = []  # the clip's distinct frames, which it repeats (_moving_frames)
    decoded = 0
    start = time.perf_counter()
    with av.open(str(source)) as container:
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        for frame in container.decode(stream):
            levels = frame.to_ndarray(format="gray")
            if len(kept) < _DISTINCT_FRAMES:
                kept.append(levels)
            decoded += 1
    decoding = time.perf_counter() - start
    source_format, pixel_format = video_pixel_formats(codec, info)
    start = time.perf_counter()
    with av.open(str(scratch), mode="w") as container:
        output: Any = container.add_stream(codec, rate=round(CLIP_RATE))
        output.width, output.height = info.width, info.height
        output.pix_fmt = pixel_format
        output.options = encoder_options(codec)
        for index in range(decoded):
            picture = av.VideoFrame.from_ndarray(kept[index % len(kept)], format=source_format)
            for packet in output.encode(picture):
                container.mux(packet)
        for packet in output.encode():
            container.mux(packet)
    encoding = time.perf_counter() - start
    scratch.unlink()
    rates = {"decode": decoded / decoding, "encode": decoded / encoding}
    return {
        "decode_frames_per_second": rates["decode"],
        "encode_frames_per_second": rates["encode"],
        "floor_frames_per_second": min(rates.values()),
    }


def _moving_frames(width: int, height: int, count: int) -> Iterator[np.ndarray]:
    """`count` grey frames of smooth noise drifting a pixel a frame, as a panning camera's."""
    rng = np.random.default_rng(0)
    coarse = rng.random((height // 8 + _DISTINCT_FRAMES + 2, width // 8 + 2), dtype=np.float32)
    texture = np.kron(coarse, np.ones((8, 8), np.float32))
    for index in range(count):
        shift = index % _DISTINCT_FRAMES
        yield texture[shift : shift + height, :width]


def playing_lines(figures: dict) -> list[str]:
    # One rate a run (--playing-rate), each row's.
    rates = "/".join(sorted({f"{row['clip_frames_per_second']:g}" for row in figures["rows"]}))
    kinds = "/".join(sorted({_kind(row) for row in figures["rows"]}))
    lines = [
        f"A clip playing in the window, both panes (9×9, σ 2.5, {kinds}, "
        f"{rates} frames/s), timed from",
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


def _clip_file_engine(figures: dict, row: dict) -> str:
    """The engine of a clip-file row (a report made before rows named theirs: the section's)."""
    return row.get("engine") or figures.get("engine") or CLIP_FILE_ENGINES[0]


def clip_file_lines(figures: dict) -> list[str]:
    names = figures.get("engines") or [figures.get("engine", CLIP_FILE_ENGINES[0])]
    lines = [
        f"blurapp blur CLIP -o OUT --engine {'|'.join(names)} (9×9, σ 2.5, grey; the whole",
        "command), and the codec's floor in the same run (the slower of PyAV alone decoding and",
        "alone encoding):",
    ]
    for row in figures["rows"]:
        heading = (
            f"  {row['resolution']:>6} {row['width']}×{row['height']}, {row['frames']} frames, "
            f"{row.get('format', '.mp4')} {row.get('codec', '')}".rstrip()
            + f", {get_engine(_clip_file_engine(figures, row)).title}"
        )
        if "error" in row:
            lines.append(f"{heading}: {row['error']}")
            continue
        line = (
            f"{heading}: {row['frames_per_second']:.1f} frames/s ({row['seconds']:.1f} s), "
            f"peak memory {row['peak_bytes'] / 1e6:,.0f} MB"
        )
        if "floor_frames_per_second" in row:
            line += (
                f"; floor {row['floor_frames_per_second']:.1f} frames/s (decoding "
                f"{row['decode_frames_per_second']:.1f}, encoding "
                f"{row['encode_frames_per_second']:.1f}): {row['floor_share']:.2f} of it"
            )
        lines.append(line)
    return lines


def _kind(row: dict) -> str:
    """'grey' or 'colour': how a playing row's clip was blurred (a record made before colour
    could be asked for played grey)."""
    return "colour" if row.get("colour") else "grey"


def playing_rows(figures: dict, row_of: Callable[..., dict], value: Callable[..., Any]) -> list:
    """The playing section as a bench record's typed rows (see blurapp.bench.video.video_rows)."""
    rows = []
    for row in figures["rows"]:
        if "error" in row:
            continue
        what = (
            f"{row['resolution']} ({row['width']}×{row['height']}) {_kind(row)}, both panes playing"
        )
        how = (
            f"a {row['clip_frames_per_second']:g} frames/s clip played in the window for "
            f"{row['seconds']:g} s from when both panes had shown a frame"
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
        extension = row.get("format", ".mp4")
        if extension != ".mp4":  # the H.264 rows keep the names of records made before
            what += f", {row['codec']} {extension}"
        engine = _clip_file_engine(figures, row)
        how = f"blurapp blur CLIP{extension} -o OUT{extension} --engine {engine}, the whole command"
        title = get_engine(engine).title
        fps = value(row["frames_per_second"])
        rows.append(row_of("clip-file", f"{what}, blur to a file", title, fps, "frames/s", how))
        peak = value(row["peak_bytes"], 1e-6)
        rows.append(row_of("clip-file", f"{what}, peak memory", title, peak, "MB", how))
        if "floor_frames_per_second" not in row:
            continue
        floor_how = (
            f"PyAV alone decoding the clip and alone encoding as many frames with {row['codec']}"
            " as blur sets it, before and after the command, the faster run kept"
        )
        for key, words in (
            ("decode_frames_per_second", "decoding alone"),
            ("encode_frames_per_second", "encoding alone"),
            ("floor_frames_per_second", "codec floor (the slower)"),
        ):
            rate = value(row[key])
            rows.append(row_of("clip-file", f"{what}, {words}", None, rate, "frames/s", floor_how))
        share = value(row["floor_share"])
        rows.append(
            row_of("clip-file", f"{what}, blur ÷ codec floor", title, share, "×", floor_how)
        )
    return rows
