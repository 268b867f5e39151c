"""The scaling sweep: its sizes, its points and CSV (`bench --sweep` is in tests/cli/, the sweep's
window in tests/ui/)."""

import csv
import dataclasses
import math

import numpy as np
import pytest
from PIL import Image

from blurapp.core.engines.runs import Compilation
from blurapp.core.measuring.sweep import (
    SWEEP_MEGAPIXELS,
    BreakEven,
    Crossing,
    SweepFirstCall,
    SweepPoint,
    SweepSize,
    accelerator_break_even,
    break_even,
    resample,
    run_sweep,
    sweep_break_even,
    sweep_break_even_words,
    sweep_csv_rows,
    sweep_sizes,
    write_sweep_csv,
)

# Runs the jax engine on JAX's default device, the chip on an accelerator machine: part of
# the suite's accelerator run (`pytest tests -m accelerator`).
pytestmark = pytest.mark.accelerator

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


@pytest.mark.parametrize("levels_type", [np.uint8, np.uint16])
def test_resampling_a_photos_levels_gives_levels_of_the_same_depth(levels_type):
    white = np.iinfo(levels_type).max
    levels = np.random.default_rng(3).integers(0, white + 1, (40, 60), dtype=levels_type)
    image = np.multiply(levels, np.float32(1 / white), dtype=np.float32)
    image.flags.writeable = False
    resized = resample(image, 123, 77)
    rounded = np.rint(resized.astype(np.float64) * white)
    # Levels as a file's are read: a level times 1/white in float32, bit for bit.
    np.testing.assert_array_equal(
        resized, np.multiply(rounded, np.float32(1 / white), dtype=np.float32)
    )
    # Within half a level of the floats' own resampling, which falls between levels.
    floats = np.array(Image.fromarray(image).resize((77, 123), Image.Resampling.BILINEAR))
    assert np.abs(resized - floats).max() <= 0.5 / white + 1e-6
    assert not np.array_equal(floats, resized)


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
    for point in points:  # JAX-jit's calls with their copies; NumPy copies nothing
        assert point.end_to_end_seconds["jax"] >= point.seconds["jax"]
        assert point.end_to_end_seconds["numpy"] == point.seconds["numpy"]
        jax = point.as_dict()["engines"]["jax"]
        assert jax["end_to_end_seconds"] == point.end_to_end_seconds["jax"]
        # One timing round: the end-to-end speed-up is the ratio of the two medians.
        assert point.end_to_end_speedups == {
            "jax": pytest.approx(
                point.end_to_end_seconds["numpy"] / point.end_to_end_seconds["jax"]
            )
        }
        assert jax["speedup_end_to_end"] == point.end_to_end_speedups["jax"]


def test_the_first_call_of_jax_at_each_size_is_in_the_json_and_the_csv():
    image = tiny_image()
    sizes = sweep_sizes(image.shape, megapixels=TINY, max_megapixels=TINY[-1])
    points = run_sweep(
        image, sizes=sizes, kernel_size=3, sigma=1.0, engines=("numpy", "jax"), repeats=1
    )
    rows = sweep_csv_rows(points)
    # numpy compiles nothing; the compute floor comes after the first calls, then the
    # end-to-end speed-up
    assert rows[0][-4:] == [
        "jax_first_call_seconds",
        "jax_compilation",
        "compute_floor_seconds",
        "jax_speedup_end_to_end",
    ]
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
        "compute_floor_seconds",
        "jax_speedup_end_to_end",
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


# --- From which size JAX-jit beats NumPy -------------------------------------------------------

# Made-up engines whose times are power laws of the size: straight lines on the chart's log–log
# axes. NumPy's grows as the pixels (10 ms a megapixel); this JAX-jit's as their square root,
# from 20 ms at 1 MP: equal where 10·mp = 20·√mp, at 4 MP exactly.
LADDER = (0.25, 0.5, 1.0, 2.0, 8.0, 16.0)  # 4 MP is not measured


def numpy_seconds(megapixels):
    return 0.010 * megapixels


def jax_seconds(megapixels):
    return 0.020 * megapixels**0.5


def test_the_break_even_is_where_the_lines_cross_on_log_log_axes():
    found = break_even([(mp, numpy_seconds(mp), jax_seconds(mp)) for mp in LADDER])
    assert found.crossing is Crossing.BETWEEN
    assert found.megapixels == pytest.approx(4.0)
    assert found.between == (2.0, 8.0)
    # Not where straight lines on linear axes would cross between 2 and 8 MP.
    linear = 2 + 6 * (jax_seconds(2) - numpy_seconds(2)) / (
        numpy_seconds(8) - jax_seconds(8) + jax_seconds(2) - numpy_seconds(2)
    )
    assert linear != pytest.approx(4.0, rel=0.05)


