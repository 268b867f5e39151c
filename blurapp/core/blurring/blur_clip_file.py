"""A clip blurred with one engine, as `blurapp blur CLIP -o OUT` does it: the frames decoded,
gathered into batches of the size measured fastest for the engine (one call, and for JAX-jit
one copy each way, a batch), blurred and written one after another, so memory holds a few
batches whatever the clip's length. Where the clip gives its stored levels and the output
stores levels of the same depth, the levels are what is read, blurred and written: a quarter
(8-bit) of the floats' bytes to make, batch and copy, rounded once, by the engine, as saving
rounds."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Generator, Iterator

import numpy as np

from blurapp.core.blurring.blur_file import BlurFailed, engine_failure
from blurapp.core.engines import Engine
from blurapp.core.engines.frame_batches import (
    BATCH_SIZES,
    FRAMES_READ_AHEAD,
    BatchChoice,
    blurred_frames,
    choose_batch_size,
    read_ahead,
)
from blurapp.core.media.clip import Clip
from blurapp.core.media.clip_saving import output_bit_depth, save_clip
from blurapp.core.spec import BlurSpec

# Called after each frame written: (frames done, frames in all when known).
FrameProgress = Callable[[int, int | None], None]
# Choosing a batch size blurs about four times the largest size tried in frames (each size's
# first call and a timed one): sizes are tried only where that is a small part of the clip.
CHOICE_FRAMES_PER_SIZE = 16
# A clip's batch holds at most this many bytes of frames (eight 1080p grey frames, two 4K
# ones): its output, a device's copies, the frames read ahead and the measuring's own frames
# come on top, and `blur` keeps its peak memory under a gigabyte at 1080p.
CLIP_BATCH_BYTES = 70_000_000
# A batch size measured at most this much slower a frame than the fastest counts as as fast.
CLOSE_ENOUGH = 1.1


def blurs_as_levels(
    clip: Clip, output: str | os.PathLike[str], *, codec: str | None = None
) -> bool:
    """Whether blur_clip_to_file blurs `clip` into `output` as its stored levels: the clip
    gives them (Clip.levels) and the output stores levels of their depth (output_bit_depth).
    Levels of another depth (16-bit levels into an 8-bit output: no output is deeper than its
    clip) go as floats, which the writer rounds to its own depth; the writers take levels of
    their own depth only."""
    return clip.gives_levels and output_bit_depth(output, clip.info, codec=codec) == (
        clip.info.bit_depth
    )


def choose_clip_batch_size(
    clip: Clip, spec: BlurSpec, engine: Engine, *, device: str = "auto", as_levels: bool = False
) -> BatchChoice:
    """The batch size `engine` blurs `clip`'s frames fastest in, copies counted, measured on
    frames of the clip's size (blurapp.core.engines.frame_batches.choose_batch_size, one round): the
    sizes of BATCH_SIZES no larger than the clip's frames ÷ CHOICE_FRAMES_PER_SIZE, so that
    measuring costs a small part of blurring the clip, whose batch fits in CLIP_BATCH_BYTES;
    of those within CLOSE_ENOUGH of the fastest, the smallest. One frame at a time, nothing
    measured, for an engine without a frames call or a clip too short to gain from batches.
    `as_levels`: measured on frames of the clip's stored levels (blurs_as_levels), the program
    the clip's frames will get, not float32. Raises BlurFailed naming the clip."""
    count = clip.info.frame_count  # an estimate will do: it only keeps measuring short
    sizes = [
        size for size in BATCH_SIZES if count is None or size * CHOICE_FRAMES_PER_SIZE <= count
    ]
    if engine.frames is None or len(sizes) < 2:
        return BatchChoice(1, {}, {}, {}, {})
    try:
        choice = choose_batch_size(
            engine,
            clip.info.frame_shape,
            spec.kernel,
            device=device,
            sizes=sizes,
            max_batch_bytes=CLIP_BATCH_BYTES,
            rounds=1,
            dtype=clip.info.levels_type if as_levels else None,
        )
    except Exception as error:
        raise BlurFailed(engine_failure(_name(clip), engine, error, what="clip")) from None
    # A smaller batch holds less memory and lets decoding, blurring and writing overlap more
    # finely: the smallest size within CLOSE_ENOUGH of the fastest is taken.
    fastest = min(choice.seconds_per_frame.values())
    size = min(s for s, t in choice.seconds_per_frame.items() if t <= fastest * CLOSE_ENOUGH)
    return dataclasses.replace(choice, size=size)


