"""The Pallas kernel's separable blur of a tile with no rotation of rows: each kernel row's taps
are strided loads from the chip's memory (VMEM). pallas_program runs it on the same buffer in
VMEM, edges repeated, as its other variants; a 2-D kernel of rank one (every Gaussian) is
blurred as the separable blur of its factors (pallas_matrix.factors), as the matrix unit's
variants blur it, and a kernel that is not rank one keeps the exact vector program
(pallas_program.variant_for).

Why strides: a register holds 8 rows (sublanes) of 128 values (lanes). The rotated kernel
shifts a group of rows by a kernel row's offset with the chip's cross-lane unit, two rotations
and a select a register and a kernel row, which measured as its bound (docs/performance.md).
Here a register holds 8 rows a tile's eighth apart (rows j, j + S, …, j + 7·S of a tile of
8·S rows): the rows one kernel row below are the register of rows j + 1, …, which a load with
a stride of S rows fetches from VMEM in one load, as an aligned load does. The loads' stride
is on rows only, and the chip's compiler takes it only from an array whose rows are 128
values, so the tile is copied first into such columns (`columns`: the buffer's lanes in
columns of 128), and the blurred registers are stored with the same stride into columns
(`blurred`) and copied from there into the output's rows.

Along the rows each kernel column's taps are the column sums rotated along lanes: one rotation
of a register and a select a tap, each rotation shared by two neighbouring outputs.

jax is imported only inside these functions, as in the other JAX engines.
"""

from __future__ import annotations

import operator
from functools import reduce
from typing import Any

from blurapp.core.engines import pallas_matrix

LANES = 128
SUBLANES = 8
# Output registers blurred at once along a row: each takes its column sums and those of the
# margins' registers either side; more share those margins, fewer keep the registers free.
# 16 took 7 to 12 % less time than 8 on the chip (docs/performance.md).
CHUNK_COLUMNS = 16


