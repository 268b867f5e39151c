"""What users of image tools expect, through the real window: the value under the cursor in the
status bar, Undo and Redo of the parameters, the panes one above the other, a grey "before"
beside a grey blur, and Save Results asking about a result that is out of date."""

import numpy as np
import pytest
from helpers.photos import photo_file
from helpers.window import on_screen, run
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from blurapp.core import to_8bit
from blurapp.core.engines.jax_eager_engine import JAX_EAGER
from blurapp.core.spec import BlurSpec
from blurapp.ui import undo
from blurapp.ui.main_window import MainWindow
from blurapp.ui.menus import shortcut_rows

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


def hover(qtbot, window, pane, x, y) -> str:
    """Move the mouse over pixel (x, y) of `pane`; what the status bar says then."""
    view = window.widgets.panes[pane].view
    # Scrolled to it, as a user would: a zoom is anchored under the cursor, wherever an
    # earlier test left it, so the pixel may be out of sight.
    view.ensureVisible(QRectF(x, y, 1, 1))
    QApplication.processEvents()  # the view settles where a zoom or a scroll puts it
    target = on_screen(view, x, y)
    # From beside it: a cursor already there (left by an earlier test) would not move.
    qtbot.mouseMove(view.viewport(), target + QPoint(1, 1))
    qtbot.mouseMove(view.viewport(), target)
    return window.statusBar().currentMessage()


# --- The value under the cursor ---------------------------------------------------------------


def test_hovering_a_pane_shows_the_pixel_and_its_value(window, qtbot):
    result = run(qtbot, window)
    window.widgets.view_link.set_zoom(2.0)
    blurred = to_8bit(result.jit_run.output)
    numpy_blurred = to_8bit(result.reference_run.output)
    for x, y in [(300, 200), (301, 203)]:
        assert hover(qtbot, window, 1, x, y) == f"JAX-jit at x {x}, y {y}: {blurred[y, x]}"
    assert hover(qtbot, window, 0, 299, 198) == f"NumPy at x 299, y 198: {numpy_blurred[198, 299]}"


def test_in_the_difference_view_it_shows_the_difference_itself(window, qtbot):
    result = run(qtbot, window)
    window.controller.set_show("difference")
    window.widgets.view_link.set_zoom(2.0)
    difference = np.abs(result.reference_run.output.astype(np.float64) - result.jit_run.output)
    y, x = np.unravel_index(np.argmax(difference[150:250, 250:350]), (100, 100))
    y, x = int(y) + 150, int(x) + 250
    window.widgets.view_link.views[1].centerOn(x, y)
    said = hover(qtbot, window, 1, x, y)
    assert said == f"|NumPy − JAX-jit| at x {x}, y {y}: {difference[y, x]:.2g}"
    assert difference[y, x] > 0  # not the stretched picture's level: the difference


@pytest.mark.slow
def test_a_colour_pixel_shows_red_green_and_blue(make_window, qtbot, tmp_path):
    window = make_window(photo_file(tmp_path, size=(90, 60)))
    window.set_parameters(color=True)
    result = run(qtbot, window)
    window.widgets.view_link.set_zoom(4.0)
    window.widgets.view_link.views[0].centerOn(45, 30)
    red, green, blue = to_8bit(result.reference_run.output)[30, 45]
    assert hover(qtbot, window, 0, 45, 30) == f"NumPy at x 45, y 30: R {red} G {green} B {blue}"


# --- Undo and redo --------------------------------------------------------------------------


def undo_key(qtbot, window, redo=False):
    window.widgets.panes[0].view.setFocus()  # a spin box with the focus would undo its own typing
    qtbot.keyClick(window, Qt.Key.Key_Z, CTRL | SHIFT if redo else CTRL)


def test_a_slider_drag_undoes_in_one_step_and_redoes(window, qtbot):
    slider = window.widgets.sigma_slider
    slider.setSliderDown(True)  # the user holds the handle…
    for position in range(26, 60, 3):
        slider.setValue(position)
    slider.setSliderDown(False)  # …and lets go at 5.9
    assert window.widgets.sigma_spin.value() == pytest.approx(5.9)
    assert window.actions.undo.text().replace("&", "") == "Undo Sigma"
    undo_key(qtbot, window)
    assert window.widgets.sigma_spin.value() == pytest.approx(2.5)
    assert slider.value() == 25
    assert window.session.parameters == BlurSpec()
    assert not window.actions.undo.isEnabled()  # the whole drag was one step
    undo_key(qtbot, window, redo=True)
    assert window.widgets.sigma_spin.value() == pytest.approx(5.9)
    assert window.session.parameters == BlurSpec(sigma=5.9)


def test_each_parameter_changed_is_a_step_of_its_own(window, qtbot, monkeypatch):
    monkeypatch.setattr(undo, "MERGE_SECONDS", 0.0)  # a user's pauses between changes
    window.set_parameters(kernel_size=15)
    window.widgets.algorithm_combo.setCurrentIndex(
        window.widgets.algorithm_combo.findData("separable")
    )
    window.widgets.controls.color_check.setChecked(True)
    window.widgets.auto_size_check.setChecked(True)
    window.widgets.sigma_spin.setValue(4.0)
    window.widgets.sigma_spin.setValue(5.0)  # a second change of sigma, later: a step too
    steps = [
        BlurSpec("auto", 5.0, "separable", True),
        BlurSpec("auto", 4.0, "separable", True),
        BlurSpec("auto", 2.5, "separable", True),
        BlurSpec(15, 2.5, "separable", True),
        BlurSpec(15, 2.5, "separable", False),
        BlurSpec(15, 2.5, "2d", False),
        BlurSpec(9, 2.5, "2d", False),
    ]
    assert window.session.parameters == steps[0]
    for expected in steps[1:]:
        undo_key(qtbot, window)
        assert window.session.parameters == expected
        assert window.widgets.controls.parameters() == expected  # the boxes show it
    assert window.widgets.size_spin.value() == 9 and not window.widgets.auto_size_check.isChecked()
    assert not window.actions.undo.isEnabled()
    for expected in reversed(steps[:-1]):
        undo_key(qtbot, window, redo=True)
        assert window.session.parameters == expected


