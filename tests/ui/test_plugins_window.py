"""A plugin engine in the window: timed, shown, charted in its own colour, and swept."""

import numpy as np
import pytest
from helpers.oracle import blur_oracle
from helpers.plugin import PLUGIN_COLOUR
from helpers.window import RUN_TIMEOUT_MS, run
from PySide6.QtCore import Qt

from blurapp.core import TOLERANCE


@pytest.mark.slow
def test_the_window_times_shows_and_charts_the_plugin_engine(installed, make_window, qtbot):
    window = make_window()
    check = window.widgets.engine_checks["scipy"]
    assert check.text() == "SciPy" and not check.isChecked()
    check.click()
    result = run(qtbot, window)
    assert list(result.runs) == ["numpy", "jax", "scipy"]
    photo = window.session.photo
    expected = blur_oracle(photo.gray, result.kernel)
    np.testing.assert_allclose(result.runs["scipy"].output, expected, atol=TOLERANCE, rtol=0)
    row = window.widgets.figures.value("engine.scipy")
    assert "NumPy's speed" in row and "within 1e-05" in row
    chart = window.widgets.figures.chart
    assert dict(chart.bars())["SciPy"] == pytest.approx(result.runs["scipy"].seconds)
    assert chart.colours()["SciPy"] == PLUGIN_COLOUR
    assert chart.colours()["NumPy"] != PLUGIN_COLOUR

    # A pane can show it.
    combo = window.widgets.right_pane.engine_combo
    assert combo.findData("scipy") >= 0
    combo.setCurrentIndex(combo.findData("scipy"))
    assert window.session.pane_engines == ["numpy", "scipy"]
    assert window.widgets.right_pane.caption_text().startswith("SciPy")

    # And the sweep opened from the window sweeps it, in its colour.
    from blurapp.ui.sweep_chart import engine_colour
    from blurapp.ui.sweep_window import SweepWindow

    window.actions.sweep.trigger()
    [sweep] = [child for child in window.findChildren(SweepWindow) if child.isVisible()]
    assert "scipy" in sweep.engines
    assert engine_colour("scipy").name() == PLUGIN_COLOUR


def test_the_sweep_times_the_plugin_engine_at_every_size(installed, qtbot, tmp_path):
    from helpers.photos import photo_file

    from blurapp.core.media.photo import load_photo
    from blurapp.core.spec import BlurSpec
    from blurapp.ui.sweep_window import SweepWindow

    photo = load_photo(photo_file(tmp_path, size=(60, 40)))
    sweep = SweepWindow.of(photo, BlurSpec(kernel_size=3, sigma=1.0), ("numpy", "scipy"), repeats=1)
    qtbot.addWidget(sweep)
    sweep.max_spin.setValue(0.1)
    sweep.show()
    try:
        with qtbot.waitSignal(sweep.sweep_finished, timeout=RUN_TIMEOUT_MS) as finished:
            qtbot.mouseClick(sweep.run_button, Qt.MouseButton.LeftButton)
        points = finished.args[0]
        assert len(points) == 2 and all(point.seconds["scipy"] > 0 for point in points)
        assert [mp for mp, _ in sweep.chart.series()["scipy"]] == [p.megapixels for p in points]
        assert [r for _, r in sweep.chart.speedup_series()["scipy"]] == [
            p.speedups["scipy"] for p in points
        ]
    finally:
        sweep.close()
