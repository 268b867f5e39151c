"""Whether the window has a screen to open on, told from the environment alone: the command
line asks before it imports Qt, and the window before Qt could abort the process."""

from __future__ import annotations

import os
import sys


def has_display() -> bool:
    """Whether an X or a Wayland display is named."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def no_screen_for_the_window() -> bool:
    """Whether the window has nowhere to open: on Linux, no display named and no Qt platform
    chosen (QT_QPA_PLATFORM=offscreen, say), where Qt would abort the process with a core dump."""
    return (
        sys.platform.startswith("linux")
        and not has_display()
        and "QT_QPA_PLATFORM" not in os.environ
    )