def test_the_sizes_need_not_come_in_order():
    found = break_even([(mp, numpy_seconds(mp), jax_seconds(mp)) for mp in LADDER[::-1]])
    assert found.megapixels == pytest.approx(4.0)


def test_faster_at_every_size_is_from_the_smallest_size_measured():
    found = break_even([(mp, numpy_seconds(mp), jax_seconds(mp)) for mp in (8.0, 16.0, 24.0)])
    assert found == BreakEven(Crossing.SMALLEST, 8.0)
    assert sweep_break_even_words_of(found) == "from the smallest size measured"


def test_slower_at_the_largest_size_is_not_within_the_sizes_measured():
    never = break_even([(mp, numpy_seconds(mp), jax_seconds(mp)) for mp in (0.25, 1.0, 2.0)])
    assert never == BreakEven(Crossing.NEVER, None)
    # Faster at the small sizes but slower at the largest: not "from" anything either.
    lost = break_even([(0.1, 0.004, 0.001), (1.0, 0.04, 0.01), (4.0, 0.1, 0.2)])
    assert lost == BreakEven(Crossing.NEVER, None)
    assert sweep_break_even_words_of(never) == "not within the sizes measured"


def test_a_lead_lost_and_won_again_counts_from_the_last_crossing():
    # Faster at 0.1 MP, slower at 1 MP, faster from then on: the crossing between 1 and 10 MP.
    # log10 of the speed-up: +1 at 0.1, -1 at 1, +1 at 10: 0 halfway, at √10 MP.
    found = break_even([(0.1, 0.1, 0.01), (1.0, 0.1, 1.0), (10.0, 1.0, 0.1), (100.0, 1.0, 0.1)])
    assert found.crossing is Crossing.BETWEEN and found.between == (1.0, 10.0)
    assert found.megapixels == pytest.approx(10**0.5)


def test_a_tie_is_not_faster():
    found = break_even([(1.0, 0.01, 0.01), (2.0, 0.04, 0.01)])
    assert found == BreakEven(Crossing.BETWEEN, 1.0, (1.0, 2.0))


def test_no_size_has_no_break_even():
    assert break_even([]) is None
    assert sweep_break_even([]) is None


def sweep_break_even_words_of(found):
    from blurapp.core.measuring.sweep import break_even_words

    return break_even_words(found)


def made_up_sweep(copy_seconds=0.0, *, failed_at=None):
    """A sweep whose JAX-jit's steady calls cross NumPy's at 4 MP, each of its calls copying
    the photo to its device and back in `copy_seconds` a megapixel."""
    points = []
    for mp in LADDER:
        numpy, jax = numpy_seconds(mp), jax_seconds(mp)
        failed = mp == failed_at
        seconds = {"numpy": numpy} if failed else {"numpy": numpy, "jax": jax}
        points.append(
            SweepPoint(
                width=round(mp * 1000),
                height=1000,
                engines=("numpy", "jax"),
                seconds=seconds,
                errors={"jax": "JAX-jit ran out of memory for this photo"} if failed else {},
                speedups={} if failed else {"jax": numpy / jax},
                end_to_end_seconds={
                    name: time + (copy_seconds * mp if name == "jax" else 0.0)
                    for name, time in seconds.items()
                },
            )
        )
    return points


def test_a_sweep_names_its_break_even_steady_and_end_to_end():
    # End to end, JAX-jit also copies 2.5 ms a megapixel: 10·mp = 20·√mp + 2.5·mp, at
    # √mp = 20 / 7.5, 7.11 MP.
    found = sweep_break_even(made_up_sweep(copy_seconds=0.0025))
    assert (found.engine, found.reference) == ("jax", "numpy")
    assert found.steady.megapixels == pytest.approx(4.0)
    assert found.end_to_end.crossing is Crossing.BETWEEN
    assert found.end_to_end.megapixels == pytest.approx((20 / 7.5) ** 2, rel=0.05)
    assert found.end_to_end.between == (2.0, 8.0)
    assert sweep_break_even_words(found, {"jax": "JAX-jit", "numpy": "NumPy"}.get) == (
        "JAX-jit faster than NumPy: steady from 4.00 MP, end to end from "
        f"{found.end_to_end.megapixels:.2f} MP"
    )
    assert found.as_dict() == {
        "engine": "jax",
        "engine_platform": None,
        "reference": "numpy",
        "axes": "log-log",
        "steady": {
            "crossing": "between",
            "megapixels": found.steady.megapixels,
            "between": [2.0, 8.0],
        },
        "end_to_end": {
            "crossing": "between",
            "megapixels": found.end_to_end.megapixels,
            "between": [2.0, 8.0],
        },
    }


