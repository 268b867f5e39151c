"""Run several engines on one photo and kernel, each timed on its own, and compare each
engine's output with the reference engine's (NumPy's)."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import statistics
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from blurapp.core.engines import (
    DEFAULT_ENGINES,
    REFERENCE_ENGINE,
    Engine,
    UnknownEngineError,
    get_engine,
)
from blurapp.core.engines.gemm import GEMM_CALLS
from blurapp.core.engines.jax_runtime import JaxUnavailableError
from blurapp.core.engines.runs import BlurCancelled, Cancelled, EngineRun, FirstCall, Progress
from blurapp.core.engines.timing import first_call_run, time_engines
from blurapp.core.kernel import (
    DEFAULT_ALGORITHM,
    Algorithm,
    multiply_adds_per_pixel,
)
from blurapp.core.measuring.contention import (
    Conditions,
    Verdict,
    conditions_of,
    judge,
    watch_machine,
)
from blurapp.core.measuring.floors import (
    CallFloor,
    CallOn,
    ComputeFloor,
    CopyOn,
    Floor,
    ProductOn,
    bandwidth_gb_s,
    call_floor,
    compute_floor,
    copy_floor,
    first_copies,
    first_empty_calls,
    first_products,
    mostly_the_call,
)
from blurapp.core.spec import BlurSpec

if TYPE_CHECKING:
    from blurapp.core.measuring.profiler_trace import SteadyTrace

log = logging.getLogger(__name__)

# Engines sum the same float32 products in different orders; they must agree this closely.
TOLERANCE = 1e-5
# A speed-up is taken round by round, and its spread told, once the two engines shared this
# many timing rounds: fewer (a large photo's slow NumPy is timed once or twice) say too little.
MIN_SPREAD_ROUNDS = 3
# What `compare_engines` reports progress for while it times the engines' steady calls, in place of
# an engine's name.
TIMING = "timing"


class Watch:
    """Whoever follows a comparison while it runs: told how far it has got and each engine's
    output as it comes, and asked between steps whether to stop (`cancelled`, the function
    given: never, without one). Each of the other methods does nothing here; a caller that
    follows more overrides them."""

    def __init__(self, cancelled: Cancelled | None = None) -> None:
        self._cancelled = cancelled

    def cancelled(self) -> bool:
        """Whether to stop now: compare_engines raises BlurCancelled at its next check."""
        return self._cancelled is not None and self._cancelled()

    def progress(self, step: str, done: int, total: int) -> None:
        """`step` (an engine's name: its taps; TIMING: the steady calls) has done `done` of
        `total`."""

    def engine_started(self, engine: str) -> None:
        """`engine`'s first call begins: an engine that compiles may report no progress until
        it is done."""

    def output(self, engine: str, run: EngineRun) -> None:
        """`engine`'s first call is done (`run` holds it alone) while its steady calls are
        still to be timed: a view can show its output while the next engine computes."""

    def engine_done(self, engine: str, run: EngineRun | None, error: str | None) -> None:
        """`engine`'s figures are final: its run, or why it has none."""


class LedByJit:
    """What a photo's comparison and a clip's (blurapp.core.measuring.clip_comparison) share:
    each engine's run or why it has none, how far its output is from the reference's, the
    machine while they were timed, and the headline: the speedup of the first engine that ran
    (or failed) that JAX compiles (JAX-jit, in the tutorial's pair) over the reference. Each
    says how it times an engine (speedup_of, end_to_end_speedup_of)."""

    runs: Mapping[str, EngineRun]
    errors: Mapping[str, str]  # engine → why, in a user's words
    engines: Mapping[str, Engine]
    reference: str
    conditions: Conditions | None  # the machine while the engines were timed

    if TYPE_CHECKING:
        # Read only: a photo's works it out when first asked for, a clip's is a field.
        @property
        def differences(self) -> Mapping[str, float]:
            """engine → max |its output − the reference's|."""

    def speedup_of(self, engine: str) -> float | None:
        raise NotImplementedError

    def end_to_end_speedup_of(self, engine: str) -> float | None:
        raise NotImplementedError

    def engine(self, name: str) -> Engine:
        """The engine a run or error of this result came from."""
        return self.engines.get(name) or get_engine(name)

    @property
    def jit_engine(self) -> str | None:
        """The engine this comparison leads with beside the reference. None: no such engine."""
        for name in [*self.runs, *self.errors]:
            try:
                engine = self.engine(name)
            except UnknownEngineError:
                continue
            if engine.jitted:
                return name
        return None

    @property
    def speedup(self) -> float | None:
        return self.speedup_of(self.jit_engine) if self.jit_engine else None

    @property
    def end_to_end_speedup(self) -> float | None:
        return self.end_to_end_speedup_of(self.jit_engine) if self.jit_engine else None

    def agrees(self, engine: str) -> bool | None:
        """Whether `engine`'s output is within TOLERANCE of the reference's (None: unknown)."""
        diff = self.differences.get(engine)
        return None if diff is None else diff <= TOLERANCE

    # The jit engine's figures, by the names the window and the JSON have always used.
    @property
    def max_abs_diff(self) -> float | None:
        return self.differences.get(self.jit_engine) if self.jit_engine else None

    @property
    def within_tolerance(self) -> bool | None:
        return self.agrees(self.jit_engine) if self.jit_engine else None

    @property
    def verdict(self) -> Verdict | None:
        """The signs of a busy machine while the engines were timed (None: none were timed)."""
        return judge(self.conditions) if self.conditions is not None else None

    @property
    def noisy(self) -> bool:
        """Whether another program (or anything else) disturbed the timing enough that the
        figures cannot be trusted."""
        verdict = self.verdict
        return verdict is not None and verdict.noisy

    @property
    def noisy_reason(self) -> str | None:
        """Why the figures cannot be trusted, in English words; None when they can."""
        verdict = self.verdict
        return None if verdict is None else verdict.reason(title=self._title)

    def _title(self, name: str) -> str:
        try:
            return self.engine(name).title
        except UnknownEngineError:
            return name


@dataclass(frozen=True, eq=False)
class ComparisonResult(LedByJit):
    """Each engine's run (in the order they ran) or why it has none, and each run's largest
    difference from the reference engine's output."""

    kernel: np.ndarray  # k×k for the 2-D algorithm, k weights for the separable one
    sigma: float
    algorithm: Algorithm = DEFAULT_ALGORITHM
    runs: Mapping[str, EngineRun] = field(default_factory=dict)
    errors: Mapping[str, str] = field(default_factory=dict)  # engine → why, in a user's words
    reference: str = REFERENCE_ENGINE
    # The engines that ran, by name (registered or not); others are looked up in the registry.
    engines: Mapping[str, Engine] = field(default_factory=dict)
    # Each device's floor, in the order the engines ran on them; empty when nothing was timed.
    floors: tuple[Floor, ...] = ()
    # Each device's compute floor, in the same order; empty when nothing was timed.
    compute_floors: tuple[ComputeFloor, ...] = ()
    # Each device's call floor (an empty call), of those with one; empty when none was timed.
    call_floors: tuple[CallFloor, ...] = ()
    # The machine while the engines were timed (None: nothing was timed).
    conditions: Conditions | None = None

    @functools.cached_property
    def differences(self) -> Mapping[str, float]:
        """engine → max |run − reference|. Worked out when first asked for, not as the result
        is made: the window's live preview never shows it, and a 24 MP difference took the
        worker 140 ms after NumPy's preview, which the next change of the slider waited for.
        The window reads it on its own thread: blurapp.app.jobs.compare_job reads it first, on
        the worker, for every timed run."""
        reference = self.runs.get(self.reference)
        differences = {}
        if reference is not None:
            for name, run in self.runs.items():
                if name != self.reference:
                    differences[name] = max_abs_difference(reference.output, run.output)
        return differences

    @property
    def kernel_size(self) -> int:
        return int(self.kernel.shape[0])

    @property
    def channels(self) -> int:
        """The channels blurred: 1 for grey, 3 for colour (R, G, B)."""
        for run in self.runs.values():
            return int(run.output.shape[2]) if run.output.ndim == 3 else 1
        return 1

    def speedup_of(self, engine: str) -> float | None:
        """How many times quicker `engine`'s steady call is than the reference's: the median of
        the round-by-round speed-ups (round_speedups_of) over MIN_SPREAD_ROUNDS rounds or more,
        else the reference's median steady seconds ÷ `engine`'s.

        Round by round, because the rounds interleave the engines so that a busy moment falls
        on both alike: divided in the round it fell in, it cancels, where two medians taken
        apart keep it, and launches' figures land further apart (docs/timing.md)."""
        paired = self.round_speedups_of(engine)
        if len(paired) >= MIN_SPREAD_ROUNDS:
            return statistics.median(paired)
        reference, run = self.runs.get(self.reference), self.runs.get(engine)
        if reference is None or run is None or run.seconds <= 0:
            return None
        return reference.seconds / run.seconds

    def round_speedups_of(self, engine: str, *, end_to_end: bool = False) -> list[float]:
        """The speed-up round by round: in each timing round that both timed, the reference's
        median sample ÷ `engine`'s, in the order of the rounds (empty: rounds not kept).
        `end_to_end`: with each engine's copies to and from its device."""
        reference, run = self.runs.get(self.reference), self.runs.get(engine)
        if reference is None or run is None:
            return []
        theirs = reference.round_seconds(end_to_end=end_to_end)
        ours = run.round_seconds(end_to_end=end_to_end)
        return [theirs[r] / ours[r] for r in sorted(theirs.keys() & ours.keys()) if ours[r] > 0]

    def speedup_spread_of(self, engine: str) -> tuple[float, float] | None:
        """The middle half (first and third quartile) of the round-by-round speed-ups: how far
        the speed-up moved while the engines were timed, and so how far another run can be
        expected to land from this one's (a quick engine's time moves with whether the
        machine's other cores are free; see docs/timing.md). None: fewer than
        MIN_SPREAD_ROUNDS rounds shared."""
        speedups = self.round_speedups_of(engine)
        if len(speedups) < MIN_SPREAD_ROUNDS:
            return None
        first, _, third = statistics.quantiles(speedups, n=4, method="inclusive")
        return first, third

    @property
    def speedup_spread(self) -> tuple[float, float] | None:
        """The jit engine's speedup_spread_of."""
        return self.speedup_spread_of(self.jit_engine) if self.jit_engine else None

    def end_to_end_speedup_of(self, engine: str) -> float | None:
        """As speedup_of, with each engine's copies to and from its device counted: what a
        caller holding the photo in memory gains."""
        paired = self.round_speedups_of(engine, end_to_end=True)
        if len(paired) >= MIN_SPREAD_ROUNDS:
            return statistics.median(paired)
        reference, run = self.runs.get(self.reference), self.runs.get(engine)
        if reference is None or run is None or run.end_to_end_seconds <= 0:
            return None
        return reference.end_to_end_seconds / run.end_to_end_seconds

    def floor_of(self, engine: str) -> Floor | None:
        """The copy of the photo on `engine`'s device, timed with it (None: not measured)."""
        run = self.runs.get(engine)
        if run is None:
            return None
        return next((floor for floor in self.floors if floor.device == run.device), None)

    @property
    def floor_seconds(self) -> float | None:
        """The median copy of the photo on the reference's device (on the first engine's, when
        the reference did not run): the least any blur there can take."""
        for name in [self.reference, *self.runs]:
            floor = self.floor_of(name)
            if floor is not None:
                return floor.seconds
        return None

    def floor_multiple_of(self, engine: str) -> float | None:
        """`engine`'s median steady time as a multiple of one copy of the photo on its device."""
        run, floor = self.runs.get(engine), self.floor_of(engine)
        if run is None or floor is None or floor.seconds <= 0:
            return None
        return run.seconds / floor.seconds

    def call_floor_of(self, engine: str) -> CallFloor | None:
        """The empty call on `engine`'s device, timed with it, for an engine whose calls are
        of that kind (Floors.empty_call: JAX-jit's); None otherwise, or not measured."""
        run = self.runs.get(engine)
        if run is None or self.engine(engine).floors.empty_call is None:
            return None
        return next((floor for floor in self.call_floors if floor.device == run.device), None)

    def call_floor_multiple_of(self, engine: str) -> float | None:
        """`engine`'s median steady time as a multiple of an empty call on its device."""
        run, floor = self.runs.get(engine), self.call_floor_of(engine)
        if run is None or floor is None or floor.seconds <= 0:
            return None
        return run.seconds / floor.seconds

    def mostly_the_call(self, engine: str) -> bool:
        """Whether `engine`'s steady time is mostly the call itself (floors.mostly_the_call):
        the photo is too small for its device to matter."""
        run = self.runs.get(engine)
        return run is not None and mostly_the_call(run.seconds, self.call_floor_of(engine))

    @property
    def multiply_adds(self) -> int:
        """The multiply-adds of this blur, counted by its algorithm (see
        blurapp.core.kernel.multiply_adds_per_pixel), over every pixel of every channel."""
        for run in self.runs.values():
            values = run.output.size
            break
        else:
            return 0
        return values * multiply_adds_per_pixel(self.kernel_size, self.algorithm)

    def compute_floor_of(self, engine: str) -> ComputeFloor | None:
        """The compute floor of `engine`'s device, timed after it (None: not measured)."""
        run = self.runs.get(engine)
        if run is None:
            return None
        return next((floor for floor in self.compute_floors if floor.device == run.device), None)

    def compute_floor_seconds_of(self, engine: str) -> float | None:
        """This blur's multiply-adds at the rate of `engine`'s device's compute floor."""
        floor = self.compute_floor_of(engine)
        return None if floor is None else floor.seconds_for(self.multiply_adds)

    @property
    def compute_floor_seconds(self) -> float | None:
        """This blur's multiply-adds at the rate of the reference's device (of the first
        engine's, when the reference did not run): the least its arithmetic can take there."""
        for name in [self.reference, *self.runs]:
            seconds = self.compute_floor_seconds_of(name)
            if seconds is not None:
                return seconds
        return None

    def compute_multiple_of(self, engine: str) -> float | None:
        """`engine`'s median steady time as a multiple of its compute floor."""
        run, floor = self.runs.get(engine), self.compute_floor_seconds_of(engine)
        if run is None or not floor:
            return None
        return run.seconds / floor

    def gflop_s_of(self, engine: str) -> float | None:
        """`engine`'s arithmetic in GFLOP/s: this blur's multiply-adds (two operations each)
        in its median steady time."""
        run = self.runs.get(engine)
        if run is None or run.seconds <= 0 or not self.multiply_adds:
            return None
        return 2 * self.multiply_adds / run.seconds / 1e9

    def bandwidth_of(self, engine: str) -> float | None:
        """`engine`'s effective bandwidth in GB/s: the photo read once and its output written
        once, in its median steady time (the copies to and from a device not counted)."""
        run = self.runs.get(engine)
        return None if run is None else bandwidth_gb_s(run.output.nbytes, run.seconds)

    @property
    def reference_run(self) -> EngineRun | None:
        return self.runs.get(self.reference)

    @property
    def jit_run(self) -> EngineRun | None:
        return self.runs.get(self.jit_engine) if self.jit_engine else None

    @property
    def jit_error(self) -> str | None:
        return self.errors.get(self.jit_engine) if self.jit_engine else None


def json_key(engine: str) -> str:
    """The key of the engine called `engine` in `compare --json` and the benchmark's rows: its
    name with "-" and "@" made "_" (jax-eager → jax_eager, jax@gpu → jax_gpu), a name a
    script can write as an attribute."""
    return engine.replace("-", "_").replace("@", "_")


def engine_dict(result: ComparisonResult, name: str) -> dict:
    """One engine's figures as plain data, the same shape for every engine: what
    `compare --json` prints under the engine's key and the benchmark keeps per row."""
    run = result.runs.get(name)
    return {
        "seconds": run.seconds if run else None,  # the median steady call
        "seconds_all": list(run.repeat_seconds) if run else None,  # every sample
        "calls_per_sample": run.calls_per_sample if run else None,
        "seconds_quartiles": list(run.quartiles) if run else None,
        "end_to_end_seconds": run.end_to_end_seconds if run else None,
        # The bands the steady calls' end to end cut the photo into (1: one copy each way;
        # None: the engine copies nothing).
        "end_to_end_bands": run.bands if run and run.to_device_seconds is not None else None,
        "first_call_seconds": run.first_call_seconds if run else None,
        "compiled": run.compiled if run else None,
        "compilation": str(run.compilation) if run and run.compilation else None,
        # The first call taken apart, when it got its program (None otherwise).
        "first_call_parts": parts.as_dict() if run and (parts := run.first_call_parts) else None,
        "to_device_seconds": run.to_device_seconds if run else None,
        "from_device_seconds": run.from_device_seconds if run else None,
        "device": run.device if run else None,
        "floor_seconds": floor.seconds if (floor := result.floor_of(name)) else None,
        "floor_multiple": result.floor_multiple_of(name),
        "bandwidth_gb_s": result.bandwidth_of(name),
        "compute_floor_seconds": result.compute_floor_seconds_of(name),
        "compute_floor_multiple": result.compute_multiple_of(name),
        "gflop_s": result.gflop_s_of(name),
        "call_floor_seconds": call.seconds if (call := result.call_floor_of(name)) else None,
        "call_floor_multiple": result.call_floor_multiple_of(name),
        # Its steady time mostly the call itself: the photo too small for the device to matter.
        "mostly_the_call": result.mostly_the_call(name) if run else None,
        # The middle half of the speed-up taken round by round (None: too few rounds).
        "speedup_spread": (
            None if name == result.reference else _listed(result.speedup_spread_of(name))
        ),
        # The timing round of each of seconds_all, to divide engines round by round.
        "sample_rounds": list(run.sample_rounds) if run else None,
        **against_reference_dict(result, name),
    }


def against_reference_dict(result: LedByJit, name: str) -> dict:
    """The end of each engine's object in a comparison's JSON, a photo's or a clip's: its
    speed-ups over the reference (None for the reference itself), its largest difference from
    the reference's output, and why it has no run."""
    reference = name == result.reference
    return {
        "speedup": None if reference else result.speedup_of(name),
        "speedup_end_to_end": None if reference else result.end_to_end_speedup_of(name),
        "max_abs_diff": result.differences.get(name),
        "within_tolerance": result.agrees(name),
        "error": result.errors.get(name),
    }


def headline_dict(result: LedByJit) -> dict:
    """The jit engine's figures at the top level of a comparison's JSON, a photo's or a clip's,
    as `compare --json` has always given them: its speedups (steady, and end to end with the
    copies), its difference from the reference, and whether the times can be trusted."""
    return {
        "speedup": result.speedup,
        "speedup_end_to_end": result.end_to_end_speedup,
        "max_abs_diff": result.max_abs_diff,
        "within_tolerance": result.within_tolerance,
        "noisy": result.noisy,
        "noisy_reason": result.noisy_reason,
    }


def kernel_dict(size: int, sigma: float, algorithm: Algorithm) -> dict:
    """The kernel as a comparison's JSON gives it, a photo's or a clip's."""
    return {"size": size, "sigma": sigma, "algorithm": algorithm}


def comparison_dict(result: ComparisonResult) -> dict:
    """The whole comparison as plain data: the kernel, one object per engine under its JSON
    key (numpy, jax, jax_eager, …), and the jit engine's speedups (steady, and end to end with the
    copies) and difference at the top level, as `compare --json` has always given them."""
    data: dict = {
        "kernel": {
            **kernel_dict(result.kernel_size, result.sigma, result.algorithm),
            "multiply_adds_per_pixel": multiply_adds_per_pixel(
                result.kernel_size, result.algorithm
            ),
        }
    }
    for name in [*result.runs, *result.errors]:
        data[json_key(name)] = engine_dict(result, name)
    data.update(
        headline_dict(result),
        speedup_spread=_listed(result.speedup_spread),
        floor_seconds=result.floor_seconds,
        floors={
            floor.device: {
                "seconds": floor.seconds,
                "seconds_quartiles": list(floor.quartiles),
                "bandwidth_gb_s": floor.bandwidth_gb_s,
            }
            for floor in result.floors
        },
        compute_floor_seconds=result.compute_floor_seconds,
        compute_floors={
            floor.device: {
                "gflop_s": floor.gflop_s,
                "product_seconds": floor.product_seconds,
                "matrix_size": floor.size,
                "products_timed": floor.samples,
                # The products on a unit the blur does not use (a TPU's matrix unit).
                "matrix_unit": floor.on_a_matrix_unit,
            }
            for floor in result.compute_floors
        },
        call_floors={
            floor.device: {
                "seconds": floor.seconds,
                "seconds_quartiles": list(floor.quartiles),
            }
            for floor in result.call_floors
        },
    )
    return data


def _listed(pair: tuple[float, float] | None) -> list[float] | None:
    return None if pair is None else list(pair)


def _abs_difference_blocks(a: np.ndarray, b: np.ndarray):
    """(rows, |a − b| in float64) a block of rows at a time, so memory stays flat."""
    if a.shape != b.shape:
        raise ValueError(f"cannot compare outputs of shapes {a.shape} and {b.shape}")
    rows_per_block = max(1, (1 << 20) // max(1, int(np.prod(a.shape[1:]))))
    for start in range(0, a.shape[0], rows_per_block):
        rows = slice(start, start + rows_per_block)
        yield rows, np.abs(a[rows].astype(np.float64) - b[rows].astype(np.float64))


def max_abs_difference(a: np.ndarray, b: np.ndarray) -> float:
    """max |a − b| computed in float64."""
    return max(
        (float(diff.max()) for _, diff in _abs_difference_blocks(a, b) if diff.size), default=0.0
    )


def difference_picture(
    a: np.ndarray, b: np.ndarray, largest: float | None = None
) -> tuple[np.ndarray, float]:
    """|a − b| as a uint8 picture scaled so the largest difference is white, and that largest
    difference (0 when the two are identical, and the picture is then black). For colour
    (height × width × channels) each pixel shows its largest difference over the channels:
    one grey picture, where a difference in any channel shows.

    Pass `largest` when it is known already (a ComparisonResult's max_abs_diff) to save a pass.
    """
    if largest is None:
        largest = max_abs_difference(a, b)
    picture = np.zeros(a.shape[:2], dtype=np.uint8)
    if largest > 0:
        for rows, diff in _abs_difference_blocks(a, b):
            if diff.ndim == 3:
                diff = diff.max(axis=2)
            picture[rows] = np.rint(diff * (255 / largest))
    return picture, largest


def describe_failure(engine: Engine, error: Exception) -> str:
    """Why an engine's run failed, in a user's words: JAX that cannot start says so itself, and
    running out of memory is told apart."""
    if isinstance(error, JaxUnavailableError):
        return str(error)
    if isinstance(error, MemoryError) or "RESOURCE_EXHAUSTED" in str(error):
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        return (
            f"{engine.title} ran out of memory for this photo "
            f"({first_line or type(error).__name__})"
        )
    return f"{engine.title} failed: {type(error).__name__}: {error}"


def compare_engines(
    image: np.ndarray,
    spec: BlurSpec | None = None,
    *,
    repeats: int | None = None,
    engines: Collection[str | Engine] = DEFAULT_ENGINES,
    device: str = "auto",
    watch: Watch | None = None,
    trace: SteadyTrace | None = None,
) -> ComparisonResult:
    """Blur `image` as `spec` says (its kernel; None: the default BlurSpec) with each of
    `engines` (names or Engines) and time them alike.

    Each engine makes its first call in turn; then their steady calls are timed together,
    interleaved (blurapp.core.engines.timing): `repeats` of each, or as many as each needs when
    None; 0 times none, for the outputs alone. An engine that fails (JAX not installed, out of
    device memory, a compile error) does not stop the others: its reason is in `errors`. Each
    device an engine ran on gets its floors: one copy of the image (`floors`), timed with the
    engines, and a matrix product's rate (`compute_floors`), timed after them.

    `watch` follows the comparison (see Watch): BlurCancelled is raised once
    `watch.cancelled()` turns True; `watch.progress(engine, done, total)` reports taps, then
    `watch.progress(TIMING, calls done, calls in all)` the timing. `watch.engine_done(engine,
    run, error)` comes as each engine's figures are final: with `repeats=0` as each finishes its
    first call; otherwise once the timing is done, and `watch.output(engine, run)` before that,
    as each engine's first call is done. `device` is the platform of the JAX engines ("auto",
    "cpu", "gpu").

    `trace` (a profiler trace, blurapp.core.measuring.profiler_trace) is entered around the
    steady calls alone, not the first calls, each steady call labelled 'ENGINE steady call'.
    """
    spec = BlurSpec() if spec is None else spec
    kernel = spec.kernel
    # The machine's use over the whole comparison, first calls included: over the steady
    # calls alone, a small photo's timing lasted too little for the kernel's counters.
    stop_watching = watch_machine()
    first_calls: dict[str, FirstCall] = {}
    errors: dict[str, str] = {}
    chosen: dict[str, Engine] = {}
    cancelled = None if watch is None else watch.cancelled
    for engine in engines:
        engine = get_engine(engine) if isinstance(engine, str) else engine
        chosen[engine.name] = engine
        if watch is not None:
            watch.engine_started(engine.name)
        first = _first_call(engine, image, kernel, device, watch, errors)
        if first is not None:
            first_calls[engine.name] = first
        if watch is None:
            continue
        if repeats == 0:
            run = first_call_run(first) if first else None
            watch.engine_done(engine.name, run, errors.get(engine.name))
        elif first is not None:
            watch.output(engine.name, first_call_run(first))

    def failed(timed: str | CopyOn | CallOn | ProductOn, error: Exception) -> None:
        if isinstance(timed, CopyOn):
            log.warning("the copy of the photo on %s failed", timed.device, exc_info=error)
            return
        if isinstance(timed, CallOn):
            log.warning("the empty call on %s failed", timed.device, exc_info=error)
            return
        if isinstance(timed, ProductOn):
            log.warning("the matrix product on %s failed", timed.device, exc_info=error)
            return
        log.warning("the %s engine failed", chosen[timed].title, exc_info=error)
        errors[timed] = describe_failure(chosen[timed], error)

    copies = {} if repeats == 0 else first_copies(image, chosen, first_calls, device)
    calls = {} if repeats == 0 else first_empty_calls(chosen, first_calls, device)
    # The engines, the copies and the empty calls, timed together in the same rounds.
    timed: dict[str | CopyOn | CallOn | ProductOn, FirstCall] = dict(
        [*first_calls.items(), *copies.items(), *calls.items()]
    )
    caps: dict[str | CopyOn | CallOn | ProductOn, int | None] = {
        name: engine.max_repeats for name, engine in chosen.items()
    }
    if trace is not None:
        timed = {
            key: dataclasses.replace(first, again=trace.label(_steady_call_name(key), first.again))
            for key, first in timed.items()
        }
    with trace if trace is not None else contextlib.nullcontext():
        times = time_engines(
            timed,
            repeats=repeats,
            max_repeats=caps,
            cancelled=cancelled,
            failed=failed,
            progress=None if watch is None else functools.partial(watch.progress, TIMING),
        )
    machine = stop_watching()
    # The matrix products after the engines, not among them: a BLAS's threads spin for a while
    # after its product returns, which took a core from the engine timed next and counted as
    # that engine's CPU time, the measure of whether another program had the cores.
    products = {} if repeats == 0 else first_products(chosen, first_calls, device)
    products_machine = None
    if products:
        stop_watching_products = watch_machine()
        times = {
            **times,
            **time_engines(
                dict(products.items()),
                repeats=repeats,
                max_repeats=dict.fromkeys(products, GEMM_CALLS),
                cancelled=cancelled,
                failed=failed,
            ),
        }
        products_machine = stop_watching_products()
    runs = {name: times[name] for name in chosen if name in times}
    floors = tuple(copy_floor(copy.device, times[copy]) for copy in copies if copy in times)
    call_floors = tuple(call_floor(call.device, times[call]) for call in calls if call in times)
    compute_floors = tuple(
        compute_floor(product, times[product], products[product])
        for product in products
        if product in times
    )
    if repeats != 0 and watch is not None:
        for name in chosen:
            watch.engine_done(name, runs.get(name), errors.get(name))
    return ComparisonResult(
        kernel=kernel,
        sigma=spec.sigma,
        algorithm=spec.algorithm,
        runs=runs,
        errors={name: errors[name] for name in chosen if name in errors},
        engines=chosen,
        floors=floors,
        compute_floors=compute_floors,
        call_floors=call_floors,
        conditions=(
            None
            if repeats == 0
            else conditions_of(runs, machine, trace is not None, products_machine)
        ),
    )


def _steady_call_name(timed: str | CopyOn | CallOn | ProductOn) -> str:
    """A steady call's label in a trace: 'jax steady call', 'copy on gpu steady call',
    'empty call on tpu: TPU v5 lite steady call', 'matrix product on cpu steady call'."""
    if isinstance(timed, CopyOn):
        return f"copy on {timed.device} steady call"
    if isinstance(timed, CallOn):
        return f"empty call on {timed.device} steady call"
    if isinstance(timed, ProductOn):
        return f"matrix product on {timed.device} steady call"
    return f"{timed} steady call"


def _first_call(
    engine: Engine,
    image: np.ndarray,
    kernel: np.ndarray,
    device: str,
    watch: Watch | None,
    errors: dict[str, str],
) -> FirstCall | None:
    """`engine`'s first call, or None with the reason in `errors`."""
    try:
        return engine.start(
            image,
            kernel,
            device=device,
            progress=None if watch is None else _for_engine(watch, engine.name),
            cancelled=None if watch is None else watch.cancelled,
        )
    except BlurCancelled:
        raise
    except JaxUnavailableError as failure:
        log.warning("%s", failure, exc_info=True)
        errors[engine.name] = describe_failure(engine, failure)
    except Exception as failure:
        if engine.name == REFERENCE_ENGINE and isinstance(failure, MemoryError):
            raise  # the photo itself does not fit: nothing to compare
        log.warning("the %s engine failed", engine.title, exc_info=True)
        errors[engine.name] = describe_failure(engine, failure)
    return None


def _for_engine(watch: Watch, engine: str) -> Progress:
    return functools.partial(watch.progress, engine)
