"""Before/after: each pane shows the original left of a divider and its engine's blur right of
it; the user drags the divider in either pane and both follow (the session's part in
tests/app/test_split_view.py)."""

import numpy as np
import pytest
from helpers.window import jax_settled, on_screen, run
from PIL import Image
from PySide6.QtCore import QPoint, Qt

from blurapp.core import to_8bit

SIZE = (160, 120)  # width, height: whole in a pane at 100 % and at 200 %
ROW = 100  # a row of the picture clear of the divider's handle (middle) and labels (top)


@pytest.fixture
def checkerboard(tmp_path):
    """4-pixel black and white squares: the blur turns every pixel grey."""
    path = tmp_path / "checkerboard.png"
    y, x = np.indices(SIZE[::-1])
    Image.fromarray(((x // 4 + y // 4) % 2 * 255).astype(np.uint8)).save(path)
    return path


def sides_shown(view, original, blurred, y=ROW):
    """For each pixel of row `y`, as the view draws it: "before" where it shows the original,
    "after" where it shows the blur, "-" where neither (the divider's line)."""
    shot = view.viewport().grab().toImage()
    sides = []
    for x in range(original.shape[1]):
        value = shot.pixelColor(on_screen(view, x, y)).red()
        if value == original[y, x] != blurred[y, x]:
            sides.append("before")
        elif value == blurred[y, x] != original[y, x]:
            sides.append("after")
        else:
            sides.append("-")
    return sides


def boundary(view, original, blurred):
    """The first picture column that shows the blur, as the view draws the row: all before it
    show the original, but for a few under the divider's line; all after it the blur."""
    sides = sides_shown(view, original, blurred)
    first_after = sides.index("after")
    assert set(sides[first_after:]) == {"after"}, sides
    line = 4  # the most columns the line can cover (4 screen pixels wide)
    assert set(sides[: first_after - line]) == {"before"}, sides
    return first_after


@pytest.fixture
def split_window(make_window, qtbot, checkerboard):
    """A window on the checkerboard after a run, at 100 %, showing before/after."""
    window = make_window(checkerboard)
    window.resize(1360, 820)  # panes wider than the picture at 200 %, past the tests' screen
    run(qtbot, window)
    window.widgets.show_combo.setCurrentIndex(
        window.widgets.show_combo.findData("split")
    )  # as a user picks it
    window.widgets.view_link.set_zoom(1.0)
    return window


def pictures(window, pane):
    """(original, that pane's blur) as 8-bit arrays."""
    blurred = window.widgets.panes[pane].view.image()
    width, height = blurred.width(), blurred.height()
    blurred = np.array(
        [[blurred.pixelColor(x, y).red() for x in range(width)] for y in range(height)]
    )
    return to_8bit(window.photo.gray), blurred


def test_before_after_is_offered_with_the_other_views(make_window, qtbot):
    window = make_window()
    jax_settled(qtbot, window)
    assert (
        window.widgets.show_combo.itemText(window.widgets.show_combo.findData("split"))
        == "Before/after"
    )
    [action] = [a for a in window.actions.show.actions() if a.data() == "split"]
    assert action.text() == "Before/after"
    action.trigger()
    assert window.session.show == "split"
    assert window.widgets.show_combo.currentData() == "split"


@pytest.mark.slow
def test_each_pane_shows_the_original_left_of_the_divider_and_its_blur_right(split_window):
    window = split_window
    for index, pane in enumerate(window.widgets.panes):
        original, blurred = pictures(window, index)
        assert np.abs(original.astype(int) - blurred).min() > 20  # the blur changed every pixel
        assert pane.view.divider() == 0.5  # it starts in the middle
        assert boundary(pane.view, original, blurred) == pytest.approx(SIZE[0] / 2, abs=2)


@pytest.mark.slow
def test_the_caption_says_what_each_side_shows(split_window):
    assert split_window.widgets.left_pane.caption_text().startswith("Left: original, right: NumPy")
    assert split_window.widgets.right_pane.caption_text().startswith(
        "Left: original, right: JAX-jit"
    )


@pytest.mark.slow
def test_dragging_the_divider_in_one_pane_moves_it_in_both(split_window, qtbot):
    window = split_window
    view = window.widgets.right_pane.view
    viewport = view.viewport()
    center = view.center()
    start, end = on_screen(view, SIZE[0] // 2, ROW), on_screen(view, 40, ROW)
    # Over the divider the cursor says it can be dragged sideways; off it, that goes.
    qtbot.mouseMove(viewport, start)
    assert viewport.cursor().shape() == Qt.CursorShape.SplitHCursor
    qtbot.mouseMove(viewport, end)
    assert viewport.cursor().shape() != Qt.CursorShape.SplitHCursor
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(viewport, QPoint((start.x() + end.x()) // 2, start.y()))
    qtbot.mouseMove(viewport, end)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)
    for index, pane in enumerate(window.widgets.panes):
        original, blurred = pictures(window, index)
        assert boundary(pane.view, original, blurred) == pytest.approx(40, abs=2)
    assert view.center() == center  # the divider moved, not the picture


@pytest.mark.slow
def test_the_divider_stays_at_its_place_in_the_picture_when_zooming(split_window):
    window = split_window
    window.widgets.left_pane.view.set_divider(0.25)
    window.widgets.view_link.zoom_by(2.0)
    for index, pane in enumerate(window.widgets.panes):
        original, blurred = pictures(window, index)
        assert boundary(pane.view, original, blurred) == pytest.approx(40, abs=2)


def test_before_a_run_both_sides_show_the_original(make_window, checkerboard, qtbot):
    window = make_window(checkerboard)
    jax_settled(qtbot, window)
    window.controller.set_show("split")
    window.widgets.view_link.set_zoom(1.0)
    view = window.widgets.left_pane.view
    original = to_8bit(window.photo.gray)
    shot = view.viewport().grab().toImage()
    far_from_the_divider = [x for x in range(SIZE[0]) if abs(x - SIZE[0] / 2) > 4]
    assert all(
        shot.pixelColor(on_screen(view, x, ROW)).red() == original[ROW, x]
        for x in far_from_the_divider
    )
    assert window.widgets.left_pane.caption_text().endswith(
        "not run yet: the original on both sides, press Run"
    )


def test_dragging_the_divider_after_the_picture_is_cleared_does_nothing(qtbot):
    from blurapp.app.pyramid import build_pyramid
    from blurapp.ui.image_view import ImageView

    view = ImageView()
    qtbot.addWidget(view)
    view.resize(400, 300)
    view.show()
    qtbot.waitExposed(view)
    rows, columns = np.indices(SIZE[::-1])
    picture = build_pyramid(((rows + columns) % 256).astype(np.uint8))
    view.set_picture(picture, before=picture)
    x, top, bottom = view._divider_on_screen()
    place = QPoint(round(x), round((top + bottom) / 2))
    viewport = view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=place)
    view.set_picture(None)  # a new photo, or a run, clears the picture under the drag
    qtbot.mouseMove(viewport, place + QPoint(30, 0))  # no ZeroDivisionError
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=place + QPoint(30, 0))
    assert view.divider() == 0.5 and not view.is_split()
