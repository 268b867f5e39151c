"""The Pallas kernel against the independent oracle (scipy's edge-padded correlation): compiled
by Mosaic where the default device is a TPU, in Pallas's interpret mode anywhere else; and the
engine that runs it beside the others, in the registry and in `compare --json`."""

import json

import jax
import numpy as np
import pytest
from helpers.blur_inputs import random_image, weights
from helpers.command_line import blurapp_in_process
from helpers.oracle import blur_oracle, check_against_oracle

from blurapp.core import TOLERANCE, gaussian_kernel, get_engine
from blurapp.core.engines import pallas_program
from blurapp.core.engines.jax_runtime import describe_device
from blurapp.core.engines.pallas_engine import (
    INTERPRET_WORDS,
    JAX_PALLAS,
    blur_pallas,
    compiled_kernels,
    program_ready,
    runs_natively,
)
from blurapp.core.engines.runs import Compilation
from blurapp.core.kernel import MAX_KERNEL_SIZE

# Run where the accelerator is: `pytest -m accelerator` (docs/contributing.md).
pytestmark = pytest.mark.accelerator

# Mosaic compiles the kernel on a TPU; elsewhere only the interpreter runs it.
NATIVE = runs_natively(jax.devices()[0])
STATIC = ("tile_rows", "chunk_lanes", "interpret")


@pytest.fixture(scope="module")
def kernel_blur():
    """pallas_program.blur under jit, native on a TPU and interpreted elsewhere."""
    jitted = jax.jit(pallas_program.blur, static_argnames=STATIC)

    def blur(image, kernel, **tiling):
        return np.asarray(jitted(image, kernel, interpret=not NATIVE, **tiling))

    return blur


@pytest.mark.parametrize("algorithm", ["2d", "separable"])
@pytest.mark.parametrize("size", [3, 9])
@pytest.mark.parametrize(
    "shape",
    [
        (37, 53),
        (37, 53, 3),
        (1, 1),
        (1, 40),
        (40, 1),
        (5, 3, 3),
        (70, 300),
        (9, 130, 3),
        (20, 43, 3),  # 129 values a row: its last pixel's channels straddle two registers
        (3, 128),  # rows exactly one register wide, fewer than the kernel's radius
    ],
)
def test_the_kernel_matches_scipy(kernel_blur, shape, size, algorithm):
    image = random_image(shape, seed=sum(shape) + size)
    kernel = weights(size, algorithm)
    check_against_oracle(kernel_blur(image, kernel), image, kernel)


@pytest.mark.parametrize("algorithm", ["2d", "separable"])
@pytest.mark.parametrize(
    "tiling",
    [
        {"tile_rows": 8, "chunk_lanes": 128},  # many tiles and chunks, halo as tall as a tile
        {"tile_rows": 24, "chunk_lanes": 256},  # tiles not a power of two rows
    ],
)
def test_tiles_and_chunks_meet_without_a_seam(kernel_blur, tiling, algorithm):
    """An image of several tiles (its height a multiple of none of them) and chunks (its width
    a multiple of none), with halos of rows shorter than, as tall as and taller than the tile
    asked for: every tile reads its halo from the next, every chunk its lanes from the next."""
    image = random_image((43, 300, 3), seed=5)
    # 15: the largest kernel whose taps are all written out; 17: the smallest whose columns
    # are a loop; 19: its halos (16 rows) taller than the tile asked for.
    for size in (9, 15, 17, 19):
        kernel = weights(size, algorithm)
        check_against_oracle(kernel_blur(image, kernel, **tiling), image, kernel)


