"""The command line's work beyond one photo in memory: `blurapp batch` over folders of photos,
and `blurapp blur` of an image too large for memory, block by block. Both run on Dask: this
machine's cores, or a cluster named with --scheduler.

The work itself is in the core (blurapp.core.batch, blurapp.core.tiled); this module turns
options into calls, shows tqdm's progress bar on a terminal and words the outcome.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from blurapp.cli import _CommandFailed, _print, _shown, log


@contextmanager
def _progress_bar(total: int, unit: str, description: str) -> Iterator[Any]:
    """tqdm's bar on stderr when it is a terminal (disable=None), nothing otherwise."""
    try:
        from tqdm import tqdm
    except ImportError:
        from blurapp.core.tiled import SCALE_EXTRA

        raise _CommandFailed(
            f"the progress bar needs tqdm, which is not installed: {SCALE_EXTRA}"
        ) from None
    with tqdm(total=total, unit=unit, desc=description, disable=None, dynamic_ncols=True) as bar:
        yield bar


def blur_in_tiles(args: argparse.Namespace, source: Path) -> int:
    """`blurapp blur BIG.tif -o OUT.tif`: the image read, blurred and written by blocks."""
    from blurapp.core.jax_engine import JaxUnavailableError
    from blurapp.core.kernel import kernel_for
    from blurapp.core.photo import PhotoError
    from blurapp.core.saving import OutputError, output_description
    from blurapp.core.tiled import ClusterError, MissingExtraError, blur_file_tiled

    kernel = kernel_for(args.algorithm, args.kernel_size, args.sigma)
    description = output_description(args.engine.name, kernel.shape[0], args.sigma, args.algorithm)
    engine = args.engine.name
    if args.engine.uses_jax and args.engine.platform is None and args.device != "auto":
        engine += f"@{args.device}"  # every block on the device asked for, as `blur` does
    bar = None

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    try:
        with _progress_bar(0, "block", _shown(source.name)) as bar:
            result = blur_file_tiled(
                source,
                args.output,
                kernel=kernel,
                engine=engine,
                color=args.color,
                scheduler=args.scheduler,
                progress=progress,
                description=description,
            )
    except (PhotoError, OutputError, MissingExtraError, ClusterError) as error:
        raise _CommandFailed(str(error)) from error
    except _CommandFailed:
        raise  # worded for the user already (tqdm missing)
    except JaxUnavailableError as error:
        raise _CommandFailed(str(error)) from error
    except MemoryError:
        raise _CommandFailed(f"{_shown(source)}: not enough memory for its blocks") from None
    except Exception as error:
        # In one line naming the image, as `batch` and the window say it.
        log.debug("blurring %s by blocks failed", source, exc_info=True)
        raise _CommandFailed(f"{_shown(source)}: {type(error).__name__}: {error}") from None
    megapixels = result.width * result.height / 1e6
    _print(
        f"wrote {_shown(args.output)}: {result.width} × {result.height} ({megapixels:,.0f} MP) "
        f"in {result.blocks} blocks, {result.seconds:.1f} s"
    )
    return 0


def batch(args: argparse.Namespace) -> int:
    """`blurapp batch INPUT... --out-dir DIR`: every photo blurred as `blurapp blur` would,
    the bad ones listed at the end; a second run does only what is left."""
    from blurapp.core.batch import BatchError, plan_batch, run_batch
    from blurapp.core.tiled import ClusterError, MissingExtraError

    try:
        plan = plan_batch(
            args.inputs, args.out_dir, output_format=args.format, overwrite=args.overwrite
        )
        if not (plan.jobs or plan.skipped or plan.failed):
            given = ", ".join(_shown(path) for path in args.inputs)
            raise _CommandFailed(f"{given}: no photos found (the types Pillow reads, or zarr)")
        with _progress_bar(len(plan.jobs), "photo", "blurring") as bar:

            def progress(finished: int, total: int, megapixels: float) -> None:
                bar.update(finished - bar.n)
                seconds = bar.format_dict["elapsed"] or 1e-9
                bar.set_postfix_str(f"{megapixels / seconds:,.1f} MP/s", refresh=False)

            summary = run_batch(
                plan,
                engine=args.engine,
                algorithm=args.algorithm,
                kernel_size=args.kernel_size,
                sigma=args.sigma,
                device=args.device,
                color=args.color,
                scheduler=args.scheduler,
                workers=args.workers,
                progress=progress,
            )
    except (BatchError, MissingExtraError, ClusterError) as error:
        raise _CommandFailed(str(error)) from error
    if args.json:
        _print(json.dumps({"out_dir": _shown(plan.out_dir), **summary.to_json()}, indent=2))
    else:
        lines = [
            f"{summary.done} blurred into {_shown(plan.out_dir)}, {summary.skipped} already "
            f"done, {len(summary.failed)} failed; {summary.seconds:.1f} s, "
            f"{summary.photos_per_second:.2f} photos/s, {summary.megapixels_per_second:.1f} MP/s"
        ]
        if summary.failed:
            lines.append("failed:")
            lines += [f"  {failure.reason}" for failure in summary.failed]
        _print("\n".join(lines))
    return 1 if summary.failed else 0


def add_scheduler_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786); its "
        "workers need BlurApp installed and the files at the same paths (default: this "
        "machine's cores)",
    )
