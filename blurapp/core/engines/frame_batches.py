"""Frames blurred in batches: a clip's frames gathered into arrays of a few frames, each blurred
in one call of an engine (Engine.blur_frames), and the batch size chosen by measuring.

Memory stays a few batches deep: frames are gathered as they arrive, never the whole clip (a
batch read ahead, and on an accelerator up to jax_frames.BATCHES_IN_FLIGHT batches whose copies
are under way, where the copies overlap the blur).
"""

from __future__ import annotations

import dataclasses
import queue
import statistics
import threading
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from blurapp.core.engines import Engine
from blurapp.core.engines.engine import check_output
from blurapp.core.engines.levels import levels_type
from blurapp.core.engines.runs import BlurredFrames, Cancelled, Compilation, check_cancelled

# The batch sizes tried, when an engine blurs a batch in one call.
BATCH_SIZES = (1, 2, 4, 8, 16)
# A batch's frames take at most this many bytes (a 1080p grey frame is 8.3 MB, a 4K colour one
# 100 MB): the engine's output, and a device's copies of both, come on top.
MAX_BATCH_BYTES = 160_000_000
# Each size is timed in this many rounds, the sizes interleaved, after its first call.
CHOICE_ROUNDS = 3
# Frames decoded ahead of the one being blurred (read_ahead), and blurred ahead of the one
# being written or shown: decoding, blurring and encoding (each letting go of Python's lock)
# overlap, and memory holds this many frames more at each step.
FRAMES_READ_AHEAD = 2


