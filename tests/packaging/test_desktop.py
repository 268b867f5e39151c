"""Desktop integration: the icon, the .desktop entry and the AppStream metadata agree."""

import configparser
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from PIL import Image

from blurapp import __version__
from blurapp.ui.main_window import DESKTOP_ID, ICON_SIZES, app_icon

ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "packaging" / "linux"
DESKTOP_FILE = LINUX / f"{DESKTOP_ID}.desktop"
METAINFO_FILE = LINUX / f"{DESKTOP_ID}.metainfo.xml"


def desktop_entry():
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(DESKTOP_FILE, encoding="utf-8")
    return parser["Desktop Entry"]


def test_the_icon_exists_at_every_size_and_the_window_uses_it(qtbot):
    for size in ICON_SIZES:
        with Image.open(ROOT / "resources" / "icons" / f"blurapp-{size}.png") as png:
            assert png.size == (size, size) and png.mode == "RGBA"
    icon = app_icon()
    sizes = {(s.width(), s.height()) for s in icon.availableSizes()}
    assert {(16, 16), (48, 48), (256, 256)} <= sizes


def test_the_desktop_entry_launches_blurapp_with_its_icon():
    entry = desktop_entry()
    assert entry["Type"] == "Application" and entry["Name"] == "BlurApp"
    assert entry["Exec"] == "blurapp %f"  # opens a file given by the file manager
    assert entry["Icon"] == DESKTOP_ID
    assert entry["Terminal"] == "false"
    assert "Graphics" in entry["Categories"].split(";")
    assert {"image/png", "image/jpeg", "image/tiff"} <= set(entry["MimeType"].split(";"))


def test_the_metainfo_names_the_entry_the_screenshot_and_this_version():
    root = ElementTree.parse(METAINFO_FILE).getroot()
    assert root.get("type") == "desktop-application"
    assert root.findtext("id") == DESKTOP_ID
    assert root.findtext("launchable") == DESKTOP_FILE.name
    assert root.find("screenshots/screenshot/image").text.endswith("resources/screenshot.png")
    assert root.find("releases/release").get("version") == __version__
    assert root.find("provides/binary").text == "blurapp"


@pytest.mark.skipif(
    not shutil.which("desktop-file-validate"), reason="desktop-file-utils not installed"
)
def test_desktop_file_validate_accepts_the_entry():
    run = subprocess.run(
        ["desktop-file-validate", str(DESKTOP_FILE)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "error" not in (run.stdout + run.stderr).lower()


@pytest.mark.skipif(not shutil.which("appstreamcli"), reason="appstream not installed")
def test_appstreamcli_validates_the_metainfo():
    run = subprocess.run(
        ["appstreamcli", "validate", "--no-net", str(METAINFO_FILE)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_install_sh_puts_each_file_where_desktops_look(tmp_path):
    run = subprocess.run(
        ["bash", str(LINUX / "install.sh")],
        capture_output=True,
        text=True,
        env={"PREFIX": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr
    share = tmp_path / "share"
    assert (share / "applications" / DESKTOP_FILE.name).read_bytes() == DESKTOP_FILE.read_bytes()
    assert (share / "metainfo" / METAINFO_FILE.name).is_file()
    assert (share / "icons/hicolor/scalable/apps" / f"{DESKTOP_ID}.svg").is_file()
    for size in ICON_SIZES:
        assert (share / f"icons/hicolor/{size}x{size}/apps/{DESKTOP_ID}.png").is_file()
