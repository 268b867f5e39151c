"""Hostile files through the command line: a result or one clean error line, never a traceback."""

import subprocess
import sys

import pytest
from helpers.hostile import HOSTILE

from blurapp.cli import main


@pytest.mark.slow
@pytest.mark.parametrize("name", [name for name, _ in HOSTILE][::3])
def test_compare_gives_a_result_or_one_error_line(hostile_folder, name, capsys):
    path = hostile_folder / name
    status = main(["compare", str(path), "--kernel-size", "3"])
    out, err = capsys.readouterr()
    assert status in (0, 1)
    if status == 1:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and str(path) in lines[0]
        assert out == ""
    else:
        assert "max abs diff" in out


@pytest.mark.slow
def test_compare_in_a_process_of_its_own_never_shows_a_traceback(hostile_folder):
    for name in [
        "PNG-cut-0.5.png",
        "JPEG-bad-header.jpg",
        "GIF-absurd-size.gif",
        "WEBP-flipped-40.webp",
    ]:
        path = hostile_folder / name
        run = subprocess.run(
            [sys.executable, "-m", "blurapp", "compare", str(path)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode in (0, 1), (name, run.stderr)
        assert "Traceback" not in run.stderr
        if run.returncode == 1:
            assert run.stderr.startswith("error: ") and str(path) in run.stderr
