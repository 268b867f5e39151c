"""The window's session without a window: no QApplication, no worker, no JAX."""

import subprocess
import sys

import numpy as np
import pytest
from helpers.session import finish, jax_run, numpy_run, photo, session_with_photo
from helpers.tpu_runtime import seem_to_have_libtpu

from blurapp.app.captions import LEFT, RIGHT
from blurapp.app.session import Newest, Session
from blurapp.core import InvalidKernelError
from blurapp.core.engines.runs import EngineRun
from blurapp.core.kernel import MAX_SIGMA
from blurapp.core.measuring.comparison import ComparisonResult
from blurapp.core.spec import BlurSpec


@pytest.fixture
def session():
    return session_with_photo()


def test_importing_the_session_does_not_import_qt():
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "import blurapp.app.session, sys; assert 'PySide6' not in sys.modules; "
            "assert 'jax' not in sys.modules",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr


# --- BlurSpec -----------------------------------------------------------------------------


def test_parameters_are_checked_by_the_cores_rules():
    assert BlurSpec(kernel_size="9", sigma="2.5").kernel_size == 9
    assert BlurSpec(kernel_size="auto", sigma=2.0).size == 13
    for bad in [{"kernel_size": 8}, {"kernel_size": 0}, {"sigma": 0}, {"sigma": MAX_SIGMA * 2}]:
        with pytest.raises(InvalidKernelError):
            BlurSpec(**bad)
    with pytest.raises(InvalidKernelError, match="algorithm"):
        BlurSpec(algorithm="fast")


def test_parameters_are_one_value():
    assert BlurSpec(9, 2.5, "2d") == BlurSpec()
    assert BlurSpec("auto", 1.0).same_blur(BlurSpec(7, 1.0))
    with pytest.raises(AttributeError):
        BlurSpec().sigma = 3.0


# --- What is out of date, and why ----------------------------------------------------------


def test_a_changed_sigma_says_from_what_to_what(session):
    finish(session, {"numpy": numpy_run(), "jax": jax_run()})
    assert session.captions.caption(LEFT).out_of_date is None
    session.set_parameters(BlurSpec(sigma=3.0))
    reason = session.captions.caption(LEFT).out_of_date
    assert reason == "sigma changed from 2.5 to 3 since this run; press Run"
    assert session.captions.figures_out_of_date() == reason
    assert session.captions.caption(LEFT).text().endswith(" · out of date")


def test_every_change_is_named(session):
    finish(session, {"numpy": numpy_run()})
    session.set_parameters(BlurSpec(kernel_size=13, sigma=2.5, algorithm="separable"))
    reason = session.captions.result_out_of_date("numpy")
    assert "kernel size changed from 9 × 9 to 13 × 13 since this run" in reason
    assert "algorithm changed from 2-D (tutorial) to Separable since this run" in reason
    assert "sigma" not in reason


def test_auto_picking_the_same_size_is_not_a_change(session):
    session.set_parameters(BlurSpec(kernel_size=7, sigma=1.0))
    finish(session, {"numpy": numpy_run()})
    session.set_parameters(BlurSpec(kernel_size="auto", sigma=1.0))
    assert session.captions.result_out_of_date("numpy") is None


def test_a_result_kept_from_an_earlier_run_says_a_later_run_replaced_others(session):
    finish(session, {"numpy": numpy_run(), "jax": jax_run()})
    session.set_pane_engine(RIGHT, "numpy")  # a pane's engine is always timed
    session.set_timed("jax", False)
    result = finish(session, {"numpy": numpy_run(0.02)})
    assert result.jit_run is None
    assert session.captions.caption(LEFT).out_of_date is None
    assert "a later run replaced other results" in session.captions.result_out_of_date("jax")
    [row] = session.captions.earlier_rows()
    assert (row.key, row.label, row.value) == ("jit.steady", "JAX steady", 0.0002)
    assert row.text == "0.200 ms (earlier run, out of date)"


# --- Captions, placeholders, pictures --------------------------------------------------------


