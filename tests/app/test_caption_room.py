"""The panes' captions keep room for the caption a run brings, decided without Qt."""

from blurapp.app.caption_room import (
    LEAST_LINES,
    MOST_RESERVED_LINES,
    RESERVED_CHARACTERS,
    CaptionRoom,
    reserved_lines,
)


def test_a_narrower_pane_keeps_more_lines():
    lines = [reserved_lines(width, 7.0) for width in (1200, 600, 330, 220)]
    assert lines == sorted(lines)
    assert lines[0] == LEAST_LINES and lines[-1] > lines[1]
    assert reserved_lines(330, 7.0) * 330 >= RESERVED_CHARACTERS * 7.0  # the caption fits
    assert reserved_lines(20, 7.0) == MOST_RESERVED_LINES
    assert reserved_lines(0, 7.0) == LEAST_LINES


def test_at_one_width_the_captions_never_get_shorter():
    room = CaptionRoom()
    at = (330, 17)
    assert room.height(at, needed=21, reserved=55) == 55  # before a run: the room kept
    assert room.height(at, needed=72, reserved=55) == 72  # a longer caption than kept for
    assert room.height(at, needed=21, reserved=55) == 72  # the next, shorter: no jump back


def test_a_new_width_or_type_starts_afresh():
    room = CaptionRoom()
    room.height((330, 17), needed=90, reserved=55)
    assert room.height((600, 17), needed=21, reserved=38) == 38
    assert room.height((600, 34), needed=42, reserved=76) == 76
