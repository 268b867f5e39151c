"""The compute floor: this blur's multiply-adds at the float32 rate a matrix product reaches on
the same device, and every engine's time as a multiple of it and as GFLOP/s, checked on cases
whose arithmetic is known."""

from dataclasses import replace

import numpy as np
import pytest

from blurapp.core.engines.gemm import LARGEST_SIZE, chosen_gemm, sized_gemm
from blurapp.core.engines.runs import Call, EngineRun
from blurapp.core.measuring.comparison import ComparisonResult, comparison_dict
from blurapp.core.measuring.floors import ComputeFloor
from blurapp.core.report.figures import comparison_figures


def result_of(
    algorithm: str, shape: tuple[int, ...], seconds: dict[str, float]
) -> ComparisonResult:
    kernel = np.ones((9, 9) if algorithm == "2d" else 9, np.float32)
    runs = {
        name: EngineRun(np.zeros(shape, np.float32), (time, time, time))
        for name, time in seconds.items()
    }
    # 100³ = 1e6 multiply-adds in 1 ms: 1e9 multiply-adds a second, 2 GFLOP/s.
    floors = (ComputeFloor("cpu", 0.001, 5, 100),)
    return ComparisonResult(
        kernel=kernel, sigma=2.5, algorithm=algorithm, runs=runs, compute_floors=floors
    )


def test_a_known_count_of_multiply_adds_gives_a_known_floor_multiple_and_rate():
    # 100 × 100 grey, 9 × 9 2-D: 81 multiply-adds a pixel, 810,000 in all, 0.81 ms at 1e9 a second.
    result = result_of("2d", (100, 100), {"numpy": 0.0081, "jax": 0.00081})
    assert result.compute_floors[0].gflop_s == pytest.approx(2.0)
    assert result.compute_floor_seconds == pytest.approx(0.00081)
    assert result.compute_multiple_of("numpy") == pytest.approx(10.0)
    assert result.compute_multiple_of("jax") == pytest.approx(1.0)
    assert result.gflop_s_of("numpy") == pytest.approx(0.2)
    assert result.gflop_s_of("jax") == pytest.approx(2.0)
    data = comparison_dict(result)
    assert data["kernel"]["multiply_adds_per_pixel"] == 81
    assert data["compute_floor_seconds"] == pytest.approx(0.00081)
    assert data["compute_floors"]["cpu"] == {
        "gflop_s": pytest.approx(2.0),
        "product_seconds": 0.001,
        "matrix_size": 100,
        "products_timed": 5,
        "matrix_unit": False,
    }
    assert data["numpy"]["compute_floor_multiple"] == pytest.approx(10.0)
    assert data["numpy"]["compute_floor_seconds"] == pytest.approx(0.00081)
    assert data["numpy"]["gflop_s"] == pytest.approx(0.2)


def test_the_separable_blur_counts_2k_multiply_adds_a_pixel_of_each_channel():
    # 100 × 100 colour, 9 separable: 18 a pixel a channel, 540,000 in all, 0.54 ms at 1e9.
    result = result_of("separable", (100, 100, 3), {"numpy": 0.0054})
    assert result.multiply_adds == 540_000
    assert result.compute_multiple_of("numpy") == pytest.approx(10.0)
    assert comparison_dict(result)["kernel"]["multiply_adds_per_pixel"] == 18


def test_the_figures_show_the_compute_floor_and_each_engines_multiple_and_gflop_s():
    result = result_of("2d", (100, 100), {"numpy": 0.0081, "jax": 0.00081})
    rows = {row.key: row for row in comparison_figures(result, "photo.png", 100, 100)}
    assert rows["compute"].value == pytest.approx(0.00081)
    assert rows["compute"].text == (
        "0.810 ms on cpu, 2.0 GFLOP/s in a 100 × 100 matrix product (81 multiply-adds a pixel "
        "at the device's float32 rate: the least they can take)"
    )
    assert rows["vs_compute"].text == (
        "NumPy 10× (0.2 GFLOP/s), JAX-jit 1.0× (2.0 GFLOP/s): the time of the blur's "
        "multiply-adds at that rate"
    )


