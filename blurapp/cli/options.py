"""The options the commands share, each checked where its fact lives (the kernel's checks
beside the kernel, the engines' names in the registry)."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from blurapp._version import __version__
from blurapp.core.engines.timing import MEASURE_SECONDS
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
from blurapp.core.media.photo_checks import WORKING_BYTES_PER_PIXEL, available_memory
from blurapp.core.platforms import PLATFORMS
from blurapp.core.spec import BlurSpec


def kernel_size_argument(text: str) -> KernelSize:
    try:
        return check_kernel_size(text)
    except InvalidKernelError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def sigma_argument(text: str) -> float:
    try:
        return check_sigma(text)
    except InvalidKernelError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def window_size_argument(text: str) -> tuple[int, int]:
    """A size in pixels written WIDTHxHEIGHT ("1920x1080")."""
    width, sep, height = text.lower().replace("×", "x").partition("x")
    try:
        size = (int(width), int(height)) if sep else None
    except ValueError:
        size = None
    if size is None:
        raise argparse.ArgumentTypeError(
            f"expected WIDTHxHEIGHT in pixels (such as 1920x1080), not {text!r}"
        )
    if min(size) < 1:
        raise argparse.ArgumentTypeError(f"a width and a height of at least 1 pixel, not {text!r}")
    return size


def add_repeat_option(parser: argparse.ArgumentParser, also: str = "") -> None:
    """--repeat; `also` adds to its help what else it sets in this command."""
    parser.add_argument(
        "--repeat",
        type=positive_int_argument,
        default=None,
        metavar="N",
        help="steady calls of each engine to take the median of, timed in turn after a "
        f"warm-up (default: as many as measure each engine over {MEASURE_SECONDS:g} s, "
        f"at least 5, fewer for slow engines){also}",
    )


def positive_int_argument(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def megapixels_argument(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of megapixels, not {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"megapixels must be a positive number, not {text}")
    return value


def too_large_for_memory(megapixels: float, channels: int = 1) -> str | None:
    """Why an image of `megapixels` (and `channels`) the bench would make cannot be compared in
    the memory available now (WORKING_BYTES_PER_PIXEL a pixel and channel); None if it can."""
    available = available_memory()
    if available is None:
        return None
    limit = available / (channels * WORKING_BYTES_PER_PIXEL * 1e6)
    if megapixels <= limit:
        return None
    colour = " in colour" if channels > 1 else ""
    return (
        f"{megapixels:g} MP{colour} would not fit in the memory available "
        f"({available / 1e9:,.1f} GB): at most {limit:,.0f} MP here"
    )


def bench_megapixels_argument(text: str) -> float:
    """A size of grey image the bench makes and times, that fits in the memory available."""
    value = megapixels_argument(text)
    problem = too_large_for_memory(value)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return value


def add_common_options(parser: argparse.ArgumentParser, *, top: bool = True) -> None:
    parser.add_argument("--version", action="version", version=f"blurapp {__version__}")
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        # In a command's own options, no default: `blurapp -v compare` must stay verbose.
        default=False if top else argparse.SUPPRESS,
        help="print debug logging to stderr",
    )


def workers_argument(text: str) -> int:
    try:
        workers = int(text)
    except ValueError:
        workers = 0
    if workers < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of workers (1 or more)")
    return workers


def engines_argument(text: str):
    # Here, not at the top: there, as the module's first import of the core, it makes `import
    # blurapp.cli`, so `blurapp --help`, 15 ms slower on Python 3.11 (measured; same modules).
    from blurapp.core.engines import UnknownEngineError, parse_engines

    try:
        return parse_engines(text)
    except UnknownEngineError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def engine_argument(text: str):
    from blurapp.core.engines import UnknownEngineError, get_engine  # see engines_argument

    try:
        return get_engine(text)
    except UnknownEngineError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


class _EngineNames:
    """The registered engines' names, found when a help text is shown: the plugins are loaded
    only for a command that needs one of them (or --help), not for building its parser."""

    def __str__(self) -> str:
        from blurapp.core.engines import engine_names  # see engines_argument

        return ", ".join(engine_names())


def add_engine_options(parser: argparse.ArgumentParser, *, several: bool) -> None:
    from blurapp.core.engines import DEFAULT_ENGINE, DEFAULT_ENGINES  # see engines_argument

    names = "%(engines)s"  # argparse fills it from the action's `engines`
    platforms = "/".join(PLATFORMS)
    if several:
        action = parser.add_argument(
            "--engines",
            type=engines_argument,
            default=",".join(DEFAULT_ENGINES),
            metavar="E,E,…",
            help=f"engines to compare, in order ({names}; JAX ones also as NAME@PLATFORM, "
            f"{platforms}; 'all': every engine, the JAX ones on every platform there is; "
            f"default {','.join(DEFAULT_ENGINES)})",
        )
    else:
        action = parser.add_argument(
            "--engine",
            type=engine_argument,
            default=DEFAULT_ENGINE,
            metavar="E",
            help=f"the engine to blur with ({names}, or a JAX one as NAME@PLATFORM, {platforms}; "
            f"default {DEFAULT_ENGINE})",
        )
    action.engines = _EngineNames()  # type: ignore[attr-defined]
    parser.add_argument(
        "--device",
        choices=("auto", *PLATFORMS),
        default="auto",
        help="where the JAX engines run (default auto: the accelerator when there is one)",
    )


def add_kernel_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--algorithm",
        choices=ALGORITHMS,
        default=DEFAULT_ALGORITHM,
        help="2d: the tutorial's k×k taps (default); separable: k taps along rows, then columns",
    )
    parser.add_argument(
        "--kernel-size",
        type=kernel_size_argument,
        default=DEFAULT_KERNEL_SIZE,
        metavar="K|auto",
        help=f"odd kernel size, or 'auto' for 2·ceil(3σ)+1 (default {DEFAULT_KERNEL_SIZE})",
    )
    parser.add_argument(
        "--sigma",
        type=sigma_argument,
        default=DEFAULT_SIGMA,
        metavar="S",
        help=f"Gaussian sigma in pixels (default {DEFAULT_SIGMA})",
    )


def add_color_option(parser: argparse.ArgumentParser, help: str) -> None:
    parser.add_argument("--color", action="store_true", help=help)


COLOR_HELP = (
    "blur a colour photo's red, green and blue, each with the kernel (default: its grey, as the"
    " tutorial did; a grey photo stays grey)"
)


def add_image_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "image", nargs="?", type=Path, help="photo to open (default: the bundled sample photo)"
    )


def add_scheduler_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786); its "
        "workers need BlurApp installed and the files at the same paths (default: this "
        "machine's cores)",
    )


def spec_of(args: argparse.Namespace) -> BlurSpec:
    """The blur the options ask for, as one value (each part checked by its option's type)."""
    return BlurSpec(args.kernel_size, args.sigma, args.algorithm, getattr(args, "color", False))
