"""The "Detail at 100%" inset of a reduced photo never hides the photo it details: it goes where
the picture is not (what decides: tests/app/test_detail_place.py), and closed, it stays closed."""

import pytest
from helpers.photos import photo_file
from helpers.window import settle
from PySide6.QtCore import QPointF
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QApplication


def picture_on_screen(view):
    return view.viewportTransform().mapRect(view._item.boundingRect())


@pytest.mark.parametrize(
    ("photo", "window_size"),
    [((3000, 2000), (1024, 640)), ((4000, 3000), (1920, 1080))],
    ids=["landscape-1024x640", "phone-landscape-1920x1080"],
)
def test_the_inset_sits_beside_the_picture_not_on_it(make_window, tmp_path, photo, window_size):
    window = make_window(photo_file(tmp_path, "phone.png", size=photo))
    settle(window, *window_size)
    for pane in window.widgets.panes:
        view = pane.view
        assert view.zoom() < 0.5 and window.actions.detail.isChecked()
        inset = view.detail_rect()
        assert inset is not None and inset.width() >= 96
        assert view.viewport().rect().toRectF().contains(inset)
        picture = picture_on_screen(view)
        assert not inset.intersects(picture), (inset, picture)


def hides_none_of_the_photo(view) -> bool:
    """Whether the pane's inset, if it shows one, leaves all of the photo on screen in view."""
    inset = view.detail_rect()
    return inset is None or not inset.intersects(picture_on_screen(view))


def says_what_it_is(view) -> bool:
    """Whether the inset names itself in words a user reads ("Detail at 100%"), whole."""
    label, place = view.detail_label(), view.detail_label_rect()
    width = QFontMetricsF(view.font()).horizontalAdvance(label)
    return (
        label == "Detail at 100%"
        and place is not None
        and view.detail_rect().contains(place)
        and place.width() >= width
    )


@pytest.mark.parametrize("window_size", [(1024, 640), (1920, 1080)], ids=["1024x640", "1920x1080"])
def test_an_upright_phone_photo_keeps_its_top_right_in_view(make_window, tmp_path, window_size):
    window = make_window(photo_file(tmp_path, "upright.png", size=(1500, 2000)))
    settle(window, *window_size)
    for pane in window.widgets.panes:
        view = pane.view
        picture = picture_on_screen(view)
        # The photo's top right, which the inset used to cover, is in view and uncovered, and
        # so is the rest of it: fitted with no room beside it, it gets no inset.
        top_right = QPointF(picture.right() - 2, picture.top() + 2)
        assert view.viewport().rect().toRectF().contains(top_right)
        assert hides_none_of_the_photo(view), (view.detail_rect(), picture)


@pytest.mark.parametrize(
    "photo", [(3000, 2000), (4000, 3000), (1500, 2000)], ids=["3-2", "4-3", "upright"]
)
@pytest.mark.parametrize("presenting", [False, True], ids=["window", "presentation"])
@pytest.mark.parametrize("window_size", [(1024, 640), (1366, 768)], ids=["1024x640", "1366x768"])
def test_the_inset_hides_none_of_the_photo_and_says_what_it_is(
    make_window, tmp_path, photo, presenting, window_size
):
    window = make_window(photo_file(tmp_path, "photo.png", size=photo))
    if presenting:
        window.actions.presentation.trigger()  # F11
    settle(window, *window_size)  # a full-screen window: the projector's size
    assert window.actions.detail.isChecked()
    shown = 0
    for pane in window.widgets.panes:
        view = pane.view
        assert view.zoom() < 0.5 and view.is_fitted()
        assert hides_none_of_the_photo(view), (view.detail_rect(), picture_on_screen(view))
        if view.detail_rect() is not None:
            shown += 1
            assert says_what_it_is(view), (view.detail_label(), view.detail_label_rect())
    if photo[0] > photo[1]:  # a landscape photo leaves bands above and below: it goes there
        assert shown == 2


def test_the_inset_never_covers_the_pixels_it_shows(make_window, tmp_path):
    window = make_window(photo_file(tmp_path, "wide.png", size=(3000, 2000)))
    settle(window, 1024, 640)
    view = window.widgets.left_pane.view
    view.set_zoom(0.4)  # the picture fills the pane: no room beside it
    QApplication.processEvents()
    assert picture_on_screen(view).contains(view.viewport().rect().toRectF())
    for point in [QPointF(1500, 1000), QPointF(2900, 1900), QPointF(100, 100)]:
        view.set_detail_point(point)
        inset = view.detail_rect()
        shown = view.viewportTransform().mapRect(view.detail_source())
        assert inset is not None and not inset.intersects(shown), (point, inset, shown)


def test_a_closed_inset_stays_closed_in_the_next_window(make_window, tmp_path):
    window = make_window(photo_file(tmp_path, "big.png", size=(2400, 1600)))
    assert window.widgets.left_pane.view.detail_rect() is not None
    window.actions.detail.trigger()  # View ▸ Detail at 100%, off
    assert window.widgets.left_pane.view.detail_rect() is None
    window.close()
    # The next window, on the same settings and a photo large enough for an inset: none shown.
    again = make_window(photo_file(tmp_path, "big.png", size=(2400, 1600)))
    assert not again.actions.detail.isChecked()
    assert again.widgets.left_pane.view.detail_rect() is None


def test_the_inset_shows_each_new_pictures_own_pixels(qtbot):
    # The inset keeps the part it crops of a picture for the paints that follow; a new picture
    # of the same size (the live preview's next result) brings its own.
    import numpy as np

    from blurapp.ui.image_view import ImageView

    view = ImageView()
    qtbot.addWidget(view)
    view.resize(400, 300)
    view.show()
    qtbot.waitExposed(view)
    for value in (40, 200):
        picture = np.full((2000, 500), value, np.uint8)  # tall: room for the inset beside it
        view.set_picture((picture,))
        view.set_detail_point(QPointF(250, 1000))
        target = view.detail_rect()
        assert target is not None
        shot = view.viewport().grab().toImage()
        ratio = shot.width() / view.viewport().width()
        centre = shot.pixelColor(int(target.center().x() * ratio), int(target.center().y() * ratio))
        assert centre.red() == value
