"""The scaling sweep: the comparison run on one photo resampled to a range of sizes, so time
can be read against megapixels for every engine.

The photo is resampled both down and up. An engine's time depends on how many pixels it
blurs, not on what they show, so a photo enlarged to 24 MP costs what a 24 MP photo costs; a
sweep that stopped at the photo's own size would show no scaling for the bundled 0.24 MP
sample. The photo's own size is one of the points, unresampled: the size the window's
comparison measures.

A sweep also says from which size JAX-jit beats NumPy (its break-even size, see
sweep_break_even), by the steady calls and end to end: where the speed-up each size shows
crosses 1×, so that every size at or beyond the break-even shows a speed-up above 1×.
"""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, NamedTuple

import numpy as np
from PIL import Image

from blurapp.core.engines import (
    DEFAULT_ENGINES,
    REFERENCE_ENGINE,
    Engine,
    UnknownEngineError,
    get_engine,
)
from blurapp.core.engines.levels import stored_levels
from blurapp.core.engines.runs import BlurCancelled, Compilation, FirstCallParts
from blurapp.core.kernel import (
    DEFAULT_ALGORITHM,
    DEFAULT_KERNEL_SIZE,
    DEFAULT_SIGMA,
    Algorithm,
    KernelSize,
)
from blurapp.core.measuring.comparison import Watch, compare_engines
from blurapp.core.media.pixels import round_to_levels
from blurapp.core.media.saving import write_atomically
from blurapp.core.platforms import on_accelerator, platform_in_words
from blurapp.core.spec import BlurSpec
from blurapp.core.wording import QT_TRANSLATE_NOOP, TranslateText, english

# Log-spaced, from a thumbnail to a 24 MP camera's photo (6000 × 4000).
SWEEP_MEGAPIXELS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 24.0)
DEFAULT_MAX_MEGAPIXELS = 24.0
# Sizes closer than this factor add nothing a log axis can show: the photo's own size takes
# the place of a ladder size this near it.
_NEAR = 1.2


@dataclass(frozen=True)
class SweepSize:
    height: int
    width: int
    resampled: bool = True  # False: the photo at its own size

    @property
    def megapixels(self) -> float:
        return self.height * self.width / 1e6


class SweepFirstCall(NamedTuple):
    """A compiled engine's first call at one size: its seconds, how it got its program, the
    device it ran on, and the call taken apart when it got its program (None: not timed
    apart)."""

    seconds: float
    compilation: Compilation
    device: str
    parts: FirstCallParts | None = None


@dataclass(frozen=True)
class SweepPoint:
    """One size of a sweep: each engine's steady seconds (or why it has none), and each
    engine's speed-up over the reference, steady and end to end, as the comparison took it
    (ComparisonResult.speedup_of: round by round when enough rounds were shared, else the
    reference's median seconds ÷ the engine's)."""

    width: int
    height: int
    engines: tuple[str, ...]  # in the order they ran
    seconds: Mapping[str, float]
    errors: Mapping[str, str]
    speedups: Mapping[str, float]  # every engine but the reference that has one
    resampled: bool = True
    reference: str = REFERENCE_ENGINE
    first_calls: Mapping[str, SweepFirstCall] = field(default_factory=dict)  # compiled engines
    # One copy of the photo at this size on the reference's device, timed with the engines:
    # the least any blur of it can take (None: not measured).
    floor_seconds: float | None = None
    # Its multiply-adds at the float32 rate of a matrix product on the same device, timed after
    # the engines: the least its arithmetic can take (None: not measured).
    compute_floor_seconds: float | None = None
    # Each engine's median steady call with its copies to and from its device (its steady
    # seconds for an engine that copies nothing).
    end_to_end_seconds: Mapping[str, float] = field(default_factory=dict)
    # Each engine's speed-up with the copies counted (ComparisonResult.end_to_end_speedup_of),
    # every engine but the reference that has one.
    end_to_end_speedups: Mapping[str, float] = field(default_factory=dict)

    @property
    def megapixels(self) -> float:
        return self.width * self.height / 1e6

    def as_dict(self) -> dict:
        """The point as plain data, for `bench --sweep --json`."""
        return {
            "megapixels": self.megapixels,
            "width": self.width,
            "height": self.height,
            "resampled": self.resampled,
            "floor_seconds": self.floor_seconds,
            "compute_floor_seconds": self.compute_floor_seconds,
            "engines": {name: self._engine_dict(name) for name in self.engines},
        }

    def _engine_dict(self, name: str) -> dict:
        """One engine at this size: its steady seconds, speed-ups (steady and end to end) and
        error, and its first call with how it got its program, worded as `compare --json`
        words them (None for an engine that compiles nothing)."""
        call = self.first_calls.get(name)
        return {
            "seconds": self.seconds.get(name),
            "end_to_end_seconds": self.end_to_end_seconds.get(name),
            "speedup": self.speedups.get(name),
            "speedup_end_to_end": self.end_to_end_speedups.get(name),
            "error": self.errors.get(name),
            "first_call_seconds": call.seconds if call else None,
            "compilation": str(call.compilation) if call else None,
        }


