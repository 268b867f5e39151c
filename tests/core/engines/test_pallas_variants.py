"""Each of the Pallas kernel's variants (pallas_program.VARIANTS: its tilings, the separable
blur staged in VMEM, a rank-one kernel on the matrix unit, a kernel row's taps as strided loads)
against the independent oracle (scipy's edge-padded correlation) at odd shapes; the host's
choice of the vector unit for a kernel that is not rank one; and the engine running a variant
as its default. Compiled by Mosaic where the default device is a TPU, in Pallas's interpret
mode anywhere else (small images: the interpreter is slow)."""

import jax
import numpy as np
import pytest
from helpers.blur_inputs import random_image
from helpers.oracle import blur_oracle, check_against_oracle

from blurapp.core import gaussian_kernel
from blurapp.core.engines import pallas_engine, pallas_matrix, pallas_program, pallas_strided
from blurapp.core.kernel import MAX_KERNEL_SIZE, MAX_SIGMA, gaussian_kernel_1d, pad_kernel

# Run where the accelerator is: `pytest -m accelerator` (docs/contributing.md).
pytestmark = pytest.mark.accelerator

NATIVE = pallas_engine.runs_natively(jax.devices()[0])
# Every variant but the default (test_pallas.py's) and "tall", whose programs for images this
# small are "rotated"'s: its taller tiles are only for wide photos (below).
VARIANTS = [
    name for name in pallas_program.VARIANTS if name not in (pallas_program.DEFAULT_VARIANT, "tall")
]


@pytest.fixture(scope="module")
def variant_blur():
    """pallas_program.blur under jit in a given variant, native on a TPU, interpreted
    elsewhere."""
    jitted = jax.jit(pallas_program.blur, static_argnames=("variant", "interpret"))

    def blur(image, kernel, variant):
        return np.asarray(jitted(image, kernel, variant=variant, interpret=not NATIVE))

    return blur


@pytest.mark.parametrize(
    ("variant", "algorithm"),
    # "staged" stages the separable blur; its 2-D blur is the default's.
    [(name, "separable") for name in VARIANTS]
    + [(name, "2d") for name in VARIANTS if name != "staged"],
)
@pytest.mark.parametrize(
    "shape",
    [
        (1, 40),  # a row
        (40, 1, 3),  # a column, in colour
        (3, 2, 3),  # smaller than the 5 × 5 kernel
        (130, 45),  # two tiles of every variant, the last a few rows; a row within a chunk
        (9, 150, 3),  # 450 values a row: chunks of 128 lanes and a part chunk
    ],
)
def test_every_variant_matches_scipy(variant_blur, variant, shape, algorithm):
    image = random_image(shape, seed=sum(shape))
    # 5 × 5: the interpreter's programs grow with the taps (41 × 41 below).
    kernel = gaussian_kernel(5, 1.2) if algorithm == "2d" else gaussian_kernel_1d(5, 1.2)
    check_against_oracle(variant_blur(image, kernel, variant), image, kernel)


@pytest.mark.parametrize("algorithm", ["2d", "separable"])
@pytest.mark.parametrize(
    "shape",
    [
        (12, 1324),  # a whole chunk of 1,024 lanes, one more overlapping it, 44 lanes past
        (10, 1074),  # a whole chunk, then 50 lanes past its last register
        (6, 460, 3),  # 1,380 values a row, in colour
        (5, 2048),  # whole chunks only
    ],
)
def test_rows_past_whole_chunks_in_an_overlapped_last_chunk_match_scipy(
    variant_blur, shape, algorithm
):
    """ "wide_overlapped" blurs the lanes past a row's whole chunks with one more whole chunk,
    overlapping the one before, and a chunk of one register (Variant.last_chunk)."""
    image = random_image(shape, seed=sum(shape))
    kernel = gaussian_kernel(5, 1.2) if algorithm == "2d" else gaussian_kernel_1d(5, 1.2)
    check_against_oracle(variant_blur(image, kernel, "wide_overlapped"), image, kernel)


@pytest.mark.parametrize("variant", ["matrix", "matrix_columns", "staged", "strided"])
def test_a_kernel_wider_than_a_register_s_margin(variant_blur, variant):
    """A 41 × 41 kernel: halos of 32 rows, margins of two registers of lanes (20 pixels × 3
    values), a tile of the matrix unit's taller than its 112 rows."""
    image = random_image((50, 70, 3), seed=4)
    kernel = gaussian_kernel(41, 7.0)
    check_against_oracle(variant_blur(image, kernel, variant), image, kernel)


def test_tall_and_wide_give_a_colour_photo_tiles_as_tall_as_grey_s():
    for name in ("tall", "wide"):
        variant = pallas_program.VARIANTS[name]
        for step in (1, 3):
            tiling = pallas_program.Tiling(
                4000,
                6000 * step,
                step,
                9,
                variant.tile_rows,
                variant.group_rows,
                variant.chunk_lanes,
                variant.block_bytes,
            )
            assert tiling.tile_rows == 128 and tiling.group_rows == variant.group_rows
            assert tiling.block_bytes(128) < tiling.vmem_limit() <= pallas_program.MAX_VMEM_BYTES
    rotated = pallas_program.VARIANTS["rotated"]
    colour = pallas_program.Tiling(4000, 18000, 3, 9, rotated.tile_rows, 16, 512)
    assert colour.tile_rows == 64


