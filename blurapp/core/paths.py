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
    value = os.environ.get(override)
    if value and os.path.isabs(value):
        return Path(value)
    if value:
        # Relative, it would name a different folder wherever BlurApp is started (as the XDG
        # variables would, which are ignored then too).
        _warn_once(f"{override}={value} is not an absolute path; it is ignored")
    if sys.platform == "darwin":
        return Path.home().joinpath("Library", *mac)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "BlurApp" / windows
    return _xdg_base(xdg_variable, xdg_default) / APP_FOLDER


_warned: set[str] = set()


def _warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        log.warning("%s", message)


def user_cache_dir() -> Path:
    """The per-user cache folder: $XDG_CACHE_HOME/blurapp (~/.cache/blurapp) on Linux.

    BLURAPP_CACHE_DIR overrides it (the tests and the benchmark use their own).
    """
    return _user_dir(
        "BLURAPP_CACHE_DIR", "XDG_CACHE_HOME", ".cache", ("Caches", "BlurApp"), "cache"
    )


def user_config_dir() -> Path:
    """The per-user settings folder: $XDG_CONFIG_HOME/blurapp (~/.config/blurapp) on Linux.
    BLURAPP_CONFIG_DIR overrides it."""
    return _user_dir(
        "BLURAPP_CONFIG_DIR", "XDG_CONFIG_HOME", ".config", ("Preferences", "BlurApp"), "config"
    )


def xdg_config_home() -> Path:
    return _xdg_base("XDG_CONFIG_HOME", ".config")


def user_state_dir() -> Path:
    """The per-user state folder, for the log: $XDG_STATE_HOME/blurapp (~/.local/state/blurapp)
    on Linux. BLURAPP_STATE_DIR overrides it."""
    return _user_dir(
        "BLURAPP_STATE_DIR", "XDG_STATE_HOME", ".local/state", ("Logs", "BlurApp"), "state"
    )


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