def _near(a: float, b: float) -> bool:
    return max(a, b) < _NEAR * min(a, b)


def sweep_sizes(
    photo_shape: tuple[int, int],
    *,
    max_megapixels: float = DEFAULT_MAX_MEGAPIXELS,
    megapixels: Sequence[float] = SWEEP_MEGAPIXELS,
) -> list[SweepSize]:
    """The sizes a sweep of a photo of `photo_shape` (height, width) runs at, smallest first.

    The sizes of `megapixels` up to `max_megapixels`, then `max_megapixels` itself, and the
    photo's own size when it is no larger; each resampled size keeps the photo's aspect ratio.
    Always at least one size.
    """
    if not math.isfinite(max_megapixels) or max_megapixels <= 0:
        raise ValueError(
            f"the largest size must be a positive number of megapixels, not {max_megapixels}"
        )
    height, width = photo_shape
    own = SweepSize(height, width, resampled=False)
    targets = sorted(mp for mp in megapixels if mp <= max_megapixels * (1 + 1e-9))
    if not targets or (targets[-1] < max_megapixels and not _near(targets[-1], max_megapixels)):
        targets.append(max_megapixels)
    sizes = []
    if own.megapixels <= max_megapixels * (1 + 1e-9):
        sizes.append(own)
        targets = [mp for mp in targets if not _near(mp, own.megapixels)]
    aspect = width / height
    for mp in targets:
        new_height = max(1, round(math.sqrt(mp * 1e6 / aspect)))
        sizes.append(SweepSize(new_height, max(1, round(new_height * aspect))))
    unique: dict[tuple[int, int], SweepSize] = {}
    for size in sorted(sizes, key=lambda size: (size.megapixels, size.resampled)):
        unique.setdefault((size.height, size.width), size)  # the photo's own before a copy
    return list(unique.values())


def resample(image: np.ndarray, height: int, width: int) -> np.ndarray:
    """`image` (float32 in [0, 1]) resized to height × width, still float32 in [0, 1], and
    still levels of 8 or 16 bits when it was (a photo's pixels are: round_to_levels), as a
    photo of that size from the same camera would be, and as such it crosses to an
    accelerator (blurapp.core.engines.levels)."""
    if image.shape == (height, width):
        return image
    picture = Image.fromarray(np.ascontiguousarray(image, dtype=np.float32))  # mode "F"
    # Bilinear weights are never negative, so values stay in range; Lanczos would ring past it.
    resized = np.array(picture.resize((width, height), Image.Resampling.BILINEAR))
    # Float rounding can still step an ulp outside [0, 1].
    np.clip(resized, 0.0, 1.0, out=resized)
    levels = stored_levels.of(image)
    if levels is not None:
        round_to_levels(resized, np.iinfo(levels.dtype).max)
    return resized


