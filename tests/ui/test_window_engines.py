"""The engines in the real window: each pane chooses its engine, a run times every engine ticked,
and the figures and the chart show them all (pytest-qt, offscreen)."""

import time

import numpy as np
import pytest
from helpers.window import run
from helpers.window_settings import change_settings
from PySide6.QtCore import QPoint, Qt

from blurapp.core import TOLERANCE, to_8bit
from blurapp.core.engines import Engine, Shown, register, unregister
from blurapp.core.engines.runs import Call, Compilation, FirstCall

INDICATOR = QPoint(6, 8)  # on a check box's box, wherever its layout stretches it


@pytest.mark.slow
def test_numpy_jax_and_jax_without_jit_read_like_the_tutorials_table(window, qtbot):
    window.controller.set_timed("jax-eager", True)
    result = run(qtbot, window)
    assert list(result.runs) == ["numpy", "jax", "jax-eager"]
    for engine in ("jax", "jax-eager"):
        assert result.differences[engine] <= TOLERANCE
    figures = window.widgets.figures
    assert " ms (median of " in figures.value("numpy.steady")
    assert figures.value("jit.first_call") and figures.value("jit.steady")
    assert "within 1e-05" in figures.value("max_abs_diff")
    eager = figures.value("engine.jax-eager")
    assert (
        "(median of 3, middle half" in eager
        and "NumPy's speed" in eager
        and "within 1e-05" in eager
    )
    # The chart in the tutorial's order: NumPy, op by op, then jit's first call and steady
    # (a program another test of this process compiled is said to have been compiled before).
    reused = result.runs["jax"].compilation is Compilation.REUSED
    first = "JAX first call (compiled before)" if reused else "JAX first call"
    assert [name for name, _ in figures.chart.bars()] == [
        "NumPy",
        "JAX without jit",
        first,
        "JAX steady",
    ]
    assert dict(figures.chart.bars())["JAX without jit"] == pytest.approx(
        result.runs["jax-eager"].seconds
    )
    assert "JAX without jit" in window.widgets.status_label.text()


@pytest.mark.slow
def test_a_pane_shows_the_engine_chosen_for_it_and_marks_it_until_run(window, qtbot):
    first = run(qtbot, window)
    pane = window.widgets.right_pane
    combo = pane.engine_combo
    combo.setCurrentIndex(combo.findData("jax-eager"))
    assert window.session.pane_engines == ["numpy", "jax-eager"]
    assert window.widgets.engine_checks["jax-eager"].isChecked()  # chosen for a pane: timed too
    assert pane.caption_text().startswith("JAX without jit · ")
    assert "not run yet" in pane.caption_text()
    assert pane.view.accessibleName() == "JAX without jit image"
    result = run(qtbot, window)
    assert "jax-eager" in result.runs and "jax-eager" not in first.runs
    device = result.runs["jax-eager"].device
    assert pane.caption_text().startswith(f"JAX without jit · {device} · steady ")
    expected = to_8bit(result.runs["jax-eager"].output)
    assert pane.view.image().pixelColor(7, 9).red() == expected[9, 7]
    # The difference view compares the right pane's engine with NumPy.
    window.controller.set_show("difference")
    assert pane.caption_text().startswith("Difference |NumPy − JAX without jit|")
    window.set_parameters(sigma=3.0)
    window.controller.set_show("blurred")
    assert "out of date" in pane.caption_text()
    assert "sigma changed from 2.5 to 3 since this run" in pane.caption.toolTip()


