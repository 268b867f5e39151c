"""The wheel carries what an installed BlurApp needs: its code and the sample photo."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_wheel_carries_the_sample_photo_and_the_entry_point(tmp_path):
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stderr
    [wheel] = tmp_path.glob("blurapp-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        photo = archive.read("blurapp/resources/coffee.png")
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        scripts = archive.read(entry_points).decode()
    assert photo == (ROOT / "resources" / "coffee.png").read_bytes()
    assert {"blurapp/core/photo.py", "blurapp/ui/main_window.py", "blurapp/cli.py"} <= names
    assert "blurapp = blurapp.cli:main" in scripts
