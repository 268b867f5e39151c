"""Presentation mode (F11): full screen, and figures an audience reads from the back of a room."""

import pytest
from helpers.window import RUN_TIMEOUT_MS
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QApplication, QLabel

from blurapp.ui.main_window import MainWindow
from blurapp.ui.menus import shortcut_rows

FULL_SCREEN = Qt.WindowState.WindowFullScreen


@pytest.fixture
def compared(window, qtbot):
    """A window showing the figures of a comparison."""
    with qtbot.waitSignal(window.display.results_shown, timeout=RUN_TIMEOUT_MS):
        window.controller.run()
    assert window.widgets.figures.value("speedup")
    return window


def type_size(widget) -> float:
    """The point size `widget`'s text is drawn in."""
    return QFontInfo(widget.font()).pointSizeF()


def figure_labels(window) -> dict[str, QLabel]:
    """The figures panel's visible texts, by their text."""
    labels = window.widgets.figures.findChildren(QLabel)
    return {label.text(): label for label in labels if label.isVisible() and label.text()}


def speedup_label(window) -> QLabel:
    """The label of the speed-up figure itself ("6.6×" while presenting)."""
    return window.widgets.figures.value_labels("speedup")[0]


def detail_labels(window) -> list[QLabel]:
    """The labels saying how each figure was measured, beside it while presenting."""
    rows = [window.widgets.figures.value_labels(name) for name in window.widgets.figures.names()]
    return [labels[1] for labels in rows if len(labels) > 1]


def is_full_screen(window) -> bool:
    return bool(window.windowState() & FULL_SCREEN)


def press(qtbot, window, key) -> None:
    """Press `key` in `window`, and let the window show what it did."""
    qtbot.keyClick(window, key)
    QApplication.processEvents()  # the figures' new rows are shown by queued calls


def test_f11_presents_the_speedup_in_the_largest_type(compared, qtbot):
    window = compared
    normal = type_size(window.widgets.figures.value_labels("numpy.steady")[0])
    caption = type_size(window.widgets.left_pane.caption)
    chart = type_size(window.widgets.figures.chart)
    press(qtbot, window, Qt.Key.Key_F11)
    assert is_full_screen(window)
    assert window.actions.presentation.isChecked()
    speedup = speedup_label(window)
    assert type_size(speedup) >= 1.8 * normal
    details = detail_labels(window)
    others = [
        label
        for label in figure_labels(window).values()
        if label is not speedup and label not in details
    ]
    assert len(others) > 10  # the rows' names and figures, and the chart's caption
    assert all(type_size(speedup) > type_size(label) for label in others + details)
    assert all(type_size(label) >= 1.8 * normal for label in others)
    # How each was measured, beside its figure, in type the presenter reads.
    assert len(details) >= 5
    assert all(type_size(label) > normal for label in details)  # the presenter reads it
    assert type_size(window.widgets.figures.chart) >= 1.8 * chart
    for pane in window.widgets.panes:
        assert type_size(pane.caption) >= 1.8 * caption
        # The whole caption still shows: it is as tall as its wrapped text.
        assert pane.caption.height() >= pane.caption_height_needed()


@pytest.mark.slow
@pytest.mark.parametrize("key", [Qt.Key.Key_F11, Qt.Key.Key_Escape], ids=["F11", "Esc"])
def test_f11_or_esc_restores_the_window_and_its_type(compared, qtbot, key):
    window = compared
    size_before = window.size()
    speedup_before = type_size(speedup_label(window))
    caption_before = type_size(window.widgets.right_pane.caption)
    press(qtbot, window, Qt.Key.Key_F11)
    assert is_full_screen(window)
    press(qtbot, window, key)
    assert not is_full_screen(window)
    assert not window.actions.presentation.isChecked()
    assert window.size() == size_before
    assert type_size(speedup_label(window)) == speedup_before
    assert type_size(window.widgets.right_pane.caption) == caption_before


def test_a_maximized_window_comes_back_maximized(compared, qtbot):
    window = compared
    window.showMaximized()
    window.actions.presentation.trigger()
    assert is_full_screen(window)
    window.actions.presentation.trigger()
    assert window.windowState() & Qt.WindowState.WindowMaximized
    assert not is_full_screen(window)


def test_figures_of_a_run_while_presenting_are_large_too(window, qtbot):
    """A run started in presentation mode lays out new rows: they come in presentation type."""
    normal = type_size(window.widgets.left_pane.caption)
    press(qtbot, window, Qt.Key.Key_F11)
    with qtbot.waitSignal(window.display.results_shown, timeout=RUN_TIMEOUT_MS):
        window.controller.run()
    QApplication.processEvents()
    speedup = speedup_label(window)
    assert type_size(speedup) >= 1.8 * normal
    assert all(
        type_size(speedup) > type_size(label)
        for label in figure_labels(window).values()
        if label is not speedup
    )


def test_the_view_menu_toggles_it(window):
    window.actions.presentation.trigger()
    assert is_full_screen(window) and window.actions.presentation.isChecked()
    window.actions.presentation.trigger()
    assert not is_full_screen(window) and not window.actions.presentation.isChecked()


def test_esc_cancels_a_run_while_presenting_and_leaves_after(window, qtbot):
    window.set_parameters(kernel_size=101, sigma=16.0)
    window.controller.set_pane_engine(1, "numpy")  # a pane's engine is always timed
    window.controller.set_timed("jax", False)  # NumPy only: ten thousand taps
    press(qtbot, window, Qt.Key.Key_F11)
    with qtbot.waitSignal(
        window.display.progress_shown, timeout=RUN_TIMEOUT_MS, check_params_cb=lambda e, d, t: d > 0
    ):
        window.controller.run()
    with qtbot.waitSignal(window.display.run_cancelled, timeout=5000):
        qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert is_full_screen(window)  # the first Esc was Cancel's
    press(qtbot, window, Qt.Key.Key_Escape)
    assert not is_full_screen(window)


def test_esc_does_nothing_outside_presentation_mode(window, qtbot):
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert not is_full_screen(window) and not window.actions.presentation.isChecked()


def test_presentation_mode_is_not_remembered(window, qtbot, settings):
    window.resize(window.width(), 640)  # inside the offscreen screen, which a window is kept in
    size_before = window.size()
    press(qtbot, window, Qt.Key.Key_F11)
    window.close()
    again = MainWindow(settings)
    qtbot.addWidget(again)
    try:
        again.show()
        qtbot.waitExposed(again)
        assert not is_full_screen(again)
        assert not again.actions.presentation.isChecked()
        assert again.size() == size_before
    finally:
        again.close()


def test_the_shortcuts_list_has_f11(window):
    rows = {action: keys for _, action, keys in shortcut_rows(window.menuBar())}
    assert rows["Presentation"] == "F11"


def test_presenting_leaves_out_the_check_boxes_of_the_engines_the_panes_show(window, qtbot):
    """Every Run times the panes' engines: presenting, their check boxes give their rows to
    the figures; the others stay, and all come back on leaving."""
    checks = window.widgets.controls.engine_checks
    shown_by_panes = set(window.session.pane_engines)
    assert all(checks[name].isVisible() for name in checks)
    press(qtbot, window, Qt.Key.Key_F11)
    assert {name for name in checks if not checks[name].isVisible()} == shown_by_panes
    window.controller.set_pane_engine(0, "jax-eager")  # a pane shows another engine: its box goes
    QApplication.processEvents()
    assert not checks["jax-eager"].isVisible() and checks["numpy"].isVisible()
    press(qtbot, window, Qt.Key.Key_Escape)
    assert all(checks[name].isVisible() for name in checks)