@pytest.mark.parametrize("algorithm", ["2d", "separable"])
def test_the_largest_kernel_the_app_allows(kernel_blur, algorithm):
    # 101 × 101: the 2-D kernel's columns are a loop, each column's taps unrolled.
    image = random_image((61, 47), seed=11)
    kernel = weights(MAX_KERNEL_SIZE, algorithm)
    check_against_oracle(kernel_blur(image, kernel, tile_rows=8), image, kernel)


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["2d", "separable"])
def test_the_largest_kernel_on_a_colour_photo_of_many_tiles(kernel_blur, algorithm):
    image = random_image((300, 410, 3), seed=12)
    kernel = weights(MAX_KERNEL_SIZE, algorithm)
    check_against_oracle(kernel_blur(image, kernel), image, kernel)


def test_a_kernel_of_size_one_returns_the_image(kernel_blur):
    image = random_image((12, 9, 3))
    np.testing.assert_array_equal(kernel_blur(image, weights(1, "2d")), image)


def test_every_block_is_whole_registers_and_the_halos_reach_the_kernel_s_radius():
    for size in (1, 3, 9, 17, 31, 65, MAX_KERNEL_SIZE):
        for step in (1, 3):
            for tile_rows in (8, 32, 64, 128, 256):
                tiling = pallas_program.Tiling(4000, 6000 * step, step, size, tile_rows, 8, 512)
                radius = size // 2
                assert tiling.halo_rows >= radius and tiling.halo_rows % 8 == 0
                assert tiling.tile_rows % tiling.halo_rows == 0
                assert tiling.tile_rows % tiling.group_rows == 0
                assert tiling.margin_lanes % 128 == 0 and tiling.margin_lanes >= radius * step
                assert tiling.buffer_lanes % 128 == 0
                assert tiling.chunks * tiling.chunk_lanes + tiling.last_lanes == 6000 * step
                assert tiling.tiles * tiling.tile_rows >= 4000


def test_a_tile_is_no_taller_than_the_photo_needs():
    assert pallas_program.Tiling(1, 40, 1, 3, 128, 8, 512).tile_rows == 8
    assert pallas_program.Tiling(70, 300, 3, 9, 128, 16, 512).tile_rows == 80


def test_a_photo_too_wide_for_the_tile_gets_fewer_rows_and_vmem_enough():
    wide = pallas_program.Tiling(100, 60_000, 1, 9, 256, 8, 512)
    assert 8 <= wide.tile_rows < 256 and wide.tile_rows % wide.halo_rows == 0
    assert wide.block_bytes(wide.tile_rows) <= pallas_program.BLOCK_BYTES
    assert wide.block_bytes(wide.tile_rows) < wide.vmem_limit() <= pallas_program.MAX_VMEM_BYTES
    photo = pallas_program.Tiling(4000, 6000, 1, 9, 128, 8, 512)
    assert photo.tile_rows == 128 and photo.vmem_limit() >= 16 << 20


def test_tiling_that_is_not_whole_registers_is_refused():
    with pytest.raises(ValueError, match="multiple of 8"):
        pallas_program.Tiling(10, 10, 1, 3, 12, 8, 128)
    with pytest.raises(ValueError, match="multiple of 128"):
        pallas_program.Tiling(10, 10, 1, 3, 8, 8, 100)


@pytest.mark.parametrize(
    ("shape", "size", "algorithm"),
    [((4000, 6000), 9, "2d"), ((4000, 6000, 3), 9, "separable"), ((37, 53), 101, "2d")],
)
def test_the_kernel_lowers_for_a_tpu_on_any_machine(shape, size, algorithm):
    """Pallas's rules turn the kernel into Mosaic's operations for a TPU without one: what
    only the chip's compiler checks (the layouts of the vectors) is left to a TPU."""
    jitted = jax.jit(pallas_program.blur, static_argnames=STATIC)
    image = jax.ShapeDtypeStruct(shape, np.float32)
    kernel = jax.ShapeDtypeStruct(weights(size, algorithm).shape, np.float32)
    lowered = jitted.trace(image, kernel).lower(lowering_platforms=("tpu",))
    assert "tpu_custom_call" in lowered.as_text()


