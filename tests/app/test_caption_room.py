"""The panes' captions keep room for the caption a run brings, decided without Qt."""

import dataclasses

from helpers.session import finish, jax_run, numpy_run, photo

from blurapp.app.caption_room import (
    LEAST_LINES,
    MOST_RESERVED_LINES,
    RESERVED_CHARACTERS,
    CaptionRoom,
    reserved_lines,
)
from blurapp.app.captions import RIGHT
from blurapp.app.session import Session
from blurapp.core.engines.runs import Compilation


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


def test_the_room_kept_holds_the_longest_caption_a_run_brings():
    # On a TPU, a colour photo blurred in grey, after a live preview that loaded JAX-jit's
    # program from the compilation cache: the JAX pane's longest caption after a Run.
    session = Session()
    session.set_photo(photo(shape=(4, 6, 3)), original="the photo")

    def on_the_chip(run, first_call):
        return dataclasses.replace(run, device="tpu: TPU v5 lite", first_call_seconds=first_call)

    finish(session, {"jax": on_the_chip(jax_run(Compilation.FROM_CACHE), 1.234)}, live=True)
    finish(session, {"numpy": numpy_run(), "jax": on_the_chip(jax_run(Compilation.REUSED), 7e-4)})
    caption = session.captions.caption(RIGHT).text()
    assert "loaded from the compilation cache during the live preview" in caption, caption
    assert "grey: Blur in colour is off" in caption, caption
    assert len(caption) <= RESERVED_CHARACTERS, caption
