"""The Pallas kernel's blur of a tile on a TPU's matrix unit, for a kernel of rank one (every
Gaussian: the 2-D kernel is the outer product of its column and its row): per chunk of lanes,
the rows' taps are one product with a banded matrix (the tile's rows with their halos, the
chunk's lanes with their margins, @ a (chunk + margins) × chunk band of the row's weights),
and the columns' taps a second (a tile × (tile + halos) band of the column's weights @ that).
pallas_program runs it on the same buffer in VMEM, edges repeated, as its vector kernel.

Whether a kernel is rank one is decided on the host, here (rank_one), from its values: the
kernel's weights are an input of the compiled program, so the program cannot tell. A kernel
that is not rank one keeps the exact vector program (pallas_program.variant_for).

The matrix unit multiplies bfloat16: float32 products are made of several passes of it. The
precisions (PRECISIONS): "highest", float32 as Mosaic makes it (lax.Precision.HIGHEST; about
six passes); "default", what Mosaic does unasked. Three passes (each float32 the sum of a
bfloat16 and the bfloat16 of what is left, as XLA's Precision.HIGH, which Pallas does not
lower) missed the tolerance on the chip (docs/performance.md, the Pallas kernel's variants).

jax is imported only inside these functions, as in the other JAX engines.
"""

from __future__ import annotations

from typing import Any

import numpy as np

PRECISIONS = ("highest", "default")
# How far from the product of its factors (the sum of the differences, against the sum of the
# weights' sizes) a kernel may be and still be blurred as that product: for pixels from 0 to
# 1, a tenth of the tolerance against SciPy (blurapp.core.TOLERANCE, 1e-5).
RANK_ONE_TOLERANCE = 1e-6