@pytest.mark.slow
def test_a_fourth_engine_registered_in_a_few_lines_runs_in_the_window(make_window, qtbot):
    from scipy.ndimage import correlate

    def run_scipy(image, kernel, *, platform, progress, cancelled):
        if kernel.ndim == 1:
            kernel = np.outer(kernel, kernel)

        def again() -> Call:
            start = time.perf_counter()
            correlate(image, kernel, mode="nearest")
            return Call(time.perf_counter() - start)

        start = time.perf_counter()
        output = correlate(image, kernel, mode="nearest").astype(np.float32)
        return FirstCall(output=output, again=again, seconds=time.perf_counter() - start)

    register(Engine("scipy", "SciPy", run_scipy))
    try:
        window = make_window()
        combo = window.widgets.left_pane.engine_combo
        assert combo.itemText(combo.findData("scipy")) == "SciPy"
        assert "scipy" in window.widgets.engine_checks
        combo.setCurrentIndex(combo.findData("scipy"))
        result = run(qtbot, window)
        assert list(result.runs) == ["numpy", "jax", "scipy"]
        assert result.differences["scipy"] <= TOLERANCE
        assert window.widgets.left_pane.caption_text().startswith("SciPy · cpu · ")
        assert "within 1e-05" in window.widgets.figures.value("engine.scipy")
        assert "SciPy" in [name for name, _ in window.widgets.figures.chart.bars()]
        window.close()
    finally:
        unregister("scipy")


def test_the_engines_chosen_survive_a_new_window(make_window, qtbot, settings):
    window = make_window(wait=False)
    window.controller.set_pane_engine(0, "jax-eager")
    window.controller.set_timed("numpy", False)  # no pane shows it now
    window.close()
    again = make_window(wait=False)
    assert again.session.pane_engines == ["jax-eager", "jax"]
    assert again.session.timed == ("jax", "jax-eager")
    assert again.widgets.left_pane.engine_combo.currentData() == "jax-eager"


def test_settings_are_one_value_and_refuse_unknown_names_and_bad_values(settings):
    from blurapp.app.window_settings import WindowSettings, read_settings

    with pytest.raises(TypeError):
        change_settings(settings, colour_scheme="dark")
    with pytest.raises(AttributeError):
        read_settings(settings).colour_scheme  # noqa: B018
    with pytest.raises(ValueError):
        change_settings(settings, sigma=99)
    with pytest.raises(ValueError):
        change_settings(settings, timed_engines=("numpy", "no-such-engine"))
    settings.set_value("pane_engines", "numpy,no-such-engine")
    assert read_settings(settings).pane_engines == WindowSettings().pane_engines
    change_settings(settings, pane_engines=("jax-eager", "numpy"))
    assert read_settings(settings).pane_engines == ("jax-eager", "numpy")


def test_saved_engine_names_the_panes_do_not_offer_read_as_the_defaults(qtbot, tmp_path):
    from blurapp.app.session import DEFAULT_PANE_ENGINES
    from blurapp.app.settings_file import SettingsFile
    from blurapp.app.window_settings import WindowSettings, read_settings
    from blurapp.ui.main_window import MainWindow

    # As a hand-edited file (or a build that offered JAX per platform) leaves them.
    path = tmp_path / "settings.json"
    path.write_text('{"pane_engines": ["jax@cpu", "jax"], "timed_engines": "jax@cpu"}')
    settings = SettingsFile(path)
    assert read_settings(settings).pane_engines == DEFAULT_PANE_ENGINES
    assert read_settings(settings).timed_engines == WindowSettings().timed_engines
    window = MainWindow(settings)
    qtbot.addWidget(window)
    try:
        assert window.session.pane_engines == list(DEFAULT_PANE_ENGINES)
        assert window.session.timed == ("numpy", "jax")
        ticked = tuple(
            name for name, check in window.widgets.engine_checks.items() if check.isChecked()
        )
        assert ticked == window.session.timed
    finally:
        window.close()
    with pytest.raises(ValueError):
        change_settings(settings, timed_engines=("numpy", "jax@cpu"))


