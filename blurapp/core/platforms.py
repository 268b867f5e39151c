"""The platforms JAX computes on, as a user names them, and what BlurApp does differently on
each: one table (PLATFORM_TRAITS) that every platform question is asked of, and whether JAX
will open a TPU here. Told without importing JAX or NumPy, so that the `blurapp` program's
first step (blurapp.start) can ask before anything heavy is loaded."""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from typing import Any

# The most float32 values a TPU blurs in one pass: a larger image is blurred strip by strip
# (lax.map), each strip one pass. On a TPU a pass runs at one rate a value up to about 25
# million values (a 24 MP grey photo is one pass) and at about a third of it from 36 million
# up, so a 24 MP colour photo is quicker in strips than in one pass
# (docs/performance/strip_programs.py is the probe; its figures are on the performance page).
# A GPU blurs in one pass whatever the size (pass_values None): there the kernel-row loop ran
# faster in one pass than strip by strip.
ACCELERATOR_PASS_VALUES = 24_000_000


# The host's own platform: where NumPy runs, and how an engine's run names a device that is the
# host's CPU.
HOST_PLATFORM = "cpu"


@dataclass(frozen=True)
class Platform:
    """What BlurApp does differently on one platform; each question answered here once.

    The defaults are an accelerator's with nothing measured of its own (a GPU's)."""

    # An accelerator (a GPU, a TPU) has its memory and its programs of its own: a photo crosses
    # to it as rows of values (jax_runtime.to_move) and its copies can overlap its blurs
    # (bands, batches of frames). Otherwise it is the host's CPU.
    accelerator: bool = True
    # JAX-jit blurs strip by strip, each strip sized to stay in a CPU's cache (jax_program.blur),
    # and a batch's frames one after another; else as an accelerator's rows of values.
    blurs_in_strips: bool = False
    # The most values one pass of an accelerator's blur holds (jax_program.accelerator_strips);
    # None for no limit.
    pass_values: int | None = None
    # Mosaic compiles the Pallas kernel for the chip; elsewhere Pallas's interpreter runs it.
    compiles_pallas: bool = False
    # How a picture crosses the link (host_link.layout_for): "pieces", a large one's flat bytes
    # in pieces at once, joined and cut by programs of their own (the link moves several at a
    # time); "words", 8-bit levels as 32-bit words the blur's own program takes and hands back
    # (anything else in pieces); "as it is", one copy: on the host's CPU a "copy" is the host's
    # own memory. docs/performance/host_link.py measures each.
    link: str = "pieces"
    # A picture's levels are halved by reduce_window, a pooling an accelerator does natively;
    # the CPU's programs sum a reshape in one pass, several times quicker there
    # (docs/performance/picture_levels.py, on_device._halve).
    halves_by_pooling: bool = True
    # glibc keeps freed blocks for reuse where JAX opens it (blurapp.start): the host's part of
    # a large photo's end to end, its copies, is quicker in memory touched before.
    keeps_freed_memory: bool = False
    # Matrix products run on a unit of their own that the blur does not use (a TPU's matrix
    # unit), so a product's rate is not one the blur can reach (measuring.floors).
    products_on_a_matrix_unit: bool = False


# Every platform BlurApp knows, as JAX names them; adding one is a line here. A platform JAX
# opens that is not here (a backend newer than this table) is taken for an accelerator with
# nothing measured of its own: Platform()'s defaults, a GPU's.
PLATFORM_TRAITS: dict[str, Platform] = {
    HOST_PLATFORM: Platform(
        accelerator=False,
        blurs_in_strips=True,
        link="as it is",
        halves_by_pooling=False,
    ),
    "gpu": Platform(),
    "tpu": Platform(
        pass_values=ACCELERATOR_PASS_VALUES,
        compiles_pallas=True,
        # Words: a 24 MP photo's 8-bit levels as 32-bit words in the photo's rows cross both ways
        # in about half the time of the uint8 array, and the Pallas kernels that make them floats
        # and round them back on the chip take about a copy's time each, inside the blur's own
        # program (host_link.in_words; docs/performance/host_link.py, figures on the page).
        link="words",
        keeps_freed_memory=True,
        products_on_a_matrix_unit=True,
    ),
}
# The platforms a user can choose by name, as JAX names them: `--device tpu`, or an engine name
# like `jax@gpu`. "cpu" is the host; the others are accelerators. The table's own keys, so a
# platform added to the table is one a user can name.
PLATFORMS = PLATFORM_TRAITS.keys()
# The names JAX gives a platform that a user names otherwise: CUDA and ROCm devices are GPUs.
_JAX_NAMES = {"cuda": "gpu", "rocm": "gpu"}


def platform_of(device: Any) -> str:
    """A JAX device's platform as a user names it: CUDA and ROCm devices are both "gpu"."""
    platform = str(device.platform).lower()
    return _JAX_NAMES.get(platform, platform)


def platform_traits(device_or_name: Any) -> Platform:
    """What BlurApp does on the platform of a JAX device, or of a platform's name (JAX's, or a
    user's); an unknown platform gets an accelerator's defaults (Platform())."""
    if isinstance(device_or_name, str):
        name = device_or_name.lower()
        name = _JAX_NAMES.get(name, name)
    else:
        name = platform_of(device_or_name)
    return PLATFORM_TRAITS.get(name, Platform())


def on_accelerator(device_or_name: Any) -> bool:
    """Whether the JAX device (or platform) `device_or_name` is an accelerator (a GPU, a TPU),
    whose programs and copies are its own (jax_program.blur_on_accelerator, host_link), not
    the host's CPU."""
    return platform_traits(device_or_name).accelerator


def platform_in_words(device_words: str) -> str:
    """The platform an engine's run names in its device words: 'tpu' for 'tpu: TPU v5 lite',
    'cpu' for 'cpu'; words with more to them ('cpu (Pallas interpret mode)') as they are."""
    return device_words.partition(":")[0].strip()


def tpu_runtime_installed() -> bool:
    """Whether this machine has a TPU's runtime (libtpu), told from what is installed without
    importing JAX or opening the device."""
    return importlib.util.find_spec("libtpu") is not None


def jax_opens_a_tpu() -> bool:
    """Whether JAX, as it starts here, will open a TPU (its runtime installed, and JAX_PLATFORMS
    unset or naming tpu among the platforms it opens, the default or not), told without
    importing JAX. Opening a TPU holds Python's lock for seconds at once, so a window stands
    still meanwhile whatever thread opens it (docs/performance.md, "The window, the commands
    and the host there"): the window opens it before it is shown (blurapp.ui.launch), and one
    shown before JAX has started says so."""
    # As JAX reads it: every platform listed is opened, names as written.
    platforms = os.environ.get("JAX_PLATFORMS", "")
    return tpu_runtime_installed() and (not platforms or "tpu" in platforms.split(","))


def platform_jax_opens() -> Platform | None:
    """What BlurApp does on the platform JAX will open here, where that is told without
    importing JAX (jax_opens_a_tpu): a TPU's; None where JAX decides as it starts."""
    return PLATFORM_TRAITS["tpu"] if jax_opens_a_tpu() else None
