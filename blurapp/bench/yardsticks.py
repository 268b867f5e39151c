"""`blurapp bench --sections yardsticks`: BlurApp's JAX-jit blurs beside what they are measured
against — OpenCV and SciPy when installed, the NumPy engine, one copy of the image (the copy
floor), a float32 matrix product on JAX's device (the compute floor) — timed in the same
interleaved rounds, with the ratios of BlurApp's speed goals. Where Mosaic compiles JAX Pallas
(a TPU), its blurs too, and the floor of the vector unit that they and JAX-jit's blurs run on
(blurapp.core.engines.vector_floor): there the matrix product runs on a unit of its own, at a
rate no blur reaches. Elsewhere those entries and their ratios are left out, not missing.

Every timed function is called once untimed (the outputs of the NumPy engine, OpenCV and SciPy
checked there against JAX-jit's grey blur by the same algorithm), then once per round, in the
same order each round, so that a disturbance of the machine falls on all of them alike; each
entry reports the median, min and max of its rounds.
"""

from __future__ import annotations

import functools
import mmap
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from blurapp.bench.synthetic import synthetic_image
from blurapp.core.engines import REFERENCE_ENGINE, get_engine
from blurapp.core.engines.jax_calls import first_jax_gemm
from blurapp.core.engines.jax_engine import JAX_JIT, compiled_blurs
from blurapp.core.engines.jax_runtime import (
    JaxUnavailableError,
    describe_device,
    import_jax,
    jax_device,
)
from blurapp.core.engines.pallas_engine import compiled_kernels
from blurapp.core.engines.pallas_program import variant_for
from blurapp.core.engines.vector_floor import first_vector_floor
from blurapp.core.kernel import DEFAULT_SIGMA, Algorithm, multiply_adds_per_pixel
from blurapp.core.measuring.comparison import max_abs_difference
from blurapp.core.spec import BlurSpec

YARDSTICK_KERNEL_SIZE = 9

# Each entry's key (in the JSON) and what the text calls it, in the order they are timed.
ENTRIES = (
    ("jax_2d", "JAX-jit 2-D, grey"),
    ("jax_separable", "JAX-jit separable, grey"),
    ("jax_2d_colour", "JAX-jit 2-D, colour"),
    ("jax_separable_colour", "JAX-jit separable, colour"),
    ("pallas_2d", "JAX Pallas 2-D, grey"),
    ("pallas_separable", "JAX Pallas separable, grey"),
    ("numpy_2d", "NumPy engine 2-D, grey"),
    ("jax_copy", "one copy, JAX-jit (x + 0)"),
    ("numpy_copy", "one copy, NumPy (copyto)"),
    ("jax_gemm", "float32 matrix product, JAX-jit (jnp.dot)"),
    ("vector_floor", "float32 multiply-adds, vector unit"),
    ("opencv_filter2d", "OpenCV filter2D"),
    ("opencv_sepfilter2d", "OpenCV sepFilter2D"),
    ("scipy_separable", "SciPy correlate1d ×2"),
)
# The entries that exist only where Mosaic compiles JAX Pallas (a TPU): left out elsewhere.
ON_A_TPU = ("pallas_2d", "pallas_separable", "vector_floor")
# The compute floors, whose rates (multiply-adds a second, at their quickest round) are given,
# and their names in the ratios.
FLOORS = {"jax_gemm": "the compute floor", "vector_floor": "the vector floor"}
OPENCV_MISSING = "opencv-python-headless is not installed"
SCIPY_MISSING = "scipy is not installed"


@dataclass(frozen=True)
class Ratio:
    """One of the speed goals' ratios: the median of `numerator` ÷ the median of
    `denominator`, both entries of the same run; `goal` the most it should be (None: none).
    `per_multiply_add`: each entry's time for one of its multiply-adds instead (the
    denominator at its quickest round: a floor is what the device can do), so that a blur is
    divided by its own multiply-adds at the rate of a matrix product, or of the vector unit."""

    numerator: str
    denominator: str
    label: str
    goal: float | None
    per_multiply_add: bool = False

    @property
    def key(self) -> str:
        return f"{self.numerator}/{self.denominator}"


