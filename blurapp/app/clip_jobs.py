"""The window's jobs for clips, as plain generator functions like blurapp.app.jobs': open a
clip file, and read the frame a clip is paused on as a photo, so that everything a photo has
(the live preview, split view, the pixel readout, Run) works on it.

The clip readers (blurapp.core.media.clip_files) say what opens as a clip, from a file's header.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from blurapp.app.jobs import LoadedPhoto, ignore, never
from blurapp.app.pyramid import build_pyramid
from blurapp.app.running import Report
from blurapp.core.engines.levels import floats_as_levels
from blurapp.core.engines.runs import Cancelled
from blurapp.core.measuring.clip_comparison import compare_engines_on_clip
from blurapp.core.media import clip_files
from blurapp.core.media.clip import Clip, ClipInfo
from blurapp.core.media.photo import Photo
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.media.pixels import luma, samples_to_float
from blurapp.core.media.saving import to_8bit
from blurapp.core.spec import BlurSpec
from blurapp.core.wording import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from blurapp.core.measuring.clip_comparison import ClipComparisonResult

# Video files, which File ▸ Open offers beside photos. Whether a file opens as a clip is the clip
# readers' word (clip_files.is_clip, from its header): a video, or a stack or an animation.
VIDEO_SUFFIXES = frozenset({".mp4", ".m4v", ".mov", ".mkv", ".webm", ".avi"})


def opens_as_clip(path: Path) -> bool:
    """Whether `path` opens as a clip rather than a photo: a video file, or a file the clip
    readers take for a sequence (a multi-page TIFF whose pages share a size, an animated GIF,
    WebP or PNG)."""
    return clip_files.is_clip(path)


def open_clip_job(
    path: Path, *, cancelled: Cancelled = never, report: Report = ignore
) -> Generator[None, None, Clip]:
    """Open the clip at `path` in colour (as photos open: the Colour switch says what is
    blurred). Fails with a PhotoError (a ClipError) naming the file."""
    yield None
    try:
        clip = clip_files.open_clip_file(path, color=True)
    except PhotoError:
        raise
    except Exception as error:
        unexpected = PhotoError(
            path, QT_TRANSLATE_NOOP("FileProblem", "unexpected error: {reason}"), reason=error
        )
        raise unexpected from error
    return clip


def frame_photo(info: ClipInfo, frame: np.ndarray) -> Photo:
    """A clip's frame as a photo named after the clip, its grey levels where its frames are
    (ClipInfo.levels_white)."""
    white = info.levels_white
    gray = luma(frame, white) if frame.ndim == 3 and white is not None else None
    return Photo(info.path or Path(info.name), frame, info.bit_depth, loaded_gray=gray)


def frame_job(
    read: Callable[[int], np.ndarray],
    info: ClipInfo,
    index: int,
    *,
    cancelled: Cancelled = never,
    report: Report = ignore,
) -> Generator[None, None, LoadedPhoto]:
    """Frame `index` of a clip (read by `read`) as a photo, with its pictures."""
    frame = read(index)
    yield None
    photo = frame_photo(info, frame)
    grey = build_pyramid(to_8bit(photo.gray)) if photo.channels > 1 else None
    return LoadedPhoto(photo, build_pyramid(to_8bit(photo.pixels)), grey_picture=grey)


def frame_to_blur(frame: np.ndarray, *, color: bool, white: int | None = None) -> np.ndarray:
    """What the engines blur of `frame`: its colours when `color` and it has them, else grey;
    `white`: the clip's ClipInfo.levels_white."""
    return luma(frame, white) if frame.ndim == 3 and not color else frame


def levels_to_blur(levels: np.ndarray, *, color: bool) -> np.ndarray:
    """frame_to_blur of a frame given as its stored levels (Clip.levels): its levels when
    `color` or it is grey, else the grey of its colours as levels of the same type (the same
    numbers as frame_to_blur of its frame, made levels)."""
    if levels.ndim == 2 or color:
        return levels
    # The grey of the levels themselves, as a photo's is made, with no float copy of the colours.
    white = float(np.iinfo(levels.dtype).max)
    grey = samples_to_float(levels, white=white, colour=True)
    return floats_as_levels(grey, levels.dtype)


class FramesToBlur(Clip):
    """`clip`'s frames as the engines blur them: its colours when `color`, else their grey."""

    def __init__(self, clip: Clip, *, color: bool) -> None:
        self._clip, self._color = clip, color
        info = clip.info
        self.info = dataclasses.replace(info, colour=info.colour and color)
        # A colour clip's frames made grey are levels of the same depth where its own are.
        self.gives_levels = clip.gives_levels
        self._white = info.levels_white

    def _read(self, start: int) -> Iterator[np.ndarray]:
        for frame in self._clip.frames(start):
            yield frame_to_blur(frame, color=self._color, white=self._white)

    def _read_levels(self, start: int) -> Iterator[np.ndarray]:
        for levels in self._clip.levels(start):
            yield levels_to_blur(levels, color=self._color)


@dataclass(frozen=True)
class ClipStage:
    """How far a Run on a clip is: `stage` ("batch size", "frames", "timing"), `done` of
    `total` (see blurapp.core.measuring.clip_comparison.compare_engines_on_clip)."""

    stage: str
    done: int
    total: int


# A Run on a clip times this many frames from the frame it is paused on.
RUN_FRAMES = 48


def compare_clip_job(
    clip: Clip,
    spec: BlurSpec,
    engines: tuple[str, ...],
    start: int,
    *,
    device: str = "auto",
    cancelled: Cancelled = never,
    report: Report = ignore,
) -> Generator[None, None, ClipComparisonResult]:
    """Run on a clip: RUN_FRAMES frames from `start` through `engines`, timed as
    compare_engines_on_clip times them, read by a reader of its own (the window's reads the
    frames shown). A clip that is not a file's (a camera's, frames made in memory) is read
    itself, as it is paused."""
    yield None
    path = clip.info.path
    own = clip_files.open_clip_file(path, color=spec.color) if path else None
    try:
        frames = FramesToBlur(own if own is not None else clip, color=spec.color)
        return compare_engines_on_clip(
            frames,
            spec,
            engines=engines,
            frames=RUN_FRAMES,
            start=start,
            device=device,
            cancelled=cancelled,
            progress=lambda stage, done, total: report(ClipStage(stage, done, total)),
        )
    finally:
        if own is not None:
            own.close()