def columns_shape(tiling: Any, tile_rows: int | None = None) -> tuple[int, int, int]:
    """The VMEM columns the tile (of `tile_rows`, the tiling's unless given) and its halos are
    copied into: the buffer's lanes in columns of 128 × its rows × 128."""
    tile = tiling.tile_rows if tile_rows is None else tile_rows
    return (tiling.buffer_lanes // LANES, tile + 2 * tiling.halo_rows, LANES)


def blurred_shape(tiling: Any, tile_rows: int | None = None) -> tuple[int, int, int]:
    """The VMEM columns the blurred tile (of `tile_rows`, the tiling's unless given) is stored
    into: a row's output registers × the tile's rows × 128."""
    tile = tiling.tile_rows if tile_rows is None else tile_rows
    return (-(-tiling.values // LANES), tile, LANES)


def scratch_bytes(tiling: Any, tile_rows: int) -> int:
    """The bytes of the two scratch arrays (float32) for tiles of `tile_rows`, which the
    tiling counts in VMEM (pallas_program.Tiling.block_bytes)."""
    shapes = (columns_shape(tiling, tile_rows), blurred_shape(tiling, tile_rows))
    return sum(4 * a * b * c for a, b, c in shapes)


def weights(kernel: Any) -> Any:
    """The weights the kernel reads (float32, flattened): the column's taps, then the row's; a
    separable kernel's k weights serve as both, a 2-D kernel's its factors (rank one)."""
    import jax.numpy as jnp

    column, row = pallas_matrix.traced_factors(kernel.astype(jnp.float32))
    return jnp.concatenate([column, row]).astype(jnp.float32)


def blur_tile(
    weights_ref: Any,
    buffer_ref: Any,
    columns_ref: Any,
    blurred_ref: Any,
    out_ref: Any,
    *,
    size: int,
    tiling: Any,
    chunk_columns: int = CHUNK_COLUMNS,
) -> None:
    """The tile in `buffer_ref` (its rows with their halos, its lanes between margins, edges
    repeated) blurred separably by the column then the row of `weights_ref` (SMEM) into
    `out_ref`, through `columns_ref` and `blurred_ref` (columns_shape, blurred_shape)."""
    import jax.numpy as jnp
    from jax import lax
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu

    tile, halo, radius, step = tiling.tile_rows, tiling.halo_rows, tiling.radius, tiling.step
    columns_count = tiling.buffer_lanes // LANES
    outputs = -(-tiling.values // LANES)
    margin = tiling.margin_lanes // LANES  # columns of margin either side
    stride = tile // SUBLANES

    def transcribe(column: Any, carry: Any) -> Any:
        lanes = pl.ds(pl.multiple_of(column * LANES, LANES), LANES)

        def rows(block: Any, carry: Any) -> Any:
            at = pl.ds(pl.multiple_of(block * SUBLANES, SUBLANES), SUBLANES)
            columns_ref[column, at, :] = buffer_ref[at, lanes]
            return carry

        return lax.fori_loop(0, (tile + 2 * halo) // SUBLANES, rows, carry)

    lax.fori_loop(0, columns_count, transcribe, 0)

    # Each tap along the row: the column of its first value relative to the output's, and its
    # rotation (lanes) and mask (which lanes come from that column, the rest from the next).
    taps = []
    for dx in range(size):
        offset = (dx - radius) * step
        first, rest = divmod(offset, LANES)
        taps.append((margin + first, (LANES - rest) % LANES, LANES - rest))

    def chunk(row: Any, first_output: Any, count: int) -> None:
        lanes = lax.broadcasted_iota(jnp.int32, (SUBLANES, LANES), 1)
        # The column sums of the chunk's outputs and their margins' columns.
        sums = []
        for c in range(count + 2 * margin):
            column = first_output + c
            loads = (
                columns_ref[column, pl.ds(row + halo - radius + dy, SUBLANES, stride=stride), :]
                for dy in range(size)
            )
            sums.append(
                reduce(operator.add, (weights_ref[dy] * load for dy, load in enumerate(loads)))
            )
        totals: list[Any] = [None] * count
        for dx, (first, rotation, kept) in enumerate(taps):
            weight = weights_ref[size + dx]
            if rotation == 0:
                for o in range(count):
                    term = weight * sums[o + first]
                    totals[o] = term if totals[o] is None else totals[o] + term
                continue
            rotated = [pltpu.roll(sums[first + o], rotation, 1) for o in range(count + 1)]
            mask = lanes < kept
            for o in range(count):
                term = weight * jnp.where(mask, rotated[o], rotated[o + 1])
                totals[o] = term if totals[o] is None else totals[o] + term
        for o in range(count):
            blurred_ref[first_output + o, pl.ds(row, SUBLANES, stride=stride), :] = totals[o]

    whole, rest = divmod(outputs, chunk_columns)

    def one_row(row: Any, carry: Any) -> Any:
        def one_chunk(index: Any, carry: Any) -> Any:
            chunk(row, index * chunk_columns, chunk_columns)
            return carry

        if whole:
            lax.fori_loop(0, whole, one_chunk, 0)
        if rest:
            # An index of an array, not of Python: Pallas's interpreter takes a strided
            # slice's other indices only so.
            chunk(row, jnp.int32(whole * chunk_columns), rest)
        return carry

    lax.fori_loop(0, stride, one_row, 0)

    values = tiling.values

    def copy_out(column: Any, carry: Any) -> Any:
        lanes = pl.ds(pl.multiple_of(column * LANES, LANES), LANES)

        def rows(block: Any, carry: Any) -> Any:
            at = pl.ds(pl.multiple_of(block * SUBLANES, SUBLANES), SUBLANES)
            out_ref[at, lanes] = blurred_ref[column, at, :].astype(out_ref.dtype)
            return carry

        return lax.fori_loop(0, tile // SUBLANES, rows, carry)

    if values >= LANES:
        lax.fori_loop(0, values // LANES, copy_out, 0)
    if values % LANES:
        last = jnp.int32(values // LANES)  # as `rest` above
        lanes = pl.ds(values - values % LANES, values % LANES)

        def last_rows(block: Any, carry: Any) -> Any:
            at = pl.ds(pl.multiple_of(block * SUBLANES, SUBLANES), SUBLANES)
            kept = blurred_ref[last, at, :][:, : values % LANES]
            out_ref[at, lanes] = kept.astype(out_ref.dtype)
            return carry

        lax.fori_loop(0, tile // SUBLANES, last_rows, 0)
