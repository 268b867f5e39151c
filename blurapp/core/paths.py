"""Where BlurApp keeps files of its own: the same rule Qt's QStandardPaths follows."""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_FOLDER = "blurapp"


def user_cache_dir() -> Path:
    """The per-user cache folder: $XDG_CACHE_HOME/blurapp (~/.cache/blurapp) on Linux.

    BLURAPP_CACHE_DIR overrides it (the tests and the benchmark use their own).
    """
    override = os.environ.get("BLURAPP_CACHE_DIR")
    if override:
        return Path(override)
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "BlurApp"
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "BlurApp" / "cache"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / APP_FOLDER


def user_state_dir() -> Path:
    """The per-user state folder, for the log: $XDG_STATE_HOME/blurapp (~/.local/state/blurapp)
    on Linux. BLURAPP_STATE_DIR overrides it."""
    override = os.environ.get("BLURAPP_STATE_DIR")
    if override:
        return Path(override)
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Logs" / "BlurApp"
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "BlurApp" / "state"
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / APP_FOLDER


def log_file_path() -> Path:
    return user_state_dir() / "blurapp.log"