@dataclass(frozen=True)
class BatchChoice:
    """The batch size an engine blurs frames in, and the measurements that chose it."""

    size: int
    # batch size → the median seconds a frame, copies to and from the device counted: what
    # chose the size. Empty when nothing was measured (an engine blurring frame by frame).
    seconds_per_frame: Mapping[int, float]
    # batch size → the median seconds a frame of the blur alone, the copies left out.
    blur_seconds_per_frame: Mapping[int, float]
    # batch size → its first call, the blur alone as a photo's first call is (with compilation,
    # for an engine that compiles; its copies are timed apart), and how the engine got its
    # program.
    first_call_seconds: Mapping[int, float]
    compilation: Mapping[int, Compilation | None]

    @property
    def measured(self) -> bool:
        return bool(self.seconds_per_frame)

    def for_span(self, frames: int, *, filled: bool) -> BatchChoice:
        """The measured size quickest for a span of `frames`: each size's seconds a frame ×
        the frames it blurs for the span, a last short batch counted whole when `filled` (an
        engine that compiles fills it up, see blur_batches). Unmeasured: as it is."""
        if not self.seconds_per_frame or frames < 1:
            return self

        def span_seconds(size: int) -> float:
            blurred = -(-frames // size) * size if filled else frames
            return self.seconds_per_frame[size] * blurred

        sizes = [size for size in self.seconds_per_frame if size <= frames] or [1]
        best = min(sizes, key=lambda size: (span_seconds(size), size))
        return dataclasses.replace(self, size=best) if best in self.seconds_per_frame else self

    def frames_per_second(self, size: int | None = None) -> float | None:
        """Frames a second at batch `size` (the chosen one when None), copies counted."""
        seconds = self.seconds_per_frame.get(self.size if size is None else size)
        return 1 / seconds if seconds else None


def batch_type(frame: np.ndarray) -> np.dtype:
    """The number type a batch of frames like `frame` is gathered in: stored levels (uint8,
    uint16; Clip.levels) stay levels, anything else is float32."""
    return levels_type(frame) or np.dtype(np.float32)


def frame_batches(frames: Iterable[np.ndarray], size: int) -> Iterator[np.ndarray]:
    """`frames` gathered into arrays of `size` frames (frames × height × width [× 3]; float32,
    or levels as they come: see batch_type), in order; the last may hold fewer. A frame of
    another shape or number type than those before it starts a batch of its own."""
    if size < 1:
        raise ValueError(f"a batch holds at least one frame, not {size}")
    if size == 1:  # each frame is its own batch: a view of it, no copy
        for frame in frames:
            yield np.asarray(frame, batch_type(frame))[np.newaxis]
        return
    batch: np.ndarray | None = None
    count = 0
    for frame in frames:
        if batch is not None and (
            frame.shape != batch.shape[1:] or batch_type(frame) != batch.dtype
        ):
            yield batch[:count]
            batch, count = None, 0
        if batch is None:
            batch = np.empty((size, *frame.shape), batch_type(frame))
        batch[count] = frame
        count += 1
        if count == size:
            yield batch
            batch, count = None, 0
    if batch is not None and count:
        yield batch[:count]


def blur_batches(
    engine: Engine,
    frames: Iterable[np.ndarray],
    kernel: np.ndarray,
    *,
    batch_size: int = 1,
    device: str = "auto",
    cancelled: Cancelled | None = None,
) -> Iterator[BlurredFrames]:
    """Each batch of `frames` blurred by `engine`, in order, its outputs and times. A
    compiled engine's last, short batch is filled up with its last frame so that it reuses
    the full batches' program instead of compiling one of its own; the filling's outputs are
    dropped. `cancelled()` is checked between batches."""
    for batch, count in _filled_batches(engine, frames, batch_size, cancelled):
        blurred = engine.blur_frames(batch, kernel, device=device)
        if len(blurred.output) != count:
            blurred = blurred._replace(output=blurred.output[:count])
        yield blurred


def _filled_batches(
    engine: Engine, frames: Iterable[np.ndarray], batch_size: int, cancelled: Cancelled | None
) -> Iterator[tuple[np.ndarray, int]]:
    """Each batch of `frames` and how many of its frames are the clip's: a compiled engine's
    last, short batch filled up with its last frame (see blur_batches)."""
    for batch in frame_batches(frames, batch_size):
        check_cancelled(cancelled)
        count = len(batch)
        if engine.compiles and count < batch_size:
            filler = np.broadcast_to(batch[-1], (batch_size - count, *batch.shape[1:]))
            batch = np.concatenate([batch, filler])
        yield batch, count


def overlapped_batches(
    engine: Engine,
    frames: Iterable[np.ndarray],
    kernel: np.ndarray,
    *,
    batch_size: int = 1,
    device: str = "auto",
    cancelled: Cancelled | None = None,
) -> Iterator[np.ndarray] | None:
    """Each batch of `frames` blurred by `engine` with the copies of the batches overlapping
    their blur (Frames.overlapped), the outputs in order, batched and filled up as
    blur_batches does; None when the engine or its platform cannot overlap them, and
    blur_batches is the way. Each output is checked as blur_frames checks it."""
    if engine.frames is None or engine.frames.overlapped is None:
        return None
    # Each batch's shape, its levels' type (None: floats) and how many of its frames are the
    # clip's.
    sent: list[tuple[tuple[int, ...], np.dtype | None, int]] = []

    def batches() -> Iterator[np.ndarray]:
        for batch, count in _filled_batches(engine, frames, batch_size, cancelled):
            sent.append((batch.shape, levels_type(batch), count))
            yield batch

    stream = engine.frames.overlapped(batches(), kernel, platform=engine.platform_for(device))
    if stream is None:
        return None

    def checked(stream: Iterator[np.ndarray]) -> Iterator[np.ndarray]:
        for index, output in enumerate(stream):
            shape, levels, count = sent[index]
            check_output(engine, output, shape, dtype=levels)
            yield output[:count]

    return checked(stream)


def blurred_frames(
    engine: Engine,
    frames: Iterable[np.ndarray],
    kernel: np.ndarray,
    *,
    batch_size: int = 1,
    device: str = "auto",
    cancelled: Cancelled | None = None,
) -> Iterator[np.ndarray]:
    """Each of `frames` blurred by `engine`, one output frame at a time, in order, blurred
    `batch_size` at a time (see blur_batches)."""
    for blurred in blur_batches(
        engine, frames, kernel, batch_size=batch_size, device=device, cancelled=cancelled
    ):
        yield from blurred.output


def batch_sizes_for(
    frame_shape: Sequence[int],
    sizes: Sequence[int] = BATCH_SIZES,
    max_batch_bytes: int = MAX_BATCH_BYTES,
) -> list[int]:
    """The sizes of `sizes` whose batch of float32 frames of `frame_shape` fits in
    `max_batch_bytes`; 1 always (a single frame is a clip's least)."""
    frame_bytes = 4 * int(np.prod(frame_shape))
    fitting = sorted(
        {size for size in sizes if size >= 1 and size * frame_bytes <= max_batch_bytes}
    )
    return fitting if 1 in fitting else [1, *fitting]


def choose_batch_size(
    engine: Engine,
    frame_shape: Sequence[int],
    kernel: np.ndarray,
    *,
    device: str = "auto",
    sizes: Sequence[int] = BATCH_SIZES,
    max_batch_bytes: int = MAX_BATCH_BYTES,
    rounds: int = CHOICE_ROUNDS,
    cancelled: Cancelled | None = None,
    dtype: np.dtype | None = None,
) -> BatchChoice:
    """The batch size at which `engine` blurs frames of `frame_shape` fastest, copies
    counted, among `sizes` that fit in `max_batch_bytes`: each size's first call made apart
    (it compiles, for JAX-jit), then every size timed in `rounds` interleaved rounds, the order
    reversed every other round, and its median a frame kept. An engine without a frames call
    blurs frame by frame, and one with a caveat here (Shown.caveat) in batches of one: 1,
    nothing measured. The frames are made, not read: the same pixels
    every time, float32 (None) or the stored levels of `dtype` (uint8, uint16) as the clip will give
    them (Clip.levels), so that the program chosen for is the one the clip's frames get."""
    # An engine that runs far from its figures here (JAX Pallas interpreted) is not worth the
    # batches' first calls and rounds: each size would be compiled and interpreted in turn.
    caveated = engine.shown.caveat is not None and engine.shown.caveat() is not None
    if engine.frames is None or caveated:
        return BatchChoice(1, {}, {}, {}, {})
    candidates = batch_sizes_for(frame_shape, sizes, max_batch_bytes)
    shape = (max(candidates), *frame_shape)
    if dtype is not None and np.dtype(dtype) in (np.uint8, np.uint16):
        frames = np.random.default_rng(0).integers(0, np.iinfo(dtype).max, shape, dtype=dtype)
    else:
        frames = np.random.default_rng(0).random(shape, dtype=np.float32)
    first_seconds: dict[int, float] = {}
    compilation: dict[int, Compilation | None] = {}
    for size in candidates:
        check_cancelled(cancelled)
        first = engine.blur_frames(frames[:size], kernel, device=device)
        first_seconds[size] = first.call.seconds
        compilation[size] = first.compilation
    totals: dict[int, list[float]] = {size: [] for size in candidates}
    blurs: dict[int, list[float]] = {size: [] for size in candidates}
    for round_number in range(max(1, rounds)):
        for size in candidates if round_number % 2 == 0 else candidates[::-1]:
            check_cancelled(cancelled)
            call = engine.blur_frames(frames[:size], kernel, device=device).call
            totals[size].append(call.end_to_end_seconds / size)
            blurs[size].append(call.seconds / size)
    per_frame = {size: statistics.median(times) for size, times in totals.items()}
    best = min(per_frame, key=lambda size: (per_frame[size], size))
    return BatchChoice(
        best,
        per_frame,
        {size: statistics.median(times) for size, times in blurs.items()},
        first_seconds,
        compilation,
    )


_END = object()


def read_ahead(frames: Iterator[Any], depth: int) -> Generator[Any, None, None]:
    """The items of `frames`, made on a thread of their own at most `depth` ahead of the one
    taken. An error raised making them is raised here, after the items before it. Closing
    this generator stops the thread (and closes `frames` on it) before close() returns;
    close it when leaving the loop early, since an exception's traceback can keep it (and
    the thread) alive long after."""
    ready: queue.Queue[tuple[Any, BaseException | None]] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def hand_over(item: Any, error: BaseException | None = None) -> None:
        while not stop.is_set():
            try:
                ready.put((item, error), timeout=0.1)
                return
            except queue.Full:
                continue

    def make() -> None:
        try:
            for item in frames:
                hand_over(item)
                if stop.is_set():
                    return
            hand_over(_END)
        except BaseException as error:
            hand_over(None, error)
        finally:
            if isinstance(frames, Generator):
                frames.close()  # on this thread, where the generator runs

    maker = threading.Thread(target=make, name="clip frames read ahead", daemon=True)
    maker.start()
    try:
        while True:
            item, error = ready.get()
            if error is not None:
                raise error
            if item is _END:
                return
            yield item
    finally:
        stop.set()
        maker.join()
