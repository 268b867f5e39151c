"""The Pallas kernel on a clip's frames (its FramesCall): a batch of frames in one kernel call,
each frame equal to the independent oracle (scipy's edge-padded correlation) and to JAX-jit's
frames; stored levels in, levels of their type out; and the clip commands with Pallas among
their engines. Compiled by Mosaic where the default device is a TPU, in Pallas's interpret
mode anywhere else (tiny frames here: the interpreter is slow)."""

import json

import jax
import numpy as np
import pytest
from helpers.blur_inputs import random_image, weights
from helpers.clip_files import random_levels, video_file
from helpers.command_line import blurapp_in_process
from helpers.oracle import blur_oracle

from blurapp.core import TOLERANCE, gaussian_kernel
from blurapp.core.engines import pallas_program
from blurapp.core.engines.jax_engine import JAX_JIT
from blurapp.core.engines.pallas_engine import (
    INTERPRET_WORDS,
    JAX_PALLAS,
    compiled_kernels,
    program_ready,
    runs_natively,
)
from blurapp.core.engines.runs import Compilation
from blurapp.core.media.clip_files import open_clip_file

# Run where the accelerator is: `pytest -m accelerator` (docs/contributing.md).
pytestmark = pytest.mark.accelerator

NATIVE = runs_natively(jax.devices()[0])


def oracle_frames(frames, kernel):
    return np.stack([blur_oracle(frame, kernel) for frame in frames])


@pytest.mark.parametrize("algorithm", ["2d", "separable"])
@pytest.mark.parametrize(
    ("shape", "size"),
    [
        ((3, 11, 19), 5),  # grey
        ((2, 11, 19, 3), 5),  # colour: each frame a plane of the grid, its channels side by side
        ((2, 1, 40), 3),  # frames a row high
        ((2, 40, 1, 3), 3),  # frames a column wide, in colour
        ((2, 5, 3), 9),  # a kernel larger than the frame
    ],
)
def test_every_frame_of_a_batch_is_the_oracle(shape, size, algorithm):
    frames = random_image(shape, seed=sum(shape) + size)
    kernel = weights(size, algorithm)
    blurred = JAX_PALLAS.blur_frames(frames, kernel)
    assert blurred.output.shape == frames.shape and blurred.output.dtype == np.float32
    expected = oracle_frames(frames, kernel)
    np.testing.assert_allclose(blurred.output, expected, rtol=0, atol=TOLERANCE)
    assert (INTERPRET_WORDS in blurred.device) is not NATIVE


@pytest.mark.parametrize("shape", [(3, 20, 33), (2, 20, 33, 3)])
def test_frames_through_pallas_are_frames_through_jax_jit(shape):
    frames = random_image(shape, seed=7)
    kernel = gaussian_kernel(9, 2.0)
    pallas = JAX_PALLAS.blur_frames(frames, kernel).output
    jit = JAX_JIT.blur_frames(frames, kernel).output
    np.testing.assert_allclose(pallas, jit, rtol=0, atol=1e-5)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
@pytest.mark.parametrize("colour", [False, True])
def test_stored_levels_in_give_levels_of_their_type_out(dtype, colour):
    levels = random_levels(2, size=(21, 13), colour=colour, dtype=dtype, seed=3)
    kernel = weights(5, "separable")
    assert (
        JAX_PALLAS.frames is not None and JAX_PALLAS.frames.takes_levels
    )  # made floats on the device, not on the host
    blurred = JAX_PALLAS.blur_frames(levels, kernel)
    assert blurred.output.dtype == dtype and blurred.output.shape == levels.shape
    white = np.iinfo(dtype).max
    expected = np.rint(np.clip(oracle_frames(levels / white, kernel), 0, 1) * white)
    # The nearest level, but for a sum that falls within float32's rounding of a half.
    assert np.abs(blurred.output.astype(np.int64) - expected).max() <= 1
    jit = JAX_JIT.blur_frames(levels, kernel).output
    assert np.abs(blurred.output.astype(np.int64) - jit).max() <= 1
    assert np.mean(blurred.output == jit) > 0.99


def test_a_batch_compiles_once_per_shape_and_is_not_a_photo_of_its_shape():
    frames = random_image((5, 3, 3), seed=4)  # as a colour photo 5 × 3 would be
    compiled_kernels.clear()
    first = JAX_PALLAS.blur_frames(frames, gaussian_kernel(3, 0.8))
    assert first.compilation in (Compilation.COMPILED, Compilation.FROM_CACHE)
    again = JAX_PALLAS.blur_frames(frames, gaussian_kernel(3, 1.2))  # a new sigma
    assert again.compilation is Compilation.REUSED
    # The photo's kernel is another program: a photo of that shape would compile.
    assert not program_ready(frames.shape, (3, 3))


def test_the_frames_kernel_lowers_for_a_tpu_on_any_machine():
    """A batch of four 1080p colour frames of 8-bit levels, as a clip's cross to the chip."""
    jitted = jax.jit(pallas_program.blur_frames, static_argnames=("step", "interpret"))
    frames = jax.ShapeDtypeStruct((4, 1080, 1920 * 3), np.uint8)
    kernel = jax.ShapeDtypeStruct((9, 9), np.float32)
    lowered = jitted.trace(frames, kernel, step=3).lower(lowering_platforms=("tpu",))
    assert "tpu_custom_call" in lowered.as_text()


@pytest.fixture
def clip(tmp_path):
    return video_file(tmp_path / "waves.mkv", random_levels(4, size=(24, 16)), rate=30)


def test_compare_clip_times_pallas_beside_numpy_and_jax_jit(clip):
    run = blurapp_in_process(
        "compare", clip, "--engines", "numpy,jax,pallas", "--frames", "2", "--repeat", "1", "--json"
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    pallas = data["pallas"]
    assert pallas["error"] is None and pallas["frames_per_second"] > 0
    # Interpreted (no TPU here), Pallas blurs batches of one, no size measured: each would be
    # compiled and interpreted in turn; on a TPU the sizes that fit are measured.
    assert set(pallas["batch_sizes_tried"]) == ({"1", "2"} if NATIVE else set())
    assert pallas["max_abs_diff"] <= TOLERANCE
    assert (INTERPRET_WORDS in pallas["device"]) is not NATIVE


def test_blur_clip_with_pallas_writes_every_frame_as_the_oracle_to_the_level(clip, tmp_path):
    out = tmp_path / "out.mkv"
    run = blurapp_in_process("blur", clip, "-o", out, "--engine", "pallas", "--sigma", "1.5")
    assert run.returncode == 0, run.stderr
    with open_clip_file(clip) as source, open_clip_file(out) as blurred:
        originals, frames = np.stack(list(source.frames())), np.stack(list(blurred.frames()))
    kernel = gaussian_kernel(9, 1.5)
    for original, frame in zip(originals, frames, strict=True):
        assert np.abs(frame - blur_oracle(original, kernel)).max() <= 0.5 / 255 + 1e-5
