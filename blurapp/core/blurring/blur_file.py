"""One photo blurred with one engine into a file, as `blurapp blur` and every photo of a batch
do it, and the words for an engine that fails on it."""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable

import numpy as np

from blurapp.core.engines import Engine
from blurapp.core.engines.jax_runtime import JaxUnavailableError
from blurapp.core.engines.runs import Progress
from blurapp.core.media.photo import Photo
from blurapp.core.media.saving import save_output
from blurapp.core.spec import BlurSpec
from blurapp.core.wording import display_path

log = logging.getLogger(__name__)

# A blur into a file in stages, for its progress: (stage, done, total), the stage BLURRING (the
# engine's steps) or WRITING.
StagedProgress = Callable[[str, int, int], None]
BLURRING, WRITING = "blurring", "writing"


class BlurFailed(Exception):
    """An engine could not blur a photo; the message names the photo and says why."""


def blur_photo(
    photo: Photo,
    spec: BlurSpec,
    engine: Engine,
    *,
    device: str = "auto",
    progress: Progress | None = None,
) -> np.ndarray:
    """`photo`'s pixels blurred once by `engine` with `spec`'s kernel (no steady calls timed),
    `progress(done, total)` told of the engine's steps where it reports them. Raises BlurFailed
    in words: JAX that cannot start, too little memory, an engine's error."""
    try:
        run = engine.blur(photo.pixels, spec.kernel, repeats=0, device=device, progress=progress)
        return run.output
    except Exception as error:
        raise BlurFailed(engine_failure(photo.path, engine, error)) from None


def engine_failure(
    path: str | os.PathLike[str], engine: Engine, error: Exception, *, what: str = "photo"
) -> str:
    """What `engine` failing with `error` on the photo (or, `what`, the clip) at `path` is, in
    words: JAX that cannot start, too little memory, or the engine's own error."""
    if isinstance(error, JaxUnavailableError):
        return f"{display_path(path)}: {error}"
    if isinstance(error, MemoryError):
        return f"{display_path(path)}: not enough memory to blur this {what}"
    log.debug("the %s engine failed on %s", engine.name, path, exc_info=error)
    return f"{display_path(path)}: the {engine.title} engine failed: {error}"


def blur_to_file(
    photo: Photo,
    output: str | os.PathLike[str],
    spec: BlurSpec,
    engine: Engine,
    *,
    device: str = "auto",
    progress: StagedProgress | None = None,
) -> None:
    """Blur `photo` and write it to `output` atomically: at the photo's bit depth, with what made
    it (spec.description) inside; `progress` told as each stage begins and moves on. Raises
    BlurFailed, or OutputError naming the output."""
    said = progress or (lambda stage, done, total: None)
    said(BLURRING, 0, 1)  # an engine that compiles says nothing until it is done
    blurred = blur_photo(
        photo, spec, engine, device=device, progress=functools.partial(said, BLURRING)
    )
    said(WRITING, 0, 1)
    save_output(
        output, blurred, bit_depth=photo.bit_depth, description=spec.description(engine.name)
    )
    said(WRITING, 1, 1)
