"""A span of a clip's frames through the engines: frames per second, the batch size, the
difference from NumPy, the end-to-end figures, and clips that stop part way."""

import json
import threading
import weakref

import numpy as np
import pytest
from helpers.oracle import blur_oracle
from helpers.stand_in_accelerator import take_the_cpu_for_an_accelerator

from blurapp.core import TOLERANCE
from blurapp.core.engines import jax_engine
from blurapp.core.engines.jax_frames import BATCHES_IN_FLIGHT
from blurapp.core.engines.jax_runtime import JaxUnavailableError
from blurapp.core.measuring.clip_comparison import clip_comparison_dict, compare_engines_on_clip
from blurapp.core.media.clip import Clip, ClipError, ClipInfo, FramesInMemory
from blurapp.core.report.clip_figures import clip_figures
from blurapp.core.spec import BlurSpec

# Run where the accelerator is: `pytest -m accelerator` (docs/contributing.md).
pytestmark = pytest.mark.accelerator


class MadeFrames(Clip):
    """Frames made one at a time as they are read, never all held: a stand-in for a decoder.
    Counts the frames it made and how many of them were alive at once; with `stop_after`, it
    stops there as a cut-short file does."""

    def __init__(self, count, height=24, width=32, *, stop_after=None, declared=True):
        self.info = ClipInfo(
            name="made.mkv",
            width=width,
            height=height,
            frame_count=count if declared else None,
            frames_per_second=25.0,
            colour=False,
        )
        self.count, self.stop_after = count, stop_after
        self.made = 0
        self.alive = self.most_alive = 0
        # Frames are made on the reading thread and let go of on the blurring one.
        self._counting = threading.Lock()

    def _frame(self, index):
        rng = np.random.default_rng(index)
        return rng.random((self.info.height, self.info.width), dtype=np.float32)

    def _gone(self):
        with self._counting:
            self.alive -= 1

    def _read(self, start):
        for index in range(start, self.count):
            if self.stop_after is not None and index >= self.stop_after:
                raise ClipError(
                    self.info.name, "it stops at frame {index}: the file is cut short", index=index
                )
            frame = self._frame(index)
            with self._counting:
                self.made += 1
                self.alive += 1
                self.most_alive = max(self.most_alive, self.alive)
            weakref.finalize(frame, self._gone)
            yield frame


def test_each_engine_is_stated_in_frames_per_second_and_agrees_with_numpy():
    frames = np.random.default_rng(1).random((9, 30, 41), dtype=np.float32)
    spec = BlurSpec(kernel_size=9, sigma=2.5)
    result = compare_engines_on_clip(FramesInMemory(frames), spec, frames=6, repeats=3)
    assert result.frames == 6 and not result.errors
    for name in ("numpy", "jax"):
        fps = result.frames_per_second(name)
        assert fps > 0
        assert result.seconds_per_frame(name) == pytest.approx(result.runs[name].seconds / 6)
        # End to end counts reading the frames and the copies on top of the blur.
        assert result.end_to_end_frames_per_second(name) <= fps
        assert len(result.end_to_end_seconds[name]) == 3
        np.testing.assert_allclose(
            result.runs[name].output, blur_oracle(frames[0], spec.kernel), rtol=0, atol=TOLERANCE
        )
    assert result.differences["jax"] <= TOLERANCE and result.agrees("jax")
    assert result.speedup == pytest.approx(
        result.seconds_per_frame("numpy") / result.seconds_per_frame("jax")
    )
    assert result.runs["jax"].first_call_seconds > 0  # the first call apart
    assert result.batch_size("jax") in (1, 2, 4)  # measured, and never more than the span
    assert result.batch_size("numpy") == 1


def test_the_json_names_the_clip_the_span_and_every_engine_figure():
    clip = FramesInMemory(np.zeros((4, 12, 10, 3), np.float32) + 0.5, name="dots.gif")
    result = compare_engines_on_clip(clip, BlurSpec(5, 1.0, color=True), frames=4, repeats=2)
    data = json.loads(json.dumps(clip_comparison_dict(result), allow_nan=False))
    assert data["clip"] == {
        "name": "dots.gif",
        "width": 10,
        "height": 12,
        "frame_count": 4,
        "frame_count_estimated": False,
        "frames_per_second": 10.0,
        "colour": True,
    }
    assert data["frames"] == 4 and data["kernel"] == {"size": 5, "sigma": 1.0, "algorithm": "2d"}
    jit = data["jax"]
    assert jit["frames_per_second"] == pytest.approx(1000 / jit["ms_per_frame"])
    assert jit["batch_size"] == result.batch_size("jax")
    assert str(jit["batch_size"]) in jit["batch_sizes_tried"]
    assert jit["within_tolerance"] is True and data["within_tolerance"] is True
    assert data["speedup"] == pytest.approx(
        jit["frames_per_second"] / data["numpy"]["frames_per_second"]
    )
    assert data["numpy"]["speedup"] is None and data["numpy"]["error"] is None
    assert data["clip_problem"] is None


