"""What the window remembers between launches, in one table of defaults.

Every value goes through `read_setting` and `write_setting`: an unknown key is a bug and raises
KeyError; a stored value that does not pass its check (a file edited by hand, or written by an
older version) reads as its default, with one log line, and writing a bad value raises
ValueError. The file itself is blurapp.app.settings_file's: plain JSON, never Qt's variants.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from PySide6.QtCore import QByteArray, QRect, QSize, QStandardPaths
from PySide6.QtGui import QGuiApplication

from blurapp.app.session import DEFAULT_PANE_ENGINES, offered_engine
from blurapp.app.settings_file import PlainValue, SettingsFile, default_settings_path
from blurapp.app.window_placement import Frame, Rect, window_rect
from blurapp.core.engines import DEFAULT_ENGINES, REFERENCE_ENGINE
from blurapp.core.kernel import (
    DEFAULT_ALGORITHM,
    DEFAULT_KERNEL_SIZE,
    DEFAULT_SIGMA,
    check_algorithm,
    check_kernel_size,
    check_sigma,
)
from blurapp.core.media.sample import sample_photo_path
from blurapp.core.spec import BlurSpec

if TYPE_CHECKING:
    from blurapp.app.session import Session


class SavesGeometry(Protocol):
    def geometry_to_save(self) -> QByteArray: ...


class RememberingWindow(Protocol):
    """What a window's settings are read into and saved from."""

    settings: SettingsFile
    session: Session

    # blurapp.ui.presentation's, which knows the geometry to keep; read-only here, so that the
    # window's Presentation is one.
    @property
    def presentation(self) -> SavesGeometry: ...

    def restoreGeometry(self, geometry: QByteArray) -> bool: ...

    def geometry(self) -> QRect: ...

    def frameGeometry(self) -> QRect: ...

    def setGeometry(self, rect: QRect, /) -> None: ...

    def minimumSize(self) -> QSize: ...

    def isMaximized(self) -> bool: ...

    def setMinimumSize(self, width: int, height: int, /) -> None: ...

    def winId(self) -> int: ...

    def set_parameters(self, **changes: object) -> None: ...

    def set_panes_stacked(self, stacked: bool) -> None: ...

    def panes_stacked(self) -> bool: ...

    def set_detail_shown(self, shown: bool) -> None: ...

    def detail_shown(self) -> bool: ...


log = logging.getLogger(__name__)

MAX_RECENT_FILES = 8

# A path whose bytes are not UTF-8 cannot go into the settings file as text: it is stored as
# this prefix and the bytes in hex.
RAW_PATH_PREFIX = "bytes:"