def test_on_a_tpu_the_jax_pane_says_the_window_may_stand_still_until_the_chip_is_open(
    session, monkeypatch
):
    # A machine whose TPU runtime is installed, JAX not yet started: opening the chip holds
    # Python's lock for seconds, and the pane says so before it happens.
    seem_to_have_libtpu(monkeypatch)
    monkeypatch.delenv("JAX_PLATFORMS", raising=False)
    opening = "the TPU, opening: the window may not answer for a few seconds"
    assert session.captions.caption(RIGHT).details[0] == opening
    assert session.captions.caption(LEFT).details[0] == "cpu"  # NumPy's pane: the host
    session.jax_started("tpu: TPU v5 lite")
    assert session.captions.caption(RIGHT).details[0] == "tpu: TPU v5 lite"


@pytest.mark.parametrize(
    ("platforms", "opens"), [("cpu,tpu", True), ("tpu,cpu", True), ("cpu", False)]
)
def test_the_pane_says_the_tpu_is_opening_wherever_jax_opens_it_default_or_not(
    session, monkeypatch, platforms, opens
):
    # JAX opens every platform JAX_PLATFORMS lists as it starts, so the window stands still
    # while a TPU opens even where the CPU is the default device.
    seem_to_have_libtpu(monkeypatch)
    monkeypatch.setenv("JAX_PLATFORMS", platforms)
    said = session.captions.caption(RIGHT).details[0]
    assert (said == "the TPU, opening: the window may not answer for a few seconds") is opens
    session.jax_started("cpu")
    assert session.captions.caption(RIGHT).details[0] == "cpu"


def test_where_jax_failed_to_start_the_pane_does_not_say_it_is_opening(session, monkeypatch):
    seem_to_have_libtpu(monkeypatch)
    monkeypatch.delenv("JAX_PLATFORMS", raising=False)
    session.jax_failed("JAX found no device to run on: libtpu multi-process lockfile")
    assert "opening" not in session.captions.caption(RIGHT).text()


def test_captions_before_and_after_a_run(session):
    assert session.captions.caption(LEFT).text() == (
        "NumPy · cpu · not run yet: showing the original, press Run"
    )
    assert (
        session.captions.caption(RIGHT)
        .text()
        .startswith("JAX-jit · the accelerator when present, else the CPU · ")
    )
    session.jax_started("cpu")
    assert session.captions.caption(RIGHT).details[0] == "cpu"
    assert session.captions.picture(LEFT) == "the photo"
    finish(session, {"numpy": numpy_run(), "jax": jax_run()})
    assert session.captions.caption(LEFT).text() == "NumPy · cpu · 25.0 ms · 9 × 9, σ 2.5"
    assert session.captions.caption(RIGHT).text() == (
        "JAX-jit · cpu · steady 0.200 ms · first call 366 ms (compiled) · 9 × 9, σ 2.5"
    )
    assert session.captions.picture(RIGHT) == "picture of jax"


@pytest.mark.parametrize("colour_on", [False, True])
def test_the_originals_caption_says_it_is_drawn_in_colour_whatever_the_colour_switch(colour_on):
    session = Session()
    session.set_photo(photo(shape=(4, 6, 3)), original="the photo", grey_original="its grey")
    session.set_parameters(BlurSpec(color=colour_on))
    session.set_show("original")
    # The photo as it was opened, in colour, both panes.
    assert [session.captions.picture(pane) for pane in (LEFT, RIGHT)] == ["the photo"] * 2
    assert [session.captions.caption(pane).text() for pane in (LEFT, RIGHT)] == [
        "Original · colour · 6 × 4"
    ] * 2


def test_the_original_of_a_grey_photo_is_captioned_grayscale(session):
    session.set_parameters(BlurSpec(color=True))
    session.set_show("original")
    assert session.captions.caption(LEFT).text() == "Original · grayscale · 6 × 4"


