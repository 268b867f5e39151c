"""`blurapp bench --sections video`: synthetic clips at 720p, 1080p and 4K, grey and colour,
through each engine (blurapp.core.measuring.clip_comparison): frames per second per engine, the blur
alone and end to end (making the frames, batching them, the copies), and per batch size."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from blurapp.bench.synthetic import SyntheticClip
from blurapp.core.engines import DEFAULT_ENGINES, get_engine
from blurapp.core.kernel import DEFAULT_SIGMA
from blurapp.core.measuring.clip_comparison import ClipComparisonResult, compare_engines_on_clip
from blurapp.core.media.photo_checks import WORKING_BYTES_PER_PIXEL, available_memory
from blurapp.core.platforms import on_accelerator, platform_in_words
from blurapp.core.spec import BlurSpec

RESOLUTIONS = {"720p": (1280, 720), "1080p": (1920, 1080), "4k": (3840, 2160)}
DEFAULT_RESOLUTIONS = tuple(RESOLUTIONS)
# Frames of each timed span: few, since on a small CPU NumPy takes about a second a 4K colour
# frame (docs/performance.md, "What the code's settings rest on").
DEFAULT_VIDEO_FRAMES = 8
VIDEO_KERNEL_SIZE = 9


def parse_resolution(text: str) -> tuple[str, int, int]:
    """'720p', '1080p', '4k' or 'WIDTHxHEIGHT' → (its label, width, height)."""
    label = text.strip().lower()
    if label in RESOLUTIONS:
        return (label, *RESOLUTIONS[label])
    match = re.fullmatch(r"(\d+)x(\d+)", label)
    if match is None or min(int(match[1]), int(match[2])) < 1:
        raise ValueError(
            f"{text!r} is not a resolution: {', '.join(RESOLUTIONS)} or WIDTHxHEIGHT (640x360)"
        )
    return label, int(match[1]), int(match[2])


def video(
    resolutions: Sequence[str] = DEFAULT_RESOLUTIONS,
    frames: int = DEFAULT_VIDEO_FRAMES,
    engines: Sequence[str] = DEFAULT_ENGINES,
    colours: Sequence[bool] = (False, True),
    on_row: Callable[[dict], None] | None = None,
) -> dict:
    """Each resolution, grey then colour, compared over `frames` frames with a 9 × 9 kernel,
    σ 2.5: a row of figures each (see _row). A clip that would not fit in the memory available
    has a row saying so."""
    rows = []
    for text in resolutions:
        label, width, height = parse_resolution(text)
        for colour in colours:
            spec = BlurSpec(VIDEO_KERNEL_SIZE, DEFAULT_SIGMA, color=colour)
            problem = _too_large(width, height, colour)
            if problem is not None:
                row = _heading(label, width, height, colour) | {"error": problem}
            else:
                clip = SyntheticClip(width, height, frames, colour=colour)
                row = _row(
                    label, compare_engines_on_clip(clip, spec, engines=engines, frames=frames)
                )
            rows.append(row)
            if on_row is not None:
                on_row(row)
    return {
        "frames": frames,
        "kernel": {"size": VIDEO_KERNEL_SIZE, "sigma": DEFAULT_SIGMA, "algorithm": "2d"},
        "rows": rows,
    }


def _too_large(width: int, height: int, colour: bool) -> str | None:
    """Why a clip of these frames cannot be timed here (as a photo of their size could not),
    or None."""
    channels = 3 if colour else 1
    needed = width * height * channels * WORKING_BYTES_PER_PIXEL
    available = available_memory()
    if available is None or needed <= available:
        return None
    return f"needs about {needed / 1e9:.1f} GB, {available / 1e9:.1f} GB available"


def _heading(label: str, width: int, height: int, colour: bool) -> dict:
    return {"resolution": label, "width": width, "height": height, "colour": colour}


def _row(label: str, result: ClipComparisonResult) -> dict:
    """One clip's figures: per engine its frames a second (blur alone, end to end), its batch
    size and each batch size tried; the speed-ups and the difference from NumPy."""
    engines = {}
    for name in [*result.runs, *result.errors]:
        choice = result.batches.get(name)
        run = result.runs.get(name)
        engines[name] = {
            "frames_per_second": result.frames_per_second(name),
            "frames_per_second_end_to_end": result.end_to_end_frames_per_second(name),
            # The span's quartiles, as frames a second (the slower quartile first).
            "frames_per_second_range": [result.frames / s for s in reversed(run.quartiles)]
            if run is not None and min(run.quartiles) > 0
            else None,
            "batch_size": choice.size if choice else None,
            # The end to end with each batch's copies overlapping the blur (an accelerator's).
            "end_to_end_overlapped": name in result.overlapped,
            # batch size → frames a second, with copies and the blur alone, as measured.
            "batch_sizes": {str(s): 1 / t for s, t in choice.seconds_per_frame.items()}
            if choice
            else {},
            "batch_sizes_blur": {str(s): 1 / t for s, t in choice.blur_seconds_per_frame.items()}
            if choice
            else {},
            "first_call_seconds": run.first_call_seconds if run else None,
            "device": run.device if run else None,
            "max_abs_diff": result.differences.get(name),
            "error": result.errors.get(name),
        }
    return _heading(label, result.clip.width, result.clip.height, result.clip.colour) | {
        "frames": result.frames,
        "engines": engines,
        "speedup": result.speedup,
        "speedup_end_to_end": result.end_to_end_speedup,
        "noisy_reason": result.noisy_reason,
    }


def _title(name: str) -> str:
    return get_engine(name).title


def _fps(value: float | None) -> str:
    return "—" if value is None else f"{value:,.1f}"


def video_lines(figures: dict) -> list[str]:
    """The section as lines: a line per clip and engine."""
    kernel = figures["kernel"]
    lines = [
        f"video (synthetic clips, {kernel['size']} × {kernel['size']}, sigma "
        f"{kernel['sigma']:g}, spans of {figures['frames']} frames; frames/s, the blur alone "
        "and end to end with the frames made and copied):"
    ]
    for row in figures["rows"]:
        clip = f"{row['resolution']} {'colour' if row['colour'] else 'grey'}"
        if "error" in row:
            lines.append(f"  {clip:<14} — ({row['error']})")
            continue
        for name, engine in row["engines"].items():
            if engine["error"]:
                lines.append(f"  {clip:<14} {_title(name):<10} — ({engine['error']})")
                continue
            sizes = ", ".join(f"{s}: {_fps(v)}" for s, v in engine["batch_sizes"].items())
            lines.append(
                f"  {clip:<14} {_title(name):<10} {_fps(engine['frames_per_second']):>7} "
                f"/ {_fps(engine['frames_per_second_end_to_end']):>7} frames/s, batches of "
                f"{engine['batch_size']}"
                + (
                    ", end to end with the copies overlapping"
                    if engine.get("end_to_end_overlapped")
                    else ""
                )
                + (f" (per batch size {sizes})" if sizes else "")
                + (
                    f" on {engine['device']}"
                    if on_accelerator(platform_in_words(engine["device"]))
                    else ""
                )
            )
        if row["speedup"] is not None:
            lines.append(
                f"  {clip:<14} speed-up ×{row['speedup']:.1f}, end to end "
                f"×{row['speedup_end_to_end']:.1f}"
                + (f" (figures unsure: {row['noisy_reason']})" if row["noisy_reason"] else "")
            )
    return lines


def video_rows(
    figures: dict, row_of: Callable[..., dict], value: Callable[..., float | None]
) -> list[dict]:
    """The section as a bench record's typed rows (blurapp.bench.record's `_row` and `_value`
    given as `row_of` and `value`)."""
    kernel = figures["kernel"]
    rows = []
    for row in figures["rows"]:
        size = f"{row['width']}×{row['height']}"
        named = f"{row['resolution']} ({size})" if row["resolution"] in RESOLUTIONS else size
        what = f"{named} {'colour' if row['colour'] else 'grey'}, {kernel['size']}×{kernel['size']}"
        if "error" in row:
            continue
        for name, engine in row["engines"].items():
            if engine["error"]:
                continue
            title = _title(name)
            low_high = engine["frames_per_second_range"] or [None, None]
            how = f"median of spans of {row['frames']} synthetic frames, batches of " + str(
                engine["batch_size"]
            )
            rows.append(
                row_of(
                    "video",
                    f"{what}, blur alone",
                    title,
                    value(engine["frames_per_second"]),
                    "frames/s",
                    how,
                    (value(low_high[0]), value(low_high[1])),
                )
            )
            rows.append(
                row_of(
                    "video",
                    f"{what}, end to end",
                    title,
                    value(engine["frames_per_second_end_to_end"]),
                    "frames/s",
                    f"{how}; frames made, batched and copied",
                )
            )
            for size, fps in engine["batch_sizes"].items():
                rows.append(
                    row_of(
                        "video",
                        f"{what}, batches of {size}",
                        title,
                        value(fps),
                        "frames/s",
                        "median of 3 batches after the first, copies counted",
                    )
                )
    return rows
