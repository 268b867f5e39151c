"""Long commands whose stderr is no terminal (a log file, a pipe, a CI job) say where they are
in plain lines, where a terminal would show a bar: what is being done and how far."""

import re

import numpy as np
import pytest
import tifffile
from helpers.clip_files import random_levels, video_file
from helpers.command_line import blurapp_in_process
from PIL import Image

from blurapp.cli import progress


@pytest.fixture
def every_step(monkeypatch):
    """A line at each step, not at most one every few seconds: the test's commands are quick."""
    monkeypatch.setattr(progress, "PLAIN_LINE_SECONDS", 0.0)


def test_blurring_a_clip_says_how_many_frames_are_done(tmp_path, every_step):
    source = video_file(tmp_path / "waves.mkv", random_levels(6))
    run = blurapp_in_process("blur", source, "-o", tmp_path / "out.mkv", "--engine", "numpy")
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert re.fullmatch(r"blurring waves\.mkv: 1 of 6 frames \(17 %\), \d+ s", lines[0])
    assert re.fullmatch(r"blurring waves\.mkv: 6 of 6 frames \(100 %\), \d+ s", lines[-1])
    assert run.stdout.startswith(f"wrote {tmp_path / 'out.mkv'}: 6 frames")


def test_comparing_on_a_clip_says_each_stage_and_how_far_it_is(tmp_path, every_step):
    source = video_file(tmp_path / "waves.mkv", random_levels(4))
    run = blurapp_in_process("compare", source, "--frames", "4", "--repeat", "2")
    assert run.returncode == 0, run.stderr
    said = run.stderr
    assert re.search(
        r"^choosing each engine's batch size for waves\.mkv: 1 of 2 engines", said, re.M
    )
    assert re.search(
        r"^blurring the frames of waves\.mkv with each engine: 4 of 4 frames", said, re.M
    )
    assert re.search(
        r"^timing each engine on the frames of waves\.mkv: \d+ of \d+ calls", said, re.M
    )
    assert run.stdout.startswith("clip ")


@pytest.mark.extra("scale")
def test_a_batch_says_how_many_files_and_frames_are_done(tmp_path, every_step):
    shoot = tmp_path / "shoot"
    shoot.mkdir()
    Image.fromarray(np.zeros((20, 30), np.uint8)).save(shoot / "a.png")
    video_file(shoot / "clip.mkv", random_levels(3))
    run = blurapp_in_process("batch", shoot, "--out-dir", tmp_path / "out")
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert any(
        re.fullmatch(r"blurring: 2 of 2 files \(100 %\), \d+ s, [\d.,]+ MP/s", x) for x in lines
    )
    assert any(
        re.fullmatch(r"blurring clip\.mkv: 3 of 3 frames \(100 %\), \d+ s", x) for x in lines
    )


@pytest.mark.extra("scale")
def test_blurring_by_blocks_says_how_many_rows_of_blocks_are_done(tmp_path, every_step):
    source = tmp_path / "scan.tif"
    tifffile.imwrite(source, np.zeros((600, 300), np.uint8), tile=(256, 256))
    run = blurapp_in_process("blur", source, "-o", tmp_path / "out.tif", "--tiles")
    assert run.returncode == 0, run.stderr
    assert re.search(r"^blurring scan\.tif: \d+ of \d+ blocks \(100 %\)", run.stderr, re.M)


def test_comparing_on_a_photo_says_each_engine_and_the_timing(tmp_path, every_step):
    source = tmp_path / "street.png"
    Image.fromarray(np.zeros((40, 60), np.uint8)).save(source)
    run = blurapp_in_process("compare", source, "--engines", "numpy", "--repeat", "2")
    assert run.returncode == 0, run.stderr
    said = run.stderr
    assert re.search(r"^reading street\.png: 0 of 1 photos", said, re.M)
    assert re.search(r"^NumPy's first call on street\.png: \d+ of \d+ steps \(100 %\)", said, re.M)
    assert re.search(r"^timing each engine on street\.png: (\d+) of \1 calls \(100 %\)", said, re.M)
    assert run.stdout.startswith("image ")  # the figures, on stdout alone


def test_blurring_a_photo_says_reading_blurring_and_writing(tmp_path, every_step):
    source = tmp_path / "street.png"
    Image.fromarray(np.zeros((40, 60, 3), np.uint8)).save(source)
    out = tmp_path / "soft.png"
    run = blurapp_in_process("blur", source, "--color", "-o", out, "--engine", "numpy")
    assert run.returncode == 0, run.stderr
    said = run.stderr
    assert re.search(r"^reading street\.png: ", said, re.M)
    assert re.search(r"^blurring street\.png with NumPy: \d+ of \d+ steps \(100 %\)", said, re.M)
    assert re.search(r"^writing soft\.png: 1 of 1 files \(100 %\)", said, re.M)
    assert run.stdout.startswith(f"wrote {out}")


def test_a_quick_comparison_off_a_terminal_says_nothing_on_stderr(tmp_path):
    """Lines come at most every few seconds: a quick command's stderr stays empty."""
    source = tmp_path / "street.png"
    Image.fromarray(np.zeros((40, 60), np.uint8)).save(source)
    run = blurapp_in_process("compare", source, "--engines", "numpy", "--repeat", "2")
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""


def test_the_bench_says_each_section_as_it_begins_and_how_far_its_table_is(every_step):
    run = blurapp_in_process(
        "bench", "--sections", "engines", "--megapixels", "0.01", "0.02", "--kernel-sizes", "3",
        "--algorithms", "2d", "--engines", "numpy", "--repeat", "1", "--json",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert lines[0] == "bench: engines (section 1 of 1)"
    assert re.fullmatch(r"bench: the engines table: 2 of 2 rows \(100 %\), \d+ s", lines[-1])
    assert run.stdout.startswith("{")  # the JSON alone on stdout
