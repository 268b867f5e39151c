"""The compute floor of a device: the float32 multiply-add rate that a matrix product (GEMM),
the most tuned routine of every numerical library, reaches there. A blur can do its
multiply-adds no faster than that; its time as a multiple of their time at that rate says how
far it is from the device's arithmetic, as its multiple of one copy says how far from its
memory (blurapp.core.measuring.comparison).

A GEMM rather than a loop of FMAs written here: a hand-written loop measures how well this
code (or XLA's output for it) uses the vector units, which is the question asked of the blurs
themselves; the BLAS of NumPy and the dot of XLA are tuned by their makers
to the device's peak, so they give a floor that does not depend on BlurApp's own code.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from blurapp.core.engines.runs import Call, FirstCall

# The product's size is chosen by its rate: n doubles from FIRST_SIZE, each size timed at its
# best of two calls after an untimed one (for JAX, its compilation), and the size of the best
# rate is kept. A small product measures the cost of a call, not the arithmetic; a large one
# can spill out of the caches, and on a CPU shared with other programs the threads of a
# product wait for each other, so a small product's time says nothing of the rate. Doubling
# stops once a size's rate is less than BETTER_RATE × the last one's, at LARGEST_SIZE, once the
# sizes tried took SIZING_SECONDS or a call took LONGEST_CALL_SECONDS: on a small CPU the rate
# peaks at a few hundred rows and falls after (docs/performance.md, "What the code's settings
# rest on").
FIRST_SIZE = 128
LARGEST_SIZE = 8192
BETTER_RATE = 1.2
SIZING_SECONDS = 0.2
LONGEST_CALL_SECONDS = 0.04
# The floor is the quickest of this many timed products (after an untimed one): the rate of
# the same product moves by a third from run to run on a shared machine, and a floor is what
# the device can do, not what it did on average.
GEMM_CALLS = 5


class TimedGemm(NamedTuple):
    """A device's product of two `size` × `size` float32 matrices, made once (`first.again()`
    times one more): size³ multiply-adds a call."""

    first: FirstCall
    size: int

    @property
    def multiply_adds(self) -> int:
        return self.size**3


# Makes the product of two n × n matrices on a device: returns the call that computes it once
# more, waited for, and timed (blurapp.core.engines.runs.Call).
ProductOfSize = Callable[[int], Callable[[], Call]]


def sized_gemm(product_of_size: ProductOfSize, device: str) -> TimedGemm:
    """The product of `product_of_size` whose size reached the best rate on `device` (as an
    engine's run names it; see FIRST_SIZE for how the sizes are tried): its first call made."""
    size, spent, last_rate = FIRST_SIZE, 0.0, 0.0
    best: tuple[float, int, Callable[[], Call], Call] | None = None
    while True:
        again = product_of_size(size)
        again()  # the first call (for JAX, compiled): not the product's time
        start = time.perf_counter()
        call = min(again(), again(), key=lambda call: call.seconds)
        spent += time.perf_counter() - start
        rate = size**3 / max(call.seconds, 1e-12)
        improving = best is None or rate >= BETTER_RATE * last_rate
        if best is None or rate > best[0]:
            best = (rate, size, again, call)
        last_rate = rate
        if (
            not improving
            or size >= LARGEST_SIZE
            or spent >= SIZING_SECONDS
            or call.seconds >= LONGEST_CALL_SECONDS
        ):
            break
        size *= 2
    _, size, again, call = best
    return _timed(again, call, device, size)


def _timed(again: Callable[[], Call], call: Call, device: str, size: int) -> TimedGemm:
    # Its output is none: the matrices stay with `again` alone, let go with the timing.
    output = np.zeros(0, np.float32)
    return TimedGemm(
        FirstCall(output=output, again=again, seconds=call.seconds, device=device), size
    )


# The size sized_gemm chose for each (tool, device), kept for the process: sizing again at
# every comparison (each Run, each size of a sweep) would try every size anew, and on a GPU
# compile each and copy its matrices there.
_CHOSEN_SIZES: dict[tuple[str, str], int] = {}


def chosen_gemm(tool: str, product_of_size: ProductOfSize, device: str) -> TimedGemm:
    """`tool`'s product on `device` (tool: whose products, "numpy" or "jax"), of the size
    sized_gemm chose there the first time in this process: its first call made."""
    size = _CHOSEN_SIZES.get((tool, device))
    if size is None:
        gemm = sized_gemm(product_of_size, device)
        _CHOSEN_SIZES[(tool, device)] = gemm.size
        return gemm
    again = product_of_size(size)
    again()  # the first call (for JAX, compiled or from the cache): not the product's time
    return _timed(again, again(), device, size)
