"""A clip blurred in batches (blurapp.core.blurring.blur_clip_file): every frame still the oracle's, whatever
the batch size and its remainder; the batch size measured only where a clip is long enough; a
failing engine named with its frame; a clip cut short told apart from an engine's failure;
memory a few batches deep."""

import tracemalloc
from dataclasses import replace

import numpy as np
import pytest
from helpers.clip_files import random_levels, video_file
from helpers.oracle import blur_oracle

from blurapp.core.blurring.blur_clip_file import (
    blur_clip,
    blur_clip_to_file,
    choose_clip_batch_size,
)
from blurapp.core.blurring.blur_file import BlurFailed
from blurapp.core.engines import get_engine
from blurapp.core.media.clip import ClipError, FramesInMemory
from blurapp.core.media.clip_files import open_clip_file
from blurapp.core.spec import BlurSpec

# Run where the accelerator is: `pytest -m accelerator` (docs/contributing.md).
pytestmark = pytest.mark.accelerator


@pytest.mark.parametrize("batch_size", [1, 3, 8])
@pytest.mark.parametrize("colour", [False, True])
def test_every_frame_blurred_in_batches_is_the_oracle(batch_size, colour):
    shape = (7, 18, 22, 3) if colour else (7, 18, 22)
    frames = np.random.default_rng(2).random(shape, dtype=np.float32)
    spec = BlurSpec(5, 1.2, color=colour)
    blurred = list(
        blur_clip(FramesInMemory(frames), spec, get_engine("jax"), batch_size=batch_size)
    )
    assert len(blurred) == 7
    for frame, output in zip(frames, blurred, strict=True):
        assert output.shape == frame.shape
        assert np.abs(output - blur_oracle(frame, spec.kernel)).max() <= 1e-5


def test_the_batch_size_is_measured_only_for_an_engine_with_batches_and_a_long_clip():
    spec = BlurSpec(5, 1.0)
    short = FramesInMemory(np.zeros((20, 8, 8), np.float32))
    long = FramesInMemory(np.zeros((70, 8, 8), np.float32))
    assert not choose_clip_batch_size(long, spec, get_engine("numpy")).measured
    unmeasured = choose_clip_batch_size(short, spec, get_engine("jax"))
    assert unmeasured.size == 1 and not unmeasured.measured
    choice = choose_clip_batch_size(long, spec, get_engine("jax"))
    assert set(choice.seconds_per_frame) == {1, 2, 4}  # 70 frames: at most 70 / 16
    assert choice.size in choice.seconds_per_frame
    # The smallest of the sizes close enough to the fastest.
    fastest = min(choice.seconds_per_frame.values())
    assert choice.seconds_per_frame[choice.size] <= 1.1 * fastest
    assert all(
        seconds > 1.1 * fastest
        for size, seconds in choice.seconds_per_frame.items()
        if size < choice.size
    )


def test_an_engine_failing_in_a_batch_names_the_clip_and_its_first_frame(tmp_path):
    jax = get_engine("jax")
    calls = []

    def frames_call(frames, kernel, **options):
        calls.append(len(frames))
        if len(calls) == 2:
            raise ValueError("no luck")
        return jax.frames.call(frames, kernel, **options)

    broken = replace(
        jax, name="broken", title="Broken", frames=replace(jax.frames, call=frames_call)
    )
    source = video_file(tmp_path / "in.mkv", random_levels(8))
    with open_clip_file(source) as clip, pytest.raises(BlurFailed) as failed:
        blur_clip_to_file(clip, tmp_path / "out.mkv", BlurSpec(), broken, batch_size=3)
    assert str(failed.value) == f"{source}: the Broken engine failed: no luck (frame 3)"
    assert not (tmp_path / "out.mkv").exists()


def test_a_clip_cut_short_is_the_clips_problem_not_the_engines(tmp_path):
    whole = video_file(tmp_path / "whole.mkv", random_levels(30))
    cut = tmp_path / "cut.mkv"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    with open_clip_file(cut) as clip, pytest.raises(ClipError, match="the clip stops at frame "):
        blur_clip_to_file(clip, tmp_path / "out.mkv", BlurSpec(), get_engine("jax"), batch_size=4)
    assert not (tmp_path / "out.mkv").exists()


def test_a_long_clip_blurred_in_batches_holds_a_few_batches(tmp_path):
    source = video_file(tmp_path / "long.mkv", random_levels(600, (64, 48)))
    one_frame = 64 * 48 * 4
    # The batches' program compiled first: tracing and compiling it makes Python objects of
    # their own (on a TPU more than 80 of these frames' worth), none of them frames.
    short = video_file(tmp_path / "short.mkv", random_levels(8, (64, 48)))
    with open_clip_file(short) as clip:
        blur_clip_to_file(
            clip, tmp_path / "warm.mkv", BlurSpec(5, 1.0), get_engine("jax"), batch_size=8
        )
    with open_clip_file(source) as clip:
        tracemalloc.start()
        try:
            written = blur_clip_to_file(
                clip, tmp_path / "out.mkv", BlurSpec(5, 1.0), get_engine("jax"), batch_size=8
            )
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert written == 600
    assert peak < 80 * one_frame  # the clip's frames are 600
