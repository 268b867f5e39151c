"""The figures panel: a timing chart a viewer reads correctly, and rows that never clip."""

import itertools

import numpy as np
import pytest
from PySide6.QtGui import QColor, QFontMetrics, QImage
from PySide6.QtWidgets import QLabel, QScrollArea

from blurapp.core.engines import get_engine
from blurapp.core.report.chart_bars import chart_colour, first_call_colour
from blurapp.core.report.figures import Figure, comparison_figures
from blurapp.ui.figures_panel import FiguresPanel, TimingChart

NUMPY_COLOUR = QColor(chart_colour(get_engine("numpy")))
JAX_FIRST_COLOUR = QColor(first_call_colour(get_engine("jax")))
JAX_STEADY_COLOUR = QColor(chart_colour(get_engine("jax")))

COLOURS = {
    "NumPy": NUMPY_COLOUR,
    "JAX first call": JAX_FIRST_COLOUR,
    "JAX steady": JAX_STEADY_COLOUR,
}


def make_chart(qtbot, times: dict[str, float], width: int = 330) -> TimingChart:
    chart = TimingChart()
    qtbot.addWidget(chart)
    chart.set_timings([(name, seconds, COLOURS[name]) for name, seconds in times.items()])
    chart.resize(width, chart.sizeHint().height())
    chart.show()
    return chart


def bar_length(layout, name: str) -> float:
    bar = next(bar for bar in layout.bars if bar.name == name)
    return bar.end - layout.bar_left


def test_bar_lengths_are_proportional_to_the_times(qtbot):
    chart = make_chart(qtbot, {"NumPy": 0.073, "JAX first call": 0.050, "JAX steady": 0.0106})
    layout = chart.layout_for_width(330)
    assert not any(bar.broken for bar in layout.bars)
    numpy_length, steady_length = bar_length(layout, "NumPy"), bar_length(layout, "JAX steady")
    assert numpy_length > 100
    assert steady_length == pytest.approx(numpy_length * 10.6 / 73, abs=1)


# From 1 to 6 decades between the shortest and the longest time; one long bar is broken from
# 2 decades on.
TIME_SETS = [
    pytest.param(times, id=f"{decades} decades, {kind}")
    for decades in range(1, 7)
    for kind, times in [
        (
            "two long bars",
            {"NumPy": 0.05, "JAX first call": 0.04, "JAX steady": 0.05 / 10**decades},
        ),
        (
            "one long bar",
            {"NumPy": 4 / 10**decades, "JAX first call": 2.0, "JAX steady": 2 / 10**decades},
        ),
    ]
]


@pytest.mark.parametrize("times", TIME_SETS)
def test_tick_labels_never_overlap_and_stay_inside(qtbot, times):
    chart = make_chart(qtbot, times)
    width_of = QFontMetrics(chart.font()).horizontalAdvance
    for width in range(150, 1201, 10):
        ticks = chart.layout_for_width(width).ticks
        assert ticks, width
        for tick in ticks:
            assert tick.label_left >= 0 and tick.label_left + width_of(tick.label) <= width
        for a, b in itertools.pairwise(ticks):
            assert a.label_left + width_of(a.label) < b.label_left, (width, a, b)
            assert a.x < b.x
        # Enough of them to read the scale by where there is room.
        if width >= 330:
            assert len(ticks) >= 3, (width, ticks)


def test_tick_steps_are_1_2_or_5_times_a_power_of_ten(qtbot):
    chart = make_chart(qtbot, {"NumPy": 0.073, "JAX first call": 0.050, "JAX steady": 0.0106})
    ticks = chart.layout_for_width(600).ticks
    values = [float(tick.label.replace(",", "")) for tick in ticks]
    step = values[1] - values[0]
    assert values[0] == 0 and values[-1] >= 73
    assert np.allclose(np.diff(values), step)
    mantissa = step / 10 ** np.floor(np.log10(step))
    assert round(mantissa, 6) in (1, 2, 5)


