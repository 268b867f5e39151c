"""Calls on the engines by name, and what they are handed, recorded as a test runs."""

import numpy as np


def batch_types(monkeypatch):
    """The number types of the batches every engine is handed (Engine.blur_frames) from now
    until the test ends, in order: a list that fills as they are blurred."""
    from blurapp.core.engines.engine import Engine

    seen = []
    blur_frames = Engine.blur_frames

    def recording(self, frames, kernel, **options):
        seen.append(np.asarray(frames).dtype)
        return blur_frames(self, frames, kernel, **options)

    monkeypatch.setattr(Engine, "blur_frames", recording)
    return seen


def first_output(engine, image, kernel):
    """`engine`'s blur of `image` by `kernel`: its first call's output, no steady call timed
    after it."""
    from blurapp.core import get_engine

    return get_engine(engine).blur(image, kernel, repeats=0).output