# The ratios of BlurApp's speed goals, each with its goal.
RATIOS = (
    Ratio("jax_2d", "opencv_filter2d", "JAX-jit 2-D ÷ OpenCV filter2D", 1.0),
    Ratio("jax_separable", "opencv_sepfilter2d", "JAX-jit separable ÷ OpenCV sepFilter2D", 1.0),
    Ratio("jax_separable", "jax_2d", "JAX-jit separable ÷ JAX-jit 2-D", 0.5),
    Ratio("jax_2d_colour", "jax_2d", "JAX-jit colour ÷ grey, 2-D", 3.3),
    Ratio("jax_separable_colour", "jax_separable", "JAX-jit colour ÷ grey, separable", 3.3),
    Ratio("jax_2d", "jax_copy", "JAX-jit 2-D ÷ one copy (the floor)", 3.0),
    Ratio("numpy_2d", "jax_2d", "NumPy 2-D ÷ JAX-jit 2-D (the speed-up)", None),
    Ratio("jax_2d", "jax_gemm", "JAX-jit 2-D ÷ the compute floor", 1.5, per_multiply_add=True),
    Ratio("jax_separable", "jax_gemm", "JAX-jit separable ÷ the compute floor", None, True),
    Ratio("opencv_filter2d", "jax_gemm", "OpenCV filter2D ÷ the compute floor", None, True),
    Ratio("pallas_2d", "vector_floor", "JAX Pallas 2-D ÷ the vector floor", None, True),
    Ratio(
        "pallas_separable", "vector_floor", "JAX Pallas separable ÷ the vector floor", None, True
    ),
    Ratio("jax_2d", "vector_floor", "JAX-jit 2-D ÷ the vector floor", None, True),
)


@dataclass(frozen=True)
class Yardstick:
    """One timed function. `call()` does the work once (waited for, on a device); `output`
    turns what it returned into pixels on the host, None for a copy (nothing to compare);
    `same_as` is the JAX-jit entry that computes the same blur."""

    call: Callable[[], object]
    output: Callable[[object], np.ndarray] | None = None
    same_as: str | None = None
    # The multiply-adds of one call, where a ratio divides by them (None: not counted).
    multiply_adds: int | None = None


def _host(result: object) -> np.ndarray:
    return np.asarray(result)


def yardstick_functions(
    grey: np.ndarray, colour: np.ndarray, kernel_size: int, sigma: float
) -> tuple[dict[str, Yardstick], dict[str, str], dict[str, str]]:
    """The timed functions on `grey` (height × width) and `colour` (× 3), by entry key; why
    each missing one is missing; and the versions of the libraries used."""
    kernels: dict[Algorithm, np.ndarray] = {
        algorithm: BlurSpec(kernel_size, sigma, algorithm).kernel
        for algorithm in ("2d", "separable")
    }
    found: dict[str, Yardstick] = {}
    missing: dict[str, str] = {}
    versions: dict[str, str] = {}
    try:
        found.update(_jax_functions(grey, colour, kernels, versions))
    except JaxUnavailableError as error:
        for key in (
            "jax_2d",
            "jax_separable",
            "jax_2d_colour",
            "jax_separable_colour",
            "jax_copy",
            "jax_gemm",
        ):
            missing[key] = f"JAX is unavailable: {error}"
    reference = get_engine(REFERENCE_ENGINE)
    # Each call on the default device, reporting nothing, never cancelled.
    quiet = {"platform": None, "progress": None, "cancelled": None}
    found["numpy_2d"] = Yardstick(
        lambda: reference.first_call(grey, kernels["2d"], **quiet).output, _host, "jax_2d"
    )
    # The floor as compare_engines times it, from the engines' own copy calls; both have one.
    jax_copy, numpy_copy = JAX_JIT.floors.copy, reference.floors.copy
    assert jax_copy is not None and numpy_copy is not None
    if "jax_copy" not in missing:
        found["jax_copy"] = Yardstick(jax_copy(grey, kernels["2d"], **quiet).again)
    found["numpy_copy"] = Yardstick(numpy_copy(grey, kernels["2d"], **quiet).again)
    try:
        import cv2  # an optional yardstick only: never a dependency of BlurApp
    except ImportError:
        missing["opencv_filter2d"] = missing["opencv_sepfilter2d"] = OPENCV_MISSING
    else:
        versions["opencv"] = cv2.__version__
        square, taps = kernels["2d"], kernels["separable"]
        found["opencv_filter2d"] = Yardstick(
            lambda: cv2.filter2D(grey, -1, square, borderType=cv2.BORDER_REPLICATE),
            _host,
            "jax_2d",
        )
        found["opencv_sepfilter2d"] = Yardstick(
            lambda: cv2.sepFilter2D(grey, -1, taps, taps, borderType=cv2.BORDER_REPLICATE),
            _host,
            "jax_separable",
        )
    try:
        import scipy
        from scipy.ndimage import correlate1d
    except ImportError:
        missing["scipy_separable"] = SCIPY_MISSING
    else:
        versions["scipy"] = scipy.__version__
        taps = kernels["separable"]

        def scipy_separable() -> np.ndarray:
            rows = correlate1d(grey, taps, axis=0, mode="nearest")
            return correlate1d(rows, taps, axis=1, mode="nearest")

        found["scipy_separable"] = Yardstick(scipy_separable, _host, "jax_separable")
    order = [key for key, _ in ENTRIES]
    return dict(sorted(found.items(), key=lambda item: order.index(item[0]))), missing, versions