def test_strided_tiles_leave_vmem_for_its_scratch():
    """ "strided" copies the tile into columns and blurs it into others (pallas_strided): a 24 MP
    photo's tiles, grey and colour, are as short as make room for them in its blocks' VMEM."""
    variant = pallas_program.VARIANTS["strided"]
    for step, tile_rows in ((1, 128), (3, 64), (4, 64)):
        tiling = pallas_program.Tiling(
            4000, 6000 * step, step, 9, block_bytes=variant.block_bytes, strided=True
        )
        plain = pallas_program.Tiling(4000, 6000 * step, step, 9)
        scratch = [
            np.prod(shape) * 4
            for shape in (
                pallas_strided.columns_shape(tiling),
                pallas_strided.blurred_shape(tiling),
            )
        ]
        counted = tiling.block_bytes(tiling.tile_rows)
        assert counted == plain.block_bytes(tiling.tile_rows) + sum(scratch)
        assert tiling.tile_rows == tile_rows and counted <= variant.block_bytes
        assert counted < tiling.vmem_limit() <= pallas_program.MAX_VMEM_BYTES


def test_the_app_s_gaussians_are_rank_one():
    for size in (1, 3, 9, 31, MAX_KERNEL_SIZE):
        for sigma in (0.3, 1.0, 2.5, 10.0, MAX_SIGMA):
            kernel = gaussian_kernel(size, sigma)
            assert pallas_matrix.rank_one(kernel), (size, sigma)
            assert pallas_matrix.rank_one(pad_kernel(kernel, size + 4)), (size, sigma)
            assert pallas_program.variant_for(kernel, "matrix") == "matrix"
    assert pallas_program.variant_for(gaussian_kernel_1d(9, 2.5), "matrix") == "matrix"


@pytest.mark.parametrize("variant", ["matrix", "strided"])
def test_a_kernel_that_is_not_rank_one_keeps_the_exact_vector_program(variant_blur, variant):
    kernel = np.random.default_rng(7).random((9, 9), dtype=np.float32)
    kernel /= kernel.sum()
    # A sum of two outer products: rank two, each part rank one.
    two = (np.outer(np.hanning(7), np.ones(7)) + np.outer(np.ones(7), np.hanning(7))).astype(
        np.float32
    )
    for weights in (kernel, two / two.sum()):
        assert not pallas_matrix.rank_one(weights)
        chosen = pallas_program.variant_for(weights, variant)
        assert chosen == pallas_program.VECTOR_VARIANT
        image = random_image((19, 23, 3), seed=8)
        check_against_oracle(variant_blur(image, weights, chosen), image, weights)


@pytest.mark.parametrize("variant", ["matrix", "staged", "strided"])
def test_the_engine_runs_the_default_variant(monkeypatch, variant):
    """The engine's photos and frames in the variant pallas_program.DEFAULT_VARIANT names;
    a kernel that is not rank one, where that variant blurs a 2-D kernel as its factors (the
    matrix unit's, "strided"), in the exact vector program."""
    monkeypatch.setattr(pallas_program, "DEFAULT_VARIANT", variant)
    pallas_engine.compiled_kernels.clear()

    def variants_compiled(kernel_shape):
        keys = pallas_engine.compiled_kernels.held_keys()
        return {key[5] for key in keys if key[2] == kernel_shape}

    image = random_image((23, 19, 3), seed=9)
    for kernel in (gaussian_kernel(7, 1.5), gaussian_kernel_1d(7, 1.5)):
        check_against_oracle(pallas_engine.blur_pallas(image, kernel), image, kernel)
        assert pallas_engine.program_ready(image.shape, kernel.shape)
        assert variants_compiled(kernel.shape) == {variant}
    odd = np.random.default_rng(3).random((3, 3), dtype=np.float32)
    odd /= odd.sum()
    check_against_oracle(pallas_engine.blur_pallas(image, odd), image, odd)
    factored = pallas_program.VARIANTS[variant].factored
    assert variants_compiled(odd.shape) == {pallas_program.VECTOR_VARIANT if factored else variant}
    frames = np.random.default_rng(1).integers(0, 256, (2, 11, 19, 3), np.uint8)
    kernel = gaussian_kernel(5, 1.2)
    blurred = pallas_engine.blur_frames_pallas(frames, kernel).output
    assert blurred.dtype == np.uint8 and blurred.shape == frames.shape
    assert variants_compiled(kernel.shape) == {variant}
    expected = np.stack([blur_oracle(frame / 255, kernel) for frame in frames])
    # The nearest level, but for a sum that falls within float32's rounding of a half.
    expected = np.rint(np.clip(expected, 0, 1) * 255)
    assert np.abs(blurred.astype(np.int64) - expected).max() <= 1
