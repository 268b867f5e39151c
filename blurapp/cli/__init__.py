"""The `blurapp` command: the window, or one of the commands for the terminal.

Each command is a module of this package with `add_parser(commands)` and `run(args)` (a
Command), imported only when that command runs (the window's start and `--version` import none
of them)."""

from __future__ import annotations

import argparse
import io
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn, Protocol

from blurapp.cli.options import (
    add_color_option,
    add_common_options,
    add_image_argument,
    spec_of,
    window_size_argument,
)
from blurapp.cli.output import CommandFailed, log, shown, silence_stdout

# The commands, in the order `blurapp --help` names them.
COMMANDS = ("compare", "blur", "batch", "bench")


class Command(Protocol):
    """What a command's module has: its parser, and what it does."""

    def add_parser(self, commands: argparse._SubParsersAction) -> argparse.ArgumentParser: ...

    def run(self, args: argparse.Namespace) -> int: ...


def command_module(name: str) -> Command:
    """The module of command `name`, imported here and only it."""
    if name == "compare":
        from blurapp.cli import compare  # only when it runs: it brings its engines and files

        return compare
    if name == "blur":
        from blurapp.cli import blur  # only when it runs: it brings its engines and files

        return blur
    if name == "batch":
        from blurapp.cli import batch  # only when it runs: it brings its engines and files

        return batch
    if name == "bench":
        from blurapp.cli import bench  # only when it runs: it brings its engines and files

        return bench
    raise ValueError(f"no command {name!r}: the commands are {', '.join(COMMANDS)}")


class _Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, handled as Ctrl+C is: what is being written is removed, not left."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop_on_signal(signum: int, _frame: object) -> None:
    raise _Stopped(signum)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage error is two lines: what is wrong, and where the usage
    is told (argparse's own usage block, printed before the error, buried it). A command's
    parser is one too: argparse makes them of their parent's class."""

    # Whose usage a mistake is in, where that is not this parser's own: argparse finds a
    # command's unrecognized arguments (`blurapp compare -o OUT`) in the parser above it.
    usage_of: str | None = None

    def error(self, message: str) -> NoReturn:
        prog = self.usage_of or self.prog
        self.exit(2, f"{prog}: error: {message}\nsee '{prog} --help'\n")


def build_window_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="blurapp",
        description=(
            "Open a photo and compare a Gaussian blur run with NumPy and with JAX-jit. "
            f"Commands for the terminal: {', '.join(COMMANDS)} (see 'blurapp COMMAND --help')."
        ),
    )
    add_common_options(parser)
    add_image_argument(parser)
    parser.add_argument(
        "--screenshot",
        type=Path,
        metavar="OUT.png",
        help="open the window, run the comparison, save a picture of the window and exit",
    )
    parser.add_argument(
        "--size",
        type=window_size_argument,
        metavar="WxH",
        help="with --screenshot: the window's size, on a screen of that size where there is "
        "no screen (default: 1360x700)",
    )
    add_color_option(parser, "turn Colour on: blur a colour photo's red, green and blue")
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help="the window's language, e.g. zh_CN or en (default: the system's)",
    )
    parser.add_argument(
        "--exit-when-shown",
        action="store_true",
        help="print 'shown' once the window is on screen, then close it and exit: a check "
        "that the window starts here",
    )
    return parser


def build_command_parser(name: str) -> argparse.ArgumentParser:
    """The parser of `blurapp NAME …`; its module is imported here, and only it."""
    parser = _Parser(prog="blurapp")
    parser.usage_of = f"blurapp {name}"
    add_common_options(parser)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    command = command_module(name)
    command.add_parser(commands).set_defaults(run=command.run)
    return parser


def _first_word(argv: Sequence[str]) -> str | None:
    return next((word for word in argv if not word.startswith("-")), None)


def _command_meant(word: str) -> str | None:
    """The command `word` is a slip for (`compar`: compare), if any; None for a word with a
    folder or a suffix in it, which names a file, however like a command it is."""
    import difflib  # only for a word that is not a command

    if Path(word).name != word or Path(word).suffix:
        return None
    return next(iter(difflib.get_close_matches(word, COMMANDS, n=1)), None)


def _check_the_photo_named(
    parser: argparse.ArgumentParser, args: argparse.Namespace, unrecognized: Sequence[str]
) -> None:
    """A usage error for `blurapp WORD …` where WORD is neither a command nor a file that
    exists, unless the window, opening, would say so itself (with how to open a photo): a
    command mistyped (`blurapp compar photo.jpg`), words after it that the window does not
    take, or no screen for the window."""
    if args.image is None or os.path.exists(args.image):
        return
    word = shown(args.image)
    meant = _command_meant(str(args.image))
    if meant is not None:
        parser.error(f"'{word}' is not a command; did you mean '{meant}'?")
    if any(item.startswith("-") for item in unrecognized):
        return  # an option the window does not take: argparse's "unrecognized arguments"
    from blurapp.ui.screen import no_screen_for_the_window  # os and sys: no Qt

    if unrecognized or (args.screenshot is None and no_screen_for_the_window()):
        parser.error(
            f"'{word}' is neither a command ({', '.join(COMMANDS)}) nor a file that exists"
        )


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = _first_word(argv)
    if command in COMMANDS:
        # logging's handlers (5 ms): not for `blurapp --help`, which exits in parse_args
        from blurapp.logs import configure_logging

        # Reading the engine options finds the engine plugins: a broken one's warning must
        # reach the log file as well as the terminal.
        verbose = "-v" in argv or "--verbose" in argv
        configure_logging(verbose)
        args = build_command_parser(command).parse_args(argv)
        args.argv = argv  # as typed, for what records the command that made it (bench --record)
        if args.verbose != verbose:
            configure_logging(args.verbose)
        if hasattr(args, "kernel_size"):
            args.spec = spec_of(args)
    else:
        parser = build_window_parser()
        args, unrecognized = parser.parse_known_args(argv)
        _check_the_photo_named(parser, args, unrecognized)
        if unrecognized:
            parser.error(f"unrecognized arguments: {' '.join(unrecognized)}")
        if args.size is not None and args.screenshot is None:
            parser.error("--size is the size of a --screenshot: give --screenshot OUT.png too")
        args.command = None
        from blurapp.logs import configure_logging  # not for --help, as above

        configure_logging(args.verbose)
    if isinstance(sys.stdout, io.TextIOWrapper):
        # A terminal that cannot show a character (an ASCII or Latin-1 locale, a × or the
        # U+FFFD of a name that is not UTF-8) gets a replacement, not a traceback at the end.
        sys.stdout.reconfigure(errors="replace")
    if args.command is not None:
        # The window keeps the system's handling; a command cleans up and ends as for Ctrl+C.
        # SIGINT stays as inherited: ignored in a background job started with it ignored.
        for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
            if signum is not None:
                signal.signal(signum, _stop_on_signal)
    try:
        if args.command is None:
            return _open_window(args)
        return args.run(args)
    except CommandFailed as error:
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
        silence_stdout()
        return 141


def _open_window(args: argparse.Namespace) -> int:
    from blurapp.ui.launch import run_window  # PySide6 and the window: only when it opens

    return run_window(
        args.image,
        screenshot=args.screenshot,
        exit_when_shown=args.exit_when_shown,
        language=args.lang,
        color=args.color,
        size=args.size,
    )


if __name__ == "__main__":
    raise SystemExit(main())
