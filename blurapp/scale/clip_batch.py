"""A batch's clips: each blurred as `blurapp blur CLIP -o OUT` blurs one, here, or on a Dask
cluster split into spans of frames.

On a cluster each span is a task that opens the clip on its worker, seeks to the span's first
frame and hands back the span's frames blurred, as the 8- or 16-bit levels the output keeps
(a quarter or half of float32's bytes, and exactly what save_clip would round them to). This
machine keeps a few spans a worker in flight, takes them back in order and streams them into
save_clip: its memory holds that window of spans whatever the clip's length, and a span lost
(a clip cut short, a worker gone) leaves no output, the clip listed as failed with the reason.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import os
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from blurapp.core.blurring.blur_clip_file import blur_clip, blur_clip_to_file
from blurapp.core.blurring.blur_file import BlurFailed
from blurapp.core.engines import get_engine
from blurapp.core.media.clip import ClipInfo
from blurapp.core.media.clip_files import open_clip_file
from blurapp.core.media.clip_saving import check_clip_output_path, output_bit_depth, save_clip
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.media.saving import OutputError, to_8bit, to_16bit
from blurapp.core.spec import BlurSpec
from blurapp.core.wording import display_path
from blurapp.scale.batch_plan import BatchJob
from blurapp.scale.scheduler import (
    CLUSTER_POLL_SECONDS,
    WorkerWatch,
    connect_to_cluster,
    dask_distributed,
)

# A span is at most this many frames, and fewer for large frames: about SPAN_BYTES of levels.
SPAN_FRAMES = 32
SPAN_BYTES = 64 * 2**20
# Spans in flight for each worker: one being blurred, one waiting its turn, one coming back;
# and at most WINDOW_BYTES of levels in flight in all (at least two spans), which bounds this
# machine's memory however many workers there are.
SPANS_PER_WORKER = 3
WINDOW_BYTES = 512 * 2**20

# Called after each frame written: (the clip, frames done, frames in all when known).
ClipProgress = Callable[[BatchJob, int, int | None], None]


@dataclass(frozen=True)
class ClipResult:
    """What became of one clip: `error` is None when its output was written. `workers` says
    which process (host:pid) blurred how many of its frames."""

    job: BatchJob
    error: str | None
    frames: int = 0
    megapixels: float = 0.0
    workers: dict[str, int] = field(default_factory=dict)
    # The cluster had no worker left, or lost its scheduler: the clips after this one are not
    # tried.
    cluster_lost: bool = False


def _worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def blur_clip_job(
    job: BatchJob,
    spec: BlurSpec,
    engine: str,
    *,
    device: str = "auto",
    progress: ClipProgress | None = None,
) -> ClipResult:
    """Blur one clip here, as `blurapp blur` does, and write its output atomically. Never
    raises for a bad clip, an engine's failure or an unwritable output: the result says."""
    frames = 0
    try:
        job.output.parent.mkdir(parents=True, exist_ok=True)
        with open_clip_file(job.source, color=spec.color) as clip:
            info = clip.info
            check_clip_output_path(job.output, info, source=job.source)
            frames = blur_clip_to_file(
                clip,
                job.output,
                spec,
                get_engine(engine),
                device=device,
                progress=(lambda done, total: progress(job, done, total)) if progress else None,
            )
    except (PhotoError, OutputError, BlurFailed) as error:
        return ClipResult(job, str(error))
    except OSError as error:  # making the output's folder
        return ClipResult(job, f"{display_path(job.output)}: {error.strerror or error}")
    except MemoryError:
        return ClipResult(job, f"{display_path(job.source)}: not enough memory for its frames")
    megapixels = frames * info.width * info.height / 1e6
    return ClipResult(job, None, frames, megapixels, {_worker_name(): frames})


def blur_clips(
    jobs: list[BatchJob],
    spec: BlurSpec,
    engine: str,
    *,
    device: str = "auto",
    scheduler: str | None = None,
    progress: ClipProgress | None = None,
) -> Iterator[ClipResult]:
    """Each clip of `jobs` blurred in turn: here when `scheduler` is None, else in spans on the
    cluster at that address. Once the cluster has had no worker too long, the clips left are
    listed as not blurred for that reason at once, rather than each waiting out the loss."""
    if not jobs:
        return
    if scheduler is None:
        for job in jobs:
            yield blur_clip_job(job, spec, engine, device=device, progress=progress)
        return
    client = connect_to_cluster(scheduler)
    with client:
        lost: str | None = None
        for job in jobs:
            if lost is None:
                result = blur_clip_on_cluster(job, spec, engine, client, device=device,
                                              progress=progress)  # fmt: skip
                if result.cluster_lost and result.error is not None:
                    lost = result.error.removeprefix(f"{display_path(job.source)}: ")
                yield result
            else:
                yield ClipResult(job, f"{display_path(job.source)}: {lost}", cluster_lost=True)


# --------------------------------------------------------------------------------------------
# Spans of frames, on a cluster's workers


