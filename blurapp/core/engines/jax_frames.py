"""JAX-jit on the frames of a clip: a batch of frames in one compiled program, the blur of
blurapp.core.engines.jax_program mapped over a leading frame axis, so a batch costs one copy to
the device, one call and one copy back.

jax is imported only inside these functions, as in the engine, and handed to them by the
engine (jax_engine, pallas_engine), which chooses the device.
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import Any, Protocol

import numpy as np

from blurapp.core.engines import host_link
from blurapp.core.engines.jax_program import blur as blur_program
from blurapp.core.engines.jax_program import (
    blur_on_accelerator,
    floats_to_levels,
    levels_to_floats,
    pass_values_on,
    rows_of_values,
)
from blurapp.core.engines.jax_runtime import compile_blur_program
from blurapp.core.engines.levels import levels_type
from blurapp.core.engines.programs import compiled_programs
from blurapp.core.engines.runs import BlurredFrames, Call, Compilation, ProgramStages
from blurapp.core.platforms import platform_of, platform_traits


class FramePrograms(Protocol):
    """Where an engine's programs for batches of frames are got (compiled once per batch
    shape, kernel shape and device): JAX-jit's compiled_frame_blurs, the Pallas kernel's
    pallas_engine.frame_kernels_for."""

    def get(
        self,
        jax: ModuleType,
        shape: tuple[int, ...],
        kernel_shape: tuple[int, ...],
        device: Any,
        *,
        as_rows: bool = False,
        dtype: np.dtype | None = None,
    ) -> tuple[Callable[[Any, Any], Any], Compilation]: ...


def one_frame_at_a_time(values: int, in_strips: bool, pass_values: int | None) -> bool:
    """Whether a batch of frames holding `values` values is blurred frame after frame inside
    its program (lax.map) rather than side by side (vmap): always on a CPU (`in_strips`), and
    on an accelerator where the batch is more than one pass holds (`pass_values`, None for no
    limit; jax_program.pass_values_on)."""
    return in_strips or (pass_values is not None and values > pass_values)


def frames_program(
    frames: Any,
    weights: Any,
    in_strips: bool = True,
    step: int = 0,
    pass_values: int | None = None,
) -> Any:
    """jax_program.blur on each frame of `frames` (frames × height × width [× 3]): frames ×
    rows of values, reshaped on the host as a single image's are.

    On a CPU (`in_strips`) the frames are blurred one after another inside the program
    (lax.map), each in its strips: mapped side by side (vmap), every tap of the batch streamed
    through memory at once, was slower a frame than one after another on a CPU
    (docs/performance.md, "What the code's settings rest on"). A GPU takes the whole batch
    side by side.

    `step` (an accelerator's): the frames come as frames × rows of values (height ×
    width·step), blurred by jax_program.blur_on_accelerator. An accelerator's frames go side
    by side where the batch's values fit in one of its passes (`pass_values`), else one after
    another (one_frame_at_a_time): on a TPU a pass over more values runs several times slower
    a value (blurapp.core.platforms.ACCELERATOR_PASS_VALUES says where).

    Frames of stored levels (uint8, uint16; Clip.levels) are made float32 here, as the host
    would, and blurred into levels of their type, rounded as saving rounds them: a quarter of
    the bytes cross each way, and the host makes no floats at all."""
    import jax
    import jax.numpy as jnp
    from jax import lax

    levels_type = frames.dtype if jnp.issubdtype(frames.dtype, jnp.integer) else None

    def blur_one(image: Any) -> Any:
        values = levels_to_floats(image, apart=True)
        if step:
            blurred = blur_on_accelerator(values, weights, step, pass_values)
        else:
            blurred = blur_program(values, weights, in_strips, pass_values)
        return blurred if levels_type is None else floats_to_levels(blurred, levels_type)

    if one_frame_at_a_time(frames.size, in_strips, pass_values):
        return lax.map(blur_one, frames)
    return jax.vmap(blur_one)(frames)


class _FrameBlurs:
    """JAX-jit's programs for batches of frames, from the compiled-program cache (programs):
    one per batch shape, number type, kernel shape and device; a new sigma reuses it."""

    FAMILY = "jax-jit frames"

    def get(
        self,
        jax: ModuleType,
        shape: tuple[int, ...],
        kernel_shape: tuple[int, ...],
        device: Any,
        *,
        as_rows: bool = False,
        dtype: np.dtype | None = None,
    ) -> tuple[Callable[[Any, Any], Any], Compilation]:
        """The program for a batch of `shape` of `dtype` (float32 when None, or stored
        levels) and a kernel of `kernel_shape` on `device`, and how it was got: compiled, or
        from JAX's persistent cache, as this compilation itself found it (compile_blur).
        `as_rows` (an accelerator's): the frames come as rows of values (see
        frames_program). A batch never crosses in words (host_link.WORDS): batches in flight
        in words crossed slower than as they are on a TPU (docs/performance/host_link.py,
        its engine section)."""
        dtype = np.dtype(np.float32 if dtype is None else dtype)
        # As for one image: strips keep the data in a CPU's cache; an accelerator takes
        # the frames as rows of values (jax_program.blur_on_accelerator).
        platform = platform_of(device)
        in_strips = not as_rows and platform_traits(platform).blurs_in_strips
        program_shape, step = tuple(shape), 0
        if as_rows:
            rows, step = rows_of_values(shape[1:])
            program_shape = (shape[0], *rows)
        static: dict[str, Any] = {
            "in_strips": in_strips,
            "step": step,
            "pass_values": pass_values_on(platform),
        }
        key = (
            self.FAMILY,
            tuple(shape),
            dtype.name,
            tuple(kernel_shape),
            *static.items(),
            str(device.platform),
            int(device.id),
        )

        def compile_program() -> tuple[Callable[[Any, Any], Any], Compilation, ProgramStages]:
            return compile_blur_program(
                frames_program, program_shape, dtype, kernel_shape, device, **static
            )

        compiled, how, _ = compiled_programs.get(key, compile_program)
        assert how is not None  # a program is always got one way or another
        return compiled, how

    def held(self) -> int:
        """How many programs are compiled (one per batch shape, kernel shape and device)."""
        return len(compiled_programs.keys(self.FAMILY))

    def clear(self) -> None:
        compiled_programs.clear(self.FAMILY)


compiled_frame_blurs = _FrameBlurs()


def _to_send(frames: np.ndarray) -> np.ndarray:
    """`frames` as they cross to a device: contiguous, stored levels as they are, else float32."""
    return np.ascontiguousarray(frames, dtype=levels_type(frames) or np.float32)


def blur_frames_on_device(
    jax: ModuleType,
    frames: np.ndarray,
    kernel: np.ndarray,
    device: Any,
    device_words: str,
    *,
    as_rows: bool = False,
    programs: FramePrograms | None = None,
) -> BlurredFrames:
    """`frames` copied to `device` in one copy (as host_link moves a picture: in pieces on an
    accelerator), blurred by one compiled program (compiled on the first batch of its shape),
    the outputs copied back in one; each step timed, the call's seconds with the program's
    getting. `device_words` names the device in the answer. Frames of stored levels give
    levels of their type (see frames_program), others float32. `programs`: where the program
    comes from (None: JAX-jit's, compiled_frame_blurs)."""
    programs = compiled_frame_blurs if programs is None else programs
    frames = _to_send(frames)
    weights = jax.device_put(np.ascontiguousarray(kernel, dtype=np.float32), device)
    # An accelerator's frames cross as rows of values (see jax_program.blur_on_accelerator).
    moved = frames.reshape(*frames.shape[:2], -1) if as_rows else frames
    # The programs that join and cut the batch's pieces (host_link) compiled untimed: the
    # copies are timed as copies.
    host_link.prepare_send(jax, moved.shape, moved.dtype, device)
    start = time.perf_counter()
    on_device = jax.block_until_ready(host_link.send(jax, moved, device))
    to_seconds = time.perf_counter() - start
    start = time.perf_counter()
    program, compilation = programs.get(
        jax, frames.shape, weights.shape, device, as_rows=as_rows, dtype=frames.dtype
    )
    blurred = jax.block_until_ready(program(on_device, weights))
    seconds = time.perf_counter() - start
    host_link.prepare_fetch_of(jax, blurred)
    start = time.perf_counter()
    # Read-only on the CPU (JAX's own buffer, kept alive by the array): only ever read.
    output = np.asarray(host_link.fetch(jax, blurred), dtype=frames.dtype).reshape(frames.shape)
    from_seconds = time.perf_counter() - start
    call = Call(seconds, to_seconds, from_seconds)
    return BlurredFrames(output, call, device_words, compilation)


# Batches in flight at once when their copies overlap the blur: one copying to the device, one
# blurring, one copying back. More holds more of the device's memory and gains nothing.
BATCHES_IN_FLIGHT = 3


def overlapped_frames_on_device(
    jax: ModuleType,
    batches: Iterable[np.ndarray],
    kernel: np.ndarray,
    device: Any,
    programs: FramePrograms | None = None,
) -> Iterator[np.ndarray]:
    """Each of `batches` blurred on the accelerator `device` as blur_frames_on_device blurs it
    (as rows of values, levels into levels), their outputs in order; but each batch's copy to
    the device, blur and copy back are started before the batches before it are waited for,
    BATCHES_IN_FLIGHT at most, so the copies overlap the blur and the host's reading. Nothing
    is timed apart: the pass is timed whole. `programs` as for blur_frames_on_device."""
    programs = compiled_frame_blurs if programs is None else programs
    weights = jax.device_put(np.ascontiguousarray(kernel, dtype=np.float32), device)
    in_flight: collections.deque[tuple[host_link.Fetching, tuple[int, ...], np.dtype]] = (
        collections.deque()
    )

    def waited(fetching: host_link.Fetching, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        return np.asarray(fetching.array(), dtype=dtype).reshape(shape)

    for batch in batches:
        batch = _to_send(batch)
        program, _ = programs.get(
            jax, batch.shape, weights.shape, device, as_rows=True, dtype=batch.dtype
        )
        # The host's batch stays referenced until its copy is done: JAX keeps it while it reads.
        rows = batch.reshape(*batch.shape[:2], -1)
        # Whole, not in pieces nor words: in flight with each other, batches crossed quicker
        # as they are on a TPU, where pieces add programs that join and cut them (the probe's
        # engine section, docs/performance/host_link.py; figures on the performance page).
        sent = host_link.send(jax, rows, device, pieces=0)
        blurred = program(sent, weights)
        fetching = host_link.start_fetch(jax, blurred, pieces=0)
        in_flight.append((fetching, batch.shape, batch.dtype))
        if len(in_flight) >= BATCHES_IN_FLIGHT:
            yield waited(*in_flight.popleft())
    while in_flight:
        yield waited(*in_flight.popleft())
