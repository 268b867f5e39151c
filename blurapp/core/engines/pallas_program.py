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
# kernel asks for (Layout.vmem_limit, MIN_VMEM_BYTES at least). Chosen by
# docs/performance/pallas_parts.py on a TPU (its figures are on the performance page): tiles
# of 64 rows ran quicker than 32 whatever the chunk, and a chunk of 512 lanes runs as fast as
# wider ones and compiles in half the time of 1,024; 128 rows of 2,048 lanes or more do not
# fit in VMEM.
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
# estimate counts (the 101-tap separable kernel needed more than 16 MiB, 24 MP colour in
# 128-row tiles more than 27); asking for more costs nothing while the chip has it.
MIN_VMEM_BYTES = 64 * 1024 * 1024
# The most VMEM a kernel asks for: below the 128 MiB of the smallest TPU that runs it.
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
        # size·(size + 1): rotating every tap cost as much as the whole kernel, and sharing
        # the rotations took most of that back (docs/performance/pallas_parts.py; its figures
        # are on the performance page).
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
