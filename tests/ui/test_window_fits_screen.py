"""The window opens inside the available area of the screen it opens on, keeps a saved place only
where it fits, and uses the room it has (what it decides: tests/app/test_window_placement.py).

The tests' own screen is the offscreen platform's; a screen of another size needs a process of
its own (the platform's screens are fixed when the application starts), told its screen by the
offscreen platform's configuration file."""

import json
import subprocess
import sys

import pytest
from PySide6.QtCore import QRect

from blurapp.app.settings_file import SettingsFile
from blurapp.ui.main_window import MainWindow

# A window made on a screen of `screen`'s size from the settings file `settings`, its place on
# screen printed as JSON, and its settings saved as it closes.
SHOW_WINDOW = """
import json, sys
from pathlib import Path
from PySide6.QtWidgets import QApplication
app = QApplication([])
from blurapp.app.settings_file import SettingsFile
from blurapp.ui.main_window import MainWindow
window = MainWindow(SettingsFile(Path(sys.argv[1])))
window.show()
app.processEvents()
frame, screen = window.frameGeometry(), window.screen().availableGeometry()
print(json.dumps({"window": frame.getRect(), "screen": screen.getRect()}))
window.close()
"""


def on_screen(window) -> bool:
    return window.screen().availableGeometry().contains(window.frameGeometry())


def test_a_fresh_window_fits_the_screen_and_uses_its_room(make_window):
    window = make_window(wait=False)
    available = window.screen().availableGeometry()
    assert on_screen(window), (window.frameGeometry(), available)
    # The tests' screen (800 × 800) is smaller than a fresh window asks for: it takes it all.
    assert window.frameGeometry() == available


def test_a_place_saved_larger_than_the_screen_is_cut_to_fit(qtbot, settings):
    first = MainWindow(settings)
    qtbot.addWidget(first)
    first.show()
    available = first.screen().availableGeometry()
    first.setGeometry(QRect(available.x() + 200, available.y() + 100, 1300, 900))
    first.save_settings()
    first.close()
    again = MainWindow(SettingsFile(settings.path))
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    assert on_screen(again), (again.frameGeometry(), available)
    again.close()


def show_on_screen(tmp_path, width: int, height: int) -> dict:
    config = tmp_path / f"screen-{width}x{height}.json"
    config.write_text(json.dumps({"screens": [{"name": "screen", "x": 0, "y": 0,
                                               "width": width, "height": height,
                                               "logicalDpi": 96}]}))  # fmt: skip
    shown = subprocess.run(
        [sys.executable, "-c", SHOW_WINDOW, str(tmp_path / "settings.json")],
        env={**__import__("os").environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout.splitlines()[-1])


def contains(outer, inner) -> bool:
    return QRect(*outer).contains(QRect(*inner))


@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)])
def test_fresh_settings_open_inside_a_screen_of_any_size(tmp_path, size):
    shown = show_on_screen(tmp_path, *size)
    assert contains(shown["screen"], shown["window"]), shown
    width, height = shown["window"][2:]
    assert width >= 0.85 * size[0] and height >= 0.85 * size[1], shown  # the room used


def test_settings_saved_on_a_larger_screen_open_inside_a_smaller_one(tmp_path):
    show_on_screen(tmp_path, 2560, 1440)  # used there, its place saved on closing
    shown = show_on_screen(tmp_path, 1920, 1080)
    assert contains(shown["screen"], shown["window"]), shown
    width, height = shown["window"][2:]
    assert width >= 0.85 * 1920 and height >= 0.85 * 1080, shown  # not a small default
