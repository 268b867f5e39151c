"""Blurred frames written as clip files (blurapp.core.media.clip_saving) and a clip blurred frame by
frame (blurapp.core.blurring.blur_clip_file): what is read back, kept rates and depths, atomic writes."""

import os
import tracemalloc

import numpy as np
import pytest
from helpers import engine_calls
from helpers.clip_files import random_levels, smooth_levels, tiff_stack, video_file
from helpers.oracle import blur_oracle

from blurapp.core.blurring.blur_clip_file import (
    blur_clip,
    blur_clip_to_file,
    blurs_as_levels,
    choose_clip_batch_size,
)
from blurapp.core.blurring.blur_file import BlurFailed
from blurapp.core.engines import get_engine
from blurapp.core.media import clip_saving
from blurapp.core.media.clip import ClipError, FramesInMemory
from blurapp.core.media.clip_files import open_clip_file
from blurapp.core.media.clip_saving import check_clip_output_path, save_clip
from blurapp.core.media.saving import OutputError, levels_for_output, to_8bit, to_16bit
from blurapp.core.spec import BlurSpec

# Runs the jax engine on JAX's default device, the chip on an accelerator machine: part of
# the suite's accelerator run (`pytest tests -m accelerator`).
pytestmark = pytest.mark.accelerator


def frames_in_memory(count=6, *, colour=False, rate=25.0, seed=3):
    shape = (count, 48, 64, 3) if colour else (count, 48, 64)
    values = np.random.default_rng(seed).random(shape, dtype=np.float32)
    return FramesInMemory(values, frames_per_second=rate)


def read_back(path, *, color=False):
    with open_clip_file(path, color=color) as clip:
        return clip.info, np.stack(list(clip.frames()))


@pytest.mark.parametrize("colour", [False, True])
@pytest.mark.parametrize("name", ["out.mkv", "out.avi", "out.tif", "out.webp"])
def test_lossless_outputs_give_back_the_levels_written(tmp_path, name, colour):
    clip = frames_in_memory(colour=colour, rate=24)
    path = tmp_path / name
    assert save_clip(path, clip.frames(), clip.info) == 6
    info, frames = read_back(path, color=colour)
    assert info.frame_count == 6 and info.frame_shape == clip.info.frame_shape
    # WebP gives each frame a whole number of milliseconds: 42 for 1/24 s.
    assert info.frames_per_second == pytest.approx(24, rel=0.01 if name.endswith(".webp") else 1e-6)
    expected = np.stack([to_8bit(frame) for frame in clip.frames()]) / np.float32(255)
    np.testing.assert_allclose(frames, expected, atol=1e-6)


@pytest.mark.parametrize("name", ["out.mkv", "out.tif"])
def test_sixteen_bit_sources_are_written_at_sixteen_bits(tmp_path, name):
    source = video_file(tmp_path / "deep.mkv", random_levels(4, colour=True, dtype=np.uint16))
    with open_clip_file(source, color=True) as clip:
        assert clip.info.bit_depth == 16
        save_clip(tmp_path / name, clip.frames(), clip.info)
        written = np.stack(list(clip.frames()))
    info, frames = read_back(tmp_path / name, color=True)
    assert info.bit_depth == 16
    expected = np.stack([to_16bit(frame) for frame in written]) / np.float32(65535)
    np.testing.assert_allclose(frames, expected, atol=1e-7)


def test_a_grey_gif_is_exact_and_a_colour_one_is_close(tmp_path):
    grey = frames_in_memory(rate=20)
    save_clip(tmp_path / "grey.gif", grey.frames(), grey.info)
    info, frames = read_back(tmp_path / "grey.gif")
    assert info.frames_per_second == 20
    expected = np.stack([to_8bit(frame) for frame in grey.frames()]) / np.float32(255)
    np.testing.assert_allclose(frames, expected, atol=1e-6)
    levels = smooth_levels(4, colour=True)
    colour = FramesInMemory(levels / np.float32(255))
    save_clip(tmp_path / "colour.gif", colour.frames(), colour.info)
    _, frames = read_back(tmp_path / "colour.gif", color=True)
    # 256 colours a frame: close, not exact.
    assert np.abs(frames - levels / 255).mean() < 0.02


