"""A picture's 8-bit levels as the int32 words they cross a TPU's host link in, made floats on
the chip and rounded back into words there, by two small Pallas kernels (host_link.in_words
puts them either side of the blur's own program).

Why: the host's link moves a 2-D uint8 array at about half the speed of the same bytes seen as
a 2-D array of 32-bit words (docs/performance/host_link.py), and the host sees the one as the
other without a copy. XLA, given the words, makes them levels by a bitcast whose relayout on the
chip cost more than the link gained (docs/performance.md, "Words the blur's own program
takes"). These kernels never make the levels: a word's four bytes are four "planes" of a chunk
(the word's byte k is value 4j + k of its row), and one product with a 0/1 matrix on the matrix
unit lays the planes' values out in their row's order, or takes them apart again. A level is an
integer of at most 8 bits, so a single bfloat16 pass carries it exactly, and the matrix unit,
otherwise idle, does the lane shuffle a vector unit has no instruction for.

A word is the picture's bytes in the host's order (little-endian): value 4j + k of a row is
bits 8k to 8k + 7 of the row's word j. The words are int32 on the chip (its integer type);
the host views the same bytes as int32 either way.

jax is imported only inside these functions, as in the other JAX engines.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

# Words a chunk: its 4 × 128 values are one product of K = 512 on the matrix unit.
CHUNK_WORDS = 128
CHUNK_VALUES = 4 * CHUNK_WORDS
# Rows of a grid step: as many as keep its float block near this many bytes (VMEM holds each
# block twice, the next step's copied in while this one runs).
STEP_BYTES = 4 << 20
# The most a kernel asks of VMEM.
VMEM_BYTES = 64 << 20
WHITE = np.float32(255)


def _spread() -> np.ndarray:
    """The 0/1 matrix that takes a chunk's four planes side by side (plane k's word j in row
    k · 128 + j) to its values in row order (column 4j + k)."""
    spread = np.zeros((CHUNK_VALUES, CHUNK_VALUES), np.float32)
    word = np.arange(CHUNK_WORDS)
    for k in range(4):
        spread[k * CHUNK_WORDS + word, 4 * word + k] = 1
    return spread


def _rows_a_step(rows: int, values: int) -> int:
    """Rows of a grid step for rows of `values` float32 values: a multiple of 8, or all of
    them. A row narrower than a chunk is counted as one: each step's chunk is a whole one
    (its planes, its product) whatever the row holds, so a tall picture of narrow rows would
    otherwise take every row in one step, and that chunk many times what VMEM holds."""
    wanted = max(8, STEP_BYTES // (4 * max(values, CHUNK_VALUES)) // 8 * 8)
    return rows if rows <= wanted else wanted


def _chunks(values: int) -> tuple[int, int]:
    """Whole chunks of a row of `values` values, and the values of the last one past them."""
    return divmod(values, CHUNK_VALUES)


def _params() -> Any:
    from jax.experimental.pallas import tpu as pltpu

    return pltpu.CompilerParams(
        dimension_semantics=("parallel", "parallel"), vmem_limit_bytes=VMEM_BYTES
    )


def _planes(words: Any) -> Any:
    """A chunk's words (rows × 128, int32) as its four byte planes side by side, bfloat16."""
    import jax.numpy as jnp
    from jax import lax

    planes = [
        lax.bitwise_and(lax.shift_right_logical(words, jnp.int32(8 * k)), jnp.int32(255))
        for k in range(4)
    ]
    return jnp.concatenate([plane.astype(jnp.float32) for plane in planes], axis=1).astype(
        jnp.bfloat16
    )


def _unpack_kernel(spread_ref: Any, words_ref: Any, out_ref: Any, held_ref: Any, *, values: int):
    import jax.numpy as jnp
    from jax import lax
    from jax.experimental import pallas as pl

    words = words_ref.shape[-1]
    # Into a buffer of whole chunks: the block's last chunk may be partly past its words, and a
    # load reads whole registers (what it holds past them is never stored).
    held_ref[:, pl.ds(0, words)] = words_ref[...]
    whole, last = _chunks(values)

    def chunk(index: Any, stored: int) -> None:
        start = pl.multiple_of(index * CHUNK_WORDS, CHUNK_WORDS)
        spread = jnp.dot(
            _planes(held_ref[:, pl.ds(start, CHUNK_WORDS)]),
            spread_ref[...],
            preferred_element_type=jnp.float32,
        )
        floats = spread * np.float32(1 / WHITE)  # as the host makes floats of levels
        at = pl.multiple_of(index * CHUNK_VALUES, CHUNK_VALUES)
        out_ref[:, pl.ds(at, stored)] = floats[:, :stored]

    def whole_chunk(index: Any, carry: Any) -> Any:
        chunk(index, CHUNK_VALUES)
        return carry

    if whole:
        lax.fori_loop(0, whole, whole_chunk, 0)
    if last:
        chunk(whole, last)


