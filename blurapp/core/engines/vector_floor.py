"""The compute floor of a TPU's vector unit: the float32 multiply-add rate that a Pallas kernel
doing nothing else reaches there. The blurs' multiply-adds (JAX-jit's and JAX Pallas's) run on
the vector unit; a matrix product, the compute floor of blurapp.core.engines.gemm, runs on the
matrix unit, a rate no blur there can reach (platforms: products_on_a_matrix_unit). A blur's
time as a multiple of its multiply-adds at this rate says how far it is from the arithmetic it
does.

The kernel: each step of its grid loads one block of ROWS × LANES values (a few of the chip's
vector registers), starts ACCUMULATORS chains from it, steps each chain CHAIN_STEPS times by
`value · MULTIPLIER + ADDEND` (the chains independent, so that one operation's latency does
not hold the next), and writes the chains' sum once. Its time is arithmetic, not memory: a
block is read and written once for CHAIN_STEPS × ACCUMULATORS multiply-adds a value
(docs/performance/vector_floor.py checks that twice the chain takes twice the time). A
multiply-add is counted as one, two FLOPs, whether the chip fuses it or not: so are the blurs'.

Only Mosaic compiles the kernel for the chip: on any other device there is no vector floor
(its interpreter's times say nothing of a TPU), and the matrix product stays the floor there.
jax is imported only inside these functions, as in the other JAX engines.
"""

from __future__ import annotations

import functools
import math
import time
from typing import Any, NamedTuple

import numpy as np

from blurapp.core.engines.jax_runtime import describe_device, import_jax, jax_device
from blurapp.core.engines.runs import Call, FirstCall
from blurapp.core.platforms import platform_traits

# A block: 8 sublanes by 512 lanes, 4 vector registers; with ACCUMULATORS chains, 16 registers
# held through the loop, few enough to stay in registers, and 16 independent operations for
# the unit to interleave.
ROWS = 8
LANES = 512
ACCUMULATORS = 4
# Multiply-adds a chain does to each value, in loop iterations of UNROLLED steps written out
# (no `unroll` argument: the loop and the arithmetic are what the blur kernel uses).
CHAIN_STEPS = 4096
UNROLLED = 16
# Each step: value · MULTIPLIER + ADDEND, 1 − 2⁻¹⁰ and 2⁻¹⁰, so every chain tends to 1 and no
# value grows or vanishes however long the chain (a multiplier of 1 or an addend of 0 could be
# simplified away).
MULTIPLIER = 1.0 - 2.0**-10
ADDEND = 2.0**-10
# The grid's steps grow by powers of two from FIRST_GRID_STEPS until a call takes
# LEAST_CALL_SECONDS (the call's own cost then a small share of it) or the grid has
# MOST_GRID_STEPS; the floor is the quickest of FLOOR_CALLS timed calls after an untimed one
# (its compilation).
FIRST_GRID_STEPS = 8
MOST_GRID_STEPS = 1 << 16
LEAST_CALL_SECONDS = 0.005
FLOOR_CALLS = 5


class TimedChain(NamedTuple):
    """The vector floor's kernel over `grid_steps` blocks on a device, made once
    (`first.again()` times one more call), and the multiply-adds of one call."""

    first: FirstCall
    grid_steps: int
    multiply_adds: int


def multiply_adds(
    grid_steps: int,
    rows: int = ROWS,
    lanes: int = LANES,
    accumulators: int = ACCUMULATORS,
    steps: int = CHAIN_STEPS,
) -> int:
    """The multiply-adds of one call of fma_chain over `grid_steps` blocks."""
    return grid_steps * rows * lanes * accumulators * steps