@dataclass(frozen=True)
class SpanResult:
    """One span's frames blurred, as levels (frames × height × width (× 3), uint8 or uint16);
    `error` says why the span stopped early (the frames before it are in `levels`)."""

    start: int
    levels: np.ndarray
    worker: str
    error: str | None = None


def blur_span(source: str, start: int, stop: int | None, spec: BlurSpec, engine: str,
              device: str = "auto", bit_depth: int | None = None) -> SpanResult:  # fmt: skip
    """Frames `start` up to `stop` (the clip's end when None) of the clip at `source`, blurred by
    `engine` with `spec`, as levels of `bit_depth` bits (the output's, output_bit_depth; None:
    the clip's own): run on a worker, which opens the clip and seeks to `start`. A clip that
    gives its stored levels of that depth is blurred as them (blur_clip's `as_levels`); any
    other is blurred as floats and rounded once, to the output's levels."""
    worker = _worker_name()
    done: list[np.ndarray] = []
    try:
        with open_clip_file(source, color=spec.color) as clip:
            depth = clip.info.bit_depth if bit_depth is None else bit_depth
            as_levels = clip.gives_levels and depth == clip.info.bit_depth
            levels = to_16bit if depth == 16 else to_8bit
            # One frame a call: measuring batch sizes in every span would cost more than a
            # span of frames gains from them.
            blurred: Any = blur_clip(clip, spec, get_engine(engine), device=device, batch_size=1,
                                     start=start, stop=stop, as_levels=as_levels)  # fmt: skip
            try:
                done.extend(frame if as_levels else levels(frame) for frame in blurred)
            finally:
                blurred.close()
    except (PhotoError, BlurFailed) as error:
        return SpanResult(start, _stacked(done), worker, str(error))
    except MemoryError:
        frames = f"{start} to {stop}" if stop is not None else f"{start} on"
        reason = f"{display_path(source)}: not enough memory for frames {frames}"
        return SpanResult(start, _stacked(done), worker, reason)
    return SpanResult(start, _stacked(done), worker)


def _stacked(frames: list[np.ndarray]) -> np.ndarray:
    return np.stack(frames) if frames else np.zeros((0, 0, 0), np.uint8)


def _frame_bytes(info: ClipInfo, bit_depth: int | None = None) -> int:
    """The bytes of one frame's levels, of `bit_depth` bits (None: the clip's own)."""
    depth = info.bit_depth if bit_depth is None else bit_depth
    return info.width * info.height * (3 if info.colour else 1) * (2 if depth == 16 else 1)


