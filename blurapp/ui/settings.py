"""What the window does with what it remembers between launches (blurapp.app.window_settings):
its geometry, parameters, engines and views restored and saved, its place on the screens, and
the folder File ▸ Open starts in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QRect, QStandardPaths
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow

from blurapp.app.settings_file import SettingsFile
from blurapp.app.window_placement import Frame, Rect, window_rect
from blurapp.app.window_settings import (
    WindowSettings,
    read_settings,
    with_session,
    write_settings,
)
from blurapp.core.media.sample import sample_photo_path

if TYPE_CHECKING:
    from blurapp.app.session import Session
    from blurapp.app.window_controller import WindowController


def open_folder(settings: SettingsFile) -> Path:
    """Where File ▸ Open starts: the last folder a photo came from, else the Pictures folder
    (never the bundled sample's folder, deep inside the installation)."""
    last = read_settings(settings).last_folder
    bundled = sample_photo_path().parent.resolve()
    if last is not None and Path(last).is_dir() and Path(last).resolve() != bundled:
        return Path(last)
    pictures = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.PicturesLocation)
    return Path(pictures) if pictures and Path(pictures).is_dir() else Path.home()


def restore_window_settings(
    window: QMainWindow,
    settings: SettingsFile,
    controller: WindowController,
    set_parameters: Callable[..., None],
) -> WindowSettings:
    """Give `window` the geometry and place it had last, and its `controller` the parameters
    (set as the user would set them, by `set_parameters`), engines and live preview; returns
    what `settings` remembered, for the views the window has."""
    remembered = read_settings(settings)
    # Qt refuses a geometry saved on a screen of another size (restoreGeometry returns False):
    # the window then opens as with fresh settings.
    restored = bool(remembered.geometry) and window.restoreGeometry(QByteArray(remembered.geometry))
    place_on_screen(window, window.geometry() if restored else None)
    set_parameters(**vars(remembered.parameters()))
    for index, engine in enumerate(remembered.pane_engines):
        controller.set_pane_engine(index, engine)
    controller.set_timed_engines(remembered.timed_engines)
    controller.set_live(remembered.live_preview)
    return remembered


def _rect(rect: QRect) -> Rect:
    return Rect(rect.x(), rect.y(), rect.width(), rect.height())


def place_on_screen(window: QMainWindow, saved: QRect | None) -> None:
    """Give `window` the place app.window_placement decides for it from the screens' available
    areas (the primary screen first) and `saved`, where it was last (None: fresh settings). A
    maximised window is left to the screen it fills."""
    if window.isMaximized():
        return
    primary = QGuiApplication.primaryScreen()
    screens = [primary, *(s for s in QGuiApplication.screens() if s is not primary)]
    # The frame, as far as the platform knows it before the window is shown: its native window
    # made first. (A window manager's title bar is known only once it is drawn.)
    window.winId()
    inner, outer = window.geometry(), window.frameGeometry()
    frame = Frame(
        left=inner.left() - outer.left(),
        top=inner.top() - outer.top(),
        right=outer.right() - inner.right(),
        bottom=outer.bottom() - inner.bottom(),
    )
    minimum = window.minimumSize()
    rect = window_rect(
        [_rect(screen.availableGeometry()) for screen in screens],
        _rect(saved) if saved is not None else None,
        minimum=(minimum.width(), minimum.height()),
        frame=frame,
    )
    # A screen smaller than the window's least size: the screen wins.
    window.setMinimumSize(min(minimum.width(), rect.width), min(minimum.height(), rect.height))
    window.setGeometry(QRect(rect.x, rect.y, rect.width, rect.height))


def save_window_settings(
    settings: SettingsFile,
    session: Session,
    geometry: QByteArray,
    *,
    panes_stacked: bool,
    detail_inset: bool,
) -> None:
    """Write what the window remembers into `settings`: `session`'s parameters, engines and
    live preview, the window's `geometry` (Qt's saveGeometry()) and its views."""
    remembered = dataclasses.replace(
        with_session(read_settings(settings), session),
        geometry=bytes(geometry.data()),
        panes_stacked=panes_stacked,
        detail_inset=detail_inset,
    )
    write_settings(settings, remembered)
    settings.save()