def sweep_points(
    image: np.ndarray,
    *,
    sizes: Sequence[SweepSize] | None = None,
    kernel_size: KernelSize = DEFAULT_KERNEL_SIZE,
    sigma: float = DEFAULT_SIGMA,
    algorithm: Algorithm = DEFAULT_ALGORITHM,
    engines: Collection[str | Engine] = DEFAULT_ENGINES,
    device: str = "auto",
    repeats: int | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Iterator[SweepPoint]:
    """Compare `engines` on `image` resampled to each of `sizes` (default: sweep_sizes of its
    shape), smallest first, yielding each size's point as it finishes. `repeats` is
    compare_engines': the steady calls of each engine, None for as many as each needs.

    Stops when `cancelled()` turns True, checked between sizes and inside each comparison
    (the size in progress is dropped). A MemoryError of the reference engine (a size too
    large for this machine) propagates.
    """
    if sizes is None:
        sizes = sweep_sizes(image.shape)
    for size in sizes:
        if cancelled is not None and cancelled():
            return
        resized = resample(image, size.height, size.width)
        try:
            result = compare_engines(
                resized,
                BlurSpec(kernel_size=kernel_size, sigma=sigma, algorithm=algorithm),
                repeats=repeats,
                engines=engines,
                device=device,
                watch=None if cancelled is None else Watch(cancelled),
            )
        except BlurCancelled:
            return
        names = tuple(result.engines)
        others = [name for name in names if name != result.reference]
        point = SweepPoint(
            width=size.width,
            height=size.height,
            engines=names,
            seconds={name: run.seconds for name, run in result.runs.items()},
            errors=dict(result.errors),
            speedups={
                name: speedup for name in others if (speedup := result.speedup_of(name)) is not None
            },
            resampled=size.resampled,
            reference=result.reference,
            first_calls={
                name: SweepFirstCall(
                    run.first_call_seconds, run.compilation, run.device, run.first_call_parts
                )
                for name, run in result.runs.items()
                if run.compilation is not None and run.first_call_seconds is not None
            },
            floor_seconds=result.floor_seconds,
            compute_floor_seconds=result.compute_floor_seconds,
            end_to_end_seconds={name: run.end_to_end_seconds for name, run in result.runs.items()},
            end_to_end_speedups={
                name: speedup
                for name in others
                if (speedup := result.end_to_end_speedup_of(name)) is not None
            },
        )
        # The outputs of a large size take hundreds of MB: gone before the next size is made.
        del result, resized
        yield point


def run_sweep(
    image: np.ndarray,
    *,
    on_point: Callable[[SweepPoint], None] | None = None,
    **sweep: Any,
) -> list[SweepPoint]:
    """The points of sweep_points(image, **sweep), as a list once the sweep has finished or
    stopped; `on_point` is called as each size finishes."""
    points = []
    for point in sweep_points(image, **sweep):
        points.append(point)
        if on_point is not None:
            on_point(point)
    return points


def sweep_engines(points: Sequence[SweepPoint]) -> tuple[str, ...]:
    """Every engine of `points`, in the order they ran."""
    return tuple(dict.fromkeys(name for point in points for name in point.engines))


# --- From which size JAX-jit beats NumPy ------------------------------------------------------


class Crossing(StrEnum):
    """How a sweep's break-even size was found."""

    BETWEEN = "between"  # the speed-up crosses 1× between two sizes measured: interpolated
    SMALLEST = "smallest"  # faster at every size measured: from the smallest one
    NEVER = "never"  # not faster at the largest size measured: not within the sizes measured


@dataclass(frozen=True)
class BreakEven:
    """The smallest size at and beyond which an engine is faster than the reference at every
    size measured.

    BETWEEN: `megapixels` is where the speed-up crosses 1× on the sweep chart's log–log axes,
    between the sizes `between`; SMALLEST: the smallest size measured; NEVER: None."""

    crossing: Crossing
    megapixels: float | None
    between: tuple[float, float] | None = None

    def as_dict(self) -> dict:
        return {
            "crossing": str(self.crossing),
            "megapixels": self.megapixels,
            "between": list(self.between) if self.between else None,
        }


def break_even(times: Sequence[tuple[float, float, float]]) -> BreakEven | None:
    """From which size an engine beats the reference, given (megapixels, the reference's
    seconds, the engine's seconds) at each size measured: speedup_break_even of the ratio of
    the two times at each size. None without a size."""
    return speedup_break_even(
        [
            (megapixels, reference / engine)
            for megapixels, reference, engine in times
            if reference > 0 and engine > 0
        ]
    )


def speedup_break_even(speedups: Sequence[tuple[float, float]]) -> BreakEven | None:
    """From which size an engine beats the reference, given (megapixels, its speed-up over
    the reference) at each size measured; None without a size.

    The sizes are taken smallest first. Between the last size where the engine is not faster
    (a speed-up of 1× or less) and the first of those where it is faster at every size after,
    the size is interpolated on log–log axes, the chart's: log10 of the speed-up taken as a
    straight line in log10 of the megapixels between the two sizes, and the size where it is
    0 (1×). Where the speed-up is the ratio of two medians, that is where the two engines'
    straight lines of log seconds cross.
    """
    measured = sorted(
        (megapixels, speedup)
        for megapixels, speedup in speedups
        if megapixels > 0 and speedup > 0 and math.isfinite(speedup)
    )
    if not measured:
        return None
    # log(speed-up): above 0 where the engine is faster.
    leads = [math.log10(speedup) for _, speedup in measured]
    first = len(leads)
    while first > 0 and leads[first - 1] > 0:
        first -= 1
    if first == len(leads):
        return BreakEven(Crossing.NEVER, None)
    if first == 0:
        return BreakEven(Crossing.SMALLEST, measured[0][0])
    low, high = measured[first - 1][0], measured[first][0]
    behind, ahead = leads[first - 1], leads[first]  # behind ≤ 0 < ahead
    fraction = -behind / (ahead - behind)
    at = 10 ** (math.log10(low) + fraction * (math.log10(high) - math.log10(low)))
    return BreakEven(Crossing.BETWEEN, at, (low, high))


@dataclass(frozen=True)
class SweepBreakEven:
    """From which size `engine` (the sweep's JAX-jit) beats `reference` (NumPy): by the
    steady calls' speed-up, and end to end (the speed-up with each engine's copies); None
    end to end when no size has an end-to-end figure."""

    engine: str
    reference: str
    steady: BreakEven
    end_to_end: BreakEven | None
    # The platform `engine` ran on where its name does not say it (the sweep's `jax` on JAX's
    # default device, an accelerator), for the accelerator's break-even; None otherwise.
    engine_platform: str | None = None

    def as_dict(self) -> dict:
        """For `bench --sweep --json`."""
        return {
            "engine": self.engine,
            "engine_platform": self.engine_platform,
            "reference": self.reference,
            "axes": "log-log",  # how a crossing is interpolated: on the chart's axes
            "steady": self.steady.as_dict(),
            "end_to_end": self.end_to_end.as_dict() if self.end_to_end else None,
        }


def _engine(name: str) -> Engine | None:
    try:
        return get_engine(name)
    except UnknownEngineError:
        return None


def _jitted(name: str) -> bool:
    engine = _engine(name)
    return engine is not None and engine.jitted


def speedup_between(
    point: SweepPoint, engine: str, base: str, *, end_to_end: bool = False
) -> float | None:
    """How many times quicker `engine` is than `base` at `point`, by the speed-up the point
    shows (`end_to_end`: the one with the copies), so that a break-even taken from it agrees
    with every size's speed-up; None where the two have no figure.

    Against the reference, the point's speed-up of `engine`. Between two engines beside the
    reference (JAX-jit on the accelerator and on the CPU), the ratio of their two speed-ups over the
    reference: the engine is faster exactly where its speed-up shown is the larger, and each
    was taken round by round against the same reference, so a busy moment divides out of
    both alike. Where the point has no such speed-up (the reference was not timed there),
    the ratio of the two engines' median seconds.
    """
    speedups = point.end_to_end_speedups if end_to_end else point.speedups
    if base == point.reference:
        shown = speedups.get(engine)
        if shown is not None and shown > 0:
            return shown
    else:
        ours, theirs = speedups.get(engine), speedups.get(base)
        if ours is not None and theirs is not None and ours > 0 and theirs > 0:
            return ours / theirs
    seconds = point.end_to_end_seconds if end_to_end else point.seconds
    if seconds.get(base, 0) > 0 and seconds.get(engine, 0) > 0:
        return seconds[base] / seconds[engine]
    return None


def _crossing_of(
    points: Sequence[SweepPoint], engine: str, reference: str
) -> SweepBreakEven | None:
    """From which size `engine` beats `reference`, at the sizes where it has a speed-up over
    it (speedup_between)."""

    def crossing(end_to_end: bool) -> BreakEven | None:
        speedups = [
            (point.megapixels, speedup)
            for point in points
            if (speedup := speedup_between(point, engine, reference, end_to_end=end_to_end))
            is not None
        ]
        return speedup_break_even(speedups)

    steady = crossing(end_to_end=False)
    if steady is None:
        return None
    return SweepBreakEven(engine, reference, steady, crossing(end_to_end=True))


def sweep_break_even(points: Sequence[SweepPoint]) -> SweepBreakEven | None:
    """From which size the sweep's first engine that JAX compiles (JAX-jit) beats the
    reference, at the sizes where both have a time; None when the sweep has no such engine,
    or no size where both do."""
    if not points:
        return None
    engine = next((name for name in sweep_engines(points) if _jitted(name)), None)
    if engine is None:
        return None
    return _crossing_of(points, engine, points[0].reference)


def platform_in_sweep(points: Sequence[SweepPoint], name: str) -> str | None:
    """The platform engine `name` ran on in the sweep ("cpu", "gpu", "tpu"): as its first
    calls' device names it, else its own (`jax@tpu`); None where neither says."""
    for point in points:
        call = point.first_calls.get(name)
        if call is not None and call.device:
            return platform_in_words(call.device)
    engine = _engine(name)
    return None if engine is None else engine.platform


def accelerator_break_even(points: Sequence[SweepPoint]) -> SweepBreakEven | None:
    """From which size a compiled engine on an accelerator (a GPU, a TPU) beats the same
    engine on the CPU, for a sweep that timed both (`--engines numpy,jax,jax@cpu` on a
    machine with one, or `numpy,jax@tpu,jax@cpu`): below it, the copies to the accelerator
    and its calls cost more than the CPU takes to blur. None for a sweep without both.

    Taken from the ratio of the two engines' speed-ups over the reference that each size
    shows (speedup_between): the accelerator counts as faster at a size exactly where its
    speed-up over NumPy is the larger of the two."""
    engines = sweep_engines(points)
    for name in engines:
        accelerator = _engine(name)
        platform = platform_in_sweep(points, name)
        if accelerator is None or not accelerator.jitted or platform is None:
            continue
        if not on_accelerator(platform):
            continue
        base = name.partition("@")[0]
        for other in engines:
            on = platform_in_sweep(points, other)
            if other.partition("@")[0] == base and on is not None and not on_accelerator(on):
                found = _crossing_of(points, name, other)
                if found is None or accelerator.platform == platform:
                    return found
                return replace(found, engine_platform=platform)
    return None


def break_even_words(found: BreakEven, translate: TranslateText = english) -> str:
    """'from 1.84 MP', 'from the smallest size measured', 'not within the sizes measured'."""
    if found.crossing is Crossing.NEVER:
        return translate(QT_TRANSLATE_NOOP("Figures", "not within the sizes measured"))
    if found.crossing is Crossing.SMALLEST:
        return translate(QT_TRANSLATE_NOOP("Figures", "from the smallest size measured"))
    return translate(QT_TRANSLATE_NOOP("Figures", "from {size}")).format(
        size=f"{found.megapixels:.2f} MP"
    )


def sweep_break_even_words(
    found: SweepBreakEven, title: Callable[[str], str], translate: TranslateText = english
) -> str:
    """'JAX-jit faster than NumPy: steady from 1.84 MP, end to end from 3.10 MP'; `title`
    gives an engine's title."""
    engine = title(found.engine)
    if found.engine_platform is not None:  # JAX's default device, an accelerator
        engine = f"{engine} ({found.engine_platform.upper()})"
    names = {"engine": engine, "reference": title(found.reference)}
    steady = break_even_words(found.steady, translate)
    if found.end_to_end is None:
        words = QT_TRANSLATE_NOOP("Figures", "{engine} faster than {reference}: steady {steady}")
        return translate(words).format(steady=steady, **names)
    words = QT_TRANSLATE_NOOP(
        "Figures", "{engine} faster than {reference}: steady {steady}, end to end {end_to_end}"
    )
    end_to_end = break_even_words(found.end_to_end, translate)
    return translate(words).format(steady=steady, end_to_end=end_to_end, **names)


def _number(value: float | None) -> str:
    return "" if value is None else repr(float(value))


def sweep_csv_rows(points: Sequence[SweepPoint]) -> list[list[str]]:
    """The sweep as CSV rows, the header first: the size, then each engine's steady seconds,
    one copy of the photo (the floor), each engine's speed-up over the reference, why an
    engine has no time (empty when it has one), then each compiled engine's first call and
    how it got its program (compiled, from cache, already compiled), then the compute floor
    (the photo's multiply-adds at the rate of a matrix product), then each engine's speed-up
    end to end. The newer columns come last so that readers of the older columns find them
    where they were."""
    engines = sweep_engines(points)
    reference = points[0].reference if points else REFERENCE_ENGINE
    others = [name for name in engines if name != reference]
    compiled = [name for name in engines if any(name in point.first_calls for point in points)]
    header = ["megapixels", "width", "height", "resampled"]
    header += [f"{name}_seconds" for name in engines]
    header += ["copy_seconds"]
    header += [f"{name}_speedup" for name in others]
    header += [f"{name}_error" for name in engines]
    header += [f"{name}_first_call_seconds" for name in compiled]
    header += [f"{name}_compilation" for name in compiled]
    header += ["compute_floor_seconds"]
    header += [f"{name}_speedup_end_to_end" for name in others]
    rows = [header]
    for point in points:
        row = [f"{point.megapixels:.6f}", str(point.width), str(point.height)]
        row.append("yes" if point.resampled else "no")
        row += [_number(point.seconds.get(name)) for name in engines]
        row += [_number(point.floor_seconds)]
        row += [_number(point.speedups.get(name)) for name in others]
        row += [point.errors.get(name, "") for name in engines]
        calls = [point.first_calls.get(name) for name in compiled]
        row += [_number(call.seconds if call else None) for call in calls]
        row += [str(call.compilation) if call else "" for call in calls]
        row += [_number(point.compute_floor_seconds)]
        row += [_number(point.end_to_end_speedups.get(name)) for name in others]
        rows.append(row)
    return rows


def write_sweep_csv(path: str | os.PathLike[str], points: Sequence[SweepPoint]) -> None:
    """Write the sweep as a UTF-8 CSV file, atomically. Raises saving.OutputError."""
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(sweep_csv_rows(points))
    data = text.getvalue().encode("utf-8")
    write_atomically(path, lambda file: file.write(data))
