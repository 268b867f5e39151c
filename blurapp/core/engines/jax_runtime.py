"""The JAX runtime every JAX engine shares: importing JAX (once, configured), its persistent
compilation cache, compiling a program in timed stages, the devices JAX computes on and how a
photo crosses to one (to_move). The engines' own programs and calls live in their modules
(jax_engine, jax_eager_engine, pallas_engine; the calls they share in jax_calls).

jax is imported only inside these functions: importing blurapp.core, or asking
`blurapp --version`, must stay fast and must work where jax is broken.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

from blurapp.core.engines import host_link
from blurapp.core.engines.levels import levels_as_floats, levels_type, stored_levels
from blurapp.core.engines.programs import compiled_programs
from blurapp.core.engines.runs import CacheLookup, Compilation, ProgramStages
from blurapp.core.paths import private_folder, user_cache_dir
from blurapp.core.platforms import PLATFORMS, on_accelerator, platform_of, platform_traits

log = logging.getLogger(__name__)

# Without this, JAX reserves 75% of a GPU's memory on start; a desktop program should not.
_PREALLOCATE_VARIABLE = "XLA_PYTHON_CLIENT_PREALLOCATE"


class JaxUnavailableError(RuntimeError):
    """JAX could not be imported or could not start a device."""


_import_lock = threading.Lock()
_TPU_RUNTIME_NOTICE = "Transparent hugepages are not enabled"
_configured = False

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


def compile_blur_program(
    program: Callable[..., Any],
    shape: tuple[int, ...],
    dtype: np.dtype,
    kernel_shape: tuple[int, ...],
    device: Any,
    words: tuple[int, ...] | None = None,
    **static: Any,
) -> tuple[Any, Compilation, ProgramStages]:
    """`program` (a blur taking an image and float32 weights, with its static arguments)
    under jax.jit, made once (programs.compiled_programs.jitted), compiled for an image of
    `shape` and `dtype` as compile_blur compiles it; where `words` (host_link.words_for) is
    not None, taking the image as those words and handing its levels back in them, the
    kernels that make words floats and floats words its own steps (host_link.in_words): a
    host_link.WordsProgram."""
    jax = import_jax()
    if words is None:
        jitted = compiled_programs.jitted(jax, program, tuple(static))
        return compile_blur(jitted, shape, dtype, kernel_shape, device, **static)
    jitted = compiled_programs.jitted(jax, host_link.in_words, (*host_link.WORD_ARGUMENTS, *static))
    # The word kernels where Mosaic compiles them (a TPU's); XLA's bitcasts elsewhere.
    link = {
        "link_program": program,
        "link_shape": tuple(shape),
        "link_kernels": platform_traits(device).compiles_pallas,
    }
    compiled, how, stages = compile_blur(
        jitted, words, host_link.WORD, kernel_shape, device, **link, **static
    )
    return host_link.WordsProgram(compiled, shape, dtype), how, stages


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


def to_move(image: np.ndarray, device: Any) -> np.ndarray:
    """What of `image` (float32 pixels, or a clip's frame as its stored levels: uint8,
    uint16) crosses to `device`: on the CPU the pixels themselves (the device is the host's
    memory; a frame's levels made floats); on an accelerator, rows of values (height ×
    width·channels, see jax_program.blur_on_accelerator) of the stored levels when there
    are some (a frame's own, or a photo's pixels that are exactly 8- or 16-bit levels:
    stored_levels), a quarter or half the bytes of float32, else of float32."""
    given_levels = levels_type(image) is not None
    if not on_accelerator(device):
        return levels_as_floats(image) if given_levels else image
    rows = image.reshape(image.shape[0], -1)
    levels = image if given_levels else stored_levels.of(image)
    return rows if levels is None else levels.reshape(rows.shape)
