"""Blurring folders of photos: a plan of what to write where, then the work spread over Dask.

A batch mirrors its inputs under one output folder: a photo given by name is written there
under its own name, a folder's photos under a subfolder named after it, at the same relative
paths; the suffix becomes that of the output format. Every photo is blurred exactly as
`blurapp blur` blurs one (the same loading, engine call, bit depth and description), and a
photo that cannot be read or written is listed with the reason, never stopping the rest.

Outputs are written atomically (blurapp.core.media.saving), so an output that exists is complete:
running the same batch again does only what is missing. Dask and distributed are imported
only when a batch runs (`pip install 'blurapp[scale]'`).
"""

from __future__ import annotations

import itertools
import logging
import os
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from blurapp.core.blurring.blur_file import BlurFailed, blur_to_file
from blurapp.core.engines import DEFAULT_ENGINE, Engine, get_engine
from blurapp.core.media.photo import load_photo
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.media.saving import OutputError, check_output_path
from blurapp.core.spec import BlurSpec
from blurapp.core.wording import display_path
from blurapp.scale.batch_plan import BatchError, BatchJob, BatchPlan, Failure
from blurapp.scale.clip_batch import ClipProgress, ClipResult, blur_clips
from blurapp.scale.scheduler import (
    CLUSTER_POLL_SECONDS,
    ClusterError,
    WorkerWatch,
    connect_to_cluster,
    dask_array,
    dask_distributed,
)
from blurapp.scale.tiled import blur_file_tiled
from blurapp.scale.tiled_read import needs_tiles
from blurapp.scale.tiled_write import OUTPUT_EXTENSIONS

log = logging.getLogger(__name__)


# The most photos blurred at once here: the engines keep a core busy each, so more threads than
# a few per core only add threads to start (1,000 tiny photos on 100,000 of them: 12.9 s, not 2).
MAX_WORKERS_PER_CORE = 4


def max_workers() -> int:
    """The most threads a batch on this machine uses, however many --workers asks for."""
    return MAX_WORKERS_PER_CORE * (os.cpu_count() or 1)


@dataclass(frozen=True)
class BatchSummary:
    """What a batch did. `done` photos and clips were written, `skipped` were already there,
    `failed` lists the others with why. `seconds` is the whole run's wall time (starting the
    workers included); the rates count what was written only, a clip's frames in the
    megapixels. `workers` says which process wrote how many photos (host:pid). Of `done`,
    `clips` were clips, of `frames` frames in all; `frame_workers` says which process blurred
    how many of those frames (on a cluster, a clip's spans of frames spread over its
    workers)."""

    done: int
    skipped: int
    failed: tuple[Failure, ...]
    seconds: float
    megapixels: float
    workers: dict[str, int] = field(default_factory=dict)
    outputs: tuple[Path, ...] = ()
    clips: int = 0
    frames: int = 0
    frame_workers: dict[str, int] = field(default_factory=dict)

    @property
    def photos_per_second(self) -> float:
        """The photos written a second (clips not counted)."""
        return (self.done - self.clips) / self.seconds if self.seconds > 0 else 0.0

    @property
    def frames_per_second(self) -> float:
        """The clips' frames written a second of the whole run (photos' time included)."""
        return self.frames / self.seconds if self.seconds > 0 else 0.0

    @property
    def megapixels_per_second(self) -> float:
        return self.megapixels / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The summary as plain JSON values (paths as strings)."""
        return {
            "done": self.done,
            "skipped": self.skipped,
            "failed": [
                {"source": str(failure.source), "reason": failure.reason} for failure in self.failed
            ],
            "seconds": round(self.seconds, 4),
            "megapixels": round(self.megapixels, 4),
            "photos_per_second": round(self.photos_per_second, 4),
            "megapixels_per_second": round(self.megapixels_per_second, 4),
            "workers": dict(self.workers),
            "clips": self.clips,
            "frames": self.frames,
            "frames_per_second": round(self.frames_per_second, 4),
            "frame_workers": dict(self.frame_workers),
        }


# --------------------------------------------------------------------------------------------
# One photo: what `blurapp blur` does, on whichever worker runs it


@dataclass(frozen=True)
class BlurSettings:
    """Everything a worker needs besides the job: small and picklable."""

    engine: str
    spec: BlurSpec
    device: str = "auto"


@dataclass(frozen=True)
class JobResult:
    """What became of one job: `error` is None when the output was written."""

    job: BatchJob
    error: str | None
    megapixels: float
    worker: str


def blur_job(job: BatchJob, settings: BlurSettings) -> JobResult:
    """Blur one photo as `blurapp blur` does and write its output. Never raises for a bad
    photo, an engine's failure or an unwritable output: the result says what went wrong."""
    worker = f"{socket.gethostname()}:{os.getpid()}"
    megapixels = 0.0
    try:
        job.output.parent.mkdir(parents=True, exist_ok=True)
        check_output_path(job.output, source=job.source)  # before the work, not after it
        photo = load_photo(job.source, color=settings.spec.color)
        pixels = photo.pixels
        megapixels = pixels.shape[0] * pixels.shape[1] / 1e6
        blur_to_file(
            photo, job.output, settings.spec, get_engine(settings.engine), device=settings.device
        )
    except (PhotoError, OutputError, BlurFailed) as error:
        return JobResult(job, str(error), megapixels, worker)
    except OSError as error:  # making the output's folder
        reason = f"{display_path(job.output)}: {error.strerror or error}"
        return JobResult(job, reason, megapixels, worker)
    return JobResult(job, None, megapixels, worker)