def test_a_dwarfing_bar_is_broken_and_shows_its_real_time(qtbot):
    chart = make_chart(qtbot, {"JAX first call": 0.366, "JAX steady": 0.00024})
    layout = chart.layout_for_width(330)
    first, steady = layout.bars
    assert first.broken and not steady.broken
    assert first.value == "366 ms"
    assert first.end > layout.axis_end and layout.break_x is not None
    # The axis is the steady bar's: it is long enough to see.
    assert bar_length(layout, "JAX steady") > (layout.axis_end - layout.bar_left) / 2

    # With NumPy too: NumPy and JAX steady stay to scale with each other.
    chart.set_timings(
        [
            ("NumPy", 0.0319, NUMPY_COLOUR),
            ("JAX first call", 0.802, JAX_FIRST_COLOUR),
            ("JAX steady", 0.00404, JAX_STEADY_COLOUR),
        ]
    )
    layout = chart.layout_for_width(330)
    assert [bar.broken for bar in layout.bars] == [False, True, False]
    assert layout.bars[1].value == "802 ms"
    assert bar_length(layout, "JAX steady") == pytest.approx(
        bar_length(layout, "NumPy") * 4.04 / 31.9, abs=1
    )


def colour_mask(chart: TimingChart, colour) -> np.ndarray:
    """Where a grab of the widget has exactly `colour`, as a boolean array (rows, columns)."""
    image = chart.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(
        image.height(), image.bytesPerLine() // 4, 4
    )[:, : image.width(), 2::-1]  # BGRA in memory: keep RGB
    return np.all(pixels == (colour.red(), colour.green(), colour.blue()), axis=2)


def painted_lengths(chart: TimingChart) -> dict[str, int]:
    """Each bar's painted extent in pixels, found by its colour."""
    lengths = {}
    for name, colour in COLOURS.items():
        columns = np.nonzero(colour_mask(chart, colour))[1]
        if columns.size:
            lengths[name] = int(columns.max() - columns.min() + 1)
    return lengths


def test_painted_bars_are_proportional_to_the_times(qtbot):
    chart = make_chart(qtbot, {"NumPy": 0.073, "JAX first call": 0.050, "JAX steady": 0.0106})
    lengths = painted_lengths(chart)
    assert lengths["NumPy"] > 100
    # 6.9 times as long, to within a pixel of rounding at each end.
    assert lengths["JAX steady"] == pytest.approx(lengths["NumPy"] * 10.6 / 73, abs=2)
    assert lengths["JAX first call"] == pytest.approx(lengths["NumPy"] * 50 / 73, abs=2)