def test_the_shortcuts_list_has_undo_and_redo(window):
    window.widgets.sigma_spin.setValue(3.0)
    keys = {action: keys for _, action, keys in shortcut_rows(window.menuBar())}
    assert keys["Undo Sigma"] == "Ctrl+Z"
    assert keys["Redo"].startswith("Ctrl+Shift+Z")


# --- The panes one above the other ------------------------------------------------------------


def test_wide_photos_get_more_room_with_the_panes_one_above_the_other(
    make_window, tmp_path, settings, qtbot
):
    window = make_window(photo_file(tmp_path, "panorama.png", size=(600, 150)))
    window.resize(1200, 800)
    QApplication.processEvents()
    left, right = window.widgets.left_pane, window.widgets.right_pane
    assert left.geometry().top() == right.geometry().top()  # side by side at first
    side_by_side = left.view.zoom()
    window.actions.stacked.trigger()
    QApplication.processEvents()
    assert left.geometry().bottom() < right.geometry().top()
    assert left.geometry().left() == right.geometry().left()
    assert left.view.zoom() > 1.4 * side_by_side  # the panorama is drawn larger
    assert left.view.zoom() == right.view.zoom()
    window.close()
    again = MainWindow(settings)
    qtbot.addWidget(again)
    try:
        assert again.actions.stacked.isChecked()  # remembered
        again.show()
        QApplication.processEvents()
        assert (
            again.widgets.left_pane.geometry().bottom() < again.widgets.right_pane.geometry().top()
        )
    finally:
        again.close()


# --- Before/after in grey --------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("colour", [False, True], ids=["grey blur", "colour blur"])
def test_before_shows_the_original_as_the_blur_saw_it(make_window, qtbot, tmp_path, colour):
    window = make_window(photo_file(tmp_path, size=(90, 60)))
    window.set_parameters(color=colour)
    run(qtbot, window)
    window.controller.set_show("split")
    window.widgets.view_link.set_zoom(4.0)
    view = window.widgets.left_pane.view
    view.centerOn(20, 30)
    for _ in range(2):
        QApplication.processEvents()
    shot = view.viewport().grab().toImage()
    expected = to_8bit(window.photo.pixels if colour else window.photo.gray)
    for x in (15, 18, 20):
        assert view.pixel_at(QPointF(on_screen(view, x, 30))) == (x, 30)
        drawn = shot.pixelColor(on_screen(view, x, 30))
        shown = (drawn.red(), drawn.green(), drawn.blue())
        if colour:
            assert shown == tuple(expected[30, x])
        else:
            assert shown == (expected[30, x],) * 3
    assert hover(qtbot, window, 0, 18, 30).startswith("original at x 18, y 30: ")


# --- Save Results and an out-of-date result -------------------------------------------------


@pytest.fixture
def with_a_stale_result(window, qtbot):
    """NumPy, JAX-jit and JAX without jit run; then a run without JAX without jit, whose
    result is left over from the earlier run."""
    window.controller.set_timed(JAX_EAGER.name, True)
    run(qtbot, window)
    window.controller.set_timed(JAX_EAGER.name, False)
    run(qtbot, window)
    assert window.session.captions.result_out_of_date(JAX_EAGER.name)
    return window


def save(window, folder, monkeypatch, answer):
    """Save Results into `folder`, answering the question with `answer`: the questions asked."""
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    asked = []

    def question(parent, title, text, buttons, default):
        asked.append((title, text, buttons, default))
        return answer

    monkeypatch.setattr(QMessageBox, "question", question)
    window.actions.save.trigger()
    return asked


@pytest.mark.slow
@pytest.mark.parametrize(
    ("answer", "saved"),
    [
        (QMessageBox.StandardButton.Save, ["coffee-jax-9x9-s2.5.png", "coffee-numpy-9x9-s2.5.png"]),
        (
            QMessageBox.StandardButton.SaveAll,
            [
                "coffee-jax-9x9-s2.5.png",
                "coffee-jax-eager-9x9-s2.5.png",
                "coffee-numpy-9x9-s2.5.png",
            ],
        ),
        (QMessageBox.StandardButton.Cancel, []),
    ],
    ids=["current only", "all", "cancel"],
)
def test_save_results_asks_about_an_out_of_date_result(
    with_a_stale_result, tmp_path, monkeypatch, answer, saved
):
    folder = tmp_path / "out"
    folder.mkdir()
    [(title, text, buttons, default)] = save(with_a_stale_result, folder, monkeypatch, answer)
    assert title == "Save Out-of-Date Results?"
    assert "JAX without jit: a later run replaced other results" in text
    assert "Save keeps to the current results (NumPy, JAX-jit)" in text
    assert default == QMessageBox.StandardButton.Save  # the safe answer is the current ones
    assert buttons & QMessageBox.StandardButton.SaveAll
    assert sorted(path.name for path in folder.iterdir()) == saved
