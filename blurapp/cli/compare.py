"""`blurapp compare`: the chosen engines on one photo, the figures printed (or JSON)."""

from __future__ import annotations

import argparse
from pathlib import Path

from blurapp.cli.compare_clip import add_clip_options, compare_clip_command
from blurapp.cli.compare_outputs import engine_output, folder_exists, make_folder
from blurapp.cli.options import (
    COLOR_HELP,
    add_color_option,
    add_common_options,
    add_engine_options,
    add_image_argument,
    add_kernel_options,
    add_repeat_option,
)
from blurapp.cli.output import (
    CommandFailed,
    grey_note,
    json_text,
    load,
    note_short_kernel,
    print_line,
    shown,
    source_photo,
)
from blurapp.cli.progress import staged_progress
from blurapp.core.blurring.blur_file import StagedProgress
from blurapp.core.engines.engine import Engine
from blurapp.core.engines.jax_runtime import JaxUnavailableError, jax_device
from blurapp.core.measuring.comparison import TIMING, Watch, compare_engines, comparison_dict
from blurapp.core.measuring.profiler_trace import SteadyTrace, TraceError, make_trace_folder
from blurapp.core.media.clip_files import is_clip
from blurapp.core.media.photo import has_colour
from blurapp.core.media.saving import OutputError, check_output_path, save_output
from blurapp.core.report.figures import comparison_figures


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    compare = commands.add_parser(
        "compare",
        help="blur a photo or a clip with each engine --engines names and print the figures",
    )
    compare.set_defaults(command_parser=compare)
    add_common_options(compare, top=False)
    add_image_argument(compare)
    add_kernel_options(compare)
    add_color_option(compare, COLOR_HELP)
    add_engine_options(compare, several=True)
    add_repeat_option(compare)
    compare.add_argument("--json", action="store_true", help="print one JSON object")
    compare.add_argument(
        "--out-dir",
        type=Path,
        metavar="DIR",
        help="also write each engine's output here, named after it: for a photo ENGINE.npy and "
        "ENGINE.png (numpy.npy, jax.png, …); for a clip, the span timed (--start, --frames) "
        "as a clip (numpy.mkv, jax.gif, …: the clip's own format where BlurApp writes it, "
        "else lossless .mkv)",
    )
    compare.add_argument(
        "--trace",
        type=Path,
        metavar="DIR",
        help="also record a JAX profiler trace of the steady calls (not the first call) in this "
        "folder, to open in Perfetto (ui.perfetto.dev) or TensorBoard; a photo's comparison only",
    )
    add_clip_options(compare)
    return compare


def run(args: argparse.Namespace) -> int:
    source = source_photo(args.image)
    if is_clip(source):
        if args.trace is not None:
            raise CommandFailed(
                f"{shown(source)}: --trace records a photo's comparison; this is a clip"
            )
        _check_jax_engines(args.engines, args.device)
        note_short_kernel(args)
        return compare_clip_command(args, source)
    if args.frames is not None or args.start is not None:
        raise CommandFailed(f"{shown(source)}: --frames and --start are for clips; this is a photo")
    if args.out_dir is not None:
        _check_outputs(args.out_dir, source, args.engines)  # before the work, not after it
    _check_jax_engines(args.engines, args.device)
    trace = _steady_trace(args) if args.trace is not None else None
    # Without --repeat the engines' calls are counted as they are timed: the total moves.
    estimated = {TIMING} if args.repeat is None else set()
    with staged_progress(
        _stages(shown(source.name), args.engines), estimated=estimated
    ) as progress:
        progress("reading", 0, 1)
        photo = load(source, color=args.color)
        note_short_kernel(args)
        try:
            result = compare_engines(
                photo.pixels,
                args.spec,
                repeats=args.repeat,
                engines=args.engines,
                device=args.device,
                watch=SaysWhereItIs(progress),
                trace=trace,
            )
        except TraceError as error:
            raise CommandFailed(str(error)) from None
        except MemoryError:
            raise CommandFailed(
                f"{shown(photo.path)}: not enough memory to compare the engines on this photo"
            ) from None
        progress(FINISHING, 1, 1)
    if args.out_dir is not None:
        _write_outputs(args.out_dir, result, args.spec)
    if args.json:
        document = _comparison_json(photo, result)
        if trace is not None:
            document["trace"] = _trace_json(trace)
        print_line(json_text(document))
    else:
        rows = comparison_figures(
            result,
            shown(photo.path),
            photo.width,
            photo.height,
            bit_depth=photo.bit_depth,
            image_note=grey_note(args.color, lambda: has_colour(photo.path)),
        )
        width = max(len(row.label) for row in rows)
        print_line("\n".join(f"{row.label:<{width}}  {row.text}" for row in rows))
        if trace is not None:
            print_line(trace.written.words())
    return 0


