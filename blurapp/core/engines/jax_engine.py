"""The same manual convolution under jax.jit, on the accelerator when there is one.

jax is imported only inside these functions: importing blurapp.core, or asking
`blurapp --version`, must stay fast and must work where jax is broken.
"""

from __future__ import annotations

import functools
import logging
import os
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import Any, cast

import numpy as np

from blurapp.core.engines import host_link
from blurapp.core.engines.bands import bands_for, blur_in_bands
from blurapp.core.engines.engine import Engine
from blurapp.core.engines.gemm import TimedGemm, chosen_gemm
from blurapp.core.engines.jax_frames import blur_frames_on_device, overlapped_frames_on_device
from blurapp.core.engines.jax_program import blur as blur_program
from blurapp.core.engines.jax_program import blur_levels as levels_program
from blurapp.core.engines.jax_program import blur_on_accelerator, pass_values_on, rows_of_values
from blurapp.core.engines.levels import stored_levels
from blurapp.core.engines.on_device import (
    OutputOnDevice,
    kept_kernels,
    kept_photo,
    sent_ahead,
    stop_previewing,
)
from blurapp.core.engines.programs import GotProgram, compiled_programs
from blurapp.core.engines.runs import (
    BlurredFrames,
    CacheLookup,
    Call,
    Cancelled,
    Compilation,
    FirstCall,
    FirstCallParts,
    ProgramStages,
    Progress,
    check_cancelled,
)
from blurapp.core.paths import private_folder, user_cache_dir
from blurapp.core.platforms import PLATFORMS, on_accelerator, platform_of, platform_traits
from blurapp.core.wording import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)

# Without this, JAX reserves 75% of a GPU's memory on start; a desktop program should not.
_PREALLOCATE_VARIABLE = "XLA_PYTHON_CLIENT_PREALLOCATE"


class JaxUnavailableError(RuntimeError):
    """JAX could not be imported or could not start a device."""


_import_lock = threading.Lock()
_TPU_RUNTIME_NOTICE = "Transparent hugepages are not enabled"
_configured = False
_cache_hits = 0  # persistent-cache hits JAX has reported in this process

# The events of jax.monitoring that say what the persistent compilation cache did (jax 0.10:
# jax/_src/compiler.py): JAX asked it for a program, and found the program there.
CACHE_REQUEST_EVENT = "/jax/compilation_cache/compile_requests_use_cache"
CACHE_HIT_EVENT = "/jax/compilation_cache/cache_hits"
# The events JAX reports while this thread compiles (compile_in_stages). JAX reports them on
# the thread that compiles, so one thread's compilation never counts another's events.
_compiling = threading.local()


def import_jax() -> ModuleType:
    """Import jax (once), keeping it from preallocating GPU memory unless the user chose,
    and pointing its persistent compilation cache at BlurApp's cache folder."""
    os.environ.setdefault(_PREALLOCATE_VARIABLE, "false")
    if "jax" not in sys.modules:
        # A TPU runtime's notice as JAX first imports, about the machine (its transparent
        # huge pages), not about BlurApp: printed, it came before every command's output;
        # where warnings are errors (python -W error), it stopped JAX from loading at all.
        # Only then: each filter added makes Python forget which warnings it has shown.
        warnings.filterwarnings("ignore", _TPU_RUNTIME_NOTICE, UserWarning)
    try:
        import jax
    except Exception as error:
        raise JaxUnavailableError(f"JAX could not be loaded: {error}") from error
    global _configured
    with _import_lock:
        if not _configured:
            _configured = True
            jax.monitoring.register_event_listener(_on_jax_event)
            _use_compilation_cache(jax)
    return jax


def _on_jax_event(event: str, **_details: object) -> None:
    global _cache_hits
    if event == CACHE_HIT_EVENT:
        _cache_hits += 1
    seen = getattr(_compiling, "events", None)
    if seen is not None:
        seen.add(event)


