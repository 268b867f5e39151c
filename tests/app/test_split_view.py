"""Before/after in the session, without a window: what each side of a pane shows and says."""

import pytest
from helpers.session import finish, numpy_run, session_with_photo

from blurapp.app.captions import LEFT, RIGHT, SHOW_LABELS


@pytest.fixture
def session():
    return session_with_photo()


def test_before_a_run_both_sides_show_the_original_and_the_caption_says_so(session):
    session.set_show("split")
    for pane in (LEFT, RIGHT):
        assert session.captions.picture(pane) == "the photo"
        assert session.captions.picture_before(pane) == "the photo"
    assert session.captions.caption(LEFT).text() == (
        "Left: original, right: NumPy · cpu · not run yet: the original on both sides, press Run"
    )


def test_after_a_run_the_original_is_left_of_the_divider_and_the_blur_right(session):
    finish(session, {"numpy": numpy_run(), "jax": numpy_run()})
    session.set_show("split")
    assert session.captions.picture(LEFT) == "picture of numpy"
    assert session.captions.picture_before(LEFT) == "the photo"
    assert session.captions.picture(RIGHT) == "picture of jax"
    assert session.captions.picture_before(RIGHT) == "the photo"
    caption = session.captions.caption(RIGHT)
    assert caption.heading == "Left: original, right: JAX-jit"
    assert caption.details == ("cpu", "25.0 ms", "9 × 9, σ 2.5")


def test_only_before_after_splits_a_pane(session):
    finish(session, {"numpy": numpy_run(), "jax": numpy_run()})
    for show in SHOW_LABELS.keys() - {"split"}:
        session.set_show(show)
        assert session.captions.picture_before(LEFT) is None
        assert not session.captions.caption(LEFT).heading.startswith("Left: original")


def test_an_engine_that_could_not_run_is_not_split(session):
    session.jax_failed("JAX could not be loaded")
    session.set_show("split")
    assert (
        session.captions.picture(RIGHT) is None and session.captions.picture_before(RIGHT) is None
    )
    assert session.captions.caption(RIGHT).text() == "JAX-jit · unavailable"
    assert "JAX could not be loaded" in session.captions.placeholder(RIGHT)
