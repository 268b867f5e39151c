"""Long commands whose stderr is no terminal (a log file, a pipe, a CI job) say where they are
in plain lines, where a terminal would show a bar: what is being done and how far."""

import contextlib
import io
import os
import re
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
import tifffile
from helpers.clip_files import random_levels, video_file
from helpers.command_line import blurapp_in_process
from PIL import Image

from blurapp.cli import compare, progress
from blurapp.core.blurring import blur_file


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


def said_again(text: str, times: int = 2) -> None:
    """Wait, in a step the test has made long, until the command's stderr (this thread's
    sys.stderr while blurapp_in_process runs it) has said `text` `times` times: the step ends
    then, however slow the machine; a heartbeat that never comes fails the test."""
    deadline = time.monotonic() + 60
    while sys.stderr.getvalue().count(text) < times:
        assert time.monotonic() < deadline, f"never said {text!r} {times} times"
        time.sleep(0.01)


@pytest.fixture
def quiet_soon(monkeypatch):
    """A step silent for a twentieth of a second is said again, not one silent for 5 s."""
    monkeypatch.setenv(progress.QUIET_SECONDS_VARIABLE, "0.05")


def progress_threads():
    return [thread for thread in threading.enumerate() if thread.name.startswith("progress: ")]


def test_a_long_load_is_said_again_while_it_goes(tmp_path, monkeypatch, quiet_soon):
    source = tmp_path / "street.png"
    Image.fromarray(np.zeros((40, 60), np.uint8)).save(source)
    real_load = compare.load

    def slow_load(*args, **options):
        said_again("reading street.png… ")
        return real_load(*args, **options)

    monkeypatch.setattr(compare, "load", slow_load)
    run = blurapp_in_process("compare", source, "--engines", "numpy", "--repeat", "2")
    assert run.returncode == 0, run.stderr
    reading = [x for x in run.stderr.splitlines() if x.startswith("reading street.png")]
    assert len(reading) >= 2
    assert all(re.fullmatch(r"reading street\.png… \d+ s", x) for x in reading)
    assert run.stdout.startswith("image ")
    assert progress_threads() == []  # stopped with the command: nothing said after its end


def test_a_long_write_is_said_again_and_its_end_is_said(tmp_path, monkeypatch, quiet_soon):
    source = tmp_path / "street.png"
    Image.fromarray(np.zeros((40, 60, 3), np.uint8)).save(source)
    out = tmp_path / "soft.png"
    real_save = blur_file.save_output

    def slow_save(*args, **options):
        said_again("writing soft.png… ")
        return real_save(*args, **options)

    monkeypatch.setattr(blur_file, "save_output", slow_save)
    run = blurapp_in_process("blur", source, "--color", "-o", out, "--engine", "numpy")
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert sum(bool(re.fullmatch(r"writing soft\.png… \d+ s", x)) for x in lines) >= 2
    assert re.fullmatch(r"writing soft\.png: done, \d+ s", lines[-1])
    assert run.stdout.startswith(f"wrote {out}")
    assert progress_threads() == []


def test_a_timing_whose_total_moves_says_about_and_then_done(tmp_path, every_step):
    """Without --repeat the calls are counted as the engines are timed: an estimate."""
    source = tmp_path / "street.png"
    Image.fromarray(np.zeros((40, 60), np.uint8)).save(source)
    run = blurapp_in_process("compare", source, "--engines", "numpy")
    assert run.returncode == 0, run.stderr
    timing = [x for x in run.stderr.splitlines() if x.startswith("timing each engine")]
    assert timing
    assert all(
        re.match(r"timing each engine on street\.png: \d+ of about \d+ calls", x) for x in timing
    )


def test_a_count_said_last_short_of_its_end_is_followed_by_done(monkeypatch):
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        bar = progress.PlainProgress(478, "call", "timing each engine", estimate=True)
        with bar:
            monkeypatch.setattr(progress, "PLAIN_LINE_SECONDS", 0.0)
            bar.update(1)
            monkeypatch.setattr(progress, "PLAIN_LINE_SECONDS", 3600.0)
            bar.total = 318  # slower calls than the first ones: fewer of them
            bar.update(317)
    lines = said.getvalue().splitlines()
    assert re.fullmatch(r"timing each engine: 1 of about 478 calls \(0 %\), \d+ s", lines[0])
    assert re.fullmatch(r"timing each engine: 318 calls, done, \d+ s", lines[1])
    assert len(lines) == 2


def test_a_silent_step_is_said_again_until_it_is_closed(monkeypatch):
    monkeypatch.setenv(progress.QUIET_SECONDS_VARIABLE, "0.02")
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        bar = progress.PlainProgress(1, "photo", "reading photo.jpg")
    deadline = time.monotonic() + 60
    while said.getvalue().count("\n") < 3:
        assert time.monotonic() < deadline, "the step was never said again"
        time.sleep(0.01)
    bar.close()
    assert progress_threads() == []
    lines = said.getvalue().splitlines()
    assert all(re.fullmatch(r"reading photo\.jpg… \d+ s", x) for x in lines)
    bar.update(1)  # a closed bar says nothing more
    bar.finish()
    assert said.getvalue().splitlines() == lines


def test_no_progress_line_comes_after_the_figures(tmp_path):
    """A process of its own, stderr and stdout in one pipe as a log file gets them, its steps
    said again every hundredth of a second: every progress line comes before the figures."""
    source = tmp_path / "street.png"
    Image.fromarray(np.zeros((40, 60), np.uint8)).save(source)
    env = {**os.environ, progress.QUIET_SECONDS_VARIABLE: "0.01"}
    for variable in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env[variable] = str(tmp_path / variable.lower())
    run = subprocess.run(
        [sys.executable, "-m", "blurapp", "compare", str(source), "--engines", "numpy"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
        env=env,
    )
    assert run.returncode == 0, run.stdout
    lines = run.stdout.splitlines()
    figures = next(i for i, line in enumerate(lines) if line.startswith("image "))
    progress_line = re.compile(r"(… \d+ s|, \d+ s|, done, \d+ s)$")
    assert not any(progress_line.search(line) for line in lines[figures:]), run.stdout
    assert all(progress_line.search(line) for line in lines[:figures]), run.stdout
