"""The same manual convolution as a hand-written Pallas kernel for a TPU (pallas_program),
timed as JAX-jit is: the third way to the same blur, beside NumPy's and XLA's.

On a TPU, Mosaic compiles the kernel for the chip. On any other device (a CPU, a GPU) Pallas's
interpreter runs it instead, as a program XLA compiles for that device: the same kernel, its
tiles and rotations, so its output can be checked anywhere, but its times say nothing of the
kernel on a chip. Its device words then say so ("cpu (Pallas interpret mode)"), in the
captions, the figures and `compare --json`; and it is never one of the default engines, so a
CPU machine times it only when asked (`--engines numpy,jax,pallas`). The window offers it
everywhere, as the command line does, unticked at first; where it would be interpreted its
check box says so ("JAX Pallas (interpreted)"), as its device words do: a user who finds no
check box cannot tell whether the engine exists, and one who ticks it should know that its
times are not the chip's.

jax is imported only inside these functions, as in the other JAX engines.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import Any

import numpy as np

from blurapp.core.engines import host_link, pallas_program
from blurapp.core.engines.engine import Caveat, Computation, Engine, Floors, Frames, Shown
from blurapp.core.engines.jax_calls import (
    first_call_on_device,
    first_jax_copy,
    first_jax_empty_call,
)
from blurapp.core.engines.jax_frames import blur_frames_on_device, overlapped_frames_on_device
from blurapp.core.engines.jax_program import rows_of_values
from blurapp.core.engines.jax_runtime import (
    compile_blur_program,
    default_device_opened,
    describe_device,
    import_jax,
    jax_device,
    to_move,
)
from blurapp.core.engines.pallas_program import blur as blur_program
from blurapp.core.engines.pallas_program import blur_frames as blur_frames_program
from blurapp.core.engines.pallas_program import blur_rows, variant_for
from blurapp.core.engines.programs import GotProgram, compiled_programs
from blurapp.core.engines.runs import (
    BlurredFrames,
    Cancelled,
    Compilation,
    FirstCall,
    ProgramStages,
    Progress,
)
from blurapp.core.platforms import on_accelerator, platform_jax_opens, platform_traits
from blurapp.core.wording import QT_TRANSLATE_NOOP

INTERPRET_WORDS = "Pallas interpret mode"


def runs_natively(device: Any) -> bool:
    """Whether the kernel is compiled for `device` (a TPU: Platform.compiles_pallas), not
    interpreted."""
    return platform_traits(device).compiles_pallas


def compiled_here() -> bool:
    """Whether JAX's default device here is a TPU, for which Mosaic compiles the kernel
    (elsewhere Pallas interprets it): the device JAX opened, once it has; before, told from
    what is installed and JAX_PLATFORMS, without importing JAX or starting the device."""
    opened = default_device_opened()
    if opened is not None:
        return runs_natively(opened)
    platform = platform_jax_opens()
    return platform is not None and platform.compiles_pallas


INTERPRETED = Caveat(
    QT_TRANSLATE_NOOP("Engines", "interpreted"),
    QT_TRANSLATE_NOOP(
        "Engines",
        "No TPU here: Pallas's interpreter runs the kernel as a program for this machine's"
        " processor, with the same result, but its times say nothing of the kernel on a chip.",
    ),
)


def caveat_here() -> Caveat | None:
    """What the window says of JAX Pallas on this machine: that it is interpreted, unless a
    TPU compiles it."""
    return None if compiled_here() else INTERPRETED


def pallas_device_words(device: Any) -> str:
    """`device` in a user's words, saying when the kernel is interpreted there: 'tpu: TPU v5
    lite', 'cpu (Pallas interpret mode)'."""
    words = describe_device(device)
    return words if runs_natively(device) else f"{words} ({INTERPRET_WORDS})"


