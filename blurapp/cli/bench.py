"""`blurapp bench`: the engines timed on synthetic images, the sections beyond them, the sweep."""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys
from pathlib import Path
from typing import Any

from blurapp.bench import (
    describe_jax_device,
    describe_machine,
    launching_first,
    run_bench,
    run_sections,
)
from blurapp.bench import record as bench_record
from blurapp.bench import report as bench_report
from blurapp.bench.clips import (
    CLIP_FILE_ENGINES,
    DEFAULT_CLIP_FRAMES,
    DEFAULT_PLAYING_RATE,
    DEFAULT_PLAYING_SECONDS,
)
from blurapp.bench.video import DEFAULT_RESOLUTIONS, DEFAULT_VIDEO_FRAMES, parse_resolution
from blurapp.cli.options import (
    add_color_option,
    add_common_options,
    add_repeat_option,
    bench_megapixels_argument,
    engines_argument,
    kernel_size_argument,
    megapixels_argument,
    too_large_for_memory,
)
from blurapp.cli.output import (
    CommandFailed,
    json_text,
    load,
    print_line,
    shown,
    source_photo,
)
from blurapp.cli.progress import progress_bar
from blurapp.core.engines import DEFAULT_ENGINES, REFERENCE_ENGINE, engine_names
from blurapp.core.kernel import ALGORITHMS, DEFAULT_SIGMA, effective_kernel_size
from blurapp.core.measuring.sweep import (
    SweepPoint,
    accelerator_break_even,
    run_sweep,
    sweep_break_even,
    sweep_sizes,
    write_sweep_csv,
)
from blurapp.core.media.saving import OutputError, check_output_path, write_atomically
from blurapp.core.spec import describe_kernel