def test_a_pane_shows_the_engine_chosen_for_it(session):
    session.set_pane_engine(RIGHT, "jax-eager")
    assert session.timed == ("numpy", "jax", "jax-eager")  # chosen for a pane: timed too
    eager = EngineRun(
        output=np.zeros((4, 6), np.float32), repeat_seconds=(0.2348,), first_call_seconds=0.68
    )
    finish(session, {"numpy": numpy_run(), "jax": jax_run(), "jax-eager": eager})
    assert session.captions.caption(RIGHT).text() == (
        "JAX without jit · cpu · steady 235 ms · first call 680 ms · 9 × 9, σ 2.5"
    )
    session.set_show("difference")
    assert session.captions.caption(RIGHT).heading == "Difference |NumPy − JAX without jit|"
    assert session.captions.picture(RIGHT) == "difference of jax-eager"
    session.set_pane_engine(RIGHT, "numpy")
    assert session.captions.picture(RIGHT) is None
    assert "Choose another engine" in session.captions.placeholder(RIGHT)


def test_a_failed_engine_says_why_in_its_pane(session):
    finish(session, {"numpy": numpy_run()}, errors={"jax": "JAX-jit ran out of memory"})
    assert session.captions.picture(RIGHT) is None
    assert (
        session.captions.placeholder(RIGHT) == "JAX-jit could not run:\nJAX-jit ran out of memory"
    )
    assert session.captions.caption(RIGHT).text() == "JAX-jit · unavailable"
    assert session.captions.summary() == "Done: NumPy 25.0 ms, JAX-jit unavailable"


def test_jax_failing_to_start_shows_in_its_panes_before_any_run(session):
    session.jax_failed("JAX could not be loaded")
    assert "JAX could not be loaded" in session.captions.placeholder(RIGHT)
    assert session.captions.placeholder(LEFT) == ""


def test_without_a_photo_the_panes_say_how_to_open_one():
    session = Session()
    assert "Ctrl+O" in session.captions.placeholder(LEFT)
    assert session.start_run() is None


def test_captions_go_through_the_translation_given():
    session = Session(lambda context, text: f"[{context}]{text}")
    session.set_photo(photo())
    caption = session.captions.caption(LEFT)
    assert caption.heading == "[Engines]NumPy"
    assert caption.details[-1].startswith("[Session]not run yet")


# --- Results bookkeeping --------------------------------------------------------------------


def test_a_new_photo_drops_every_result(session):
    finish(session, {"numpy": numpy_run()})
    heard = []
    session.subscribe(heard.append)
    session.set_photo(photo("other.png"))
    assert session.results == {} and session.outcome is None
    assert heard == ["photo"]


def test_listeners_hear_what_changed(session):
    heard = []
    session.subscribe(heard.append)
    session.set_parameters(BlurSpec(sigma=3.0))
    session.set_parameters(BlurSpec(sigma=3.0))  # no change, no news
    session.set_show("original")
    finish(session, {"numpy": numpy_run()})
    assert heard == ["parameters", "show", "running", "results", "results", "running", "outcome"]


def test_answers_after_a_cancel_are_ignored(session):
    plan = session.start_run()
    assert plan.engines == ("numpy", "jax")
    session.run_stopped()
    session.engine_done("numpy", numpy_run(), None)
    assert session.results == {}


def test_the_newest_request_wins():
    requests = Newest()
    first = requests.next()
    second = requests.next()
    assert not requests.wanted(first) and requests.wanted(second)
    assert not requests.done(first)
    assert requests.done(second) and not requests.wanted(second)
    third = requests.next()
    assert requests.drop() and not requests.wanted(third) and not requests.drop()


def test_saving_names_and_describes_each_result(session):
    finish(session, {"numpy": numpy_run()})
    session.set_parameters(BlurSpec(kernel_size=21))
    session.set_pane_engine(LEFT, "jax")
    session.set_timed("numpy", False)
    finish(session, {"jax": jax_run()})
    assert session.captions.result_file_name("numpy") == "street-numpy-9x9-s2.5.png"
    assert session.captions.result_file_name("jax") == "street-jax-21x21-s2.5.png"
    assert session.captions.result_description("jax")["device"] == "cpu"
    assert session.captions.result_description("numpy")["engine"] == "numpy"
    assert session.captions.mixed_parameters() == [
        "NumPy: 9 × 9, sigma 2.5",
        "JAX-jit: 21 × 21, sigma 2.5",
    ]