@pytest.mark.parametrize("name", ["out.mp4", "out.webm", "out.mov"])
def test_lossy_videos_keep_the_frame_count_rate_and_look(tmp_path, name):
    levels = smooth_levels(10, colour=True)
    clip = FramesInMemory(levels / np.float32(255), frames_per_second=30000 / 1001)
    save_clip(tmp_path / name, clip.frames(), clip.info)
    info, frames = read_back(tmp_path / name, color=True)
    assert info.frame_count == 10 and info.frame_shape == (48, 64, 3)
    assert info.frames_per_second == pytest.approx(30000 / 1001, rel=1e-4)
    assert np.abs(frames - levels / 255).mean() < 0.03


def test_a_failing_frame_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "out.mkv"
    path.write_bytes(b"the old clip")
    clip = frames_in_memory()

    def frames():
        yield from clip.frames(0, 3)
        raise ClipError(tmp_path / "in.mkv", "the clip stops at frame 3: broken")

    with pytest.raises(ClipError, match="stops at frame 3"):
        save_clip(path, frames(), clip.info)
    assert path.read_bytes() == b"the old clip"
    assert sorted(os.listdir(tmp_path)) == ["out.mkv"]


def test_outputs_that_cannot_take_a_clip_are_refused_before_any_frame(tmp_path):
    info = frames_in_memory().info
    with pytest.raises(OutputError, match=r"out\.png: unknown output format '\.png'; use \.mp4"):
        check_clip_output_path(tmp_path / "out.png", info)
    with pytest.raises(OutputError, match="no video encoder named no-such-codec"):
        check_clip_output_path(tmp_path / "out.mkv", info, codec="no-such-codec")
    with pytest.raises(OutputError, match=r"a codec can be chosen for video only"):
        check_clip_output_path(tmp_path / "out.tif", info, codec="ffv1")
    with pytest.raises(OutputError, match="does not exist"):
        check_clip_output_path(tmp_path / "nowhere" / "out.mkv", info)
    fifo = tmp_path / "pipe.mkv"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="this is not a regular file"):
        check_clip_output_path(fifo, info)
    source = video_file(tmp_path / "in.mkv", random_levels(2))
    with pytest.raises(OutputError, match="this is the clip being blurred"):
        check_clip_output_path(source, info, source=source)


def test_a_gif_too_long_for_memory_is_refused_before_any_frame(tmp_path, monkeypatch):
    monkeypatch.setattr(clip_saving, "available_memory", lambda: 10_000_000)
    info = FramesInMemory(np.zeros((2, 480, 640), np.float32)).info
    long = type(info)(**{**info.__dict__, "frame_count": 100})
    with pytest.raises(OutputError, match=r"out\.gif: GIF keeps every frame in memory"):
        check_clip_output_path(tmp_path / "out.gif", long)
    check_clip_output_path(tmp_path / "out.mkv", long)  # a video streams its frames


@pytest.mark.parametrize("engine", ["numpy", "jax"])
def test_every_blurred_frame_matches_the_oracle(engine):
    clip = frames_in_memory(5, colour=engine == "jax")
    spec = BlurSpec(5, 1.5)
    blurred = list(blur_clip(clip, spec, get_engine(engine)))
    assert len(blurred) == 5
    for frame, output in zip(clip.frames(), blurred, strict=True):
        np.testing.assert_allclose(output, blur_oracle(frame, spec.kernel), atol=1e-5)


def test_a_lossless_clip_blurred_into_a_file_matches_the_oracle_to_the_level(tmp_path):
    source = video_file(tmp_path / "in.mkv", random_levels(6))
    spec = BlurSpec(7, 2.0)
    done = []
    with open_clip_file(source) as clip:
        written = blur_clip_to_file(
            clip,
            tmp_path / "out.mkv",
            spec,
            get_engine("numpy"),
            progress=lambda *d: done.append(d),
        )
        originals = list(clip.frames())
    assert written == 6 and done[-1] == (6, 6)
    _, frames = read_back(tmp_path / "out.mkv")
    for original, frame in zip(originals, frames, strict=True):
        # Rounded to the nearest of 255 levels: within half a level, and a hair for float32.
        difference = np.abs(frame - blur_oracle(original, spec.kernel))
        assert difference.max() <= 0.5 / 255 + 1e-5