def span_frames(info: ClipInfo, bit_depth: int | None = None) -> int:
    """How many frames a span holds: SPAN_FRAMES, fewer when that many would be over
    SPAN_BYTES of levels of `bit_depth` bits (the output's; None: the clip's own); at least
    one."""
    return max(1, min(SPAN_FRAMES, SPAN_BYTES // max(1, _frame_bytes(info, bit_depth))))


class _SpanLost(Exception):
    """A span gave no frames, or fewer than it should: the clip cannot be written.
    `cluster_lost`: because the cluster has had no worker too long, or lost its scheduler."""

    def __init__(self, reason: str, *, cluster_lost: bool = False) -> None:
        super().__init__(reason)
        self.cluster_lost = cluster_lost


def blur_clip_on_cluster(
    job: BatchJob,
    spec: BlurSpec,
    engine: str,
    client: Any,
    *,
    device: str = "auto",
    progress: ClipProgress | None = None,
) -> ClipResult:
    """Blur one clip on `client`'s cluster, span by span, and write its output here
    atomically (see the module's description). Never raises for a bad clip, a span lost or an
    unwritable output: the result says."""
    try:
        job.output.parent.mkdir(parents=True, exist_ok=True)
        with open_clip_file(job.source, color=spec.color) as clip:
            info = clip.info
        check_clip_output_path(job.output, info, source=job.source)
        bit_depth = output_bit_depth(job.output, info)
    except (PhotoError, OutputError) as error:
        return ClipResult(job, str(error))
    except OSError as error:
        return ClipResult(job, f"{display_path(job.output)}: {error.strerror or error}")
    span = span_frames(info, bit_depth)
    workers: dict[str, int] = {}
    written = [0]

    def frames() -> Iterator[np.ndarray]:
        spans = _spans_in_order(job, spec, engine, device, client, span, info, bit_depth)
        for result in spans:
            if len(result.levels):
                workers[result.worker] = workers.get(result.worker, 0) + len(result.levels)
            for levels in result.levels:
                # The output's own levels (blur_span): save_clip writes them as they are.
                yield levels
                written[0] += 1
                if progress is not None:
                    progress(job, written[0], info.frame_count)
            if result.error is not None:
                raise _SpanLost(result.error)

    try:
        count = save_clip(job.output, frames(), info, description=spec.description(engine))
    except _SpanLost as error:
        return ClipResult(job, str(error), workers=workers, cluster_lost=error.cluster_lost)
    except OutputError as error:
        return ClipResult(job, str(error), workers=workers)
    return ClipResult(job, None, count, count * info.width * info.height / 1e6, workers)


def _spans_in_order(
    job: BatchJob,
    spec: BlurSpec,
    engine: str,
    device: str,
    client: Any,
    span: int,
    info: ClipInfo,
    bit_depth: int,
) -> Iterator[SpanResult]:
    """The clip's spans blurred on the cluster, in order, a bounded window of them in flight.
    The last span reads to the clip's end, where the clip itself says whether it was cut
    short; with no frame count (or only an estimate, which a clip of variable rate may pass
    or fall short of) the spans go on until one comes back short and no frame follows it.
    Raises _SpanLost when a span comes back short before the end, or the cluster loses one."""
    distributed = dask_distributed("blurring a batch")
    workers = max(1, len(client.scheduler_info(n_workers=-1)["workers"]))
    frame_bytes = _frame_bytes(info, bit_depth)
    window = max(2, min(SPANS_PER_WORKER * workers, WINDOW_BYTES // (span * frame_bytes)))
    source = str(job.source)
    frame_count = info.known_frame_count
    in_flight: collections.deque[tuple[Any, int | None]] = collections.deque()
    next_start: int | None = 0
    watch = WorkerWatch(client)
    try:
        while True:
            while len(in_flight) < window and next_start is not None:
                stop: int | None = next_start + span
                if frame_count is not None and stop is not None and stop >= frame_count:
                    stop = None
                future = client.submit(blur_span, source, next_start, stop, spec, engine, device,
                                       bit_depth, pure=False)  # fmt: skip
                in_flight.append((future, stop))
                next_start = stop
            if not in_flight:
                return
            future, stop = in_flight[0]
            result = _result(future, client, watch, distributed, job)
            in_flight.popleft()
            yield result
            if result.error is None and stop is not None and len(result.levels) < span:
                end = result.start + len(result.levels)
                if frame_count is not None:
                    raise _SpanLost(
                        f"{display_path(job.source)}: the clip stops at frame {end}: it has "
                        f"fewer frames than the {frame_count} it declares"
                    )
                # A clip that does not say its length for sure ends here only if no frame
                # follows: a span that came back short part way would lose frames unseen.
                client.cancel([future for future, _ in in_flight])
                in_flight.clear()
                future = client.submit(blur_span, source, end, end + 1, spec, engine, device,
                                       bit_depth, pure=False)  # fmt: skip
                after = _result(future, client, watch, distributed, job)
                if after.error is not None:
                    raise _SpanLost(after.error)
                if not len(after.levels):
                    return
                raise _SpanLost(
                    f"{display_path(job.source)}: frames {end} to {stop - 1} did not come back "
                    "from the cluster, though the clip goes on after them"
                )
    finally:
        if in_flight:
            client.cancel([future for future, _ in in_flight])


def _scheduler_lost(job: BatchJob) -> str:
    return (
        f"{display_path(job.source)}: the Dask cluster stopped the blur: its scheduler went "
        "away, or cancelled its tasks"
    )


def _result(future: Any, client: Any, watch: WorkerWatch, distributed: Any, job: BatchJob) -> Any:
    """`future`'s result, waiting with the worker watch: raises _SpanLost when the cluster
    loses the span or has had no worker too long."""
    while True:
        try:
            with client.as_current():
                distributed.wait([future], timeout=CLUSTER_POLL_SECONDS)
        except TimeoutError:
            if watch.alone_too_long(progressed=False):
                raise _SpanLost(
                    f"{display_path(job.source)}: not blurred: {watch.words()}", cluster_lost=True
                ) from None
            continue
        except (Exception, asyncio.CancelledError):  # the scheduler lost: the result says why
            pass
        try:
            # Limited: a finished span whose worker died since is computed again, and the
            # wait goes on with the watch on it (without a limit it waited forever).
            result = future.result(timeout=CLUSTER_POLL_SECONDS)
            watch.alone_too_long(progressed=True)  # the cluster's silence starts over
            return result
        except TimeoutError as error:
            if future.status == "error":  # the span's own (reading a network share, say)
                raise _could_not_blur(job, error) from None
            if watch.alone_too_long(progressed=False):
                raise _SpanLost(
                    f"{display_path(job.source)}: not blurred: {watch.words()}", cluster_lost=True
                ) from None
        except (asyncio.CancelledError, concurrent.futures.CancelledError):
            # distributed cancels what waits on a scheduler that went away: the clips left
            # would each wait out a reconnection to it, then fail the same.
            raise _SpanLost(_scheduler_lost(job), cluster_lost=True) from None
        except OSError as error:
            if future.status == "error":
                raise _could_not_blur(job, error) from None
            # Not the span's own error: fetching its result failed, the connection to a
            # scheduler going away reset under it.
            raise _SpanLost(_scheduler_lost(job), cluster_lost=True) from None
        except Exception as error:
            raise _could_not_blur(job, error) from None


def _could_not_blur(job: BatchJob, error: BaseException) -> _SpanLost:
    detail = str(error) or type(error).__name__
    return _SpanLost(f"{display_path(job.source)}: the cluster could not blur this clip ({detail})")
