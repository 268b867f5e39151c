"""The panes' captions keep room for the caption a run brings, decided without Qt."""

from helpers.session import longest_run_caption

from blurapp.app.caption_room import (
    LEAST_LINES,
    LONGEST_RUN_CAPTION,
    MOST_RESERVED_LINES,
    CaptionRoom,
    reserved_height,
)


def test_the_room_kept_is_the_longest_captions_height_within_a_few_lines():
    line = 17
    assert reserved_height(4 * line, line) == 4 * line  # as tall as the caption laid out
    assert reserved_height(line, line) == LEAST_LINES * line  # a wide pane: two lines still
    assert reserved_height(20 * line, line) == MOST_RESERVED_LINES * line  # a very narrow one


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


def test_the_room_kept_holds_the_longest_caption_a_run_brings():
    caption = longest_run_caption().text()
    assert "loaded from the compilation cache during the live preview" in caption, caption
    assert "grey: Blur in colour is off" in caption, caption
    assert len(caption) <= len(LONGEST_RUN_CAPTION.text()), caption
