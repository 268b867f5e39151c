"""The side panel's width and the speed-up's type for the window's size, decided without Qt."""

import pytest

from blurapp.app.figures_column import (
    SIDE_PANEL_LEAST,
    SPEEDUP_LEAST_SCALE,
    SPEEDUP_MOST_SCALE,
    side_panel_width,
    speedup_scale,
)

CHARACTER = 7.0  # an average character of the panel's type, in pixels
FIGURE, LINE = 40.0, 17.0  # "88.8×" and a line in the panel's type


def test_the_side_panel_takes_a_share_of_the_window_and_grows_with_it():
    widths = [side_panel_width(width, CHARACTER) for width in (1024, 1920, 2560)]
    assert widths[0] == SIDE_PANEL_LEAST  # a small window: the controls' least width
    assert widths[0] < widths[1] < widths[2]
    assert widths[1] == pytest.approx(0.3 * 1920, abs=1)


def test_the_side_panel_keeps_lines_of_a_readable_length_and_the_pictures_most_of_the_window():
    assert side_panel_width(6000, CHARACTER) <= 100 * CHARACTER  # a very wide window
    # Type so large that its hundred characters would take most of the window.
    assert side_panel_width(1600, 30.0) <= 800


def test_the_speedup_grows_with_the_panel_and_the_window():
    small = speedup_scale(340, 640, FIGURE, LINE)
    large = speedup_scale(768, 1440, FIGURE, LINE)
    assert SPEEDUP_LEAST_SCALE <= small < large <= SPEEDUP_MOST_SCALE
    # Its figure stays within half the panel's width, its line within a share of the height.
    for width, height in [(340, 640), (576, 1080), (768, 1440)]:
        scale = speedup_scale(width, height, FIGURE, LINE)
        assert scale * FIGURE <= 0.5 * width or scale == SPEEDUP_LEAST_SCALE
        assert scale * LINE <= 0.08 * height or scale == SPEEDUP_LEAST_SCALE


def test_the_speedup_keeps_its_type_as_the_window_moves_by_a_few_pixels():
    assert speedup_scale(576, 1080, FIGURE, LINE) == speedup_scale(578, 1083, FIGURE, LINE)


def test_a_short_window_keeps_the_speedup_in_type_larger_than_the_rest():
    assert speedup_scale(340, 300, FIGURE, LINE) == SPEEDUP_LEAST_SCALE
    assert speedup_scale(340, 640, 0, 0) == SPEEDUP_LEAST_SCALE
