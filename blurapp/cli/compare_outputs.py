"""The files `compare --out-dir DIR` writes, a photo's or a clip's: each engine's output named
after the engine (numpy.png, jax.mkv), in a folder checked before the work and made after it."""

from __future__ import annotations

from pathlib import Path

from blurapp.cli.output import CommandFailed, shown


def engine_output(folder: Path, engine, extension: str) -> Path:
    """Where `engine`'s output with `extension` ('.png', '.mkv') is written in `folder`."""
    return folder / f"{engine.name}{extension}"


def folder_exists(folder: Path) -> bool:
    """Whether the output folder is there already (when it is not, it is made after the
    work, and nothing in it can be the source); CommandFailed for a path that cannot be one,
    before the work rather than after it."""
    try:
        if folder.is_dir():
            return True
        is_file = folder.exists()
    except OSError as error:  # a name too long, a loop of links
        raise CommandFailed(f"{shown(folder)}: {error.strerror or error}") from None
    if is_file:
        raise CommandFailed(f"{shown(folder)}: the output folder is a file")
    return False


def make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CommandFailed(
            f"{shown(folder)}: cannot create the folder ({error.strerror or error})"
        ) from None