def test_an_engine_that_fails_names_the_clip_and_the_frame(tmp_path):
    from dataclasses import replace

    calls = []

    def first_call(image, kernel, **options):
        calls.append(1)
        if len(calls) == 3:
            raise ValueError("no luck")
        return get_engine("numpy").first_call(image, kernel, **options)

    broken = replace(get_engine("numpy"), name="broken", title="Broken", first_call=first_call)
    source = video_file(tmp_path / "in.mkv", random_levels(6))
    with open_clip_file(source) as clip, pytest.raises(BlurFailed) as failed:
        blur_clip_to_file(clip, tmp_path / "out.mkv", BlurSpec(), broken)
    assert str(failed.value) == f"{source}: the Broken engine failed: no luck (frame 2)"
    assert not (tmp_path / "out.mkv").exists()


def test_blurring_a_long_clip_into_a_file_holds_a_few_frames(tmp_path):
    source = video_file(tmp_path / "long.mkv", random_levels(1000, (64, 48)))
    one_frame = 64 * 48 * 4
    with open_clip_file(source) as clip:
        tracemalloc.start()
        try:
            written = blur_clip_to_file(
                clip, tmp_path / "out.mkv", BlurSpec(5, 1.0), get_engine("numpy")
            )
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert written == 1000
    assert peak < 40 * one_frame  # the clip's frames are 1000


def test_frames_read_ahead_come_in_order_and_stop_with_their_reader():
    import threading

    from blurapp.core.engines.frame_batches import read_ahead

    closed = []

    def numbers():
        try:
            yield from range(100)
        finally:
            closed.append(threading.current_thread().name)

    before = threading.active_count()
    taken = []
    for number in read_ahead(numbers(), 2):
        taken.append(number)
        if number == 9:
            break
    assert taken == list(range(10))
    assert closed == ["clip frames read ahead"]  # closed where it ran, before the loop ended
    assert threading.active_count() == before
    assert list(read_ahead(iter(range(5)), 2)) == list(range(5))


def test_an_error_reading_ahead_comes_after_the_frames_before_it():
    from blurapp.core.engines.frame_batches import read_ahead

    def frames():
        yield 1
        yield 2
        raise ClipError("in.mkv", "the clip stops at frame 2: broken")

    taken = []
    with pytest.raises(ClipError, match="stops at frame 2"):
        for frame in read_ahead(frames(), 2):
            taken.append(frame)
    assert taken == [1, 2]


def test_an_odd_sized_clip_is_written_as_h264_too(tmp_path):
    values = np.random.default_rng(0).random((3, 49, 65, 3), dtype=np.float32)
    clip = FramesInMemory(values)
    save_clip(tmp_path / "odd.mp4", clip.frames(), clip.info)
    info, frames = read_back(tmp_path / "odd.mp4", color=True)
    assert (info.width, info.height, info.frame_count) == (65, 49, 3)
    assert np.abs(frames - values).mean() < 0.06  # random pixels: the hardest for a codec


def test_frames_of_another_shape_than_the_clip_are_refused_naming_the_output(tmp_path):
    clip = frames_in_memory(3)
    wrong = [np.zeros((48, 64), np.float32), np.zeros((3, 48, 3), np.float32)]
    for name in ("out.mkv", "out.tif", "out.gif"):
        with pytest.raises(
            OutputError,
            match=rf"{name}: frame 1 is an array of 3 × 48 × 3, not of the clip's 48 × 64 ",
        ) as caught:
            save_clip(tmp_path / name, iter(wrong), clip.info)
        assert not (tmp_path / name).exists(), caught.value


@pytest.mark.parametrize("count", [None, 2])
def test_a_gif_of_unknown_or_understated_length_stops_once_past_memory(
    tmp_path, monkeypatch, count
):
    # 640 × 480 frames kept at 4 bytes a pixel: 10 MB (half of it usable) holds four.
    monkeypatch.setattr(clip_saving, "available_memory", lambda: 10_000_000)
    info = FramesInMemory(np.zeros((2, 480, 640), np.float32)).info
    info = type(info)(**{**info.__dict__, "frame_count": count})
    taken = []

    def many():
        for _ in range(40):  # ten times what fits; finite, so that a regression fails, not hangs
            taken.append(1)
            yield np.zeros((480, 640), np.float32)

    with pytest.raises(OutputError, match=r"out\.webp: WEBP keeps every frame in memory"):
        save_clip(tmp_path / "out.webp", many(), info)
    assert len(taken) <= 5 and not (tmp_path / "out.webp").exists()


