"""A clip blurred frame by frame with one engine, as `blurapp blur CLIP -o OUT` does it: the
frames decoded, blurred and written one after another, so memory holds a few frames whatever
the clip's length."""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Generator, Iterator
from typing import Any

import numpy as np

from blurapp.core.blur_file import BlurFailed, engine_failure
from blurapp.core.clip import Clip
from blurapp.core.clip_saving import save_clip
from blurapp.core.engines import Engine
from blurapp.core.spec import BlurSpec

# Called after each frame written: (frames done, frames in all when known).
FrameProgress = Callable[[int, int | None], None]
# Frames decoded ahead of the one being blurred, and blurred ahead of the one being written:
# decoding, blurring and encoding (each letting go of Python's lock) overlap, and memory holds
# this many frames more at each step.
FRAMES_READ_AHEAD = 2


def blur_clip(
    clip: Clip,
    spec: BlurSpec,
    engine: Engine,
    *,
    device: str = "auto",
    start: int = 0,
    stop: int | None = None,
) -> Iterator[np.ndarray]:
    """`clip`'s frames from `start` up to `stop` (the end when None), each blurred by
    `engine` with `spec`'s kernel, as they are decoded. The first frame pays the engine's
    first call (a compiled engine's compilation); the others reuse it. Raises BlurFailed
    naming the clip and the frame; a ClipError from a clip cut short after the frames that
    decoded."""
    kernel = spec.kernel
    name = clip.info.path if clip.info.path is not None else clip.info.name
    decoded = read_ahead(clip.frames(start, stop), FRAMES_READ_AHEAD)
    try:
        for index, frame in enumerate(decoded, start):
            try:
                blurred = engine.start(frame, kernel, device=device).output
            except Exception as error:
                failure = engine_failure(name, engine, error, what="clip")
                raise BlurFailed(f"{failure} (frame {index})") from None
            yield blurred
    finally:
        # Now, not when an error's traceback lets go of it: the clip may be closed next.
        decoded.close()


def blur_clip_to_file(
    clip: Clip,
    output: str | os.PathLike[str],
    spec: BlurSpec,
    engine: Engine,
    *,
    device: str = "auto",
    codec: str | None = None,
    progress: FrameProgress | None = None,
) -> int:
    """Blur every frame of `clip` and write them to `output` atomically (see
    blurapp.core.clip_saving.save_clip), with what made them (spec.description) inside where
    the format holds it; the number of frames written. Raises BlurFailed, ClipError for a clip
    cut short (nothing is written then), or OutputError naming the output."""
    # Three stages at once, each on its thread: decoding, blurring, encoding (here).
    blurred = read_ahead(blur_clip(clip, spec, engine, device=device), FRAMES_READ_AHEAD)

    def counted() -> Iterator[np.ndarray]:
        for done, frame in enumerate(blurred, 1):
            yield frame
            if progress is not None:
                progress(done, clip.info.frame_count)

    try:
        return save_clip(
            output, counted(), clip.info, codec=codec, description=spec.description(engine.name)
        )
    finally:
        # The threads stopped before the caller closes the clip they read.
        blurred.close()


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