def test_saved_engines_this_machine_does_not_offer_read_as_the_defaults(
    qtbot, tmp_path, monkeypatch
):
    """Settings saved where an engine is offered, read where its Engine.offered says no."""
    import dataclasses

    from blurapp.app.session import DEFAULT_PANE_ENGINES
    from blurapp.app.settings_file import SettingsFile
    from blurapp.app.window_settings import WindowSettings, read_settings
    from blurapp.core.engines import get_engine, offered_engine_names
    from blurapp.ui.main_window import MainWindow

    elsewhere = Shown(offered=lambda: False)
    register(dataclasses.replace(get_engine("numpy"), name="elsewhere", shown=elsewhere))
    try:
        assert "elsewhere" not in offered_engine_names()
        path = tmp_path / "settings.json"
        path.write_text(
            '{"pane_engines": ["numpy", "elsewhere"], "timed_engines": "numpy,elsewhere"}'
        )
        settings = SettingsFile(path)
        assert read_settings(settings).pane_engines == DEFAULT_PANE_ENGINES
        assert read_settings(settings).timed_engines == WindowSettings().timed_engines
        window = MainWindow(settings)
        qtbot.addWidget(window)
        try:
            assert window.session.pane_engines == list(DEFAULT_PANE_ENGINES)
            assert "elsewhere" not in window.session.timed
            assert "elsewhere" not in window.widgets.engine_checks
        finally:
            window.close()
    finally:
        unregister("elsewhere")


def test_jax_pallas_is_offered_with_no_tpu_unticked_and_said_to_be_interpreted(
    qtbot, settings, monkeypatch
):
    """The docs' JAX Pallas check box is there on a CPU, as on a TPU, but not ticked in a new
    window, and it says it is interpreted here, in the panes' lists too."""
    from helpers.tpu_runtime import seem_to_have_libtpu

    from blurapp.ui.main_window import MainWindow

    seem_to_have_libtpu(monkeypatch, False)
    window = MainWindow(settings)
    qtbot.addWidget(window)
    try:
        check = window.widgets.engine_checks["pallas"]
        assert check.text() == "JAX Pallas (interpreted)"
        assert check.isEnabled() and not check.isChecked()
        assert "pallas" not in window.session.timed
        assert "say nothing of the kernel on a chip" in check.toolTip()
        combo = window.widgets.right_pane.engine_combo
        assert combo.itemText(combo.findData("pallas")) == "JAX Pallas (interpreted)"
        assert window.widgets.engine_checks["jax"].text() == "JAX-jit"
        check.click()
        assert "pallas" in window.session.timed
    finally:
        window.close()


def test_the_engine_a_pane_shows_cannot_be_unticked(window, qtbot):
    check = window.widgets.engine_checks["jax"]  # the right pane shows JAX-jit
    assert check.isChecked() and not check.isEnabled()
    assert "pane" in check.toolTip()
    qtbot.mouseClick(check, Qt.MouseButton.LeftButton, pos=INDICATOR)
    assert check.isChecked() and window.session.timed == ("numpy", "jax")
    run(qtbot, window)
    assert "not run yet" not in window.widgets.right_pane.caption_text()
    # Another engine for the pane frees JAX-jit's box; the new engine's is held instead.
    window.controller.set_pane_engine(1, "jax-eager")
    assert check.isEnabled() and not window.widgets.engine_checks["jax-eager"].isEnabled()
    qtbot.mouseClick(check, Qt.MouseButton.LeftButton, pos=INDICATOR)
    assert not check.isChecked() and window.session.timed == ("numpy", "jax-eager")


def test_a_restored_panes_engine_is_ticked_and_held(make_window, settings):
    settings.set_value("pane_engines", "numpy,jax-eager")
    settings.set_value("timed_engines", "numpy")
    window = make_window(wait=False)
    assert window.session.timed == ("numpy", "jax-eager")
    for name in ("numpy", "jax-eager"):
        assert window.widgets.engine_checks[name].isChecked()
        assert not window.widgets.engine_checks[name].isEnabled()
    assert (
        window.widgets.engine_checks["jax"].isEnabled()
        and not window.widgets.engine_checks["jax"].isChecked()
    )
