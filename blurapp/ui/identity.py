"""Who the window is to the desktop: its name, its desktop id and its icon."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QIcon

from blurapp.core.media.sample import resource_path

APP_NAME = "BlurApp"
DESKTOP_ID = "io.github.blurapp.BlurApp"  # the .desktop and AppStream id (packaging/linux)
ICON_SIZES = (16, 22, 24, 32, 48, 64, 128, 256)


def app_icon() -> QIcon:
    """BlurApp's icon at every size it is drawn at (see resources/icons)."""
    icon = QIcon()
    for size in ICON_SIZES:
        icon.addFile(str(resource_path(f"icons/blurapp-{size}.png")), QSize(size, size))
    return icon