def test_the_engine_says_where_the_kernel_is_interpreted():
    first = JAX_PALLAS.start(random_image((20, 30)), weights(5, "2d"))
    device = describe_device(jax.devices()[0])
    assert first.device == (device if NATIVE else f"{device} ({INTERPRET_WORDS})")
    assert JAX_PALLAS.jitted and get_engine("pallas") is JAX_PALLAS


def test_a_new_sigma_reuses_the_compiled_kernel_and_a_new_size_compiles():
    image = random_image((29, 31), seed=3)
    compiled_kernels.clear()
    assert not program_ready(image.shape, (7, 7))
    first = JAX_PALLAS.blur(image, gaussian_kernel(7, 1.5), repeats=1)
    assert first.compilation in (Compilation.COMPILED, Compilation.FROM_CACHE)
    assert first.first_call_parts is not None
    assert program_ready(image.shape, (7, 7)) and not program_ready(image.shape, (9, 9))
    kernel = gaussian_kernel(7, 3.0)
    again = JAX_PALLAS.blur(image, kernel, repeats=1)
    assert again.compilation is Compilation.REUSED
    np.testing.assert_allclose(again.output, blur_oracle(image, kernel), rtol=0, atol=TOLERANCE)
    assert JAX_PALLAS.blur(image, gaussian_kernel(9, 3.0), repeats=0).compiled


def test_blur_pallas_is_the_engine_s_blur():
    image = random_image((23, 19, 3), seed=9)
    kernel = weights(9, "separable")
    check_against_oracle(blur_pallas(image, kernel), image, kernel)


def test_compare_json_shows_the_kernel_beside_xla_s_program(tmp_path):
    from PIL import Image

    photo = tmp_path / "photo.png"
    pixels = np.random.default_rng(2).integers(0, 256, (37, 53, 3), np.uint8)
    Image.fromarray(pixels).save(photo)
    run = blurapp_in_process(
        "compare", photo, "--engines", "numpy,jax,pallas", "--color", "--repeat", "2", "--json"
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["image"]["channels"] == 3
    pallas, xla = data["pallas"], data["jax"]
    assert pallas["within_tolerance"] and pallas["max_abs_diff"] <= TOLERANCE
    assert pallas["error"] is None and pallas["compiled"]
    for figure in ("seconds", "first_call_seconds", "to_device_seconds", "from_device_seconds"):
        assert pallas[figure] > 0 and xla[figure] > 0
    assert pallas["speedup"] > 0 and pallas["floor_seconds"] is not None
    assert (INTERPRET_WORDS in pallas["device"]) is not NATIVE
    assert data["speedup"] == xla["speedup"]  # JAX-jit, named first, stays the headline


def test_the_window_offers_jax_pallas_everywhere_and_says_where_it_is_interpreted(monkeypatch):
    from helpers.tpu_runtime import seem_to_have_libtpu

    from blurapp.app.session import Session
    from blurapp.core.engines import offered_engine_names, pallas_engine

    captions = Session().captions
    # Before JAX has opened its device (a test before this one may have): told from what is
    # installed and JAX_PLATFORMS.
    monkeypatch.setattr(pallas_engine, "default_device_opened", lambda: None)
    seem_to_have_libtpu(monkeypatch, False)
    assert {"numpy", "jax", "pallas"} <= set(offered_engine_names())
    assert captions.choice("pallas") == "JAX Pallas (interpreted)"
    assert "say nothing of the kernel on a chip" in (captions.choice_tip("pallas") or "")
    assert captions.choice("jax") == "JAX-jit" and captions.choice_tip("jax") is None
    seem_to_have_libtpu(monkeypatch, True)
    monkeypatch.setenv("JAX_PLATFORMS", "cpu")  # the TPU's runtime there, but not opened
    assert captions.choice("pallas") == "JAX Pallas (interpreted)"
    monkeypatch.delenv("JAX_PLATFORMS")
    assert "pallas" in offered_engine_names()
    assert captions.choice("pallas") == "JAX Pallas" and captions.choice_tip("pallas") is None