def _jax_functions(
    grey: np.ndarray,
    colour: np.ndarray,
    kernels: dict[Algorithm, np.ndarray],
    versions: dict[str, str],
) -> dict[str, Yardstick]:
    """JAX-jit's compiled programs called as compare_engines' steady calls are: on arrays already on
    the device, waited for. Raises JaxUnavailableError."""
    jax = import_jax()
    device = jax_device()
    versions["jax_device"] = describe_device(device)

    def on_device(image: np.ndarray, algorithm: Algorithm) -> Yardstick:
        kernel = kernels[algorithm]
        blur, _ = compiled_blurs.get(image.shape, kernel.shape, device)
        pixels = jax.block_until_ready(jax.device_put(image, device))
        weights = jax.block_until_ready(jax.device_put(kernel, device))
        return Yardstick(
            lambda: jax.block_until_ready(blur(pixels, weights)),
            # The program's rows of values in the image's shape (see jax_program.blur).
            lambda result: np.asarray(jax.device_get(result)).reshape(image.shape),
        )

    def pallas_on_device(image: np.ndarray, algorithm: Algorithm) -> Yardstick:
        kernel = kernels[algorithm]
        blur, _, _ = compiled_kernels.get_in_stages(
            image.shape, kernel.shape, device, variant=variant_for(kernel)
        )
        pixels = jax.block_until_ready(jax.device_put(image, device))
        weights = jax.block_until_ready(jax.device_put(kernel, device))
        return Yardstick(
            lambda: jax.block_until_ready(blur(pixels, weights)),
            lambda result: np.asarray(jax.device_get(result)),
            f"jax_{algorithm}",
        )

    gemm = first_jax_gemm()
    found = {
        "jax_gemm": Yardstick(gemm.first.again, multiply_adds=gemm.multiply_adds),
        "jax_2d": on_device(grey, "2d"),
        "jax_separable": on_device(grey, "separable"),
        "jax_2d_colour": on_device(colour, "2d"),
        "jax_separable_colour": on_device(colour, "separable"),
    }
    vector = first_vector_floor()
    if vector is not None:  # Mosaic compiles Pallas here: a TPU
        found["vector_floor"] = Yardstick(vector.first.again, multiply_adds=vector.multiply_adds)
        found["pallas_2d"] = pallas_on_device(grey, "2d")
        found["pallas_separable"] = pallas_on_device(grey, "separable")
    return found


@dataclass(frozen=True)
class Spent:
    """What one call cost: its wall-clock seconds, the process's CPU seconds in the kernel
    meanwhile (all its threads'), and the page faults the kernel served it. None where the
    system does not count them (Windows; page faults: counts_page_faults)."""

    seconds: float
    kernel_seconds: float | None
    page_faults: int | None


def spent_on(call: Callable[[], object]) -> Spent:
    """`call()` timed, with the kernel's part of it: memory the process touches for the first
    time since the kernel gave it (a fresh output buffer) costs a page fault a page, served
    in the kernel; on some virtual machines that is most of a copy's time. The kernel's share
    is sampled at the scheduler's tick (a few ms): telling for calls of tens of ms, 0 or a
    tick for a quick one."""
    before = _kernel_counts()
    start = time.perf_counter()
    call()
    seconds = time.perf_counter() - start
    after = _kernel_counts()
    if before is None or after is None:
        return Spent(seconds, None, None)
    faults = after[1] - before[1] if counts_page_faults() else None
    return Spent(seconds, after[0] - before[0], faults)


@functools.cache
def counts_page_faults() -> bool:
    """Whether this system counts a process's page faults: memory new to the process, written
    page by page, must add to them. A sandbox's kernel may not (gVisor, under which the TPU
    machine runs, says 0 whatever the process touches), and 0 there is not a measurement."""
    before = _kernel_counts()
    if before is None:
        return False
    pages = 256
    try:
        with mmap.mmap(-1, pages * mmap.PAGESIZE) as fresh:
            for page in range(pages):
                fresh[page * mmap.PAGESIZE] = 1
    except OSError:  # no memory to map (a strict RLIMIT_AS): nothing to tell by
        return False
    after = _kernel_counts()
    return after is not None and after[1] - before[1] >= pages // 2


