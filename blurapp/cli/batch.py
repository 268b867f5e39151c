"""`blurapp batch`: photos, clips and folders of them blurred into a folder, on this machine's
cores or a Dask cluster, with tqdm's bars on a terminal (files, and a clip's frames)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from blurapp.cli.options import (
    COLOR_HELP,
    add_color_option,
    add_common_options,
    add_engine_options,
    add_kernel_options,
    add_scheduler_option,
    workers_argument,
)
from blurapp.cli.output import (
    CommandFailed,
    json_text,
    print_line,
    shown,
)
from blurapp.cli.progress import progress_bar, show_progress
from blurapp.core.wording import frames_words
from blurapp.scale.batch_plan import BATCH_FORMATS, DEFAULT_BATCH_FORMAT, BatchError, plan_batch
from blurapp.scale.batch_run import MAX_WORKERS_PER_CORE, run_batch
from blurapp.scale.scheduler import ClusterError, MissingExtraError, require_extra


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    batch = commands.add_parser(
        "batch",
        help="blur photos, clips and folders of them into a folder, on this machine's cores or "
        "a Dask cluster",
    )
    batch.set_defaults(command_parser=batch)
    add_common_options(batch, top=False)
    batch.add_argument(
        "inputs",
        nargs="+",
        type=Path,
        metavar="INPUT",
        help="photos, clips, and folders walked for every photo Pillow reads and every clip "
        "(videos, animated GIF/WebP/PNG, TIFF stacks)",
    )
    batch.add_argument(
        "--out-dir",
        type=Path,
        required=True,
        metavar="DIR",
        help="where the blurred photos and clips go, at the inputs' relative paths (never over "
        "an input)",
    )
    batch.add_argument(
        "--format",
        choices=BATCH_FORMATS,
        default=DEFAULT_BATCH_FORMAT,
        help="what to write for photos: an image, or .npy float32 (default "
        f"{DEFAULT_BATCH_FORMAT}); a clip keeps its own format, else becomes lossless .mkv",
    )
    batch.add_argument(
        "--overwrite",
        action="store_true",
        help="blur again the photos whose outputs exist (default: a second run does only "
        "what is left)",
    )
    batch.add_argument(
        "--workers",
        type=workers_argument,
        metavar="N",
        help="photos blurred at once on this machine (default: one per core; at most "
        f"{MAX_WORKERS_PER_CORE} per core)",
    )
    batch.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_engine_options(batch, several=False)
    add_kernel_options(batch)
    add_color_option(batch, COLOR_HELP)
    add_scheduler_option(batch)
    return batch


def run(args: argparse.Namespace) -> int:
    """`blurapp batch INPUT... --out-dir DIR`: every photo blurred as `blurapp blur` would,
    the bad ones listed at the end; a second run does only what is left."""
    try:
        require_extra("blurring a batch", args.scheduler)
        plan = plan_batch(
            args.inputs, args.out_dir, output_format=args.format, overwrite=args.overwrite
        )
        if not (plan.jobs or plan.skipped or plan.failed):
            given = ", ".join(shown(path) for path in args.inputs)
            raise CommandFailed(
                f"{given}: no photos or clips found (the types Pillow reads, zarr, videos)"
            )
        any_clip = any(job.clip for job in plan.jobs)
        unit = "file" if any_clip else "photo"
        with progress_bar(len(plan.jobs), unit, "blurring") as bar:
            frames = _FrameBar() if any_clip else None
            try:
                summary = run_batch(
                    plan,
                    args.spec,
                    engine=args.engine,
                    device=args.device,
                    scheduler=args.scheduler,
                    workers=args.workers,
                    progress=lambda *finished: show_progress(bar, *finished),
                    frame_progress=frames,
                )
            finally:
                if frames is not None:
                    frames.close()
    except (BatchError, MissingExtraError, ClusterError) as error:
        raise CommandFailed(str(error)) from error
    if args.json:
        print_line(json_text({"out_dir": shown(plan.out_dir), **summary.to_json()}))
    else:
        # A batch of clips alone says its frames/s below, not 0 photos/s.
        only_clips = summary.clips and summary.done == summary.clips
        photos = "" if only_clips else f"{summary.photos_per_second:.2f} photos/s, "
        lines = [
            f"{summary.done} blurred into {shown(plan.out_dir)}, {summary.skipped} already "
            f"done, {len(summary.failed)} failed; {summary.seconds:.1f} s, "
            f"{photos}{summary.megapixels_per_second:.1f} MP/s"
        ]
        if named := plan.named_apart:
            more = ", …" if len(named) > 1 else ""
            lines.append(
                f"{len(named)} named apart by their extensions, as photos of one name would "
                f"share an output ({shown(named[0].source.name)} → {shown(named[0].output.name)}"
                f"{more})"
            )
        if summary.clips:
            lines.append(
                f"of them {summary.clips} clip{'s' if summary.clips != 1 else ''}, "
                f"{frames_words(summary.frames)} "
                f"({summary.frames_per_second:.1f} frames/s over the whole batch)"
            )
        if summary.failed:
            lines.append("failed:")
            lines += [f"  {failure.reason}" for failure in summary.failed]
        print_line("\n".join(lines))
    return 1 if summary.failed else 0


class _FrameBar:
    """A second bar under the files' bar (progress_bar: tqdm's on a terminal): the frames of the
    clip being blurred, with their rate; made again for each clip."""

    def __init__(self) -> None:
        self._bar: Any = None
        self._source: Path | None = None

    def __call__(self, job: Any, done: int, total: int | None) -> None:
        if job.source != self._source:
            self.close()
            self._source = job.source
            self._bar = progress_bar(
                total, "frame", f"blurring {shown(job.source.name)}", position=1, leave=False
            )
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