def test_a_size_where_jax_failed_is_left_out_of_the_break_even():
    found = sweep_break_even(made_up_sweep(failed_at=8.0))
    assert found.steady.between == (2.0, 16.0)
    # Between 2 and 16 MP the straight segments differ from the power laws': near 4, not at it.
    assert 2.0 < found.steady.megapixels < 16.0


def test_a_sweep_without_jax_jit_has_no_break_even():
    points = [
        SweepPoint(
            width=100,
            height=100,
            engines=("numpy",),
            seconds={"numpy": 0.01},
            errors={},
            speedups={},
        )
    ]
    assert sweep_break_even(points) is None


def device_point(megapixels, seconds, speedups, **more):
    """A size of a sweep of NumPy and JAX-jit on the GPU and on the CPU, 1,000 rows high."""
    return SweepPoint(
        width=round(megapixels * 1000),
        height=1000,
        engines=("numpy", "jax@gpu", "jax@cpu"),
        seconds=seconds,
        errors={},
        speedups=speedups,
        **more,
    )


def made_up_device_sweep():
    """A sweep of NumPy and JAX-jit on the GPU and on the CPU: the GPU pays 2 ms a call
    (launches, copies) and blurs a megapixel in 0.1 ms, the CPU blurs one in 4 ms, so the
    GPU's line crosses the CPU's where 2 + 0.1·mp = 4·mp, at 0.513 MP."""
    points = []
    for mp in LADDER:
        seconds = {"numpy": 0.010 * mp, "jax@gpu": 0.002 + 0.0001 * mp, "jax@cpu": 0.004 * mp}
        speedups = {name: seconds["numpy"] / time for name, time in seconds.items()}
        points.append(device_point(mp, seconds, speedups, end_to_end_seconds=seconds))
    return points


def test_a_sweep_of_jax_on_the_gpu_and_on_the_cpu_names_where_the_gpu_wins():
    found = accelerator_break_even(made_up_device_sweep())
    assert (found.engine, found.reference) == ("jax@gpu", "jax@cpu")
    assert found.steady.crossing is Crossing.BETWEEN
    assert found.steady.between == (0.5, 1.0)
    # Interpolated on log–log axes between the two measured sizes, near the exact 0.513 MP.
    assert 0.5 < found.steady.megapixels < 0.6
    assert sweep_break_even_words(
        found, {"jax@gpu": "JAX-jit (GPU)", "jax@cpu": "JAX-jit (CPU)"}.get
    ).startswith("JAX-jit (GPU) faster than JAX-jit (CPU): steady from 0.5")
    # The sweep's own break-even stays the first compiled engine's against NumPy.
    assert sweep_break_even(made_up_device_sweep()).engine == "jax@gpu"
    assert sweep_break_even(made_up_device_sweep()).reference == "numpy"


def on_a_tpu(points, name="jax@gpu", as_name="jax"):
    """`points` with `name` renamed `as_name`, its first calls on a TPU: JAX-jit on JAX's
    default device, a TPU, beside JAX-jit on the CPU."""
    call = SweepFirstCall(0.5, Compilation.COMPILED, "tpu: TPU v5 lite")
    renamed = []
    for point in points:
        rename = {name: as_name}.get
        renamed.append(
            dataclasses.replace(
                point,
                engines=tuple(rename(engine, engine) for engine in point.engines),
                seconds={rename(e, e): value for e, value in point.seconds.items()},
                speedups={rename(e, e): value for e, value in point.speedups.items()},
                end_to_end_seconds={
                    rename(e, e): value for e, value in point.end_to_end_seconds.items()
                },
                first_calls={
                    as_name: call,
                    "jax@cpu": call._replace(device="cpu"),
                },
            )
        )
    return renamed


@pytest.mark.parametrize("name", ["jax", "jax@tpu"])
def test_a_sweep_on_a_tpu_and_the_cpu_names_where_the_tpu_wins(name):
    points = on_a_tpu(made_up_device_sweep(), as_name=name)
    found = accelerator_break_even(points)
    assert (found.engine, found.reference) == (name, "jax@cpu")
    assert found.steady.between == (0.5, 1.0)
    # JAX's default device is named by its platform; jax@tpu says it in its own title.
    assert found.engine_platform == ("tpu" if name == "jax" else None)
    assert found.as_dict()["engine_platform"] == found.engine_platform
    titles = {"jax": "JAX-jit", "jax@tpu": "JAX-jit (TPU)", "jax@cpu": "JAX-jit (CPU)"}
    assert sweep_break_even_words(found, titles.get).startswith(
        "JAX-jit (TPU) faster than JAX-jit (CPU): steady from 0.5"
    )


