"""The blur as a hand-written Pallas kernel for a TPU: the same manual convolution as
jax_program (edge padding, then one weighted shifted copy per kernel tap, summed), written over
tiles in the chip's memory (VMEM). blurapp.core.engines.pallas_engine compiles it and calls it;
jax_program.blur, with the same signature, is its reference in plain JAX.

How the kernel walks the image:

- Planes: a colour photo (height × width × channels) is blurred channel by channel, its planes
  first (channels × height × width): a pixel's 3 channels would fill 3 of a vector register's
  128 lanes, a plane's row fills them all. A grey photo is one plane; a batch of a clip's
  frames is each frame's planes, one after another (blur_frames).
- Padding: XLA pads each plane first, repeating its edges (jnp.pad mode "edge") by the kernel's
  radius, and on past it, so that every block is whole vector registers: the rows up to whole
  tiles and one halo more, the width up to whole chunks of 128 lanes and a halo of lanes more.
- Tiles: the grid runs over (plane, tile of TILE_ROWS rows). A tile's rows and the halo of
  rows below it (HALO_ROWS ≥ 2·radius, a multiple of 8 that divides TILE_ROWS) come as two
  blocks of the same padded plane, which Pallas copies into VMEM ahead of the step that
  reads them; the kernel stacks them and writes its tile of output, whole registers wide.
- Chunks: inside a tile, the kernel loops over chunks of CHUNK_LANES columns, each read with a
  halo of lanes: the values of one chunk's taps stay few, and the program the same size
  whatever the photo's width.
- Shifts: a tap's shifted copy is a rotation (pltpu.roll: the chip rotates rows of sublanes
  and lanes of a register natively) of the chunk, lanes by dx and rows by dy, whose first
  rows and columns are the window the tap weighs; no unaligned slice is taken. Rotations,
  not multiply-adds, held the kernel back, so taps share them: the chunk is rotated once per
  kernel column, and each kernel row's weighted sum once by its row.
- Weights: in the scalar memory (SMEM), a weight read as a scalar and multiplied into a whole
  window; sums in float32, as the other engines'.

jax is imported only inside these functions, as in the other JAX engines.
"""

from __future__ import annotations

import functools
from typing import Any

from blurapp.core.engines.jax_program import floats_to_levels, levels_to_floats

# A vector register of a TPU holds 8 rows (sublanes) of 128 values (lanes); every block the
# kernel reads or writes is whole registers.
LANES = 128
SUBLANES = 8
# Rows of output a grid step writes, and columns the kernel computes at once inside a tile.
# Blocks in VMEM are double-buffered (the next step's are copied in while this one runs): for
# a 6,000-pixel-wide grey photo, 64 rows make 2 × (64 + 8 halo rows) × 6,272 padded columns ×
# 4 bytes = 3.6 MB of input and 2 × 64 × 6,144 × 4 = 3.1 MB of output, well under the VMEM a
# kernel asks for (Layout.vmem_limit, MIN_VMEM_BYTES at least). Chosen on a TPU v5e
# (2026-12-06, 24 MP, 9 taps, docs/performance/pallas_parts.py): with the rotations shared,
# tiles of 64 rows took 2.70–2.72 ms in grey 2-D and 7.68–7.92 in colour whatever the chunk
# (256 to 2,048 lanes), 32 rows 2.78–2.85 and 7.96–8.06; chunks of 512 lanes compiled in 0.61 s,
# 1,024 in 1.18 s (256 lanes: as quick in grey, 0.45 s, 2 % slower in colour; one compilation
# each). Before the rotations were shared, tiles of 32 × 1,024 ran the separable
# kernel in 1.98 ms and 64 × 512 in 1.99; 128 rows of 2,048 lanes or more ran out of VMEM.
TILE_ROWS = 64
CHUNK_LANES = 512
# Up to this many taps of a 2-D kernel (15 × 15), every tap is unrolled; beyond it, the kernel
# rows are a loop (each row's taps unrolled), so the program stays small. A separable kernel's
# taps (at most 2 × 101) are always unrolled.
UNROLL_TAPS = 225
# What the blocks of a step may take in VMEM, double-buffered, before tiles get fewer rows: a
# photo too wide for TILE_ROWS rows gets tiles of fewer, down to one halo of rows.
BLOCK_BYTES = 32 * 1024 * 1024
# The least VMEM a kernel asks for. Mosaic keeps a chunk's taps in VMEM beyond what the
# estimate counts: on a TPU v5e (2026-12-05) the 101-tap separable kernel needed 19.1 MiB where
# 16 were asked for, and 24 MP colour in 128-row tiles more than 27; asking for more costs
# nothing while the chip has it.
MIN_VMEM_BYTES = 64 * 1024 * 1024
# The most VMEM a kernel asks for (a TPU v5e has 128 MiB of it).
MAX_VMEM_BYTES = 100 * 1024 * 1024


