"""Everything the window does can be done from the keyboard."""

import pytest
from helpers.window import RUN_TIMEOUT_MS
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from blurapp.ui.dialogs import ShortcutsDialog
from blurapp.ui.menus import shortcut_rows

CTRL = Qt.KeyboardModifier.ControlModifier
ALT = Qt.KeyboardModifier.AltModifier


def controls_in_tab_order(window):
    """Every control a user reaches with Tab, in the order the window should visit them."""
    return [
        window.widgets.size_spin,
        window.widgets.auto_size_check,
        window.widgets.sigma_spin,
        window.widgets.sigma_slider,
        window.widgets.algorithm_combo,
        window.widgets.controls.color_check,
        # The engines the panes show cannot be unticked: their boxes are disabled, out of Tab.
        *[check for check in window.widgets.engine_checks.values() if check.isEnabled()],
        window.widgets.show_combo,
        window.widgets.run_button,
        window.widgets.cancel_button,
        window.widgets.left_pane.engine_combo,
        window.widgets.left_pane.view,
        window.widgets.right_pane.engine_combo,
        window.widgets.right_pane.view,
    ]


@pytest.mark.slow
def test_ctrl_r_runs_and_f5_runs_again(window, qtbot):
    with qtbot.waitSignal(window.display.results_shown, timeout=RUN_TIMEOUT_MS):
        qtbot.keyClick(window, Qt.Key.Key_R, CTRL)
    with qtbot.waitSignal(window.display.results_shown, timeout=RUN_TIMEOUT_MS):
        qtbot.keyClick(window, Qt.Key.Key_F5)


def test_escape_cancels_a_run(window, qtbot):
    window.set_parameters(kernel_size=101, sigma=16.0)
    window.controller.set_pane_engine(1, "numpy")  # a pane's engine is always timed
    window.controller.set_timed("jax", False)  # NumPy only: ten thousand taps
    with qtbot.waitSignal(
        window.display.progress_shown, timeout=RUN_TIMEOUT_MS, check_params_cb=lambda e, d, t: d > 0
    ):
        window.controller.run()
    with qtbot.waitSignal(window.display.run_cancelled, timeout=5000):
        qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert not window.controller.is_running()


def test_ctrl_o_opens_the_file_dialog(window, qtbot, monkeypatch):
    asked = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: asked.append(a) or ("", ""))
    qtbot.keyClick(window, Qt.Key.Key_O, CTRL)
    assert len(asked) == 1


def test_alt_and_a_number_switch_what_the_panes_show(window, qtbot):
    qtbot.keyClick(window, Qt.Key.Key_2, ALT)
    assert window.session.show == "original"
    qtbot.keyClick(window, Qt.Key.Key_3, ALT)
    assert window.session.show == "difference"
    qtbot.keyClick(window, Qt.Key.Key_1, ALT)
    assert window.session.show == "blurred"


def test_f6_moves_between_the_panes_and_ctrl_c_copies_the_selected_one(window, qtbot):
    with qtbot.waitSignal(window.display.results_shown, timeout=RUN_TIMEOUT_MS):
        qtbot.keyClick(window, Qt.Key.Key_R, CTRL)
    assert window.selected_pane == 0
    qtbot.keyClick(window, Qt.Key.Key_F6)
    assert window.selected_pane == 1
    assert QApplication.focusWidget() is window.widgets.right_pane.view
    qtbot.keyClick(window, Qt.Key.Key_C, CTRL)
    assert QApplication.clipboard().image().width() == 600


def test_alt_mnemonics_reach_the_parameters(window, qtbot):
    qtbot.keyClick(window, Qt.Key.Key_S, ALT)
    assert QApplication.focusWidget() is window.widgets.sigma_spin
    qtbot.keyClick(window, Qt.Key.Key_K, ALT)
    assert QApplication.focusWidget() is window.widgets.size_spin
    qtbot.keyClick(window.widgets.size_spin, Qt.Key.Key_Up)
    assert window.widgets.size_spin.value() == 11


def test_tab_walks_the_parameters_then_the_panes(window, qtbot):
    window.widgets.size_spin.setFocus(Qt.FocusReason.TabFocusReason)
    visited = [QApplication.focusWidget()]
    for _ in range(len(controls_in_tab_order(window))):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        visited.append(QApplication.focusWidget())
    expected = controls_in_tab_order(window)
    # The cancel button is disabled when no run is going, so Tab passes over it.
    expected.remove(window.widgets.cancel_button)
    assert visited[: len(expected)] == expected


def test_every_control_has_an_accessible_name(window):
    for widget in controls_in_tab_order(window):
        assert widget.accessibleName(), widget
    assert window.widgets.left_pane.view.accessibleName() == "NumPy image"
    assert "zoom" in window.widgets.right_pane.view.toolTip()


def test_f1_lists_every_shortcut(window, qtbot, monkeypatch):
    shown = []
    monkeypatch.setattr(ShortcutsDialog, "exec", lambda self: shown.append(self) or 0)
    qtbot.keyClick(window, Qt.Key.Key_F1)
    [dialog] = shown
    rows = [
        tuple(dialog.table.item(row, column).text() for column in range(3))
        for row in range(dialog.table.rowCount())
    ]
    actions = {action: keys for _, action, keys in rows}
    assert actions["Run"] == "Ctrl+R, F5"
    assert actions["Open…"] == "Ctrl+O"
    assert actions["Cancel"] == "Esc"
    assert actions["Keyboard Shortcuts"] == "F1"
    assert "Ctrl+0" in actions.values() and "F6" in actions.values()


def test_the_shortcuts_dialog_shows_every_row_without_scrolling(window, qtbot):
    dialog = ShortcutsDialog(shortcut_rows(window.menuBar()), window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    table = dialog.table
    assert table.rowCount() == len(shortcut_rows(window.menuBar())) > 10
    assert table.verticalScrollBar().maximum() == 0
    last = table.visualItemRect(table.item(table.rowCount() - 1, 0))
    assert table.viewport().rect().contains(last)
    assert table.horizontalScrollBar().maximum() == 0
