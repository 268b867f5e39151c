"""What the window remembers between launches, without Qt: WindowSettings, one value with a
default for each setting, read and written here and nowhere else.

`read_settings` checks each stored value: one that does not pass (a file edited by hand, or
written by an older version) reads as its default, with one log line. `write_settings` stores
what differs from the file, and raises ValueError for a value its check refuses. The file
itself is blurapp.app.settings_file's: plain JSON, never Qt's variants. What the window does
with them (its place on the screens, the folder File ▸ Open starts in) is blurapp.ui.settings'.
"""

from __future__ import annotations

import base64
import dataclasses
import logging
import os
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from blurapp.app.session import DEFAULT_PANE_ENGINES, Session, offered_engine
from blurapp.app.settings_file import PlainValue, SettingsFile, default_settings_path
from blurapp.core.engines import DEFAULT_ENGINES, REFERENCE_ENGINE
from blurapp.core.kernel import (
    DEFAULT_ALGORITHM,
    DEFAULT_KERNEL_SIZE,
    DEFAULT_SIGMA,
    Algorithm,
    KernelSize,
    check_algorithm,
    check_kernel_size,
    check_sigma,
)
from blurapp.core.spec import BlurSpec

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


def _geometry(value: object) -> bytes:
    """The window's saved geometry (Qt's saveGeometry()), kept as Base64 text."""
    if not isinstance(value, str):
        raise ValueError("not a saved geometry")
    geometry = base64.b64decode(value.encode("ascii", "replace"))  # binascii.Error: ValueError
    if not geometry:
        raise ValueError("not a saved geometry")
    return geometry


def _geometry_text(geometry: object) -> str:
    if not isinstance(geometry, bytes):
        raise ValueError("not a window geometry")
    return base64.b64encode(geometry).decode("ascii")


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
class _Kept:
    """How a setting is kept in the file: `check` takes the stored value to the value to use
    (ValueError or TypeError if it is bad), `store` the value to what the file keeps."""

    # Each setting's check and store take values of its own type (a kernel size, engines' names).
    check: Callable[[Any], object]
    store: Callable[[Any], PlainValue] = lambda value: value


def _setting(default: Any, check: Callable[[Any], object], store: Any = None) -> Any:
    """A field of WindowSettings: its default, and how the file keeps it."""
    kept = _Kept(check) if store is None else _Kept(check, store)
    return field(default=default, metadata={"kept": kept})


def _kernel_size(value: object) -> KernelSize:
    return check_kernel_size(str(value))


def _folder_text(path: str | None) -> str:
    return path_to_setting(path) if path else ""


@dataclass(frozen=True)
class WindowSettings:
    """What the window remembers between launches; each field's default is what a window with
    fresh settings has."""

    geometry: bytes = _setting(b"", _geometry, _geometry_text)  # Qt's saveGeometry()
    kernel_size: KernelSize = _setting(DEFAULT_KERNEL_SIZE, _kernel_size, str)
    sigma: float = _setting(DEFAULT_SIGMA, check_sigma)
    algorithm: Algorithm = _setting(DEFAULT_ALGORITHM, check_algorithm)
    pane_engines: tuple[str, ...] = _setting(DEFAULT_PANE_ENGINES, _pane_engines, _joined)
    timed_engines: tuple[str, ...] = _setting(DEFAULT_ENGINES, _engines, _joined)
    live_preview: bool = _setting(True, _switch)
    color: bool = _setting(False, _switch)
    panes_stacked: bool = _setting(False, _switch)  # the panes one above the other
    detail_inset: bool = _setting(True, _switch)  # View ▸ Detail at 100%
    last_folder: str | None = _setting(None, _path, _folder_text)  # where File ▸ Open starts
    last_save_folder: str | None = _setting(None, _path, _folder_text)  # Save Results' start
    recent_files: tuple[str, ...] = _setting(  # File ▸ Open Recent, newest first
        (), _paths, lambda paths: [path_to_setting(p) for p in paths]
    )

    def parameters(self) -> BlurSpec:
        """The parameters remembered, as one value."""
        return BlurSpec(
            kernel_size=self.kernel_size,
            sigma=self.sigma,
            algorithm=self.algorithm,
            color=self.color,
        )


def with_session(remembered: WindowSettings, session: Session) -> WindowSettings:
    """`remembered`, with what `session` has now: its parameters, the panes' engines, the
    engines timed (the reference engine at least) and the live preview."""
    parameters = session.parameters
    return dataclasses.replace(
        remembered,
        sigma=parameters.sigma,
        kernel_size=parameters.kernel_size,
        algorithm=parameters.algorithm,
        color=parameters.color,
        pane_engines=tuple(session.pane_engines),
        timed_engines=session.timed or (REFERENCE_ENGINE,),
        live_preview=session.live,
    )


_DEFAULTS = WindowSettings()


def default_settings() -> SettingsFile:
    return SettingsFile(default_settings_path())


# The unusable values already told of, by file: the window reads its settings whole at start,
# on each photo opened and each save, and a value it cannot use is one log line, not one a read.
_told: weakref.WeakKeyDictionary[SettingsFile, set[str]] = weakref.WeakKeyDictionary()


def _read(settings: SettingsFile, setting: dataclasses.Field, *, quiet: bool = False) -> Any:
    default = getattr(_DEFAULTS, setting.name)
    value = settings.value(setting.name)
    if value is None or value == "" or value == []:
        return default
    try:
        return setting.metadata["kept"].check(value)
    except (ValueError, TypeError) as error:  # InvalidKernelError, UnknownEngineError too
        told = _told.setdefault(settings, set())
        if not quiet and setting.name not in told:
            told.add(setting.name)
            log.warning("the setting %r in %s is not usable (%s); using its default",
                        setting.name, settings.path, error)  # fmt: skip
        return default


def read_settings(settings: SettingsFile) -> WindowSettings:
    """What `settings` holds, each value checked; a default where there is none or it is bad
    (with a log line)."""
    fields = dataclasses.fields(WindowSettings)
    return WindowSettings(**{setting.name: _read(settings, setting) for setting in fields})


def write_settings(settings: SettingsFile, changed: WindowSettings) -> None:
    """Store each value of `changed` that the file does not hold already (a default it never
    held is left out: it reads as the default all the same); raises ValueError for a value its
    check refuses, before anything is stored."""
    stores = {}
    for setting in dataclasses.fields(WindowSettings):
        kept: _Kept = setting.metadata["kept"]
        value, held = getattr(changed, setting.name), settings.value(setting.name)
        text = kept.store(value) if value is not None else ""
        if value == _read(settings, setting, quiet=True) and (held is None or held == text):
            continue
        if text != "":
            kept.check(text)
        stores[setting.name] = text
    for name, text in stores.items():
        settings.set_value(name, text)
