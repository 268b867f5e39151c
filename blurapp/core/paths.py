"""Where BlurApp keeps files of its own: the same rule Qt's QStandardPaths follows."""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_FOLDER = "blurapp"


def _user_dir(
    override: str, xdg_variable: str, xdg_default: str, mac: tuple[str, ...], windows: str
) -> Path:
    if os.environ.get(override):
        return Path(os.environ[override])
    if sys.platform == "darwin":
        return Path.home().joinpath("Library", *mac)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "BlurApp" / windows
    return Path(os.environ.get(xdg_variable) or Path.home() / xdg_default) / APP_FOLDER


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
