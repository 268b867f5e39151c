"""Where BlurApp keeps files of its own: each system's per-user folders, as platformdirs
knows them (the XDG base directories on Linux, Local AppData on Windows, ~/Library on macOS).

Its folders hold JAX's compiled programs (native code BlurApp will run) and its log, so they
are private: created with mode 0700, and one that someone else could write to is not used.
"""

from __future__ import annotations

import logging
import os
import stat
import sys
from pathlib import Path
from typing import Literal

APP_FOLDER = "blurapp"
PRIVATE_MODE = 0o700

Kind = Literal["cache", "config", "state"]

log = logging.getLogger(__name__)


class UnsafeFolderError(OSError):
    """A folder BlurApp will not keep files in, because someone else could change them."""


def _user_dir(override: str, kind: Kind) -> Path:
    value = os.environ.get(override)
    if value and os.path.isabs(value):
        return Path(value)
    if value:
        # Relative, it would name a different folder wherever BlurApp is started (as the XDG
        # variables would, which are ignored then too).
        _warn_once(f"{override}={value} is not an absolute path; it is ignored")
    return _platform_folder(kind)


def _platform_folder(kind: Kind) -> Path:
    """The folder of `kind` where BlurApp has always kept it.

    platformdirs knows each system's rule; where its folder for a kind differs from the one
    BlurApp used before, BlurApp keeps its own so that a user's settings, log and compiled
    programs stay where they are.
    """
    if sys.platform == "darwin":
        from platformdirs.macos import MacOS

        folders = MacOS("BlurApp")
        if kind == "cache":
            # Apple's folder whatever $XDG_CACHE_HOME says (Qt's rule), where platformdirs
            # would take the XDG variable first and the compiled programs would be left behind.
            return Path.home() / "Library" / "Caches" / "BlurApp"
        # Not platformdirs' config folder (Application Support): BlurApp's settings have
        # always been in Preferences.
        return folders.user_preference_path if kind == "config" else folders.user_log_path
    if sys.platform == "win32":
        from platformdirs.windows import Windows

        # One BlurApp folder in Local AppData, found through Windows' known folders, with a
        # folder of BlurApp's own naming for each kind (platformdirs would put the settings
        # and the log in the BlurApp folder itself, and the cache in "Cache").
        base = Windows("BlurApp", appauthor=False, roaming=False).user_data_path
        return base / kind
    from platformdirs.unix import Unix

    # The XDG base directories, a relative $XDG_*_HOME ignored as the spec asks.
    folders = Unix(APP_FOLDER)
    return {
        "cache": folders.user_cache_path,
        "config": folders.user_config_path,
        "state": folders.user_state_path,
    }[kind]


_warned: set[str] = set()


def _warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        log.warning("%s", message)


def user_cache_dir() -> Path:
    """The per-user cache folder: $XDG_CACHE_HOME/blurapp (~/.cache/blurapp) on Linux.

    BLURAPP_CACHE_DIR overrides it (the tests and the benchmark use their own).
    """
    return _user_dir("BLURAPP_CACHE_DIR", "cache")


def user_config_dir() -> Path:
    """The per-user settings folder: $XDG_CONFIG_HOME/blurapp (~/.config/blurapp) on Linux.
    BLURAPP_CONFIG_DIR overrides it."""
    return _user_dir("BLURAPP_CONFIG_DIR", "config")


def xdg_config_home() -> Path:
    """$XDG_CONFIG_HOME, or ~/.config where it is unset or relative."""
    from platformdirs.unix import Unix

    return Unix().user_config_path


def user_state_dir() -> Path:
    """The per-user state folder, for the log: $XDG_STATE_HOME/blurapp (~/.local/state/blurapp)
    on Linux. BLURAPP_STATE_DIR overrides it."""
    return _user_dir("BLURAPP_STATE_DIR", "state")


def log_file_path() -> Path:
    return user_state_dir() / "blurapp.log"


def private_folder(folder: Path) -> Path:
    """`folder`, created with mode 0700 where missing, once it is known to be safe; returned
    as its real path (symlinks resolved), which is the one to use from then on.

    Raises UnsafeFolderError when the folder is not the user's own, or when anyone but the
    user and root could change it or any folder above it: they could plant a compiled program
    or replace the log. Nothing is created inside an unsafe folder. Raises OSError when the
    folder cannot be created. On Windows no check is made (no POSIX owners and modes).
    """
    if not hasattr(os, "getuid"):
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    real = Path(os.path.realpath(folder))
    missing = []
    existing = real
    while not existing.exists():
        missing.append(existing)
        existing = existing.parent
    _check_ancestors(existing if missing else real.parent)
    for path in reversed(missing):
        # Inside folders only the user and root can write, nobody can slip one in meanwhile.
        path.mkdir(mode=PRIVATE_MODE, exist_ok=True)
    _check_own(real)
    if os.stat(real).st_mode & 0o077:  # made readable to others by an earlier version
        os.chmod(real, PRIVATE_MODE)
    return real


def check_private(folder: Path) -> None:
    """Raise UnsafeFolderError unless only this user (and root) can change what is in
    `folder`: the rule OpenSSH applies to the files it trusts."""
    if hasattr(os, "getuid"):
        real = Path(os.path.realpath(folder))
        _check_own(real)
        _check_ancestors(real.parent)


def _fix(path: Path) -> str:
    return f"make it yours and writable only by you (chmod go-w {path}), or choose another folder"


def _check_own(folder: Path) -> None:
    details = os.lstat(folder)
    if details.st_uid != os.getuid() or not stat.S_ISDIR(details.st_mode):
        raise UnsafeFolderError(f"{folder} is not a folder of your own; {_fix(folder)}")
    if details.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise UnsafeFolderError(f"{folder} can be written by other users; {_fix(folder)}")


def _check_ancestors(path: Path) -> None:
    """`path` and every folder above it: owned by the user or root, and not writable by
    others unless sticky (as /tmp is), where only an entry's owner may rename it."""
    for ancestor in (path, *path.parents):
        details = os.stat(ancestor)
        if details.st_uid not in (os.getuid(), 0):
            raise UnsafeFolderError(
                f"{ancestor} belongs to another user (uid {details.st_uid}), who could swap "
                "the folders inside it"
            )
        writable_by_others = details.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
        if writable_by_others and not details.st_mode & stat.S_ISVTX:
            raise UnsafeFolderError(f"{ancestor} can be written by other users; {_fix(ancestor)}")