def blur_clip(
    clip: Clip,
    spec: BlurSpec,
    engine: Engine,
    *,
    device: str = "auto",
    batch_size: int | None = None,
    start: int = 0,
    stop: int | None = None,
    as_levels: bool = False,
) -> Iterator[np.ndarray]:
    """`clip`'s frames from `start` up to `stop` (the end when None), each blurred by `engine`
    with `spec`'s kernel, as they are decoded, `batch_size` frames a call (None:
    choose_clip_batch_size's): float32 in [0, 1]; with `as_levels`, read as the clip's stored
    levels (Clip.levels, so only for a clip that gives them) and blurred into levels of the
    same type, rounded as saving rounds. The first batch pays the engine's first call (a compiled
    engine's compilation); the others reuse it. Raises BlurFailed naming the clip and the frame;
    a ClipError from a clip cut short after the frames that decoded."""
    if batch_size is None:
        batch_size = choose_clip_batch_size(
            clip, spec, engine, device=device, as_levels=as_levels
        ).size
    if batch_size < 1:
        raise ValueError(f"a batch holds at least one frame, not {batch_size}")
    # A batch's worth decoded ahead, so that decoding the next batch overlaps blurring this one.
    read = clip.levels if as_levels else clip.frames
    decoded = read_ahead(read(start, stop), max(FRAMES_READ_AHEAD, batch_size))
    done = start
    blurred = blurred_frames(
        engine, _reading(decoded), spec.kernel, batch_size=batch_size, device=device
    )
    try:
        while True:
            try:
                frame = next(blurred)
            except StopIteration:
                return
            except _ReadingFailed as failed:
                raise failed.__cause__ from None  # type: ignore[misc]
            except Exception as error:
                failure = engine_failure(_name(clip), engine, error, what="clip")
                raise BlurFailed(f"{failure} (frame {done})") from None
            done += 1
            yield frame
    finally:
        # Now, not when an error's traceback lets go of it: the clip may be closed next.
        if isinstance(blurred, Generator):
            blurred.close()
        decoded.close()


def _name(clip: Clip) -> str | os.PathLike[str]:
    return clip.info.path if clip.info.path is not None else clip.info.name


class _ReadingFailed(Exception):
    """Reading the clip failed (its cause): told apart from the engine's failures, which
    arrive through the same batches."""


def _reading(frames: Iterator[np.ndarray]) -> Iterator[np.ndarray]:
    try:
        yield from frames
    except Exception as error:
        raise _ReadingFailed from error


def blur_clip_to_file(
    clip: Clip,
    output: str | os.PathLike[str],
    spec: BlurSpec,
    engine: Engine,
    *,
    device: str = "auto",
    codec: str | None = None,
    progress: FrameProgress | None = None,
    batch_size: int | None = None,
    start: int = 0,
    frames: int | None = None,
) -> int:
    """Blur every frame of `clip` and write them to `output` atomically (see
    blurapp.core.media.clip_saving.save_clip), with what made them (spec.description) inside where
    the format holds it, blurred `batch_size` frames a call (None: the size measured fastest,
    choose_clip_batch_size); the number of frames written. With `frames`, only that span of
    frames from `start` is written, a clip of its own that must hold every one of them.
    A clip that gives its stored levels (Clip.levels) is blurred as those levels where the
    output stores levels of their depth (blurs_as_levels), else as floats. Raises BlurFailed,
    ClipError for a clip cut short (nothing is written then), or OutputError naming the output."""
    info = clip.info
    if frames is not None:
        # The span's count, known: save_clip then checks that every frame of it was written.
        info = dataclasses.replace(info, frame_count=frames, frame_count_estimated=False)
    elif start:
        count = info.frame_count
        info = dataclasses.replace(info, frame_count=None if count is None else count - start)
    # Three stages at once, each on its thread: decoding, blurring, encoding (here).
    as_levels = blurs_as_levels(clip, output, codec=codec)
    if batch_size is None:
        batch_size = choose_clip_batch_size(
            clip, spec, engine, device=device, as_levels=as_levels
        ).size
    stop = None if frames is None else start + frames
    blurred_span = blur_clip(
        clip,
        spec,
        engine,
        device=device,
        batch_size=batch_size,
        start=start,
        stop=stop,
        as_levels=as_levels,
    )
    # A whole batch handed over at once, so that blurring the next overlaps writing this one.
    blurred = read_ahead(blurred_span, max(FRAMES_READ_AHEAD, batch_size))

    def counted() -> Iterator[np.ndarray]:
        for done, frame in enumerate(blurred, 1):
            yield frame
            if progress is not None:
                progress(done, info.frame_count)

    try:
        return save_clip(
            output, counted(), info, codec=codec, description=spec.description(engine.name)
        )
    finally:
        # The threads stopped before the caller closes the clip they read.
        blurred.close()
