"""Folders of their own for the processes the bench launches (BlurApp's windows, commands and
probes), so that none of them reads or writes the user's."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator, Mapping

# BlurApp's own folders (blurapp.core.paths), which win over the XDG ones where the caller's
# environment sets them.
_BLURAPP_FOLDERS = {
    "BLURAPP_CONFIG_DIR": "XDG_CONFIG_HOME",
    "BLURAPP_CACHE_DIR": "XDG_CACHE_HOME",
    "BLURAPP_STATE_DIR": "XDG_STATE_HOME",
}


@contextlib.contextmanager
def own_folders(env: Mapping[str, str] | None = None) -> Iterator[dict[str, str]]:
    """`env` (this process's environment by default) with settings, cache and state folders
    of its own, removed after: a launch never writes its window's offscreen geometry into the
    user's settings, its compiled programs or the fonts' cache (fontconfig's, where the system
    has none) into the user's cache, or its log into the user's state folder; and each
    section starts with an empty cache."""
    with tempfile.TemporaryDirectory(prefix="blurapp-bench-home-") as home:
        own = {}
        for variable in _BLURAPP_FOLDERS.values():
            own[variable] = os.path.join(home, variable.lower())
            os.mkdir(own[variable], 0o700)
        for variable, xdg in _BLURAPP_FOLDERS.items():
            own[variable] = os.path.join(own[xdg], "blurapp")
        yield {**(os.environ if env is None else env), **own}