def test_a_clip_is_never_written_over_itself(tmp_path):
    source = video_file(tmp_path / "in.mkv", random_levels(3), rate=10)
    before = source.read_bytes()
    (tmp_path / "link.mkv").symlink_to(source)
    for target in (source, tmp_path / "link.mkv"):
        with (
            open_clip_file(source) as clip,
            pytest.raises(OutputError, match="never writes over it"),
        ):
            blur_clip_to_file(clip, target, BlurSpec(), get_engine("numpy"))
    with open_clip_file(source) as clip, pytest.raises(OutputError, match="never writes over it"):
        save_clip(source, clip.frames(), clip.info)
    assert source.read_bytes() == before


@pytest.mark.parametrize("rate", [1e9, 1e-9])
@pytest.mark.parametrize("name", ["out.mkv", "out.gif"])
def test_a_clip_at_an_absurd_rate_is_written_at_the_default_rate(tmp_path, rate, name):
    clip = frames_in_memory(3, rate=rate)
    save_clip(tmp_path / name, clip.frames(), clip.info)
    info, frames = read_back(tmp_path / name)
    assert len(frames) == 3 and info.frames_per_second == 10.0


def test_a_fast_gif_keeps_a_delay_browsers_honour(tmp_path):
    clip = frames_in_memory(3, rate=500)
    save_clip(tmp_path / "out.gif", clip.frames(), clip.info)
    info, _ = read_back(tmp_path / "out.gif")
    assert info.frames_per_second == 50.0  # 20 ms a frame, GIF's shortest honoured delay


class CountedFrames(FramesInMemory):
    """Frames in memory that count how many of them have been read."""

    read = 0

    def _read(self, start):
        for frame in super()._read(start):
            self.read += 1
            yield frame


def _waiting_on_a_full_queue(thread):
    """Whether `thread` is blocked handing a frame over to a queue that is full."""
    import sys

    frame, names = sys._current_frames().get(thread.ident), set()
    while frame is not None:
        names.add(frame.f_code.co_name)
        frame = frame.f_back
    return {"hand_over", "put", "wait"} <= names  # Queue.put waits only while it is full


@pytest.mark.parametrize("batch_size", [1, 3])
def test_a_slow_writer_holds_back_reading_and_blurring_to_a_few_frames(tmp_path, batch_size):
    import threading
    import time

    from blurapp.core.engines.frame_batches import FRAMES_READ_AHEAD

    values = np.random.default_rng(5).random((60, 24, 32), dtype=np.float32)
    clip = CountedFrames(values, frames_per_second=25)
    spec = BlurSpec(5, 1.0)
    held = []

    def slow_writer(done, total):
        if done != 1:
            return
        # The writer stops after its first frame until reading and blurring both wait on a
        # full queue: all they hold then is all they would ever hold ahead of it.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            stages = [t for t in threading.enumerate() if t.name == "clip frames read ahead"]
            if len(stages) == 2 and all(map(_waiting_on_a_full_queue, stages)):
                break
            time.sleep(0.01)
        else:
            pytest.fail("reading and blurring never waited for the writer")
        held.append(clip.read - done)

    written = blur_clip_to_file(
        clip,
        tmp_path / "out.mkv",
        spec,
        get_engine("numpy"),
        batch_size=batch_size,
        progress=slow_writer,
    )
    depth = max(FRAMES_READ_AHEAD, batch_size)
    # Each of the two queues and the frame its stage waits to hand over, and what is left of
    # a batch: never the clip's 60 frames.
    assert held and held[0] <= 2 * (depth + 1) + batch_size
    assert written == 60
    _, frames = read_back(tmp_path / "out.mkv")
    for original, frame in zip(values, frames, strict=True):
        assert np.abs(frame - blur_oracle(original, spec.kernel)).max() <= 0.5 / 255 + 1e-5


@pytest.fixture
def batch_types(monkeypatch):
    """The number types of the batches every engine is handed, in order."""
    return engine_calls.batch_types(monkeypatch)


def oracle_levels(levels, kernel):
    """The oracle's blur of stored levels, rounded to levels of their type as saving rounds."""
    white = np.iinfo(levels.dtype).max
    blurred = blur_oracle(levels.astype(np.float64) / white, kernel)
    return np.rint(np.clip(blurred, 0, 1) * white)


