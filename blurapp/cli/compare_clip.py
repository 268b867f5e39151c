"""`blurapp compare CLIP`: a span of a clip's frames through the chosen engines, in frames per
second and milliseconds a frame (the blur alone and end to end), or one JSON object; with
--out-dir, each engine's blurred span written as a clip."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from blurapp.cli.compare_outputs import engine_output, folder_exists, make_folder
from blurapp.cli.options import positive_int_argument
from blurapp.cli.output import CommandFailed, json_text, log, print_line, shown
from blurapp.cli.progress import staged_progress
from blurapp.core.blurring.blur_clip_file import blur_clip_to_file
from blurapp.core.blurring.blur_file import BlurFailed
from blurapp.core.engines.jax_runtime import JaxUnavailableError
from blurapp.core.measuring.clip_comparison import (
    DEFAULT_CLIP_FRAMES,
    clip_comparison_dict,
    compare_engines_on_clip,
)
from blurapp.core.media.clip_files import open_clip_file
from blurapp.core.media.clip_saving import check_clip_output_path, clip_output_suffix
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.media.saving import OutputError
from blurapp.core.report.clip_figures import clip_figures


def add_clip_options(compare: argparse.ArgumentParser) -> None:
    compare.add_argument(
        "--frames",
        type=positive_int_argument,
        default=None,
        metavar="N",
        help=f"for a clip: the frames timed, from --start on (default: {DEFAULT_CLIP_FRAMES}, "
        "fewer when the clip ends sooner)",
    )
    compare.add_argument(
        "--start",
        type=_frame_number,
        default=None,
        metavar="FRAME",
        help="for a clip: the first frame timed, counted from 0 (default: 0)",
    )


def _frame_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a frame number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"frames are counted from 0, not {value}")
    return value


def compare_clip_command(args: argparse.Namespace, source: Path) -> int:
    """Open the clip at `source`, time `args.frames` of its frames from `args.start` through
    `args.engines` and print the figures (or `--json`); with `args.out_dir`, write each
    engine's blurred span there first. A clip cut short is timed (and written) over the
    frames that decoded, with a warning line saying where it stopped."""
    frames = DEFAULT_CLIP_FRAMES if args.frames is None else args.frames
    start = 0 if args.start is None else args.start
    extension = clip_output_suffix(source)
    try:
        with open_clip_file(source, color=args.color) as clip:
            count = clip.info.known_frame_count
            if count is not None and start >= count:
                raise CommandFailed(
                    f"{shown(source)}: --start {start} is past the clip's last frame ({count - 1})"
                )
            if args.out_dir is not None:  # before the work, not after it
                span = frames if count is None else min(frames, count - start)
                _check_outputs(args.out_dir, source, extension, clip.info, span, args.engines)
            with staged_progress(_stages(shown(source.name))) as progress:
                result = compare_engines_on_clip(
                    clip,
                    args.spec,
                    engines=args.engines,
                    frames=frames,
                    start=start,
                    device=args.device,
                    repeats=args.repeat,
                    progress=progress,
                )
            if args.out_dir is not None:
                _write_outputs(args.out_dir, extension, clip, result, args.device)
    except CommandFailed:
        raise
    except (PhotoError, OutputError, BlurFailed, JaxUnavailableError) as error:
        raise CommandFailed(str(error)) from error
    except IndexError:  # a span past the end of a clip that did not say its length
        raise CommandFailed(
            f"{shown(source)}: the clip has no frame {start}; --start counts from 0"
        ) from None
    except MemoryError:
        raise CommandFailed(
            f"{shown(source)}: not enough memory to compare the engines on this clip"
        ) from None
    except Exception as error:
        log.debug("comparing the engines on the clip %s failed", source, exc_info=True)
        raise CommandFailed(f"{shown(source)}: {type(error).__name__}: {error}") from None
    if result.clip_problem is not None:
        print(
            f"warning: timed over the {result.frames} frames that decoded: {result.clip_problem}",
            file=sys.stderr,
            flush=True,
        )
    if args.json:
        data = clip_comparison_dict(result)
        data["clip"]["path"] = shown(source)
        print_line(json_text(data))
    else:
        rows = [row for row in clip_figures(result) if row.key != "clip.stopped"]
        width = max(len(row.label) for row in rows)
        print_line("\n".join(f"{row.label:<{width}}  {row.text}" for row in rows))
    return 0


def _check_outputs(folder: Path, source: Path, extension: str, info, span: int, engines) -> None:
    """Refuse, before any work, outputs that could not be written: the clip itself, a codec
    this FFmpeg lacks, a GIF too long for memory (OutputError)."""
    import dataclasses

    if not folder_exists(folder):
        return
    info = dataclasses.replace(info, frame_count=span, frame_count_estimated=False)
    for engine in engines:
        check_clip_output_path(engine_output(folder, engine, extension), info, source=source)


def _write_outputs(folder: Path, extension: str, clip, result, device: str) -> None:
    """Each engine's frames of the span compared, blurred again with the batch size it was
    timed with and written as they come (a few batches in memory, whatever the span): the
    comparison keeps none of them, and writing while it times would count the encoding in
    its figures. An engine that failed is not written (its reason is in the figures)."""
    make_folder(folder)
    for name in result.runs:
        engine = result.engine(name)
        blur_clip_to_file(
            clip,
            engine_output(folder, engine, extension),
            result.spec,
            engine,
            device=device,
            batch_size=result.batch_size(name),
            start=result.start,
            frames=result.frames,
        )


def _stages(name: str) -> dict[str, tuple[str, str]]:
    """What each stage of compare_engines_on_clip is doing, for its progress, and what it counts."""
    return {
        "batch size": (f"choosing each engine's batch size for {name}", "engine"),
        "frames": (f"blurring the frames of {name} with each engine", "frame"),
        "timing": (f"timing each engine on the frames of {name}", "call"),
    }
