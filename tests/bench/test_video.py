"""`blurapp bench --sections video` on tiny clips: frames per second per engine and per batch
size, in lines, JSON and a record; sizes it cannot take are said, not tracebacks."""

import json
import os

import pytest

from blurapp.bench import video as bench_video
from blurapp.bench.record import figure_rows
from blurapp.bench.report import section_lines
from blurapp.cli import main
from blurapp.core import TOLERANCE
from blurapp.core.engines import get_engine


def test_each_clip_gives_each_engine_frames_per_second_and_the_batch_sizes_tried():
    figures = bench_video.video(resolutions=["48x32"], frames=3)
    assert figures["frames"] == 3 and figures["kernel"]["size"] == 9
    assert [(row["resolution"], row["colour"]) for row in figures["rows"]] == [
        ("48x32", False),
        ("48x32", True),
    ]
    for row in figures["rows"]:
        assert (row["width"], row["height"], row["frames"]) == (48, 32, 3)
        numpy, jit = row["engines"]["numpy"], row["engines"]["jax"]
        for engine in (numpy, jit):
            assert engine["frames_per_second"] > 0 and engine["frames_per_second_end_to_end"] > 0
            assert engine["error"] is None
        assert numpy["batch_size"] == 1 and numpy["batch_sizes"] == {}
        assert set(jit["batch_sizes"]) == {"1", "2"}  # no batch larger than the span of 3
        assert jit["batch_size"] in (1, 2)
        assert jit["max_abs_diff"] <= TOLERANCE
        assert row["speedup"] == pytest.approx(
            jit["frames_per_second"] / numpy["frames_per_second"]
        )
    text = "\n".join(section_lines("video", figures))
    assert "spans of 3 frames" in text
    assert "48x32 grey     NumPy" in text and "48x32 colour   JAX-jit" in text
    assert "(per batch size 1: " in text
    rows = figure_rows({"video": figures}, [get_engine("numpy"), get_engine("jax")])
    whats = {(row["what"], row["engine"]) for row in rows}
    assert ("48×32 grey, 9×9, blur alone", "JAX-jit") in whats
    assert ("48×32 colour, 9×9, end to end", "NumPy") in whats
    assert ("48×32 grey, 9×9, batches of 2", "JAX-jit") in whats
    assert {row["unit"] for row in rows} == {"frames/s"}


@pytest.mark.accelerator
def test_pallas_among_the_engines_asked_for_gives_its_own_rows(capsys):
    arguments = ["bench", "--sections", "video", "--video-resolutions", "64x48"]
    arguments += ["--video-frames", "2", "--engines", "numpy,jax,pallas", "--json"]
    assert main(arguments) == 0
    figures = json.loads(capsys.readouterr().out)["video"]
    for row in figures["rows"]:
        assert list(row["engines"]) == ["numpy", "jax", "pallas"]
        pallas = row["engines"]["pallas"]
        assert pallas["error"] is None and pallas["frames_per_second"] > 0
        assert pallas["frames_per_second_end_to_end"] > 0 and pallas["max_abs_diff"] <= TOLERANCE
        # Interpreted (no TPU here: its caveat), Pallas blurs batches of one, none measured.
        interpreted = get_engine("pallas").shown.caveat() is not None
        assert set(pallas["batch_sizes"]) == (set() if interpreted else {"1", "2"})
    text = "\n".join(section_lines("video", figures))
    assert "64x48 grey     JAX Pallas" in text and "64x48 colour   JAX Pallas" in text
    rows = figure_rows(
        {"video": figures}, [get_engine(name) for name in ("numpy", "jax", "pallas")]
    )
    assert ("64×48 colour, 9×9, blur alone", "JAX Pallas") in {
        (row["what"], row["engine"]) for row in rows
    }


def test_without_engines_named_the_section_times_numpy_and_jax_jit(monkeypatch):
    asked = []
    monkeypatch.setattr(
        bench_video, "video", lambda **options: asked.append(options) or {"rows": []}
    )
    monkeypatch.setattr("blurapp.bench.report.section_lines", lambda name, figures: [])
    arguments = ["bench", "--sections", "video", "--video-resolutions", "8x8", "--json"]
    assert main(arguments) == 0
    assert main([*arguments, "--engines", "numpy,pallas"]) == 0
    assert "engines" not in asked[0] and asked[1]["engines"] == ["numpy", "pallas"]


@pytest.mark.slow
def test_the_command_prints_the_section_as_json(capsys):
    ours = os.environ["BLURAPP_CACHE_DIR"]
    arguments = ["bench", "--sections", "video", "--video-resolutions", "40x24"]
    assert main([*arguments, "--video-frames", "2", "--json"]) == 0
    assert os.environ["BLURAPP_CACHE_DIR"] == ours  # given back to its caller
    report = json.loads(capsys.readouterr().out)
    rows = report["video"]["rows"]
    assert [row["colour"] for row in rows] == [False, True]
    assert all(row["engines"]["jax"]["frames_per_second"] > 0 for row in rows)


def test_a_clip_too_large_for_the_memory_available_is_said_and_not_timed(monkeypatch):
    monkeypatch.setattr(bench_video, "available_memory", lambda: 1_000_000)
    figures = bench_video.video(resolutions=["4k"], frames=2, colours=[True])
    assert figures["rows"] == [
        {
            "resolution": "4k",
            "width": 3840,
            "height": 2160,
            "colour": True,
            "error": "needs about 1.0 GB, 0.0 GB available",
        }
    ]
    assert "  4k colour      — (needs about 1.0 GB, 0.0 GB available)" in section_lines(
        "video", figures
    )


@pytest.mark.parametrize(
    "flag, value, words",
    [
        ("--video-resolutions", "8k", "'8k' is not a resolution: 720p, 1080p, 4k or WIDTHxHEIGHT"),
        ("--video-resolutions", "0x10", "'0x10' is not a resolution"),
        ("--video-frames", "0", "'0' is not a number of frames (1 or more)"),
    ],
)
def test_a_resolution_or_frame_count_it_cannot_take_is_a_usage_error(capsys, flag, value, words):
    with pytest.raises(SystemExit) as exited:
        main(["bench", "--sections", "video", flag, value])
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert f"argument {flag}: {words}" in error and "Traceback" not in error
