"""The window's side of the distance to the hardware's limits: one copy of the photo, and its
multiply-adds at a matrix product's rate, on the same device, timed with the engines, and
every engine's time as a multiple of each and as bandwidth and GFLOP/s, wherever the
figures are shown (compare's text and JSON, the window, the bench table, the sweep)."""

from dataclasses import replace

import numpy as np

from blurapp.core import compare_engines
from blurapp.core.measuring.contention import Conditions
from blurapp.core.measuring.sweep import SweepSize, run_sweep


def test_the_window_shows_both_floors_and_the_warning_beside_the_speedup(qtbot):
    from blurapp.ui.figures_panel import WARNING_COLOUR, FiguresPanel

    measured = compare_engines(np.zeros((120, 90), np.float32), repeats=3)
    noisy = type(measured)(
        kernel=measured.kernel,
        sigma=measured.sigma,
        runs=measured.runs,
        engines=measured.engines,
        floors=measured.floors,
        compute_floors=measured.compute_floors,
        conditions=Conditions(wall_over_cpu={"numpy": 2.0}),
    )
    panel = FiguresPanel()
    qtbot.addWidget(panel)
    panel.show_result(noisy, "photo.png", 90, 120)
    panel.show()
    assert panel.value("warning").startswith(
        "these times cannot be trusted (another program was using the CPU: NumPy's calls took "
        "2.0× their CPU time"
    )
    assert "ms on cpu" in panel.value("copy")
    assert panel.value("vs_copy").startswith("NumPy ")
    assert "ms on cpu, " in panel.value("compute") and " GFLOP/s in a " in panel.value("compute")
    assert panel.value("vs_compute").startswith("NumPy ") and "GFLOP/s)" in panel.value(
        "vs_compute"
    )
    warning = panel._values["warning"]
    assert warning.isVisible() and WARNING_COLOUR in warning.styleSheet()
    panel.show_result(measured, "photo.png", 90, 120)
    assert (panel.value("warning") != "") == measured.noisy


def test_each_sweep_point_has_both_floors_and_the_chart_draws_their_lines(qtbot):
    from blurapp.ui.sweep_chart import SweepChart

    sizes = [SweepSize(40, 60, resampled=False), SweepSize(80, 120)]
    points = run_sweep(
        np.random.default_rng(3).random((40, 60), dtype=np.float32),
        sizes=sizes,
        kernel_size=5,
        sigma=1.0,
        engines=["numpy", "jax"],
        repeats=2,
    )
    assert all(point.floor_seconds is not None and point.floor_seconds > 0 for point in points)
    assert points[1].as_dict()["floor_seconds"] == points[1].floor_seconds
    assert all(point.compute_floor_seconds > 0 for point in points)
    assert points[1].as_dict()["compute_floor_seconds"] == points[1].compute_floor_seconds
    chart = SweepChart()
    qtbot.addWidget(chart)
    chart.set_engines(["numpy", "jax"], 0.0024)
    chart.set_points(points)
    assert chart.copy_series() == [(p.megapixels, p.floor_seconds * 1000) for p in points]
    assert chart.compute_series() == [
        (p.megapixels, p.compute_floor_seconds * 1000) for p in points
    ]
    chart.resize(760, 520)
    without = SweepChart()
    qtbot.addWidget(without)
    without.set_engines(["numpy", "jax"], 0.0024)
    without.set_points([replace(point, floor_seconds=None) for point in points])
    without.resize(760, 520)
    assert copy_pixels(chart) > copy_pixels(without) + 20
    no_compute = SweepChart()
    qtbot.addWidget(no_compute)
    no_compute.set_engines(["numpy", "jax"], 0.0024)
    no_compute.set_points([replace(point, compute_floor_seconds=None) for point in points])
    no_compute.resize(760, 520)
    assert compute_pixels(chart) > compute_pixels(no_compute) + 20


def copy_pixels(chart) -> int:
    from blurapp.ui.sweep_chart import COPY_COLOUR

    return pixels_of(chart, COPY_COLOUR)


def compute_pixels(chart) -> int:
    from blurapp.ui.sweep_chart import COMPUTE_COLOUR

    return pixels_of(chart, COMPUTE_COLOUR)


def pixels_of(chart, colour) -> int:
    picture = chart.grab().toImage()
    return sum(
        picture.pixelColor(x, y).rgb() == colour.rgb()
        for x in range(0, picture.width())
        for y in range(0, picture.height())
    )
