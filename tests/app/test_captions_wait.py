"""When the panes' captions are drawn after a change of the parameters: at once, or, where the
live preview follows the change, once its result comes or the wait ends; on a clock of the
test's own, without Qt."""

from pathlib import Path

import numpy as np
import pytest
from helpers.recording_view import RecordingView

from blurapp.app.captions_wait import LIVE_CAPTIONS_WAIT_SECONDS, CaptionsWait
from blurapp.app.running import InlineRunner
from blurapp.app.session import Session
from blurapp.app.window_controller import WindowController
from blurapp.core.media.photo import Photo

WAIT = LIVE_CAPTIONS_WAIT_SECONDS


def test_a_change_the_preview_follows_waits_from_a_sliders_first_step_then_is_due():
    wait = CaptionsWait(lambda: True)
    assert wait.parameters_changed(now=10.0) == pytest.approx(WAIT)
    # A slider dragged: each step after the first keeps the end of the first's wait.
    assert wait.parameters_changed(now=10.0 + WAIT / 2) == pytest.approx(WAIT / 2)
    assert wait.waiting(now=10.0 + WAIT / 2)
    # A timer that came back early is named the time left; at the end, the captions are due.
    assert wait.due(now=10.0 + WAIT * 0.95) == pytest.approx(WAIT * 0.05)
    assert wait.due(now=10.0 + WAIT) is None
    wait.drawn()
    assert not wait.waiting(now=10.0 + WAIT)
    # The next change waits again, from its own time.
    assert wait.parameters_changed(now=20.0) == pytest.approx(WAIT)


def test_a_result_that_comes_ends_the_wait():
    wait = CaptionsWait(lambda: True)
    wait.parameters_changed(now=0.0)
    wait.drawn()  # the live preview's result drew them
    assert not wait.waiting(now=0.01) and wait.due(now=0.01) is None


def test_a_change_the_preview_does_not_follow_draws_the_captions_now():
    follows = False
    wait = CaptionsWait(lambda: follows)
    assert wait.parameters_changed(now=0.0) is None
    follows = True
    assert wait.parameters_changed(now=1.0) == pytest.approx(WAIT)
    follows = False  # the live preview turned off meanwhile: drawn at the next change
    assert wait.parameters_changed(now=1.01) is None and not wait.waiting(now=1.01)


def test_a_live_rate_going_during_the_wait_leaves_the_captions_to_the_waits_end():
    wait = CaptionsWait(lambda: True)
    assert wait.rates_expired(now=0.0)  # no wait: drawn at once, the rate gone
    wait.parameters_changed(now=1.0)
    assert not wait.rates_expired(now=1.0 + WAIT / 3)
    assert wait.due(now=1.0 + WAIT) is None  # the wait's end draws them, the rate gone too


def test_the_wait_reads_its_own_clock_when_given_no_time():
    clock = [5.0]
    wait = CaptionsWait(lambda: True, clock=lambda: clock[0])
    assert wait.parameters_changed() == pytest.approx(WAIT)
    clock[0] += WAIT
    assert wait.due() is None


def test_the_controller_waits_only_where_its_live_preview_follows_a_change():
    session = Session()
    controller = WindowController(session, InlineRunner(), RecordingView())
    try:
        wait = controller.captions_wait
        assert wait.parameters_changed(now=0.0) is None  # no photo yet: nothing is re-blurred
        pixels = np.zeros((6, 8), np.float32)
        session.set_photo(Photo(Path("grey.png"), pixels, 8))
        assert wait.parameters_changed(now=1.0) == pytest.approx(WAIT)
        wait.drawn()
        session.live = False
        assert wait.parameters_changed(now=2.0) is None
    finally:
        controller.stop()
