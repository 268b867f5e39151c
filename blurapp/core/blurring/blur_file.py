"""One photo blurred with one engine into a file, as `blurapp blur` and every photo of a batch
do it, and the words for an engine that fails on it."""

from __future__ import annotations

import logging
import os

import numpy as np

from blurapp.core.engines import Engine
from blurapp.core.engines.jax_engine import JaxUnavailableError
from blurapp.core.media.photo import Photo
from blurapp.core.media.saving import save_output
from blurapp.core.spec import BlurSpec
from blurapp.core.wording import display_path

log = logging.getLogger(__name__)


class BlurFailed(Exception):
    """An engine could not blur a photo; the message names the photo and says why."""


def blur_photo(photo: Photo, spec: BlurSpec, engine: Engine, *, device: str = "auto") -> np.ndarray:
    """`photo`'s pixels blurred once by `engine` with `spec`'s kernel (no steady calls timed).
    Raises BlurFailed in words: JAX that cannot start, too little memory, an engine's error."""
    try:
        return engine.blur(photo.pixels, spec.kernel, repeats=0, device=device).output
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
) -> None:
    """Blur `photo` and write it to `output` atomically: at the photo's bit depth, with what made
    it (spec.description) inside. Raises BlurFailed, or OutputError naming the output."""
    blurred = blur_photo(photo, spec, engine, device=device)
    save_output(
        output, blurred, bit_depth=photo.bit_depth, description=spec.description(engine.name)
    )