def test_a_sweep_on_one_device_has_no_accelerator_break_even():
    assert accelerator_break_even(made_up_sweep()) is None
    assert accelerator_break_even([]) is None


def test_a_sweeps_record_names_its_break_even_sizes():
    from blurapp.bench.record import figure_rows

    points = made_up_sweep(copy_seconds=0.0025)
    sweep = {
        "photo": {"path": "photo.png", "width": 600, "height": 400},
        "kernel": {"size": 9, "sigma": 2.0, "algorithm": "2d"},
        "points": [point.as_dict() for point in points],
        "break_even": sweep_break_even(points).as_dict(),
        "accelerator_break_even": None,
    }
    rows = [row for row in figure_rows({"sweep": sweep}, []) if row["unit"] == "MP"]
    assert [(row["what"], row["engine"]) for row in rows] == [
        ("break-even size against NumPy, steady calls", "JAX-jit"),
        ("break-even size against NumPy, end to end", "JAX-jit"),
    ]
    assert rows[0]["value"] == pytest.approx(4.0, rel=1e-3)
    assert rows[0]["how"] == "where the speed-up crosses 1× on log–log axes, between 2 and 8 MP"


@pytest.mark.parametrize("key", ["accelerator_break_even", "gpu_break_even"])
def test_a_sweeps_record_names_the_accelerators_break_even_new_or_old(key):
    """A record names the accelerator's break-even; one written before any accelerator but a
    GPU was named kept it as gpu_break_even, and is read the same."""
    from blurapp.bench.record import figure_rows

    points = on_a_tpu(made_up_device_sweep())
    sweep = {
        "photo": {"path": "photo.png", "width": 600, "height": 400},
        "kernel": {"size": 9, "sigma": 2.0, "algorithm": "2d"},
        "points": [point.as_dict() for point in points],
        key: accelerator_break_even(points).as_dict(),
    }
    rows = [row for row in figure_rows({"sweep": sweep}, []) if row["unit"] == "MP"]
    assert [(row["what"], row["engine"]) for row in rows] == [
        ("break-even size against JAX-jit (CPU), steady calls", "JAX-jit (TPU)"),
        ("break-even size against JAX-jit (CPU), end to end", "JAX-jit (TPU)"),
    ]


# --- One speed-up: the break-even is taken from the speed-up each size shows -------------------


def disagreeing_sweep():
    """A sweep near 1× where the medians' ratio and the round-by-round speed-up each point
    shows fall on opposite sides of 1 at 2 MP: by the medians JAX-jit is ahead from 2 MP on,
    by the speed-ups shown only from 4 MP on; end to end the other way round (the speed-up
    shown ahead at 2 MP, the medians behind)."""
    figures = {  # megapixels: (numpy s, jax s, speed-up shown, end to end: jax s, speed-up)
        1.0: (0.010, 0.0105, 0.85, 0.0110, 0.92),
        2.0: (0.020, 0.0195, 0.90, 0.0206, 1.10),
        4.0: (0.040, 0.0300, 1.20, 0.0320, 1.15),
        8.0: (0.080, 0.0500, 1.50, 0.0550, 1.40),
    }
    points = []
    for mp, (numpy, jax, shown, jax_end_to_end, shown_end_to_end) in figures.items():
        points.append(
            SweepPoint(
                width=round(mp * 1000),
                height=1000,
                engines=("numpy", "jax"),
                seconds={"numpy": numpy, "jax": jax},
                errors={},
                speedups={"jax": shown},
                end_to_end_seconds={"numpy": numpy, "jax": jax_end_to_end},
                end_to_end_speedups={"jax": shown_end_to_end},
            )
        )
    return points


def interpolated(low, high, behind, ahead):
    """Where log10 of the speed-up, linear in log10 of the size, is 0 between two sizes."""
    fraction = -math.log10(behind) / (math.log10(ahead) - math.log10(behind))
    return 10 ** (math.log10(low) + fraction * (math.log10(high) - math.log10(low)))


def agrees_with_the_speedups_shown(found, points, shown):
    """Each size measured is at or beyond the break-even size exactly where its speed-up
    shown is above 1 (a speed-up lost and won again aside)."""
    assert found.crossing is Crossing.BETWEEN
    for point in points:
        assert (shown(point) > 1) == (point.megapixels >= found.megapixels), point.megapixels