def _pack_kernel(gather_ref: Any, floats_ref: Any, out_ref: Any, tail_ref: Any, *, values: int):
    import jax.numpy as jnp
    from jax import lax
    from jax.experimental import pallas as pl

    whole, last = _chunks(values)
    words = out_ref.shape[-1]

    def packed(floats: Any, index: Any, stored: int) -> None:
        levels = jnp.minimum(jnp.maximum(floats, np.float32(0)), np.float32(1)) * WHITE
        levels = lax.round(levels, lax.RoundingMethod.TO_NEAREST_EVEN)
        planes = jnp.dot(
            levels.astype(jnp.bfloat16), gather_ref[...], preferred_element_type=jnp.float32
        ).astype(jnp.int32)
        word = planes[:, :CHUNK_WORDS]
        for k in range(1, 4):
            plane = planes[:, k * CHUNK_WORDS : (k + 1) * CHUNK_WORDS]
            word = lax.bitwise_or(word, lax.shift_left(plane, jnp.int32(8 * k)))
        at = pl.multiple_of(index * CHUNK_WORDS, CHUNK_WORDS)
        out_ref[:, pl.ds(at, stored)] = word[:, :stored]

    def whole_chunk(index: Any, carry: Any) -> Any:
        start = pl.multiple_of(index * CHUNK_VALUES, CHUNK_VALUES)
        packed(floats_ref[:, pl.ds(start, CHUNK_VALUES)], index, CHUNK_WORDS)
        return carry

    if whole:
        lax.fori_loop(0, whole, whole_chunk, 0)
    if last:
        # The row's last values, into a chunk of their own: past them, zeros (what the buffer
        # held there may not be a number, and the product would spread it).
        tail_ref[:, pl.ds(0, last)] = floats_ref[:, pl.ds(whole * CHUNK_VALUES, last)]
        lanes = lax.broadcasted_iota(jnp.int32, tail_ref.shape, 1)
        tail = jnp.where(lanes < last, tail_ref[...], np.float32(0))
        packed(tail, whole, words - whole * CHUNK_WORDS)


def unpacked_floats(words: Any, values: int, *, interpret: bool = False) -> Any:
    """`words` (count × rows × values ÷ 4, int32: rows of 8-bit levels, four to a word) as
    float32 (count × rows × `values`), each level times 1/255, as the host makes floats of
    levels (blurapp.core.media.pixels.samples_to_float). `interpret`: Pallas's interpreter runs
    the kernel (off a TPU)."""
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu

    count, rows, word_count = words.shape
    if values != 4 * word_count:
        raise ValueError(f"{word_count} words a row hold {4 * word_count} levels, not {values}")
    step = _rows_a_step(rows, values)
    held = -(-word_count // CHUNK_WORDS) * CHUNK_WORDS
    return pl.pallas_call(
        functools.partial(_unpack_kernel, values=values),
        out_shape=jax.ShapeDtypeStruct((count, rows, values), jnp.float32),
        grid=(count, -(-rows // step)),
        in_specs=[
            pl.BlockSpec((CHUNK_VALUES, CHUNK_VALUES), lambda c, i: (0, 0)),
            pl.BlockSpec((None, step, word_count), lambda c, i: (c, i, 0)),
        ],
        out_specs=pl.BlockSpec((None, step, values), lambda c, i: (c, i, 0)),
        scratch_shapes=[pltpu.VMEM((step, held), jnp.int32)],
        compiler_params=_params(),
        interpret=interpret,
        name="blurapp_levels_from_words",
    )(jnp.asarray(_spread(), jnp.bfloat16), words)


def packed_levels(floats: Any, *, interpret: bool = False) -> Any:
    """`floats` (count × rows × values, float32 in [0, 1]; values a multiple of 4) as 8-bit
    levels rounded as saving rounds them (clipped, times 255, half to even:
    jax_program.floats_to_levels), four to an int32 word: count × rows × values ÷ 4."""
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu

    count, rows, values = floats.shape
    if values % 4:
        raise ValueError(f"a row of {values} levels is no whole number of words")
    step = _rows_a_step(rows, values)
    return pl.pallas_call(
        functools.partial(_pack_kernel, values=values),
        out_shape=jax.ShapeDtypeStruct((count, rows, values // 4), jnp.int32),
        grid=(count, -(-rows // step)),
        in_specs=[
            pl.BlockSpec((CHUNK_VALUES, CHUNK_VALUES), lambda c, i: (0, 0)),
            pl.BlockSpec((None, step, values), lambda c, i: (c, i, 0)),
        ],
        out_specs=pl.BlockSpec((None, step, values // 4), lambda c, i: (c, i, 0)),
        scratch_shapes=[pltpu.VMEM((step, CHUNK_VALUES), jnp.float32)],
        compiler_params=_params(),
        interpret=interpret,
        name="blurapp_levels_to_words",
    )(jnp.asarray(_spread().T, jnp.bfloat16), floats)
