"""The blur as JAX traces it: the manual convolution written with lax's slices and products,
in strips sized for a CPU's cache. blurapp.core.engines.jax_engine compiles it and calls it.

jax is imported only inside these functions, as in the engine.
"""

from __future__ import annotations

import functools
from typing import Any

from blurapp.core.platforms import platform_traits

# Up to this many taps, every tap is unrolled into one fused pass over the image; beyond it,
# the kernel rows become a loop, so compile time stays short for large kernels. On an
# accelerator a 2-D kernel's rows are a loop whatever the taps (blur_on_accelerator says why).
UNROLL_TAPS = 225


def _row_sum(band: Any, row_weights: Any, width: int, step: int) -> Any:
    """Σ over one kernel row's taps (`row_weights`, 1-D) of `band` shifted along its last axis
    by `step` values a tap, each slice `width` values wide."""
    from jax import lax

    value_axis = band.ndim - 1
    total = None
    for dx in range(row_weights.shape[0]):
        shifted = lax.slice_in_dim(band, dx * step, dx * step + width, axis=value_axis)
        weight = lax.index_in_dim(row_weights, dx, keepdims=False)
        term = lax.mul(shifted, lax.broadcast(weight, shifted.shape))
        total = term if total is None else lax.add(total, term)
    return total


@functools.cache
def _traced_once_row_sum() -> Any:
    """_row_sum under a jit of its own: every kernel row of a blur has the same shapes, so JAX
    traces and lowers one row's taps once and calls that for each row. XLA inlines the calls
    before it optimises (on the CPU, the optimised program is the one of the taps written out,
    instruction for instruction; not yet compared on a GPU), and a first call from the
    compilation cache, which is mostly tracing and lowering, is shorter."""
    import jax

    return jax.jit(_row_sum, static_argnames=("width", "step"))


def _add_shifted_slices(
    padded: Any, weights: Any, height: int, width: int, step: int = 1, *, looped: bool = False
) -> Any:
    """Σ weight × shifted slice over every tap of a 2-D `weights` (which may be 1×k or k×1),
    over the last two axes of `padded` (rows, values); any axes before them are strips.

    Each kernel row's taps are summed first and that row sum added to the total: XLA then
    fuses a row's slices into one pass, which measured faster than a single running sum.
    `step`: the values per pixel in a row (a colour row's channels lie side by side in it).
    `looped`: the kernel rows a loop whatever the taps (see blur_on_accelerator).
    Written with lax's slices and products, not NumPy-style indexing and a vmap over the
    strips: the same program, traced and lowered in less time, which is most of a first call
    whose program comes from the compilation cache.
    """
    import jax.numpy as jnp
    from jax import lax

    rows = weights.shape[0]
    row_axis = padded.ndim - 2

    def row_sum(band: Any, row_weights: Any) -> Any:
        return _traced_once_row_sum()(band, row_weights, width=width, step=step)

    if weights.size <= UNROLL_TAPS and not looped:
        output = None
        for dy in range(rows):
            band = lax.slice_in_dim(padded, dy, dy + height, axis=row_axis)
            kernel_row = lax.index_in_dim(weights, dy, keepdims=False)
            row = row_sum(band, kernel_row)
            output = row if output is None else lax.add(output, row)
        return output

    def add_kernel_row(dy: Any, output: Any) -> Any:
        band = lax.dynamic_slice_in_dim(padded, dy, height, axis=row_axis)
        return lax.add(output, row_sum(band, lax.dynamic_index_in_dim(weights, dy, keepdims=False)))

    shape = (*padded.shape[:row_axis], height, width)
    return lax.fori_loop(0, rows, add_kernel_row, jnp.zeros(shape, padded.dtype))


def _blur_block(
    padded: Any, weights: Any, height: int, width: int, step: int = 1, *, looped: bool = False
) -> Any:
    """Blur `padded` (already edge-padded by the kernel radius) into height × width values,
    `step` values to a pixel; `looped`: a 2-D kernel's rows a loop (see _add_shifted_slices)."""
    from jax import lax

    if weights.ndim == 2:
        return _add_shifted_slices(padded, weights, height, width, step, looped=looped)
    # Separable: along the rows of every padded row, then down the columns.
    radius = weights.shape[0] // 2
    rows = _add_shifted_slices(
        padded, lax.expand_dims(weights, (0,)), height + 2 * radius, width, step
    )
    return _add_shifted_slices(rows, lax.expand_dims(weights, (1,)), height, width)