# The stage after the engines' timed calls, for the command line's progress alone.
FINISHING = "finishing"


class SaysWhereItIs(Watch):
    """A comparison followed on stderr (blurapp.cli.progress): each engine's first call as it
    begins, then the timing."""

    def __init__(self, progress: StagedProgress) -> None:
        super().__init__()
        self._progress = progress

    def engine_started(self, engine: str) -> None:
        self._progress(engine, 0, 1)

    def progress(self, step: str, done: int, total: int) -> None:
        self._progress(step, done, total)
        if step == TIMING and done == total:
            # What follows the engines' calls (the machine's own figures, the differences)
            # has no count of its own, and takes seconds on a large photo.
            self._progress(FINISHING, 0, 1)


def _stages(name: str, engines) -> dict[str, tuple[str, str]]:
    """What each stage of a photo's comparison is doing, for its progress, and what it counts."""
    return {
        "reading": (f"reading {name}", "photo"),
        **{engine.name: (_first_call_words(engine, name), "step") for engine in engines},
        TIMING: (f"timing each engine on {name}", "call"),
        FINISHING: (f"finishing the comparison on {name}", "step"),
    }


def _first_call_words(engine: Engine, name: str) -> str:
    # A compiling engine's first call is seconds of compiling on a large photo, with no step
    # to count meanwhile: its lines say what is being waited for.
    compiling = " (compiling)" if engine.compiles else ""
    return f"{engine.title}'s first call on {name}{compiling}"


def _steady_trace(args: argparse.Namespace):
    """The profiler trace `--trace DIR` asks for, its folder made now: a folder that cannot be
    one fails before the work, not after it."""
    folder_exists(args.trace)
    try:
        make_trace_folder(args.trace)  # the window's check: made, and writable
    except TraceError as error:
        raise CommandFailed(str(error)) from None
    return SteadyTrace(args.trace)


def _trace_json(trace) -> dict:
    return {
        "folder": shown(trace.run_folder) if trace.run_folder is not None else None,
        "files": [shown(path) for path in trace.files],
    }


def _comparison_json(photo, result) -> dict:
    image = {
        "path": shown(photo.path),
        "width": photo.width,
        "height": photo.height,
        "channels": result.channels,
    }
    return {"image": image, **comparison_dict(result)}


def _check_jax_engines(engines, device: str) -> None:
    """When no JAX engine asked for can run on the platform asked for (`--device tpu` without
    a TPU), the comparison the user wants cannot be made: an error, before the work. One that
    can run is enough; the others' reasons are then in the figures."""
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
    raise CommandFailed("; ".join(problems))


# A photo's outputs in the folder: the float32 array and a picture.
PHOTO_OUTPUT_EXTENSIONS = (".npy", ".png")


def _check_outputs(folder: Path, source: Path, engines) -> None:
    """Refuse, before any work, an output folder that cannot be used or whose files would
    replace the photo."""
    if not folder_exists(folder):
        return
    try:
        for engine in engines:
            for extension in PHOTO_OUTPUT_EXTENSIONS:
                check_output_path(engine_output(folder, engine, extension), source=source)
    except OutputError as error:
        raise CommandFailed(str(error)) from error


def _write_outputs(folder: Path, result, spec) -> None:
    make_folder(folder)
    try:
        for name, run in result.runs.items():
            array, picture = (
                engine_output(folder, result.engine(name), extension)
                for extension in PHOTO_OUTPUT_EXTENSIONS
            )
            save_output(array, run.output)
            save_output(picture, run.output, description=spec.description(name))
    except OutputError as error:
        raise CommandFailed(str(error)) from error
