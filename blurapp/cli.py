"""The `blurapp` command: the window, or `compare`, `blur` and `bench` on the command line."""

from __future__ import annotations

import argparse
import io
import json
import logging
import math
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from blurapp import __version__
from blurapp.core.kernel import (
    ALGORITHMS,
    DEFAULT_ALGORITHM,
    DEFAULT_KERNEL_SIZE,
    DEFAULT_SIGMA,
    InvalidKernelError,
    KernelSize,
    check_kernel_size,
    check_sigma,
)
from blurapp.core.timing import MEASURE_SECONDS

COMMANDS = ("compare", "blur", "batch", "bench")
BENCH_MEGAPIXELS = (0.3, 2.0, 12.0, 24.0)
BENCH_KERNEL_SIZES = (9, 25)
BENCH_SECTIONS = ("engines", "yardsticks", "first-call", "startup", "window", "live", "memory")
# Minutes, and 2 GB of disk: only when asked for (`--sections scale`).
EXTRA_BENCH_SECTIONS = ("scale",)

log = logging.getLogger("blurapp")


class _CommandFailed(Exception):
    """A failure already worded for the user: printed as one `error:` line, exit status 1."""


class _Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, handled as Ctrl+C is: what is being written is removed, not left."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop_on_signal(signum: int, _frame: object) -> None:
    raise _Stopped(signum)


def _shown(path: os.PathLike[str] | str) -> str:
    from blurapp.core.wording import display_path

    return display_path(path)


def _print(text: str = "") -> None:
    """Print to stdout; a stdout that cannot take it (a full disk) is a clean error."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        raise
    except OSError as error:
        _silence_stdout()
        raise _CommandFailed(f"cannot write the output: {error.strerror or error}") from None


def _silence_stdout() -> None:
    """Send later writes to stdout (Python's own flush at exit) nowhere, instead of failing."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


# ---------------------------------------------------------------------------------------------
# Argument types: the checks themselves live beside the kernel.


def _kernel_size_argument(text: str) -> KernelSize:
    try:
        return check_kernel_size(text)
    except InvalidKernelError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _sigma_argument(text: str) -> float:
    try:
        return check_sigma(text)
    except InvalidKernelError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _repeat_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--repeat",
        type=_positive_int_argument,
        default=None,
        metavar="N",
        help="steady calls of each engine to take the median of, timed in turn after a "
        f"warm-up (default: as many as measure each engine over {MEASURE_SECONDS:g} s, "
        "at least 5, fewer for slow engines)",
    )


def _positive_int_argument(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _megapixels_argument(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of megapixels, not {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"megapixels must be a positive number, not {text}")
    return value


def _add_common_options(parser: argparse.ArgumentParser, *, top: bool = True) -> None:
    parser.add_argument("--version", action="version", version=f"blurapp {__version__}")
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        # In a command's own options, no default: `blurapp -v compare` must stay verbose.
        default=False if top else argparse.SUPPRESS,
        help="print debug logging to stderr",
    )


def _workers_argument(text: str) -> int:
    try:
        workers = int(text)
    except ValueError:
        workers = 0
    if workers < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of workers (1 or more)")
    return workers


def _engines_argument(text: str):
    from blurapp.core.engines import UnknownEngineError, parse_engines

    try:
        return parse_engines(text)
    except UnknownEngineError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _engine_argument(text: str):
    from blurapp.core.engines import UnknownEngineError, get_engine

    try:
        return get_engine(text)
    except UnknownEngineError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _add_engine_options(parser: argparse.ArgumentParser, *, several: bool) -> None:
    from blurapp.core.engines import DEFAULT_ENGINES, REFERENCE_ENGINE, engine_names
    from blurapp.core.jax_engine import PLATFORMS

    names = ", ".join(engine_names())
    if several:
        parser.add_argument(
            "--engines",
            type=_engines_argument,
            default=",".join(DEFAULT_ENGINES),
            metavar="E,E,…",
            help=f"engines to compare, in order ({names}; JAX ones also as NAME@cpu or "
            f"NAME@gpu; 'all': every engine, the JAX ones on every platform there is; "
            f"default {','.join(DEFAULT_ENGINES)})",
        )
    else:
        parser.add_argument(
            "--engine",
            type=_engine_argument,
            default=REFERENCE_ENGINE,
            metavar="E",
            help=f"the engine to blur with ({names}, or a JAX one as NAME@cpu/NAME@gpu; "
            f"default {REFERENCE_ENGINE})",
        )
    parser.add_argument(
        "--device",
        choices=("auto", *PLATFORMS),
        default="auto",
        help="where the JAX engines run (default auto: the GPU when there is one)",
    )


def _add_kernel_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--algorithm",
        choices=ALGORITHMS,
        default=DEFAULT_ALGORITHM,
        help="2d: the tutorial's k×k taps (default); separable: k taps along rows, then columns",
    )
    parser.add_argument(
        "--kernel-size",
        type=_kernel_size_argument,
        default=DEFAULT_KERNEL_SIZE,
        metavar="K|auto",
        help=f"odd kernel size, or 'auto' for 2·ceil(3σ)+1 (default {DEFAULT_KERNEL_SIZE})",
    )
    parser.add_argument(
        "--sigma",
        type=_sigma_argument,
        default=DEFAULT_SIGMA,
        metavar="S",
        help=f"Gaussian sigma in pixels (default {DEFAULT_SIGMA})",
    )


