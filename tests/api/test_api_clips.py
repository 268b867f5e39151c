"""`blurapp.open_clip` and `blurapp.compare_clip`: a clip opened from a file, a span of its
frames compared across engines, the figures read by key, and the notebook's HTML."""

import os

import numpy as np
import pytest
from helpers.clip_files import (
    avif_sequence,
    frames_as_pillow_shows_them,
    random_levels,
    smooth_levels,
    video_file,
)
from helpers.oracle import blur_oracle
from helpers.phone_photos import LUMA

import blurapp
from blurapp.core.measuring.clip_comparison import clip_comparison_dict
from blurapp.core.media.clip import FramesInMemory

# Runs the jax engine on JAX's default device, the chip on an accelerator machine: part of
# the suite's accelerator run (`pytest tests -m accelerator`).
pytestmark = pytest.mark.accelerator


@pytest.fixture(scope="module")
def clip_path(tmp_path_factory):
    folder = tmp_path_factory.mktemp("clips")
    return video_file(folder / "waves.mkv", random_levels(5), rate=24)


@pytest.fixture(scope="module")
def comparison(clip_path):
    return blurapp.compare_clip(clip_path, frames=4, start=1, repeats=2)


def test_open_clip_reads_frames_as_the_file_holds_them(clip_path):
    with blurapp.open_clip(clip_path) as clip:
        assert isinstance(clip, blurapp.Clip)
        assert (clip.info.width, clip.info.height, clip.info.frame_count) == (64, 48, 5)
        assert clip.info.frames_per_second == 24
        frames = list(clip.frames())
    levels = random_levels(5)
    np.testing.assert_allclose(np.stack(frames), levels / np.float32(255), atol=1e-6)


@pytest.mark.parametrize("color", [True, False], ids=["colour", "grey"])
def test_an_avif_sequence_opens_as_every_frame_at_its_rate(tmp_path, color):
    source = avif_sequence(tmp_path / "burst.avif", smooth_levels(3, (32, 24), colour=True))
    shown = frames_as_pillow_shows_them(source)
    spec = blurapp.BlurSpec(kernel_size=5, sigma=1.0, color=color)
    with blurapp.open_clip(source, color=color) as clip:
        assert (clip.info.frame_count, clip.info.frames_per_second) == (3, 10)
        frames = list(clip.frames())
    # FFmpeg and Pillow decode the same AV1 pictures, each rounding its own conversion to red,
    # green and blue (a level apart at most; grey is the luma FFmpeg decodes, within a level
    # of that of Pillow's colours).
    for frame, colours in zip(frames, shown, strict=True):
        expected = blur_oracle(colours if color else colours @ LUMA, spec.kernel)
        blurred = blurapp.blur(frame, spec, engine="numpy")
        assert np.abs(blurred - expected).max() <= 1 / 255 + 1e-5


def test_a_file_that_is_not_a_clip_is_refused_naming_it(tmp_path):
    junk = tmp_path / "junk.mkv"
    junk.write_bytes(b"\x1a\x45\xdf\xa3" + bytes(300))
    with pytest.raises(blurapp.ClipError, match=str(junk)):
        blurapp.open_clip(junk)


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (lambda path: None, "no such file"),
        (lambda path: path.mkdir(), "this is a folder"),
        (lambda path: os.mkfifo(path), "this is not a regular file"),
    ],
    ids=["missing", "folder", "fifo"],
)
def test_a_path_that_is_no_file_is_a_clip_error_naming_it(tmp_path, make, problem):
    path = tmp_path / "waves.mp4"
    make(path)
    for call in (blurapp.open_clip, blurapp.compare_clip):
        with pytest.raises(blurapp.ClipError, match=rf"waves\.mp4: {problem}") as caught:
            call(path)
        # Still a PhotoError, so one handler serves photos and clips as before.
        assert isinstance(caught.value, blurapp.PhotoError)


def test_compare_clip_times_every_engine_and_keeps_each_first_frame(comparison, clip_path):
    assert comparison.frames == 4
    assert set(comparison.frames_per_second) == {"numpy", "jax"}
    assert all(rate > 0 for rate in comparison.frames_per_second.values())
    assert all(rate > 0 for rate in comparison.end_to_end_frames_per_second.values())
    assert comparison.batch_sizes["numpy"] == 1 and comparison.batch_sizes["jax"] in (1, 2, 4)
    assert comparison.speedup > 0 and comparison.max_abs_diff <= 1e-5
    assert comparison.errors == {} and comparison.clip_problem is None
    kernel = blurapp.BlurSpec().kernel
    with blurapp.open_clip(clip_path) as clip:
        expected = blur_oracle(clip.frame(1), kernel)  # the span starts at frame 1
    for frame in comparison.first_frames.values():
        assert np.abs(frame - expected).max() <= 1e-5


def test_the_figures_are_rows_a_program_reads_by_key(comparison):
    rows = {row.key: row for row in comparison.figures()}
    assert rows["numpy.frames_per_second"].value == pytest.approx(
        comparison.frames_per_second["numpy"]
    )
    assert rows["jax.frames_per_second"].unit == "frames/s"
    assert rows["jax.end_to_end"].value == pytest.approx(
        comparison.end_to_end_frames_per_second["jax"]
    )
    assert rows["jax.batch_size"].value == comparison.batch_sizes["jax"]
    assert rows["speedup"].value == pytest.approx(comparison.speedup)
    assert rows["clip"].text.startswith("waves.mkv, 64 × 48, grey, 4 frames from frame 1")
    assert str(comparison).splitlines()[0].startswith("clip ")
    assert repr(comparison).startswith("<ClipComparison of waves.mkv (64 × 48, 4 frames), ")


def test_the_html_shows_each_engines_first_frame_and_every_figure(comparison):
    html = comparison._repr_html_()
    assert html.count('<img src="data:image/png;base64,') == 2
    assert 'alt="NumPy first frame"' in html and 'alt="JAX-jit first frame"' in html
    for row in comparison.figures():
        assert f'data-key="{row.key}"' in html


def test_a_clip_made_in_memory_compares_in_colour():
    frames = np.random.default_rng(1).random((3, 20, 30, 3), dtype=np.float32)
    spec = blurapp.BlurSpec(kernel_size=5, sigma=1.0, color=True)
    result = blurapp.compare_clip(FramesInMemory(frames), spec, engines="numpy", repeats=1)
    first = result.first_frames["numpy"]
    assert first.shape == (20, 30, 3)
    assert np.abs(first - blur_oracle(frames[0], spec.kernel)).max() <= 1e-5
    assert result.frames == 3 and result.speedup is None


def test_what_is_not_a_clip_is_refused_with_the_reason():
    with pytest.raises(TypeError, match="clip must be a path or a blurapp Clip, not ndarray"):
        blurapp.compare_clip(np.zeros((2, 4, 4)))


def test_no_timed_pass_gives_no_frames_per_second_but_the_frames_are_compared(clip_path):
    # A first call is one batch, compiling: no figure for the span is to be had from it.
    comparison = blurapp.compare_clip(clip_path, frames=4, repeats=0)
    assert comparison.frames == 4
    assert comparison.frames_per_second == {}
    assert comparison.end_to_end_frames_per_second == {}
    assert comparison.result.speedup is None
    data = clip_comparison_dict(comparison.result)
    assert data["numpy"]["frames_per_second"] is None and data["numpy"]["span_seconds"] is None
    assert data["within_tolerance"] is True
    expected = blur_oracle(random_levels(5)[0] / np.float32(255), blurapp.BlurSpec().kernel)
    assert np.abs(comparison.first_frames["numpy"] - expected).max() <= 1e-5
