"""The calls every JAX engine makes on its device: the first call, timed with its copies to
and from the device (first_call_on_device, given the engine's own programs), and the device's
floors (a copy, a matrix product, an empty call) that the figures set beside the blurs.

jax is imported only inside these functions (jax_runtime.import_jax).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from types import ModuleType
from typing import Any, cast

import numpy as np

from blurapp.core.engines import host_link
from blurapp.core.engines.bands import bands_for, blur_in_bands
from blurapp.core.engines.gemm import TimedGemm, chosen_gemm
from blurapp.core.engines.jax_runtime import describe_device, import_jax, jax_device
from blurapp.core.engines.levels import pixels_or_levels
from blurapp.core.engines.on_device import OutputOnDevice, kept_kernels, kept_photo, sent_ahead
from blurapp.core.engines.programs import GotProgram
from blurapp.core.engines.runs import (
    Call,
    Cancelled,
    FirstCall,
    FirstCallParts,
    Progress,
    check_cancelled,
)
from blurapp.core.platforms import on_accelerator


def first_call_on_device(
    image: np.ndarray,
    kernel: np.ndarray,
    device: Any,
    get_program: Callable[..., GotProgram],
    cancelled: Cancelled | None,
    *,
    keep_photo: bool = False,
    moved: np.ndarray | None = None,
    in_bands: bool = False,
    words: bool = False,
) -> FirstCall:
    """The copy to the device, the first call (getting the program included) and the copy
    back, timed apart; `again()` times a steady call with its own two copies, then, with
    `in_bands` on an accelerator and a photo large enough, the same call in bands whose
    copies overlap the blur (blurapp.core.engines.bands), which is then its end to end.
    `get_program(shape)`: the blur of an image of that shape (the photo's, a band's), taking
    what `moved` holds. `keep_photo` (a live preview's call): the first call's
    copy is the kept one when there is one (see on_device.kept_photo), and its output stays on
    the device (OutputOnDevice: the pane's picture is made there). When the program was got in
    stages, the first call comes taken apart (FirstCall.parts).

    `moved`: what crosses to the device in place of `image`'s float32 pixels (see to_move).
    A program given stored levels hands back a pair, (levels, floats): the levels cross back,
    as the picture a user sees, and are timed; the floats cross back too in the first call, as
    its output, which is what the engines' difference compares: the first call's copy back
    counts both, `again()`'s the levels alone.

    `words`: `get_program`'s programs take a photo's levels in 32-bit words (host_link.WORD)
    and hand them back in them where host_link.words_for says so (JAX Pallas's:
    host_link.WordsProgram), so the photo is sent in them; a band's program,
    `get_program(shape, in_words=False)`, takes the band as it is; the floats a first call also
    fetches cross as they are."""
    jax = import_jax()
    image = pixels_or_levels(image)  # a clip's frame given as its levels stays them (moved)
    kernel = np.ascontiguousarray(kernel, dtype=np.float32)
    moved = image if moved is None else moved
    # A device's first copy sets up its runtime (kept_kernels): not a copy's cost; nor is
    # compiling the programs that join and cut the photo's pieces there (host_link).
    kernel_on_device = kept_kernels.on_device(jax, kernel, device, start=not keep_photo)
    host_link.prepare_send(jax, moved.shape, moved.dtype, device, words=words)

    def put() -> Any:
        return jax.block_until_ready(host_link.send(jax, moved, device, words=words))

    def to_device(kept: bool = False) -> tuple[Any, float]:
        start = time.perf_counter()
        on_device = sent_ahead.take(image, device) if kept else None
        if on_device is None:
            on_device = kept_photo.on_device(image, device, put) if kept else put()
        return on_device, time.perf_counter() - start

    def from_device(output: Any) -> tuple[np.ndarray, float]:
        start = time.perf_counter()
        if isinstance(output, tuple):  # levels, then the floats, which stay there
            host = host_link.fetch(jax, output[0])
        else:
            # No copy on top (it is not part of the transfer): this array is only ever read.
            host = np.asarray(host_link.fetch(jax, output), dtype=np.float32)
        # Reshaped as a view (compiled blurs hand back rows of values: see jax_program.blur).
        return host.reshape(image.shape), time.perf_counter() - start

    image_on_device, to_seconds = to_device(kept=keep_photo)
    check_cancelled(cancelled)
    start = time.perf_counter()
    blur, compilation, stages = get_program(image.shape)
    got_at = time.perf_counter()
    output = jax.block_until_ready(blur(image_on_device, kernel_on_device))
    done_at = time.perf_counter()
    first = done_at - start
    check_cancelled(cancelled)
    if not keep_photo:  # the programs that cut what crosses back, compiled untimed as above
        for crossing in output if isinstance(output, tuple) else (output,):
            host_link.prepare_fetch_of(jax, crossing)
    if keep_photo:
        # A live preview: the pane's picture is made from the output where it is, and the
        # floats cross only if someone reads them (see OutputOnDevice).
        floats = output[1] if isinstance(output, tuple) else output
        host_output, from_seconds = cast(np.ndarray, OutputOnDevice(jax, floats, image.shape)), 0.0
    else:
        host_output, from_seconds = from_device(output)
    if isinstance(output, tuple) and not keep_photo:
        # The floats the first call hands back cross too, and it waits for them: counted in
        # its copy back (a steady call's copy back is the levels' alone).
        start = time.perf_counter()
        floats = np.asarray(host_link.fetch(jax, output[1]), dtype=np.float32)
        from_seconds += time.perf_counter() - start
        host_output = floats.reshape(image.shape)
    parts = None
    if stages is not None:
        run_seconds = done_at - got_at
        # What getting the program took besides its stages: the look-up, the shapes.
        other = max(0.0, first - run_seconds - sum(stages[:3]))
        parts = FirstCallParts(*stages, run_seconds, to_seconds + from_seconds, other)

    rows = moved.reshape(moved.shape[0], -1)
    cut = None
    if in_bands and on_accelerator(device):
        cut = bands_for(image.shape[0], kernel.shape[0] // 2, rows[0].nbytes)
    band_blur: list[Callable[[Any, Any], Any]] = []

    def again() -> Call:
        if cut is not None and not band_blur:
            # Got (compiled or loaded) by the first steady call, outside what it times: that
            # one is the timing's untimed warm-up, and a first call that no steady call
            # follows (--repeat 0, a live preview, a clip's frame) compiles nothing unused.
            # A band crosses as it is, not in words: bands in words, each band's copies in
            # flight with the others', made the end to end slower on a TPU.
            band_shape = (cut.rows, *image.shape[1:])
            got = get_program(band_shape, in_words=False) if words else get_program(band_shape)
            band_blur.append(got[0])
            check_cancelled(cancelled)
        on_device, to_seconds = to_device()
        start = time.perf_counter()
        output = jax.block_until_ready(blur(on_device, kernel_on_device))
        seconds = time.perf_counter() - start
        call = Call(seconds, to_seconds, from_device(output)[1])
        if cut is None:
            return call
        # The whole photo's copies let go first: the bands' own are all the device holds.
        del on_device, output
        check_cancelled(cancelled)
        start = time.perf_counter()
        blur_in_bands(jax, rows, cut, band_blur[0], kernel_on_device, device)
        return call._replace(in_bands_seconds=time.perf_counter() - start, bands=len(cut.bands))

    return FirstCall(
        output=host_output,
        again=again,
        seconds=first,
        device=describe_device(device),
        compilation=compilation,
        to_device_seconds=to_seconds,
        from_device_seconds=from_seconds,
        parts=parts,
    )


_copy_program: Any = None


def _jitted_copy(jax: ModuleType) -> Any:
    """x + 0 under jit: XLA reads the image and writes a new array (it never hands back an
    input it was not given to keep), one program per shape, compiled once."""
    global _copy_program
    if _copy_program is None:
        _copy_program = jax.jit(lambda values: values + 0)
    return _copy_program


# Copies the copy floor queues before it waits (first_jax_copy): enough that the one wait and
# the calls' dispatch, which an accelerator overlaps with the copies before, are a small share.
QUEUED_COPIES = 8


def first_jax_copy(
    image: np.ndarray,
    kernel: np.ndarray,
    *,
    platform: str | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> FirstCall:
    """The floor of any blur on JAX's device: a jitted copy of the image already there (read
    once, written once), timed as the device does copies queued behind one another
    (QUEUED_COPIES, each of the one before, waited for once: a copy's share), so that what a
    call costs to make and wait for (the call floor, beside it) is not counted in it; the
    copies to and from the device are not part of it (they are timed apart for the engines
    too). Raises JaxUnavailableError."""
    jax = import_jax()
    device = jax_device(platform)
    image_on_device = jax.block_until_ready(
        jax.device_put(np.ascontiguousarray(image, dtype=np.float32), device)
    )
    copy = _jitted_copy(jax)

    def again() -> Call:
        start = time.perf_counter()
        copied = image_on_device
        for _ in range(QUEUED_COPIES):
            # Each reads the one before. Every copy stays alive until the chain is waited for
            # (QUEUED_COPIES + 1 images: docs/performance/copy_floor_memory.py on a TPU).
            copied = copy(copied)
        jax.block_until_ready(copied)
        return Call((time.perf_counter() - start) / QUEUED_COPIES)

    jax.block_until_ready(copy(image_on_device))  # compiled outside the timing
    first = again()
    return FirstCall(
        output=image, again=again, seconds=first.seconds, device=describe_device(device)
    )


_product_program: Any = None


def first_jax_gemm(platform: str | None = None) -> TimedGemm:
    """The compute floor of JAX's device: a jitted float32 product of two square matrices
    already there (jnp.dot at the highest precision: on a GPU, the default would let it round
    to TensorFloat-32, quicker than the float32 sums of a blur), waited for, at a size that
    saturates the device. Raises JaxUnavailableError."""
    jax = import_jax()
    device = jax_device(platform)
    global _product_program
    if _product_program is None:
        _product_program = jax.jit(
            lambda a, b: jax.numpy.dot(a, b, precision=jax.lax.Precision.HIGHEST)
        )
    program = _product_program

    def product_of_size(size: int) -> Callable[[], Call]:
        a = np.random.default_rng(0).random((size, size), dtype=np.float32)
        a_there = jax.block_until_ready(jax.device_put(a, device))
        b_there = jax.block_until_ready(jax.device_put(np.ascontiguousarray(a.T), device))

        def again() -> Call:
            start = time.perf_counter()
            jax.block_until_ready(program(a_there, b_there))
            return Call(time.perf_counter() - start)

        return again

    return chosen_gemm("jax", product_of_size, describe_device(device))


_empty_program: Any = None


def first_jax_empty_call(platform: str | None = None) -> FirstCall:
    """The floor of a call on JAX's device: a jitted program with next to nothing to do (one
    number already there, plus one), waited for as the blurs are. What it takes is the call
    itself: the dispatch, the device's launch and the wait for it to say it is done. A blur
    that takes about this long is too small for the device to matter. Raises
    JaxUnavailableError."""
    jax = import_jax()
    device = jax_device(platform)
    global _empty_program
    if _empty_program is None:
        # One operation on one number: the device runs a program, and the call is all
        # there is to time.
        _empty_program = jax.jit(lambda value: value + 1)
    program = _empty_program
    tiny = jax.block_until_ready(jax.device_put(np.zeros(1, np.float32), device))

    def again() -> Call:
        start = time.perf_counter()
        jax.block_until_ready(program(tiny))
        return Call(time.perf_counter() - start)

    jax.block_until_ready(program(tiny))  # compiled outside the timing
    first = again()
    words = describe_device(device)
    return FirstCall(
        output=np.zeros(1, np.float32), again=again, seconds=first.seconds, device=words
    )