def compile_in_stages(jitted: Any, *args: Any, **static: Any) -> tuple[Any, ProgramStages]:
    """`jitted` (a jax.jit function) compiled for `args` through JAX's ahead-of-time stages,
    each timed: traced, lowered to StableHLO, compiled by XLA (or loaded from the persistent
    cache, which says whether it was)."""
    _compiling.events = set()
    try:
        start = time.perf_counter()
        if hasattr(jitted, "trace"):
            traced = jitted.trace(*args, **static)
            traced_at = time.perf_counter()
            lowered = traced.lower()
        else:  # a JAX without the trace stage: tracing is counted in lowering
            traced_at = start
            lowered = jitted.lower(*args, **static)
        lowered_at = time.perf_counter()
        compiled = lowered.compile()
        compiled_at = time.perf_counter()
        seen = _compiling.events
    finally:
        _compiling.events = None
    if CACHE_HIT_EVENT in seen:
        cache = CacheLookup.HIT
    elif CACHE_REQUEST_EVENT in seen and _cache_folder_set():
        cache = CacheLookup.MISS
    else:
        # JAX reports a request whenever caching is enabled, a folder to cache in or not.
        cache = CacheLookup.OFF
    stages = ProgramStages(
        traced_at - start, lowered_at - traced_at, compiled_at - lowered_at, cache
    )
    return compiled, stages


def compile_blur(
    jitted: Any,
    shape: tuple[int, ...],
    dtype: np.dtype,
    kernel_shape: tuple[int, ...],
    device: Any,
    **static: Any,
) -> tuple[Any, Compilation, ProgramStages]:
    """A blur under jax.jit (`jitted`, taking an image and float32 weights) compiled in stages
    for an image of `shape` and `dtype` and weights of `kernel_shape`, both on `device`, with
    its static arguments; and how it was got (compiled, or from the persistent cache)."""
    jax = import_jax()
    on_device = jax.sharding.SingleDeviceSharding(device)
    image_spec = jax.ShapeDtypeStruct(shape, dtype, sharding=on_device)
    weights_spec = jax.ShapeDtypeStruct(kernel_shape, np.float32, sharding=on_device)
    compiled, stages = compile_in_stages(jitted, image_spec, weights_spec, **static)
    hit = stages.cache is CacheLookup.HIT
    return compiled, Compilation.FROM_CACHE if hit else Compilation.COMPILED, stages


def _use_compilation_cache(jax: ModuleType) -> None:
    """Keep compiled blurs on disk, so a later launch's first call skips compilation.

    The cache holds native code that JAX loads and runs, so it is used only in a private
    folder (see blurapp.core.paths): one that others could write to gets a warning, and
    BlurApp compiles afresh in every launch instead.
    """
    try:
        folder = private_folder(user_cache_dir() / "jax-compilation")
    except OSError as error:
        log.warning("JAX's compilation cache is off: %s", error)
        return
    jax.config.update("jax_compilation_cache_dir", str(folder))
    # BlurApp's programs compile in well under JAX's default 1 s threshold: cache them all.
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)


def _cache_folder_set() -> bool:
    """Whether JAX has a folder for its persistent compilation cache (BlurApp's, or one the
    user set): without one, nothing is cached, whatever JAX's events say."""
    config = import_jax().config
    return bool(getattr(config, "jax_compilation_cache_dir", None)) and bool(
        getattr(config, "jax_enable_compilation_cache", True)
    )


def cache_hits() -> int:
    """The persistent-cache hits JAX has reported in this process so far."""
    return _cache_hits


_default_device: Any = None


def default_device_opened() -> Any:
    """The device JAX computes on by default, once jax_device has opened it; else None."""
    return _default_device