def test_the_break_even_is_where_the_speedup_shown_crosses_1_not_the_medians_ratio():
    points = disagreeing_sweep()
    # By the medians' ratio JAX-jit is ahead at 2 MP; the speed-up the sweep shows says 0.9×.
    assert points[1].seconds["numpy"] / points[1].seconds["jax"] > 1
    found = sweep_break_even(points)
    assert found.steady.between == (2.0, 4.0)
    assert found.steady.megapixels == pytest.approx(interpolated(2.0, 4.0, 0.90, 1.20))
    agrees_with_the_speedups_shown(found.steady, points, lambda point: point.speedups["jax"])
    # The bench's table prints that speed-up for the row the break-even says is not yet faster.
    from blurapp.bench.report import sweep_row_lines

    assert "0.9×" in sweep_row_lines(points[1])[0].split()


def test_the_end_to_end_break_even_is_where_the_end_to_end_speedup_shown_crosses_1():
    points = disagreeing_sweep()
    # End to end the medians say JAX-jit is behind at 2 MP; the speed-up shown says 1.1×.
    assert points[1].end_to_end_seconds["numpy"] / points[1].end_to_end_seconds["jax"] < 1
    found = sweep_break_even(points)
    assert found.end_to_end.between == (1.0, 2.0)
    assert found.end_to_end.megapixels == pytest.approx(interpolated(1.0, 2.0, 0.92, 1.10))
    agrees_with_the_speedups_shown(
        found.end_to_end, points, lambda point: point.end_to_end_speedups["jax"]
    )
    # Shown where the steady speed-up is: the JSON, the CSV and the bench's table.
    assert points[1].as_dict()["engines"]["jax"]["speedup_end_to_end"] == 1.10
    assert points[1].as_dict()["engines"]["numpy"]["speedup_end_to_end"] is None
    rows = sweep_csv_rows(points)
    assert rows[0][-1] == "jax_speedup_end_to_end"
    assert [float(row[-1]) for row in rows[1:]] == [0.92, 1.10, 1.15, 1.40]
    from blurapp.bench.report import sweep_column_line, sweep_row_lines

    assert sweep_column_line(("numpy", "jax")).split()[-4:] == [
        "jax",
        "speedup",
        "jax",
        "end-to-end",
    ]
    assert sweep_row_lines(points[1])[0].split()[-2:] == ["0.9×", "1.1×"]


def test_a_size_without_a_speedup_falls_back_to_the_medians_ratio():
    points = disagreeing_sweep()
    points[1] = dataclasses.replace(points[1], speedups={}, end_to_end_speedups={})
    found = sweep_break_even(points)
    # At 2 MP the medians' ratio (20 ÷ 19.5 ms) is all there is: ahead from there.
    assert found.steady.between == (1.0, 2.0)
    assert found.steady.megapixels == pytest.approx(interpolated(1.0, 2.0, 0.85, 20 / 19.5))


def test_the_accelerator_break_even_is_the_ratio_of_the_two_speedups_shown():
    """jax@gpu against jax@cpu: at 1 MP their medians say the GPU is ahead (2.0 ÷ 1.9 ms), the
    speed-ups over NumPy the sweep shows for each say it is behind (4.8× against 5.0×)."""
    figures = {  # megapixels: (numpy, gpu, cpu seconds), (gpu, cpu speed-ups shown)
        0.5: ((0.005, 0.0015, 0.001), (3.0, 5.0)),
        1.0: ((0.010, 0.0019, 0.002), (4.8, 5.0)),
        2.0: ((0.020, 0.0020, 0.004), (9.0, 5.0)),
        4.0: ((0.040, 0.0021, 0.008), (18.0, 5.0)),
    }
    points = [
        device_point(
            mp,
            {"numpy": numpy, "jax@gpu": gpu, "jax@cpu": cpu},
            {"jax@gpu": gpu_speedup, "jax@cpu": cpu_speedup},
        )
        for mp, ((numpy, gpu, cpu), (gpu_speedup, cpu_speedup)) in figures.items()
    ]
    assert points[1].seconds["jax@cpu"] / points[1].seconds["jax@gpu"] > 1
    found = accelerator_break_even(points)
    assert found.steady.between == (1.0, 2.0)
    assert found.steady.megapixels == pytest.approx(interpolated(1.0, 2.0, 4.8 / 5.0, 9.0 / 5.0))
    # Without speed-ups (no NumPy timed) the two medians decide: ahead from 1 MP.
    bare = [dataclasses.replace(point, speedups={}) for point in points]
    assert accelerator_break_even(bare).steady.between == (0.5, 1.0)