def path_to_setting(path: str | os.PathLike[str]) -> str:
    text = os.fspath(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return RAW_PATH_PREFIX + os.fsencode(text).hex()
    return text


def path_from_setting(value: object) -> str | None:
    if not isinstance(value, str) or not value:
        return None
    if value.startswith(RAW_PATH_PREFIX):
        try:
            return os.fsdecode(bytes.fromhex(value.removeprefix(RAW_PATH_PREFIX)))
        except ValueError:
            return None
    return value


def _path(value: object) -> str | None:
    if value is None:
        return None
    path = path_from_setting(value)
    if path is None:
        raise ValueError(f"not a path: {value!r}")
    return path


def _paths(value: Any) -> tuple[str, ...]:
    """A list of paths; anything else raises ValueError or TypeError."""
    if isinstance(value, str):  # Qt's settings of earlier versions: a lone string for one
        value = [value]
    # The file's lists hold no None, and _path makes None of None only.
    return tuple(cast(str, _path(item)) for item in value or [])[:MAX_RECENT_FILES]


def _engines(value: Any) -> tuple[str, ...]:
    """'numpy,jax' (or a list) → the names of engines the window offers (no 'jax@cpu': the
    panes do not list it); raises ValueError otherwise."""
    given = value.split(",") if isinstance(value, str) else list(value or [])
    names = tuple(offered_engine(str(name).strip()) for name in given if str(name).strip())
    if not names:
        raise ValueError("no engines")
    return names


def _pane_engines(value: object) -> tuple[str, ...]:
    names = _engines(value)
    if len(names) != len(DEFAULT_PANE_ENGINES):
        raise ValueError(f"one engine per pane, not {names!r}")
    return names


def _geometry(value: object) -> QByteArray:
    """The window's saved geometry, kept as Base64 text."""
    if not isinstance(value, str):
        raise ValueError("not a saved geometry")
    geometry = QByteArray.fromBase64(value.encode("ascii", "replace"))
    if geometry.isEmpty():
        raise ValueError("not a saved geometry")
    return geometry


def _geometry_text(geometry: object) -> str:
    if not isinstance(geometry, QByteArray):
        raise ValueError("not a window geometry")
    return bytes(geometry.toBase64().data()).decode("ascii")


def _switch(value: object) -> bool:
    """On or off: an earlier version's Qt settings kept a bool as the text 'true' or 'false'."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in {"true", "false"}:
        return value.lower() == "true"
    raise ValueError(f"not on or off: {value!r}")


def _joined(names: tuple[str, ...]) -> str:
    return ",".join(names)


@dataclass(frozen=True)
class Setting:
    # Each setting's check and store take values of its own type (a kernel size, engines' names).
    default: object
    check: Callable[[Any], object]  # the stored value → the value to use; ValueError if bad
    store: Callable[[Any], PlainValue] = lambda value: value  # the value → what the file keeps


SETTINGS: dict[str, Setting] = {
    "geometry": Setting(QByteArray(), _geometry, _geometry_text),
    "kernel_size": Setting(DEFAULT_KERNEL_SIZE, lambda v: check_kernel_size(str(v)), str),
    "sigma": Setting(DEFAULT_SIGMA, check_sigma),
    "algorithm": Setting(DEFAULT_ALGORITHM, check_algorithm),
    "pane_engines": Setting(DEFAULT_PANE_ENGINES, _pane_engines, _joined),
    "timed_engines": Setting(DEFAULT_ENGINES, _engines, _joined),
    "live_preview": Setting(True, _switch),
    "color": Setting(False, _switch),
    "panes_stacked": Setting(False, _switch),  # the panes one above the other
    "detail_inset": Setting(True, _switch),  # View ▸ Detail at 100%
    "last_folder": Setting(None, _path, lambda p: path_to_setting(p) if p else ""),
    "last_save_folder": Setting(None, _path, lambda p: path_to_setting(p) if p else ""),
    "recent_files": Setting((), _paths, lambda paths: [path_to_setting(p) for p in paths]),
}


def default_settings() -> SettingsFile:
    return SettingsFile(default_settings_path())


def read_setting(settings: SettingsFile, key: str):
    """The value stored under `key`, checked; its default when there is none or it is bad."""
    setting = SETTINGS[key]
    value = settings.value(key)
    if value is None or value == "" or value == []:
        return setting.default
    try:
        return setting.check(value)
    except (ValueError, TypeError) as error:  # InvalidKernelError, UnknownEngineError too
        log.warning("the setting %r in %s is not usable (%s); using its default",
                    key, settings.path, error)  # fmt: skip
        return setting.default


def write_setting(settings: SettingsFile, key: str, value: object) -> None:
    """Store `value` under `key`; raises KeyError for a key not in SETTINGS, ValueError for a
    value its check refuses."""
    setting = SETTINGS[key]
    stored = setting.store(value) if value is not None else ""
    if stored != "":
        setting.check(stored)
    settings.set_value(key, stored)


def open_folder(settings: SettingsFile) -> Path:
    """Where File ▸ Open starts: the last folder a photo came from, else the Pictures folder
    (never the bundled sample's folder, deep inside the installation)."""
    last = read_setting(settings, "last_folder")
    bundled = sample_photo_path().parent.resolve()
    if last is not None and Path(last).is_dir() and Path(last).resolve() != bundled:
        return Path(last)
    pictures = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.PicturesLocation)
    return Path(pictures) if pictures and Path(pictures).is_dir() else Path.home()


def restore_window_settings(window: RememberingWindow) -> None:
    """Give `window` the geometry, parameters, engines and live preview it had last."""
    settings, session = window.settings, window.session
    geometry = read_setting(settings, "geometry")
    # Qt refuses a geometry saved on a screen of another size (restoreGeometry returns False):
    # the window then opens as with fresh settings.
    restored = isinstance(geometry, QByteArray) and not geometry.isEmpty()
    restored = restored and window.restoreGeometry(geometry)
    place_on_screen(window, window.geometry() if restored else None)
    parameters = BlurSpec(
        kernel_size=read_setting(settings, "kernel_size"),
        sigma=read_setting(settings, "sigma"),
        algorithm=read_setting(settings, "algorithm"),
        color=read_setting(settings, "color"),
    )
    window.set_parameters(**vars(parameters))
    for index, engine in enumerate(read_setting(settings, "pane_engines")):
        session.set_pane_engine(index, engine)
    session.set_timed_engines(read_setting(settings, "timed_engines"))
    session.set_live(read_setting(settings, "live_preview"))
    window.set_panes_stacked(read_setting(settings, "panes_stacked"))
    window.set_detail_shown(read_setting(settings, "detail_inset"))


def _rect(rect: QRect) -> Rect:
    return Rect(rect.x(), rect.y(), rect.width(), rect.height())


def place_on_screen(window: RememberingWindow, saved: QRect | None) -> None:
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


def save_window_settings(window: RememberingWindow) -> None:
    settings, session = window.settings, window.session
    parameters = session.parameters
    write_setting(settings, "geometry", window.presentation.geometry_to_save())
    write_setting(settings, "sigma", parameters.sigma)
    write_setting(settings, "kernel_size", parameters.kernel_size)
    write_setting(settings, "algorithm", parameters.algorithm)
    write_setting(settings, "color", parameters.color)
    write_setting(settings, "pane_engines", tuple(session.pane_engines))
    write_setting(settings, "timed_engines", session.timed or (REFERENCE_ENGINE,))
    write_setting(settings, "live_preview", session.live)
    write_setting(settings, "panes_stacked", window.panes_stacked())
    write_setting(settings, "detail_inset", window.detail_shown())
    settings.save()