def factors(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The column and the row whose outer product is `weights` (k × k) if it is rank one,
    read off its largest weight's row and column, float64; a separable kernel's k weights are
    both."""
    kernel = np.asarray(weights, np.float64)
    if kernel.ndim == 1:
        return kernel, kernel
    i, j = np.unravel_index(np.argmax(np.abs(kernel)), kernel.shape)
    if kernel[i, j] == 0:
        return np.zeros(kernel.shape[0]), np.zeros(kernel.shape[1])
    return kernel[:, j] / kernel[i, j], kernel[i, :]


def rank_one(weights: np.ndarray) -> bool:
    """Whether `weights` (k × k, or the k weights of a separable blur) is the outer product of
    a column and a row, to RANK_ONE_TOLERANCE: the kernels the matrix unit blurs."""
    kernel = np.asarray(weights, np.float64)
    if kernel.ndim == 1:
        return True
    column, row = factors(kernel)
    size = np.abs(kernel).sum()
    return bool(np.abs(kernel - np.outer(column, row)).sum() <= RANK_ONE_TOLERANCE * max(size, 1))


def traced_factors(weights: Any) -> tuple[Any, Any]:
    """factors, traced: the program's weights are its input."""
    import jax.numpy as jnp

    if weights.ndim == 1:
        return weights, weights
    size = weights.shape[1]
    at = jnp.argmax(jnp.abs(weights))
    i, j = at // size, at % size
    pivot = weights[i, j]
    column = jnp.where(pivot == 0, 0.0, weights[:, j] / jnp.where(pivot == 0, 1.0, pivot))
    return column, weights[i, :]


def _band(taps: Any, inputs: int, outputs: int, first: int, step: int) -> Any:
    """An `inputs` × `outputs` matrix whose column o holds tap t at row o + first + t·step:
    input i feeds output o with the tap whose offset it is."""
    import jax.numpy as jnp

    offset = jnp.arange(inputs)[:, None] - jnp.arange(outputs)[None, :] - first
    tap = offset // step
    used = (offset >= 0) & (offset % step == 0) & (tap < taps.shape[0])
    return jnp.where(used, taps[jnp.clip(tap, 0, taps.shape[0] - 1)], 0.0).astype(jnp.float32)


def _parts(matrix: Any, precision: str) -> Any:
    """`matrix` as the kernel reads it: float32, 1 × its shape, at any precision."""
    return matrix[None]


def band_matrices(weights: Any, tiling: Any, precision: str) -> tuple[Any, Any]:
    """The two bands the kernel multiplies by, the same for every tile and chunk: the rows'
    ((chunk + 2 margins) × chunk: a chunk's output lane o takes the row's tap t from buffer
    lane o + margin − radius·step + t·step) and the columns' (columns_band), as _parts gives
    them."""
    column, row = traced_factors(weights.astype(np.float32))
    radius, step = tiling.radius, tiling.step
    chunk, margin = tiling.chunk_lanes, tiling.margin_lanes
    rows = _band(row, chunk + 2 * margin, chunk, margin - radius * step, step)
    return _parts(rows, precision), _columns_band(column, tiling, precision)


def row_and_columns_band(weights: Any, tiling: Any, precision: str) -> tuple[Any, Any]:
    """The row's taps (float32, for the vector unit) and the columns' band (as _parts gives
    it): the kernel whose rows' taps are rotations and whose columns' taps are a product."""
    column, row = traced_factors(weights.astype(np.float32))
    return row, _columns_band(column, tiling, precision)


def _columns_band(column: Any, tiling: Any, precision: str) -> Any:
    """tile × (tile + 2 halos): output row r takes the column's tap t from buffer row
    r + halo − radius + t."""
    tile, halo = tiling.tile_rows, tiling.halo_rows
    band = _band(column, tile + 2 * halo, tile, halo - tiling.radius, 1).T
    return _parts(band, precision)


def _product(left: Any, right_ref: Any, inputs: int, outputs: int, precision: str) -> Any:
    """left (float32) @ the band in `right_ref` (its first `inputs` × `outputs`), float32, at
    `precision`."""
    import jax.numpy as jnp
    from jax import lax

    chosen = lax.Precision.HIGHEST if precision == "highest" else None
    right = right_ref[0, :inputs, :outputs]
    return jnp.dot(left, right, precision=chosen, preferred_element_type=jnp.float32)


def columns_product(left_ref: Any, right: Any, precision: str) -> Any:
    """The band in `left_ref` (columns_band's) @ right (float32), float32, at `precision`."""
    import jax.numpy as jnp
    from jax import lax

    chosen = lax.Precision.HIGHEST if precision == "highest" else None
    return jnp.dot(left_ref[0], right, precision=chosen, preferred_element_type=jnp.float32)


def blur_tile(
    buffer_ref: Any, rows_ref: Any, columns_ref: Any, out_ref: Any, tiling: Any, precision: str
) -> None:
    """The tile in `buffer_ref` (its rows with their halos, its lanes between margins, edges
    repeated) blurred into `out_ref`, chunk by chunk of lanes, by the bands of band_matrices."""
    from jax import lax
    from jax.experimental import pallas as pl

    chunk, margin = tiling.chunk_lanes, tiling.margin_lanes

    def chunk_of(start: Any, lanes: int, stored: int) -> None:
        window = buffer_ref[:, pl.ds(start, lanes + 2 * margin)]
        along_rows = _product(window, rows_ref, lanes + 2 * margin, lanes, precision)
        blurred = columns_product(columns_ref, along_rows, precision)
        out_ref[:, pl.ds(start, stored)] = blurred[:, :stored].astype(out_ref.dtype)

    def full_chunk(block: Any, carry: Any) -> Any:
        chunk_of(pl.multiple_of(block * chunk, 128), chunk, chunk)
        return carry

    if tiling.chunks:
        lax.fori_loop(0, tiling.chunks, full_chunk, 0)
    if tiling.last_lanes:
        lanes = -(-tiling.last_lanes // 128) * 128
        chunk_of(tiling.chunks * chunk, lanes, tiling.last_lanes)
