"""The scaling sweep: its sizes, its points and CSV (`bench --sweep` is in tests/cli/, the sweep's
window in tests/ui/)."""

import csv

import numpy as np
import pytest

from blurapp.core.engines.runs import Compilation
from blurapp.core.measuring.sweep import (
    SWEEP_MEGAPIXELS,
    SweepFirstCall,
    SweepPoint,
    SweepSize,
    resample,
    run_sweep,
    sweep_csv_rows,
    sweep_sizes,
    write_sweep_csv,
)

# Two tiny sizes: each new shape costs JAX-jit a compilation.
TINY = (0.004, 0.008)


def tiny_image():
    return np.random.default_rng(3).random((40, 60), dtype=np.float32)


# --- Sizes and resampling --------------------------------------------------------------------


def test_sizes_run_from_a_tenth_of_a_megapixel_to_24_with_the_photo_at_its_own_size():
    sizes = sweep_sizes((400, 600))  # the bundled photo, 0.24 MP
    own = [size for size in sizes if not size.resampled]
    assert own == [SweepSize(400, 600, resampled=False)]
    # The ladder's 0.25 MP is too near the photo's 0.24 to add anything.
    assert [round(size.megapixels, 2) for size in sizes] == [
        0.1,
        0.24,
        0.5,
        1.0,
        2.0,
        4.0,
        8.0,
        16.0,
        24.0,
    ]
    for size in sizes:
        assert size.width / size.height == pytest.approx(1.5, rel=0.01)
    assert sizes == sorted(sizes, key=lambda size: size.megapixels)


def test_the_largest_size_is_the_one_asked_for():
    assert [round(s.megapixels, 2) for s in sweep_sizes((4000, 6000), max_megapixels=12)] == [
        *(mp for mp in SWEEP_MEGAPIXELS if mp <= 8),
        12.0,
    ]
    # Smaller than every size of the ladder, and than the photo: that one size alone.
    [only] = sweep_sizes((400, 600), max_megapixels=0.05)
    assert only.resampled and round(only.megapixels, 3) == 0.05


def test_a_photo_larger_than_the_largest_size_is_only_resampled():
    sizes = sweep_sizes((4000, 6000), max_megapixels=2)
    assert all(size.resampled for size in sizes)
    assert round(sizes[-1].megapixels, 2) == 2.0


@pytest.mark.parametrize("shape", [(123, 77), (20, 30), (400, 600)])
def test_resampling_keeps_float32_in_range(shape):
    image = np.zeros((40, 60), np.float32)
    image[::2] = 1.0  # stripes: a filter that rings would step outside [0, 1]
    resized = resample(image, *shape)
    assert resized.shape == shape and resized.dtype == np.float32
    assert resized.min() >= 0.0 and resized.max() <= 1.0
    assert 0.3 < resized.mean() < 0.7


def test_resampling_to_the_same_size_is_the_image_itself():
    image = tiny_image()
    assert resample(image, 40, 60) is image


# --- Running -------------------------------------------------------------------------------


def test_a_sweep_gives_a_point_per_size_as_each_finishes():
    image = tiny_image()
    sizes = sweep_sizes(image.shape, megapixels=TINY, max_megapixels=TINY[-1])
    assert len(sizes) == 3  # the photo's own 0.0024 MP, then the two
    seen = []
    points = run_sweep(
        image,
        sizes=sizes,
        kernel_size=3,
        sigma=1.0,
        engines=("numpy", "jax"),
        repeats=1,
        on_point=seen.append,
    )
    assert seen == points and len(points) == 3
    for size, point in zip(sizes, points, strict=True):
        assert (point.height, point.width) == (size.height, size.width)
        assert point.megapixels == pytest.approx(point.width * point.height / 1e6)
        assert point.resampled == size.resampled
        assert point.engines == ("numpy", "jax") and point.errors == {}
        assert point.seconds["numpy"] > 0 and point.seconds["jax"] > 0
        assert point.speedups == {
            "jax": pytest.approx(point.seconds["numpy"] / point.seconds["jax"])
        }
    assert [point.resampled for point in points] == [False, True, True]
    assert points[0].as_dict()["engines"]["jax"]["seconds"] == points[0].seconds["jax"]


