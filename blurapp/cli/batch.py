"""`blurapp batch`: photos and folders of photos blurred into a folder, on this machine's cores or
a Dask cluster, with tqdm's bar on a terminal."""

from __future__ import annotations

import argparse
from pathlib import Path

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
    progress_bar,
    show_progress,
    shown,
)


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from blurapp.scale.batch import MAX_WORKERS_PER_CORE
    from blurapp.scale.batch_plan import BATCH_FORMATS, DEFAULT_BATCH_FORMAT

    batch = commands.add_parser(
        "batch",
        help="blur photos and folders of photos into a folder, on this machine's cores or a "
        "Dask cluster",
    )
    batch.set_defaults(command_parser=batch)
    add_common_options(batch, top=False)
    batch.add_argument(
        "inputs",
        nargs="+",
        type=Path,
        metavar="INPUT",
        help="photos, and folders walked for every photo Pillow reads",
    )
    batch.add_argument(
        "--out-dir",
        type=Path,
        required=True,
        metavar="DIR",
        help="where the blurred photos go, at the inputs' relative paths (never over an input)",
    )
    batch.add_argument(
        "--format",
        choices=BATCH_FORMATS,
        default=DEFAULT_BATCH_FORMAT,
        help=f"what to write: an image, or .npy float32 (default {DEFAULT_BATCH_FORMAT})",
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
    from blurapp.scale.batch import run_batch
    from blurapp.scale.batch_plan import BatchError, plan_batch
    from blurapp.scale.scheduler import ClusterError, MissingExtraError

    try:
        plan = plan_batch(
            args.inputs, args.out_dir, output_format=args.format, overwrite=args.overwrite
        )
        if not (plan.jobs or plan.skipped or plan.failed):
            given = ", ".join(shown(path) for path in args.inputs)
            raise CommandFailed(f"{given}: no photos found (the types Pillow reads, or zarr)")
        with progress_bar(len(plan.jobs), "photo", "blurring") as bar:
            summary = run_batch(
                plan,
                args.spec,
                engine=args.engine,
                device=args.device,
                scheduler=args.scheduler,
                workers=args.workers,
                progress=lambda *finished: show_progress(bar, *finished),
            )
    except (BatchError, MissingExtraError, ClusterError) as error:
        raise CommandFailed(str(error)) from error
    if args.json:
        print_line(json_text({"out_dir": shown(plan.out_dir), **summary.to_json()}))
    else:
        lines = [
            f"{summary.done} blurred into {shown(plan.out_dir)}, {summary.skipped} already "
            f"done, {len(summary.failed)} failed; {summary.seconds:.1f} s, "
            f"{summary.photos_per_second:.2f} photos/s, {summary.megapixels_per_second:.1f} MP/s"
        ]
        if summary.failed:
            lines.append("failed:")
            lines += [f"  {failure.reason}" for failure in summary.failed]
        print_line("\n".join(lines))
    return 1 if summary.failed else 0