def test_progress_wording(session):
    assert session.captions.progress("numpy", 3, 81) == ("NumPy: 3 of 81 kernel taps", "NumPy %p%")
    assert session.captions.progress("jax", 0, 0) == ("JAX-jit: running…", "JAX-jit")


# --- Review fixes: one record of the run, the engines a pane shows ----------------------------


def test_a_run_superseded_by_a_new_photo_is_refused_and_says_so(session):
    plan = session.start_run()
    session.set_photo(photo("other.png"), original="the other photo")
    assert session.running is None
    assert session.engine_done("numpy", numpy_run(), None, picture="old") is False
    result = ComparisonResult(
        kernel=np.ones((plan.parameters.size,) * 2, np.float32),
        sigma=plan.parameters.sigma,
        runs={"numpy": numpy_run()},
    )
    assert session.run_done(result) is False
    assert session.outcome is None and session.results == {}
    # The run that goes on is accepted, and says so.
    session.start_run()
    assert session.engine_done("numpy", numpy_run(), None) is True
    assert session.run_done(result) is True
    assert session.outcome.photo.path.name == "other.png"


def test_each_finished_run_keeps_its_own_differences(session):
    first = finish(session, {"numpy": numpy_run()})
    session.start_run()
    session.run_done(first)  # no differences given
    session.outcome.differences["leak"] = (None, 1.0)  # whatever a caller does to one
    session.start_run()
    session.run_done(first)
    assert "leak" not in session.outcome.differences


def test_a_panes_engine_cannot_be_untimed(session):
    with pytest.raises(ValueError, match="pane"):
        session.set_timed("jax", False)  # the right pane shows JAX-jit
    assert session.timed == ("numpy", "jax")
    session.set_pane_engine(RIGHT, "numpy")
    session.set_timed("jax", False)
    assert session.timed == ("numpy",)
    assert session.untimeable() == ("numpy",)


def test_only_the_engines_the_window_offers_can_be_chosen(session):
    from blurapp.core.engines import UnknownEngineError

    for name in ["jax@cpu", "no-such-engine"]:
        with pytest.raises(UnknownEngineError):
            session.set_timed(name, True)
        with pytest.raises(UnknownEngineError):
            session.set_pane_engine(LEFT, name)
        with pytest.raises(UnknownEngineError):
            session.set_timed_engines(("numpy", name))
    assert session.timed == ("numpy", "jax") and session.pane_engines == ["numpy", "jax"]


def test_setting_the_same_timed_engines_again_is_no_news(session):
    heard = []
    session.subscribe(heard.append)
    session.set_timed_engines(("numpy", "jax"))
    session.set_timed_engines(("jax",))  # the panes' engines stay timed: still no change
    assert heard == []
    session.set_timed_engines(("jax-eager",))
    assert heard == ["engines"] and session.timed == ("numpy", "jax", "jax-eager")


def test_the_panes_say_which_file_is_opening_and_how_far_until_it_is_the_photo():
    from blurapp.app.jobs import READING

    session = Session()
    heard = []
    session.subscribe(heard.append)
    assert session.captions.placeholder(LEFT).startswith("Open a photo")
    session.opening_started("harbour.jpg")
    assert session.captions.placeholder(LEFT) == "Opening harbour.jpg…"
    session.opening_went(READING)
    assert session.captions.placeholder(RIGHT) == "Opening harbour.jpg…\nreading the file"
    assert heard == ["opening", "opening"]
    session.set_photo(photo("harbour.jpg"), original="the photo")
    assert session.opening is None and session.captions.placeholder(LEFT) != "Opening harbour.jpg…"
    session.opening_started("missing.png")
    session.opening_ended()  # it could not be read
    assert session.captions.placeholder(LEFT) == ""  # the photo open before is still shown
