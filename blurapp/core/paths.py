"""Where BlurApp keeps files of its own: the same rule Qt's QStandardPaths follows.

Its folders hold JAX's compiled programs (native code BlurApp will run) and its log, so they
are private: created with mode 0700, and one that someone else could write to is not used.
"""

from __future__ import annotations

import logging
import os
import stat
import sys
from pathlib import Path

APP_FOLDER = "blurapp"
PRIVATE_MODE = 0o700

log = logging.getLogger(__name__)


class UnsafeFolderError(OSError):
    """A folder BlurApp will not keep files in, because someone else could change them."""


def _xdg_base(variable: str, default: str) -> Path:
    # The XDG spec: a relative path in these variables is invalid and must be ignored.
    value = os.environ.get(variable, "")
    return Path(value) if os.path.isabs(value) else Path.home() / default


def _user_dir(
    override: str, xdg_variable: str, xdg_default: str, mac: tuple[str, ...], windows: str
) -> Path:
    if os.environ.get(override):
        return Path(os.environ[override]).absolute()
    if sys.platform == "darwin":
        return Path.home().joinpath("Library", *mac)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "BlurApp" / windows
    return _xdg_base(xdg_variable, xdg_default) / APP_FOLDER


def user_cache_dir() -> Path:
    """The per-user cache folder: $XDG_CACHE_HOME/blurapp (~/.cache/blurapp) on Linux.

    BLURAPP_CACHE_DIR overrides it (the tests and the benchmark use their own).
    """
    return _user_dir(
        "BLURAPP_CACHE_DIR", "XDG_CACHE_HOME", ".cache", ("Caches", "BlurApp"), "cache"
    )


def user_state_dir() -> Path:
    """The per-user state folder, for the log: $XDG_STATE_HOME/blurapp (~/.local/state/blurapp)
    on Linux. BLURAPP_STATE_DIR overrides it."""
    return _user_dir(
        "BLURAPP_STATE_DIR", "XDG_STATE_HOME", ".local/state", ("Logs", "BlurApp"), "state"
    )


def log_file_path() -> Path:
    return user_state_dir() / "blurapp.log"


def private_folder(folder: Path) -> Path:
    """`folder`, created with mode 0700 where missing, once it is known to be safe.

    Raises UnsafeFolderError when the folder, or a parent of it up to the first one the user
    does not own, belongs to someone else or can be written by group or others: whoever can
    write there could plant a compiled program or replace the log. Nothing is created inside
    an unsafe parent. Raises OSError when the folder cannot be created.
    """
    folder = folder.absolute()
    missing = []
    while not folder.exists() and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    if missing:
        _check_parents(folder)
        for folder in reversed(missing):
            folder.mkdir(mode=PRIVATE_MODE, exist_ok=True)
    check_private(folder)
    if os.stat(folder).st_mode & 0o077:  # made readable to others by an earlier version
        os.chmod(folder, PRIVATE_MODE)
    return folder


def check_private(folder: Path) -> None:
    """Raise UnsafeFolderError unless only this user can change what is in `folder`."""
    if not hasattr(os, "getuid"):  # Windows: per-user profile folders, no POSIX modes
        return
    details = os.stat(folder)
    if details.st_uid != os.getuid():
        raise UnsafeFolderError(f"{folder} belongs to another user (uid {details.st_uid})")
    if details.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise UnsafeFolderError(f"{folder} can be written by other users")
    _check_parents(folder.parent)


def _check_parents(path: Path) -> None:
    """Each parent up to and including the first one the user does not own (/home, /tmp):
    whoever can write in a parent can swap the folder below it for their own, unless the
    parent is sticky (as /tmp is), where only an entry's owner may rename it."""
    if not hasattr(os, "getuid"):
        return
    while True:
        details = os.stat(path)
        writable_by_others = details.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
        if writable_by_others and not details.st_mode & stat.S_ISVTX:
            raise UnsafeFolderError(f"{path} can be written by other users")
        if details.st_uid != os.getuid() or path.parent == path:
            return
        path = path.parent
