"""The window's side: The distance to the hardware's limit: one copy of the photo on the same device, timed with
the engines, and every engine's time as a multiple of it and as bandwidth, wherever the
figures are shown (compare's text and JSON, the window, the bench table, the sweep)."""

from dataclasses import replace

import numpy as np

from blurapp.core import compare
from blurapp.core.measuring.contention import Conditions
from blurapp.core.measuring.sweep import SweepSize, run_sweep


def test_the_window_shows_the_copy_and_the_warning_beside_the_speedup(qtbot):
    from blurapp.ui.figures_panel import WARNING_COLOUR, FiguresPanel

    measured = compare(np.zeros((120, 90), np.float32), repeats=3)
    noisy = type(measured)(
        kernel=measured.kernel,
        sigma=measured.sigma,
        runs=measured.runs,
        engines=measured.engines,
        floors=measured.floors,
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
    warning = panel._values["warning"]
    assert warning.isVisible() and WARNING_COLOUR in warning.styleSheet()
    panel.show_result(measured, "photo.png", 90, 120)
    assert (panel.value("warning") != "") == measured.noisy


def test_each_sweep_point_has_the_floor_and_the_chart_draws_its_dotted_line(qtbot):
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
    chart = SweepChart()
    qtbot.addWidget(chart)
    chart.set_engines(["numpy", "jax"], 0.0024)
    chart.set_points(points)
    assert chart.copy_series() == [(p.megapixels, p.floor_seconds * 1000) for p in points]
    chart.resize(760, 520)
    without = SweepChart()
    qtbot.addWidget(without)
    without.set_engines(["numpy", "jax"], 0.0024)
    without.set_points([replace(point, floor_seconds=None) for point in points])
    without.resize(760, 520)
    assert copy_pixels(chart) > copy_pixels(without) + 20


def copy_pixels(chart) -> int:
    from blurapp.ui.sweep_chart import COPY_COLOUR

    picture = chart.grab().toImage()
    return sum(
        picture.pixelColor(x, y).rgb() == COPY_COLOUR.rgb()
        for x in range(0, picture.width())
        for y in range(0, picture.height())
    )
