"""`blurapp blur CLIP -o OUT` as a user runs it: every frame blurred and written, the rate kept,
what it says, and one `error:` line for a clip it cannot finish."""

import re
import signal
import struct
import subprocess
import sys
import textwrap

import av
import numpy as np
import pytest
import tifffile
from helpers.clip_files import (
    animation_file,
    avif_sequence,
    frames_as_pillow_shows_them,
    random_levels,
    smooth_levels,
    tiff_stack,
    video_file,
)
from helpers.command_line import blurapp, blurapp_in_process
from helpers.engine_calls import batch_types
from helpers.oracle import blur_oracle
from helpers.photos import photo_file
from PIL import Image

from blurapp.core.kernel import gaussian_kernel
from blurapp.core.media.clip_files import open_clip_file


def read(path, *, color=False):
    with open_clip_file(path, color=color) as clip:
        return clip.info, np.stack(list(clip.frames()))


@pytest.mark.parametrize("engine", ["numpy", "jax"])
def test_every_frame_of_a_lossless_clip_is_the_oracle_to_the_level(tmp_path, engine):
    source = video_file(tmp_path / "in.mkv", random_levels(6), rate=30)
    out = tmp_path / "out.mkv"
    run = blurapp_in_process("blur", source, "-o", out, "--engine", engine, "--sigma", "1.5")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"wrote {out}: 6 frames of 64 × 48 in ")
    assert "frames/s" in run.stdout
    _, originals = read(source)
    info, frames = read(out)
    assert info.frame_count == 6 and info.frames_per_second == 30
    with av.open(str(out)) as container:
        assert container.streams.video[0].codec_context.name == "ffv1"  # lossless stays so
    kernel = gaussian_kernel(9, 1.5)
    for original, frame in zip(originals, frames, strict=True):
        difference = np.abs(frame - blur_oracle(original, kernel))
        assert difference.max() <= 0.5 / 255 + 1e-5  # the nearest level of 255


@pytest.mark.parametrize(
    ("source_name", "depth", "output_name", "sent"),
    [
        ("in.mkv", np.uint8, "out.mkv", np.uint8),
        ("in.mkv", np.uint8, "out.tif", np.uint8),
        # 16-bit levels into an 8-bit video: floats, rounded once.
        ("in.tif", np.uint16, "out.mp4", np.float32),
    ],
)
def test_a_clip_is_blurred_as_the_levels_it_stores_where_the_output_keeps_them(
    tmp_path, monkeypatch, source_name, depth, output_name, sent
):
    batches = batch_types(monkeypatch)
    make = video_file if source_name.endswith(".mkv") else tiff_stack
    source = make(tmp_path / source_name, random_levels(6, dtype=depth))
    out = tmp_path / output_name
    run = blurapp_in_process("blur", source, "-o", out, "--engine", "jax", "--sigma", "1.5")
    assert run.returncode == 0, run.stderr
    # What the engine was handed: the stored levels where the output keeps their depth.
    assert batches and set(batches) == {np.dtype(sent)}
    if output_name == "out.mp4":
        return  # lossy: its levels are the codec's
    _, originals = read(source)
    _, frames = read(out)
    kernel = gaussian_kernel(9, 1.5)
    for original, frame in zip(originals, frames, strict=True):
        assert np.abs(frame - blur_oracle(original, kernel)).max() <= 0.5 / 255 + 1e-5


@pytest.mark.parametrize("rotate", [90, 270, 180])
def test_a_turned_phone_video_is_blurred_and_written_upright(tmp_path, rotate):
    # Stored 24 wide and 16 high, with a display matrix saying a player turns it `rotate`
    # degrees clockwise; np.rot90 turns anticlockwise.
    levels = random_levels(3, (24, 16))
    source = video_file(tmp_path / "portrait.mkv", levels, rotate=rotate)
    upright = np.rot90(levels, k=-rotate // 90, axes=(1, 2))
    height, width = upright.shape[1:]
    out = tmp_path / "out.mkv"
    run = blurapp_in_process("blur", source, "-o", out, "--kernel-size", "5", "--sigma", "1")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"wrote {out}: 3 frames of {width} × {height} in ")
    # Read as stored, by PyAV: upright pixels and no turn left for a player to make.
    with av.open(str(out)) as container:
        stored = list(container.decode(video=0))
    assert all(frame.rotation == 0 and "DISPLAYMATRIX" not in frame.side_data for frame in stored)
    kernel = gaussian_kernel(5, 1.0)
    for original, frame in zip(upright, stored, strict=True):
        assert (frame.width, frame.height) == (width, height)
        blurred = frame.to_ndarray(format="gray") / 255
        assert np.abs(blurred - blur_oracle(original / 255, kernel)).max() <= 0.5 / 255 + 1e-5


