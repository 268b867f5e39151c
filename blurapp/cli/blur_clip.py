"""`blurapp blur CLIP -o OUT`: every frame of a clip blurred with one engine and written, as the
frames are decoded, with a progress bar in frames per second."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from blurapp.cli.output import CommandFailed, grey_note, log, print_line, shown
from blurapp.cli.progress import progress_bar
from blurapp.core.blurring.blur_clip_file import (
    blur_clip_to_file,
    blurs_as_levels,
    choose_clip_batch_size,
)
from blurapp.core.blurring.blur_file import BlurFailed
from blurapp.core.media.clip_files import clip_has_colour, open_clip_file
from blurapp.core.media.clip_saving import check_clip_output_path
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.media.saving import OutputError
from blurapp.core.wording import frames_words


def blur_clip_command(args: argparse.Namespace, source: Path) -> int:
    try:
        with open_clip_file(source, color=args.color) as clip:
            info = clip.info
            # Before the work, not after it.
            check_clip_output_path(args.output, info, source=source, codec=args.codec)
            if getattr(clip, "audio_streams", 0):
                print(
                    f"note: {shown(source.name)} has sound; BlurApp writes the frames only, "
                    "without it",
                    file=sys.stderr,
                )
            start = time.perf_counter()
            batch = choose_clip_batch_size(
                clip,
                args.spec,
                args.engine,
                device=args.device,
                as_levels=blurs_as_levels(clip, args.output, codec=args.codec),
            )
            with progress_bar(info.frame_count, "frame", f"blurring {shown(source.name)}") as bar:
                frames = blur_clip_to_file(
                    clip,
                    args.output,
                    args.spec,
                    args.engine,
                    device=args.device,
                    codec=args.codec,
                    progress=lambda done, total: bar.update(1),
                    batch_size=batch.size,
                )
            seconds = time.perf_counter() - start
    except (PhotoError, OutputError, BlurFailed) as error:
        raise CommandFailed(str(error)) from error
    except MemoryError:
        raise CommandFailed(f"{shown(source)}: not enough memory for its frames") from None
    except Exception as error:
        log.debug("blurring the clip %s failed", source, exc_info=True)
        raise CommandFailed(f"{shown(source)}: {type(error).__name__}: {error}") from None
    rate = frames / seconds if seconds > 0 else float("inf")
    a_call = frames_words(batch.size)
    chosen = f", the fastest of {_sizes(batch)} measured" if batch.measured else ""
    grey = grey_note(args.color, lambda: clip_has_colour(source))
    written = shown(args.output) + (f" {grey}" if grey else "")
    print_line(
        f"wrote {written}: {frames_words(frames)} of {info.width} × {info.height} in "
        f"{seconds:.1f} s ({rate:,.1f} frames/s, reading, blurring and writing; "
        f"{args.engine.title} blurred {a_call} a call{chosen})"
    )
    return 0


def _sizes(batch: Any) -> str:
    """'1, 2, 4 and 8' of the batch sizes measured."""
    sizes = [str(size) for size in sorted(batch.seconds_per_frame)]
    return f"{', '.join(sizes[:-1])} and {sizes[-1]}" if len(sizes) > 1 else sizes[0]
