"""`blurapp compare CLIP` as a user runs it: each engine in frames per second and milliseconds a
frame, the blur alone and end to end, its batch size, the speed-up, the difference from NumPy;
`--json`; a clip cut short timed over what decoded with a warning; `--out-dir`, each engine's
blurred span as a clip; photos compared as before."""

import json
import struct

import av
import numpy as np
import pytest
from helpers.clip_files import (
    animation_file,
    audio_only_file,
    random_levels,
    smooth_levels,
    video_file,
)
from helpers.command_line import blurapp_in_process
from helpers.oracle import blur_oracle
from helpers.photos import photo_file

from blurapp.core.engines import jax_engine
from blurapp.core.kernel import gaussian_kernel
from blurapp.core.media.clip_files import open_clip_file

# Two timed passes of four frames: enough for every figure, quick on a busy 2-core machine.
QUICK = ("--frames", "4", "--repeat", "2")


@pytest.fixture
def clip(tmp_path):
    return video_file(tmp_path / "waves.mkv", random_levels(6), rate=30)


def rows(stdout):
    """The printed figures: label → the text after it, in order (labels may repeat)."""
    found = []
    for line in stdout.splitlines():
        label, _, text = line.partition("  ")
        found.append((label.strip(), text.strip()))
    return found


def test_every_engine_is_stated_in_frames_per_second_alone_and_end_to_end(clip):
    run = blurapp_in_process("compare", clip, *QUICK)
    assert run.returncode == 0, run.stderr
    printed = rows(run.stdout)
    labels = [label for label, _ in printed]
    assert labels == [
        "clip",
        "kernel",
        "NumPy",
        "end to end",
        "batch size",
        "JAX-jit",
        "end to end",
        "batch size",
        "speedup",
        "end-to-end speedup",
        "max abs diff",
        "device",
    ] + (["warning"] if labels[-1] == "warning" else [])
    text = dict(printed[:3])
    assert text["clip"] == "waves.mkv, 64 × 48, grey, 4 frames from frame 0, 30 frames/s"
    assert text["kernel"] == "9 × 9, sigma 2.5"
    for label, words in printed:
        if label in ("NumPy", "JAX-jit"):
            assert " frames/s (" in words and " ms a frame; median of 2 passes" in words
        if label == "end to end":
            assert words.endswith("ms a frame, reading the clip and copies counted)")
    numpy_batch, jax_batch = (words for label, words in printed if label == "batch size")
    assert numpy_batch == "one frame a call"
    assert "tried 1: " in jax_batch and "2: " in jax_batch and "4: " in jax_batch
    assert dict(printed)["max abs diff"].endswith("within 1e-05")
    assert "NOT" not in run.stdout and run.stderr == ""


def test_the_json_holds_every_engine_figure_with_its_type(clip):
    run = blurapp_in_process("compare", clip, *QUICK, "--json", "--start", "1")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["clip"] == {
        "name": "waves.mkv",
        "path": str(clip),
        "width": 64,
        "height": 48,
        "frame_count": 6,
        "frame_count_estimated": False,  # Matroska says a duration: the packets are counted
        "frames_per_second": 30,
        "colour": False,
    }
    assert data["start"] == 1 and data["frames"] == 4
    assert data["kernel"] == {"size": 9, "sigma": 2.5, "algorithm": "2d"}
    for key in ("numpy", "jax"):
        engine = data[key]
        for figure in (
            "frames_per_second",
            "ms_per_frame",
            "frames_per_second_end_to_end",
            "ms_per_frame_end_to_end",
        ):
            assert isinstance(engine[figure], float) and engine[figure] > 0
        assert engine["ms_per_frame"] == pytest.approx(1000 / engine["frames_per_second"])
        assert len(engine["span_seconds_all"]) == 2
        assert isinstance(engine["batch_size"], int) and engine["error"] is None
    assert data["numpy"]["batch_size"] == 1 and data["numpy"]["batch_sizes_tried"] == {}
    assert set(data["jax"]["batch_sizes_tried"]) == {"1", "2", "4"}
    assert 0 <= data["max_abs_diff"] <= 1e-5 and data["within_tolerance"] is True
    assert isinstance(data["speedup"], float) and isinstance(data["speedup_end_to_end"], float)
    assert data["clip_problem"] is None and isinstance(data["noisy"], bool)


