"""Where the "Detail at 100%" inset goes, decided without Qt: where the picture is not, else
away from the pixels it shows."""

from blurapp.app.detail_place import LEAST_IN_A_BAND, MARGIN, Box, detail_inset_place

TALL_PANE = Box(0, 0, 400, 700)
WIDE_PANE = Box(0, 0, 900, 500)


def inside(outer: Box, inner: Box) -> bool:
    return (
        outer.x <= inner.x
        and outer.y <= inner.y
        and inner.right <= outer.right
        and inner.bottom <= outer.bottom
    )


def test_a_landscape_photo_in_a_tall_pane_gets_the_inset_above_or_below_it():
    picture = Box(0, 217, 400, 266)  # 3:2, fitted to the pane's width
    place = detail_inset_place(TALL_PANE, picture, None, 220)
    assert place is not None and inside(TALL_PANE, place)
    assert not place.overlaps(picture)
    assert place.width == place.height >= LEAST_IN_A_BAND


def test_a_phone_photo_in_a_wide_pane_gets_the_inset_beside_it():
    picture = Box(262, 0, 375, 500)  # 3:4, upright, fitted to the pane's height
    place = detail_inset_place(WIDE_PANE, picture, None, 220)
    assert place is not None and inside(WIDE_PANE, place)
    assert not place.overlaps(picture)
    assert place.width == 220  # the band is wide enough for the whole inset


def test_the_inset_is_as_large_as_the_band_allows_and_no_larger():
    picture = Box(0, 150, 400, 400)  # bands of 150 px above and below
    place = detail_inset_place(TALL_PANE, picture, None, 220)
    assert place is not None and place.width == 150 - 2 * MARGIN


def test_a_picture_filling_the_pane_keeps_the_pixels_the_inset_shows_in_view():
    picture = Box(-300, -200, 1600, 1100)  # zoomed in past the pane's edges
    for shown in [Box(700, 380, 110, 110), Box(20, 20, 110, 110), Box(400, 200, 110, 110)]:
        place = detail_inset_place(WIDE_PANE, picture, shown, 220)
        assert place is not None and inside(WIDE_PANE, place)
        assert not place.overlaps(shown), shown


def test_the_top_right_of_a_photo_zoomed_past_the_pane_stays_in_view_by_default():
    picture = Box(-50, -30, 1000, 560)
    shown = Box(340, 140, 220, 220)  # its centre, as before the cursor moves over it
    place = detail_inset_place(WIDE_PANE, picture, shown, 220)
    assert place is not None
    top_right = Box(900 - 220 - MARGIN, MARGIN, 220, 220)
    assert not place.overlaps(top_right)


def test_a_photo_fitted_to_the_pane_with_no_room_beside_it_gets_no_inset():
    # Every pixel of it is in view, and what the user opened it to see: an inset would hide some.
    for picture in [Box(0, 0, 900, 500), Box(0, 20, 900, 460), Box(60, 0, 780, 500)]:
        assert detail_inset_place(WIDE_PANE, picture, Box(340, 140, 220, 220), 220) is None


def test_a_pane_too_small_for_an_inset_gets_none():
    assert detail_inset_place(Box(0, 0, 20, 20), Box(0, 0, 20, 20), None, 220) is None