class CompiledKernels:
    """The Pallas kernel's programs, from the compiled-program cache (programs): one per image
    shape, kernel shape, device and variant (pallas_program.VARIANTS), and what crosses; a new
    sigma reuses it (the weights are the program's input)."""

    FAMILY = "pallas"

    def get_in_stages(
        self,
        shape: tuple[int, ...],
        kernel_shape: tuple[int, ...],
        device: Any,
        *,
        variant: str | None = None,
        moved: np.dtype | None = None,
        frames: bool = False,
        in_words: bool = True,
    ) -> GotProgram:
        """The compiled kernel for `device`, how it was got, and its stages (None when it
        was compiled already). `variant`: as pallas_program.variant_for chooses it for the
        kernel's weights (None: the default). `moved`: the image crosses as rows of values
        of that number type (an accelerator's, jax_runtime.to_move), and the program is
        blur_rows. `frames`: `shape` is a batch of frames (frames × height × width
        [× channels]), crossing as frames × rows of values of `moved` (float32 when None),
        and the program is pallas_program.blur_frames."""
        moved_type = None if moved is None else np.dtype(moved).str
        interpret = not runs_natively(device)
        variant = pallas_program.DEFAULT_VARIANT if variant is None else variant
        static: dict[str, Any] = {"variant": variant, "interpret": interpret}
        image_shape, image_type = tuple(shape), np.dtype(np.float32 if moved is None else moved)
        program: Callable[..., Any]
        if frames:
            program = blur_frames_program
            rows, static["step"] = rows_of_values(tuple(shape[1:]))
            image_shape = (shape[0], *rows)
        elif moved is not None:
            program = blur_rows
            image_shape, static["step"] = rows_of_values(shape)
        else:
            program = blur_program
        # A photo's levels cross in words where the device's link takes them, unless asked not
        # to (a band); a clip's frames never do (in flight with each other, they crossed
        # quicker as they are).
        words = _photo_words(shape, moved_type, device) if in_words and not frames else None
        # (the key's last parts: the number type that crosses as rows of values, or None for
        # the image as it is; the words it crosses in, if any; whether it is a batch of frames)
        key = (
            self.FAMILY,
            tuple(shape),
            tuple(kernel_shape),
            device.platform,
            device.id,
            variant,
            interpret,
            moved_type,
            words,
            frames,
        )

        def compile_program() -> tuple[Callable[[Any, Any], Any], Compilation, ProgramStages]:
            return compile_blur_program(
                program, image_shape, image_type, kernel_shape, device, words, **static
            )

        return compiled_programs.get(key, compile_program)

    def holds(self, shape: tuple[int, ...], kernel_shape: tuple[int, ...], device: Any) -> bool:
        """Whether the kernel for these shapes on `device`, the default variant, is compiled,
        whatever number type the image crossed in: the variant of the app's kernels, which
        are Gaussians, rank one (pallas_program.variant_for). A program that took the photo's
        levels as they are does not count where a photo of that type crosses in words (it was
        a band's: get_in_stages, in_words)."""
        wanted = (tuple(shape), tuple(kernel_shape), device.platform, device.id)
        return compiled_programs.holds(
            lambda key: (
                key[0] == self.FAMILY
                and key[1:5] == wanted
                and key[5] == pallas_program.DEFAULT_VARIANT
                and key[8] == _photo_words(shape, key[7], device)
                and not key[-1]
            )
        )

    def held_keys(self) -> list[Any]:
        """The keys of the kernels compiled so far, oldest first."""
        return compiled_programs.keys(self.FAMILY)

    def clear(self) -> None:
        compiled_programs.clear(self.FAMILY)


compiled_kernels = CompiledKernels()


def _photo_words(shape: tuple[int, ...], moved: Any, device: Any) -> tuple[int, ...] | None:
    """The words a photo of `shape` takes to `device` crossing as rows of values of the number
    type `moved` (a dtype's string, as a compiled kernel's key holds it), where its link takes
    them (host_link.words_for); None where it crosses as it is."""
    if moved is None:
        return None
    return host_link.words_for(rows_of_values(tuple(shape))[0], np.dtype(moved), device)


class _CompiledFrameKernels:
    """The kernel for batches of frames (jax_frames.FramePrograms) in `variant`, from
    compiled_kernels: frames always cross as rows of values, on a CPU as on a TPU (a view on
    the host), never in words (see jax_frames)."""

    def __init__(self, variant: str):
        self.variant = variant

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
        program, how, _ = compiled_kernels.get_in_stages(
            shape, kernel_shape, device, variant=self.variant, moved=dtype, frames=True
        )
        assert how is not None  # a kernel is always got one way or another
        return program, how


def frame_kernels_for(kernel: np.ndarray) -> _CompiledFrameKernels:
    """The kernels for batches of frames blurred with `kernel`, in its variant."""
    return _CompiledFrameKernels(variant_for(kernel))


def program_ready(
    shape: tuple[int, ...], kernel_shape: tuple[int, ...], platform: str | None = None
) -> bool:
    """Whether the kernel for an image of `shape` and a kernel of `kernel_shape` on `platform`
    is compiled in this process, so a call would not compile (or load) it."""
    return compiled_kernels.holds(shape, kernel_shape, jax_device(platform))