def test_a_sixteen_bit_colour_stack_stays_sixteen_bit(tmp_path):
    source = tiff_stack(tmp_path / "in.tif", random_levels(3, colour=True, dtype=np.uint16))
    out = tmp_path / "out.tif"
    run = blurapp_in_process(
        "blur", source, "-o", out, "--color", "--kernel-size", "5", "--sigma", "1"
    )
    assert run.returncode == 0, run.stderr
    _, originals = read(source, color=True)
    info, frames = read(out, color=True)
    assert info.bit_depth == 16 and info.colour and info.frame_count == 3
    kernel = gaussian_kernel(5, 1.0)
    for original, frame in zip(originals, frames, strict=True):
        difference = np.abs(frame - blur_oracle(original, kernel))
        assert difference.max() <= 0.5 / 65535 + 1e-5


def test_a_jpeg_stack_blurred_in_colour_is_written_in_its_decoded_colours(tmp_path):
    # What tifffile writes for RGB pages with JPEG compression: YCbCr, decoded back to RGB.
    source = tmp_path / "in.tif"
    levels = random_levels(3, (16, 16), colour=True)
    tifffile.imwrite(source, levels, photometric="rgb", compression="jpeg")
    out = tmp_path / "out.tif"
    run = blurapp_in_process(
        "blur", source, "-o", out, "--color", "--kernel-size", "5", "--sigma", "1"
    )
    assert run.returncode == 0, run.stderr
    with Image.open(source) as image:  # Pillow's decoding, not the stack reader's
        originals = []
        for index in range(image.n_frames):
            image.seek(index)
            originals.append(np.asarray(image.convert("RGB")) / 255)
    info, frames = read(out, color=True)
    assert info.colour and frames.shape == (3, 16, 16, 3)
    kernel = gaussian_kernel(5, 1.0)
    for original, frame in zip(originals, frames, strict=True):
        difference = np.abs(frame - blur_oracle(original, kernel))
        assert difference.max() <= 0.5 / 255 + 1e-5


def test_every_frame_of_an_avif_sequence_is_blurred_at_its_rate(tmp_path):
    # Its first frame is also the file's primary image, a still that FFmpeg lists as a stream
    # of its own before the movie: that still was the whole clip.
    source = avif_sequence(tmp_path / "burst.avif", smooth_levels(3, (32, 24), colour=True))
    out = tmp_path / "out.tif"
    run = blurapp_in_process(
        "blur", source, "-o", out, "--color", "--kernel-size", "5", "--sigma", "1"
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"wrote {out}: 3 frames of 32 × 24 in ")
    info, _ = read(out, color=True)
    assert info.frame_count == 3 and info.frames_per_second == 10
    kernel = gaussian_kernel(5, 1.0)
    written = tifffile.imread(out) / 255
    # FFmpeg and Pillow decode the same AV1 pictures, each rounding its own conversion to red,
    # green and blue (a level apart at most); the output's 8-bit levels add half a level.
    for shown, blurred in zip(frames_as_pillow_shows_them(source), written, strict=True):
        assert np.abs(blurred - blur_oracle(shown, kernel)).max() <= 1.5 / 255 + 1e-5


def test_an_animation_becomes_a_video_at_its_rate(tmp_path):
    source = animation_file(tmp_path / "in.gif", random_levels(8), milliseconds=50)
    out = tmp_path / "out.mp4"
    run = blurapp_in_process("blur", source, "-o", out, "--codec", "mpeg4")
    assert run.returncode == 0, run.stderr
    info, _ = read(out)
    assert info.frame_count == 8 and info.frames_per_second == 20
    with av.open(str(out)) as container:
        assert container.streams.video[0].codec_context.name == "mpeg4"