def _color_option(parser: argparse.ArgumentParser, help: str) -> None:
    parser.add_argument("--color", action="store_true", help=help)


_COLOR_HELP = (
    "blur a colour photo's red, green and blue, each with the kernel (default: its grey, as the"
    " tutorial did; a grey photo stays grey)"
)


def _image_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "image", nargs="?", type=Path, help="photo to open (default: the bundled sample photo)"
    )


def build_window_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="blurapp",
        description=(
            "Open a photo and compare a Gaussian blur run with NumPy and with JAX-jit. "
            f"Commands for the terminal: {', '.join(COMMANDS)} (see 'blurapp COMMAND --help')."
        ),
    )
    _add_common_options(parser)
    _image_argument(parser)
    parser.add_argument(
        "--screenshot",
        type=Path,
        metavar="OUT.png",
        help="open the window, run the comparison, save a picture of the window and exit",
    )
    _color_option(parser, "turn Colour on: blur a colour photo's red, green and blue")
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help="the window's language, e.g. zh_CN or en (default: the system's)",
    )
    # For `blurapp bench`'s start-up figure only.
    parser.add_argument("--exit-when-shown", action="store_true", help=argparse.SUPPRESS)
    return parser


def build_command_parser() -> argparse.ArgumentParser:
    from blurapp.core.batch import BATCH_FORMATS, DEFAULT_BATCH_FORMAT, MAX_WORKERS_PER_CORE
    from blurapp.scale_commands import add_scheduler_option

    parser = argparse.ArgumentParser(prog="blurapp")
    _add_common_options(parser)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    compare = commands.add_parser(
        "compare", help="blur a photo with both engines and print the figures"
    )
    compare.set_defaults(command_parser=compare)
    _add_common_options(compare, top=False)
    _image_argument(compare)
    _add_kernel_options(compare)
    _color_option(compare, _COLOR_HELP)
    _add_engine_options(compare, several=True)
    _repeat_option(compare)
    compare.add_argument("--json", action="store_true", help="print one JSON object")
    compare.add_argument(
        "--out-dir",
        type=Path,
        metavar="DIR",
        help="also write ENGINE.npy and ENGINE.png of each engine here (numpy.npy, jax.png, …)",
    )

    blur = commands.add_parser("blur", help="blur a photo with one engine and save the result")
    blur.set_defaults(command_parser=blur)
    _add_common_options(blur, top=False)
    _image_argument(blur)
    blur.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="OUT",
        help=".npy for the float32 array, or an image file (.png, .tif, .jpg, …); a TIFF or "
        "zarr image too large for memory is blurred by blocks into .tif (a tiled BigTIFF) or .npy",
    )
    _add_engine_options(blur, several=False)
    _add_kernel_options(blur)
    _color_option(blur, _COLOR_HELP)
    add_scheduler_option(blur)
    blur.add_argument(
        "--tiles",
        action="store_true",
        help="blur a TIFF or zarr image by blocks even when it would fit in memory (always "
        "so for one too large for it, or with --scheduler)",
    )

    batch = commands.add_parser(
        "batch",
        help="blur photos and folders of photos into a folder, on this machine's cores or a "
        "Dask cluster",
    )
    batch.set_defaults(command_parser=batch)
    _add_common_options(batch, top=False)
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
        type=_workers_argument,
        metavar="N",
        help="photos blurred at once on this machine (default: one per core; at most "
        f"{MAX_WORKERS_PER_CORE} per core)",
    )
    batch.add_argument("--json", action="store_true", help="print the summary as JSON")
    _add_engine_options(batch, several=False)
    _add_kernel_options(batch)
    _color_option(batch, _COLOR_HELP)
    add_scheduler_option(batch)

    bench = commands.add_parser("bench", help="time NumPy against JAX on synthetic images")
    _add_common_options(bench, top=False)
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    _color_option(bench, "time the engines table on colour images (height × width × 3)")
    from blurapp.bench import BENCH_ENGINES

    bench.add_argument(
        "--engines",
        type=_engines_argument,
        default=",".join(BENCH_ENGINES),
        metavar="E,E,…",
        help=f"engines of the table (default {','.join(BENCH_ENGINES)}; numpy must be one)",
    )
    bench.add_argument(
        "--megapixels",
        type=_megapixels_argument,
        nargs="+",
        default=list(BENCH_MEGAPIXELS),
        metavar="MP",
        help="image sizes (default: %(default)s)",
    )
    bench.add_argument(
        "--kernel-sizes",
        type=_kernel_size_argument,
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
    _repeat_option(bench)
    bench.add_argument(
        "--sections",
        nargs="+",
        choices=BENCH_SECTIONS + EXTRA_BENCH_SECTIONS,
        default=list(BENCH_SECTIONS),
        help="what to measure (default: all but scale, which takes minutes and 2 GB of disk)",
    )
    bench.add_argument(
        "--probe-megapixels",
        type=_megapixels_argument,
        default=24.0,
        metavar="MP",
        help="image size for the yardsticks, first-call, window and memory sections (24)",
    )
    bench.add_argument(
        "--big-megapixels",
        type=_megapixels_argument,
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
        type=_megapixels_argument,
        default=24.0,
        metavar="MP",
        help="the sweep's largest size (24)",
    )
    bench.add_argument(
        "--csv", type=Path, metavar="OUT.csv", help="also write the sweep's figures as CSV"
    )
    return parser


def _first_word(argv: Sequence[str]) -> str | None:
    return next((word for word in argv if not word.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if _first_word(argv) in COMMANDS:
        parser = build_command_parser()
        args = parser.parse_args(argv)
    else:
        args = build_window_parser().parse_args(argv)
        args.command = None
    from blurapp.logs import configure_logging

    configure_logging(args.verbose)
    if isinstance(sys.stdout, io.TextIOWrapper):
        # A terminal that cannot show a character (an ASCII or Latin-1 locale, a × or the
        # U+FFFD of a name that is not UTF-8) gets a replacement, not a traceback at the end.
        sys.stdout.reconfigure(errors="replace")
    if args.command is not None:
        # The window keeps the system's handling; a command cleans up and ends as for Ctrl+C.
        for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
            if signum is not None:
                signal.signal(signum, _stop_on_signal)
    try:
        if args.command == "compare":
            return _compare(args)
        if args.command == "blur":
            return _blur(args)
        if args.command == "batch":
            from blurapp.scale_commands import batch

            return batch(args)
        if args.command == "bench":
            return _bench(args)
        return _open_window(args)
    except _CommandFailed as error:
        print(f"error: {error}", file=sys.stderr)
        # The file gets the traceback behind the message (the cause's, when there is one).
        log.error("%s", error, exc_info=error.__cause__ or error, extra={"file_only": True})
        return 1
    except _Stopped as stop:
        print(f"error: stopped by {signal.Signals(stop.signum).name}", file=sys.stderr)
        return 128 + stop.signum
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`blurapp bench | head`); that is not an error of ours.
        _silence_stdout()
        return 141


# ---------------------------------------------------------------------------------------------
# Commands


def _open_window(args: argparse.Namespace) -> int:
    from blurapp.ui.app import run_window

    return run_window(
        args.image,
        screenshot=args.screenshot,
        exit_when_shown=args.exit_when_shown,
        language=args.lang,
        color=args.color,
    )


def _source(path: Path | None) -> Path:
    """The photo a command works on: the one named, or the bundled sample."""
    from blurapp.core.sample import sample_photo_path

    return path if path is not None else sample_photo_path()


def _load(path: Path, *, color: bool = False):
    from blurapp.core.photo import PhotoError, load_photo

    try:
        return load_photo(path, color=color)
    except PhotoError as error:
        raise _CommandFailed(str(error)) from error


def _compare(args: argparse.Namespace) -> int:
    from blurapp.core.comparison import compare
    from blurapp.core.figures import comparison_lines

    source = _source(args.image)
    if args.out_dir is not None:
        _check_outputs(args.out_dir, source, args.engines)  # before the work, not after it
    _check_jax_engines(args.engines, args.device)
    photo = _load(source, color=args.color)
    _note_short_kernel(args)
    try:
        result = compare(
            photo.pixels,
            kernel_size=args.kernel_size,
            sigma=args.sigma,
            algorithm=args.algorithm,
            repeats=args.repeat,
            engines=args.engines,
            device=args.device,
        )
    except MemoryError:
        raise _CommandFailed(
            f"{_shown(photo.path)}: not enough memory to compare the engines on this photo"
        ) from None
    if args.out_dir is not None:
        _write_outputs(args.out_dir, result)
    if args.json:
        _print(json.dumps(_comparison_json(photo, result), indent=2))
    else:
        rows = comparison_lines(
            result, _shown(photo.path), photo.width, photo.height, bit_depth=photo.bit_depth
        )
        width = max(len(name) for name, _ in rows)
        _print("\n".join(f"{name:<{width}}  {value}" for name, value in rows))
    return 0


def _check_jax_engines(engines, device: str) -> None:
    """When no JAX engine asked for can run on the platform asked for (`--device gpu` without
    a GPU), the comparison the user wants cannot be made: an error, before the work. One that
    can run is enough; the others' reasons are then in the figures."""
    from blurapp.core.jax_engine import JaxUnavailableError, jax_device

    platforms = {engine.platform or device for engine in engines if engine.uses_jax}
    if not platforms or "auto" in platforms:
        return
    problems = []
    for platform in sorted(platforms):
        try:
            jax_device(platform)
            return
        except JaxUnavailableError as error:
            problems.append(str(error))
    raise _CommandFailed("; ".join(problems))


def _note_short_kernel(args: argparse.Namespace) -> None:
    from blurapp.core.figures import short_kernel_note
    from blurapp.core.kernel import effective_kernel_size

    note = short_kernel_note(effective_kernel_size(args.kernel_size, args.sigma), args.sigma)
    if note is not None:
        print(f"note: {note}", file=sys.stderr)


def _comparison_json(photo, result) -> dict:
    from blurapp.core.comparison import comparison_dict

    image = {
        "path": _shown(photo.path),
        "width": photo.width,
        "height": photo.height,
        "channels": result.channels,
    }
    return {"image": image, **comparison_dict(result)}


def _output_names(engine) -> tuple[str, str]:
    return f"{engine.name}.npy", f"{engine.name}.png"


def _check_outputs(folder: Path, source: Path, engines) -> None:
    """Refuse, before any work, an output folder that cannot be used or whose files would
    replace the photo."""
    from blurapp.core.saving import OutputError, check_output_path

    try:
        exists = folder.is_dir()
    except OSError as error:  # a name too long, a loop of links
        raise _CommandFailed(f"{_shown(folder)}: {error.strerror or error}") from None
    if not exists:
        return  # made after the work; nothing in it can be the photo
    try:
        for engine in engines:
            for name in _output_names(engine):
                check_output_path(folder / name, source=source)
    except OutputError as error:
        raise _CommandFailed(str(error)) from error


def _write_outputs(folder: Path, result) -> None:
    from blurapp.core.saving import OutputError, output_description, save_output

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise _CommandFailed(
            f"{_shown(folder)}: cannot create the folder ({error.strerror or error})"
        ) from None
    try:
        for name, run in result.runs.items():
            array_name, picture_name = _output_names(result.engine(name))
            description = output_description(
                name, result.kernel_size, result.sigma, result.algorithm
            )
            save_output(folder / array_name, run.output)
            save_output(folder / picture_name, run.output, description=description)
    except OutputError as error:
        raise _CommandFailed(str(error)) from error


def _blur(args: argparse.Namespace) -> int:
    from blurapp.core.jax_engine import JaxUnavailableError
    from blurapp.core.kernel import kernel_for
    from blurapp.core.saving import (
        OutputError,
        check_output_path,
        output_description,
        save_output,
    )

    source = _source(args.image)
    try:
        check_output_path(args.output, source=source)  # before the work, not after it
    except OutputError as error:
        raise _CommandFailed(str(error)) from error
    from blurapp.core.tiled import needs_tiles

    if args.tiles or args.scheduler is not None or needs_tiles(source, color=args.color):
        from blurapp.scale_commands import blur_in_tiles

        _note_short_kernel(args)
        return blur_in_tiles(args, source)
    photo = _load(source, color=args.color)
    _note_short_kernel(args)
    kernel = kernel_for(args.algorithm, args.kernel_size, args.sigma)
    engine = args.engine
    try:
        output = engine.blur(photo.pixels, kernel, repeats=0, device=args.device).output
    except JaxUnavailableError as error:
        raise _CommandFailed(str(error)) from error
    except MemoryError:
        raise _CommandFailed(
            f"{_shown(photo.path)}: not enough memory to blur this photo"
        ) from None
    except Exception as error:
        log.debug("the %s engine failed", engine.name, exc_info=True)
        raise _CommandFailed(f"the {engine.title} engine failed: {error}") from None
    description = output_description(engine.name, kernel.shape[0], args.sigma, args.algorithm)
    try:
        save_output(args.output, output, bit_depth=photo.bit_depth, description=description)
    except OutputError as error:
        raise _CommandFailed(str(error)) from error
    _print(f"wrote {_shown(args.output)}")
    return 0


def _bench(args: argparse.Namespace) -> int:
    import tempfile

    _check_sweep_csv(args)
    # "JAX 1st" must mean a real compilation: an empty cache of the bench's own, every time.
    with tempfile.TemporaryDirectory(prefix="blurapp-bench-cache-") as cache:
        os.environ["BLURAPP_CACHE_DIR"] = cache
        return _run_bench(args)


def _run_bench(args: argparse.Namespace) -> int:
    from blurapp import bench_report
    from blurapp.bench import describe_machine, run_bench, run_sections

    def show(lines: list[str]) -> None:
        if not args.json:
            _print("\n".join(lines))

    report: dict = {"machine": describe_machine()}
    show(bench_report.header_lines(report["machine"]))
    if args.sweep:
        report["sweep"] = _run_sweep(args, show)
        if args.json:
            _print(json.dumps(report, indent=2))
        return 0
    if "engines" in args.sections:
        show(bench_report.column_lines())
        report["results"] = run_bench(
            megapixels=args.megapixels,
            kernel_sizes=args.kernel_sizes,
            algorithms=args.algorithms,
            repeats=args.repeat,
            sigma=DEFAULT_SIGMA,
            engines=[engine.name for engine in args.engines],
            on_row=lambda row: show([bench_report.row_line(row)]),
            channels=3 if args.color else 1,
        )["results"]
    report.update(
        run_sections(
            [name for name in args.sections if name != "engines"],
            probe_megapixels=args.probe_megapixels,
            big_megapixels=args.big_megapixels,
            on_section=lambda name, figures: show(bench_report.section_lines(name, figures)),
        )
    )
    if args.json:
        _print(json.dumps(report, indent=2))
    return 0


def _check_sweep_csv(args: argparse.Namespace) -> None:
    """`bench --sweep --csv`: a CSV that could not be written fails now, before any size is
    measured, not after the first."""
    from blurapp.core.saving import OutputError, check_output_path

    if args.sweep and args.csv is not None:
        try:
            check_output_path(args.csv, source=_source(args.photo), image=False)
        except OutputError as error:
            raise _CommandFailed(str(error)) from error


def _run_sweep(args: argparse.Namespace, show) -> dict:
    """`bench --sweep`: a line per size as it finishes; the CSV rewritten after each size, so
    a sweep stopped part way keeps what it measured."""
    from blurapp import bench_report
    from blurapp.core.figures import describe_kernel
    from blurapp.core.kernel import effective_kernel_size
    from blurapp.core.saving import OutputError
    from blurapp.core.sweep import run_sweep, sweep_sizes, write_sweep_csv

    photo = _load(_source(args.photo))
    kernel_size, algorithm = args.kernel_sizes[0], args.algorithms[0]
    engines = [engine.name for engine in args.engines]
    kernel = describe_kernel(
        effective_kernel_size(kernel_size, DEFAULT_SIGMA), DEFAULT_SIGMA, algorithm
    )
    show(bench_report.sweep_header_lines(_shown(photo.path), photo.width, photo.height, kernel))
    show([bench_report.sweep_column_line(engines)])
    points = []

    def on_point(point) -> None:
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
        raise _CommandFailed(str(error)) from error
    except MemoryError:
        raise _CommandFailed(
            f"not enough memory for the sweep's next size after {len(points)} sizes"
        ) from None
    if args.csv is not None:
        show([f"wrote {_shown(args.csv)}"])
    return {
        "photo": {"path": _shown(photo.path), "width": photo.width, "height": photo.height},
        "kernel": {"size": kernel_size, "sigma": DEFAULT_SIGMA, "algorithm": algorithm},
        "points": [point.as_dict() for point in points],
    }


if __name__ == "__main__":
    raise SystemExit(main())