def blur_pallas(image: np.ndarray, kernel: np.ndarray, platform: str | None = None) -> np.ndarray:
    """Correlate `image` with `kernel` (k × k, or k weights along rows then columns) by the
    Pallas kernel, edges repeating their border pixels: compiled for a TPU, interpreted on any
    other device. Raises JaxUnavailableError."""
    jax = import_jax()
    image = np.ascontiguousarray(image, dtype=np.float32)
    kernel = np.ascontiguousarray(kernel, dtype=np.float32)
    device = jax_device(platform)
    blur, _, _ = compiled_kernels.get_in_stages(
        image.shape, kernel.shape, device, variant=variant_for(kernel)
    )
    output = blur(host_link.send(jax, image, device), jax.device_put(kernel, device))
    # Its own: on the CPU, JAX may hand back its own read-only buffer.
    return host_link.fetch(jax, output, own=True)


def first_pallas_call(
    image: np.ndarray,
    kernel: np.ndarray,
    *,
    platform: str | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> FirstCall:
    """The Pallas kernel's first call (with compilation, or the program from the cache), the
    copies to and from the device timed apart, as JAX-jit's. Raises JaxUnavailableError.
    `progress` is not called: the kernel runs every tap in one call."""
    device = jax_device(platform)
    # As JAX-jit's: an accelerator gets the photo's levels, or its floats, as rows of values.
    pixels = np.ascontiguousarray(image, dtype=np.float32)
    moved = to_move(pixels, device)
    moved_type = None if moved is pixels else moved.dtype

    def get_program(shape: tuple[int, ...], in_words: bool = True) -> GotProgram:
        return compiled_kernels.get_in_stages(
            shape,
            kernel.shape,
            device,
            variant=variant_for(kernel),
            moved=moved_type,
            in_words=in_words,
        )

    first = first_call_on_device(
        image,
        kernel,
        device,
        get_program,
        cancelled,
        moved=moved,
        in_bands=True,
        # An accelerator's programs take what crosses in words (a CPU's take the pixels).
        words=on_accelerator(device),
    )
    return dataclasses.replace(first, device=pallas_device_words(device))


def first_pallas_copy(
    image: np.ndarray,
    kernel: np.ndarray,
    *,
    platform: str | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> FirstCall:
    """The copy floor of the kernel's device (jax_calls.first_jax_copy), under the device
    words its runs give, so that the floor stands beside them."""
    copy = first_jax_copy(image, kernel, platform=platform, progress=progress, cancelled=cancelled)
    return dataclasses.replace(copy, device=pallas_device_words(jax_device(platform)))


def first_pallas_empty_call(platform: str | None = None) -> FirstCall:
    """The call floor of the kernel's device (jax_calls.first_jax_empty_call), under the
    device words its runs give."""
    call = first_jax_empty_call(platform)
    return dataclasses.replace(call, device=pallas_device_words(jax_device(platform)))


def blur_frames_pallas(
    frames: np.ndarray, kernel: np.ndarray, *, platform: str | None = None
) -> BlurredFrames:
    """The Pallas kernel's FramesCall (blurapp.core.engines.engine): a batch of frames in one
    kernel call whose grid holds every frame (pallas_program.blur_frames), one copy
    each way, timed as JAX-jit's (jax_frames.blur_frames_on_device); stored levels give levels
    of their type. Raises JaxUnavailableError."""
    jax, device = import_jax(), jax_device(platform)
    words = pallas_device_words(device)
    return blur_frames_on_device(
        jax,
        frames,
        kernel,
        device,
        words,
        as_rows=True,
        programs=frame_kernels_for(kernel),
    )


def overlapped_frames_pallas(
    batches: Iterable[np.ndarray], kernel: np.ndarray, *, platform: str | None
) -> Iterator[np.ndarray] | None:
    """The Pallas kernel's FramesOverlapped (blurapp.core.engines.engine): as JAX-jit's, on an
    accelerator batches whose copies overlap the kernel's calls; None on a CPU."""
    jax, device = import_jax(), jax_device(platform)
    if not on_accelerator(device):
        return None
    return overlapped_frames_on_device(
        jax, batches, kernel, device, programs=frame_kernels_for(kernel)
    )


JAX_PALLAS = Engine(
    "pallas",
    QT_TRANSLATE_NOOP("Engines", "JAX Pallas"),
    first_pallas_call,
    computation=Computation(uses_jax=True, compiles=True, program_ready=program_ready),
    frames=Frames(blur_frames_pallas, takes_levels=True, overlapped=overlapped_frames_pallas),
    floors=Floors(copy=first_pallas_copy, empty_call=first_pallas_empty_call),
    shown=Shown(colour="#2a9d8f", first_call_colour="#e9c46a", column="Pallas", caveat=caveat_here),
)
ENGINES = (JAX_PALLAS,)