def test_a_colour_clip_blurred_in_grey_says_so_and_how_to_keep_the_colour(tmp_path):
    source = video_file(tmp_path / "clip.mp4", random_levels(3, colour=True), codec="mpeg4")
    run = blurapp_in_process("blur", source, "-o", tmp_path / "out.mp4")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(
        f"wrote {tmp_path / 'out.mp4'} in grey (--color keeps the colour): 3 frames"
    )
    in_colour = blurapp_in_process("blur", source, "-o", tmp_path / "colour.mp4", "--color")
    grey = video_file(tmp_path / "grey.mkv", random_levels(3))  # FFV1 stores grey as grey
    of_grey = blurapp_in_process("blur", grey, "-o", tmp_path / "grey-out.mkv")
    for quiet in (in_colour, of_grey):
        assert quiet.returncode == 0, quiet.stderr
        assert "in grey" not in quiet.stdout


def test_a_clip_with_sound_says_the_sound_is_not_written(tmp_path):
    source = video_file(tmp_path / "talk.mkv", random_levels(3), audio=True)
    run = blurapp_in_process("blur", source, "-o", tmp_path / "out.mkv")
    assert run.returncode == 0, run.stderr
    assert "note: talk.mkv has sound; BlurApp writes the frames only, without it" in run.stderr
    with av.open(str(tmp_path / "out.mkv")) as container:
        assert not container.streams.audio


def test_a_clip_cut_short_is_one_error_line_and_no_file(tmp_path):
    whole = video_file(tmp_path / "whole.mkv", random_levels(40))
    cut = tmp_path / "cut.mkv"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    out = tmp_path / "out.mkv"
    run = blurapp_in_process("blur", cut, "-o", out)
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert lines[-1].startswith(f"error: {cut}: the clip stops at frame ")
    assert "Traceback" not in run.stderr
    assert not out.exists()


def test_a_clip_into_a_photo_format_is_refused_before_blurring(tmp_path):
    source = video_file(tmp_path / "in.mkv", random_levels(2))
    run = blurapp_in_process("blur", source, "-o", tmp_path / "out.png")
    assert run.returncode == 1
    assert (
        run.stderr.strip()
        .splitlines()[-1]
        .startswith(f"error: {tmp_path / 'out.png'}: unknown output format '.png'; use .mp4")
    )


def test_codec_is_for_clips_only(tmp_path):
    photo = photo_file(tmp_path)
    run = blurapp_in_process("blur", photo, "-o", tmp_path / "out.png", "--codec", "ffv1")
    assert run.returncode == 1
    assert run.stderr.strip() == f"error: {photo}: --codec is for clips; this is a photo"


def test_without_pyav_the_error_says_how_to_get_it(tmp_path, monkeypatch):
    source = video_file(tmp_path / "in.mkv", random_levels(2))
    monkeypatch.setitem(sys.modules, "av", None)
    run = blurapp_in_process("blur", source, "-o", tmp_path / "out.mkv")
    assert run.returncode == 1
    assert run.stderr.strip().endswith(
        "reading and writing video needs PyAV, which is not installed: pip install 'blurapp[video]'"
    )


