"""What File ▸ Save Results saves and asks first, decided without Qt (blurapp.app.results_to_save):
the window's dialogs only ask."""

from helpers.session import finish, numpy_run, photo

from blurapp.app.results_to_save import Answer, Question, results_to_save
from blurapp.app.session import Session
from blurapp.core.spec import BlurSpec


def session_with_two_results():
    session = Session()
    session.set_pane_engine(0, "numpy")
    session.set_pane_engine(1, "numpy-loop")
    session.set_timed_engines(("numpy",))
    session.set_parameters(BlurSpec(kernel_size=3, sigma=1.0))
    session.set_photo(photo(shape=(4, 6, 3)), original="the photo")
    finish(session, {"numpy": numpy_run(), "numpy-loop": numpy_run(0.5)})
    return session


def test_nothing_to_save_without_a_result():
    session = Session()
    assert results_to_save(session) is None
    session.set_photo(photo(), original="the photo")
    assert results_to_save(session) is None


def test_results_of_what_the_window_shows_are_saved_without_a_question():
    to_save = results_to_save(session_with_two_results())
    assert to_save.question is Question.NONE and to_save.out_of_date == {}
    assert set(to_save.chosen(Answer.SAVE)) == {"numpy", "numpy-loop"}
    assert to_save.chosen(Answer.CANCEL) is None


def test_results_made_before_colour_was_turned_on_are_out_of_date_and_save_keeps_to_the_current():
    session = session_with_two_results()
    session.set_parameters(BlurSpec(kernel_size=3, sigma=1.0, color=True))
    to_save = results_to_save(session)
    assert to_save.question is Question.OUT_OF_DATE
    assert set(to_save.out_of_date) == {"numpy", "numpy-loop"} and to_save.current == {}
    assert to_save.out_of_date_lines()[0].startswith(session.captions.title("numpy") + ": ")
    assert "colour turned on since this run" in to_save.out_of_date_lines()[0]
    assert to_save.chosen(Answer.SAVE) is None  # none is current: Save saves nothing
    assert set(to_save.chosen(Answer.SAVE_ALL)) == {"numpy", "numpy-loop"}

    finish(session, {"numpy": numpy_run()})  # NumPy again, in colour
    to_save = results_to_save(session)
    assert to_save.question is Question.OUT_OF_DATE and set(to_save.out_of_date) == {"numpy-loop"}
    assert to_save.current_titles() == [session.captions.title("numpy")]
    assert set(to_save.chosen(Answer.SAVE)) == {"numpy"}
    assert set(to_save.chosen(Answer.SAVE_ALL)) == {"numpy", "numpy-loop"}
    assert to_save.chosen(Answer.CANCEL) is None


def test_results_made_with_different_parameters_ask_which_made_each_and_save_saves_both():
    session = session_with_two_results()
    session.set_parameters(BlurSpec(kernel_size=5, sigma=2.5))
    finish(session, {"numpy": numpy_run()})
    to_save = results_to_save(session)
    assert to_save.question is Question.MIXED_PARAMETERS
    assert to_save.mixed_parameters == session.captions.mixed_parameters()
    assert len(to_save.mixed_parameters) == 2 and to_save.out_of_date == {}
    assert set(to_save.chosen(Answer.SAVE)) == {"numpy", "numpy-loop"}
    assert to_save.chosen(Answer.CANCEL) is None
