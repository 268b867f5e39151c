"""The distance to the hardware's limits: one copy of the photo on the same device, and its
multiply-adds at the rate of a matrix product there, timed after the engines' rounds in the
same comparison, and every engine's time as a multiple of each and as bandwidth and GFLOP/s,
wherever the figures are shown (compare's text and JSON, the window, the bench table, the sweep)."""

import json
import re
import time

import numpy as np
import pytest

from blurapp import cli
from blurapp.bench import report as bench_report
from blurapp.bench import run_bench
from blurapp.bench.record import figure_rows
from blurapp.core import compare_engines, sample_photo_path
from blurapp.core.engines import get_engine
from blurapp.core.engines.jax_calls import first_jax_copy
from blurapp.core.engines.numpy_engine import first_numpy_copy

# Run where the accelerator is: `pytest -m accelerator` (docs/contributing.md).
pytestmark = pytest.mark.accelerator


def test_compare_json_gives_both_floors_and_each_engines_multiples_bandwidth_and_gflop_s(capsys):
    assert cli.main(["compare", str(sample_photo_path()), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    own_rate = numpy_float32_product_rate()
    compute = data["compute_floor_seconds"]
    rate = data["compute_floors"]["cpu"]["gflop_s"]
    assert compute > 0 and rate > 0
    # The device's rate, as this test measures it itself: the same order of magnitude (the
    # machine may be busier in one than the other), unless compare says its times cannot be
    # trusted: on 2 cores with a load of 7, products whose threads waited for each other were
    # a thousand times slower in one than in the other.
    assert own_rate / 10 < rate < own_rate * 10 or data["noisy"], (rate, own_rate)
    multiply_adds = 600 * 400 * 81  # the bundled photo in grey, 9 × 9 2-D
    assert compute == pytest.approx(2 * multiply_adds / (rate * 1e9))
    assert data["numpy"]["compute_floor_seconds"] == compute  # the reference's device's
    for key in ("numpy", "jax"):
        engine = data[key]
        # Each engine's at its own device's rate (JAX's may be an accelerator's).
        rate_there = data["compute_floors"][engine["device"]]["gflop_s"]
        at_its_rate = 2 * multiply_adds / (rate_there * 1e9)
        assert engine["compute_floor_seconds"] == pytest.approx(at_its_rate)
        # Each engine's multiple of its own device's floor (the reference's, on a CPU).
        multiple = engine["seconds"] / engine["compute_floor_seconds"]
        assert engine["compute_floor_multiple"] == pytest.approx(multiple)
        assert engine["gflop_s"] == pytest.approx(2 * multiply_adds / engine["seconds"] / 1e9)
    floor = data["floor_seconds"]
    assert floor > 0
    assert data["floors"]["cpu"]["seconds"] == floor
    image_bytes = 600 * 400 * 4  # the bundled photo in grey, float32
    assert data["numpy"]["floor_seconds"] == floor
    for key in ("numpy", "jax"):
        engine = data[key]
        assert engine["floor_seconds"] == data["floors"][engine["device"]]["seconds"]
        # Each engine's multiple of its own device's copy (JAX's may be an accelerator's).
        assert engine["floor_multiple"] == pytest.approx(
            engine["seconds"] / engine["floor_seconds"]
        )
        assert engine["bandwidth_gb_s"] == pytest.approx(2 * image_bytes / engine["seconds"] / 1e9)
    # 81 taps cannot be as quick as one pass over the image.
    assert data["numpy"]["floor_multiple"] > 5


def numpy_float32_product_rate() -> float:
    """GFLOP/s of the best of several float32 matrix products through NumPy, timed here."""
    best = 0.0
    for size in (256, 512, 1024):
        a = np.random.default_rng(1).random((size, size), dtype=np.float32)
        np.matmul(a, a)
        for _ in range(5):
            start = time.perf_counter()
            np.matmul(a, a)
            best = max(best, 2 * size**3 / (time.perf_counter() - start) / 1e9)
    return best


@pytest.mark.slow
def test_compare_text_shows_both_floors_and_each_engine_as_a_multiple_of_them(capsys):
    assert cli.main(["compare", str(sample_photo_path()), "--engines", "numpy,jax"]) == 0
    rows = {
        line.split("  ", 1)[0]: line.split("  ", 1)[1].strip()
        for line in capsys.readouterr().out.splitlines()
        if "  " in line
    }
    assert (
        " ms on cpu, " in rows["copy"]
        and "GB/s (the image read once and written once" in rows["copy"]
    )
    assert rows["vs copy"].startswith("NumPy ")
    assert "JAX-jit " in rows["vs copy"] and "GB/s)" in rows["vs copy"]
    assert " ms on cpu, " in rows["compute"] and " GFLOP/s in a " in rows["compute"]
    assert rows["vs compute"].startswith("NumPy ") and "GFLOP/s)" in rows["vs compute"]
    meanings = {
        "vs copy": ": the time of one copy of the image",
        "vs compute": ": the time of the blur's multiply-adds at that rate",
    }
    for key, meaning in meanings.items():
        # A floor beaten on a busy machine (an engine under 1×) comes with the reason after.
        multiples, _, reason = rows[key].partition("; under 1×: ")
        assert multiples.endswith(meaning), rows[key]
        assert bool(reason) == bool(re.search(r"(?<![\d,.])0\.\d+×", multiples)), rows[key]


def test_the_numpy_copy_reads_and_writes_the_image_once():
    image = np.arange(12, dtype=np.float32).reshape(3, 4)
    first = first_numpy_copy(image, np.ones((1, 1), np.float32))
    assert first.device == "cpu" and first.seconds >= 0 and first.again().seconds >= 0
    np.testing.assert_array_equal(first.output, image)


def test_the_jax_copy_is_a_jitted_copy_on_jaxs_device_timed_until_ready():
    image = np.random.default_rng(2).random((64, 48), dtype=np.float32)
    first = first_jax_copy(image, np.ones((1, 1), np.float32), platform="cpu")
    assert first.device == "cpu" and first.again().seconds > 0


def test_the_floor_of_a_device_is_made_with_the_reference_engines_tools_there():
    # JAX on the CPU, on any machine: the two engines share the CPU's floor.
    result = compare_engines(
        np.zeros((300, 200), np.float32), engines=["jax@cpu", "numpy"], repeats=3
    )
    assert [floor.device for floor in result.floors] == ["cpu"]
    assert result.floors[0].samples == 3  # timed like the engines
    assert result.floor_of("jax@cpu") is result.floor_of("numpy")


def test_the_bench_table_and_record_have_both_floors_and_each_engine_as_a_multiple_of_them():
    rows = run_bench(
        megapixels=[0.01],
        kernel_sizes=[5],
        algorithms=["2d"],
        repeats=3,
        sigma=1.0,
        engines=["numpy", "numpy-loop", "jax"],
    )["results"]
    engines = [get_engine(name) for name in ("numpy", "numpy-loop", "jax")]
    heading, meaning = bench_report.column_lines(engines)[:2]
    assert "copy ms" in heading and "NumPy ×copy" in heading and "JAX ×copy" in heading
    assert "loop ×copy" in heading and "copy: one copy of the image" in meaning
    columns = heading.split()
    line = bench_report.row_line(rows[0], engines)
    copy_ms = f"{rows[0]['floor_seconds'] * 1000:,.2f}"
    assert f" {copy_ms} " in line
    assert f"{rows[0]['jax']['floor_multiple']:,.1f}×" in line
    assert line.split()[-1] in ("yes", "no") and columns[-1] == "noisy"
    assert "compute ms" in heading and "JAX ×compute" in heading and "NumPy ×compute" in heading
    assert "compute: the blur's multiply-adds at the float32 rate of a matrix product" in meaning
    assert f" {rows[0]['compute_floor_seconds'] * 1000:,.2f} " in line
    assert f"{rows[0]['jax']['compute_floor_multiple']:,.1f}×" in line
    # The record's typed rows: the compute floor, and each engine against both floors.
    record = {
        (row["what"].rpartition(", ")[2], row["engine"]): row
        for row in figure_rows({"results": rows}, engines)
    }
    assert record["compute floor", None]["value"] == pytest.approx(
        rows[0]["compute_floor_seconds"] * 1000, rel=1e-3
    )
    assert record["compute floor", None]["unit"] == "ms"
    for engine in engines:
        figures = rows[0][engine.name.replace("-", "_")]
        for kind, key, unit in (
            ("× one copy", "floor_multiple", "×"),
            ("× the compute floor", "compute_floor_multiple", "×"),
            ("GFLOP/s", "gflop_s", "GFLOP/s"),
            ("GB/s", "bandwidth_gb_s", "GB/s"),
        ):
            row = record[kind, engine.title]
            assert row["value"] == pytest.approx(figures[key], rel=1e-3) and row["unit"] == unit
