"""Clip files opened as clips (blurapp.core.media.clip_files): what a caller gets of each kind, and
each kind of bad file refused in words naming it, before or where it stops."""

import os
import re
import struct
import sys
import tracemalloc
import warnings
from fractions import Fraction

import av
import cv2
import numpy as np
import pytest
import tifffile
from helpers.clip_files import (
    animation_file,
    apng_file,
    audio_only_file,
    frame_number,
    joined_recordings,
    late_video,
    random_levels,
    restarted_matroska,
    smooth_levels,
    tiff_stack,
    video_file,
)
from helpers.oracle import blur_oracle
from PIL import Image

from blurapp.core.blurring.blur_clip_file import blur_clip
from blurapp.core.engines import get_engine
from blurapp.core.media.clip import ClipError
from blurapp.core.media.clip_files import is_clip, open_clip_file
from blurapp.core.media.photo import load_photo
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.media.pixels import samples_to_float
from blurapp.core.spec import BlurSpec


def floats(levels):
    """Levels on 0 to 1 as photos make them (times the float32 reciprocal of white)."""
    return np.multiply(levels, np.float32(1 / np.iinfo(levels.dtype).max), dtype=np.float32)


def test_a_lossless_grey_video_gives_back_its_levels(tmp_path):
    levels = random_levels(12)
    path = video_file(tmp_path / "grey.mkv", levels, rate=30)
    assert is_clip(path)
    with open_clip_file(path) as clip:
        info = clip.info
        assert (info.width, info.height, info.frame_count) == (64, 48, 12)
        assert info.frames_per_second == 30 and not info.colour and info.bit_depth == 8
        frames = list(clip.frames())
    assert len(frames) == 12
    np.testing.assert_array_equal(np.stack(frames), floats(levels))
    assert frames[0].dtype == np.float32 and not frames[0].flags.writeable


def test_a_colour_video_in_colour_and_in_grey_as_a_photo_would_be(tmp_path):
    levels = random_levels(5, colour=True)
    path = video_file(tmp_path / "colour.mkv", levels)
    with open_clip_file(path, color=True) as clip:
        assert clip.info.colour and clip.info.frame_shape == (48, 64, 3)
        np.testing.assert_array_equal(np.stack(list(clip.frames())), floats(levels))
    with open_clip_file(path) as clip:
        assert not clip.info.colour
        grey = np.stack(list(clip.frames()))
    # The grey a photo of the same pixels gets.
    expected = [samples_to_float(frame, white=255, colour=True) for frame in levels]
    np.testing.assert_array_equal(grey, np.stack(expected))


def test_a_sixteen_bit_video_keeps_sixteen_bits(tmp_path):
    levels = random_levels(4, dtype=np.uint16)
    path = video_file(tmp_path / "deep.mkv", levels)
    with open_clip_file(path) as clip:
        assert clip.info.bit_depth == 16
        np.testing.assert_array_equal(np.stack(list(clip.frames())), floats(levels))


@pytest.mark.parametrize(
    ("colour", "dtype", "in_colour"),
    [(False, np.uint8, False), (True, np.uint8, True), (False, np.uint16, False)],
    ids=["grey", "colour", "16-bit grey"],
)
def test_a_video_gives_its_frames_as_the_levels_it_stores(tmp_path, colour, dtype, in_colour):
    # What an accelerator is sent of a clip: the stored levels, a quarter of the floats' bytes,
    # whose floats are exactly the frames.
    levels = random_levels(6, colour=colour, dtype=dtype)
    path = video_file(tmp_path / "levels.mkv", levels)
    with open_clip_file(path, color=in_colour) as clip:
        assert clip.gives_levels
        given = list(clip.levels())
        again = list(clip.levels(2, 4))
        frames = list(clip.frames())
    np.testing.assert_array_equal(np.stack(given), levels)
    assert given[0].dtype == dtype and not given[0].flags.writeable
    np.testing.assert_array_equal(np.stack(again), levels[2:4])
    np.testing.assert_array_equal(np.stack(frames), floats(np.stack(given)))


def test_a_colour_video_read_in_grey_has_no_levels_to_give(tmp_path):
    # Its grey is made of three levels a pixel: its frames are not levels scaled.
    path = video_file(tmp_path / "colour.mkv", random_levels(2, colour=True))
    with open_clip_file(path) as clip:
        assert not clip.gives_levels
        with pytest.raises(ValueError, match=r"colour\.mkv gives its frames as floats only"):
            clip.levels()


def test_frames_from_the_middle_match_those_read_from_the_start(tmp_path):
    # H.264 with a keyframe every 4 frames: frame(i) seeks to one and decodes forward.
    path = video_file(tmp_path / "moving.mp4", smooth_levels(20), codec="libx264", gop=4)
    with open_clip_file(path) as clip:
        assert clip.info.frame_count == 20
        every = list(clip.frames())
        for index in (0, 1, 6, 13, 19, 2):
            np.testing.assert_array_equal(clip.frame(index), every[index])
        np.testing.assert_array_equal(np.stack(list(clip.frames(9, 12))), np.stack(every[9:12]))
        with pytest.raises(IndexError, match=r"moving\.mp4 has no frame 20"):
            clip.frame(20)