def test_a_batch_size_asked_for_leaves_a_remainder_that_still_agrees():
    clip = MadeFrames(7)
    result = compare_engines_on_clip(clip, frames=7, batch_sizes={"jax": 3}, repeats=1)
    assert result.frames == 7 and result.batch_size("jax") == 3
    assert result.differences["jax"] <= TOLERANCE
    assert clip_comparison_dict(result)["jax"]["batch_sizes_tried"] == {}


def test_memory_stays_a_few_frames_deep_however_long_the_span():
    clip = MadeFrames(120)
    result = compare_engines_on_clip(
        clip, frames=120, batch_sizes={"numpy": 1, "jax": 4}, repeats=1
    )
    assert result.frames == 120
    assert clip.made >= 3 * 120  # the first pass and each engine's timed pass read it again
    # In hand: the frame being batched and the next one read. On an accelerator JAX-jit's
    # overlapped pass also keeps up to BATCHES_IN_FLIGHT batches under way, each holding its
    # frames until their copy is done: more, but still however long the span.
    in_hand, batch = 2, result.batch_size("jax")
    if "jax" in result.overlapped:
        assert clip.most_alive <= in_hand + BATCHES_IN_FLIGHT * batch
    else:
        assert clip.most_alive <= in_hand


def test_a_clip_cut_short_is_timed_over_what_decoded_and_says_where_it_stopped():
    clip = MadeFrames(20, stop_after=5, declared=False)
    result = compare_engines_on_clip(clip, frames=12, repeats=1)
    assert result.frames == 5
    assert result.clip_problem == "made.mkv: it stops at frame 5: the file is cut short"
    assert result.frames_per_second("jax") > 0
    assert clip_comparison_dict(result)["clip_problem"] == result.clip_problem


def test_a_clip_with_no_frame_to_read_raises_its_problem():
    with pytest.raises(ClipError, match="stops at frame 0"):
        compare_engines_on_clip(MadeFrames(20, stop_after=0), frames=4, repeats=1)
    with pytest.raises(IndexError, match=r"made\.mkv has no frame 3"):
        compare_engines_on_clip(MadeFrames(3), frames=4, start=3, repeats=1)


def test_without_jax_numpy_is_still_timed_and_the_json_says_why(monkeypatch):
    def no_device(platform=None):
        raise JaxUnavailableError("JAX could not be loaded: simulated")

    monkeypatch.setattr(jax_engine, "jax_device", no_device)
    result = compare_engines_on_clip(MadeFrames(4), frames=4, repeats=1)
    assert result.errors == {"jax": "JAX could not be loaded: simulated"}
    assert result.frames_per_second("numpy") > 0
    data = clip_comparison_dict(result)
    assert data["jax"]["error"] == "JAX could not be loaded: simulated"
    assert data["jax"]["frames_per_second"] is None and data["speedup"] is None


def test_a_span_ends_before_the_frame_past_it_is_decoded():
    clip = MadeFrames(20, stop_after=5)
    assert len(list(clip.frames(2, 5))) == 3  # frame 5 is where the file is cut short
    assert clip.made == 3


def test_a_comparison_asked_to_stop_stops():
    from blurapp.core.engines.runs import BlurCancelled

    clip = MadeFrames(50)
    with pytest.raises(BlurCancelled):
        compare_engines_on_clip(clip, frames=50, cancelled=lambda: clip.made >= 10)
    assert clip.made < 50


@pytest.mark.parametrize(
    ("count", "asked", "chosen"),
    [
        (17, 17, 4),  # 16 would blur 32 frames for 17: two batches of 16
        (40, 16, 16),  # one full batch of 16
        (10, 16, 4),  # a clip of unknown length that decodes 10: 16 would blur 16 for 10
    ],
)
def test_the_batch_size_is_the_quickest_for_the_frames_the_span_has(
    monkeypatch, count, asked, chosen
):
    from blurapp.core.engines.frame_batches import BatchChoice
    from blurapp.core.measuring import clip_comparison

    # Measured seconds a frame at each size, as choose_batch_size gives them.
    per_frame = {1: 1e-3, 4: 0.6e-3, 16: 0.5e-3}

    def measured(engine, *args, sizes, **kwargs):
        if engine.frames is None:
            return BatchChoice(1, {}, {}, {}, {})
        kept = {size: per_frame[size] for size in sizes if size in per_frame}
        best = min(kept, key=kept.get)
        return BatchChoice(best, kept, kept, dict.fromkeys(kept, 0.1), dict.fromkeys(kept))

    monkeypatch.setattr(clip_comparison, "choose_batch_size", measured)
    clip = MadeFrames(count, declared=count != 10)
    result = compare_engines_on_clip(clip, engines=("numpy", "jax"), frames=asked, repeats=1)
    assert result.frames == min(count, asked)
    assert result.batch_size("jax") == chosen
    assert result.agrees("jax")