def jax_device(platform: str | None = None) -> Any:
    """The device JAX computes on: the first of `platform` (one of PLATFORMS), or of its
    default backend (the accelerator when there is one) for None or "auto"."""
    global _default_device
    jax = import_jax()
    if platform not in (None, "auto") and platform not in PLATFORMS:
        raise ValueError(f"platform must be one of auto, {', '.join(PLATFORMS)}, not {platform!r}")
    try:
        if platform in (None, "auto"):
            _default_device = jax.devices()[0]
            return _default_device
        return jax.devices(platform)[0]
    except Exception as error:
        if platform in (None, "auto"):
            raise JaxUnavailableError(f"JAX found no device to run on: {error}") from error
        raise JaxUnavailableError(
            f"JAX has no {platform} device here (it has: {', '.join(jax_platforms())})"
        ) from error


def jax_platforms() -> list[str]:
    """The platforms of PLATFORMS that JAX has a device on, the default one first."""
    jax = import_jax()
    found = []
    for platform in PLATFORMS:
        try:
            if jax.devices(platform):
                found.append(platform)
        except RuntimeError:  # no such backend in this JAX, or no device for it
            continue
    default = platform_of(jax_device())
    return sorted(found, key=lambda platform: platform != default)


def describe_device(device: Any) -> str:
    """A device in a user's words: its platform, and an accelerator's own name: 'cpu',
    'gpu: NVIDIA H200', 'tpu: TPU v5 lite'."""
    platform = platform_of(device)
    return f"{platform}: {device.device_kind}" if platform_traits(device).accelerator else platform


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
        the program is jax_program.blur_on_accelerator; taking them, and handing its output
        back, as uint32 words where host_link.words_for says so (a host_link.WordsProgram)."""
        jax = import_jax()
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
        words = None if moved is None else host_link.words_for(program_shape, dtype, device)
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
            ("words", words),
            device.platform,
            device.id,
        )

        def compile_program() -> tuple[Callable[[Any, Any], Any], Compilation, ProgramStages]:
            if words is None:
                jitted = compiled_programs.jitted(jax, program, tuple(static))
                return compile_blur(jitted, program_shape, dtype, kernel_shape, device, **static)
            jitted = compiled_programs.jitted(
                jax, host_link.in_words, (*host_link.WORD_ARGUMENTS, *static)
            )
            link = {"link_program": program, "link_shape": program_shape, "link_dtype": dtype.str}
            compiled, how, stages = compile_blur(
                jitted, words, np.dtype(np.uint32), kernel_shape, device, **link, **static
            )
            return host_link.WordsProgram(compiled, program_shape, dtype), how, stages

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
    sent = host_link.send(jax, moved, device, words=host_link.takes_words(blur))
    output = blur(sent, jax.device_put(kernel, device))
    output = output[1] if isinstance(output, tuple) else output  # the floats of levels' pair
    # Its own: on the CPU, JAX may hand back its own read-only buffer.
    return host_link.fetch(jax, output, own=True).reshape(image.shape)


def to_move(image: np.ndarray, device: Any) -> np.ndarray:
    """What of `image` (float32 pixels) crosses to `device`: on the CPU the pixels themselves
    (the device is the host's memory); on an accelerator, rows of values (height ×
    width·channels, see jax_program.blur_on_accelerator) of the photo's stored levels when
    its pixels are exactly 8- or 16-bit levels (stored_levels), a quarter or half the bytes
    of float32, else of float32."""
    if not on_accelerator(device):
        return image
    rows = image.reshape(image.shape[0], -1)
    levels = stored_levels.of(image)
    return rows if levels is None else levels.reshape(rows.shape)


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
    _KeptPhoto); without it, a photo kept there is let go, and the copy made each time, as a
    timed call makes it.
    """
    if not keep_photo:
        kept_photo.clear()
    device = jax_device(platform)
    sent = sent_ahead.moved(image, device) if keep_photo else None
    moved = sent if sent is not None else to_move(np.ascontiguousarray(image, np.float32), device)

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
        # An accelerator's programs take what crosses in words (a CPU's take the pixels).
        words=on_accelerator(device),
    )