def test_a_tpus_compute_floor_says_it_is_its_matrix_units_rate_not_the_blurs_unit():
    result = result_of("2d", (100, 100), {"numpy": 0.0081, "jax": 0.00081})
    tpu = ComputeFloor("tpu: TPU v5 lite", 0.001, 5, 100)
    runs = {**result.runs, "jax": replace(result.runs["jax"], device="tpu: TPU v5 lite")}
    result = replace(result, runs=runs, compute_floors=(*result.compute_floors, tpu))
    assert tpu.on_a_matrix_unit and not result.compute_floors[0].on_a_matrix_unit
    assert comparison_dict(result)["compute_floors"]["tpu: TPU v5 lite"]["matrix_unit"] is True
    [row] = [row for row in comparison_figures(result, "photo.png", 100, 100)
             if row.key == "compute"]  # fmt: skip
    assert row.figure.count("matrix unit") == 1  # the TPU's, not the CPU's
    assert row.figure.endswith(
        "on tpu: TPU v5 lite, 2.0 GFLOP/s in a 100 × 100 matrix product on its matrix unit; "
        "the blur runs on its vector unit"
    )


def test_the_product_kept_is_the_size_that_reached_the_best_rate():
    # A made-up device: every call costs 1 ms besides n³ multiply-adds at 1e9 a second, until
    # 512 × 512, where the matrices no longer fit its cache and it runs at half that.
    def product_of_size(size: int):
        rate = 1e9 if size < 512 else 0.5e9
        return lambda: Call(0.001 + size**3 / rate)

    gemm = sized_gemm(product_of_size, "cpu")
    assert gemm.size == 256
    assert gemm.first.again().seconds == pytest.approx(0.001 + 256**3 / 1e9)
    assert gemm.first.device == "cpu" and gemm.multiply_adds == 256**3


def test_a_device_quick_at_every_size_stops_at_the_largest_product():
    # 10 µs a call besides 1e15 multiply-adds a second: each larger product reaches a better rate.
    gemm = sized_gemm(lambda size: lambda: Call(1e-5 + size**3 / 1e15), "gpu: made up")
    assert gemm.size == LARGEST_SIZE


def test_a_devices_product_size_is_chosen_once_a_process():
    tried = []

    def product_of_size(size: int):
        tried.append(size)
        rate = 1e9 if size < 512 else 0.5e9
        return lambda: Call(0.001 + size**3 / rate)

    first = chosen_gemm("made-up tool", product_of_size, "gpu: made up")
    assert first.size == 256 and tried == [128, 256, 512]
    tried.clear()
    again = chosen_gemm("made-up tool", product_of_size, "gpu: made up")
    assert again.size == 256 and tried == [256]  # no sizing: the size chosen before
    assert again.first.again().seconds == pytest.approx(0.001 + 256**3 / 1e9)
    # Another tool on the same device chooses its own.
    tried.clear()
    chosen_gemm("another made-up tool", product_of_size, "gpu: made up")
    assert tried == [128, 256, 512]


def test_an_engine_quicker_than_its_floor_is_shown_with_the_reason():
    # JAX-jit at 0.4 ms where the product's rate gives 0.81 ms: a floor it beat is no floor.
    result = result_of("2d", (100, 100), {"numpy": 0.0081, "jax": 0.0004})
    rows = {row.key: row for row in comparison_figures(result, "photo.png", 100, 100)}
    text = rows["vs_compute"].text
    assert "JAX-jit 0.49× (4.0 GFLOP/s)" in text
    assert text.endswith(
        "; under 1×: quicker than the matrix product's rate as it was timed, so no bound this "
        "time (a product caught by another program, or one too small for the device's peak)"
    )
    # None beaten: no reason to give.
    plain = result_of("2d", (100, 100), {"numpy": 0.0081, "jax": 0.00081})
    rows = {row.key: row for row in comparison_figures(plain, "photo.png", 100, 100)}
    assert "under 1×" not in rows["vs_compute"].text


def test_an_engine_quicker_than_one_copy_is_shown_with_the_reason():
    from blurapp.core.measuring.floors import Floor

    result = result_of("2d", (100, 100), {"numpy": 0.0081, "jax": 0.0004})
    result = replace(result, floors=(Floor("cpu", 0.0008, (0.0007, 0.0009), 5, 80_000),))
    rows = {row.key: row for row in comparison_figures(result, "photo.png", 100, 100)}
    assert "JAX-jit 0.5×" in rows["vs_copy"].text
    assert "; under 1×: quicker than the copy as it was timed, so no bound this time" in (
        rows["vs_copy"].text
    )