# The image is blurred in horizontal strips, so a strip and its padding stay in the CPU's
# cache while every tap reads them, instead of each tap streaming the whole image from memory.
# When every tap is unrolled, the 2-D blur's strips are one batched program, which XLA spreads
# over the cores (the separable blur's are a loop: _separable_strip_by_strip); with the
# kernel-row loop, a loop over strips measured faster. Strip heights
# are the fastest measured on a 24 MP image (`blurapp bench`; the CPU record's machine).
BATCHED_STRIP_ROWS = 64
LOOPED_STRIP_ROWS = 128
# The separable blur's strips on a CPU, looped (_separable_strip_by_strip): a 6,000-pixel grey
# strip of 32 rows and its padding is about 1 MB, a core's L2 cache on the CPU record's machine,
# where fewer and more rows were slower (docs/performance.md, "What the code's settings rest
# on").
SEPARABLE_STRIP_ROWS = 32
# From this kernel radius up, the CPU's batched strips are gathered from the image directly;
# for a 3 × 3 kernel XLA fuses that gather into the blur itself, five times slower.
GATHER_MIN_RADIUS = 2


def blur(image: Any, weights: Any, in_strips: bool = True, pass_values: int | None = None) -> Any:
    """The jitted blur. Shapes are static (part of the compiled program); weights are traced.

    The result is rows of values (height × width·channels), reshaped to the image's shape on
    the host, where that costs nothing: an XLA result shaped height × width × 3 makes the
    blur's loop run over the 3 channels innermost, one value at a time where it otherwise
    runs over a whole row in vector registers: faster in colour on a CPU, separable most of all.

    `in_strips=False` (an accelerator's) makes the blur blur_on_accelerator's: rows of values
    padded in values, in passes of at most `pass_values` values (pass_values_on), a 2-D
    kernel's rows a loop (blur_on_accelerator says why). A GPU runs the kernel-row loop
    faster in one pass than strip by strip (docs/performance.md, "What the code's settings
    rest on").
    """
    import jax.numpy as jnp

    # A colour photo (height × width × channels) is blurred as it lies in memory, each row's
    # channels side by side as one row of values (a pixel's shift is `step` values), in the
    # same program as grey: quicker than mapping the 2-D blur over the channels (vmap). The
    # result leaves the program as rows of values for the same reason (see the docstring).
    height, width, *channels = image.shape
    step = channels[0] if channels else 1
    radius = weights.shape[0] // 2
    edges = ((radius, radius), (radius, radius), *[(0, 0)] * len(channels))

    def side_by_side(pixels: Any) -> Any:
        """Rows of pixels (…, columns[, channels]) as rows of values (…, columns × channels)."""
        return pixels.reshape(*pixels.shape[:-2], -1) if channels else pixels

    def blur(values: Any, rows: int) -> Any:
        """An edge-padded block of rows + 2·radius rows of values blurred into rows × width
        pixels' values."""
        return _blur_block(values, weights, rows, width * step, step)

    taps = weights.size if weights.ndim == 2 else 2 * weights.size
    unrolled = taps <= UNROLL_TAPS
    strip_rows = BATCHED_STRIP_ROWS if unrolled else LOOPED_STRIP_ROWS
    if not in_strips:
        return _blur_in_passes(side_by_side(image), weights, step, pass_values)
    if height <= strip_rows:
        padded = side_by_side(jnp.pad(image, edges, mode="edge"))
        return _blur_block(padded, weights, height, width * step, step)
    strips = -(-height // strip_rows)
    rows = -(-height // strips)  # equal strips of at most strip_rows
    if unrolled and weights.ndim == 1:
        return _separable_strip_by_strip(side_by_side(image), weights, height, width, step)
    if unrolled and radius >= GATHER_MIN_RADIUS:
        # Each strip with its edge padding gathered straight from the image (indices clamped
        # to the edge): one pass over memory where padding the whole image and slicing strips
        # from it made three.
        wanted_rows, wanted_values = _strip_indices(strips, rows, radius, image.shape[:2], step)
        blocks = side_by_side(image)[wanted_rows, wanted_values]
        # Every strip at once, the strips an axis of their own (no vmap: see _add_shifted_slices).
        return blur(blocks, rows).reshape(strips * rows, width * step)[:height]
    extra = strips * rows - height  # rows past the bottom (fewer than `strips`), cropped at the end
    padded = side_by_side(
        jnp.pad(image, ((radius, radius + extra), (radius, radius), *edges[2:]), mode="edge")
    )
    return _strip_by_strip(
        padded, weights, (strips, rows), height, step, side_by_side=unrolled, looped=False
    )


def _strip_by_strip(
    padded: Any,
    weights: Any,
    strips: tuple[int, int],
    height: int,
    step: int,
    *,
    side_by_side: bool,
    looped: bool,
) -> Any:
    """Rows of values edge-padded by the kernel's radius, and below by as many rows as make
    `strips` (their number, their rows) whole, blurred strip by strip into `height` rows:
    the strips side by side (vmap) or one after another (lax.map); `looped` as _blur_block."""
    import jax
    import jax.numpy as jnp
    from jax import lax

    count, rows = strips
    radius = weights.shape[0] // 2
    row_values = padded.shape[1] - 2 * radius * step

    def blur_strip(index: Any) -> Any:
        block = lax.dynamic_slice_in_dim(padded, index * rows, rows + 2 * radius)
        return _blur_block(block, weights, rows, row_values, step, looped=looped)

    indices = jnp.arange(count)
    blurred = jax.vmap(blur_strip)(indices) if side_by_side else lax.map(blur_strip, indices)
    return blurred.reshape(count * rows, row_values)[:height]


def _separable_strip_by_strip(values: Any, weights: Any, height: int, width: int, step: int) -> Any:
    """The separable blur of an image taken as rows of values (height × width·step), strip
    by strip in a loop: each strip's padded rows gathered from the image, blurred along its
    rows into a buffer of their own, then down its columns.

    XLA fuses a row pass into the column pass that reads it, so in one fused loop every output
    value recomputes each of the k row sums it reads: k² + k products, the 2-D blur's work.
    Kept apart (see _kept_apart), the passes make 2·k products a value; done one strip at a
    time, the strip and its row sums stay in the CPU's cache between the passes, where a
    row-blurred image made in one piece would go out to memory and back."""
    import jax.numpy as jnp
    from jax import lax

    radius = weights.shape[0] // 2
    strips = -(-height // SEPARABLE_STRIP_ROWS)
    rows = -(-height // strips)  # equal strips of at most SEPARABLE_STRIP_ROWS
    wanted_rows, wanted_values = _strip_indices(strips, rows, radius, (height, width), step)
    wanted_values = lax.index_in_dim(wanted_values, 0, keepdims=False)
    row_values = width * step

    def along_rows(block: Any, weights: Any) -> Any:
        return _add_shifted_slices(
            block, lax.expand_dims(weights, (0,)), rows + 2 * radius, row_values, step
        )

    def blur_strip(strip: Any) -> Any:
        block = values[lax.dynamic_index_in_dim(wanted_rows, strip, keepdims=False), wanted_values]
        blurred_rows = _kept_apart(along_rows, block, weights)
        return _add_shifted_slices(blurred_rows, lax.expand_dims(weights, (1,)), rows, row_values)

    blurred = lax.map(blur_strip, jnp.arange(strips))
    return blurred.reshape(strips * rows, row_values)[:height]


def _kept_apart(function: Any, *operands: Any) -> Any:
    """function(*operands), its result made in a buffer of its own: XLA compiles a
    conditional's branches on their own and fuses nothing across them (its
    optimization_barrier does not stop fusion on the CPU). Both branches are `function`, so
    either gives the same values; the predicate (the last operand's first value is finite)
    only has to be unknown until the program runs, or XLA would drop the conditional."""
    from jax import lax

    last = operands[-1]
    first = lax.index_in_dim(lax.reshape(last, (last.size,)), 0, keepdims=False)
    return lax.cond(lax.is_finite(first), function, function, *operands)


def _strip_indices(
    strips: int, rows: int, radius: int, size: tuple[int, int], step: int
) -> tuple[Any, Any]:
    """Where each strip's padded rows and values come from in an image of `size` (height,
    width) taken as rows of values, indices clamped to the edge: rows shaped strips × (rows +
    2·radius) × 1, values 1 × 1 × (width + 2·radius)·step, to index it with.

    Built with lax's iota, not jnp.arange and NumPy-style arithmetic, each of whose steps costs
    more to trace: the same indices, and an optimised program that differs only in an index
    array's trailing axis of 1."""
    import numpy as np
    from jax import lax

    height, width = size
    padded_rows, padded_columns = rows + 2 * radius, width + 2 * radius

    def counting(length: int, along: int, shape: tuple[int, ...], start: int = 0) -> Any:
        """start, start + 1, … along axis `along` of `shape`, the same along the others."""
        numbers = lax.add(lax.iota(np.int32, length), np.int32(start))
        return lax.broadcast_in_dim(numbers, shape, (along,))

    def clamped(indices: Any, largest: int) -> Any:
        return lax.clamp(np.int32(0), indices, np.int32(largest))

    row_shape = (strips, padded_rows, 1)
    strip_tops = lax.mul(counting(strips, 0, row_shape), np.int32(rows))
    wanted_rows = clamped(
        lax.add(strip_tops, counting(padded_rows, 1, row_shape, -radius)), height - 1
    )
    # A colour pixel's channels are `step` values in a row.
    value_shape = (padded_columns, step)
    columns = clamped(counting(padded_columns, 0, value_shape, -radius), width - 1)
    values = lax.add(lax.mul(columns, np.int32(step)), counting(step, 1, value_shape))
    return wanted_rows, lax.reshape(values, (1, 1, padded_columns * step))


def blur_levels(
    levels: Any, weights: Any, in_strips: bool = True, pass_values: int | None = None
) -> Any:
    """A block of a large image's stored levels (uint8 or uint16; rows × columns, or × channels),
    with the kernel's radius of halo on every side, blurred into levels of its own type without
    that halo, as rows of values ((rows − 2·radius) × (columns − 2·radius)·channels).

    The arithmetic of the host's path, in one program: a level times 1/white in float32
    (blurapp.core.media.pixels.samples_to_float), `blur`, then clipped to [0, 1], times white and
    rounded half to even (blurapp.core.media.saving's levels), white being the type's largest value.
    The same levels as the conversions on the host around `blur`, with a quarter of the bytes
    moved and nothing converted on the host.
    """
    import jax.numpy as jnp
    import numpy as np
    from jax import lax

    white = np.float32(np.iinfo(levels.dtype).max)
    values = levels_to_floats(levels, apart=True)
    height, width, *channels = levels.shape
    step = channels[0] if channels else 1
    radius = weights.shape[0] // 2
    blurred = blur(values, weights, in_strips, pass_values)[
        radius : height - radius, radius * step : (width - radius) * step
    ]
    rounded = lax.round(lax.mul(jnp.clip(blurred, 0, 1), white), lax.RoundingMethod.TO_NEAREST_EVEN)
    return lax.convert_element_type(rounded, levels.dtype)


# A strip's rows, but for the last one's, are a multiple of a TPU's 8 rows (sublanes) of a tile.
_TILE_ROWS = 8


def pass_values_on(platform: str) -> int | None:
    """The most values a pass of the accelerator's program holds on `platform` (JAX's name:
    "tpu", "gpu"), None for no limit (platforms.Platform.pass_values: a TPU's
    ACCELERATOR_PASS_VALUES, measured there)."""
    return platform_traits(platform).pass_values


def accelerator_strips(height: int, row_values: int, pass_values: int | None) -> tuple[int, int]:
    """How an accelerator blurs an image of `height` rows of `row_values` values: (strips, rows
    a strip), the fewest strips of at most `pass_values` values each (one strip of a few rows
    where even that is more; None: one pass)."""
    if pass_values is None or height * row_values <= pass_values:
        return 1, height
    strips = 2
    while True:
        rows = -(-height // strips)
        rows = -(-rows // _TILE_ROWS) * _TILE_ROWS
        if rows * row_values <= pass_values or rows <= _TILE_ROWS:
            return -(-height // rows), rows
        strips += 1


def blur_on_accelerator(
    values: Any, weights: Any, step: int = 1, pass_values: int | None = None
) -> Any:
    """The blur as an accelerator (a GPU, a TPU) runs it: `values` are rows of values (height ×
    width·step, a colour pixel's `step` channels side by side in a row), float32, or stored
    levels (uint8, uint16) that the program makes float32 as the host would (a level times
    1/white, white the type's largest value: blurapp.core.media.pixels.samples_to_float).
    Floats give the blurred rows of values; levels give a pair: those rows rounded back into
    levels of the same type (as saving rounds), then the float rows themselves, which stay on
    the device unless asked for.

    Rows of values, not height × width × 3: on a TPU the last axis is laid across 128 lanes,
    and a pixel's 3 channels there fill 3 of them, which made a 24 MP colour photo's copies
    and blur several times slower than grey's three planes' worth. The edges are padded in
    values, pixel by pixel, so no array of pixels is ever made on the device.

    Unlike the CPU's program (blur), no strips sized for a cache, only passes of at most
    `pass_values` values (pass_values_on: on a TPU a 24 MP grey photo is one), and the 2-D
    kernel's rows a loop: on a TPU the separable blur's two passes over the whole image are
    quicker than looped in strips, and the 2-D blur's kernel rows as a loop over the whole
    image (each row's taps written out) run in half the time of all its taps written out over
    strips side by side, and compile in a third of it: the first call's most part. The
    separable blur's taps stay written out (a loop was twice as slow). A colour photo stays
    rows of values: its channels as planes of their own were slower, moved apart or taken
    apart, than rows of values in strips. The figures, and the probes that gave them, are on
    the performance page ("Before the programs changed")."""
    import jax.numpy as jnp

    levels_type = values.dtype if jnp.issubdtype(values.dtype, jnp.integer) else None
    blurred = _blur_in_passes(levels_to_floats(values), weights, step, pass_values)
    return blurred if levels_type is None else (floats_to_levels(blurred, levels_type), blurred)


def _blur_in_passes(values: Any, weights: Any, step: int, pass_values: int | None) -> Any:
    """Rows of values (height × width·step) blurred as an accelerator does: edge-padded in
    values, then in passes of at most `pass_values` values (strips of rows, one after another;
    None: one pass), a 2-D kernel's rows a loop in each."""

    height, row_values = values.shape
    radius = weights.shape[0] // 2
    strips, rows = accelerator_strips(height, row_values, pass_values)
    padded = _pad_values(values, radius, step, below=strips * rows - height)
    if strips == 1:
        return _blur_block(padded, weights, height, row_values, step, looped=True)
    return _strip_by_strip(
        padded, weights, (strips, rows), height, step, side_by_side=False, looped=True
    )


def levels_to_floats(values: Any, *, apart: bool = False) -> Any:
    """Stored levels (uint8, uint16) as the float32 the host makes of them (a level times
    1/white, white the type's largest value: blurapp.core.media.pixels.samples_to_float);
    float32 values as they are. `apart`: made before the taps read them, not fused into them
    (for levels rounded back, which must be the host's; see below)."""
    import jax.numpy as jnp
    import numpy as np
    from jax import lax

    if not jnp.issubdtype(values.dtype, jnp.integer):
        return values
    white = np.float32(np.iinfo(values.dtype).max)
    floats = lax.mul(lax.convert_element_type(values, jnp.float32), np.float32(1 / white))
    # Fused into the taps of a CPU's program, XLA's values differed from the host's by one unit
    # in the last place in up to 1 in 25 pixels (a 16-bit level then rounds the other way).
    # Timed the same on a 2,056² block on a CPU; an accelerator's photo program, whose levels
    # were measured on the TPU without it, does not ask for it.
    return lax.optimization_barrier(floats) if apart else floats


def floats_to_levels(values: Any, levels_type: Any) -> Any:
    """Float32 values in [0, 1] as levels of `levels_type`, rounded as saving rounds them
    (clipped, times white, half to even)."""
    import jax.numpy as jnp
    import numpy as np
    from jax import lax

    white = np.float32(np.iinfo(levels_type).max)
    rounded = lax.round(lax.mul(jnp.clip(values, 0, 1), white), lax.RoundingMethod.TO_NEAREST_EVEN)
    return lax.convert_element_type(rounded, levels_type)


def rows_of_values(shape: tuple[int, ...]) -> tuple[tuple[int, int], int]:
    """An image's shape (height × width, or × channels) as blur_on_accelerator takes it: rows
    of values (height × width·channels), and the values a pixel takes in a row."""
    height, width, *channels = shape
    step = channels[0] if channels else 1
    return (height, width * step), step


def _pad_values(values: Any, radius: int, step: int, below: int = 0) -> Any:
    """Rows of values (height × width·step) edge-padded by `radius` pixels on every side: the
    first and last rows repeated, and each row's first and last pixels (`step` values each);
    `below`: that many more of the last row (to make equal strips)."""
    import jax.numpy as jnp
    from jax import lax

    if radius + below == 0:
        return values
    rows = jnp.pad(values, ((radius, radius + below), (0, 0)), mode="edge")
    if radius == 0:
        return rows
    if step == 1:
        return jnp.pad(rows, ((0, 0), (radius, radius)), mode="edge")
    row_values = rows.shape[1]
    first = lax.slice_in_dim(rows, 0, step, axis=1)
    last = lax.slice_in_dim(rows, row_values - step, row_values, axis=1)
    return lax.concatenate([*[first] * radius, rows, *[last] * radius], dimension=1)
