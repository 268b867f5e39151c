"""The blur as a hand-written Pallas kernel for a TPU: the same manual convolution as
jax_program (edges repeated, then one weighted shifted copy per kernel tap, summed), written
over tiles in the chip's memory (VMEM). blurapp.core.engines.pallas_engine compiles it and calls
it; jax_program.blur, with the same signature, is its reference in plain JAX.

How the kernel walks the image:

- Rows of values: a photo is read as it crosses to an accelerator, rows of values (height ×
  width·channels, a pixel's channels side by side); a kernel column's taps are then `channels`
  lanes apart. No planes are made: moving a colour photo's channels apart and back took two
  more passes over it in the chip's memory, and made colour 5 to 6 times as slow as grey; as
  rows, about twice (docs/performance/pallas_speed.py). A batch of a clip's frames is one
  plane a frame (blur_frames).
- Tiles: the grid runs over (plane, tile of TILE_ROWS rows). A tile and the halos of rows
  above and below it (at least the kernel's radius, a multiple of 8 dividing the tile) come as
  three blocks of the unpadded photo, which Pallas copies into VMEM ahead of the step that
  reads them; the halos' block indices are held at the photo's first and last rows.
- Edges: the kernel copies its three blocks into one buffer in VMEM, between margins of lanes
  either side, and repeats the photo's first and last pixels into the margins and its first
  and last rows over the halos at its ends: the edges cost no pass over the photo in the
  chip's memory. XLA padding a copy first took as long as a copy in grey (0.91 ms at 24 MP),
  8.7 ms in colour (a pixel's 3 values a poor shape for the chip's registers).
- Groups: inside a tile, the kernel computes GROUP_ROWS rows by CHUNK_LANES lanes at a time,
  few enough values to stay in vector registers, and writes each output value once.
- Shifts: a group's rows with their halos are one aligned load; a kernel row's taps are those
  rows rotated by its offset (pltpu.roll: the chip rotates sublanes and lanes of a register
  natively), a kernel column's taps a rotation of lanes, one per kernel column, shared by its
  taps: the separable blur sums down the columns first and rotates that sum once per tap
  along the rows; the 2-D blur weighs each kernel column's taps down the rows, sums them,
  and rotates the sum once.
- Weights: in the scalar memory (SMEM), a weight read as a scalar and multiplied into a whole
  group; sums in float32, as the other engines'.
- Variants (VARIANTS, chosen by name; the engine runs DEFAULT_VARIANT): other tilings, the
  separable blur staged through VMEM (_blur_staged), a kernel of rank one as two banded
  matrix products on the matrix unit (pallas_matrix), and kernel rows' taps as strided loads
  rather than rotations (pallas_strided). docs/performance/pallas_speed.py times every one
  on the chip, beside a copy of the photo, and checks each against SciPy.

jax is imported only inside these functions, as in the other JAX engines.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np

from blurapp.core.engines import pallas_matrix, pallas_strided
from blurapp.core.engines.jax_program import floats_to_levels, levels_to_floats

# A vector register of a TPU holds 8 rows (sublanes) of 128 values (lanes): tiles, halos,
# groups, chunks and margins are whole registers (a block's width is the photo's, as blocks
# may be; the chip masks the last register's lanes past it).
LANES = 128
SUBLANES = 8
# Rows of output a grid step writes; rows and columns the kernel computes at once inside a
# tile (a group). Blocks in VMEM are double-buffered (the next step's are copied in while this
# one runs). Chosen by docs/performance/pallas_speed.py (its figures are on the performance
# page): groups of 16 rows beat 8, more rows a register's load and rotation serving more taps;
# tiles of 64 to 256 rows ran alike; chunks of 256 lanes were much slower than 512 (each chunk
# reads a register of margin either side). A colour photo's blocks take 64-row tiles
# (BLOCK_BYTES).
TILE_ROWS = 128
GROUP_ROWS = 16
CHUNK_LANES = 512
# Up to this many taps of a 2-D kernel (15 × 15), every tap is unrolled; beyond it, the kernel
# columns are a loop (each column's taps unrolled), so the program stays small. A separable
# kernel's taps (at most 2 × 101) are always unrolled.
UNROLL_TAPS = 225
# What the blocks of a step may take in VMEM, double-buffered, before tiles get fewer rows: a
# photo too wide for TILE_ROWS rows gets tiles of fewer, down to one halo of rows.
BLOCK_BYTES = 32 * 1024 * 1024
# The least VMEM a kernel asks for: Mosaic keeps values it spills from registers in VMEM beyond
# what the estimate counts, and asking for more costs nothing while the chip has it.
MIN_VMEM_BYTES = 64 * 1024 * 1024
# The most VMEM a kernel asks for: below the 128 MiB of the smallest TPU that runs it.
MAX_VMEM_BYTES = 100 * 1024 * 1024


@dataclasses.dataclass(frozen=True)
class Variant:
    """One way of the kernel's to blur its tiles, chosen by name (VARIANTS): its tiling, and
    how it takes its taps. `separable`: how the separable blur takes its kernel rows' taps,
    "rotated" (each a rotation of the group's rows, as the 2-D blur) or "staged" (the rows'
    taps first, into VMEM, then each kernel row's taps a load at its row's offset: see
    _blur_staged). `matrix`: None for the vector unit, or the precision (one of
    pallas_matrix.PRECISIONS) at which a kernel of rank one is blurred on the matrix unit
    (pallas_matrix), the separable blur's as the 2-D blur's; the caller asks variant_for,
    which keeps the vector unit for a kernel that is not rank one. `matrix_passes`: both
    passes products ("both"), or only the columns' ("columns"), the rows' taps rotations as
    "staged" takes them. `last_chunk`: how a row's lanes past its whole chunks are blurred:
    "own", as a narrower chunk of their own, or "overlapped", by one more whole chunk that
    ends at the row's last whole register (overlapping the chunk before) and a chunk of one
    register for what is left: the chunks' code is then made once, not twice, so Mosaic
    compiles about half the program, for a few lanes blurred twice. `strided`: each kernel
    row's taps a strided load from VMEM rather than a rotation (pallas_strided), a 2-D kernel
    blurred as its factors, `chunk_columns` output registers along a row at once."""

    tile_rows: int = TILE_ROWS
    group_rows: int = GROUP_ROWS
    chunk_lanes: int = CHUNK_LANES
    block_bytes: int = BLOCK_BYTES
    separable: str = "rotated"
    matrix: str | None = None
    matrix_passes: str = "both"
    last_chunk: str = "own"
    strided: bool = False
    chunk_columns: int = pallas_strided.CHUNK_COLUMNS

    @property
    def factored(self) -> bool:
        """Whether it blurs a 2-D kernel as the outer product of its factors (the matrix
        unit's variants and "strided"): right only for a kernel of rank one (variant_for)."""
        return self.matrix is not None or self.strided


VARIANTS = {
    # Groups of 16 rows rotated, chunks of 512 lanes, colour in tiles of 64 rows.
    "rotated": Variant(),
    # Colour's tiles as tall as grey's (VMEM enough for a colour row's 18,000 values of 128
    # rows), and groups of 32 rows by chunks of 1,024 lanes: each rotation serves more taps.
    "wide": Variant(group_rows=32, chunk_lanes=1024, block_bytes=64 * 1024 * 1024),
    # As "wide", its last chunk a whole one overlapping the one before (Variant.last_chunk).
    "wide_overlapped": Variant(
        group_rows=32, chunk_lanes=1024, block_bytes=64 * 1024 * 1024, last_chunk="overlapped"
    ),
    # As "rotated", but colour's tiles as tall as grey's: the tiles' share of "wide".
    "tall": Variant(block_bytes=64 * 1024 * 1024),
    "staged": Variant(separable="staged"),
    # The matrix unit's tiles: a tile and its halos of 8 rows are 128 rows, the matrix unit's
    # side; chunks one register wide (the rows' band is mostly zeros: its cost grows with the
    # chunk).
    "matrix": Variant(tile_rows=112, chunk_lanes=LANES, matrix="highest"),
    # The rows' taps on the vector unit (about half the separable blur's work there), the
    # columns' on the matrix unit, where they cost least: a product of K = 128 a value, where
    # the rows' band costs K = 384 (a chunk and its margins).
    "matrix_columns": Variant(tile_rows=112, matrix="highest", matrix_passes="columns"),
    # Each kernel row's taps a strided load rather than a rotation (pallas_strided), 16 output
    # registers along a row at once; a 2-D kernel of rank one blurred as its factors,
    # separably. Slower than "wide" on the chip (docs/performance.md).
    "strided": Variant(block_bytes=64 * 1024 * 1024, strided=True),
}
# The variant the engine runs (pallas_engine), and test_pallas.py's kernel: the quickest on the
# chip of those whose every output there was within the tolerance of SciPy's
# (docs/performance/pallas_speed.py times each).
DEFAULT_VARIANT = "wide"
# Where the default blurs on the matrix unit, the variant for a kernel that is not rank one.
VECTOR_VARIANT = "rotated"


def variant_for(weights: np.ndarray, name: str | None = None) -> str:
    """The variant that blurs with `weights` (k × k, or k weights along rows then columns):
    `name` (DEFAULT_VARIANT when None), unless it blurs a 2-D kernel as its factors
    (Variant.factored) and the kernel is not rank one (decided on the host, from its values:
    pallas_matrix.rank_one); then VECTOR_VARIANT."""
    name = DEFAULT_VARIANT if name is None else name
    if not VARIANTS[name].factored or pallas_matrix.rank_one(weights):
        return name
    return VECTOR_VARIANT


def _round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


class Tiling:
    """Where a plane of `rows` × `values` (a row's values: width × step, a colour photo's
    channels side by side) and a kernel of `size` taps a side lie for the kernel: tiles of rows
    with a halo above and below, groups of rows inside a tile, chunks of lanes, and the margins
    of lanes either side of the VMEM buffer that holds the edges' repeated pixels."""

    def __init__(
        self,
        rows: int,
        values: int,
        step: int,
        size: int,
        tile_rows: int = TILE_ROWS,
        group_rows: int = GROUP_ROWS,
        chunk_lanes: int = CHUNK_LANES,
        block_bytes: int = BLOCK_BYTES,
        last_chunk: str = "own",
        strided: bool = False,
    ):
        for name, value, multiple in (
            ("tile rows", tile_rows, SUBLANES),
            ("group rows", group_rows, SUBLANES),
            ("chunk lanes", chunk_lanes, LANES),
        ):
            if value < multiple or value % multiple:
                raise ValueError(f"{name} must be a multiple of {multiple}, not {value}")
        self.radius = radius = size // 2
        self.step = step
        # A power of two times 8 rows, so that it divides any tile of a power of two rows.
        halo = SUBLANES
        while halo < radius:
            halo *= 2
        self.halo_rows = halo
        group = SUBLANES
        while group * 2 <= group_rows:
            group *= 2
        # Whole groups and whole halos, so the halos about tile i are blocks i·tile ÷ halo − 1
        # and (i + 1)·tile ÷ halo; no taller than the photo needs.
        whole = max(halo, group)
        tile = _round_up(max(tile_rows, whole), whole)
        tile = min(tile, _round_up(rows, whole))
        self.group_rows = min(group, tile)
        self.values = values
        self.margin_lanes = _round_up(radius * step, LANES)
        self.buffer_lanes = 2 * self.margin_lanes + _round_up(values, LANES)
        self.chunk_lanes = chunk = min(chunk_lanes, _round_up(values, LANES))
        self.chunks, self.last_lanes = divmod(values, chunk)
        self.last_chunk = last_chunk
        self.strided = strided
        while tile > whole and self.block_bytes(tile) > block_bytes:
            tile = max(whole, _round_up(tile // 2, whole))
        self.tile_rows = tile
        self.tiles = -(-rows // tile)

    def block_bytes(self, tile: int) -> int:
        """The bytes of a step's blocks in VMEM, each twice (double-buffered), and of its
        buffer, float32."""
        blocks = 2 * (tile + 2 * self.halo_rows) * self.values + 2 * tile * self.values
        total = 4 * (blocks + (tile + 2 * self.halo_rows) * self.buffer_lanes)
        if self.strided:
            # pallas_strided's columns (the buffer's values again) and blurred tile.
            total += pallas_strided.scratch_bytes(self, tile)
        return total

    def vmem_limit(self) -> int:
        """The VMEM the kernel asks for: its blocks, and room for values spilled."""
        wanted = self.block_bytes(self.tile_rows) + (8 << 20)
        return min(MAX_VMEM_BYTES, max(MIN_VMEM_BYTES, wanted))


def _rows_from(values: Any, first: int, rows: int) -> Any:
    """values[first : first + rows], by rotating rows (sublanes)."""
    from jax.experimental.pallas import tpu as pltpu

    height = values.shape[0]
    rotated = values if first == 0 else pltpu.roll(values, height - first, 0)
    return rotated[:rows]


def _shift_lanes(values: Any, shift: Any, lanes: int) -> Any:
    """values[:, shift : shift + lanes] (shift a Python int or traced), by rotating lanes."""
    from jax import lax
    from jax.experimental.pallas import tpu as pltpu

    width = values.shape[1]
    if isinstance(shift, int):
        rotated = values if shift == 0 else pltpu.roll(values, width - shift, 1)
    else:
        rotated = pltpu.roll(values, lax.rem(width - shift, width), 1)
    return rotated[:, :lanes]


def _blur_group(
    source: Any,
    weights_ref: Any,
    out_ref: Any,
    row: Any,
    start: Any,
    lanes: int,
    stored: int,
    *,
    size: int,
    separable: bool,
    tiling: Tiling,
) -> None:
    """One group of output rows, `lanes` of them from `start` (the first `stored` written),
    from `source`, the buffer's rows from the group's halo above, the chunk's lanes from
    `start` (the margins either side included)."""
    import jax.numpy as jnp
    from jax import lax
    from jax.experimental import pallas as pl

    group, step, radius = tiling.group_rows, tiling.step, tiling.radius
    columns = pl.ds(start, lanes + 2 * tiling.margin_lanes)
    first_row = tiling.halo_rows - radius
    first_lane = tiling.margin_lanes - radius * step

    # The group's rows with its halos, one aligned load; a kernel row's taps are these rows
    # rotated by the row's offset. A load at each row's offset instead (VMEM reads any row, but
    # an unaligned row costs the chip more) took 3.14 ms where rotating took 1.83 in 24 MP
    # grey 2-D, 1.60 against 1.55 separable (docs/performance/pallas_speed.py).
    rows = source[pl.ds(0, group + 2 * tiling.halo_rows), columns]

    def band(dy: int) -> Any:
        return _rows_from(rows, first_row + dy, group)

    def along(values: Any, dx: Any) -> Any:
        return _shift_lanes(values, first_lane + dx * step, lanes)

    if separable:
        # Down the columns on every lane of the chunk and its margins, then along the rows,
        # rotating only the group's sum.
        down = _summed(weights_ref[dy] * band(dy) for dy in range(size))
        total = _summed(weights_ref[dx] * along(down, dx) for dx in range(size))
    elif size * size <= UNROLL_TAPS:
        # Each tap once, a multiply-add: per kernel column, its taps down the column weighed
        # on the unshifted bands and summed, then that sum rotated once by the column's shift.
        bands = [band(dy) for dy in range(size)]
        total = _summed(
            along(_summed(weights_ref[dy * size + dx] * bands[dy] for dy in range(size)), dx)
            for dx in range(size)
        )
    else:
        # A larger kernel's columns are a loop, so that the program stays small.
        def add_column(dx: Any, total: Any) -> Any:
            column = _summed(weights_ref[dy * size + dx] * band(dy) for dy in range(size))
            return total + along(column, dx)

        total = lax.fori_loop(0, size, add_column, jnp.zeros((group, lanes), jnp.float32))
    out_ref[pl.ds(row, group), pl.ds(start, stored)] = total[:, :stored].astype(out_ref.dtype)


def _summed(terms: Any) -> Any:
    """The terms added one after another."""
    total = None
    for term in terms:
        total = term if total is None else total + term
    return total


def _channel_of(lanes: int, first: int, step: int) -> Any:
    """The channel (0 to step − 1) of each of `lanes` lanes of 8 rows whose first is value
    `first` of a row (negative: before the row), in float32 (exact for these small numbers)."""
    import jax.numpy as jnp
    from jax import lax

    index = lax.broadcasted_iota(jnp.int32, (SUBLANES, lanes), 1).astype(jnp.float32)
    index = index + float(first + step * (1 + abs(first) // step + 1))
    return index - float(step) * jnp.floor((index + 0.5) * (1.0 / step))


def _repeated(values: Any, at: int, step: int, channel: Any) -> Any:
    """Each lane the value of its `channel` of the pixel whose values begin at lane `at` of
    `values` (8 rows)."""
    import jax.numpy as jnp

    shape = channel.shape
    result = None
    for c in range(step):
        picked = _lane(values, at + c)
        term = jnp.broadcast_to(picked, shape)
        result = term if result is None else jnp.where(channel == c, term, result)
    return result


def _lane(values: Any, at: int) -> Any:
    """Lane `at` of each of `values`' rows (rows × 1), by a sum that only it enters: a lane
    reduction, which the chip does natively, where an unaligned slice might not lower."""
    import jax.numpy as jnp
    from jax import lax

    lanes = lax.broadcasted_iota(jnp.int32, values.shape, 1)
    return jnp.sum(jnp.where(lanes == at, values, 0.0), axis=1, keepdims=True)


def _kernel(
    *refs: Any,
    size: int,
    separable: bool,
    tiling: Tiling,
    rows: int,
    variant: Variant,
) -> None:
    """One grid step on the unpadded plane: its tile, with the halo of rows above and below,
    copied into a buffer in VMEM between margins of lanes, edges repeated there, then blurred
    as `variant` says. `refs`: the weights (SMEM; for the matrix unit, its two bands in VMEM),
    the halo above, the tile, the halo below, the output, the buffer (and for the staged
    separable blur, the rows' sums)."""
    precision = variant.matrix
    if variant.strided:
        weights, top, tile, bottom, out, buffer, columns, blurred = refs
        _fill_buffer(top, tile, bottom, buffer, tiling, rows)
        pallas_strided.blur_tile(
            weights,
            buffer,
            columns,
            blurred,
            out,
            size=size,
            tiling=tiling,
            chunk_columns=variant.chunk_columns,
        )
    elif precision is not None and variant.matrix_passes == "columns":
        row, columns_band, top, tile, bottom, out, buffer, sums = refs
        _fill_buffer(top, tile, bottom, buffer, tiling, rows)

        def down(values: Any) -> Any:
            return pallas_matrix.columns_product(columns_band, values, precision)

        _blur_staged(row, buffer, sums, out, size=size, tiling=tiling, down_product=down)
    elif precision is not None:
        rows_band, columns_band, top, tile, bottom, out, buffer = refs
        _fill_buffer(top, tile, bottom, buffer, tiling, rows)
        pallas_matrix.blur_tile(buffer, rows_band, columns_band, out, tiling, precision)
    elif separable and variant.separable == "staged":
        weights, top, tile, bottom, out, buffer, sums = refs
        _fill_buffer(top, tile, bottom, buffer, tiling, rows)
        _blur_staged(weights, buffer, sums, out, size=size, tiling=tiling)
    else:
        weights, top, tile, bottom, out, buffer = refs
        _fill_buffer(top, tile, bottom, buffer, tiling, rows)
        _blur_rotated(weights, buffer, out, size=size, separable=separable, tiling=tiling)


def _fill_buffer(
    top_ref: Any, tile_ref: Any, bottom_ref: Any, buffer_ref: Any, tiling: Tiling, rows: int
) -> None:
    """The step's tile and its halos copied into `buffer_ref` between margins of lanes, the
    photo's edge pixels repeated into the margins and its edge rows over the halos past it."""
    import jax.numpy as jnp
    from jax import lax
    from jax.experimental import pallas as pl

    tile, halo = tiling.tile_rows, tiling.halo_rows
    step, values = tiling.step, tiling.values
    margin, width = tiling.margin_lanes, tiling.buffer_lanes
    index = pl.program_id(1)

    def copy_in(source: Any, first: int, count: int) -> None:
        def copy(block: Any, carry: Any) -> Any:
            at = pl.multiple_of(block * SUBLANES, SUBLANES)
            buffer_ref[pl.ds(first + at, SUBLANES), pl.ds(margin, values)] = source[
                pl.ds(at, SUBLANES), :
            ]
            return carry

        lax.fori_loop(0, count // SUBLANES, copy, 0)

    copy_in(top_ref, 0, halo)
    copy_in(tile_ref, halo, tile)
    copy_in(bottom_ref, halo + tile, halo)

    if margin:
        # Each row's first and last pixels repeated into the margins of lanes either side.
        left_channel = _channel_of(margin, -margin, step)
        right = margin + (max(values - step, 0) // LANES) * LANES
        right_channel = _channel_of(width - right, right - margin - values, step)
        beyond = (
            lax.broadcasted_iota(jnp.int32, (SUBLANES, width - right), 1) + right >= margin + values
        )

        def margins(block: Any, carry: Any) -> Any:
            at = pl.ds(pl.multiple_of(block * SUBLANES, SUBLANES), SUBLANES)
            first = buffer_ref[at, pl.ds(margin, LANES)]
            buffer_ref[at, pl.ds(0, margin)] = _repeated(first, 0, step, left_channel)
            last = buffer_ref[at, pl.ds(right, width - right)]
            repeated = _repeated(last, margin + values - step - right, step, right_channel)
            buffer_ref[at, pl.ds(right, width - right)] = jnp.where(beyond, repeated, last)
            return carry

        lax.fori_loop(0, (2 * halo + tile) // SUBLANES, margins, 0)

    def row_of(source: int) -> Any:
        """Row `source` of the buffer, as 8 copies of it (picked by a sum over sublanes)."""
        aligned = source // SUBLANES * SUBLANES
        block = buffer_ref[pl.ds(aligned, SUBLANES), :]
        rows_at = lax.broadcasted_iota(jnp.int32, (SUBLANES, width), 0) + aligned
        line = jnp.sum(jnp.where(rows_at == source, block, 0.0), axis=0, keepdims=True)
        return jnp.broadcast_to(line, (SUBLANES, width))

    def repeat_row(source: int, first: int) -> None:
        """Rows from `first` to the buffer's end: copies of row `source`."""
        line = row_of(source)
        aligned = first // SUBLANES * SUBLANES
        if aligned < first:
            block = buffer_ref[pl.ds(aligned, SUBLANES), :]
            below = lax.broadcasted_iota(jnp.int32, (SUBLANES, width), 0) + aligned >= first
            buffer_ref[pl.ds(aligned, SUBLANES), :] = jnp.where(below, line, block)
            aligned += SUBLANES
        for at in range(aligned, 2 * halo + tile, SUBLANES):
            buffer_ref[pl.ds(at, SUBLANES), :] = line

    @pl.when(index == 0)
    def _() -> None:
        line = row_of(halo)
        for at in range(0, halo, SUBLANES):
            buffer_ref[pl.ds(at, SUBLANES), :] = line

    for last in range(max(0, tiling.tiles - 2), tiling.tiles):
        # The tiles whose rows or halo below run past the photo's last row.
        last_row = halo + rows - 1 - last * tile
        if last_row < 2 * halo + tile - 1:

            @pl.when(index == last)
            def _(last_row: int = last_row) -> None:
                repeat_row(last_row, last_row + 1)


def _blur_rotated(
    weights_ref: Any, buffer_ref: Any, out_ref: Any, *, size: int, separable: bool, tiling: Tiling
) -> None:
    """The tile in `buffer_ref` blurred into `out_ref` group by group and chunk by chunk, each
    kernel row's taps a rotation of the group's rows (_blur_group)."""
    from jax import lax
    from jax.experimental import pallas as pl

    tile, halo, group = tiling.tile_rows, tiling.halo_rows, tiling.group_rows
    blur_group = functools.partial(
        _blur_group,
        weights_ref=weights_ref,
        out_ref=out_ref,
        size=size,
        separable=separable,
        tiling=tiling,
    )

    def chunk_of(start: Any, lanes: int, stored: int) -> None:
        def one(block: Any, carry: Any) -> Any:
            row = pl.multiple_of(block * group, SUBLANES)
            source = buffer_ref.at[pl.ds(row, group + 2 * halo)]
            blur_group(source, row=row, start=start, lanes=lanes, stored=stored)
            return carry

        lax.fori_loop(0, tile // group, one, 0)

    _each_chunk(tiling, chunk_of)


def _blur_staged(
    weights_ref: Any,
    buffer_ref: Any,
    sums_ref: Any,
    out_ref: Any,
    *,
    size: int,
    tiling: Tiling,
    down_product: Any = None,
) -> None:
    """The separable blur of the tile in `buffer_ref` into `out_ref`, chunk by chunk: first
    along the rows (each kernel column's taps a rotation of lanes) for every row of the tile
    and its halos, into `sums_ref` in VMEM; then down the columns, each kernel row's taps a
    load of those sums at its row's offset, or, given `down_product`, the tile's rows as
    down_product(the sums) makes them (a product on the matrix unit).

    Why it may reach the memory's speed where "rotated" does not: rotating takes the chip's
    cross-lane unit, and "rotated" rotates the whole group with its halos (16 + 16 rows for
    16) once per kernel row, and the group's sums once per kernel column, about 36 rotated
    registers a register of output at 9 taps; staged, only the rows' taps rotate (about 15),
    and the kernel rows' taps are loads, which use the load slots, otherwise idle between
    the tile's copies. The sums cross VMEM once more (a write and 9 loads a value), well
    within its bandwidth; the photo's memory is read and written once, as before."""
    from jax import lax
    from jax.experimental import pallas as pl

    tile, halo, group, step = tiling.tile_rows, tiling.halo_rows, tiling.group_rows, tiling.step
    margin, radius = tiling.margin_lanes, tiling.radius
    first_row, first_lane = halo - radius, margin - radius * step
    # Rows along which the sums are made at once: the group if it divides the rows they cover.
    block = group if (tile + 2 * halo) % group == 0 else SUBLANES

    def chunk_of(start: Any, lanes: int, stored: int) -> None:
        def along(index: Any, carry: Any) -> Any:
            at = pl.ds(pl.multiple_of(index * block, SUBLANES), block)
            values = buffer_ref[at, pl.ds(start, lanes + 2 * margin)]
            sums_ref[at, pl.ds(0, lanes)] = _summed(
                weights_ref[dx] * _shift_lanes(values, first_lane + dx * step, lanes)
                for dx in range(size)
            )
            return carry

        lax.fori_loop(0, (tile + 2 * halo) // block, along, 0)
        if down_product is not None:
            blurred = down_product(sums_ref[:, pl.ds(0, lanes)])
            out_ref[:, pl.ds(start, stored)] = blurred[:, :stored].astype(out_ref.dtype)
            return

        def down(index: Any, carry: Any) -> Any:
            row = pl.multiple_of(index * group, SUBLANES)
            # The group's sums and their halos from an aligned row, each kernel row's a load at
            # a fixed offset into them (as the chip's compiler takes an unaligned row).
            sums = sums_ref.at[pl.ds(row, group + 2 * halo)]
            total = _summed(
                weights_ref[dy] * sums[pl.ds(first_row + dy, group), pl.ds(0, lanes)]
                for dy in range(size)
            )
            out_ref[pl.ds(row, group), pl.ds(start, stored)] = total[:, :stored].astype(
                out_ref.dtype
            )
            return carry

        lax.fori_loop(0, tile // group, down, 0)

    _each_chunk(tiling, chunk_of)


def _each_chunk(tiling: Tiling, chunk_of: Any) -> None:
    """chunk_of(first lane, lanes, lanes stored) for each chunk of lanes of a row: the full
    chunks in a loop, then the last, its lanes whole registers; or, where the tiling's last
    chunk is "overlapped" (Variant.last_chunk), one more full chunk in the loop, ending at the
    row's last whole register, then the lanes past that register as a chunk of one."""
    import jax.numpy as jnp
    from jax import lax
    from jax.experimental import pallas as pl

    chunk, values = tiling.chunk_lanes, tiling.values
    overlapped = tiling.last_chunk == "overlapped" and tiling.chunks and tiling.last_lanes
    whole = values - values % LANES  # the lanes of the row's whole registers

    def full_chunk(block: Any, carry: Any) -> Any:
        start = block * chunk
        if overlapped:
            start = jnp.minimum(start, whole - chunk)
        chunk_of(pl.multiple_of(start, LANES), chunk, chunk)
        return carry

    if overlapped:
        lax.fori_loop(0, tiling.chunks + (whole > tiling.chunks * chunk), full_chunk, 0)
        if values > whole:
            chunk_of(whole, LANES, values - whole)
        return
    if tiling.chunks:
        lax.fori_loop(0, tiling.chunks, full_chunk, 0)
    if tiling.last_lanes:
        chunk_of(tiling.chunks * chunk, _round_up(tiling.last_lanes, LANES), tiling.last_lanes)


def blur_planes(
    planes: Any,
    weights: Any,
    step: int = 1,
    tile_rows: int | None = None,
    chunk_lanes: int | None = None,
    interpret: bool = False,
    group_rows: int | None = None,
    variant: str = DEFAULT_VARIANT,
) -> Any:
    """Each of `planes` (planes × rows × values, `step` values a pixel side by side, float32)
    blurred by one Pallas kernel whose grid runs over (plane, tile of rows): float32, their
    shape. `variant`: one of VARIANTS (a matrix unit's blurs a 2-D kernel as the outer
    product of its factors: variant_for decides); `tile_rows`, `chunk_lanes`, `group_rows`:
    the variant's unless given."""
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu

    chosen = VARIANTS[variant]
    count, rows, values = planes.shape
    size = weights.shape[0]
    tiling = Tiling(
        rows,
        values,
        step,
        size,
        chosen.tile_rows if tile_rows is None else tile_rows,
        chosen.group_rows if group_rows is None else group_rows,
        chosen.chunk_lanes if chunk_lanes is None else chunk_lanes,
        chosen.block_bytes,
        chosen.last_chunk,
        chosen.strided,
    )
    tile, halo = tiling.tile_rows, tiling.halo_rows
    per_tile, last_halo = tile // halo, -(-rows // halo) - 1
    separable = weights.ndim == 1
    kernel = functools.partial(
        _kernel, size=size, separable=separable, tiling=tiling, rows=rows, variant=chosen
    )
    scratch = [pltpu.VMEM((2 * halo + tile, tiling.buffer_lanes), jnp.float32)]
    bands: tuple[Any, ...]
    if chosen.strided:
        bands = (pallas_strided.weights(weights),)
        weight_specs = [pl.BlockSpec(memory_space=pltpu.SMEM)]
        scratch.append(pltpu.VMEM(pallas_strided.columns_shape(tiling), jnp.float32))
        scratch.append(pltpu.VMEM(pallas_strided.blurred_shape(tiling), jnp.float32))
    elif chosen.matrix is not None and chosen.matrix_passes == "columns":
        bands = pallas_matrix.row_and_columns_band(weights, tiling, chosen.matrix)
        weight_specs = [
            pl.BlockSpec(memory_space=pltpu.SMEM),
            pl.BlockSpec(bands[1].shape, lambda c, i: (0, 0, 0)),
        ]
        scratch.append(pltpu.VMEM((2 * halo + tile, tiling.chunk_lanes), jnp.float32))
    elif chosen.matrix is not None:
        bands = pallas_matrix.band_matrices(weights, tiling, chosen.matrix)
        # Whole, at the same block every step: copied into VMEM once.
        weight_specs = [pl.BlockSpec(band.shape, lambda c, i: (0, 0, 0)) for band in bands]
    else:
        bands = (weights.astype(jnp.float32).reshape(-1),)
        weight_specs = [pl.BlockSpec(memory_space=pltpu.SMEM)]
        if separable and chosen.separable == "staged":
            scratch.append(pltpu.VMEM((2 * halo + tile, tiling.chunk_lanes), jnp.float32))
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct((count, rows, values), jnp.float32),
        grid=(count, tiling.tiles),
        in_specs=[
            *weight_specs,
            # The halo above (held at the first rows), the tile, the halo below (held at the
            # last rows): the kernel repeats the edge rows over what they hold past the photo.
            pl.BlockSpec(
                (None, halo, values), lambda c, i: (c, jnp.maximum(i * per_tile - 1, 0), 0)
            ),
            pl.BlockSpec((None, tile, values), lambda c, i: (c, i, 0)),
            pl.BlockSpec(
                (None, halo, values),
                lambda c, i: (c, jnp.minimum((i + 1) * per_tile, last_halo), 0),
            ),
        ],
        out_specs=pl.BlockSpec((None, tile, values), lambda c, i: (c, i, 0)),
        scratch_shapes=scratch,
        compiler_params=pltpu.CompilerParams(
            dimension_semantics=("parallel", "parallel"),
            vmem_limit_bytes=tiling.vmem_limit(),
        ),
        interpret=interpret,
        name="blurapp_blur",
    )(*bands, planes, planes, planes)


def blur(
    image: Any,
    weights: Any,
    tile_rows: int | None = None,
    chunk_lanes: int | None = None,
    interpret: bool = False,
    variant: str = DEFAULT_VARIANT,
) -> Any:
    """The blur as one Pallas kernel, under jax.jit with every argument after `weights`
    static: `image` (float32, height × width, or height × width × channels) correlated with
    `weights` (k × k, or k weights along rows then columns), edges repeating their border
    pixels; the result has the image's shape. `interpret`: Pallas's interpreter runs the
    kernel (anywhere JAX runs; slow), instead of Mosaic compiling it for a TPU. `variant`:
    one of VARIANTS, as variant_for chooses it for the weights."""
    height, width = image.shape[:2]
    step = image.shape[2] if image.ndim == 3 else 1
    rows = image.reshape(1, height, width * step)
    blurred = blur_planes(rows, weights, step, tile_rows, chunk_lanes, interpret, variant=variant)
    return blurred.reshape(image.shape)


def blur_rows(
    values: Any,
    weights: Any,
    step: int = 1,
    tile_rows: int | None = None,
    chunk_lanes: int | None = None,
    interpret: bool = False,
    variant: str = DEFAULT_VARIANT,
) -> Any:
    """`blur` on a photo as it crosses to an accelerator: rows of values (height ×
    width·step), float32 or stored levels, as jax_program.blur_on_accelerator takes them and
    gives them back (floats, or a pair of levels then floats)."""
    import jax.numpy as jnp

    levels_type = values.dtype if jnp.issubdtype(values.dtype, jnp.integer) else None
    floats = levels_to_floats(values)
    blurred = blur_planes(
        floats[None], weights, step, tile_rows, chunk_lanes, interpret, variant=variant
    )[0]
    return blurred if levels_type is None else (floats_to_levels(blurred, levels_type), blurred)


def blur_frames(
    frames: Any,
    weights: Any,
    step: int = 1,
    tile_rows: int | None = None,
    chunk_lanes: int | None = None,
    interpret: bool = False,
    variant: str = DEFAULT_VARIANT,
) -> Any:
    """`blur` on each of a batch of frames, as a clip's cross to a device: frames × rows of
    values (height × width·step, `step` values a pixel), float32 or stored levels (uint8,
    uint16); the result has their shape, float32, or levels of their type rounded as saving
    rounds them. jax_frames.frames_program, on the same frames, is its reference in plain JAX.

    Every frame is a plane of one kernel: the grid runs over (frame, tile of rows), so a batch
    is one call with the photo's tiles and chunks, and its frames are as many steps more of the
    grid's first axis."""
    import jax.numpy as jnp

    levels_type = frames.dtype if jnp.issubdtype(frames.dtype, jnp.integer) else None
    # Made floats before the kernel, as the host makes them (see levels_to_floats).
    values = levels_to_floats(frames, apart=True)
    blurred = blur_planes(values, weights, step, tile_rows, chunk_lanes, interpret, variant=variant)
    return blurred if levels_type is None else floats_to_levels(blurred, levels_type)