# --------------------------------------------------------------------------------------------
# Running a plan

# progress(photos finished, photos to run, megapixels written so far); finished counts failures.
BatchProgress = Callable[[int, int, float], None]


def run_batch(
    plan: BatchPlan,
    spec: BlurSpec | None = None,
    *,
    engine: str | Engine = DEFAULT_ENGINE,
    device: str = "auto",
    scheduler: str | None = None,
    workers: int | None = None,
    progress: BatchProgress | None = None,
    frame_progress: ClipProgress | None = None,
) -> BatchSummary:
    """Blur every job of `plan` as `spec` says (None: the default BlurSpec), each as `blurapp
    blur` would, on Dask; never stops on a bad photo (each failure is in the summary with its
    reason).

    `scheduler` None runs here, on `workers` threads (default: one per CPU core);
    "tcp://HOST:PORT" sends each photo to that distributed scheduler's workers as a task
    (the workers must see the photos and the output folder at the same paths, and have
    BlurApp installed). `progress` is called in this thread after each photo finishes.
    A photo too large to load whole (blurapp.scale.tiled_read.needs_tiles) is blurred in tiles, as
    `blurapp blur` does, after the others and on the same scheduler; it needs a .tif or .npy
    output. Clips (BatchJob.clip) are blurred after the photos, one at a time, as `blurapp blur`
    blurs one: here, or on the cluster split into spans of frames (blurapp.scale.clip_batch);
    `frame_progress` is called after each of a clip's frames is written, and `progress` after
    each clip as after each photo. Raises MissingExtraError without Dask, ClusterError when
    the scheduler cannot be reached, BatchError for a bad `workers`, and UnknownEngineError
    for an unknown engine.
    """
    start = time.perf_counter()
    engine_name = engine.name if isinstance(engine, Engine) else get_engine(engine).name
    spec = BlurSpec() if spec is None else spec
    settings = BlurSettings(engine=engine_name, spec=spec, device=device)
    if workers is not None and workers < 1:
        raise BatchError(f"workers must be at least 1, not {workers}")
    jobs = list(plan.jobs)
    if jobs:
        try:
            plan.out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:  # a read-only file system, /proc, a file in the way
            raise BatchError(
                f"{display_path(plan.out_dir)}: cannot create the output folder "
                f"({error.strerror or error})"
            ) from None
    # Read from the headers; what cannot be read is loaded whole, which says why it fails.
    clips = [job for job in jobs if job.clip]
    photos = [job for job in jobs if not job.clip]
    too_large = {job for job in photos if needs_tiles(job.source, color=spec.color)}
    whole = [job for job in photos if job not in too_large]
    in_tiles = [job for job in photos if job in too_large]
    if scheduler is None:
        results = _run_here(whole, settings, workers)
    else:
        results = _run_on_cluster(whole, settings, scheduler)
    blurred_clips = blur_clips(clips, spec, engine_name, device=device, scheduler=scheduler,
                               progress=frame_progress)  # fmt: skip
    every: Iterator[JobResult | ClipResult] = itertools.chain(
        results, _blur_all_in_tiles(in_tiles, settings, scheduler), blurred_clips
    )

    failed = list(plan.failed)
    done_workers: dict[str, int] = {}
    frame_workers: dict[str, int] = {}
    outputs: list[Path] = []
    megapixels = 0.0
    clips_done = frames = 0
    for finished, result in enumerate(every, start=1):
        if isinstance(result, ClipResult):
            for worker, count in result.workers.items():
                frame_workers[worker] = frame_workers.get(worker, 0) + count
            if result.error is None:
                clips_done += 1
                frames += result.frames
                megapixels += result.megapixels
                outputs.append(result.job.output)
            else:
                failed.append(Failure(result.job.source, result.error))
        elif result.error is None:
            megapixels += result.megapixels
            outputs.append(result.job.output)
            if result.worker:  # not known for an output found written after the task was lost
                done_workers[result.worker] = done_workers.get(result.worker, 0) + 1
        else:
            failed.append(Failure(result.job.source, result.error))
        if progress is not None:
            progress(finished, len(jobs), megapixels)
    return BatchSummary(
        done=len(outputs),
        skipped=len(plan.skipped),
        failed=tuple(sorted(failed, key=lambda failure: str(failure.source))),
        seconds=time.perf_counter() - start,
        megapixels=megapixels,
        workers=done_workers,
        outputs=tuple(sorted(outputs)),
        clips=clips_done,
        frames=frames,
        frame_workers=frame_workers,
    )


