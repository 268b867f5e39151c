"""`blurapp batch` with clips among the photos: each clip written blurred as a clip, here or on
a real Dask cluster in spans of frames, in order, every frame the oracle's; a clip that cannot
be finished leaves no output and is listed with why."""

import dataclasses
import json
from pathlib import Path

import av
import numpy as np
import pytest

# The scale extra's (Dask): skipped, saying so, where it is not installed (the TPU machine).
pytest.importorskip("distributed", reason="needs the scale extra (Dask), not installed here")
from helpers.batch import SPEC
from helpers.clip_files import (
    animation_file,
    frame_number,
    late_video,
    random_levels,
    tiff_stack,
    video_file,
)
from helpers.cluster import EndedFuture, FakeClient, dask_cluster, finishes_within, killing
from helpers.command_line import blurapp_in_process
from helpers.engine_calls import batch_types
from helpers.oracle import blur_oracle
from PIL import Image

from blurapp.core.media.clip_files import open_clip_file
from blurapp.core.media.clip_saving import save_clip
from blurapp.core.media.saving import OutputError
from blurapp.scale import clip_batch
from blurapp.scale.batch_plan import BatchJob, plan_batch
from blurapp.scale.batch_run import run_batch

# FFV1 keeps the levels written: a frame read back is the blurred frame rounded to a level.
LEVEL = 0.5 / 255 + 1e-5


def frames_of(path):
    with open_clip_file(path) as clip:
        return clip.info, np.stack(list(clip.frames()))


def assert_blurred(source, output):
    """Every frame of `output` is the oracle's blur of the same frame of `source`, in order."""
    source_info, originals = frames_of(source)
    info, frames = frames_of(output)
    assert (info.frame_count, info.frames_per_second) == (
        source_info.frame_count,
        source_info.frames_per_second,
    )
    assert len(frames) == len(originals)
    for index, (original, frame) in enumerate(zip(originals, frames, strict=True)):
        expected = blur_oracle(original, SPEC.kernel)
        assert np.abs(frame - expected).max() <= LEVEL, f"frame {index}"


def clips_and_photos(folder):
    """A folder of a photo, an FFV1 clip, a TIFF stack, an animated GIF and a one-frame GIF."""
    (folder / "sub").mkdir(parents=True)
    rng = np.random.default_rng(3)
    Image.fromarray(rng.integers(0, 256, (30, 40), dtype=np.uint8)).save(folder / "photo.png")
    video_file(folder / "sub/clip.mkv", random_levels(7, seed=1), rate=30)
    tiff_stack(folder / "stack.tif", random_levels(3, size=(20, 16), seed=2))
    animation_file(folder / "moving.gif", random_levels(3, size=(12, 10), seed=4))
    animation_file(folder / "still.gif", random_levels(1, size=(12, 10), seed=5))


def test_a_folders_clips_are_planned_as_clips_the_format_choosing_for_photos_only(tmp_path):
    clips_and_photos(tmp_path / "in")
    plan = plan_batch([tmp_path / "in"], tmp_path / "out", output_format="tif")
    outputs = {job.relative.as_posix(): (job.output.name, job.clip) for job in plan.jobs}
    assert outputs == {
        "in/photo.png": ("photo.tif", False),
        "in/still.gif": ("still.tif", False),  # one frame: a photo
        "in/moving.gif": ("moving.gif", True),
        "in/stack.tif": ("stack.tif", True),
        "in/sub/clip.mkv": ("clip.mkv", True),
    }


def test_a_clip_whose_format_is_not_written_becomes_lossless_matroska(tmp_path):
    source = animation_file(tmp_path / "moving.png", random_levels(3, size=(12, 10)))
    (job,) = plan_batch([source], tmp_path / "out").jobs
    assert job.clip and job.output == tmp_path / "out/moving.mkv"


def test_a_local_batch_writes_each_clip_blurred_beside_the_photos(tmp_path):
    clips_and_photos(tmp_path / "in")
    out = tmp_path / "out"
    frames_seen = []
    summary = run_batch(
        plan_batch([tmp_path / "in"], out),
        SPEC,
        engine="numpy",
        frame_progress=lambda job, done, total: frames_seen.append((job.source.name, done, total)),
    )
    assert summary.failed == ()
    assert (summary.done, summary.clips, summary.frames) == (5, 3, 13)
    assert summary.to_json()["frames"] == 13
    assert ("clip.mkv", 7, 7) in frames_seen
    assert_blurred(tmp_path / "in/sub/clip.mkv", out / "in/sub/clip.mkv")
    with av.open(str(out / "in/sub/clip.mkv")) as container:
        assert container.streams.video[0].codec_context.name == "ffv1"  # lossless stays so
    assert_blurred(tmp_path / "in/stack.tif", out / "in/stack.tif")
    with Image.open(out / "in/photo.png") as photo:
        assert photo.size == (40, 30)
    assert frames_of(out / "in/moving.gif")[0].frame_count == 3