def levels_read_back(path, *, color=False):
    """The levels a clip file holds, read back as a viewer reads them (its floats × white)."""
    with open_clip_file(path, color=color) as clip:
        dtype = np.uint16 if clip.info.bit_depth == 16 else np.uint8
        frames = np.stack(list(clip.frames()))
    return np.rint(frames * np.iinfo(dtype).max).astype(dtype)


@pytest.mark.parametrize(
    ("source_name", "output_name", "colour", "dtype", "engine"),
    [
        ("in.mkv", "out.mkv", False, np.uint8, "numpy"),
        ("in.mkv", "out.mkv", True, np.uint8, "jax"),
        ("in.mkv", "out.webp", True, np.uint8, "jax"),
        ("in.tif", "out.gif", False, np.uint8, "jax"),
        ("in.tif", "out.tif", True, np.uint16, "jax"),
        ("in.mkv", "out.mkv", False, np.uint16, "numpy"),
    ],
)
def test_a_clip_of_the_outputs_depth_is_blurred_as_its_levels(
    tmp_path, batch_types, source_name, output_name, colour, dtype, engine
):
    levels = random_levels(5, (20, 14), colour=colour, dtype=dtype, seed=4)
    make = video_file if source_name.endswith(".mkv") else tiff_stack
    source = make(tmp_path / source_name, levels)
    spec = BlurSpec(5, 1.3, color=colour)
    with open_clip_file(source, color=colour) as clip:
        assert clip.gives_levels
        written = blur_clip_to_file(
            clip, tmp_path / output_name, spec, get_engine(engine), batch_size=2
        )
    assert written == 5
    # The levels went to the engine and came back as levels: no float frame was made for it.
    assert batch_types and set(batch_types) == {np.dtype(dtype)}
    frames = levels_read_back(tmp_path / output_name, color=colour)
    assert frames.dtype == dtype
    expected = np.stack([oracle_levels(frame, spec.kernel) for frame in levels])
    assert np.abs(frames.astype(np.float64) - expected).max() <= 1


@pytest.mark.parametrize(
    ("dtype", "output_name", "codec", "as_levels"),
    [
        (np.uint8, "out.mp4", None, True),
        (np.uint8, "out.gif", None, True),
        (np.uint16, "out.tif", None, True),
        (np.uint16, "out.mkv", None, True),
        (np.uint16, "out.mkv", "libx264", False),
        (np.uint16, "out.mp4", None, False),
        (np.uint16, "out.gif", None, False),
    ],
)
def test_a_clip_is_blurred_as_its_levels_only_into_an_output_of_their_depth(
    tmp_path, dtype, output_name, codec, as_levels
):
    source = tiff_stack(tmp_path / "in.tif", random_levels(2, (20, 14), dtype=dtype, seed=7))
    with open_clip_file(source) as clip:
        assert blurs_as_levels(clip, tmp_path / output_name, codec=codec) is as_levels
    assert not blurs_as_levels(frames_in_memory(2), tmp_path / "out.mp4")


def test_the_batch_size_is_measured_on_the_levels_a_clip_is_blurred_as(tmp_path, batch_types):
    # Long enough for two batch sizes to be measured: the measuring calls blur the clip's
    # levels too, so the program chosen for is the one its frames get (no second compilation).
    levels = random_levels(2 * 16, (20, 14), seed=6)
    source = tiff_stack(tmp_path / "in.tif", levels)
    spec = BlurSpec(5, 1.3)
    with open_clip_file(source) as clip:
        batch = choose_clip_batch_size(clip, spec, get_engine("jax"), as_levels=True)
        assert batch.measured
        written = blur_clip_to_file(clip, tmp_path / "out.tif", spec, get_engine("jax"))
    assert written == 2 * 16
    assert batch_types and set(batch_types) == {np.dtype(np.uint8)}
    expected = np.stack([oracle_levels(frame, spec.kernel) for frame in levels])
    assert np.abs(levels_read_back(tmp_path / "out.tif").astype(np.float64) - expected).max() <= 1