def test_a_clip_with_more_frames_than_its_duration_says_is_timed_over_the_span_asked_for(
    tmp_path,
):
    # 20 frames a millisecond apart in a stream that says 10 a second: its duration says 1.
    fast = video_file(tmp_path / "fast.mkv", random_levels(20, size=(16, 12)), rate=10, apart=1)
    run = blurapp_in_process("compare", fast, "--start", "10", *QUICK, "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert (data["start"], data["frames"]) == (10, 4)
    assert data["clip"]["frame_count_estimated"] is False  # counted from its packets
    assert data["clip"]["frame_count"] == 20
    assert data["clip_problem"] is None and data["within_tolerance"] is True
    # A count the file declares is checked before any work.
    gif = animation_file(tmp_path / "three.gif", random_levels(3, size=(12, 10)))
    run = blurapp_in_process("compare", gif, "--start", "3", *QUICK)
    assert run.stderr == f"error: {gif}: --start 3 is past the clip's last frame (2)\n"


def test_an_engine_that_strays_from_numpy_is_reported_outside_the_tolerance(clip, monkeypatch):
    real = jax_engine.blur_frames_on_device

    def off_by_a_twentieth(*args, **kwargs):
        # The frames compared with NumPy's are floats; the timed passes' levels stay as made.
        blurred = real(*args, **kwargs)
        if blurred.output.dtype != np.float32:
            return blurred
        return blurred._replace(output=blurred.output + np.float32(0.05))

    monkeypatch.setattr(jax_engine, "blur_frames_on_device", off_by_a_twentieth)
    run = blurapp_in_process("compare", clip, *QUICK)
    assert run.returncode == 0, run.stderr
    difference = dict(rows(run.stdout))["max abs diff"]
    assert difference.startswith("0.05 (13 of 255 levels), NOT within 1e-05")
    data = json.loads(blurapp_in_process("compare", clip, *QUICK, "--json").stdout)
    assert data["max_abs_diff"] == pytest.approx(0.05, abs=1e-5)
    assert data["within_tolerance"] is False


def test_a_clip_cut_short_is_timed_over_what_decoded_with_a_warning(tmp_path):
    whole = video_file(tmp_path / "whole.mkv", random_levels(12))
    cut = tmp_path / "cut.mkv"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    run = blurapp_in_process("compare", cut, "--frames", "12", "--repeat", "2", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    decoded = data["frames"]
    assert 0 < decoded < 12
    assert data["clip_problem"].startswith(f"{cut}: the clip stops at frame {decoded}")
    assert run.stderr.strip() == (
        f"warning: timed over the {decoded} frames that decoded: {data['clip_problem']}"
    )
    assert data["numpy"]["frames_per_second"] > 0 and data["jax"]["frames_per_second"] > 0


def damaged_video(tmp_path):
    path = tmp_path / "broken.mkv"
    path.write_bytes(b"\x1a\x45\xdf\xa3" + bytes(range(256)) * 8)
    return path


def gif_bomb(tmp_path):
    path = animation_file(tmp_path / "bomb.gif", random_levels(3, (8, 8)))
    data = bytearray(path.read_bytes())
    data[6:10] = struct.pack("<HH", 60000, 60000)  # the logical screen: 60000 × 60000
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (damaged_video, ""),
        (gif_bomb, "too large to open safely"),
        (lambda folder: audio_only_file(folder / "sound.mkv"), "the file has no video stream"),
    ],
)
def test_a_clip_that_cannot_be_read_is_one_error_line_naming_it(tmp_path, make, words):
    bad = make(tmp_path)
    run = blurapp_in_process("compare", bad)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith(f"error: {bad}: ") and words in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("options", "words"),
    [
        # The clip's own folder, where NumPy's output would be the clip itself.
        (("--out-dir", "{folder}"), "this is the clip being blurred; BlurApp never writes over"),
        # Matroska says no count: it is counted from the packets before any work.
        (("--start", "6"), "--start 6 is past the clip's last frame (5)"),
    ],
)
def test_what_a_clip_cannot_do_is_refused_in_words(tmp_path, options, words):
    clip = video_file(tmp_path / "numpy.mkv", random_levels(6), rate=30)
    before = clip.read_bytes()
    options = [option.format(folder=tmp_path) for option in options]
    run = blurapp_in_process("compare", clip, *options, cwd=tmp_path)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith(f"error: {clip}: {words}")
    assert sorted(tmp_path.iterdir()) == [clip] and clip.read_bytes() == before