preview_jax_call = functools.partial(first_jax_call, keep_photo=True)


def send_ahead(image: np.ndarray, platform: str | None = None) -> None:
    """JAX_JIT's send_ahead: `image` copied to its device ahead of a live preview's call on
    it, kept until the call takes it (on_device.sent_ahead)."""
    jax = import_jax()
    device = jax_device(platform)
    image = np.ascontiguousarray(image, dtype=np.float32)
    moved = to_move(image, device)
    # In words where the blur takes them (as first_jax_call sends it).
    words = on_accelerator(device)
    on_device = jax.block_until_ready(host_link.send(jax, moved, device, words=words))
    sent_ahead.keep(image, device, on_device, moved)


def first_call_on_device(
    image: np.ndarray,
    kernel: np.ndarray,
    device: Any,
    get_program: Callable[[tuple[int, ...]], GotProgram],
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
    what `moved` holds. `keep_photo` (a live preview's call): the first call's copy is the
    kept one when there is one (see _KeptPhoto), and its output stays on the device
    (OutputOnDevice: the pane's picture is made there). When the program was got in stages,
    the first call comes taken apart (FirstCall.parts).

    `moved`: what crosses to the device in place of `image`'s float32 pixels (see to_move).
    A program given stored levels hands back a pair, (levels, floats): the levels cross back,
    as the picture a user sees, and are timed; the floats cross back too in the first call, as
    its output, which is what the engines' difference compares: the first call's copy back
    counts both, `again()`'s the levels alone.

    `words`: `get_program`'s programs take what crosses in uint32 words and hand it back in
    them where host_link.words_for says so (JAX-jit's: host_link.WordsProgram), so it is sent
    in them; the floats a first call also fetches cross as they are."""
    jax = import_jax()
    image = np.ascontiguousarray(image, dtype=np.float32)
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
        floats = output[1] if isinstance(output, tuple) else host_link.unpacked(jax, output)
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
            band_blur.append(get_program((cut.rows, *image.shape[1:]))[0])
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
            copied = copy(copied)  # each reads the one before: two alive at a time
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


def blur_frames_jax(
    frames: np.ndarray, kernel: np.ndarray, *, platform: str | None = None
) -> BlurredFrames:
    """JAX-jit's FramesCall (blurapp.core.engines.engine): a batch of frames in one program
    with a frame axis, one copy each way (jax_frames). Raises JaxUnavailableError."""
    jax, device = import_jax(), jax_device(platform)
    words = describe_device(device)
    return blur_frames_on_device(
        jax, frames, kernel, device, words, cache_hits, as_rows=on_accelerator(device)
    )


def overlapped_frames_jax(
    batches: Iterable[np.ndarray], kernel: np.ndarray, *, platform: str | None
) -> Iterator[np.ndarray] | None:
    """JAX-jit's FramesOverlapped (blurapp.core.engines.engine): on an accelerator, batches
    whose copies overlap the blur (jax_frames.overlapped_frames_on_device); None on a CPU, where
    a batch's copy is the host's own memory and there is nothing to overlap."""
    jax, device = import_jax(), jax_device(platform)
    if not on_accelerator(device):
        return None
    return overlapped_frames_on_device(jax, batches, kernel, device, cache_hits)


JAX_JIT = Engine(
    "jax",
    QT_TRANSLATE_NOOP("Engines", "JAX-jit"),
    first_jax_call,
    uses_jax=True,
    compiles=True,
    copy_call=first_jax_copy,
    gemm_call=first_jax_gemm,
    empty_call=first_jax_empty_call,
    levels_call=blur_levels_jax,
    preview_call=preview_jax_call,
    stop_preview=stop_previewing,
    send_ahead=send_ahead,
    frames_call=blur_frames_jax,
    frames_take_levels=True,
    frames_overlapped=overlapped_frames_jax,
    program_ready=program_ready,
)
ENGINES = (JAX_JIT,)