def test_the_first_call_of_jax_at_each_size_is_in_the_json_and_the_csv():
    image = tiny_image()
    sizes = sweep_sizes(image.shape, megapixels=TINY, max_megapixels=TINY[-1])
    points = run_sweep(
        image, sizes=sizes, kernel_size=3, sigma=1.0, engines=("numpy", "jax"), repeats=1
    )
    rows = sweep_csv_rows(points)
    assert rows[0][-2:] == ["jax_first_call_seconds", "jax_compilation"]  # numpy compiles nothing
    for point, row in zip(points, rows[1:], strict=True):
        csv_row = dict(zip(rows[0], row, strict=True))
        first = point.first_calls["jax"]
        # Compiled now, loaded from the test run's cache, or compiled by an earlier test.
        assert isinstance(first.compilation, Compilation) and first.seconds > 0
        jax = point.as_dict()["engines"]["jax"]
        assert jax["first_call_seconds"] == first.seconds
        assert jax["compilation"] == csv_row["jax_compilation"] == str(first.compilation)
        assert float(csv_row["jax_first_call_seconds"]) == first.seconds
        numpy = point.as_dict()["engines"]["numpy"]
        assert numpy["first_call_seconds"] is None and numpy["compilation"] is None


def test_cancelling_stops_between_sizes_and_keeps_the_points_done():
    image = tiny_image()
    sizes = sweep_sizes(image.shape, megapixels=TINY, max_megapixels=TINY[-1])
    points = []
    kept = run_sweep(
        image,
        sizes=sizes,
        kernel_size=3,
        sigma=1.0,
        engines=("numpy",),
        repeats=1,
        cancelled=lambda: len(points) >= 1,
        on_point=points.append,
    )
    assert kept == points and len(kept) == 1
    assert run_sweep(image, sizes=sizes, engines=("numpy",), cancelled=lambda: True) == []


# --- CSV -----------------------------------------------------------------------------------


def made_up_points():
    return [
        SweepPoint(
            width=60,
            height=40,
            engines=("numpy", "jax"),
            seconds={"numpy": 0.002, "jax": 0.0005},
            errors={},
            speedups={"jax": 4.0},
            resampled=False,
            first_calls={"jax": SweepFirstCall(0.8, Compilation.COMPILED, "cpu")},
        ),
        SweepPoint(
            width=3000,
            height=2000,
            engines=("numpy", "jax"),
            seconds={"numpy": 0.75},
            errors={"jax": 'JAX-jit ran out of memory for this photo, "quoted", and so on'},
            speedups={},
        ),
    ]


def test_the_csv_reads_back_with_its_header_and_a_row_per_size(tmp_path):
    path = tmp_path / "sweep.csv"
    write_sweep_csv(path, made_up_points())
    with open(path, newline="", encoding="utf-8") as file:
        rows = list(csv.reader(file))
    assert rows == sweep_csv_rows(made_up_points())
    assert rows[0] == [
        "megapixels",
        "width",
        "height",
        "resampled",
        "numpy_seconds",
        "jax_seconds",
        "copy_seconds",
        "jax_speedup",
        "numpy_error",
        "jax_error",
        "jax_first_call_seconds",
        "jax_compilation",
    ]
    first, second = (dict(zip(rows[0], row, strict=True)) for row in rows[1:])
    assert float(first["megapixels"]) == pytest.approx(0.0024)
    assert (first["width"], first["height"], first["resampled"]) == ("60", "40", "no")
    assert float(first["jax_seconds"]) == 0.0005 and float(first["jax_speedup"]) == 4.0
    assert second["resampled"] == "yes" and second["jax_seconds"] == ""
    assert second["jax_error"] == made_up_points()[1].errors["jax"]
    assert (first["jax_first_call_seconds"], first["jax_compilation"]) == ("0.8", "compiled")
    # JAX failed at the second size: no first call.
    assert (second["jax_first_call_seconds"], second["jax_compilation"]) == ("", "")
    assert [p.name for p in tmp_path.iterdir()] == ["sweep.csv"]  # no temporary file left


def test_the_json_words_the_first_call_as_compare_json_does():
    compiled, failed = (point.as_dict()["engines"] for point in made_up_points())
    assert compiled["jax"]["first_call_seconds"] == 0.8
    assert compiled["jax"]["compilation"] == "compiled"
    for engine in (compiled["numpy"], failed["numpy"], failed["jax"]):
        assert engine["first_call_seconds"] is None and engine["compilation"] is None


def test_a_sweep_without_a_compiled_engine_has_no_first_call_columns():
    [point] = made_up_points()[1:]
    header = sweep_csv_rows([point])[0]
    assert not [column for column in header if "first_call" in column or "compilation" in column]


def test_a_csv_that_cannot_be_written_is_an_output_error(tmp_path):
    from blurapp.core.media.saving import OutputError

    with pytest.raises(OutputError, match="does not exist"):
        write_sweep_csv(tmp_path / "missing" / "sweep.csv", made_up_points())