BENCH_MEGAPIXELS = (0.3, 2.0, 12.0, 24.0)
BENCH_KERNEL_SIZES = (9, 25)
BENCH_SECTIONS = ("engines", "yardsticks", "first-call", "startup", "window", "live", "memory")
# The yardsticks' interleaved rounds of timed calls, and the start-up's launches of each
# program, unless --repeat says otherwise.
YARDSTICK_ROUNDS = 5
# Minutes (and for scale, 2 GB of disk): only when asked for (`--sections scale video`).
EXTRA_BENCH_SECTIONS = ("scale", "video", "playing", "clip-file")


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    bench = commands.add_parser("bench", help="time NumPy against JAX on synthetic images")
    add_common_options(bench, top=False)
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    add_color_option(
        bench,
        "time the engines table on colour images (height × width × 3), and play the playing "
        "section's clip in colour",
    )

    bench.add_argument(
        "--engines",
        type=engines_argument,
        metavar="E,E,…",
        help=f"engines of the table (default: every engine, {','.join(engine_names())}; "
        f"{REFERENCE_ENGINE} must be one), and when given, of the video section (default "
        f"{','.join(DEFAULT_ENGINES)}) and the clip-file section (default "
        f"{','.join(CLIP_FILE_ENGINES)})",
    )
    bench.add_argument(
        "--megapixels",
        type=bench_megapixels_argument,
        nargs="+",
        default=list(BENCH_MEGAPIXELS),
        metavar="MP",
        help="image sizes (default: %(default)s)",
    )
    bench.add_argument(
        "--kernel-sizes",
        type=kernel_size_argument,
        nargs="+",
        default=list(BENCH_KERNEL_SIZES),
        metavar="K",
        help="kernel sizes (default: %(default)s)",
    )
    bench.add_argument(
        "--algorithms",
        choices=ALGORITHMS,
        nargs="+",
        default=list(ALGORITHMS),
        help="algorithms to time (default: both)",
    )
    add_repeat_option(
        bench,
        also=f"; the yardsticks: N interleaved rounds, the start-up: N launches of each "
        f"program (default {YARDSTICK_ROUNDS})",
    )
    bench.add_argument(
        "--sections",
        nargs="+",
        choices=BENCH_SECTIONS + EXTRA_BENCH_SECTIONS,
        default=list(BENCH_SECTIONS),
        help="what to measure (default: all but scale, video, playing and clip-file, which take "
        "minutes; scale also 2 GB of disk)",
    )

    bench.add_argument(
        "--video-resolutions",
        type=_resolution_argument,
        nargs="+",
        default=list(DEFAULT_RESOLUTIONS),
        metavar="R",
        help="the video section's frame sizes: 720p, 1080p, 4k or WIDTHxHEIGHT "
        "(default: %(default)s)",
    )
    bench.add_argument(
        "--video-frames",
        type=_frames_argument,
        default=DEFAULT_VIDEO_FRAMES,
        metavar="N",
        help="frames of each span the video section times (default: %(default)s)",
    )

    bench.add_argument(
        "--clip-frames",
        type=_frames_argument,
        nargs="+",
        default=list(DEFAULT_CLIP_FRAMES),
        metavar="N",
        help="frames of each clip the clip-file section blurs to a file (default: %(default)s)",
    )
    bench.add_argument(
        "--playing-seconds",
        type=_seconds_argument,
        default=DEFAULT_PLAYING_SECONDS,
        metavar="S",
        help="how long the playing section times each clip, from when both panes have shown a "
        "frame (default: %(default)s)",
    )
    bench.add_argument(
        "--playing-rate",
        type=_rate_argument,
        default=DEFAULT_PLAYING_RATE,
        metavar="FPS",
        help="frames a second of the clip the playing section makes and plays "
        "(default: %(default)g)",
    )
    bench.add_argument(
        "--probe-megapixels",
        type=bench_megapixels_argument,
        default=24.0,
        metavar="MP",
        help="image size for the yardsticks, first-call, window and memory sections (24)",
    )
    bench.add_argument(
        "--big-megapixels",
        type=bench_megapixels_argument,
        default=100.0,
        metavar="MP",
        help="the very large image of the memory section (100)",
    )
    bench.add_argument(
        "--sweep",
        action="store_true",
        help="instead: a scaling sweep, the engines on a photo resampled from 0.1 MP up to "
        "--max-megapixels (with the first of --kernel-sizes and --algorithms)",
    )
    bench.add_argument(
        "--photo", type=Path, metavar="PATH", help="the sweep's photo (default: the bundled one)"
    )
    bench.add_argument(
        "--max-megapixels",
        type=megapixels_argument,
        default=24.0,
        metavar="MP",
        help="the sweep's largest size (24)",
    )
    bench.add_argument(
        "--csv", type=Path, metavar="OUT.csv", help="also write the sweep's figures as CSV"
    )
    bench.add_argument(
        "--record",
        type=Path,
        metavar="OUT.json",
        help="also write the figures as a record for the performance page: the command, the "
        "machine, the versions, the date and a typed row per figure (strict JSON)",
    )
    bench.add_argument(
        "--note",
        metavar="TEXT",
        help="a sentence kept in the record on how the machine was used meanwhile",
    )
    return bench


