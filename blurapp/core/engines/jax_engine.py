"""The same manual convolution under jax.jit, on the accelerator when there is one: the
JAX-jit engine, its compiled programs and its calls (the runtime it shares with the other JAX
engines is jax_runtime; the calls they share, jax_calls).

jax is imported only inside these functions: importing blurapp.core, or asking
`blurapp --version`, must stay fast and must work where jax is broken.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

from blurapp.core.engines import host_link
from blurapp.core.engines.engine import (
    Blocks,
    Computation,
    Engine,
    Floors,
    Frames,
    LivePreview,
    Shown,
)
from blurapp.core.engines.jax_calls import (
    first_call_on_device,
    first_jax_copy,
    first_jax_empty_call,
    first_jax_gemm,
)
from blurapp.core.engines.jax_frames import blur_frames_on_device, overlapped_frames_on_device
from blurapp.core.engines.jax_program import blur as blur_program
from blurapp.core.engines.jax_program import blur_levels as levels_program
from blurapp.core.engines.jax_program import blur_on_accelerator, pass_values_on, rows_of_values
from blurapp.core.engines.jax_runtime import (
    compile_blur_program,
    describe_device,
    import_jax,
    jax_device,
    to_move,
)
from blurapp.core.engines.levels import pixels_or_levels
from blurapp.core.engines.on_device import kept_photo, sent_ahead, stop_previewing
from blurapp.core.engines.programs import GotProgram, compiled_programs
from blurapp.core.engines.runs import (
    BlurredFrames,
    Cancelled,
    Compilation,
    FirstCall,
    ProgramStages,
    Progress,
)
from blurapp.core.platforms import on_accelerator, platform_of, platform_traits
from blurapp.core.wording import QT_TRANSLATE_NOOP


class _PhotoBlurs:
    """JAX-jit's blurs of a photo, from the compiled-program cache (programs): one per image
    shape, kernel shape, number type and device, with the static arguments that follow from its
    platform; a new sigma reuses it."""

    FAMILY = "jax-jit"

    def get(
        self,
        shape: tuple[int, ...],
        kernel_shape: tuple[int, ...],
        device: Any = None,
        *,
        levels: Any = None,
    ) -> tuple[Callable[[Any, Any], Any], Compilation]:
        """The compiled blur for `device` (JAX's default device when None), and how it was
        obtained. It takes float32 pixels, or with `levels` (np.uint8, np.uint16) stored levels
        with a halo (jax_program.blur_levels), and hands back rows of values (height ×
        width·channels): see jax_program.blur."""
        compiled, how, _ = self.get_in_stages(shape, kernel_shape, device, levels=levels)
        assert how is not None  # a blur is always got one way or another
        return compiled, how

    def get_in_stages(
        self,
        shape: tuple[int, ...],
        kernel_shape: tuple[int, ...],
        device: Any = None,
        *,
        levels: Any = None,
        moved: np.dtype | None = None,
    ) -> GotProgram:
        """get(), with how long each stage of getting the program took (None: it was
        compiled already). `moved` (an accelerator's photo, see to_move): the photo of
        `shape` crosses as rows of values of that number type, float32 or stored levels, and
        the program is jax_program.blur_on_accelerator."""
        device = jax_device() if device is None else device
        program_shape: tuple[int, ...] = tuple(shape)
        if moved is not None:
            program: Callable[..., Any] = blur_on_accelerator
            program_shape, step = rows_of_values(shape)
            static: dict[str, Any] = {"step": step}
            dtype = np.dtype(moved)
        else:
            program = blur_program if levels is None else levels_program
            dtype = np.dtype(np.float32 if levels is None else levels)
            # Strips keep the data in a CPU's cache; an accelerator's loop does better in
            # passes as large as its platform runs at its best rate.
            static = {"in_strips": platform_traits(device).blurs_in_strips}
        static["pass_values"] = pass_values_on(platform_of(device))
        # The photo's own shape, not the program's: flattened into rows of values, a grey photo
        # and the same in colour would share one; nor a grey photo's 3 × 3 kernel and a colour
        # one's 3 separable taps.
        key = (
            self.FAMILY,
            program.__name__,
            tuple(shape),
            tuple(kernel_shape),
            dtype.str,
            *sorted(static.items()),
            device.platform,
            device.id,
        )

        def compile_program() -> tuple[Callable[[Any, Any], Any], Compilation, ProgramStages]:
            return compile_blur_program(
                program, program_shape, dtype, kernel_shape, device, **static
            )

        return compiled_programs.get(key, compile_program)

    def holds(self, shape: tuple[int, ...], kernel_shape: tuple[int, ...], device: Any) -> bool:
        """Whether the blur of a photo of `shape` with a kernel of `kernel_shape` on `device`
        is compiled already (a first call's get() is quick), whatever number type the photo
        crossed to the device in."""
        photo = (tuple(shape), tuple(kernel_shape))
        blurs = {blur_program.__name__, blur_on_accelerator.__name__}
        return compiled_programs.holds(
            lambda key: (
                key[0] == self.FAMILY
                and key[1] in blurs
                and key[2:4] == photo
                and key[-2:] == (device.platform, device.id)
            )
        )

    def held(self) -> int:
        """How many of JAX-jit's blurs of a photo are compiled."""
        return len(compiled_programs.keys(self.FAMILY))

    def clear(self) -> None:
        compiled_programs.clear(self.FAMILY)


compiled_blurs = _PhotoBlurs()


def program_ready(
    shape: tuple[int, ...], kernel_shape: tuple[int, ...], platform: str | None = None
) -> bool:
    """Whether JAX-jit's program for an image of `shape` and a kernel of `kernel_shape` on
    `platform` is compiled in this process, so a call would not compile (or load) it."""
    return compiled_blurs.holds(shape, kernel_shape, jax_device(platform))


def blur_jax(image: np.ndarray, kernel: np.ndarray, platform: str | None = None) -> np.ndarray:
    """Correlate `image` with `kernel` under jax.jit; edges padded by repeating border pixels.

    A k×k kernel gives the tutorial's 2-D convolution, a 1-D kernel the separable one.
    Subnormal values (below 1.2e-38) may come out as zero: XLA flushes them on the CPU. No
    photo holds them (the smallest step of a 16-bit photo is 1.5e-5).
    """
    jax = import_jax()
    image = np.asarray(image, dtype=np.float32)
    kernel = np.asarray(kernel, dtype=np.float32)
    device = jax_device(platform)
    moved = to_move(image, device)
    blur, _, _ = _photo_program(image.shape, kernel, device, moved)
    sent = host_link.send(jax, moved, device)
    output = blur(sent, jax.device_put(kernel, device))
    output = output[1] if isinstance(output, tuple) else output  # the floats of levels' pair
    # Its own: on the CPU, JAX may hand back its own read-only buffer.
    return host_link.fetch(jax, output, own=True).reshape(image.shape)


def _photo_program(
    shape: tuple[int, ...], kernel: np.ndarray, device: Any, moved: np.ndarray
) -> GotProgram:
    """The compiled blur of a photo of `shape` (or a band of one) on `device`, taking what
    `moved` holds (see to_move)."""
    return compiled_blurs.get_in_stages(
        shape, kernel.shape, device, moved=moved.dtype if on_accelerator(device) else None
    )


def blur_levels_jax(
    levels: np.ndarray, kernel: np.ndarray, *, platform: str | None = None
) -> np.ndarray:
    """JAX-jit's LevelsCall (blurapp.core.engines.engine): a block's stored levels, halo
    included, blurred into levels by one compiled program, so the host converts nothing and
    moves a quarter of the bytes float32 pixels take."""
    jax = import_jax()
    levels = np.ascontiguousarray(levels)
    kernel = np.asarray(kernel, dtype=np.float32)
    device = jax_device(platform)
    blur, _ = compiled_blurs.get(levels.shape, kernel.shape, device, levels=levels.dtype)
    output = blur(host_link.send(jax, levels, device), jax.device_put(kernel, device))
    radius = kernel.shape[0] // 2
    height, width, *channels = levels.shape
    # Its own: on the CPU, JAX may hand back its own read-only buffer.
    blurred = host_link.fetch(jax, output, own=True)
    return blurred.reshape(height - 2 * radius, width - 2 * radius, *channels)


def first_jax_call(
    image: np.ndarray,
    kernel: np.ndarray,
    *,
    platform: str | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    keep_photo: bool = False,
) -> FirstCall:
    """JAX-jit's first call (with compilation, or the program from the cache), with the copies
    to and from the device timed apart. Raises JaxUnavailableError.

    `cancelled()` is checked between the steps (a compiled call itself cannot be stopped);
    `progress` is not called: the compiled program runs every tap at once. `keep_photo` (a live
    preview's, preview_jax_call): a photo stays on the device for the next change (see
    on_device.kept_photo); without it, a photo kept there is let go, and the copy made each
    time, as a timed call makes it.
    """
    if not keep_photo:
        kept_photo.clear()
        # Only the display call takes a clip's frame as its levels (LivePreview.takes_levels):
        # a timed call blurs the values it is given, integers too, as every engine does.
        image = np.ascontiguousarray(image, dtype=np.float32)
    device = jax_device(platform)
    sent = sent_ahead.moved(image, device) if keep_photo else None
    moved = sent if sent is not None else to_move(pixels_or_levels(image), device)

    def get_program(shape: tuple[int, ...]) -> GotProgram:
        return _photo_program(shape, kernel, device, moved)

    return first_call_on_device(
        image,
        kernel,
        device,
        get_program,
        cancelled,
        keep_photo=keep_photo,
        moved=moved,
        in_bands=not keep_photo,
    )


preview_jax_call = functools.partial(first_jax_call, keep_photo=True)


def send_ahead(image: np.ndarray, platform: str | None = None) -> None:
    """JAX-jit's LivePreview.send_ahead: `image` copied to its device ahead of a live
    preview's call on it, kept until the call takes it (on_device.sent_ahead)."""
    jax = import_jax()
    device = jax_device(platform)
    image = pixels_or_levels(image)
    moved = to_move(image, device)
    if not on_accelerator(device) and np.may_share_memory(moved, image):
        # On the host's CPU JAX may take an aligned array itself as its copy, which would then
        # hold the frame for as long as the copy is kept: a frame sent ahead and never taken
        # must go with its array, so the copy kept is one of its own.
        moved = moved.copy()
    on_device = jax.block_until_ready(host_link.send(jax, moved, device))
    sent_ahead.keep(image, device, on_device, moved)


def blur_frames_jax(
    frames: np.ndarray, kernel: np.ndarray, *, platform: str | None = None
) -> BlurredFrames:
    """JAX-jit's FramesCall (blurapp.core.engines.engine): a batch of frames in one program
    with a frame axis, one copy each way (jax_frames). Raises JaxUnavailableError."""
    jax, device = import_jax(), jax_device(platform)
    words = describe_device(device)
    return blur_frames_on_device(jax, frames, kernel, device, words, as_rows=on_accelerator(device))


def overlapped_frames_jax(
    batches: Iterable[np.ndarray], kernel: np.ndarray, *, platform: str | None
) -> Iterator[np.ndarray] | None:
    """JAX-jit's FramesOverlapped (blurapp.core.engines.engine): on an accelerator, batches
    whose copies overlap the blur (jax_frames.overlapped_frames_on_device); None on a CPU, where
    a batch's copy is the host's own memory and there is nothing to overlap."""
    jax, device = import_jax(), jax_device(platform)
    if not on_accelerator(device):
        return None
    return overlapped_frames_on_device(jax, batches, kernel, device)


JAX_JIT = Engine(
    "jax",
    QT_TRANSLATE_NOOP("Engines", "JAX-jit"),
    first_jax_call,
    computation=Computation(uses_jax=True, compiles=True, program_ready=program_ready),
    blocks=Blocks(levels_call=blur_levels_jax),
    frames=Frames(blur_frames_jax, takes_levels=True, overlapped=overlapped_frames_jax),
    preview=LivePreview(
        preview_jax_call, stop=stop_previewing, send_ahead=send_ahead, takes_levels=True
    ),
    floors=Floors(copy=first_jax_copy, gemm=first_jax_gemm, empty_call=first_jax_empty_call),
    shown=Shown(colour="#55a868", first_call_colour="#dd8452", column="JAX"),
)
ENGINES = (JAX_JIT,)
