"""`blurapp compare CLIP`: a span of a clip's frames through the chosen engines, in frames per
second and milliseconds a frame (the blur alone and end to end), or one JSON object."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from blurapp.cli.output import CommandFailed, json_text, log, print_line, shown
from blurapp.cli.progress import staged_progress


def add_clip_options(compare: argparse.ArgumentParser) -> None:
    from blurapp.cli.options import positive_int_argument
    from blurapp.core.clip_comparison import DEFAULT_CLIP_FRAMES

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
    `args.engines` and print the figures (or `--json`). A clip cut short is timed over the
    frames that decoded, with a warning line saying where it stopped."""
    from blurapp.core.clip_comparison import (
        DEFAULT_CLIP_FRAMES,
        clip_comparison_dict,
        compare_clip,
    )
    from blurapp.core.clip_figures import clip_figures
    from blurapp.core.clip_files import open_clip
    from blurapp.core.engines.jax_engine import JaxUnavailableError
    from blurapp.core.photo_checks import PhotoError

    if args.out_dir is not None:
        raise CommandFailed(
            f"{shown(source)}: --out-dir writes a photo's outputs; for a clip, write each "
            "engine's frames with `blurapp blur CLIP -o OUT --engine E`"
        )
    frames = DEFAULT_CLIP_FRAMES if args.frames is None else args.frames
    start = 0 if args.start is None else args.start
    try:
        with open_clip(source, color=args.color) as clip:
            count = clip.info.known_frame_count
            if count is not None and start >= count:
                raise CommandFailed(
                    f"{shown(source)}: --start {start} is past the clip's last frame ({count - 1})"
                )
            with staged_progress(_stages(shown(source.name))) as progress:
                result = compare_clip(
                    clip,
                    args.spec,
                    engines=args.engines,
                    frames=frames,
                    start=start,
                    device=args.device,
                    repeats=args.repeat,
                    progress=progress,
                )
    except CommandFailed:
        raise
    except (PhotoError, JaxUnavailableError) as error:
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


def _stages(name: str) -> dict[str, tuple[str, str]]:
    """What each stage of compare_clip is doing, for its progress, and what it counts."""
    return {
        "batch size": (f"choosing each engine's batch size for {name}", "engine"),
        "frames": (f"blurring the frames of {name} with each engine", "frame"),
        "timing": (f"timing each engine on the frames of {name}", "call"),
    }