def test_an_out_dir_that_is_a_file_is_refused_before_the_timing(clip, tmp_path):
    taken = tmp_path / "outputs"
    taken.write_text("notes")
    run = blurapp_in_process("compare", clip, "--out-dir", taken)
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr == f"error: {taken}: the output folder is a file\n"
    assert taken.read_text() == "notes"


def read_clip(path):
    with open_clip_file(path) as clip:
        return clip.info, np.stack(list(clip.frames()))


def test_out_dir_writes_each_engines_blurred_span_as_a_lossless_clip(tmp_path):
    source = video_file(tmp_path / "waves.mkv", random_levels(8), rate=30)
    out = tmp_path / "new" / "outputs"
    options = ("--frames", "4", "--start", "3", "--repeat", "2", "--sigma", "1.5")
    run = blurapp_in_process("compare", source, *options, "--out-dir", out, "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["frames"] == 4
    assert sorted(path.name for path in out.iterdir()) == ["jax.mkv", "numpy.mkv"]
    _, originals = read_clip(source)
    kernel = gaussian_kernel(9, 1.5)
    for name in ("numpy.mkv", "jax.mkv"):
        info, frames = read_clip(out / name)
        assert (info.frame_count, info.frames_per_second) == (4, 30)
        with av.open(str(out / name)) as container:
            assert container.streams.video[0].codec_context.name == "ffv1"
        for original, frame in zip(originals[3:7], frames, strict=True):
            difference = np.abs(frame - blur_oracle(original, kernel))
            assert difference.max() <= 0.5 / 255 + 1e-5  # the nearest level of 255


def test_out_dir_writes_a_gif_of_a_gif_and_a_matroska_of_what_blurapp_cannot_write(tmp_path):
    gif = animation_file(tmp_path / "anim.gif", random_levels(5, (16, 12)), milliseconds=50)
    run = blurapp_in_process(
        "compare", gif, "--frames", "3", "--repeat", "2", "--out-dir", tmp_path / "gifs"
    )
    assert run.returncode == 0, run.stderr
    assert sorted(path.name for path in (tmp_path / "gifs").iterdir()) == ["jax.gif", "numpy.gif"]
    _, originals = read_clip(gif)
    for name in ("numpy.gif", "jax.gif"):
        info, frames = read_clip(tmp_path / "gifs" / name)
        assert (info.frame_count, info.frames_per_second) == (3, 20)
        for original, frame in zip(originals[:3], frames, strict=True):
            # A grey GIF's palette holds every level: the nearest level of 255.
            assert np.abs(frame - blur_oracle(original, gaussian_kernel(9, 2.5))).max() <= (
                0.5 / 255 + 1e-5
            )
    # MPEG-TS is read, not written: lossless Matroska instead, as `batch` writes it.
    stream = video_file(tmp_path / "live.ts", smooth_levels(4), codec="mpeg2video", rate=25)
    run = blurapp_in_process(
        "compare", stream, "--frames", "2", "--repeat", "2", "--out-dir", tmp_path / "ts"
    )
    assert run.returncode == 0, run.stderr
    assert sorted(path.name for path in (tmp_path / "ts").iterdir()) == ["jax.mkv", "numpy.mkv"]
    info, _ = read_clip(tmp_path / "ts" / "numpy.mkv")
    assert (info.frame_count, info.frames_per_second) == (2, 25)


def test_a_photo_still_compares_as_a_photo_and_refuses_clip_options(tmp_path):
    photo = photo_file(tmp_path)
    run = blurapp_in_process("compare", photo, "--repeat", "2")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("image ") and "frames/s" not in run.stdout
    refused = blurapp_in_process("compare", photo, "--frames", "4")
    assert refused.returncode == 1
    assert (
        refused.stderr.strip()
        == f"error: {photo}: --frames and --start are for clips; this is a photo"
    )
