"""Made-up photos and engine runs for the window's session, played through it as the window's
jobs report them: the session's tests need no engine, no thread and no Qt."""

import dataclasses
from pathlib import Path

import numpy as np

from blurapp.app.captions import RIGHT
from blurapp.app.session import Session
from blurapp.core.engines.runs import Compilation, EngineRun
from blurapp.core.measuring.comparison import ComparisonResult
from blurapp.core.media.photo import Photo


def photo(name="street.png", shape=(4, 6)):
    return Photo(path=Path(f"/photos/{name}"), pixels=np.zeros(shape, np.float32), bit_depth=8)


def session_with_photo():
    """A session with a grey photo 6 × 4 open, nothing run yet."""
    session = Session()
    session.set_photo(photo(), original="the photo")
    return session


def numpy_run(seconds=0.025):
    return EngineRun(output=np.zeros((4, 6), np.float32), repeat_seconds=(seconds,))


def jax_run(compilation=Compilation.COMPILED):
    return EngineRun(
        output=np.full((4, 6), 1e-7, np.float32),
        repeat_seconds=(0.0002, 0.0003, 0.0002),
        device="cpu",
        first_call_seconds=0.366,
        compilation=compilation,
        to_device_seconds=0.001,
        from_device_seconds=0.001,
    )


def finish(session, runs, errors=(), *, live=False):
    """Play a run (or, `live`, a live preview) through the session as the worker reports it."""
    plan = session.start_live_preview() if live else session.start_run()
    for engine, run in runs.items():
        session.engine_done(engine, run, None, picture=f"picture of {engine}")
    for engine, error in dict(errors).items():
        session.engine_done(engine, None, error)
    result = ComparisonResult(
        kernel=np.ones((plan.parameters.size,) * 2, np.float32),
        sigma=plan.parameters.sigma,
        algorithm=plan.parameters.algorithm,
        runs=runs,
        errors=dict(errors),
    )
    session.run_done(result, {e: (f"difference of {e}", 1e-7) for e in result.differences})
    return result


def longest_run_caption():
    """The JAX pane's caption after a Run, the longest a run usually gives: on a TPU, a colour
    photo blurred in grey, after a live preview that loaded JAX-jit's program from the
    compilation cache."""
    session = Session()
    session.set_photo(photo(shape=(4, 6, 3)), original="the photo")

    def on_the_chip(run, first_call):
        return dataclasses.replace(run, device="tpu: TPU v5 lite", first_call_seconds=first_call)

    finish(session, {"jax": on_the_chip(jax_run(Compilation.FROM_CACHE), 1.234)}, live=True)
    finish(session, {"numpy": numpy_run(), "jax": on_the_chip(jax_run(Compilation.REUSED), 7e-4)})
    return session.captions.caption(RIGHT)
