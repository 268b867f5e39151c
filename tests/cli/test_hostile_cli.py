"""Hostile files through the command line: a result or one clean error line, never a traceback."""

import os
import subprocess
import sys

import numpy as np
import pytest
import tifffile
from helpers.command_line import blurapp
from helpers.hostile import HOSTILE, claiming_more_than_it_holds
from helpers.raw_files import dng_file, random_mosaic

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


def _lines_other_than_libraws(run, path):
    """stderr's lines, less the one LibRaw's C library may print of a RAW file itself
    ("PATH: Unexpected end of file"): BlurApp cannot keep it off the terminal."""
    return [line for line in run.stderr.splitlines() if not line.startswith(f"{path}: ")]


@pytest.mark.parametrize("command", [["compare"], ["blur", "-o", "blurred.png"]])
def test_a_tiff_whose_header_claims_more_than_it_holds_is_one_error_line(tmp_path, command):
    # tifffile logs each strip count that disagrees with the header as it reads them: those
    # lines go to the log file, not before BlurApp's own.
    path = tmp_path / "scan.tif"
    tifffile.imwrite(path, np.zeros((48, 64), np.uint8), rowsperstrip=16)
    claiming_more_than_it_holds(path)
    state = tmp_path / "state"
    env = {**os.environ, "BLURAPP_STATE_DIR": str(state)}
    run = blurapp(command[0], path, *command[1:], cwd=tmp_path, env=env)
    assert run.returncode == 1
    assert run.stderr.splitlines() == [
        f"error: {path}: the file is truncated (it ends before the image does)"
    ]
    assert "tifffile: <tifffile.TiffPage 0" in (state / "blurapp.log").read_text()
    assert not (tmp_path / "blurred.png").exists()


@pytest.mark.extra("raw")
@pytest.mark.parametrize("command", [["compare"], ["blur", "-o", "blurred.png"]])
def test_a_dng_whose_header_claims_more_than_it_holds_is_one_error_line(tmp_path, command):
    path = dng_file(tmp_path / "DSC_0001.DNG", random_mosaic())
    claiming_more_than_it_holds(path)
    run = blurapp(command[0], path, *command[1:], cwd=tmp_path)
    assert run.returncode == 1
    (error,) = _lines_other_than_libraws(run, path)
    assert error.startswith(f"error: {path}: LibRaw cannot develop this RAW file: ")
    assert len(run.stderr.splitlines()) <= 2, run.stderr
    assert not (tmp_path / "blurred.png").exists()