def _round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


class Layout:
    """Where a plane of height × width and a kernel of `size` taps a side lie in the padded
    plane the kernel reads: the tile and halo rows, the chunk and halo lanes, and the padding
    that makes every block whole registers."""

    def __init__(self, height: int, width: int, size: int, tile_rows: int, chunk_lanes: int):
        if tile_rows < SUBLANES or tile_rows % SUBLANES:
            raise ValueError(f"tile rows must be a multiple of {SUBLANES}, not {tile_rows}")
        if chunk_lanes < LANES or chunk_lanes % LANES:
            raise ValueError(f"chunk lanes must be a multiple of {LANES}, not {chunk_lanes}")
        self.radius = radius = size // 2
        # A power of two times 8 rows, so that it divides any tile of a power of two rows.
        halo = SUBLANES
        while halo < 2 * radius:
            halo *= 2
        self.halo_rows = halo
        # Whole halos of rows, so the halo below tile i is block (i + 1)·tile ÷ halo.
        tile = _round_up(max(tile_rows, halo), halo)
        self.chunk_lanes = chunk = min(chunk_lanes, _round_up(width, LANES))
        self.chunks = -(-width // chunk)
        self.out_width = self.chunks * chunk
        self.halo_lanes = _round_up(2 * radius, LANES)
        self.padded_width = self.out_width + self.halo_lanes
        while tile > halo and self.block_bytes(tile) > BLOCK_BYTES:
            tile = max(halo, _round_up(tile // 2, halo))
        self.tile_rows = tile
        self.tiles = -(-height // tile)
        self.out_height = self.tiles * tile
        # One halo of rows below the last tile.
        self.padded_height = self.out_height + halo

    def block_bytes(self, tile: int) -> int:
        """The bytes of a step's blocks in VMEM, each twice (double-buffered), float32."""
        values = tile * self.padded_width + self.halo_rows * self.padded_width
        values += tile * self.out_width
        return 2 * 4 * values

    def vmem_limit(self) -> int:
        """The VMEM the kernel asks for: its blocks, and room for a chunk's values (the stacked
        rows, its rotated columns, up to 15 of them (UNROLL_TAPS), a row's sum, the total: a
        few dozen of them, spilled from registers)."""
        chunk_values = (self.tile_rows + self.halo_rows) * (self.chunk_lanes + self.halo_lanes)
        wanted = self.block_bytes(self.tile_rows) + 32 * 4 * chunk_values + (4 << 20)
        return min(MAX_VMEM_BYTES, max(MIN_VMEM_BYTES, wanted))


def _rows_from(values: Any, dy: Any, rows: int) -> Any:
    """values[dy : dy + rows] (dy a Python int or traced), by rotating rows (sublanes)."""
    from jax import lax
    from jax.experimental.pallas import tpu as pltpu

    height = values.shape[0]
    if isinstance(dy, int):
        shifted = values if dy == 0 else pltpu.roll(values, height - dy, 0)
    else:
        shifted = pltpu.roll(values, lax.rem(height - dy, height), 0)
    return shifted[:rows]


def _lanes_from(values: Any, dx: int, lanes: int) -> Any:
    """values[:, dx : dx + lanes], by rotating lanes."""
    from jax.experimental.pallas import tpu as pltpu

    width = values.shape[1]
    shifted = values if dx == 0 else pltpu.roll(values, width - dx, 1)
    return shifted[:, :lanes]


def _blur_chunk(stacked: Any, weights_ref: Any, size: int, separable: bool, rows: int) -> Any:
    """One chunk of output (rows × chunk lanes) from `stacked`, the chunk's input rows with
    their halos below and to the right, float32."""
    import jax.numpy as jnp
    from jax import lax

    lanes = stacked.shape[1] - _round_up(2 * (size // 2), LANES)
    if separable:
        # Along the rows of every input row, halo rows included, then down the columns.
        along_rows = None
        for dx in range(size):
            term = weights_ref[dx] * _lanes_from(stacked, dx, lanes)
            along_rows = term if along_rows is None else along_rows + term
        total = None
        for dy in range(size):
            term = weights_ref[dy] * _rows_from(along_rows, dy, rows)
            total = term if total is None else total + term
        return total

    if size * size <= UNROLL_TAPS:
        # A rotation is linear, so each tap's shift is made in two halves that taps share:
        # its lanes shift once per kernel column (the chunk's rows with their halo), its rows
        # shift once per kernel row, on that row's weighted sum. 2·size rotations in place of
        # size·(size + 1): on a TPU v5e (24 MP grey, 9 × 9, tiles of 32 × 1,024) the kernel
        # ran in 2.78 ms where rotating every tap took 4.69, and its multiply-adds alone 2.01
        # (docs/performance/pallas_parts.py).
        columns = [_lanes_from(stacked, dx, lanes) for dx in range(size)]
        total = None
        for dy in range(size):
            row_sum = None
            for dx in range(size):
                term = weights_ref[dy * size + dx] * columns[dx]
                row_sum = term if row_sum is None else row_sum + term
            term = _rows_from(row_sum, dy, rows)
            total = term if total is None else total + term
        return total

    # A larger kernel's rows are a loop, so that the program stays small (UNROLL_TAPS): each
    # row's band rotated, then each of its taps. Sharing the rotations here too, the columns
    # kept in VMEM across the loop, was not tried.
    def add_kernel_row(dy: Any, total: Any) -> Any:
        band = _rows_from(stacked, dy, rows)
        for dx in range(size):
            total = total + weights_ref[dy * size + dx] * _lanes_from(band, dx, lanes)
        return total

    zeros = jnp.zeros((rows, lanes), jnp.float32)
    return lax.fori_loop(0, size, add_kernel_row, zeros)


def _kernel(
    weights_ref: Any,
    tile_ref: Any,
    halo_ref: Any,
    out_ref: Any,
    *,
    size: int,
    separable: bool,
    layout: Layout,
) -> None:
    """One grid step: a tile of rows of one plane, chunk by chunk."""
    import jax.numpy as jnp
    from jax import lax
    from jax.experimental import pallas as pl

    chunk, halo_lanes = layout.chunk_lanes, layout.halo_lanes

    def blur_chunk(start: Any) -> None:
        columns = pl.ds(start, chunk + halo_lanes)
        stacked = jnp.concatenate([tile_ref[:, columns], halo_ref[:, columns]], axis=0)
        total = _blur_chunk(stacked, weights_ref, size, separable, layout.tile_rows)
        out_ref[:, pl.ds(start, chunk)] = total.astype(out_ref.dtype)

    if layout.chunks == 1:
        blur_chunk(0)
        return

    def step(index: Any, carry: Any) -> Any:
        blur_chunk(pl.multiple_of(index * chunk, LANES))
        return carry

    lax.fori_loop(0, layout.chunks, step, 0)


def blur(
    image: Any,
    weights: Any,
    tile_rows: int = TILE_ROWS,
    chunk_lanes: int = CHUNK_LANES,
    interpret: bool = False,
) -> Any:
    """The blur as one Pallas kernel, under jax.jit with every argument after `weights`
    static: `image` (float32, height × width, or height × width × channels) correlated with
    `weights` (k × k, or k weights along rows then columns), edges repeating their border
    pixels; the result has the image's shape. `interpret`: Pallas's interpreter runs the
    kernel (anywhere JAX runs; slow), instead of Mosaic compiling it for a TPU."""
    import jax.numpy as jnp

    channels = image.shape[2:]
    planes = image[None] if not channels else jnp.moveaxis(image, -1, 0)
    blurred = _blur_planes(planes, weights, tile_rows, chunk_lanes, interpret)
    return blurred[0] if not channels else jnp.moveaxis(blurred, 0, -1)


def _blur_planes(
    planes: Any, weights: Any, tile_rows: int, chunk_lanes: int, interpret: bool
) -> Any:
    """Each of `planes` (planes × height × width) blurred by one Pallas kernel whose grid runs
    over (plane, tile of rows): float32, the planes' shape."""
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu

    count, height, width = planes.shape
    size = weights.shape[0]
    layout = Layout(height, width, size, tile_rows, chunk_lanes)
    radius = layout.radius
    padded = jnp.pad(
        planes.astype(jnp.float32),
        (
            (0, 0),
            (radius, layout.padded_height - height - radius),
            (radius, layout.padded_width - width - radius),
        ),
        mode="edge",
    )
    tile, halo = layout.tile_rows, layout.halo_rows
    halos_per_tile = tile // halo
    kernel = functools.partial(_kernel, size=size, separable=weights.ndim == 1, layout=layout)
    blurred = pl.pallas_call(
        kernel,
        out_shape=_float32_shape(count, layout.out_height, layout.out_width),
        grid=(count, layout.tiles),
        in_specs=[
            pl.BlockSpec(memory_space=pltpu.SMEM),
            pl.BlockSpec((None, tile, layout.padded_width), lambda c, i: (c, i, 0)),
            pl.BlockSpec(
                (None, halo, layout.padded_width),
                lambda c, i: (c, (i + 1) * halos_per_tile, 0),
            ),
        ],
        out_specs=pl.BlockSpec((None, tile, layout.out_width), lambda c, i: (c, i, 0)),
        compiler_params=pltpu.CompilerParams(
            dimension_semantics=("parallel", "parallel"),
            vmem_limit_bytes=layout.vmem_limit(),
        ),
        interpret=interpret,
        name="blurapp_blur",
    )(weights.astype(jnp.float32).reshape(-1), padded, padded)
    return blurred[:, :height, :width]


def _float32_shape(*shape: int) -> Any:
    """A float32 array of `shape`, as pallas_call's out_shape."""
    import jax
    import jax.numpy as jnp

    return jax.ShapeDtypeStruct(shape, jnp.float32)


def blur_rows(
    values: Any,
    weights: Any,
    step: int = 1,
    tile_rows: int = TILE_ROWS,
    chunk_lanes: int = CHUNK_LANES,
    interpret: bool = False,
) -> Any:
    """`blur` on a photo as it crosses to an accelerator: rows of values (height ×
    width·step), float32 or stored levels, as jax_program.blur_on_accelerator takes them and
    gives them back (floats, or a pair of levels then floats)."""
    import jax.numpy as jnp

    levels_type = values.dtype if jnp.issubdtype(values.dtype, jnp.integer) else None
    height, row_values = values.shape
    image = levels_to_floats(values)
    if step > 1:
        image = image.reshape(height, row_values // step, step)
    blurred = blur(image, weights, tile_rows, chunk_lanes, interpret).reshape(height, row_values)
    return blurred if levels_type is None else (floats_to_levels(blurred, levels_type), blurred)


def blur_frames(
    frames: Any,
    weights: Any,
    step: int = 1,
    tile_rows: int = TILE_ROWS,
    chunk_lanes: int = CHUNK_LANES,
    interpret: bool = False,
) -> Any:
    """`blur` on each of a batch of frames, as a clip's cross to a device: frames × rows of
    values (height × width·step, `step` values a pixel), float32 or stored levels (uint8,
    uint16); the result has their shape, float32, or levels of their type rounded as saving
    rounds them. jax_frames.frames_program, on the same frames, is its reference in plain JAX.

    Every frame's planes are planes of one kernel: the grid runs over (frame's plane, tile of
    rows), so a batch is one call with the photo's tiles and chunks, and the frames' planes
    are as many steps more of the grid's first axis."""
    import jax.numpy as jnp

    levels_type = frames.dtype if jnp.issubdtype(frames.dtype, jnp.integer) else None
    count, height, row_values = frames.shape
    width = row_values // step
    # Made floats before the kernel, as the host makes them (see levels_to_floats).
    values = levels_to_floats(frames, apart=True)
    planes = values.reshape(count, height, width, step)
    planes = jnp.moveaxis(planes, -1, 1).reshape(count * step, height, width)
    blurred = _blur_planes(planes, weights, tile_rows, chunk_lanes, interpret)
    blurred = jnp.moveaxis(blurred.reshape(count, step, height, width), 1, -1)
    blurred = blurred.reshape(count, height, row_values)
    return blurred if levels_type is None else floats_to_levels(blurred, levels_type)


# ---- the fused kernel -------------------------------------------------------------------


class Tiling:
    """Where a plane of `rows` × `values` (a row's values: width × step, a colour photo's
    channels side by side) and a kernel of `size` taps a side lie for the fused kernel: tiles
    of rows with a halo below, groups of rows inside a tile, chunks of lanes with a halo to the
    right."""

    def __init__(
        self,
        rows: int,
        values: int,
        step: int,
        size: int,
        tile_rows: int,
        group_rows: int,
        chunk_lanes: int,
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
        halo = SUBLANES
        while halo < 2 * radius:
            halo *= 2
        self.halo_rows = halo
        group = SUBLANES
        while group * 2 <= group_rows:
            group *= 2
        self.group_rows = group
        # The rows at a tile's foot whose groups read the halo too (a power of two times 8,
        # so that it is whole groups and divides the tile).
        self.edge_rows = edge = max(halo, group)
        tile = _round_up(max(tile_rows, edge), edge)
        tile = min(tile, _round_up(rows, edge))
        self.halo_lanes = _round_up(2 * radius * step, LANES)
        self.chunk_lanes = chunk = min(chunk_lanes, _round_up(values, LANES))
        self.chunks, self.last_lanes = divmod(values, chunk)
        self.values = values
        self.padded_values = _round_up(values, LANES) + self.halo_lanes
        while tile > edge and self.block_bytes(tile) > BLOCK_BYTES:
            tile = max(edge, _round_up(tile // 2, edge))
        self.tile_rows = tile
        self.tiles = -(-rows // tile)
        self.padded_rows = self.tiles * tile + halo

    def block_bytes(self, tile: int) -> int:
        """The bytes of a step's blocks in VMEM, each twice (double-buffered), and the edge's
        scratch, float32."""
        edge = self.edge_rows + self.halo_rows
        values = 2 * (tile + self.halo_rows) * self.padded_values + 2 * tile * self.values
        return 4 * (values + edge * self.padded_values)

    def vmem_limit(self) -> int:
        """The VMEM the kernel asks for: its blocks and room for spilled values."""
        return min(
            MAX_VMEM_BYTES, max(MIN_VMEM_BYTES, self.block_bytes(self.tile_rows) + (8 << 20))
        )


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
    vertical: str,
    row_offset: int = 0,
    lane_offset: int = 0,
    margin_lanes: int | None = None,
    span_rows: int | None = None,
) -> None:
    """One group of output rows, `lanes` of them from `start` (the first `stored` written),
    from `source`, a view of the input whose rows from `row_offset` are the group's (its halo
    below), and whose lanes from `start` + `lane_offset` are the chunk's (its halo to the
    right); `margin_lanes` lanes are read beyond the chunk, `span_rows` rows in all."""
    from jax import lax
    from jax.experimental import pallas as pl

    group, step = tiling.group_rows, tiling.step
    margin = tiling.halo_lanes if margin_lanes is None else margin_lanes
    span = group + tiling.halo_rows if span_rows is None else span_rows
    columns = pl.ds(start, lanes + margin)
    if vertical == "load":
        # A kernel row's band is a load at its row's offset: VMEM reads any row, no rotation.
        def band(dy: Any) -> Any:
            return source[pl.ds(row_offset + dy, group), columns]
    else:
        rows = source[pl.ds(0, span), columns]

        def band(dy: Any) -> Any:
            return _rows_from(rows, row_offset + dy, group)

    if separable:
        # Down the columns on every lane of the chunk and its halo, then along the rows: the
        # rows' taps are loads, the columns' taps a rotation each, of the group alone.
        down = _summed(weights_ref[dy] * band(dy) for dy in range(size))
        total = _summed(
            weights_ref[dx] * _shift_lanes(down, lane_offset + dx * step, lanes)
            for dx in range(size)
        )
    elif size * size <= UNROLL_TAPS:
        # Each tap once, a multiply-add: per kernel column, its taps down the column weighed
        # on the unshifted bands and summed, then rotated once by the column's shift.
        bands = [band(dy) for dy in range(size)]
        total = _summed(
            _shift_lanes(
                _summed(weights_ref[dy * size + dx] * bands[dy] for dy in range(size)),
                lane_offset + dx * step,
                lanes,
            )
            for dx in range(size)
        )
    else:
        # A larger kernel's columns are a loop, so that the program stays small.
        def add_column(dx: Any, total: Any) -> Any:
            column = _summed(weights_ref[dy * size + dx] * band(dy) for dy in range(size))
            return total + _shift_lanes(column, lane_offset + dx * step, lanes)

        import jax.numpy as jnp

        zeros = jnp.zeros((group, lanes), jnp.float32)
        total = lax.fori_loop(0, size, add_column, zeros)
    out_ref[pl.ds(row, group), pl.ds(start, stored)] = total[:, :stored].astype(out_ref.dtype)


def _summed(terms: Any) -> Any:
    """The terms added one after another."""
    total = None
    for term in terms:
        total = term if total is None else total + term
    return total


def _fused_kernel(
    weights_ref: Any,
    tile_ref: Any,
    halo_ref: Any,
    out_ref: Any,
    edge_ref: Any,
    *,
    size: int,
    separable: bool,
    tiling: Tiling,
    vertical: str,
) -> None:
    """One grid step: a tile of rows of one plane, group by group and chunk by chunk."""
    from jax import lax
    from jax.experimental import pallas as pl

    tile, edge, halo = tiling.tile_rows, tiling.edge_rows, tiling.halo_rows
    group, chunk = tiling.group_rows, tiling.chunk_lanes
    # The last `edge` rows of the tile, then the halo, side by side in one scratch: every
    # group reads one contiguous view.
    edge_ref[pl.ds(0, edge), :] = tile_ref[pl.ds(tile - edge, edge), :]
    edge_ref[pl.ds(edge, halo), :] = halo_ref[...]
    blur_group = functools.partial(
        _blur_group,
        weights_ref=weights_ref,
        out_ref=out_ref,
        size=size,
        separable=separable,
        tiling=tiling,
        vertical=vertical,
    )
    span = group + halo

    def chunk_of(start: Any, lanes: int, stored: int) -> None:
        def main(index: Any, carry: Any) -> Any:
            row = pl.multiple_of(index * group, SUBLANES)
            blur_group(
                tile_ref.at[pl.ds(row, span)], row=row, start=start, lanes=lanes, stored=stored
            )
            return carry

        def foot(index: Any, carry: Any) -> Any:
            row = pl.multiple_of(index * group, SUBLANES)
            blur_group(
                edge_ref.at[pl.ds(row, span)],
                row=row + tile - edge,
                start=start,
                lanes=lanes,
                stored=stored,
            )
            return carry

        if tile > edge:
            lax.fori_loop(0, (tile - edge) // group, main, 0)
        lax.fori_loop(0, edge // group, foot, 0)

    def full_chunk(index: Any, carry: Any) -> Any:
        chunk_of(pl.multiple_of(index * chunk, LANES), chunk, chunk)
        return carry

    if tiling.chunks:
        lax.fori_loop(0, tiling.chunks, full_chunk, 0)
    if tiling.last_lanes:
        chunk_of(tiling.chunks * chunk, _round_up(tiling.last_lanes, LANES), tiling.last_lanes)


def blur_planes(
    planes: Any,
    weights: Any,
    step: int = 1,
    tile_rows: int = 128,
    group_rows: int = 8,
    chunk_lanes: int = 512,
    vertical: str = "load",
    fuse_padding: bool = False,
    interpret: bool = False,
) -> Any:
    """Each of `planes` (planes × rows × values, `step` values a pixel side by side) blurred by
    the fused kernel: float32, their shape."""
    rows, values = planes.shape[1:]
    tiling = Tiling(rows, values, step, weights.shape[0], tile_rows, group_rows, chunk_lanes)
    padded = pad_planes(planes, tiling)
    return blur_padded(padded, weights, tiling, rows, vertical, fuse_padding, interpret)


def pad_planes(planes: Any, tiling: Tiling) -> Any:
    """`planes` as the fused kernel reads them: float32, each pixel's edges repeated by the
    kernel's radius and on to whole tiles, chunks and halos."""
    import jax.numpy as jnp

    count, rows, values = planes.shape
    radius, step = tiling.radius, tiling.step
    right = -(-(tiling.padded_values - values) // step) - radius
    pixels = planes.astype(jnp.float32).reshape(count, rows, values // step, step)
    below = tiling.padded_rows - rows - radius
    padded = jnp.pad(pixels, ((0, 0), (radius, below), (radius, right), (0, 0)), mode="edge")
    return padded.reshape(count, tiling.padded_rows, -1)


def blur_padded(
    padded: Any,
    weights: Any,
    tiling: Tiling,
    rows: int,
    vertical: str = "load",
    fuse_padding: bool = False,
    interpret: bool = False,
) -> Any:
    """The fused kernel on planes padded by pad_planes: planes × `rows` × values, float32."""
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu

    count, size = padded.shape[0], weights.shape[0]
    tile, halo, full = tiling.tile_rows, tiling.halo_rows, padded.shape[2]
    kernel = functools.partial(
        _fused_kernel, size=size, separable=weights.ndim == 1, tiling=tiling, vertical=vertical
    )
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct((count, rows, tiling.values), jnp.float32),
        grid=(count, tiling.tiles),
        in_specs=[
            pl.BlockSpec(memory_space=pltpu.SMEM),
            pl.BlockSpec((None, tile, full), lambda c, i: (c, i, 0)),
            pl.BlockSpec((None, halo, full), lambda c, i: (c, (i + 1) * (tile // halo), 0)),
        ],
        out_specs=pl.BlockSpec((None, tile, tiling.values), lambda c, i: (c, i, 0)),
        scratch_shapes=[pltpu.VMEM((tiling.edge_rows + halo, full), jnp.float32)],
        compiler_params=pltpu.CompilerParams(
            dimension_semantics=("parallel", "parallel"),
            vmem_limit_bytes=tiling.vmem_limit(),
            allow_input_fusion=[False, True, True] if fuse_padding else None,
        ),
        interpret=interpret,
        name="blurapp_blur",
    )(weights.astype(jnp.float32).reshape(-1), padded, padded)


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


def _direct_kernel(
    weights_ref: Any,
    top_ref: Any,
    tile_ref: Any,
    bottom_ref: Any,
    out_ref: Any,
    buffer_ref: Any,
    *,
    size: int,
    separable: bool,
    tiling: Tiling,
    vertical: str,
    rows: int,
    margin: int,
) -> None:
    """One grid step on the unpadded plane: its tile, with the halo of rows above and below,
    copied into `buffer_ref` between margins of lanes, edges repeated there, then blurred
    group by group and chunk by chunk."""
    import jax.numpy as jnp
    from jax import lax
    from jax.experimental import pallas as pl

    tile, halo, group = tiling.tile_rows, tiling.halo_rows, tiling.group_rows
    chunk, step, values, radius = tiling.chunk_lanes, tiling.step, tiling.values, tiling.radius
    width = buffer_ref.shape[1]
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

    blur_group = functools.partial(
        _blur_group,
        weights_ref=weights_ref,
        out_ref=out_ref,
        size=size,
        separable=separable,
        tiling=tiling,
        vertical=vertical,
        row_offset=halo - radius,
        lane_offset=margin - radius * step,
        margin_lanes=2 * margin,
        span_rows=group + 2 * halo,
    )

    def chunk_of(start: Any, lanes: int, stored: int) -> None:
        def one(block: Any, carry: Any) -> Any:
            row = pl.multiple_of(block * group, SUBLANES)
            source = buffer_ref.at[pl.ds(row, group + 2 * halo)]
            blur_group(source, row=row, start=start, lanes=lanes, stored=stored)
            return carry

        lax.fori_loop(0, tile // group, one, 0)

    def full_chunk(block: Any, carry: Any) -> Any:
        chunk_of(pl.multiple_of(block * chunk, LANES), chunk, chunk)
        return carry

    if tiling.chunks:
        lax.fori_loop(0, tiling.chunks, full_chunk, 0)
    if tiling.last_lanes:
        chunk_of(tiling.chunks * chunk, _round_up(tiling.last_lanes, LANES), tiling.last_lanes)


def blur_direct(
    planes: Any,
    weights: Any,
    step: int = 1,
    tile_rows: int = 128,
    group_rows: int = 8,
    chunk_lanes: int = 512,
    vertical: str = "load",
    interpret: bool = False,
) -> Any:
    """Each of `planes` (planes × rows × values, `step` values a pixel side by side) blurred by
    the fused kernel reading them unpadded, its edges repeated in VMEM: float32, their shape."""
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu

    count, rows, values = planes.shape
    size = weights.shape[0]
    tiling = Tiling(rows, values, step, size, tile_rows, group_rows, chunk_lanes)
    tile, halo = tiling.tile_rows, tiling.halo_rows
    margin = _round_up(tiling.radius * step, LANES)
    width = margin + _round_up(values, LANES) + margin
    last_halo = -(-rows // halo) - 1
    kernel = functools.partial(
        _direct_kernel,
        size=size,
        separable=weights.ndim == 1,
        tiling=tiling,
        vertical=vertical,
        rows=rows,
        margin=margin,
    )
    per_tile = tile // halo
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct((count, rows, values), jnp.float32),
        grid=(count, tiling.tiles),
        in_specs=[
            pl.BlockSpec(memory_space=pltpu.SMEM),
            pl.BlockSpec(
                (None, halo, values),
                lambda c, i: (c, jnp.maximum(i * per_tile - 1, 0), 0),
            ),
            pl.BlockSpec((None, tile, values), lambda c, i: (c, i, 0)),
            pl.BlockSpec(
                (None, halo, values),
                lambda c, i: (c, jnp.minimum((i + 1) * per_tile, last_halo), 0),
            ),
        ],
        out_specs=pl.BlockSpec((None, tile, values), lambda c, i: (c, i, 0)),
        scratch_shapes=[pltpu.VMEM((2 * halo + tile, width), jnp.float32)],
        compiler_params=pltpu.CompilerParams(
            dimension_semantics=("parallel", "parallel"),
            vmem_limit_bytes=tiling.vmem_limit(),
        ),
        interpret=interpret,
        name="blurapp_blur",
    )(weights.astype(jnp.float32).reshape(-1), planes, planes, planes)
