"""A clip blurred frame by frame with one engine, as `blurapp blur CLIP -o OUT` does it: the
frames decoded, blurred and written one after another, so memory holds a few frames whatever
the clip's length."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import numpy as np

from blurapp.core.blur_file import BlurFailed, engine_failure
from blurapp.core.clip import Clip
from blurapp.core.clip_saving import save_clip
from blurapp.core.engines import Engine
from blurapp.core.spec import BlurSpec

# Called after each frame written: (frames done, frames in all when known).
FrameProgress = Callable[[int, int | None], None]


def blur_clip(
    clip: Clip,
    spec: BlurSpec,
    engine: Engine,
    *,
    device: str = "auto",
    progress: FrameProgress | None = None,
) -> Iterator[np.ndarray]:
    """`clip`'s frames, each blurred by `engine` with `spec`'s kernel, as they are decoded.
    The first frame pays the engine's first call (a compiled engine's compilation); the
    others reuse it. Raises BlurFailed naming the clip and the frame; a ClipError from a
    clip cut short after the frames that decoded."""
    kernel = spec.kernel
    total = clip.info.frame_count
    name = clip.info.path if clip.info.path is not None else clip.info.name
    for index, frame in enumerate(clip.frames()):
        try:
            blurred = engine.start(frame, kernel, device=device).output
        except Exception as error:
            raise BlurFailed(f"{engine_failure(name, engine, error)} (frame {index})") from None
        yield blurred
        if progress is not None:
            progress(index + 1, total)


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
    frames = blur_clip(clip, spec, engine, device=device, progress=progress)
    return save_clip(
        output, frames, clip.info, codec=codec, description=spec.description(engine.name)
    )
