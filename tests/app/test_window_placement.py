"""Where the window opens, decided without Qt: inside the available area of the screen it opens
on, a saved place kept only where it fits, and the room used."""

import pytest

from blurapp.app.window_placement import PREFERRED_SIZE, Frame, Rect, screen_for, window_rect

SMALL = Rect(0, 0, 1024, 640)
FULL_HD = Rect(0, 0, 1920, 1080)
QHD = Rect(0, 0, 2560, 1440)
MINIMUM = (800, 600)


@pytest.mark.parametrize("screen", [SMALL, FULL_HD, QHD, Rect(0, 28, 1440, 872)])
def test_a_fresh_window_lies_inside_the_screen_it_opens_on(screen):
    rect = window_rect([screen], None, minimum=MINIMUM)
    assert screen.contains(rect)


def test_a_fresh_window_on_a_small_screen_takes_all_the_room_there_is():
    assert window_rect([SMALL], None, minimum=MINIMUM) == SMALL


def test_a_fresh_window_on_a_large_screen_uses_most_of_it_centred():
    rect = window_rect([QHD], None, minimum=MINIMUM)
    assert rect.width > PREFERRED_SIZE[0] and rect.height > PREFERRED_SIZE[1]
    assert rect.width >= 0.85 * QHD.width and rect.height >= 0.85 * QHD.height
    assert rect.x - QHD.x == QHD.right - rect.right
    assert rect.y - QHD.y == QHD.bottom - rect.bottom


def test_a_saved_place_that_fits_is_kept():
    saved = Rect(100, 80, 1000, 700)
    assert window_rect([FULL_HD], saved, minimum=MINIMUM) == saved


def test_a_size_saved_on_a_larger_screen_is_cut_to_the_room_there_is():
    saved = Rect(40, 30, 2400, 1350)  # used on 2560 × 1440, opened on 1920 × 1080
    rect = window_rect([FULL_HD], saved, minimum=MINIMUM)
    assert rect == FULL_HD


def test_a_saved_place_partly_off_the_screen_is_moved_the_least_onto_it():
    saved = Rect(1500, 100, 1000, 700)  # its right part past the screen's edge
    rect = window_rect([FULL_HD], saved, minimum=MINIMUM)
    assert (rect.width, rect.height, rect.y) == (1000, 700, 100)
    assert rect.right == FULL_HD.right


def test_a_window_saved_on_a_screen_no_longer_there_opens_on_the_primary_screen():
    saved = Rect(2000, 100, 1000, 700)  # on a second screen, unplugged since
    rect = window_rect([FULL_HD], saved, minimum=MINIMUM)
    assert FULL_HD.contains(rect) and (rect.width, rect.height) == (1000, 700)


def test_a_window_saved_on_the_second_screen_opens_there():
    right_screen = Rect(1920, 0, 1280, 1024)
    saved = Rect(2000, 100, 1000, 700)
    assert screen_for([FULL_HD, right_screen], saved) == right_screen
    assert window_rect([FULL_HD, right_screen], saved, minimum=MINIMUM) == saved


def test_the_frame_is_inside_the_screen_too():
    frame = Frame(left=4, top=30, right=4, bottom=4)
    rect = window_rect([SMALL], None, minimum=MINIMUM, frame=frame)
    outer = Rect(rect.x - 4, rect.y - 30, rect.width + 8, rect.height + 34)
    assert outer == SMALL


def test_the_window_keeps_its_least_size_while_the_screen_has_room_for_it():
    saved = Rect(0, 0, 300, 200)  # smaller than the window allows
    assert window_rect([FULL_HD], saved, minimum=MINIMUM) == Rect(0, 0, 800, 600)
    tiny = Rect(0, 0, 640, 480)  # a screen smaller than the least size: the screen wins
    assert tiny.contains(window_rect([tiny], None, minimum=MINIMUM))
