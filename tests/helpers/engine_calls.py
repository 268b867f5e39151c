"""What the engines are handed, recorded as a test runs."""

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