def test_a_clip_that_gives_its_levels_is_timed_end_to_end_over_them(monkeypatch):
    # End to end as a clip is played or saved: its stored levels read, sent, blurred on the
    # device and brought back as levels, a quarter of the floats' bytes; the difference from
    # NumPy still from the floats.
    from blurapp.bench.synthetic import SyntheticClip

    real = jax_engine.blur_frames_on_device
    sent = []

    def watched(jax, frames, *args, **kwargs):
        blurred = real(jax, frames, *args, **kwargs)
        sent.append((frames.dtype, blurred.output.dtype))
        return blurred

    monkeypatch.setattr(jax_engine, "blur_frames_on_device", watched)
    clip = SyntheticClip(40, 30, 6, colour=True)
    assert clip.gives_levels
    result = compare_engines_on_clip(clip, engines=["numpy", "jax"], frames=6, repeats=2)
    assert (np.dtype(np.uint8), np.dtype(np.uint8)) in sent  # the timed passes
    assert (np.dtype(np.float32), np.dtype(np.float32)) in sent  # the pass compared with NumPy
    assert result.differences["jax"] <= TOLERANCE
    assert len(result.end_to_end_seconds["jax"]) == len(result.runs["jax"].repeat_seconds) * (
        result.runs["jax"].calls_per_sample
    )


def test_on_an_accelerator_a_clip_is_timed_end_to_end_with_its_copies_overlapping_the_blur(
    monkeypatch,
):
    # The CPU standing in for an accelerator (on a machine with one, the accelerator itself):
    # JAX-jit's end to end is a pass of its own whose batches' copies overlap their blur, and
    # the JSON says so; NumPy's is its timed pass. On the CPU, asked for by name where JAX's
    # default device is an accelerator, nothing overlaps.
    from blurapp.bench.synthetic import SyntheticClip

    clip = SyntheticClip(40, 30, 7)
    quiet = compare_engines_on_clip(clip, engines=["numpy", "jax@cpu"], frames=7, repeats=2)
    assert "jax@cpu" in quiet.runs and quiet.overlapped == frozenset()
    take_the_cpu_for_an_accelerator(monkeypatch)
    real, passes = jax_engine.overlapped_frames_on_device, []

    def counted(*args, **kwargs):
        passes.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(jax_engine, "overlapped_frames_on_device", counted)
    result = compare_engines_on_clip(clip, engines=["numpy", "jax"], frames=7, repeats=2)
    assert result.overlapped == {"jax"}
    # A pass of its own after each timed one, its warm-up's too.
    assert (
        len(passes)
        >= len(result.end_to_end_seconds["jax"])
        == 2 * (result.runs["jax"].calls_per_sample)
    )
    data = clip_comparison_dict(result)
    assert data["jax"]["end_to_end_overlapped"] is True
    assert data["numpy"]["end_to_end_overlapped"] is False
    rows = {row.key: row.text for row in clip_figures(result)}
    assert rows["jax.end_to_end"].endswith("copies counted, the copies overlapping the blur)")
    assert rows["numpy.end_to_end"].endswith("reading the clip and copies counted)")
    assert result.end_to_end_frames_per_second("jax") > 0
    assert result.differences["jax"] <= TOLERANCE


def test_a_batch_size_given_reports_the_first_call_of_the_program_the_passes_run(monkeypatch):
    # The pass compared with NumPy reads floats, another program than the timed passes' (of
    # the clip's levels): the levels' program is got first, and its first call is the one told.
    from blurapp.bench.synthetic import SyntheticClip

    real, calls = jax_engine.blur_frames_on_device, []

    def watched(jax, frames, *args, **kwargs):
        calls.append((frames.dtype, len(frames)))
        return real(jax, frames, *args, **kwargs)

    monkeypatch.setattr(jax_engine, "blur_frames_on_device", watched)
    clip = SyntheticClip(36, 20, 6)
    compare_engines_on_clip(
        clip, engines=["numpy", "jax"], frames=6, repeats=1, batch_sizes={"jax": 2}
    )
    assert calls[0] == (np.dtype(np.uint8), 2)