def test_blocks_are_for_photos_not_clips(tmp_path):
    source = video_file(tmp_path / "in.mkv", random_levels(2))
    run = blurapp_in_process("blur", source, "-o", tmp_path / "out.mkv", "--tiles")
    assert run.returncode == 1
    assert run.stderr.strip() == (
        f"error: {source}: a clip is blurred a frame at a time; --tiles and --scheduler are for "
        "photos too large for memory"
    )
    assert not (tmp_path / "out.mkv").exists()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_mid_clip_stops_every_thread_and_leaves_no_file(tmp_path, signum):
    # The signal arrives as the fourth frame is written, every time: no race to lose. Frames
    # are being decoded and blurred on threads of their own meanwhile.
    source = video_file(tmp_path / "in.mkv", random_levels(20))
    script = textwrap.dedent(
        f"""
        import os, signal, sys
        signal.signal(signal.SIGINT, signal.default_int_handler)
        import blurapp.core.media.clip_saving as clip_saving

        real, written = clip_saving.levels_for_output, []

        def signal_at_the_fourth(frame, deep):
            written.append(1)
            if len(written) == 4:
                os.kill(os.getpid(), {int(signum)})
            return real(frame, deep)

        clip_saving.levels_for_output = signal_at_the_fourth
        from blurapp.cli import main
        sys.exit(main(["blur", {str(source)!r}, "-o", "out.mkv"]))
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert run.returncode == 128 + signum, run.stderr
    assert run.stderr.strip().splitlines()[-1].startswith("error: ")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.mkv"]


@pytest.mark.skipif(sys.platform == "win32", reason="file size limits are POSIX's")
def test_an_encoder_that_cannot_write_mid_clip_is_one_error_line_naming_the_output(tmp_path):
    # The output may grow to a quarter of the source: FFmpeg's writes fail partway through the
    # clip (File too large), while frames are still being decoded and blurred on their threads.
    source = video_file(tmp_path / "in.mkv", random_levels(200, (160, 120)))
    limit = source.stat().st_size // 4

    # The limit is set inside the child, not by a preexec_fn: forking this process, where
    # another test may have started JAX's threads, can deadlock.
    limited = (
        "import resource, runpy, sys; "
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit})); "
        "sys.argv[0] = 'blurapp'; runpy.run_module('blurapp', run_name='__main__')"
    )
    out = tmp_path / "out.mkv"
    command = [sys.executable, "-c", limited, "blur", source, "-o", out, "--engine", "numpy"]
    run = subprocess.run(
        list(map(str, command)),
        capture_output=True,
        text=True,
        timeout=300,  # ended, not hung, with its threads
    )
    assert run.returncode == 1, run.stderr
    assert run.stderr.strip().splitlines() == [
        f"error: {out}: ffv1 cannot store this clip: File too large"
    ]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.mkv"]


def test_the_last_line_says_how_many_frames_each_call_blurred(tmp_path):
    source = video_file(tmp_path / "in.mkv", random_levels(40, (32, 24)))
    run = blurapp_in_process("blur", source, "-o", tmp_path / "jax.mkv", "--engine", "jax")
    assert run.returncode == 0, run.stderr
    # 40 frames repay measuring batches of 1 and 2 frames (at most one 16th of the clip each).
    assert re.search(
        r"; JAX-jit blurred (1 frame|2 frames) a call, the fastest of 1 and 2 measured\)$",
        run.stdout.strip(),
    )
    run = blurapp_in_process("blur", source, "-o", tmp_path / "numpy.mkv")
    assert run.stdout.strip().endswith("; NumPy blurred 1 frame a call)")
    _, originals = read(source)
    _, frames = read(tmp_path / "jax.mkv")
    kernel = gaussian_kernel(9, 2.5)
    for original, frame in zip(originals, frames, strict=True):
        assert np.abs(frame - blur_oracle(original, kernel)).max() <= 0.5 / 255 + 1e-5


def test_a_bomb_or_a_broken_video_is_one_error_line_and_nothing_else(tmp_path):
    # A GIF whose one frame declares 10,000 × 10,000 pixels in a few bytes (over Pillow's
    # warning limit), and a video that is noise.
    frame = b"," + struct.pack("<HHHHB", 0, 0, 10000, 10000, 0) + b"\x02\x02\x44\x01\x00"
    control = b"!\xf9\x04\x00\x0a\x00\x00\x00"
    screen = b"GIF89a" + struct.pack("<HHBBB", 1, 1, 0x80, 0, 0) + b"\0\0\0\xff\xff\xff"
    (tmp_path / "bomb.gif").write_bytes(screen + (control + frame) * 2 + b";")
    (tmp_path / "noise.mp4").write_bytes(bytes(range(256)) * 4)
    for name in ("bomb.gif", "noise.mp4"):
        run = blurapp("blur", tmp_path / name, "-o", tmp_path / "out.mkv", "--engine", "numpy")
        assert run.returncode == 1
        assert run.stderr.startswith(f"error: {tmp_path / name}: ")
        assert len(run.stderr.splitlines()) == 1, run.stderr
        assert "Errno" not in run.stderr and "Warning" not in run.stderr