def _resolution_argument(text: str) -> str:
    try:
        return parse_resolution(text)[0]
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _frames_argument(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of frames (1 or more)")
    return value


def _seconds_argument(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds (0 to 3600)")
    return value


# The playing section's clip rates: up to a fast monitor's refresh rate.
MAX_PLAYING_RATE = 240.0


def _rate_argument(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= MAX_PLAYING_RATE:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of frames a second (more than 0, up to {MAX_PLAYING_RATE:g})"
        )
    return value


def run(args: argparse.Namespace) -> int:
    import atexit
    import shutil
    import tempfile

    if args.color:  # the engines table's images are then three channels deep
        for megapixels in args.megapixels:
            if (problem := too_large_for_memory(megapixels, channels=3)) is not None:
                print(f"blurapp bench: error: argument --megapixels: {problem}", file=sys.stderr)
                return 2
    # The video and clip-file sections take the engines only where they are named: by default
    # the table times every engine, those sections their own few (a clip's frames through an
    # interpreted kernel would take minutes).
    args.clip_engines = None if args.engines is None else [e.name for e in args.engines]
    if args.engines is None:
        args.engines = engines_argument(",".join(engine_names()))
    _check_sweep_csv(args)
    _check_output(args.record)
    _check_note(args.note)
    # "JAX 1st" must mean a real compilation: an empty cache of the bench's own, every time
    # (the processes it launches inherit it); the caller's is put back after. JAX takes its
    # cache's folder once a process: set up during the bench, it keeps this one, so the folder
    # lasts as long as the process (a notebook's later blurs write their programs to it).
    cache = tempfile.mkdtemp(prefix="blurapp-bench-cache-")
    atexit.register(shutil.rmtree, cache, ignore_errors=True)
    previous = os.environ.get("BLURAPP_CACHE_DIR")
    os.environ["BLURAPP_CACHE_DIR"] = cache
    try:
        return _run_bench(args)
    finally:
        if previous is None:
            os.environ.pop("BLURAPP_CACHE_DIR", None)
        else:
            os.environ["BLURAPP_CACHE_DIR"] = previous


def _run_bench(args: argparse.Namespace) -> int:
    def show(lines: list[str]) -> None:
        if not args.json:
            print_line("\n".join(lines))

    from datetime import UTC, datetime

    # The record's date: when the measuring began.
    date = datetime.now(UTC).isoformat(timespec="seconds")
    machine = describe_machine(device=False)
    report: dict = {"machine": machine}
    show([bench_report.machine_line(machine)])

    def use_the_device() -> None:
        machine.update(describe_jax_device())
        show([bench_report.device_line(machine)])

    if args.sweep:
        use_the_device()
        report["sweep"] = _run_sweep(args, show)
        if args.json:
            print_line(json_text(report))
        if args.record is not None:
            _write_record(args, report, date)
        return 0
    # The sections that launch BlurApp first, while this process has not yet opened JAX's
    # device: where one process at a time may hold it (a TPU), their launches found it held.
    launching, in_process = launching_first(args.sections)
    in_order = [*launching, *in_process]

    def say_section(name: str) -> None:
        # On stderr, terminal or not: sections can be minutes apart.
        number = in_order.index(name) + 1
        print(f"bench: {name} (section {number} of {len(in_order)})", file=sys.stderr, flush=True)

    def sections(names: list[str]) -> dict:
        return run_sections(
            names,
            probe_megapixels=args.probe_megapixels,
            big_megapixels=args.big_megapixels,
            rounds=args.repeat or YARDSTICK_ROUNDS,
            on_section=lambda name, figures: show(bench_report.section_lines(name, figures)),
            on_section_start=say_section,
            video_options={
                "resolutions": args.video_resolutions,
                "frames": args.video_frames,
                "clip_frames": args.clip_frames,
                "playing_seconds": args.playing_seconds,
                "playing_rate": args.playing_rate,
                "playing_colour": args.color,
                **({} if args.clip_engines is None else {"engines": args.clip_engines}),
            },
        )

    if launching:
        report.update(sections(launching))
    use_the_device()
    if "engines" in in_process:
        say_section("engines")
        show(bench_report.column_lines(args.engines))
        # The rows say how far the table is where they are seen as they come; elsewhere (JSON,
        # stdout in a file) a bar on stderr does. (A bar among rows on one terminal garbles both.)
        rows_seen = not args.json and _on_a_terminal(sys.stdout)
        rows_bar = (
            contextlib.nullcontext(None)
            if rows_seen
            else progress_bar(None, "row", "bench: the engines table", leave=False)
        )
        with rows_bar as bar:
            report["results"] = run_bench(
                megapixels=args.megapixels,
                kernel_sizes=args.kernel_sizes,
                algorithms=args.algorithms,
                repeats=args.repeat,
                sigma=DEFAULT_SIGMA,
                engines=[engine.name for engine in args.engines],
                on_row=lambda row: show([bench_report.row_line(row, args.engines)]),
                channels=3 if args.color else 1,
                progress=None if bar is None else functools.partial(_show_rows, bar),
            )["results"]
    others = [name for name in in_process if name != "engines"]
    if others:
        report.update(sections(others))
    if args.json:
        print_line(json_text(report))
    if args.record is not None:
        _write_record(args, report, date)
    return 0


def _on_a_terminal(stream: Any) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no stream, or a closed one
        return False


def _show_rows(bar: Any, done: int, total: int) -> None:
    bar.total = total
    bar.update(done - bar.n)


def _check_sweep_csv(args: argparse.Namespace) -> None:
    """`bench --sweep --csv`: a CSV that could not be written fails now, before any size is
    measured, not after the first."""
    if args.sweep:
        _check_output(args.csv, source=source_photo(args.photo))


def _check_output(path: Path | None, source: Path | None = None) -> None:
    if path is not None:
        try:
            check_output_path(path, source=source, image=False)
        except OutputError as error:
            raise CommandFailed(str(error)) from error


def _check_note(note: str | None) -> None:
    """A note that is not UTF-8 text (typed in a terminal of another encoding) fails now,
    not after the measuring: a record is UTF-8 JSON, and the note is the user's words, which
    BlurApp will not guess at."""
    if note is None:
        return
    try:
        note.encode("utf-8")
    except UnicodeEncodeError:
        raise CommandFailed(
            "--note: the note is not UTF-8 text (a record is UTF-8 JSON); type it again in a "
            "UTF-8 terminal"
        ) from None


def _write_record(args: argparse.Namespace, report: dict, date: str) -> None:
    """`bench --record`: the report as a record document, written whole or not at all."""
    import shlex

    command = shlex.join(["blurapp", *getattr(args, "argv", ["bench"])])
    record = bench_record.bench_record(report, args.engines, command, date, args.note)
    text = bench_record.record_json(bench_record.record_document([record]))
    try:
        write_atomically(args.record, lambda file: file.write(text.encode("utf-8")))
    except OutputError as error:
        raise CommandFailed(str(error)) from error
    if not args.json:
        print_line(f"wrote {shown(args.record)}")


def _run_sweep(args: argparse.Namespace, show) -> dict:
    """`bench --sweep`: a line per size as it finishes; the CSV rewritten after each size, so
    a sweep stopped part way keeps what it measured."""
    photo = load(source_photo(args.photo))
    kernel_size, algorithm = args.kernel_sizes[0], args.algorithms[0]
    engines = [engine.name for engine in args.engines]
    kernel = describe_kernel(
        effective_kernel_size(kernel_size, DEFAULT_SIGMA), DEFAULT_SIGMA, algorithm
    )
    show(bench_report.sweep_header_lines(shown(photo.path), photo.width, photo.height, kernel))
    show([bench_report.sweep_column_line(engines)])
    points: list[SweepPoint] = []

    def on_point(point: SweepPoint) -> None:
        show(bench_report.sweep_row_lines(point, points[-1] if points else None))
        points.append(point)
        if args.csv is not None:
            write_sweep_csv(args.csv, points)

    try:
        run_sweep(
            photo.gray,
            sizes=sweep_sizes(photo.gray.shape, max_megapixels=args.max_megapixels),
            kernel_size=kernel_size,
            sigma=DEFAULT_SIGMA,
            algorithm=algorithm,
            engines=engines,
            repeats=args.repeat,
            on_point=on_point,
        )
    except OutputError as error:
        raise CommandFailed(str(error)) from error
    except MemoryError:
        raise CommandFailed(
            f"not enough memory for the sweep's next size after {len(points)} sizes"
        ) from None
    found, on_accelerator = sweep_break_even(points), accelerator_break_even(points)
    for crossing in (found, on_accelerator):
        if crossing is not None:
            show(bench_report.sweep_break_even_lines(crossing))
    if args.csv is not None:
        show([f"wrote {shown(args.csv)}"])
    return {
        "photo": {"path": shown(photo.path), "width": photo.width, "height": photo.height},
        "kernel": {"size": kernel_size, "sigma": DEFAULT_SIGMA, "algorithm": algorithm},
        "points": [point.as_dict() for point in points],
        # From which size JAX-jit beats NumPy (None: the sweep did not time both).
        "break_even": found.as_dict() if found is not None else None,
        # From which size JAX-jit on the accelerator beats it on the CPU (None: not both
        # timed); older records name it gpu_break_even.
        "accelerator_break_even": (
            on_accelerator.as_dict() if on_accelerator is not None else None
        ),
    }
