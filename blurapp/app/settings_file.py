"""The file where the window keeps what it remembers between launches: one JSON object.

Settings files get copied and shared, so what one holds is read as data and nothing else: JSON's
plain types (text, numbers, true/false, lists of them); anything else under a key is absent, with
one log line. Qt's own settings format is not used, as it turns some stored values back into
Python objects (a `@Variant` of PySide's object wrapper is a pickle), which runs code.

A settings file BlurApp cannot read (not a regular file: a FIFO would block the window's start;
too large; not UTF-8; not a JSON object; text that is not Unicode, such as a lone surrogate
escape, which it could not write back; a symlink to the user's notes) is ignored with one warning
naming it: the window runs on the defaults and never writes over it.
"""

from __future__ import annotations

import configparser
import csv
import json
import logging
import math
import os
import stat
import sys
from pathlib import Path

from blurapp.core.media.saving import OutputError, write_atomically
from blurapp.core.paths import user_config_dir, xdg_config_home

log = logging.getLogger(__name__)

SETTINGS_FILE_NAME = "settings.json"

# Far above what the window keeps (a few hundred bytes, and eight recent paths).
MAX_SETTINGS_BYTES = 1 << 20

PlainValue = str | int | float | bool | list[str] | list[int] | list[float] | list[bool]


def default_settings_path() -> Path:
    return user_config_dir() / SETTINGS_FILE_NAME


def _is_plain(value: object) -> bool:
    """Text, a finite number, true/false, or a list of them: what JSON holds and reads back."""
    if isinstance(value, float):
        return math.isfinite(value)  # 1e999 reads as infinity, which JSON cannot hold
    if isinstance(value, str):
        return _is_unicode(value)  # a lone surrogate cannot be written in UTF-8
    if isinstance(value, int | bool):
        return True
    return isinstance(value, list) and all(
        _is_plain(item) and not isinstance(item, list) for item in value
    )


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class SettingsFile:
    """The settings kept at `path`: `value(key)` (None when absent), `set_value(key, value)`,
    and `save()`, which writes the file atomically when something changed."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._values: dict[str, PlainValue] = {}
        self._changed = False
        self._writable = True
        text = self._read_text()
        if text is not None:
            self._values = self._parse(text)
        elif self._writable and not self.path.exists():
            self._values = _from_qt_settings(_qt_settings_path(self.path))
            self._changed = bool(self._values)

    def _ignore(self, problem: str) -> None:
        """A file that cannot be read as settings is someone's data: leave it as it is."""
        self._writable = False
        log.warning("the settings file %s %s; using the defaults and leaving the file as it is",
                    self.path, problem)  # fmt: skip

    def _read_text(self) -> str | None:
        try:
            # Non-blocking: opening a FIFO for reading would wait for a writer.
            handle = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        except FileNotFoundError:
            return None
        except OSError as error:
            self._ignore(f"cannot be read ({error.strerror or error})")
            return None
        with os.fdopen(handle, "rb") as file:
            details = os.fstat(file.fileno())
            if not stat.S_ISREG(details.st_mode):
                self._ignore("is not a regular file")
                return None
            if details.st_size == 0:
                return None  # an empty file (one made with `touch`) holds nothing to keep
            if details.st_size > MAX_SETTINGS_BYTES:
                self._ignore(f"is {details.st_size:,} bytes, far more than settings take")
                return None
            data = file.read(MAX_SETTINGS_BYTES + 1)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            self._ignore("is not UTF-8 text")
            return None

    def _parse(self, text: str) -> dict[str, PlainValue]:
        try:
            stored = json.loads(text, parse_constant=_no_constant)
        except (ValueError, RecursionError) as error:
            self._ignore(f"is not valid JSON ({error})")
            return {}
        if not isinstance(stored, dict):
            self._ignore("does not hold a JSON object")
            return {}
        try:
            # JSON's \ud800 escapes read as lone surrogates, which no UTF-8 file can hold: a
            # file that could not be written back as it was read.
            json.dumps(stored, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            self._ignore("holds text that is not Unicode (a lone surrogate escape)")
            return {}
        values = {}
        for key, value in stored.items():
            if _is_plain(value):
                values[key] = value
            else:
                log.warning("the setting %r in %s is not plain text, a number, true/false or a "
                            "list of them; using its default", key, self.path)  # fmt: skip
        return values

    def value(self, key: str) -> PlainValue | None:
        return self._values.get(key)

    def set_value(self, key: str, value: PlainValue) -> None:
        if not _is_plain(value):
            raise TypeError(f"a setting is plain text, a number, true/false or a list of them, "
                            f"not {value!r}")  # fmt: skip
        if isinstance(value, tuple):
            value = list(value)
        if self._values.get(key) != value:
            self._values[key] = value
            self._changed = True

    def save(self) -> None:
        """Write the settings, if any changed, through a temporary file renamed into place.
        A failure is logged: losing a window size is no reason to stop."""
        if not self._changed or not self._writable:
            return
        text = json.dumps(
            self._values, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False
        )
        text += "\n"
        # A settings file that is a symlink (to a dotfiles folder, say) is written where it
        # points, so the link stays.
        target = Path(os.path.realpath(self.path))
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, lambda file: file.write(text.encode("utf-8")))
        except (OSError, OutputError) as error:
            log.warning("the settings could not be saved to %s: %s", self.path, error)
            return
        self._changed = False


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number a setting can hold")


def _qt_settings_path(path: Path) -> Path:
    """Where versions before the JSON file kept the settings (Qt's INI file), for the default
    settings file; nowhere for any other."""
    if path != default_settings_path() or not sys.platform.startswith("linux"):
        return Path()  # elsewhere Qt kept them in the registry or a property list
    return xdg_config_home() / "BlurApp" / "BlurApp.conf"


def _from_qt_settings(path: Path) -> dict[str, PlainValue]:
    """The plain text values of an older version's Qt INI settings file, once, so an upgrade
    keeps them. Values Qt stored as objects (`@Variant`, `@ByteArray`: the window's geometry) are
    left out unread."""
    if path == Path() or not path.is_file():
        return {}
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        if path.stat().st_size > MAX_SETTINGS_BYTES:
            return {}
        parser.read_string(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, configparser.Error):
        return {}
    if not parser.has_section("General"):
        return {}
    values: dict[str, PlainValue] = {}
    for key, raw in parser.items("General"):
        text = raw.strip()
        if text.startswith('"') and text.endswith('"') and len(text) >= 2:
            text = text[1:-1]
        if text.startswith("@"):
            continue
        if key == "recent_files":
            # Qt writes a list as its items joined by ", ", each quoted when it holds one.
            items = next(csv.reader([raw.strip()], skipinitialspace=True), [])
            values[key] = [item for item in items if item and not item.startswith("@")]
            continue
        values[key] = text
    if values:
        log.info("settings read from %s, where an earlier version kept them", path)
    return values