def test_painted_broken_bar_is_the_longest_and_has_a_gap(qtbot):
    chart = make_chart(qtbot, {"NumPy": 0.0319, "JAX first call": 0.802, "JAX steady": 0.00404})
    lengths = painted_lengths(chart)
    assert lengths["JAX first call"] > lengths["NumPy"]
    assert lengths["JAX steady"] == pytest.approx(lengths["NumPy"] * 4.04 / 31.9, abs=2)
    # The break: along the bar's middle row, its colour stops and starts again.
    mask = colour_mask(chart, JAX_FIRST_COLOUR)
    rows = np.nonzero(mask.any(axis=1))[0]
    middle = mask[(rows.min() + rows.max()) // 2]
    assert np.count_nonzero(np.diff(middle.astype(int)) == 1) == 2


# Long values a real run shows: each must wrap, never be cut off or run into another row.
ROWS = [
    Figure("image", "image", 0.24, "MP", "coffee.png, 600 × 400 (0.24 MP)"),
    Figure("kernel", "kernel", None, "", "9 × 9, sigma 2.5, separable (9 + 9 taps)"),
    Figure(
        "numpy.steady", "NumPy", 0.0438, "s", "43.8 ms", "(median of 11, middle half 42.9–45.1 ms)"
    ),
    Figure(
        "jit.first_call",
        "JAX first call",
        0.366,
        "s",
        "366 ms",
        "(program loaded from the compilation cache)",
    ),
    Figure(
        "jit.steady",
        "JAX steady",
        0.00258,
        "s",
        "2.58 ms",
        "(median of 117, middle half 2.51–2.73 ms)",
    ),
    Figure("speedup", "speedup", 17.0, "×", "17.0×", "(NumPy ÷ JAX steady)"),
    Figure(
        "speedup_end_to_end",
        "end-to-end speedup",
        5.2,
        "×",
        "5.2×",
        "(copies to and from the device (cuda:0 NVIDIA H200) included)",
    ),
    Figure("jit.transfers", "transfers", None, "", "to device 7.87 ms, from device 0.587 ms"),
    Figure(
        "max_abs_diff",
        "max abs diff",
        2.4e-7,
        "",
        "2.4e-07",
        "(6.1e-05 of 255 levels), within 1e-05",
    ),
    Figure("jit.device", "device", None, "", "cuda:0 NVIDIA GeForce RTX 4090"),
]


def assert_rows_readable(panel: FiguresPanel) -> None:
    labels = [
        label
        for label in panel.findChildren(QLabel)
        if label.isVisibleTo(panel) and label.text() and label is not panel.stale_label
    ]
    assert len(labels) >= 2 * len(ROWS)
    for label in labels:
        geometry = label.geometry()
        needed = label.heightForWidth(geometry.width()) if label.wordWrap() else -1
        assert max(needed, label.minimumSizeHint().height()) <= geometry.height(), label.text()
        assert label.minimumSizeHint().width() <= geometry.width(), label.text()
    for a, b in itertools.combinations(labels, 2):
        assert a.parent() is b.parent()
        assert not a.geometry().intersects(b.geometry()), (a.text(), b.text())
    # What does not fit the panel's height scrolls into view; nothing is cut off at the side.
    scroll = panel.findChild(QScrollArea)
    if scroll is not None:
        assert scroll.widget().width() <= scroll.viewport().width()
        if scroll.widget().height() > scroll.viewport().height():
            assert scroll.verticalScrollBar().isVisible()


@pytest.mark.parametrize("height", ["minimum", "roomy"])
def test_figure_rows_wrap_without_clipping_or_overlap(qtbot, height):
    panel = FiguresPanel()
    qtbot.addWidget(panel)
    panel.show_rows(ROWS)
    panel.chart.set_timings(
        [("NumPy", 0.0438, NUMPY_COLOUR), ("JAX steady", 0.00258, NUMPY_COLOUR)]
    )
    panel.show()
    for width in [panel.minimumSizeHint().width(), 260, 330, 400]:
        width = max(width, panel.minimumSizeHint().width())
        tall = panel.minimumSizeHint().height() if height == "minimum" else 900
        panel.resize(width, tall)
        qtbot.wait(1)  # let the layouts settle
        assert panel.width() == width
        assert_rows_readable(panel)


def _result(outputs: dict[str, float], engines=None):
    """A comparison whose engines' outputs are all `value` (NumPy's is 0)."""
    from blurapp.core.engines.runs import Compilation, EngineRun
    from blurapp.core.measuring.comparison import ComparisonResult

    runs = {}
    for i, (name, value) in enumerate(outputs.items()):
        jit = {"first_call_seconds": 0.3, "compilation": Compilation.COMPILED, "device": "cpu"}
        jit |= {"to_device_seconds": 0.001, "from_device_seconds": 0.001}
        runs[name] = EngineRun(
            output=np.full((4, 6), value, np.float32),
            repeat_seconds=(0.01 * i + 0.01,),
            **(jit if name == "jax" else {}),
        )
    return ComparisonResult(
        kernel=np.ones((3, 3), np.float32), sigma=1.0, runs=runs, engines=engines or {}
    )


def test_each_engine_keeps_its_bar_colour_whatever_else_ran(qtbot):
    from blurapp.core.engines import Engine, register, unregister

    panel = FiguresPanel()
    qtbot.addWidget(panel)
    panel.show_result(_result({"numpy": 0, "jax-eager": 0}), "a.png", 6, 4)
    alone = panel.chart.colours()
    register(Engine("twin", "Twin", first_call=None))
    try:
        # Registered after JAX without jit, but running before it here.
        panel.show_result(_result({"numpy": 0, "twin": 0, "jax-eager": 0}), "a.png", 6, 4)
    finally:
        unregister("twin")
    assert panel.chart.colours()["JAX without jit"] == alone["JAX without jit"]
    assert len(set(panel.chart.colours().values())) == 3


def test_a_difference_outside_the_tolerance_marks_that_engines_row(qtbot):
    from blurapp.core.engines import get_engine

    panel = FiguresPanel()
    qtbot.addWidget(panel)
    panel.show_result(_result({"numpy": 0, "jax-eager": 0.5, "jax": 0}), "a.png", 6, 4)
    assert "color" in panel._values["engine.jax-eager"].styleSheet()
    assert "color" not in panel._values["max_abs_diff"].styleSheet()
    # An engine the registry does not hold (made elsewhere) is found through the result.
    from dataclasses import replace

    twin = replace(get_engine("numpy"), name="twin", title="Twin")
    result = _result({"numpy": 0, "twin": 0.5}, engines={"twin": twin})
    rows = {row.key: row for row in comparison_figures(result, "a.png", 6, 4)}
    assert rows["engine.twin"].label == "Twin" and rows["engine.twin"].alarming
    rows = {row.key: row for row in comparison_figures(_result({"numpy": 0, "jax": 0}), "a", 6, 4)}
    assert not rows["max_abs_diff"].alarming


def test_presenting_shows_each_figure_and_how_it_was_measured_apart(qtbot):
    from blurapp.ui.figures_panel import RowArrangement
    from blurapp.ui.text_fitting import keep_whole

    panel = FiguresPanel()
    qtbot.addWidget(panel)
    panel.show_rows(ROWS)
    assert [label.text() for label in panel.value_labels("numpy.steady")] == [
        keep_whole("43.8 ms (median of 11, middle half 42.9–45.1 ms)")
    ]
    panel.arrange_rows(RowArrangement(first=("speedup",), stacked=True, detail_scale=1.1))
    assert panel.names()[0] == "speedup"
    for row in ROWS:
        shown = [label.text() for label in panel.value_labels(row.key)]
        expected = [row.figure, row.measured] if row.measured else [row.text]
        assert shown == [keep_whole(text) for text in expected], row.key
    assert panel.value("max_abs_diff") == "2.4e-07 (6.1e-05 of 255 levels), within 1e-05"


def test_a_comparison_on_a_tpu_shows_numpy_and_jax_steady_long_enough_to_compare(qtbot):
    """NumPy 9.10 ms and JAX steady 0.632 ms beside JAX without jit's 124 ms and a 2,094 ms
    first call: the panel's chart draws the speed-up's two bars to scale with each other, the
    two long ones broken."""
    from blurapp.core.engines.runs import Compilation, EngineRun
    from blurapp.core.measuring.comparison import ComparisonResult

    blank = np.zeros((4, 6), np.float32)
    runs = {
        "numpy": EngineRun(output=blank, repeat_seconds=(0.0091,) * 3),
        "jax-eager": EngineRun(output=blank, repeat_seconds=(0.124,) * 3),
        "jax": EngineRun(
            output=blank,
            repeat_seconds=(0.000632,) * 3,
            first_call_seconds=2.094,
            compilation=Compilation.COMPILED,
        ),
    }
    result = ComparisonResult(kernel=np.ones((3, 3), np.float32), sigma=1.0, runs=runs)
    panel = FiguresPanel()
    qtbot.addWidget(panel)
    panel.show_result(result, "street.png", 6, 4)
    panel.chart.resize(330, panel.chart.sizeHint().height())
    panel.chart.show()
    lengths = painted_lengths(panel.chart)
    assert lengths["NumPy"] > 100  # the axis is made for the headline
    assert lengths["JAX steady"] == pytest.approx(lengths["NumPy"] * 0.632 / 9.10, abs=2)
    assert lengths["JAX steady"] >= 6  # more than a sliver
    assert lengths["JAX first call"] > lengths["NumPy"]  # drawn broken, its time beside it