@pytest.mark.parametrize("output_name", ["out.gif", "out.mp4"])
def test_levels_of_another_depth_than_the_outputs_are_blurred_as_floats(
    tmp_path, batch_types, output_name
):
    # 16-bit levels into an 8-bit output: rounded once, from the floats, not to 16 bits and
    # then again to 8.
    levels = random_levels(4, (20, 14), dtype=np.uint16, seed=5)
    source = tiff_stack(tmp_path / "in.tif", levels)
    spec = BlurSpec(5, 1.3)
    with open_clip_file(source) as clip:
        assert clip.gives_levels and clip.info.bit_depth == 16
        written = blur_clip_to_file(
            clip, tmp_path / output_name, spec, get_engine("jax"), batch_size=2
        )
    assert written == 4
    assert batch_types and set(batch_types) == {np.dtype(np.float32)}
    if output_name == "out.gif":  # a grey GIF keeps its levels exactly
        frames = levels_read_back(tmp_path / output_name)
        floats = levels.astype(np.float64) / 65535
        expected = np.stack([np.rint(blur_oracle(f, spec.kernel) * 255) for f in floats])
        assert np.abs(frames.astype(np.float64) - expected).max() <= 1


def test_a_clip_without_levels_is_blurred_as_floats(tmp_path, batch_types):
    clip = frames_in_memory(4)
    assert not clip.gives_levels
    spec = BlurSpec(5, 1.3)
    assert blur_clip_to_file(clip, tmp_path / "out.mkv", spec, get_engine("jax"), batch_size=2)
    assert batch_types and set(batch_types) == {np.dtype(np.float32)}
    frames = levels_read_back(tmp_path / "out.mkv")
    expected = np.stack([np.rint(blur_oracle(f, spec.kernel) * 255) for f in clip.frames()])
    assert np.abs(frames.astype(np.float64) - expected).max() <= 1


def test_blur_clip_gives_floats_unless_levels_are_asked_for():
    levels = random_levels(3, (12, 10), seed=6)
    source_frames = levels.astype(np.float32) / np.float32(255)

    class LevelsInMemory(FramesInMemory):
        gives_levels = True

        def _read_levels(self, start):
            yield from levels[start:]

    clip = LevelsInMemory(source_frames)
    spec = BlurSpec(5, 1.0)
    floats = np.stack(list(blur_clip(clip, spec, get_engine("numpy"), batch_size=1)))
    assert floats.dtype == np.float32
    blurred = np.stack(
        list(blur_clip(clip, spec, get_engine("numpy"), batch_size=1, as_levels=True))
    )
    assert blurred.dtype == np.uint8
    np.testing.assert_array_equal(blurred, np.stack([to_8bit(frame) for frame in floats]))


def test_levels_for_output_passes_levels_of_its_depth_and_refuses_the_other():
    floats = np.random.default_rng(7).random((6, 5), dtype=np.float32)
    np.testing.assert_array_equal(levels_for_output(floats, deep=False), to_8bit(floats))
    np.testing.assert_array_equal(levels_for_output(floats, deep=True), to_16bit(floats))
    eight, sixteen = to_8bit(floats), to_16bit(floats)
    assert levels_for_output(eight, deep=False) is eight
    assert levels_for_output(sixteen, deep=True) is sixteen
    # A big-endian file's levels come in this machine's order.
    swapped = levels_for_output(sixteen.astype(">u2"), deep=True)
    assert swapped.dtype == np.uint16
    np.testing.assert_array_equal(swapped, sixteen)
    with pytest.raises(TypeError, match="uint16 levels cannot be written where 8-bit"):
        levels_for_output(sixteen, deep=False)
    with pytest.raises(TypeError, match="uint8 levels cannot be written where 16-bit"):
        levels_for_output(eight, deep=True)


@pytest.mark.parametrize("name", ["out.mkv", "out.tif", "out.gif"])
def test_levels_handed_to_save_clip_are_written_as_they_are(tmp_path, name):
    levels = random_levels(3, (16, 12), seed=8)
    clip = FramesInMemory(levels.astype(np.float32) / np.float32(255))
    assert save_clip(tmp_path / name, iter(levels), clip.info) == 3
    np.testing.assert_array_equal(levels_read_back(tmp_path / name), levels)
    with pytest.raises(TypeError, match="uint16 levels"):
        save_clip(tmp_path / f"deep-{name}", iter(levels.astype(np.uint16)), clip.info)
    assert not (tmp_path / f"deep-{name}").exists()
