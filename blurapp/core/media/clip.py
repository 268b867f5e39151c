"""A clip: frames that arrive one after another — a video, an animation, a stack of pages, a
camera. Every kind of clip is read through the one interface here, frame by frame as frames
are needed, so that a clip of any length costs the memory of a few frames.

Frames are what the engines blur, as a photo's pixels are: float32 in [0, 1], height × width
(grey) or height × width × 3 (red, green, blue) when the clip is opened in colour and has
colour. A clip whose frames are exactly its stored levels scaled (a level × 1/white, as
blurapp.core.media.pixels makes them) can also give those levels (Clip.levels): a quarter of the
bytes to make, batch and copy to an accelerator, which makes the floats there. The readers of
each kind of file live in blurapp.core.media.clip_files.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from blurapp.core.media.photo_checks import PhotoError

# A stack's pages or an animation that says nothing of its timing play at this rate.
DEFAULT_FRAMES_PER_SECOND = 10.0


class ClipError(PhotoError):
    """A clip BlurApp cannot read, or one that stopped being readable part way; the message names
    the file, the problem and, for a clip cut short, the frame where it stopped."""


@dataclass(frozen=True)
class ClipInfo:
    """What is known of a clip before its frames are read."""

    name: str  # the file's name, or the camera's, as people see it
    width: int
    height: int
    # The number of frames, when the clip says it; None for a camera or a stream that does not.
    frame_count: int | None
    frames_per_second: float
    # The frames have red, green and blue (a grey clip, or a clip opened in grey, has not).
    colour: bool
    bit_depth: int = 8  # 8 or 16: what the source held, so outputs can keep its precision
    path: Path | None = None  # None for a camera or frames made in memory
    # The frames are levels of bit_depth (a video's, a camera's, an 8- or 16-bit stack's), and
    # so is their grey (levels_white); False for floats of their own (a TIFF stack of floats,
    # frames given as floats) or levels of 2 or 4 bits.
    levels_of_depth: bool = True
    # frame_count is worked out (a video's duration × its rate), not the file's own: a clip of
    # variable rate may have many more frames or fewer, so nothing may be bounded by it.
    frame_count_estimated: bool = False

    @property
    def levels_type(self) -> np.dtype:
        """The number type of the levels its frames are stored in (Clip.levels): uint16 for a
        clip of bit_depth 16, else uint8."""
        return np.dtype(np.uint16 if self.bit_depth == 16 else np.uint8)

    @property
    def levels_white(self) -> int | None:
        """The white of its frames' levels (255, 65535) when they are levels of bit_depth, to
        which the grey of their colours is rounded as a photo's is
        (blurapp.core.media.pixels.luma); None when they are not (levels_of_depth)."""
        return int(np.iinfo(self.levels_type).max) if self.levels_of_depth else None

    @property
    def known_frame_count(self) -> int | None:
        """The frame count the clip declares; None when it says none or it is an estimate."""
        return None if self.frame_count_estimated else self.frame_count

    @property
    def seconds(self) -> float | None:
        """The clip's length in seconds, when its frame count is known."""
        if self.frame_count is None:
            return None
        return self.frame_count / self.frames_per_second

    @property
    def frame_shape(self) -> tuple[int, ...]:
        return (self.height, self.width, 3) if self.colour else (self.height, self.width)


class Clip:
    """Frames read one at a time; a context manager that closes its file.

    Subclasses give `info` and `_read(start)`, an iterator of frames from `start` on; they may
    give a quicker `frame(index)` when they can seek, and `_read_levels(start)` with
    `gives_levels` True when their frames are their stored levels scaled. Frames handed out are
    read-only.
    """

    info: ClipInfo
    # Whether `levels` gives the frames as their stored levels (see there).
    gives_levels: bool = False

    def frames(self, start: int = 0, stop: int | None = None) -> Iterator[np.ndarray]:
        """The frames from `start` up to `stop` (the end when None), decoded as they are asked
        for. A clip cut short yields what decodes, then raises ClipError saying where it
        stopped."""
        return self._each(self._read, start, stop)

    def levels(self, start: int = 0, stop: int | None = None) -> Iterator[np.ndarray]:
        """The frames from `start` up to `stop` as the levels they are stored in
        (info.levels_type: uint8, or uint16 for a clip of bit_depth 16), of the frames' shape;
        `frames` gives exactly each level × (1/white) in float32, white the type's largest
        value. Only for a clip that `gives_levels` (ValueError otherwise); a clip cut short
        stops as `frames` does."""
        if not self.gives_levels:
            raise ValueError(f"{self.info.name} gives its frames as floats only")
        return self._each(self._read_levels, start, stop)

    def _each(
        self, reader: Callable[[int], Iterator[np.ndarray]], start: int, stop: int | None
    ) -> Iterator[np.ndarray]:
        if start < 0:
            raise ValueError(f"a clip's frames start at 0, not {start}")
        index = start
        read = reader(start)
        # Checked before the next frame is asked for: a frame past `stop` is never decoded
        # (nor a cut-short file's problem past it raised).
        try:
            while stop is None or index < stop:
                frame = next(read, None)
                if frame is None:
                    return
                frame.flags.writeable = False
                yield frame
                index += 1
        finally:
            # A reader stopped early lets go of its decoder now, not when it is collected.
            close = getattr(read, "close", None)
            if close is not None:
                close()

    def frame(self, index: int) -> np.ndarray:
        """One frame, by its index from 0."""
        count = self.info.known_frame_count
        if index < 0 or (count is not None and index >= count):
            raise IndexError(f"{self.info.name} has no frame {index}")
        for frame in self.frames(index, index + 1):
            return frame
        raise IndexError(f"{self.info.name} has no frame {index}")

    def close(self) -> None:
        """Lets go of the file; the clip reads nothing after."""

    def _read(self, start: int) -> Iterator[np.ndarray]:
        raise NotImplementedError

    def _read_levels(self, start: int) -> Iterator[np.ndarray]:
        raise NotImplementedError

    def __enter__(self) -> Clip:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class FramesInMemory(Clip):
    """A clip of frames already in memory: an array of frames × height × width (× 3), floats in
    [0, 1]. For scripts and notebooks that make their frames, and for the tests."""

    def __init__(
        self,
        frames: np.ndarray,
        *,
        frames_per_second: float = DEFAULT_FRAMES_PER_SECOND,
        name: str = "frames",
    ) -> None:
        frames = np.asarray(frames)
        if frames.ndim not in (3, 4) or (frames.ndim == 4 and frames.shape[3] != 3):
            raise ValueError(
                "frames must be frames × height × width (grey) or frames × height × width × 3 "
                f"(red, green, blue), not an array of shape {frames.shape}"
            )
        if frames.shape[0] == 0:
            raise ValueError("a clip needs at least one frame")
        if not (math.isfinite(frames_per_second) and frames_per_second > 0):
            raise ValueError(f"frames per second must be positive, not {frames_per_second}")
        self._frames = np.asarray(frames, dtype=np.float32)
        self.info = ClipInfo(
            name=name,
            width=int(frames.shape[2]),
            height=int(frames.shape[1]),
            frame_count=int(frames.shape[0]),
            frames_per_second=float(frames_per_second),
            colour=frames.ndim == 4,
            levels_of_depth=False,
        )

    def frame(self, index: int) -> np.ndarray:
        if not 0 <= index < len(self._frames):
            raise IndexError(f"{self.info.name} has no frame {index}")
        frame = self._frames[index]
        frame.flags.writeable = False
        return frame

    def _read(self, start: int) -> Iterator[np.ndarray]:
        for index in range(start, len(self._frames)):
            yield self._frames[index].copy()