def fma_chain(
    blocks: Any,
    *,
    rows: int = ROWS,
    lanes: int = LANES,
    accumulators: int = ACCUMULATORS,
    steps: int = CHAIN_STEPS,
    unrolled: int = UNROLLED,
    interpret: bool = False,
) -> Any:
    """The kernel on `blocks` (grid steps · `rows` × `lanes`, float32), a block a grid step:
    each value v gives `accumulators` chains starting at v, v + 1, …, each stepped `steps`
    times (`unrolled` a loop iteration; `steps` a multiple of it) by c · MULTIPLIER + ADDEND;
    the result, float32 in `blocks`' shape, is the chains' sum. `interpret`: Pallas's
    interpreter runs it (anywhere JAX runs), instead of Mosaic compiling it for a TPU."""
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu

    if steps % unrolled:
        raise ValueError(f"the chain's {steps} steps are not a multiple of {unrolled}")
    kernel = functools.partial(
        _chains, accumulators=accumulators, iterations=steps // unrolled, unrolled=unrolled
    )
    block = pl.BlockSpec((rows, lanes), lambda step: (step, 0))
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(blocks.shape, jnp.float32),
        grid=(blocks.shape[0] // rows,),
        in_specs=[block],
        out_specs=block,
        # As the blur's grid: a chip of two cores shares the steps between them.
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
        interpret=interpret,
        name="blurapp_vector_floor",
    )(blocks)


def _chains(
    in_ref: Any, out_ref: Any, *, accumulators: int, iterations: int, unrolled: int
) -> None:
    """One grid step: the block's chains, stepped, summed and written."""
    from jax import lax

    values = in_ref[...]
    # Distinct starting values: identical chains could be computed once.
    start = tuple(values + float(chain) for chain in range(accumulators))

    def iteration(_: Any, chains: tuple[Any, ...]) -> tuple[Any, ...]:
        for _ in range(unrolled):
            chains = tuple(chain * MULTIPLIER + ADDEND for chain in chains)
        return chains

    chains = lax.fori_loop(0, iterations, iteration, start)
    total = chains[0]
    for chain in chains[1:]:
        total = total + chain
    out_ref[...] = total


def compiled_for(device: Any) -> bool:
    """Whether Mosaic compiles the kernel for `device` (a TPU), so that it has a vector
    floor."""
    return platform_traits(device).compiles_pallas


_program: Any = None
# The grid steps chosen for each device (its words), kept for the process: sizing again at
# every bench section would compile each size anew.
_CHOSEN_GRID_STEPS: dict[str, int] = {}


def first_vector_floor(platform: str | None = None) -> TimedChain | None:
    """The vector floor of JAX's device on `platform`: the kernel compiled for it and called
    once untimed, over as many blocks as make a call take LEAST_CALL_SECONDS, timed at its
    quickest of FLOOR_CALLS calls; None where Mosaic does not compile it (not a TPU). Raises
    JaxUnavailableError."""
    jax = import_jax()
    device = jax_device(platform)
    if not compiled_for(device):
        return None
    global _program
    if _program is None:
        _program = jax.jit(fma_chain)
    program = _program
    words = describe_device(device)

    def timed(grid_steps: int) -> tuple[Any, Call]:
        blocks = np.random.default_rng(0).random((grid_steps * ROWS, LANES), dtype=np.float32)
        there = jax.block_until_ready(jax.device_put(blocks, device))

        def again() -> Call:
            start = time.perf_counter()
            jax.block_until_ready(program(there))
            return Call(time.perf_counter() - start)

        again()  # compiled: not the floor's time
        return again, min((again() for _ in range(FLOOR_CALLS)), key=lambda call: call.seconds)

    grid_steps = _CHOSEN_GRID_STEPS.get(words, FIRST_GRID_STEPS)
    again, call = timed(grid_steps)
    while call.seconds < LEAST_CALL_SECONDS and grid_steps < MOST_GRID_STEPS:
        # As many times the blocks as the call falls short, in powers of two (each size a
        # program of its own to compile); the call's own cost makes it fall short again at
        # most once or twice.
        short = LEAST_CALL_SECONDS / max(call.seconds, 1e-9)
        grid_steps = min(MOST_GRID_STEPS, grid_steps * 2 ** max(1, math.ceil(math.log2(short))))
        again, call = timed(grid_steps)
    _CHOSEN_GRID_STEPS[words] = grid_steps
    first = FirstCall(
        output=np.zeros(0, np.float32), again=again, seconds=call.seconds, device=words
    )
    return TimedChain(first, grid_steps, multiply_adds(grid_steps))