def _kernel_counts() -> tuple[float, int] | None:
    """The process's CPU seconds in the kernel and its page faults served without reading a
    file, so far (getrusage); None where there is no getrusage."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_stime, usage.ru_minflt


def yardsticks(
    megapixels: float,
    rounds: int,
    kernel_size: int = YARDSTICK_KERNEL_SIZE,
    sigma: float = DEFAULT_SIGMA,
) -> dict:
    """Every entry of ENTRIES on a synthetic image of `megapixels` (grey, and in colour),
    timed in `rounds` interleaved rounds after one untimed call each; RATIOS from the medians."""
    grey = synthetic_image(megapixels)
    colour = synthetic_image(megapixels, channels=3)
    functions, missing, versions = yardstick_functions(grey, colour, kernel_size, sigma)
    # The untimed call (JAX-jit's first, in ENTRIES order): each output checked against
    # JAX-jit's for the same algorithm, then let go (a 24 MP image's outputs would otherwise all
    # be held through the rounds).
    differences: dict[str, float | None] = {}
    references: dict[str, np.ndarray] = {}
    compared_with = {yardstick.same_as for yardstick in functions.values()}
    for key, yardstick in functions.items():
        result = yardstick.call()
        if key in compared_with and yardstick.output is not None:
            references[key] = yardstick.output(result)
        elif yardstick.output is not None and yardstick.same_as is not None:
            reference = references.get(yardstick.same_as)
            output = yardstick.output(result)
            differences[key] = None if reference is None else max_abs_difference(output, reference)
            del output
        del result
    references.clear()
    spent: dict[str, list[Spent]] = {key: [] for key in functions}
    for _ in range(rounds):
        for key, yardstick in functions.items():
            spent[key].append(spent_on(yardstick.call))
    times = {key: [each.seconds for each in calls] for key, calls in spent.items()}
    # The blurs' multiply-adds, counted by their algorithm (blurapp.core.kernel).
    algorithms: dict[str, Algorithm] = {
        "jax_2d": "2d",
        "jax_separable": "separable",
        "opencv_filter2d": "2d",
        "pallas_2d": "2d",
        "pallas_separable": "separable",
    }
    counted = {
        key: grey.size * multiply_adds_per_pixel(kernel_size, algorithm)
        for key, algorithm in algorithms.items()
    }
    entries: dict[str, dict | None] = {}
    for key, _ in ENTRIES:
        if key not in functions:
            if key not in ON_A_TPU:  # missing, and missing says why
                entries[key] = None
            continue
        entries[key] = {
            "median_seconds": statistics.median(times[key]),
            "min_seconds": min(times[key]),
            "max_seconds": max(times[key]),
            "round_seconds": times[key],
            "max_abs_diff": differences.get(key),
            "compared_with": functions[key].same_as,
            "multiply_adds": functions[key].multiply_adds or counted.get(key),
            **_kernel_part(spent[key]),
        }
    # The ratios of the entries there are (an entry left out here leaves its ratios out).
    shown = [ratio for ratio in RATIOS if {ratio.numerator, ratio.denominator} <= entries.keys()]
    return {
        "megapixels": grey.size / 1e6,
        "width": int(grey.shape[1]),
        "height": int(grey.shape[0]),
        "kernel_size": kernel_size,
        "sigma": sigma,
        "rounds": rounds,
        "jax_device": versions.get("jax_device"),
        "opencv": versions.get("opencv"),
        "scipy": versions.get("scipy"),
        "entries": entries,
        "missing": missing,
        "ratios": {ratio.key: _ratio(entries, ratio) for ratio in shown},
        "goals": {ratio.key: ratio.goal for ratio in shown},
        "floor_rates": _floor_rates(entries),
    }


def _floor_rates(entries: dict[str, dict | None]) -> dict[str, float]:
    """Each compute floor's rate that was timed: float32 multiply-adds a second at its
    quickest round (a floor is what the device can do)."""
    rates = {}
    for key in FLOORS:
        entry = entries.get(key)
        if entry is not None and entry["min_seconds"] > 0:
            rates[key] = entry["multiply_adds"] / entry["min_seconds"]
    return rates


def _kernel_part(calls: list[Spent]) -> dict[str, float | None]:
    """The median call's time in the kernel and page faults, over the rounds (None: not
    counted on this system)."""
    kernel = [each.kernel_seconds for each in calls if each.kernel_seconds is not None]
    faults = [each.page_faults for each in calls if each.page_faults is not None]
    return {
        "median_kernel_seconds": statistics.median(kernel) if kernel else None,
        "median_page_faults": statistics.median(faults) if faults else None,
    }


def _ratio(entries: dict[str, dict | None], ratio: Ratio) -> float | None:
    numerator, denominator = entries[ratio.numerator], entries[ratio.denominator]
    if numerator is None or denominator is None or denominator["median_seconds"] <= 0:
        return None
    if ratio.per_multiply_add:
        per_numerator = numerator["median_seconds"] / numerator["multiply_adds"]
        return per_numerator / (denominator["min_seconds"] / denominator["multiply_adds"])
    return numerator["median_seconds"] / denominator["median_seconds"]