def _run_here(
    jobs: list[BatchJob], settings: BlurSettings, workers: int | None
) -> Iterator[JobResult]:
    """Dask's threaded scheduler: each photo a task, results yielded as they finish.

    Threads, not processes: the engines spend their time outside Python's lock (NumPy's
    array arithmetic, XLA, Pillow's codecs), and threads share one compiled JAX program where
    each process would import JAX and compile its own.
    """
    dask_array("blurring a batch")  # the extra, or the error that names it
    import queue
    import threading

    from dask.threaded import get

    finished: queue.Queue[JobResult | BaseException | None] = queue.Queue()
    stop = threading.Event()
    graph = {
        ("blur", index): (_blur_unless_stopped, stop, job, settings)
        for index, job in enumerate(jobs)
    }

    def posttask(_key: Any, result: JobResult | None, *_state: Any) -> None:
        if result is not None:
            finished.put(result)

    def compute() -> None:
        try:
            get(
                graph,
                list(graph),
                num_workers=max(1, min(workers or os.cpu_count() or 1, max_workers(), len(jobs))),
                # (start, start_state, pretask, posttask, finish), as dask.local documents
                callbacks=[(None, None, None, posttask, None)],
            )
            finished.put(None)
        except BaseException as error:
            finished.put(error)

    # Dask's local scheduler blocks its caller until every task is done; it runs in a thread
    # of its own so that each result is handed on (and progress shown) as soon as it is there.
    runner = threading.Thread(target=compute, name="blurapp-batch", daemon=True)
    runner.start()
    try:
        while (item := finished.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()  # Ctrl+C or an error: the photos not yet started are left alone
        runner.join()


def _blur_in_tiles(job: BatchJob, settings: BlurSettings, scheduler: str | None) -> JobResult:
    """A photo too large to load whole, blurred as `blurapp blur` blurs it: in tiles, here or on
    the cluster."""
    worker = "tiles"  # blocks spread over the scheduler's workers, not one process
    try:
        job.output.parent.mkdir(parents=True, exist_ok=True)
        result = blur_file_tiled(
            job.source,
            job.output,
            kernel=settings.spec.kernel,
            engine=settings.engine,
            device=settings.device,
            color=settings.spec.color,
            scheduler=scheduler,
            description=settings.spec.description(settings.engine),
        )
    except OutputError as error:
        if job.output.suffix.lower() not in OUTPUT_EXTENSIONS:
            hint = "; blurred by blocks, it needs --format tif or npy"
            return JobResult(job, f"{display_path(job.source)}: too large to load whole{hint}",
                             0.0, worker)  # fmt: skip
        return JobResult(job, str(error), 0.0, worker)
    except PhotoError as error:
        return JobResult(job, str(error), 0.0, worker)
    except ClusterError:  # the cluster lost, for every photo left: _blur_all_in_tiles says so
        raise
    except OSError as error:
        return JobResult(job, f"{display_path(job.output)}: {error.strerror or error}", 0.0, worker)
    except MemoryError:
        return JobResult(job, f"{display_path(job.source)}: not enough memory", 0.0, worker)
    except Exception as error:
        # Whatever one photo does, the rest of the batch goes on (as for a photo loaded whole).
        log.debug("blurring %s by blocks failed", job.source, exc_info=True)
        reason = f"{display_path(job.source)}: {type(error).__name__}: {error}"
        return JobResult(job, reason, 0.0, worker)
    return JobResult(job, None, result.width * result.height / 1e6, worker)


def _blur_all_in_tiles(
    jobs: list[BatchJob], settings: BlurSettings, scheduler: str | None
) -> Iterator[JobResult]:
    """Each of `jobs` blurred by blocks in turn; once the cluster is lost (no worker left, its
    scheduler gone), the rest are listed as not blurred for that reason at once, rather than
    each waiting out the same loss."""
    lost: str | None = None
    for job in jobs:
        if lost is None:
            try:
                yield _blur_in_tiles(job, settings, scheduler)
                continue
            except ClusterError as error:  # said as for a photo loaded whole
                lost = f"not blurred: {error}"
        yield JobResult(job, f"{display_path(job.source)}: {lost}", 0.0, "tiles")


def _blur_unless_stopped(stop: Any, job: BatchJob, settings: BlurSettings) -> JobResult | None:
    return None if stop.is_set() else blur_job(job, settings)


def _run_on_cluster(
    jobs: list[BatchJob], settings: BlurSettings, address: str
) -> Iterator[JobResult]:
    """Each photo a task on the distributed scheduler at `address`, yielded as they finish."""
    distributed = dask_distributed("blurring a batch")
    client = connect_to_cluster(address)
    with client:
        # What each output was before: a lost task's output may be there all the same.
        before = {job: _file_identity(job.output) for job in jobs}
        futures = client.map(blur_job, jobs, settings=settings, pure=False)
        job_of = {future.key: job for future, job in zip(futures, jobs, strict=True)}
        pending = set(futures)
        lost: list[tuple[BatchJob, str]] = []
        watch = WorkerWatch(client)
        try:
            while pending:
                try:
                    with client.as_current():
                        done, pending = distributed.wait(
                            pending, timeout=CLUSTER_POLL_SECONDS, return_when="FIRST_COMPLETED"
                        )
                except TimeoutError:
                    done = set()
                except Exception:  # tasks cancelled (the scheduler lost): each one's result says
                    done = {future for future in pending if future.done()}
                    pending -= done
                for future in sorted(done, key=lambda future: str(job_of[future.key].source)):
                    job = job_of[future.key]
                    try:
                        result = future.result(timeout=CLUSTER_POLL_SECONDS)
                    except TimeoutError:
                        # Its result is on a worker lost since it finished: the scheduler
                        # computes it again, and the wait goes on with the watch on it (a
                        # result asked for without a limit waited forever with no worker left).
                        pending.add(future)
                        continue
                    except Exception as error:
                        lost.append((job, _lost_reason(job, error)))
                        continue
                    yield result
                if watch.alone_too_long(progressed=bool(done)):
                    reason = f"not blurred: {watch.words()}"
                    for future in sorted(pending, key=lambda f: str(job_of[f.key].source)):
                        job = job_of[future.key]
                        lost.append((job, f"{display_path(job.source)}: {reason}"))
                    break
        finally:
            client.cancel(futures)
    # Looked at once the client is closed: a worker that outlived its scheduler may have
    # finished the photo it was blurring meanwhile.
    for job, reason in lost:
        yield _if_written(job, before[job], reason)


def _file_identity(path: Path) -> tuple[int, int, int] | None:
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_dev, status.st_ino, status.st_mtime_ns


def _lost_reason(job: BatchJob, error: Exception) -> str:
    """Why a task the cluster lost (a worker that died while blurring it, the scheduler gone)
    gave no photo."""
    detail = str(error) or type(error).__name__
    return f"{display_path(job.source)}: the cluster could not blur this photo ({detail})"


def _if_written(job: BatchJob, before: tuple[int, int, int] | None, reason: str) -> JobResult:
    """Done if the job's output was written during the batch (outputs are renamed into place
    whole, so one there is complete, a new file), else failed for `reason`."""
    now = _file_identity(job.output)
    if now is not None and now != before:
        return JobResult(job, None, _megapixels_of(job.output), "")
    return JobResult(job, reason, 0.0, "")


def _megapixels_of(output: Path) -> float:
    try:
        if output.suffix == ".npy":
            shape = np.load(output, mmap_mode="r").shape
        else:
            with Image.open(output) as image:
                shape = image.size
        return shape[0] * shape[1] / 1e6
    except Exception:
        return 0.0
