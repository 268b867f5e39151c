"""The vector floor's kernel (blurapp.core.engines.vector_floor): its chains of multiply-adds
against the same chains computed by NumPy in float64, in Pallas's interpret mode here; and the
floor itself, measured only where Mosaic compiles the kernel (a TPU)."""

import jax
import numpy as np
import pytest

from blurapp.core.engines import vector_floor
from blurapp.core.engines.jax_runtime import jax_device
from blurapp.core.engines.vector_floor import ADDEND, MULTIPLIER, first_vector_floor


def chains_in_float64(blocks: np.ndarray, accumulators: int, steps: int) -> np.ndarray:
    """Each value's `accumulators` chains, v + c stepped `steps` times by x·a + b, summed."""
    total = np.zeros(blocks.shape)
    for chain in range(accumulators):
        values = blocks.astype(np.float64) + chain
        for _ in range(steps):
            values = values * MULTIPLIER + ADDEND
        total += values
    return total


@pytest.mark.parametrize(
    "rows, lanes, accumulators, steps, unrolled",
    [
        (8, 128, 4, 64, 16),
        (16, 256, 3, 48, 8),  # blocks of two registers' rows, an odd number of chains
    ],
)
def test_the_kernel_computes_the_chains_numpy_computes(rows, lanes, accumulators, steps, unrolled):
    grid_steps = 3
    blocks = np.random.default_rng(steps).random((grid_steps * rows, lanes), dtype=np.float32)
    kernel = jax.jit(
        vector_floor.fma_chain,
        static_argnames=("rows", "lanes", "accumulators", "steps", "unrolled", "interpret"),
    )
    output = np.asarray(
        kernel(
            blocks,
            rows=rows,
            lanes=lanes,
            accumulators=accumulators,
            steps=steps,
            unrolled=unrolled,
            interpret=True,
        )
    )
    expected = chains_in_float64(blocks, accumulators, steps)
    assert output.dtype == np.float32 and output.shape == blocks.shape
    # A step more or less would move each chain by about 2⁻¹⁰ of its distance from 1: far more
    # than float32's rounding over these chains.
    assert np.abs(output - expected).max() < 1e-5 * accumulators
    one_step_less = chains_in_float64(blocks, accumulators, steps - 1)
    assert np.abs(one_step_less - expected).max() > 1e-4
    # Every value of every block, each chain, each step: one multiply-add.
    counted = vector_floor.multiply_adds(grid_steps, rows, lanes, accumulators, steps)
    assert counted == blocks.size * accumulators * steps


def test_a_chain_that_is_not_whole_loop_iterations_is_refused():
    blocks = np.zeros((8, 128), np.float32)
    with pytest.raises(ValueError, match="not a multiple of 16"):
        vector_floor.fma_chain(blocks, lanes=128, steps=40, unrolled=16, interpret=True)


@pytest.mark.accelerator
def test_the_vector_floor_is_measured_where_mosaic_compiles_it_and_only_there():
    floor = first_vector_floor()
    if not vector_floor.compiled_for(jax_device()):
        assert floor is None  # the interpreter's times say nothing of a TPU
        return
    assert floor is not None
    assert floor.first.seconds > 0 and floor.first.again().seconds > 0
    assert floor.multiply_adds == vector_floor.multiply_adds(floor.grid_steps)
    assert floor.grid_steps >= vector_floor.FIRST_GRID_STEPS