# Lossless either way: FFV1 in Matroska, H.264 of red, green and blue in MP4 (a phone's
# container, whose display matrix FFmpeg reads from another place than Matroska's).
_LOSSLESS_TURNED = {
    "turned.mkv": {},
    "turned.mp4": {"codec": "libx264rgb", "pixel_format": "rgb24", "options": {"qp": "0"}},
}


@pytest.mark.parametrize("name", list(_LOSSLESS_TURNED))
@pytest.mark.parametrize("rotate", [90, 270, -90, 180])
def test_a_video_turned_by_its_display_matrix_gives_its_frames_upright(tmp_path, name, rotate):
    # A phone's portrait clip: frames stored 24 wide and 16 high, and a display matrix saying
    # how a player turns them. np.rot90 turns anticlockwise, the matrix's `rotate` clockwise.
    levels = random_levels(4, (24, 16), colour=True)
    path = video_file(tmp_path / name, levels, rotate=rotate, **_LOSSLESS_TURNED[name])
    upright = np.rot90(levels, k=-rotate // 90, axes=(1, 2))
    with open_clip_file(path, color=True) as clip:
        assert (clip.info.height, clip.info.width) == upright.shape[1:3]
        assert clip.info.frame_shape == upright.shape[1:]
        np.testing.assert_array_equal(np.stack(list(clip.frames())), floats(upright))
        np.testing.assert_array_equal(clip.frame(2), floats(upright[2]))
    with open_clip_file(path) as clip:
        expected = [samples_to_float(frame, white=255, colour=True) for frame in upright]
        np.testing.assert_array_equal(np.stack(list(clip.frames())), np.stack(expected))


@pytest.mark.parametrize("rotate", [90, -90, 180])
def test_a_turned_video_reads_as_a_player_shows_it(tmp_path, rotate):
    # OpenCV's FFmpeg reader turns frames by their display matrix, as players do.
    levels = random_levels(2, (24, 16), colour=True)
    path = video_file(tmp_path / "turned.mkv", levels, rotate=rotate)
    capture = cv2.VideoCapture(str(path), cv2.CAP_FFMPEG)
    shown = []
    while (read := capture.read())[0]:
        shown.append(cv2.cvtColor(read[1], cv2.COLOR_BGR2RGB))
    capture.release()
    with open_clip_file(path, color=True) as clip:
        np.testing.assert_array_equal(np.stack(list(clip.frames())), floats(np.stack(shown)))


def test_a_video_mirrored_by_its_display_matrix_gives_its_frames_mirrored(tmp_path):
    levels = random_levels(2, (24, 16), colour=True)
    path = video_file(tmp_path / "mirrored.mkv", levels, rotate=0, mirror=True)
    with open_clip_file(path, color=True) as clip:
        assert (clip.info.width, clip.info.height) == (24, 16)
        np.testing.assert_array_equal(np.stack(list(clip.frames())), floats(levels[:, :, ::-1]))


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
def test_a_tiff_stack_gives_its_pages_as_a_photo_would(tmp_path, dtype):
    levels = random_levels(4, colour=True, dtype=dtype)
    path = tiff_stack(tmp_path / "stack.tif", levels)
    assert is_clip(path)
    with open_clip_file(path, color=True) as clip:
        assert clip.info.frame_count == 4 and clip.info.colour
        assert clip.info.bit_depth == (16 if dtype == np.uint16 else 8)
        np.testing.assert_array_equal(np.stack(list(clip.frames())), floats(levels))
        np.testing.assert_array_equal(clip.frame(2), floats(levels[2]))
    with open_clip_file(path) as clip:
        tifffile.imwrite(tmp_path / "page.tif", levels[1], photometric="rgb")
        np.testing.assert_array_equal(clip.frame(1), load_photo(tmp_path / "page.tif").pixels)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
@pytest.mark.parametrize("colour", [False, True], ids=["grey", "colour"])
def test_a_tiff_stack_stored_as_shown_gives_its_levels(tmp_path, dtype, colour):
    levels = random_levels(3, colour=colour, dtype=dtype)
    path = tiff_stack(tmp_path / "stack.tif", levels)
    with open_clip_file(path, color=colour) as clip:
        assert clip.gives_levels
        given = np.stack(list(clip.levels()))
        frames = np.stack(list(clip.frames()))
    np.testing.assert_array_equal(given, levels)
    assert given.dtype == dtype
    np.testing.assert_array_equal(frames, floats(given))
    # In grey, a colour stack's frames are made of three levels a pixel: no levels to give.
    if colour:
        with open_clip_file(path) as clip:
            assert not clip.gives_levels


def test_a_tiff_of_pages_of_different_sizes_or_one_page_stays_a_photo(tmp_path):
    pyramid = tmp_path / "pyramid.tif"
    with tifffile.TiffWriter(pyramid) as tiff:
        tiff.write(random_levels(1, (64, 48))[0])
        tiff.write(random_levels(1, (32, 24))[0])
    single = tiff_stack(tmp_path / "single.tif", random_levels(1))
    assert not is_clip(pyramid) and not is_clip(single)
    assert load_photo(pyramid).pixels.shape == (48, 64)
    with pytest.raises(ClipError, match=r"pyramid\.tif: this TIFF is a photo, not a stack"):
        open_clip_file(pyramid)


@pytest.mark.parametrize(
    ("name", "options"),
    [("moving.gif", {}), ("moving.webp", {"lossless": True}), ("moving.png", {})],
)
def test_animations_play_at_their_frames_durations(tmp_path, name, options):
    levels = random_levels(6)
    path = animation_file(tmp_path / name, levels, milliseconds=50, **options)
    assert is_clip(path)
    with open_clip_file(path) as clip:
        assert clip.info.frame_count == 6 and clip.info.frames_per_second == 20
        np.testing.assert_allclose(np.stack(list(clip.frames())), floats(levels), atol=1e-6)


def test_a_one_frame_gif_or_a_photo_is_not_a_clip(tmp_path):
    gif = animation_file(tmp_path / "still.gif", random_levels(1))
    png = tmp_path / "photo.png"
    Image.fromarray(random_levels(1)[0]).save(png)
    assert not is_clip(gif) and not is_clip(png)
    assert not is_clip(tmp_path / "missing.mkv")
    fifo = tmp_path / "pipe.mkv"
    os.mkfifo(fifo)
    assert not is_clip(fifo)  # without waiting for a writer


def test_a_clip_cut_short_plays_what_decodes_then_says_where_it_stopped(tmp_path):
    whole = video_file(tmp_path / "whole.mkv", random_levels(40))
    cut = tmp_path / "cut.mkv"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    frames = []
    with open_clip_file(cut) as clip, pytest.raises(ClipError) as stopped:
        for frame in clip.frames():
            frames.append(frame)
    assert 5 < len(frames) < 40
    assert str(stopped.value).startswith(f"{cut}: the clip stops at frame {len(frames)}: ")
    # Its 40 frames are worked out from its duration, not counted from its packets (it holds
    # packets of fewer): the words say what was known.
    assert re.search(
        r": the file ends [\d.]+ s before the duration it declares \(it is truncated\)$",
        str(stopped.value),
    ), str(stopped.value)


def test_a_tiff_stack_cut_short_gives_its_whole_pages_then_stops(tmp_path):
    levels = random_levels(6)
    whole = tiff_stack(tmp_path / "whole.tif", levels)
    cut = tmp_path / "cut.tif"
    cut.write_bytes(whole.read_bytes()[: int(whole.stat().st_size * 0.6)])
    frames = []
    with open_clip_file(cut) as clip, pytest.raises(ClipError) as stopped:
        for frame in clip.frames():
            frames.append(frame)
    assert 0 < len(frames) < 6
    np.testing.assert_array_equal(np.stack(frames), floats(levels[: len(frames)]))
    assert str(stopped.value) == (
        f"{cut}: the clip stops at frame {len(frames)}: the file is truncated (it ends before "
        "the image does)"
    )


def test_a_damaged_clip_stops_where_its_data_goes_bad(tmp_path):
    whole = video_file(tmp_path / "whole.mkv", random_levels(40))
    data = bytearray(whole.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 2000] = b"\x55" * 2000
    damaged = tmp_path / "damaged.mkv"
    damaged.write_bytes(bytes(data))
    with open_clip_file(damaged) as clip:
        frames = clip.frames()
        good = [next(frames) for _ in range(5)]
        np.testing.assert_array_equal(good[4], floats(random_levels(40)[4]))
        with pytest.raises(ClipError, match=r"damaged\.mkv: the clip stops at frame \d+: "):
            list(frames)


def test_frames_that_change_size_stop_the_clip_at_that_frame(tmp_path):
    first = video_file(tmp_path / "a.ts", smooth_levels(5), codec="mpeg2video")
    second = video_file(tmp_path / "b.ts", smooth_levels(5, (32, 32)), codec="mpeg2video")
    joined = tmp_path / "joined.ts"
    joined.write_bytes(first.read_bytes() + second.read_bytes())
    shapes = []
    with open_clip_file(joined) as clip, pytest.raises(ClipError) as stopped:
        for frame in clip.frames():
            shapes.append(frame.shape)
    assert shapes and set(shapes) == {(48, 64)}
    assert f"joined.ts: the clip stops at frame {len(shapes)}: " in str(stopped.value)
    assert "the frame is 32 × 32 pixels where the clip's are 64 × 48" in str(stopped.value)


def test_a_file_with_no_video_stream_says_what_it_holds(tmp_path):
    path = audio_only_file(tmp_path / "sound.mkv")
    with pytest.raises(
        ClipError, match=r"sound\.mkv: the file has no video stream \(only 1 audio\)"
    ):
        open_clip_file(path)


def test_a_gif_declaring_huge_frames_is_refused_before_decoding(tmp_path):
    path = animation_file(tmp_path / "bomb.gif", random_levels(3, (8, 8)))
    data = bytearray(path.read_bytes())
    data[6:10] = struct.pack("<HH", 60000, 60000)  # the logical screen: 60000 × 60000
    path.write_bytes(bytes(data))
    with pytest.raises(PhotoError, match=r"bomb\.gif: .*too large to open safely"):
        open_clip_file(path)


def test_a_tiff_stack_declaring_huge_pages_is_refused_before_decoding(tmp_path):
    path = tiff_stack(tmp_path / "huge.tif", random_levels(2, (8, 8)))
    data = bytearray(path.read_bytes())
    with tifffile.TiffFile(path) as tiff:
        for page in tiff.pages:
            for tag in ("ImageWidth", "ImageLength"):
                found = page.tags[tag]
                kind = {3: "<H", 4: "<I"}[int(found.dtype)]
                data[found.valueoffset : found.valueoffset + struct.calcsize(kind)] = struct.pack(
                    kind, 60000
                )
    path.write_bytes(bytes(data))
    with pytest.raises(
        ClipError, match=r"huge\.tif: its frames are 60,000 × 60,000 pixels, too large"
    ):
        open_clip_file(path)


def test_thousands_of_frames_open_since_they_are_decoded_one_at_a_time(tmp_path):
    path = animation_file(tmp_path / "many.gif", random_levels(3000, (4, 4)), milliseconds=20)
    with open_clip_file(path) as clip:
        assert clip.info.frame_count == 3000
        assert sum(1 for _ in clip.frames()) == 3000


def test_memory_holds_a_few_frames_whatever_the_clip_length(tmp_path):
    frames = 1500
    path = video_file(tmp_path / "long.mkv", random_levels(frames, (64, 48)))
    one_frame = 64 * 48 * 4
    with open_clip_file(path) as clip:
        tracemalloc.start()
        try:
            seen = sum(1 for _ in clip.frames())
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert seen == frames
    assert peak < 20 * one_frame  # the whole clip would be 1500 frames


def test_without_pyav_a_video_says_how_to_get_it(tmp_path, monkeypatch):
    path = video_file(tmp_path / "clip.mkv", random_levels(2))
    monkeypatch.setitem(sys.modules, "av", None)
    with pytest.raises(ClipError) as refused:
        open_clip_file(path)
    assert str(refused.value) == (
        f"{path}: reading and writing video needs PyAV, which is not installed: "
        "pip install 'blurapp[video]'"
    )


def test_a_file_that_is_no_clip_is_refused_in_words(tmp_path):
    path = tmp_path / "notes.mp4"
    path.write_text("these are not frames")
    assert is_clip(path)  # by its name: opening it says what is wrong
    with pytest.raises(ClipError, match=r"notes\.mp4: this is not a video BlurApp can read"):
        open_clip_file(path)
    with pytest.raises(PhotoError, match="no such file"):
        open_clip_file(tmp_path / "missing.mkv")


def test_a_sixteen_bit_grey_animated_png_keeps_its_levels_and_depth(tmp_path):
    levels = np.array([np.full((4, 5), level, np.uint16) for level in (1000, 30000, 60000)])
    path = apng_file(tmp_path / "deep.png", levels)
    with open_clip_file(path) as clip:
        assert clip.info.bit_depth == 16
        frames = np.stack(list(clip.frames()))
    np.testing.assert_array_equal(frames, floats(levels))
    np.testing.assert_array_equal(frames[0], load_photo(path).pixels)


def test_a_tiff_stack_stored_in_planes_gives_frames_of_its_own_size(tmp_path):
    planes = random_levels(3, (4, 6), colour=True).transpose(0, 3, 1, 2)  # frames, samples, H, W
    path = tmp_path / "planes.tif"
    tifffile.imwrite(path, planes, photometric="rgb", planarconfig="separate", metadata=None)
    with open_clip_file(path, color=True) as clip:
        assert clip.info.colour and clip.info.frame_shape == (6, 4, 3)
        frames = np.stack(list(clip.frames()))
    np.testing.assert_array_equal(frames, floats(planes.transpose(0, 2, 3, 1)))
    # Two pixels wide: the planes are still red, green and blue.
    red = np.zeros((2, 3, 5, 2), np.uint8)
    red[:, 0] = 255
    tifffile.imwrite(tmp_path / "red.tif", red, photometric="rgb", planarconfig="separate")
    with open_clip_file(tmp_path / "red.tif", color=True) as clip:
        assert clip.info.colour
        np.testing.assert_array_equal(clip.frame(1), np.broadcast_to([1, 0, 0], (5, 2, 3)))
    # Six grey planes: the first is the picture.
    grey = random_levels(2, (3, 4), colour=False)[:, :, :, np.newaxis].repeat(6, 3)
    grey = grey.transpose(0, 3, 1, 2)
    tifffile.imwrite(tmp_path / "six.tif", grey, photometric="minisblack", planarconfig="separate")
    with open_clip_file(tmp_path / "six.tif") as clip:
        assert clip.info.frame_shape == (4, 3)
        np.testing.assert_array_equal(np.stack(list(clip.frames())), floats(grey[:, 0]))


def test_a_gif_whose_later_frame_is_huge_is_refused_before_that_frame_is_decoded(tmp_path):
    # A 1 × 1 screen, then a frame declaring 12,000 × 12,000 pixels held in a few bytes.
    control = b"!\xf9\x04\x00\x0a\x00\x00\x00"
    pixels = b"\x02\x02\x44\x01\x00"
    data = b"GIF89a" + struct.pack("<HHBBB", 1, 1, 0x80, 0, 0) + b"\0\0\0\xff\xff\xff"
    data += control + b"," + struct.pack("<HHHHB", 0, 0, 1, 1, 0) + pixels
    data += control + b"," + struct.pack("<HHHHB", 0, 0, 12000, 12000, 0) + pixels + b";"
    (tmp_path / "bomb.gif").write_bytes(data)
    with open_clip_file(tmp_path / "bomb.gif") as clip:
        frames = clip.frames()
        assert next(frames).shape == (1, 1)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # and no bomb warning printed on the way
            with pytest.raises(
                ClipError, match=r"bomb\.gif.*frame 1: the frame is 12000 × 12000 pixels"
            ):
                next(frames)


def variable_rate_video(path, stamps, *, codec="ffv1", options=None):
    """Grey frames of level 20 × their index, shown at `stamps` (milliseconds)."""
    with av.open(str(path), "w") as container:
        stream = container.add_stream(codec, rate=10)
        stream.width = stream.height = 16
        stream.pix_fmt = "gray" if codec == "ffv1" else "yuv444p"
        stream.codec_context.time_base = Fraction(1, 1000)
        stream.options = options or {}
        for index, stamp in enumerate(stamps):
            picture = av.VideoFrame.from_ndarray(
                np.full((16, 16, 3), 20 * index, np.uint8), "rgb24"
            )
            picture.pts, picture.time_base = stamp, Fraction(1, 1000)
            for packet in [
                *stream.encode(picture),
                *([] if index < len(stamps) - 1 else stream.encode()),
            ]:
                container.mux(packet)
    return path


GAPPED = [0, 100, 200, 300, 10000, 10100, 10200, 10300, 10400, 30000, 30100, 30200]


def test_a_whole_variable_rate_video_plays_to_its_end_without_a_false_truncation(tmp_path):
    path = variable_rate_video(tmp_path / "gaps.mkv", GAPPED)
    with open_clip_file(path) as clip:
        levels = [round(float(frame[0, 0]) * 255 / 20) for frame in clip.frames()]
    assert levels == list(range(12))


@pytest.mark.parametrize("name", ["gaps.mp4", "gaps.mkv"])
def test_each_frame_of_a_variable_rate_video_is_the_one_read_in_order(tmp_path, name):
    options = {"qp": "0", "bf": "0", "g": "3"} if name.endswith(".mp4") else None
    codec = "libx264" if name.endswith(".mp4") else "ffv1"
    path = variable_rate_video(tmp_path / name, GAPPED, codec=codec, options=options)
    with open_clip_file(path) as clip:
        got = [round(float(clip.frame(index).mean()) * 255 / 20) for index in range(12)]
        later = [round(float(frame.mean()) * 255 / 20) for frame in clip.frames(5)]
    assert got == list(range(12))
    assert later == list(range(5, 12))


def test_frames_closer_than_the_stated_rate_are_each_the_one_asked_for(tmp_path):
    # A millisecond apart in a stream that says 10 a second: its duration says 1 frame.
    path = variable_rate_video(tmp_path / "fast.mkv", list(range(12)))
    with open_clip_file(path) as clip:
        assert clip.info.frame_count == 12  # counted from the packets, not from the duration
        got = [round(float(clip.frame(index).mean()) * 255 / 20) for index in range(12)]
        later = [round(float(frame.mean()) * 255 / 20) for frame in clip.frames(5, 9)]
    assert got == list(range(12))
    assert later == [5, 6, 7, 8]


def test_transparency_in_a_video_is_shown_over_white_as_in_a_photo(tmp_path):
    levels = np.zeros((2, 4, 6, 4), np.uint8)
    levels[..., 0] = 255  # red, transparent on the left, half on the right, opaque below
    levels[:, :2, :3, 3], levels[:, :2, 3:, 3], levels[:, 2:, :, 3] = 0, 128, 255
    path = tmp_path / "alpha.mkv"
    with av.open(str(path), "w") as container:
        stream = container.add_stream("ffv1", rate=10)
        stream.width, stream.height, stream.pix_fmt = 6, 4, "bgra"
        for frame in levels:
            for packet in stream.encode(av.VideoFrame.from_ndarray(frame, format="rgba")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    Image.fromarray(levels[0]).save(tmp_path / "alpha.png")
    for color in (False, True):
        with open_clip_file(path, color=color) as clip:
            frame = clip.frame(1)
            assert not clip.gives_levels  # composited over white: not levels scaled
        np.testing.assert_allclose(
            frame, load_photo(tmp_path / "alpha.png", color=color).pixels, atol=1e-6
        )


def test_premultiplied_transparency_in_a_tiff_stack_is_shown_as_in_a_photo(tmp_path):
    levels = np.zeros((2, 4, 4, 2), np.uint8)
    levels[:, :, 2:] = (64, 128)  # transparent on the left, half-transparent grey on the right
    tifffile.imwrite(tmp_path / "stack.tif", levels, photometric="minisblack", extrasamples=[1])
    tifffile.imwrite(tmp_path / "page.tif", levels[0], photometric="minisblack", extrasamples=[1])
    with open_clip_file(tmp_path / "stack.tif") as clip:
        frame = clip.frame(1)
    np.testing.assert_allclose(frame, load_photo(tmp_path / "page.tif").pixels, atol=1e-6)
    assert frame[0, 0] == 1.0


def test_telling_a_long_stack_is_a_clip_reads_a_few_of_its_pages(tmp_path, monkeypatch):
    path = tiff_stack(tmp_path / "long.tif", np.zeros((300, 1, 1), np.uint8))
    made = []
    page = tifffile.TiffPage.__init__

    def counted(self, *args, **kwargs):
        made.append(1)
        page(self, *args, **kwargs)

    monkeypatch.setattr(tifffile.TiffPage, "__init__", counted)
    assert is_clip(path)
    assert len(made) <= 20
    # A thumbnail after the pages: a photo still.
    with tifffile.TiffWriter(tmp_path / "thumbnail.tif") as tiff:
        for frame in [*np.zeros((30, 4, 4), np.uint8), np.zeros((2, 2), np.uint8)]:
            tiff.write(frame)
    assert not is_clip(tmp_path / "thumbnail.tif")


@pytest.mark.parametrize("interval", [1e-9, 1e-300, 1e9])
def test_an_absurd_frame_rate_plays_at_the_default_rate(tmp_path, interval):
    path = tmp_path / "stack.tif"
    metadata = {"finterval": interval, "axes": "TYX"}
    tifffile.imwrite(path, np.zeros((3, 8, 8), np.uint8), imagej=True, metadata=metadata)
    with open_clip_file(path) as clip:
        assert clip.info.frames_per_second == 10.0


@pytest.mark.parametrize("name", ["late.mkv", "late.mp4"])
def test_a_video_whose_rate_changes_gives_each_frame_by_its_own_time(tmp_path, name):
    path = late_video(tmp_path / name)
    with open_clip_file(path) as clip:
        asked = [0, 11, 12, 49, 50, 61, 64, 71, 74, 75, 80, 96, 98, 99]
        assert [frame_number(clip.frame(index)) for index in asked] == asked
        assert [frame_number(frame) for frame in clip.frames(71, 78)] == list(range(71, 78))
        with pytest.raises(IndexError, match="no frame 100"):
            clip.frame(100)
        assert clip.info.frame_count == 100 and not clip.info.frame_count_estimated


def test_recordings_joined_end_to_end_give_each_frame_by_its_place_in_the_stream(tmp_path):
    # Two TS recordings joined as `cat` joins them: the second's timestamps start over, so a
    # frame's timestamp does not say which frame it is.
    path = joined_recordings(tmp_path / "joined.ts")
    with open_clip_file(path) as clip:
        assert [frame_number(frame) for frame in clip.frames()] == list(range(24))
        assert [frame_number(clip.frame(index)) for index in range(24)] == list(range(24))
        assert [frame_number(frame) for frame in clip.frames(13, 16)] == [13, 14, 15]
        assert [frame_number(frame) for frame in clip.frames(5, 14)] == list(range(5, 14))
        assert clip.info.frame_count == 24 and not clip.info.frame_count_estimated


def test_timestamps_that_start_over_inside_a_file_give_every_frame_in_its_order(tmp_path):
    # An FFV1 .mkv stamped 1000, 1040, 1080, then 0 to 240: ten frames, all of them there.
    path = restarted_matroska(tmp_path / "restarted.mkv")
    with open_clip_file(path) as clip:
        assert [frame_number(frame) for frame in clip.frames()] == list(range(10))
        assert [frame_number(clip.frame(index)) for index in (0, 2, 3, 9)] == [0, 2, 3, 9]
        assert [frame_number(frame) for frame in clip.frames(4, 7)] == [4, 5, 6]
        assert clip.info.frame_count == 10 and not clip.info.frame_count_estimated


# Stacks whose samples are not the levels shown: each page blurred in the colours a viewer
# shows it, against the page as a reader other than the stack's decodes it.


def blurred_stack(path, spec, *, color=False):
    with open_clip_file(path, color=color) as clip:
        frames = list(blur_clip(clip, spec, get_engine("numpy"), batch_size=1))
        return clip.info, np.stack(frames)


def pages_by_pillow(path, mode):
    """Every page of the TIFF at `path` as Pillow decodes it, converted to `mode`."""
    pages = []
    with Image.open(path) as image:
        for index in range(image.n_frames):
            image.seek(index)
            pages.append(np.asarray(image.convert(mode)))
    return np.stack(pages)


def grey_of(rgb):
    """ITU-R 601 luma, in float64, of red, green and blue on 0 to 1."""
    return rgb @ np.array([0.299, 0.587, 0.114])


# An 8-bit page's grey is rounded to 8-bit levels (as a photo's is): half a level at most from
# grey_of's floats, and a blur, whose weights add up to 1, moves it no further.
EIGHT_BIT_GREY = 1e-5 + 0.5 / 255


def assert_blurred_as(outputs, pages, spec, *, atol=1e-5):
    assert outputs.shape == pages.shape
    for output, page in zip(outputs, pages, strict=True):
        np.testing.assert_allclose(output, blur_oracle(page, spec.kernel), rtol=0, atol=atol)


def test_a_palette_stack_is_blurred_in_the_colours_its_pages_show(tmp_path):
    indices = random_levels(3, (12, 10))
    # Each page with a colour map of its own, as a GIF's frames made into pages may have.
    colour_maps = np.random.default_rng(1).integers(0, 65536, (3, 3, 256), dtype=np.uint16)
    path = tmp_path / "palette.tif"
    with tifffile.TiffWriter(path) as tiff:
        for page, colour_map in zip(indices, colour_maps, strict=True):
            tiff.write(page, photometric="palette", colormap=colour_map)
    shown = pages_by_pillow(path, "RGB")
    # Pillow shows the colour map's top 8 bits: the same colours by indexing it here.
    for page, colour_map, colours in zip(indices, colour_maps, shown, strict=True):
        np.testing.assert_array_equal(colours, np.moveaxis(colour_map >> 8, 0, -1)[page])
    spec = BlurSpec(5, 1.0)
    info, grey = blurred_stack(path, spec)
    assert not info.colour and info.bit_depth == 8
    assert_blurred_as(grey, grey_of(shown / 255), spec, atol=EIGHT_BIT_GREY)
    info, colour = blurred_stack(path, spec, color=True)
    assert info.colour and info.bit_depth == 8
    assert_blurred_as(colour, shown / 255, spec)
    # And each page as the same page opened as a photo.
    tifffile.imwrite(
        tmp_path / "page.tif", indices[1], photometric="palette", colormap=colour_maps[1]
    )
    with open_clip_file(path) as clip:
        np.testing.assert_array_equal(clip.frame(1), load_photo(tmp_path / "page.tif").pixels)
        assert not clip.gives_levels  # its indices are not what it shows


def test_a_sixteen_bit_palette_stack_is_blurred_in_its_sixteen_bit_colours(tmp_path):
    indices = random_levels(2, (12, 10), dtype=np.uint16)
    colour_map = np.random.default_rng(1).integers(0, 65536, (3, 65536), dtype=np.uint16)
    path = tmp_path / "palette.tif"
    tifffile.imwrite(path, indices, photometric="palette", colormap=colour_map)
    shown = np.moveaxis(colour_map, 0, -1)[indices] / 65535
    spec = BlurSpec(3, 0.8)
    info, grey = blurred_stack(path, spec)
    assert info.bit_depth == 16
    assert_blurred_as(grey, grey_of(shown), spec)
    info, colour = blurred_stack(path, spec, color=True)
    assert info.colour and info.bit_depth == 16
    assert_blurred_as(colour, shown, spec)


def test_a_jpeg_stack_in_ycbcr_is_blurred_in_its_decoded_colours(tmp_path):
    path = tmp_path / "jpeg.tif"
    tifffile.imwrite(path, smooth_levels(3, colour=True), photometric="rgb", compression="jpeg")
    with tifffile.TiffFile(path) as tiff:  # what is tested: JPEG's usual YCbCr, not RGB
        assert tiff.pages.first.photometric == tifffile.PHOTOMETRIC.YCBCR
    shown = pages_by_pillow(path, "RGB") / 255
    spec = BlurSpec(5, 1.5)
    info, grey = blurred_stack(path, spec)
    assert not info.colour
    assert_blurred_as(grey, grey_of(shown), spec, atol=EIGHT_BIT_GREY)
    info, colour = blurred_stack(path, spec, color=True)
    assert info.colour
    assert_blurred_as(colour, shown, spec)


@pytest.mark.parametrize("color", [False, True])
def test_a_stack_of_grey_minisWhite_and_palette_pages_reads_each_page_as_what_it_is(
    tmp_path, color
):
    levels = random_levels(3, (12, 10))
    colour_map = np.random.default_rng(2).integers(0, 65536, (3, 256), dtype=np.uint16)
    path = tmp_path / "mixed.tif"
    with tifffile.TiffWriter(path) as tiff:
        tiff.write(levels[0], photometric="minisblack")
        tiff.write(levels[1], photometric="miniswhite")
        tiff.write(levels[2], photometric="palette", colormap=colour_map)
    shown = pages_by_pillow(path, "RGB") / 255  # each page as Pillow shows it
    # What each page is, worked out here: grey, grey with 0 white, and its palette's colours.
    np.testing.assert_array_equal(shown[0], np.repeat(levels[0][..., None], 3, -1) / 255)
    np.testing.assert_array_equal(shown[1], np.repeat(255 - levels[1][..., None], 3, -1) / 255)
    np.testing.assert_array_equal(shown[2], np.moveaxis(colour_map >> 8, 0, -1)[levels[2]] / 255)
    spec = BlurSpec(5, 1.0)
    info, outputs = blurred_stack(path, spec, color=color)
    assert info.colour == color and info.frame_count == 3
    expected = shown if color else grey_of(shown)
    assert_blurred_as(outputs, expected, spec, atol=1e-5 if color else EIGHT_BIT_GREY)


@pytest.mark.parametrize("photometric", ["minisblack", "miniswhite"])
def test_a_one_bit_stack_is_blurred_in_black_and_white_as_its_pages_show(tmp_path, photometric):
    bits = random_levels(3, (12, 10)) > 127
    path = tmp_path / "bits.tif"
    tifffile.imwrite(path, bits, photometric=photometric)
    tifffile.imwrite(tmp_path / "page.tif", bits[2], photometric=photometric)
    assert is_clip(path)
    shown = pages_by_pillow(path, "L") / 255
    assert set(np.unique(shown)) == {0.0, 1.0}
    spec = BlurSpec(5, 1.0)
    info, grey = blurred_stack(path, spec, color=True)
    assert not info.colour and info.bit_depth == 8 and info.frame_count == 3
    assert_blurred_as(grey, shown, spec)
    with open_clip_file(path) as clip:
        np.testing.assert_array_equal(clip.frame(2), load_photo(tmp_path / "page.tif").pixels)


@pytest.mark.parametrize("bits", [2, 4])
def test_a_stack_of_two_or_four_bit_grey_is_blurred_with_white_at_its_top_level(tmp_path, bits):
    top = 2**bits - 1
    levels = random_levels(3, (12, 10)) % (top + 1)
    path = tmp_path / "grey.tif"
    tifffile.imwrite(path, levels, photometric="minisblack", bitspersample=bits)
    tifffile.imwrite(tmp_path / "page.tif", levels[0], photometric="minisblack", bitspersample=bits)
    spec = BlurSpec(5, 1.0)
    info, grey = blurred_stack(path, spec)
    assert info.bit_depth == 8
    assert_blurred_as(grey, levels / top, spec)
    with open_clip_file(path) as clip:
        np.testing.assert_array_equal(clip.frame(0), load_photo(tmp_path / "page.tif").pixels)


def test_a_recording_that_starts_before_its_first_keyframe_plays_every_frame_it_holds(tmp_path):
    # A broadcast recording cut mid-way through a group of pictures: the packets before the
    # first keyframe do not decode, so they are no frames of the clip.
    whole = video_file(tmp_path / "whole.ts", smooth_levels(60, size=(64, 48)), codec="libx264",
                       options={"g": "12", "bf": "2"})  # fmt: skip
    cut = tmp_path / "cut.ts"
    with av.open(str(whole)) as source, av.open(str(cut), "w", format="mpegts") as out:
        stream = source.streams.video[0]
        copy = out.add_stream_from_template(stream)
        for number, packet in enumerate(source.demux(stream)):
            if packet.size and number >= 5:
                packet.stream = copy
                out.mux(packet)
    with open_clip_file(cut) as clip:
        frames = list(clip.frames())  # no "truncated" at the end
        assert clip.info.frame_count == len(frames) == 48
        for index in (0, 20, 47):
            np.testing.assert_array_equal(clip.frame(index), frames[index])


def test_a_video_written_again_at_the_same_path_is_counted_again(tmp_path):
    # Its frames' timestamps are kept for the file while it is unchanged: a clip written over
    # it (a longer one here) must not be read by the older one's.
    path = tmp_path / "clip.mkv"
    video_file(path, random_levels(10, size=(16, 12)), rate=25)
    with open_clip_file(path) as clip:
        assert clip.info.frame_count == 10
    replacement = video_file(tmp_path / "longer.mkv", random_levels(20, size=(16, 12)), rate=25)
    os.replace(replacement, path)
    with open_clip_file(path) as clip:
        assert clip.info.frame_count == 20 and len(list(clip.frames(15))) == 5
