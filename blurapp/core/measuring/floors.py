"""The floors of a device, timed in the same comparison as the engines: the least any blur
there can take. The copy floor, one copy of the image (read once, written once), and the call
floor, an empty call waited for, are timed in the engines' rounds; the compute floor, the
float32 rate of a matrix product (blurapp.core.engines.gemm), right after them. An engine's
time as a multiple of each says how far it is from the device's memory, from its arithmetic,
and from the cost of calling it at all."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from blurapp.core.engines import REFERENCE_ENGINE, Engine
from blurapp.core.engines.runs import EngineRun, FirstCall
from blurapp.core.platforms import platform_in_words, platform_traits

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class Floor:
    """The least any blur on `device` can take: one copy of the image there (read once,
    written once), timed among the engines as they are."""

    device: str  # as an engine's run names it: "cpu", "gpu: NVIDIA H200"
    seconds: float  # the median copy
    quartiles: tuple[float, float]
    samples: int  # the copies timed
    image_bytes: int  # the image copied

    @property
    def bandwidth_gb_s(self) -> float | None:
        return bandwidth_gb_s(self.image_bytes, self.seconds)


@dataclass(frozen=True)
class ComputeFloor:
    """The float32 arithmetic of `device`: the quickest of several products of two `size` ×
    `size` matrices there (size³ multiply-adds each; blurapp.core.engines.gemm), timed after
    the engines in the same comparison. A blur's multiply-adds at this rate are the least it
    can take."""

    device: str  # as an engine's run names it: "cpu", "gpu: NVIDIA H200"
    product_seconds: float  # the quickest sample (the mean of its calls)
    samples: int  # the products timed after the engines (every call), and its sizing's best
    size: int

    @property
    def multiply_adds_per_second(self) -> float | None:
        return self.size**3 / self.product_seconds if self.product_seconds > 0 else None

    @property
    def gflop_s(self) -> float | None:
        """The rate in GFLOP/s (a multiply-add is two floating-point operations)."""
        rate = self.multiply_adds_per_second
        return None if rate is None else 2 * rate / 1e9

    @property
    def on_a_matrix_unit(self) -> bool:
        """Whether the device's products run on a unit of their own that the blur does not
        use: a TPU's matrix unit (its float32 products at the highest precision in several
        passes), while the blur's multiply-adds run on its vector unit. The rate is then not
        one the blur can reach; on a CPU or a GPU both run on the same units."""
        return platform_traits(platform_in_words(self.device)).products_on_a_matrix_unit

    def seconds_for(self, multiply_adds: int) -> float | None:
        """The time `multiply_adds` take at this rate."""
        rate = self.multiply_adds_per_second
        return None if rate is None else multiply_adds / rate


@dataclass(frozen=True)
class CallFloor:
    """The least any call on `device` takes: an empty call there (JAX-jit: a jitted program
    with one operation on one number), waited for, timed among the engines as they are."""

    device: str  # as an engine's run names it: "cpu", "tpu: TPU v5 lite"
    seconds: float  # the median call
    quartiles: tuple[float, float]
    samples: int


# A steady time within this multiple of its device's call floor is mostly the call itself:
# the photo is too small for the device to matter.
MOSTLY_THE_CALL = 2.0


def mostly_the_call(seconds: float, floor: CallFloor | None) -> bool:
    """Whether a steady time of `seconds` is mostly the call (within MOSTLY_THE_CALL of the
    call floor `floor`); False where there is no call floor."""
    return floor is not None and floor.seconds > 0 and seconds <= MOSTLY_THE_CALL * floor.seconds


@dataclass(frozen=True)
class CallOn:
    """The empty call on `device`, timed beside the engines (not an engine)."""

    device: str


@dataclass(frozen=True)
class CopyOn:
    """The copy of the image on `device`, timed beside the engines (not an engine)."""

    device: str


@dataclass(frozen=True)
class ProductOn:
    """The matrix product of `size` on `device`, timed beside the engines (not an engine)."""

    device: str
    size: int


def bandwidth_gb_s(image_bytes: int, seconds: float) -> float | None:
    """GB/s of a pass that reads `image_bytes` once and writes as many, in `seconds`."""
    return 2 * image_bytes / seconds / 1e9 if seconds > 0 else None


def copy_floor(device: str, copy: EngineRun) -> Floor:
    return Floor(device, copy.seconds, copy.quartiles, len(copy.repeat_seconds), copy.output.nbytes)


def call_floor(device: str, call: EngineRun) -> CallFloor:
    return CallFloor(device, call.seconds, call.quartiles, len(call.repeat_seconds))


def compute_floor(product: ProductOn, run: EngineRun, first: FirstCall) -> ComputeFloor:
    # The quickest product, the best call of its sizing among them (the same product, in the
    # same run): the rate the device reaches, not the mean of its disturbances. On a CPU
    # shared with other programs, a product's threads wait for each other more often than not.
    quickest = min([*run.repeat_seconds, first.seconds])
    calls = len(run.repeat_seconds) * run.calls_per_sample + 1
    return ComputeFloor(product.device, quickest, calls, product.size)


def _on_each_device(
    first_calls: Mapping[str, FirstCall], start: Callable[[str], T | None], what: str
) -> list[T]:
    """`start(engine)` once for each device an engine ran on: with the reference engine's tools
    on its device, with the first engine's of each other device that gives one. One that fails
    (logged as `what` failing there) leaves its device without that floor."""
    made: list[T] = []
    covered: set[str] = set()
    for name in sorted(first_calls, key=lambda name: name != REFERENCE_ENGINE):
        on = first_calls[name].device
        if on in covered:
            continue
        try:
            one = start(name)
        except Exception:
            log.warning("%s on %s failed", what, on, exc_info=True)
            continue
        if one is not None:
            covered.add(on)
            made.append(one)
    return made


def first_products(
    engines: Mapping[str, Engine], first_calls: Mapping[str, FirstCall], device: str
) -> dict[ProductOn, FirstCall]:
    """The first matrix product on each device an engine ran on, to be timed after the engines
    (see _on_each_device). A product that fails leaves its device without a compute floor."""
    gemms = _on_each_device(
        first_calls, lambda name: engines[name].start_gemm(device=device), "the matrix product"
    )
    return {ProductOn(gemm.first.device, gemm.size): gemm.first for gemm in gemms}


def first_copies(
    image: np.ndarray,
    engines: Mapping[str, Engine],
    first_calls: Mapping[str, FirstCall],
    device: str,
) -> dict[CopyOn, FirstCall]:
    """The first copy of the photo on each device an engine ran on, to be timed with the
    engines (see _on_each_device). A copy that fails leaves its device without a floor."""
    copies = _on_each_device(
        first_calls,
        lambda name: engines[name].start_copy(image, device=device),
        "the copy of the photo",
    )
    return {CopyOn(copy.device): copy for copy in copies}


def first_empty_calls(
    engines: Mapping[str, Engine], first_calls: Mapping[str, FirstCall], device: str
) -> dict[CallOn, FirstCall]:
    """The first empty call on each device an engine ran on that has one (JAX's), to be timed
    with the engines (see _on_each_device). One that fails leaves its device without a call
    floor."""
    calls = _on_each_device(
        first_calls,
        lambda name: engines[name].start_empty_call(device=device),
        "the empty call",
    )
    return {CallOn(call.device): call for call in calls}
