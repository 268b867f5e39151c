"""`blurapp blur`: one photo blurred with one engine and saved; an image too large for memory
blurred by blocks on Dask."""

from __future__ import annotations

import argparse
from pathlib import Path

from blurapp.cli.blur_clip import blur_clip_command
from blurapp.cli.options import (
    COLOR_HELP,
    add_color_option,
    add_common_options,
    add_engine_options,
    add_image_argument,
    add_kernel_options,
    add_scheduler_option,
)
from blurapp.cli.output import (
    CommandFailed,
    grey_note,
    load,
    log,
    note_short_kernel,
    print_line,
    shown,
    source_photo,
)
from blurapp.cli.progress import progress_bar, show_progress, staged_progress
from blurapp.core.blurring.blur_file import BLURRING, WRITING, BlurFailed, blur_to_file
from blurapp.core.engines.jax_runtime import JaxUnavailableError
from blurapp.core.media.clip_files import is_clip
from blurapp.core.media.photo import has_colour
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.media.saving import OutputError, check_output_path
from blurapp.scale.scheduler import ClusterError, MissingExtraError, require_extra
from blurapp.scale.tiled import blur_file_tiled
from blurapp.scale.tiled_read import needs_tiles


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    blur = commands.add_parser("blur", help="blur a photo with one engine and save the result")
    blur.set_defaults(command_parser=blur)
    add_common_options(blur, top=False)
    add_image_argument(blur)
    blur.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="OUT",
        help=".npy for the float32 array, or an image file (.png, .tif, .jpg, …); a TIFF or "
        "zarr image too large for memory is blurred by blocks into .tif (a tiled BigTIFF) or "
        ".npy; a clip (a video, an animation, a TIFF stack) into a video (.mp4, .mkv, .webm, "
        ".mov, .avi), a TIFF stack (.tif) or an animation (.gif, .webp)",
    )
    add_engine_options(blur, several=False)
    add_kernel_options(blur)
    add_color_option(blur, COLOR_HELP)
    add_scheduler_option(blur)
    blur.add_argument(
        "--tiles",
        action="store_true",
        help="blur a TIFF or zarr image by blocks even when it would fit in memory (always "
        "so for one too large for it, or with --scheduler)",
    )
    blur.add_argument(
        "--codec",
        metavar="NAME",
        help="the FFmpeg encoder a clip written as video is encoded with (libx264, mpeg4, "
        "libvpx-vp9, ffv1, …; default: H.264 for .mp4 and .mov, VP9 for .webm, lossless FFV1 "
        "for .mkv and .avi)",
    )
    return blur


def run(args: argparse.Namespace) -> int:
    source = source_photo(args.image)
    if is_clip(source):
        if args.tiles or args.scheduler is not None:
            raise CommandFailed(
                f"{shown(source)}: a clip is blurred a frame at a time; --tiles and "
                "--scheduler are for photos too large for memory"
            )
        note_short_kernel(args)
        return blur_clip_command(args, source)
    if args.codec is not None:
        raise CommandFailed(f"{shown(source)}: --codec is for clips; this is a photo")
    try:
        check_output_path(args.output, source=source)  # before the work, not after it
    except OutputError as error:
        raise CommandFailed(str(error)) from error

    if args.tiles or args.scheduler is not None or needs_tiles(source, color=args.color):
        note_short_kernel(args)
        return blur_in_tiles(args, source)
    name = shown(source.name)
    stages = {
        "reading": (f"reading {name}", "photo"),
        BLURRING: (f"blurring {name} with {args.engine.title}", "step"),
        WRITING: (f"writing {shown(Path(args.output).name)}", "file"),
    }
    with staged_progress(stages) as progress:
        progress("reading", 0, 1)
        photo = load(source, color=args.color)
        note_short_kernel(args)
        try:
            blur_to_file(
                photo, args.output, args.spec, args.engine, device=args.device, progress=progress
            )
        except (BlurFailed, OutputError) as error:
            raise CommandFailed(str(error)) from error

    grey = grey_note(args.color, lambda: has_colour(source))
    print_line(f"wrote {shown(args.output)}" + (f" {grey}" if grey else ""))
    return 0


def blur_in_tiles(args: argparse.Namespace, source: Path) -> int:
    """`blurapp blur BIG.tif -o OUT.tif`: the image read, blurred and written by blocks."""
    kernel = args.spec.kernel
    description = args.spec.description(args.engine.name)
    try:
        require_extra("blurring an image in tiles", args.scheduler)
        with progress_bar(0, "block", f"blurring {shown(source.name)}") as bar:
            result = blur_file_tiled(
                source,
                args.output,
                kernel=kernel,
                engine=args.engine.name,
                device=args.device,
                color=args.color,
                scheduler=args.scheduler,
                progress=lambda *done: show_progress(bar, *done),
                description=description,
            )
    except (PhotoError, OutputError, MissingExtraError, ClusterError) as error:
        raise CommandFailed(str(error)) from error
    except JaxUnavailableError as error:
        raise CommandFailed(str(error)) from error
    except MemoryError:
        raise CommandFailed(f"{shown(source)}: not enough memory for its blocks") from None
    except Exception as error:
        # In one line naming the image, as `batch` and the window say it.
        log.debug("blurring %s by blocks failed", source, exc_info=True)
        raise CommandFailed(f"{shown(source)}: {type(error).__name__}: {error}") from None
    megapixels = result.width * result.height / 1e6
    print_line(
        f"wrote {shown(args.output)}: {result.width} × {result.height} ({megapixels:,.0f} MP) "
        f"in {result.blocks} blocks, {result.seconds:.1f} s"
    )
    return 0