def test_the_command_says_how_many_clips_and_frames_it_wrote(tmp_path):
    clips_and_photos(tmp_path / "in")
    out = tmp_path / "out"
    run = blurapp_in_process("batch", tmp_path / "in", "--out-dir", out, "--format", "npy",
                             "--kernel-size", "5", "--sigma", "1.5")  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"5 blurred into {out}, 0 already done, 0 failed; ")
    assert "\nof them 3 clips, 13 frames (" in run.stdout
    assert (out / "in/photo.npy").exists() and (out / "in/sub/clip.mkv").exists()
    again = json.loads(
        blurapp_in_process(
            "batch", tmp_path / "in", "--out-dir", out, "--json", "--format", "npy"
        ).stdout
    )
    assert (again["done"], again["skipped"], again["clips"], again["frames"]) == (0, 5, 0, 0)
    alone = blurapp_in_process("batch", tmp_path / "in/sub/clip.mkv", "--out-dir", tmp_path / "one")
    assert alone.returncode == 0, alone.stderr
    assert "photos/s" not in alone.stdout  # a batch of clips alone says its frames a second
    assert "\nof them 1 clip, 7 frames (" in alone.stdout


def cut_short(source, target):
    """`source`'s first half of bytes at `target`: a clip that stops part way."""
    data = source.read_bytes()
    target.write_bytes(data[: len(data) // 2])
    return target


def test_a_clip_cut_short_is_listed_with_where_it_stopped_and_leaves_no_output(tmp_path):
    whole = video_file(tmp_path / "whole.mkv", random_levels(10), rate=25)
    (tmp_path / "in").mkdir()
    cut_short(whole, tmp_path / "in/cut.mkv")
    out = tmp_path / "out"
    summary = run_batch(plan_batch([tmp_path / "in"], out), SPEC, engine="numpy")
    (failure,) = summary.failed
    assert failure.source == tmp_path / "in/cut.mkv"
    assert failure.reason.startswith(f"{tmp_path / 'in/cut.mkv'}: the clip stops at frame ")
    assert summary.done == 0
    assert list(out.rglob("*.mkv")) == []


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with dask_cluster(tmp_path_factory.mktemp("clip-cluster")) as (address, _, workers):
        yield address, workers


@pytest.mark.slow
@pytest.mark.xdist_group("clip-cluster")
def test_a_clip_on_the_cluster_is_split_into_spans_over_both_workers_written_in_order(
    tmp_path, cluster, monkeypatch
):
    address, workers = cluster
    monkeypatch.setattr(clip_batch, "SPAN_FRAMES", 3)
    (tmp_path / "in").mkdir()
    # Each frame its own: a span out of its place would show.
    source = video_file(tmp_path / "in/clip.mkv", random_levels(24, seed=9), rate=24)
    Image.fromarray(np.full((8, 8), 200, np.uint8)).save(tmp_path / "in/photo.png")
    out = tmp_path / "out"
    summary = run_batch(plan_batch([tmp_path / "in"], out), SPEC, engine="numpy",
                        scheduler=address)  # fmt: skip
    assert summary.failed == ()
    assert (summary.clips, summary.frames) == (1, 24)
    assert sum(summary.frame_workers.values()) == 24
    pids = {int(name.rpartition(":")[2]) for name in summary.frame_workers}
    assert pids == {worker.pid for worker in workers}  # the spans ran on both
    assert_blurred(source, out / "in/clip.mkv")


@pytest.mark.slow
@pytest.mark.xdist_group("clip-cluster")
# 40 frames: the first span of 32 comes back short; 20: the one span, read to the end, says so.
@pytest.mark.parametrize("frames", [40, 20])
def test_a_clip_cut_short_on_the_cluster_is_listed_and_leaves_no_output(tmp_path, cluster, frames):
    address, _ = cluster
    whole = video_file(tmp_path / "whole.mkv", random_levels(frames), rate=25)
    (tmp_path / "in").mkdir()
    cut = cut_short(whole, tmp_path / "in/cut.mkv")
    out = tmp_path / "out"
    summary = run_batch(plan_batch([cut], out), SPEC, engine="numpy", scheduler=address)
    (failure,) = summary.failed
    assert failure.reason.startswith(f"{cut}: the clip stops at frame ")
    assert not (out / "cut.mkv").exists()
    assert list(out.iterdir()) == []


def _batch_losing_a_worker(tmp_path, workers):
    """A 30-frame clip batched with NumPy on a cluster of `workers`, the first of them killed
    at the first frame written: (the clip, the output folder, the summary, that worker)."""
    (tmp_path / "in").mkdir()
    source = video_file(tmp_path / "in/clip.mkv", random_levels(30, size=(200, 150)), rate=25)
    out = tmp_path / "out"
    with dask_cluster(tmp_path / "cluster", workers=workers) as (address, _, (lost, *_kept)):
        summary = finishes_within(
            90,
            lambda: run_batch(
                plan_batch([source], out),
                SPEC,
                engine="numpy",
                scheduler=address,
                frame_progress=killing(lost),
            ),
            f"the batch still waits 90 s after one of its {workers} workers died",
        )
    return source, out, summary, lost


@pytest.mark.slow
def test_a_clip_whose_last_worker_dies_ends_listed_as_not_blurred(tmp_path, monkeypatch):
    # No worker for 1 s ends it, told from four polls of the cluster, not one or two.
    monkeypatch.setattr("blurapp.scale.scheduler.NO_WORKERS_SECONDS", 1.0)
    monkeypatch.setattr("blurapp.scale.scheduler.CLUSTER_POLL_SECONDS", 0.25)
    monkeypatch.setattr("blurapp.scale.clip_batch.CLUSTER_POLL_SECONDS", 0.25)
    monkeypatch.setattr(clip_batch, "SPAN_FRAMES", 2)
    source, out, summary, _ = _batch_losing_a_worker(tmp_path, workers=1)
    (failure,) = summary.failed
    assert failure.reason == f"{source}: not blurred: the Dask cluster had no worker left for 1 s"
    assert summary.done == 0
    assert not (out / "clip.mkv").exists()


@pytest.mark.slow
def test_a_clip_whose_worker_dies_while_another_remains_is_written_whole(tmp_path):
    source, out, summary, lost = _batch_losing_a_worker(tmp_path, workers=2)
    assert lost.poll() is not None  # killed at the first frame written
    assert summary.failed == ()
    assert summary.frames == 30
    assert_blurred(source, out / "clip.mkv")


def assert_frames_blurred(source, output):
    """Every frame of `output` is the oracle's blur of the same frame of `source`, in order."""
    _, originals = frames_of(source)
    _, frames = frames_of(output)
    assert len(frames) == len(originals)
    for index, (original, frame) in enumerate(zip(originals, frames, strict=True)):
        assert np.abs(frame - blur_oracle(original, SPEC.kernel)).max() <= LEVEL, f"frame {index}"


@pytest.mark.slow
@pytest.mark.xdist_group("clip-cluster")
def test_a_clip_with_more_frames_than_its_duration_says_is_still_blurred_in_bounded_spans(
    tmp_path, cluster, monkeypatch
):
    address, _ = cluster
    monkeypatch.setattr(clip_batch, "SPAN_FRAMES", 4)
    # 30 frames a millisecond apart in a stream that says 10 a second: worked out from its
    # duration, the clip has 1 frame.
    source = video_file(tmp_path / "fast.mkv", random_levels(30, size=(16, 12)), rate=10, apart=1)
    spans = []
    in_order = clip_batch._spans_in_order

    def counted(*args, **kwargs):
        for result in in_order(*args, **kwargs):
            spans.append(len(result.levels))
            yield result

    monkeypatch.setattr(clip_batch, "_spans_in_order", counted)
    out = tmp_path / "out"
    summary = run_batch(plan_batch([source], out), SPEC, engine="numpy", scheduler=address)
    assert summary.failed == ()
    assert summary.frames == 30
    assert sum(spans) == 30 and max(spans) <= 4  # never the rest of the clip in one span
    assert_frames_blurred(source, out / "fast.mkv")


@pytest.mark.slow
@pytest.mark.xdist_group("clip-cluster")
def test_a_clip_with_fewer_frames_than_its_duration_says_is_written_as_a_local_batch_does(
    tmp_path, cluster, monkeypatch
):
    address, _ = cluster
    monkeypatch.setattr(clip_batch, "SPAN_FRAMES", 4)
    # Frames a second apart in a stream that says 30 a second: an estimate of 271 frames.
    source = video_file(tmp_path / "slow.mkv", random_levels(10, size=(16, 12)), rate=30,
                        apart=1000)  # fmt: skip
    for scheduler, out in ((None, tmp_path / "local"), (address, tmp_path / "cluster")):
        summary = run_batch(plan_batch([source], out), SPEC, engine="numpy", scheduler=scheduler)
        assert summary.failed == ()
        assert summary.frames == 10
        assert_frames_blurred(source, out / "slow.mkv")


class _Watch:
    def alone_too_long(self, progressed):
        return False


@pytest.mark.parametrize(
    "status, error, reason, lost",
    [
        # The connection to a scheduler killed while the span's result was fetched.
        ("finished", ConnectionResetError(104, "Connection reset by peer"),
         "the Dask cluster stopped the blur: its scheduler went away", True),
        # The span's own errors: this clip, not the cluster; a TimeoutError too (not taken
        # for the fetch's, which would wait for the span again and again).
        ("error", ValueError("frame 3 is damaged"),
         "the cluster could not blur this clip (frame 3 is damaged)", False),
        ("error", TimeoutError("timed out reading /share/a.mkv"),
         "the cluster could not blur this clip (timed out reading /share/a.mkv)", False),
        ("error", PermissionError(13, "Permission denied"),
         "the cluster could not blur this clip ([Errno 13] Permission denied)", False),
        # A fetch that failed here, the cluster still there: this clip alone.
        ("finished", MemoryError(),
         "the cluster could not blur this clip (MemoryError)", False),
    ],
)  # fmt: skip
def test_a_failed_fetch_of_a_span_is_told_from_the_spans_own_error(status, error, reason, lost):
    job = BatchJob(Path("in/a.mkv"), Path("out/a.mkv"), Path("a.mkv"), clip=True)
    with pytest.raises(clip_batch._SpanLost) as raised:
        finishes_within(
            10,
            lambda: clip_batch._result(
                EndedFuture(status, error), FakeClient(), _Watch(), FakeClient, job
            ),
            "the span's result was waited for again and again",
        )
    assert str(raised.value).startswith(f"{Path('in/a.mkv')}: {reason}")
    assert raised.value.cluster_lost is lost


@pytest.mark.slow
def test_a_lost_scheduler_lists_every_clip_left_as_not_blurred_at_once(tmp_path, monkeypatch):
    monkeypatch.setattr(clip_batch, "SPAN_FRAMES", 2)
    (tmp_path / "in").mkdir()
    first = video_file(tmp_path / "in/a.mkv", random_levels(30, size=(200, 150)), rate=25)
    second = video_file(tmp_path / "in/b.mkv", random_levels(4), rate=25)
    out = tmp_path / "out"
    with dask_cluster(tmp_path / "cluster", workers=1) as (address, scheduler, _):
        summary = finishes_within(
            60,
            lambda: run_batch(
                plan_batch([tmp_path / "in"], out),
                SPEC,
                engine="numpy",
                scheduler=address,
                frame_progress=killing(scheduler),
            ),
            "the batch still waits 60 s after its scheduler went away",
        )
    reasons = {failure.source: failure.reason for failure in summary.failed}
    assert set(reasons) == {first, second}
    lost = "the Dask cluster stopped the blur: its scheduler went away, or cancelled its tasks"
    assert reasons[first] == f"{first}: {lost}"
    assert reasons[second] == f"{second}: {lost}"  # not a second wait on the lost scheduler
    assert not out.exists() or list(out.rglob("*.mkv")) == []


@pytest.mark.slow
@pytest.mark.xdist_group("clip-cluster")
def test_a_clip_whose_rate_changes_is_written_whole_and_in_order_on_the_cluster(tmp_path, cluster):
    address, _ = cluster
    source = late_video(tmp_path / "late.mkv")
    out = tmp_path / "out"
    summary = run_batch(plan_batch([source], out), SPEC, engine="numpy", scheduler=address)
    assert summary.failed == ()
    assert summary.frames == 100
    _, frames = frames_of(out / "late.mkv")
    assert [frame_number(frame) for frame in frames] == list(range(100))
    assert_frames_blurred(source, out / "late.mkv")


def test_a_clip_that_comes_short_of_its_frames_replaces_nothing(tmp_path):
    source = video_file(tmp_path / "clip.mkv", random_levels(10), rate=25)
    output = tmp_path / "out.mkv"
    output.write_bytes(b"an earlier result")
    with open_clip_file(source) as clip:
        info, frames = clip.info, list(clip.frames())
    with pytest.raises(OutputError, match=r"out\.mkv: only 7 of the 10 frames of clip\.mkv"):
        save_clip(output, frames[:7], info)
    assert output.read_bytes() == b"an earlier result"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["clip.mkv", "out.mkv"]


class _ClientHere:
    """A Dask client that runs each task here as it is submitted, the span starting at
    `short_at` giving back only its first frame."""

    def __init__(self, short_at):
        self.short_at = short_at

    def scheduler_info(self, n_workers=-1):
        return {"workers": {"here": {}}}

    def submit(self, function, source, start, stop, *args, pure=True):
        result = function(source, start, stop, *args)
        if start == self.short_at:
            result = clip_batch.SpanResult(start, result.levels[:1], result.worker)
        future = EndedFuture("finished", None)
        future.result = lambda timeout=None: result
        return future

    def cancel(self, futures):
        pass

    as_current = FakeClient.as_current


@pytest.mark.parametrize("short_at, lost", [(4, True), (None, False)])
def test_a_span_that_comes_back_short_ends_a_clip_of_unsaid_length_only_where_it_ends(
    tmp_path, short_at, lost
):
    # Ten frames in spans of four; the clip says no length. A span short at frame 4 hides
    # frames 5 to 7; the last span, frames 8 and 9, is short because the clip ends there.
    source = video_file(tmp_path / "clip.mkv", random_levels(10, size=(16, 12)), rate=25)
    job = BatchJob(source, tmp_path / "out.mkv", Path("clip.mkv"), clip=True)
    with open_clip_file(source) as clip:
        unsaid = dataclasses.replace(clip.info, frame_count=None)
    spans = clip_batch._spans_in_order(job, SPEC, "numpy", "cpu", _ClientHere(short_at), 4,
                                       unsaid, 8)  # fmt: skip
    if lost:
        with pytest.raises(clip_batch._SpanLost, match="frames 5 to 7 did not come back"):
            list(spans)
    else:
        assert [len(span.levels) for span in spans] == [4, 4, 2]


@pytest.mark.parametrize(
    ("stored", "bit_depth", "blurred_as"),
    [(np.uint8, None, np.uint8), (np.uint16, 16, np.uint16), (np.uint16, 8, np.float32)],
    ids=["8-bit as levels", "16-bit as levels", "16-bit into an 8-bit output as floats"],
)
def test_a_span_on_a_worker_is_blurred_as_levels_where_the_output_keeps_their_depth(
    tmp_path, monkeypatch, stored, bit_depth, blurred_as
):
    # What a worker runs, here: the span comes back as the output's levels, the clip's own
    # levels blurred where they are of the output's depth, floats rounded once otherwise.
    seen = batch_types(monkeypatch)
    levels = random_levels(4, size=(20, 14), dtype=stored, seed=12)
    source = tiff_stack(tmp_path / "in.tif", levels)
    result = clip_batch.blur_span(str(source), 1, 3, SPEC, "numpy", "cpu", bit_depth)
    assert result.error is None
    assert set(seen) == {np.dtype(blurred_as)}
    wanted = np.uint16 if (bit_depth or 8 * np.dtype(stored).itemsize) == 16 else np.uint8
    assert result.levels.dtype == wanted and len(result.levels) == 2
    white = np.iinfo(stored).max
    oracle = [blur_oracle(frame.astype(np.float64) / white, SPEC.kernel) for frame in levels[1:3]]
    expected = np.rint(np.clip(np.stack(oracle), 0, 1) * np.iinfo(wanted).max)
    assert np.abs(result.levels.astype(np.float64) - expected).max() <= 1


@pytest.mark.parametrize("output_name", ["out.gif", "out.tif"])
def test_a_16_bit_clip_on_the_cluster_is_written_at_the_outputs_depth(tmp_path, output_name):
    # The spans come back as the output's levels, 8-bit for a GIF, 16-bit for a TIFF stack,
    # which the writer stores as they are: each frame the oracle's, at the output's depth.
    levels = random_levels(5, size=(20, 14), dtype=np.uint16, seed=13)
    source = tiff_stack(tmp_path / "in.tif", levels)
    job = BatchJob(source, tmp_path / output_name, Path("in.tif"), clip=True)
    result = clip_batch.blur_clip_on_cluster(job, SPEC, "numpy", _ClientHere(None))
    assert result.error is None and result.frames == 5
    with open_clip_file(tmp_path / output_name) as clip:
        depth, frames = clip.info.bit_depth, np.stack(list(clip.frames()))
    white = 65535 if output_name == "out.tif" else 255
    assert depth == (16 if white == 65535 else 8)
    oracle = [blur_oracle(frame.astype(np.float64) / 65535, SPEC.kernel) for frame in levels]
    expected = np.rint(np.clip(np.stack(oracle), 0, 1) * white)
    assert np.abs(np.rint(frames * white) - expected).max() <= 1
