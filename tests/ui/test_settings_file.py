"""The window's settings file: plain data only, read without blocking, never written over when it
is not a regular file, and an earlier version's Qt settings kept without running what they hold."""

import json
import logging
import os

import pytest
from helpers.window_settings import change_settings
from PySide6.QtCore import QSettings

from blurapp.app.settings_file import SettingsFile, default_settings_path
from blurapp.app.window_settings import read_settings
from blurapp.core.kernel import DEFAULT_SIGMA


class _MakesAFolder:
    """What an attacker would store: unpickling it calls os.mkdir (os.system in the wild)."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return os.mkdir, (self.marker,)


@pytest.fixture
def own_config_home(tmp_path, monkeypatch):
    home = tmp_path / "config"
    home.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    monkeypatch.delenv("BLURAPP_CONFIG_DIR", raising=False)
    return home


def _qt_settings_holding_a_pickle(home, marker):
    """BlurApp.conf as PySide6's QSettings writes it for a Python object under 'sigma'."""
    path = home / "BlurApp" / "BlurApp.conf"
    qt = QSettings(str(path), QSettings.Format.IniFormat)
    qt.setValue("sigma", _MakesAFolder(marker))
    qt.setValue("kernel_size", "15")
    qt.sync()
    assert "@Variant(" in path.read_text(errors="replace")
    return path


def test_a_settings_file_holding_a_python_object_runs_nothing(
    qtbot, tmp_path, own_config_home, caplog
):
    from blurapp.ui.main_window import MainWindow

    marker = tmp_path / "ran"
    _qt_settings_holding_a_pickle(own_config_home, marker)
    window = MainWindow()  # the user's own settings: those of this test's XDG_CONFIG_HOME
    qtbot.addWidget(window)
    try:
        assert window.session.parameters.sigma == DEFAULT_SIGMA
        assert window.session.parameters.kernel_size == 15  # the plain values are kept
    finally:
        window.close()
    assert not marker.exists()
    saved = json.loads(default_settings_path().read_text())
    assert saved["kernel_size"] == "15" and "@Variant" not in json.dumps(saved)


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        '{"sigma": 3.0, "kernel_size": "9",}',  # a trailing comma, as a hand edit leaves
        "[1, 2]",
        '{"sigma": NaN}',
        "\xff\xfe",
        "{" * 100_000,
        '{"sigma": 3.0, "notes": "' + "x" * 2_000_000 + '"}',  # 2 MB
        # Valid JSON whose text is no Unicode: a lone surrogate escape, in a value or a key.
        '{"sigma": 3.0, "note": "caf\\ud800"}',
        '{"sigma": 3.0, "caf\\udfff": 1}',
    ],
    ids=[
        "text",
        "trailing-comma",
        "list",
        "nan",
        "not-utf8",
        "deep",
        "2MB",
        "lone-surrogate",
        "lone-surrogate-key",
    ],
)
def test_a_settings_file_blurapp_cannot_read_is_left_as_it_is_with_one_warning(
    qtbot, tmp_path, caplog, text
):
    from blurapp.ui.main_window import MainWindow

    path = tmp_path / "settings.json"
    path.write_bytes(text.encode("latin-1"))
    before = path.read_bytes()
    with caplog.at_level(logging.WARNING):
        window = MainWindow(SettingsFile(path))
        qtbot.addWidget(window)
        assert window.session.parameters.sigma == DEFAULT_SIGMA
        window.widgets.sigma_slider.setValue(
            window.widgets.sigma_slider.value() + 3
        )  # something to save
        window.close()  # saves the settings: never over a file that could not be read
    assert path.read_bytes() == before
    warnings = [r.getMessage() for r in caplog.records if str(path) in r.getMessage()]
    assert len(warnings) == 1 and "leaving the file as it is" in warnings[0]


def test_a_settings_file_that_links_to_the_users_notes_is_left_alone(tmp_path, caplog):
    notes = tmp_path / "notes.txt"
    notes.write_text("buy milk\nthe blur demo is on Tuesday\n")
    link = tmp_path / "settings.json"
    link.symlink_to(notes)
    with caplog.at_level(logging.WARNING):
        settings = SettingsFile(link)
    change_settings(settings, sigma=3.5)
    settings.save()
    assert link.is_symlink()
    assert notes.read_text() == "buy milk\nthe blur demo is on Tuesday\n"
    assert [str(link) in r.getMessage() for r in caplog.records] == [True]


def test_a_settings_file_that_is_a_fifo_is_ignored_and_left_alone(qtbot, tmp_path, caplog):
    from blurapp.ui.main_window import MainWindow

    path = tmp_path / "settings.json"
    os.mkfifo(path)
    with caplog.at_level(logging.WARNING):
        window = MainWindow(SettingsFile(path))  # opening it must not wait for a writer
    qtbot.addWidget(window)
    window.close()  # saves the settings: never into or over the FIFO
    assert path.is_fifo()
    assert any("not a regular file" in r.getMessage() and str(path) in r.getMessage()
               for r in caplog.records)  # fmt: skip


def test_a_settings_file_that_is_a_symlink_is_written_where_it_points(tmp_path):
    target = tmp_path / "dotfiles" / "blurapp.json"
    target.parent.mkdir()
    target.write_text('{"sigma": 2.0}')
    link = tmp_path / "settings.json"
    link.symlink_to(target)
    settings = SettingsFile(link)
    change_settings(settings, sigma=3.0)
    settings.save()
    assert link.is_symlink() and json.loads(target.read_text()) == {"sigma": 3.0}


def test_recent_files_of_an_earlier_version_keep_names_with_commas(tmp_path, own_config_home):
    path = own_config_home / "BlurApp" / "BlurApp.conf"
    qt = QSettings(str(path), QSettings.Format.IniFormat)
    qt.setValue("recent_files", ["/p/a, b.png", "/p/é.png"])
    qt.sync()
    settings = SettingsFile(default_settings_path())
    assert read_settings(settings).recent_files == ("/p/a, b.png", "/p/é.png")


def test_an_empty_settings_file_is_filled_on_save(tmp_path, caplog):
    # An empty file (made with `touch`) holds nothing to keep: it is no file to protect.
    path = tmp_path / "settings.json"
    path.touch()
    with caplog.at_level(logging.WARNING):
        settings = SettingsFile(path)
    change_settings(settings, sigma=3.5)
    settings.save()
    assert json.loads(path.read_text()) == {"sigma": 3.5} and caplog.records == []


def test_a_bad_value_is_told_once_however_often_the_window_reads_its_settings(
    make_window, settings, qtbot, tmp_path, caplog
):
    """The window reads its settings whole at start, on each photo opened (Open Recent, the
    folder Open starts in) and on each save: a value it cannot use is one log line, not one a
    read."""
    from helpers.photos import photo_file
    from helpers.window import RUN_TIMEOUT_MS

    settings.set_value("sigma", "a lot")
    with caplog.at_level(logging.WARNING, logger="blurapp.app.window_settings"):
        window = make_window()
        for name in ("a.png", "b.png"):
            with qtbot.waitSignal(window.display.photo_shown, timeout=RUN_TIMEOUT_MS):
                window.open_file(photo_file(tmp_path, name))
        window.close()
    told = [r.getMessage() for r in caplog.records if "'sigma'" in r.getMessage()]
    assert len(told) == 1, told
