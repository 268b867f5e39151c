"""`blurapp bench --sections playing clip-file` on small clips: a clip playing in the window with
each pane's frames per second, and `blurapp blur` of a clip file timed whole with its memory."""

import json

import pytest
from helpers.command_line import blurapp

from blurapp.app.clip_player import FRAMES_IN_FLIGHT
from blurapp.bench import clips as bench_clips
from blurapp.bench.record import figure_rows
from blurapp.bench.report import section_lines
from blurapp.core.engines import get_engine

pytestmark = pytest.mark.slow  # each section launches BlurApp


def test_a_clip_playing_says_each_panes_frames_per_second_and_the_longest_stall(tmp_path):
    # A 60 frames/s clip, as the goal for a 4K clip on an accelerator asks (the default is 30).
    run = blurapp(
        "bench", "--sections", "playing", "--video-resolutions", "160x120",
        "--playing-seconds", "2", "--playing-rate", "60", "--json",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    (row,) = json.loads(run.stdout)["playing"]["rows"]
    assert "error" not in row, row
    assert (row["width"], row["height"], row["clip_frames_per_second"]) == (160, 120, 60.0)
    # Timed from when both panes had shown a frame, however long JAX-jit took to compile.
    assert row["first_frames_seconds"] > 0 and row["timed_seconds"] >= 2
    for name in ("numpy", "jax"):
        engine = row["engines"][name]
        # Each pane went on showing frames, never more than the clip gave in the time (one due
        # at its edge apart, and the frames in hand, already due, when the clock started: one,
        # or FRAMES_IN_FLIGHT for JAX-jit's pane, which sends the next frame ahead).
        in_hand = FRAMES_IN_FLIGHT if name == "jax" else 1
        assert 0 < engine["frames_shown"] <= 60 * row["timed_seconds"] + 1 + in_hand
        rate = engine["frames_shown"] / row["timed_seconds"]
        assert engine["frames_per_second"] == pytest.approx(rate)
        assert engine["frames_dropped"] >= 0
    assert row["stall_max_seconds"] > 0
    text = "\n".join(section_lines("playing", {"rows": [row]}))
    assert "160x120 160×120: numpy " in text and "longest stall" in text
    assert "(9×9, σ 2.5, grey, 60 frames/s)" in text
    assert "timed from" in text and "first frames after " in text
    rows = figure_rows({"playing": {"rows": [row]}}, [get_engine("numpy"), get_engine("jax")])
    units = {(figure["what"].rsplit(", ", 1)[-1], figure["unit"]) for figure in rows}
    assert ("both panes playing", "frames/s") in units
    assert ("dropped", "frames") in units and ("longest stall", "ms") in units
    # The record says the rate the clip played at, in each row's "how measured".
    assert all(figure["how"].startswith("a 60 frames/s clip played") for figure in rows)


def test_a_clip_playing_in_colour_is_blurred_and_shown_in_colour_in_both_panes():
    run = blurapp(
        "bench", "--sections", "playing", "--color", "--video-resolutions", "96x64",
        "--playing-seconds", "1", "--json",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    (row,) = json.loads(run.stdout)["playing"]["rows"]
    assert "error" not in row, row
    assert row["colour"] is True
    # What each pane showed while playing was its blur of the frames' three channels.
    assert {name: engine["channels_shown"] for name, engine in row["engines"].items()} == {
        "numpy": [3],
        "jax": [3],
    }
    text = "\n".join(section_lines("playing", {"rows": [row]}))
    assert "(9×9, σ 2.5, colour, 30 frames/s)" in text
    rows = figure_rows({"playing": {"rows": [row]}}, [get_engine("numpy"), get_engine("jax")])
    assert all(" colour, both panes playing" in figure["what"] for figure in rows)


def test_a_clip_blurred_to_a_file_is_timed_whole_with_its_peak_memory_and_its_codec_floor():
    figures = bench_clips.clip_file(["96x64"], [12])
    rows = figures["rows"]
    assert [(row["format"], row["codec"]) for row in rows] == [
        (".mp4", "libx264"),
        (".mkv", "ffv1"),
    ]
    for row in rows:
        assert "error" not in row, row
        assert row["frames"] == 12 and row["seconds"] > 0
        assert row["frames_per_second"] == pytest.approx(12 / row["seconds"])
        # A Python process that imported NumPy, JAX and PyAV holds well over 50 MB.
        assert 50e6 < row["peak_bytes"] < 4e9
        # The floor is the slower of decoding and encoding alone, and the command its share.
        decode, encode = row["decode_frames_per_second"], row["encode_frames_per_second"]
        assert decode > 0 and encode > 0
        assert row["floor_frames_per_second"] == min(decode, encode)
        share = row["frames_per_second"] / row["floor_frames_per_second"]
        assert row["floor_share"] == pytest.approx(share)
    text = "\n".join(section_lines("clip-file", figures))
    assert "96x64 96×64, 12 frames, .mp4 libx264, JAX-jit: " in text and "peak memory" in text
    assert "96x64 96×64, 12 frames, .mkv ffv1, JAX-jit: " in text
    assert f"{rows[1]['floor_share']:.2f} of it" in text and "floor " in text
    records = figure_rows({"clip-file": figures}, [get_engine("jax")])
    units = [figure["unit"] for figure in records]
    assert units == ["frames/s", "MB", "frames/s", "frames/s", "frames/s", "×"] * 2
    # The H.264 rows keep the names an earlier record gave them.
    assert records[0]["what"] == "96x64 (96×64) grey, 12 frames, blur to a file"
    assert records[6]["what"] == "96x64 (96×64) grey, 12 frames, ffv1 .mkv, blur to a file"


def test_the_clip_file_section_blurs_the_clip_with_each_engine_asked_for():
    figures = bench_clips.clip_file(["32x16"], [3], [".mkv"], engines=["jax", "pallas"])
    assert figures["engines"] == ["jax", "pallas"]
    assert [row["engine"] for row in figures["rows"]] == ["jax", "pallas"]
    for row in figures["rows"]:
        assert "error" not in row, row
        assert row["frames_per_second"] > 0 and row["floor_frames_per_second"] > 0
    text = "\n".join(section_lines("clip-file", figures))
    assert "--engine jax|pallas" in text
    assert "32x16 32×16, 3 frames, .mkv ffv1, JAX Pallas: " in text
    records = figure_rows({"clip-file": figures}, [get_engine("jax"), get_engine("pallas")])
    blurs = [row for row in records if row["what"].endswith("blur to a file")]
    assert [row["engine"] for row in blurs] == ["JAX-jit", "JAX Pallas"]
    assert "--engine pallas" in blurs[1]["how"]
