"""The real window, driven as a user drives it (pytest-qt, offscreen)."""

import itertools
import re
import subprocess
import sys

import numpy as np
import pytest
from helpers.oracle import blur_oracle
from helpers.photos import photo_file
from helpers.window import RUN_TIMEOUT_MS, jobs_done, run
from PIL import Image
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QWheelEvent
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from blurapp.core import TOLERANCE, gaussian_kernel, load_grayscale, sample_photo_path, to_8bit
from blurapp.core.engines.runs import Compilation
from blurapp.ui.background_runner import running_jobs
from blurapp.ui.main_window import MainWindow


def slow_setup(window):
    """Parameters that keep the NumPy engine busy for seconds on a 2-core machine."""
    window.set_parameters(kernel_size=61, sigma=10.0)


def start_and_wait_for_numpy(qtbot, window):
    """Start a run and return once the NumPy engine has done its first taps."""
    with qtbot.waitSignal(
        window.display.progress_shown, timeout=RUN_TIMEOUT_MS, check_params_cb=numpy_busy
    ):
        window.controller.run()


def numpy_busy(engine, done, total):
    return engine == "numpy" and done > 0


def big_photo(tmp_path):
    return photo_file(tmp_path, "big.png", size=(1500, 1000))


# --- Opening ------------------------------------------------------------------------------


def test_the_bundled_sample_opens_when_no_image_is_given(make_window):
    window = make_window()
    assert window.windowTitle() == "coffee.png — BlurApp"
    assert window.photo.path == sample_photo_path()
    for pane in window.widgets.panes:
        assert (pane.view.picture_size().width(), pane.view.picture_size().height()) == (600, 400)
        assert pane.placeholder_text() == ""
        assert pane.caption_text().endswith("not run yet: showing the original, press Run")


def test_an_image_given_on_the_command_line_opens(make_window, tmp_path):
    path = photo_file(tmp_path, "holiday.png", size=(70, 50))
    window = make_window(path)
    assert window.windowTitle() == "holiday.png — BlurApp"
    assert window.widgets.left_pane.view.picture_size().width() == 70
    np.testing.assert_array_equal(window.photo.gray, load_grayscale(path))


def test_open_through_the_file_dialog(make_window, tmp_path, monkeypatch, qtbot):
    window = make_window()
    path = photo_file(tmp_path, "chosen.png", size=(40, 30))
    asked = []

    def choose(parent, caption, folder, filters):
        asked.append(filters)
        return str(path), filters.split(";;")[0]

    monkeypatch.setattr(QFileDialog, "getOpenFileName", choose)
    with qtbot.waitSignal(window.display.photo_shown, timeout=RUN_TIMEOUT_MS):
        window.actions.open.trigger()
    assert window.windowTitle() == "chosen.png — BlurApp"
    assert "*.png" in asked[0] and "*.jpg" in asked[0] and "*.tif" in asked[0]
    assert window.widgets.left_pane.view.picture_size().height() == 30


def test_open_by_dropping_a_file(make_window, tmp_path, qtbot):
    window = make_window()
    path = photo_file(tmp_path, "dropped.png", size=(33, 22))
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(
        QPointF(50, 50),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    with qtbot.waitSignal(window.display.photo_shown, timeout=RUN_TIMEOUT_MS):
        window.dropEvent(event)
    assert event.isAccepted()
    assert window.windowTitle() == "dropped.png — BlurApp"


def test_open_recent_reopens_a_photo(make_window, tmp_path, qtbot):
    first = photo_file(tmp_path, "first.png")
    window = make_window(first)
    make_window_second = photo_file(tmp_path, "second.png")
    with qtbot.waitSignal(window.display.photo_shown, timeout=RUN_TIMEOUT_MS):
        window.open_file(make_window_second)
    entries = [a for a in window.actions.recent_menu.actions() if a.toolTip()]
    assert [a.toolTip() for a in entries][:2] == [str(make_window_second), str(first)]
    with qtbot.waitSignal(window.display.photo_shown, timeout=RUN_TIMEOUT_MS):
        entries[1].trigger()
    assert window.windowTitle() == "first.png — BlurApp"


def test_a_bad_file_shows_a_message_and_keeps_the_photo(
    make_window, tmp_path, qtbot, warnings_shown
):
    window = make_window()
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0 this is not really a JPEG")
    with qtbot.waitSignal(window.message_shown, timeout=RUN_TIMEOUT_MS):
        window.open_file(bad)
    [(title, text)] = warnings_shown
    assert title == "Cannot Open Photo"
    assert str(bad) in text
    assert window.windowTitle() == "coffee.png — BlurApp"
    assert window.widgets.left_pane.view.picture_size().width() == 600


# --- Running ------------------------------------------------------------------------------


def test_run_shows_both_results_with_their_figures(make_window, qtbot):
    window = make_window()
    result = run(qtbot, window)
    assert result.max_abs_diff <= TOLERANCE
    for pane in window.widgets.panes:
        size = pane.view.picture_size()
        assert (size.width(), size.height()) == (600, 400)
        assert pane.placeholder_text() == ""
    numpy_caption = window.widgets.left_pane.caption_text()
    jax_caption = window.widgets.right_pane.caption_text()
    assert numpy_caption.startswith("NumPy · cpu · ") and " ms · 9 × 9, σ 2.5" in numpy_caption
    assert jax_caption.startswith(f"JAX-jit · {result.jit_run.device} · steady ")
    # Whether it compiled depends on what ran before in this test process; the caption and the
    # figures must say which it was.
    how = {
        "compiled": "(compiled)",
        "from cache": "(from cache)",
        "already compiled": "(already compiled)",
    }
    assert "first call" in jax_caption and how[str(result.jit_run.compilation)] in jax_caption
    figures = window.widgets.figures
    notes = {
        "compiled": "(includes compilation)",
        "from cache": "(program loaded from the compilation cache)",
        "already compiled": "(already compiled)",
    }
    assert figures.value("jit.first_call").endswith(notes[str(result.jit_run.compilation)])
    # Every engine timed the same way: the median of several calls, with their spread.
    for row in ("numpy.steady", "jit.steady"):
        assert re.fullmatch(
            r"[\d.,]+ ms \(median of \d+( samples of \d+ calls)?, middle half [\d.,]+–[\d.,]+ ms\)",
            figures.value(row),
        ), row
    assert figures.value("speedup_end_to_end").endswith(
        f"copies to and from the device ({result.jit_run.device}) included)"
    )
    # With how far it moved round by round, once there were rounds enough to say.
    assert re.search(
        r"\(NumPy ÷ JAX steady(; median of \d+ rounds, middle half [\d.,]+–[\d.,]+×)?\)$",
        figures.value("speedup"),
    )
    assert figures.value("jit.transfers").startswith("to device ")
    assert "within 1e-05" in figures.value("max_abs_diff") and "of 255 levels" in figures.value(
        "max_abs_diff"
    )
    assert figures.value("jit.device") == result.jit_run.device
    assert figures.value("kernel") == "9 × 9, sigma 2.5"
    assert "600 × 400" in figures.value("image")
    # A program another test of this process compiled was paid for outside this window: said so.
    reused = result.jit_run.compilation is Compilation.REUSED
    first = "JAX first call (compiled before)" if reused else "JAX first call"
    assert [name for name, _ in figures.chart.bars()] == ["NumPy", first, "JAX steady"]
    # The pictures are the engines' outputs.
    expected = to_8bit(result.reference_run.output)
    shown = window.widgets.left_pane.view.image()
    assert shown.pixelColor(123, 45).red() == expected[45, 123]
    assert (
        not window.widgets.progress_bar.isVisible() and not window.widgets.cancel_button.isEnabled()
    )


@pytest.mark.slow
def test_a_new_sigma_reuses_the_compiled_program_and_a_new_size_compiles(
    make_window, qtbot, tmp_path
):
    # A shape no other test uses, so the first run must compile.
    window = make_window(photo_file(tmp_path, size=(131, 79)))
    first = run(qtbot, window)
    window.set_parameters(sigma=4.0)
    again = run(qtbot, window)
    assert first.jit_run.compiled and not again.jit_run.compiled
    assert "already compiled" in window.widgets.right_pane.caption_text()
    assert "already compiled" in window.widgets.figures.value("jit.first_call")
    window.set_parameters(kernel_size=13)
    resized = run(qtbot, window)
    assert resized.jit_run.compiled and resized.kernel_size == 13
    assert "(compiled)" in window.widgets.right_pane.caption_text()


def test_a_new_window_says_which_kernel_a_run_uses(make_window):
    # The parameters a new window starts with are no change of them: the "Kernel used" row
    # says the kernel all the same, where it was left empty until one.
    window = make_window(wait=False)
    size = window.session.parameters.size
    assert window.widgets.effective_size_label.text().startswith(f"{size} × {size}")


@pytest.mark.slow
def test_auto_size_follows_sigma(make_window, qtbot):
    window = make_window()
    window.set_parameters(kernel_size="auto", sigma=2.0)
    assert window.widgets.effective_size_label.text().startswith("13 × 13")
    assert not window.widgets.size_spin.isEnabled()
    result = run(qtbot, window)
    assert result.kernel_size == 13


def test_kernel_size_steps_by_two_and_stays_odd(make_window):
    window = make_window()
    window.widgets.size_spin.setValue(9)
    window.widgets.size_spin.stepUp()
    assert window.widgets.size_spin.value() == 11
    assert window.widgets.size_spin.fixup("12") == "13"


def test_changing_a_parameter_marks_results_out_of_date(make_window, qtbot):
    window = make_window()
    run(qtbot, window)
    assert "out of date" not in window.widgets.left_pane.caption_text()
    window.widgets.sigma_slider.setValue(35)
    assert window.session.parameters.sigma == pytest.approx(3.5)
    assert "out of date" in window.widgets.left_pane.caption_text()
    assert "out of date" in window.widgets.right_pane.caption_text()
    assert window.widgets.figures.stale_label.text().startswith("Out of date")


@pytest.mark.slow
def test_numpy_only_keeps_the_jax_result_marked_out_of_date(make_window, qtbot):
    window = make_window()
    first = run(qtbot, window)
    window.controller.set_pane_engine(1, "numpy")  # a pane's engine is always timed
    window.controller.set_timed("jax", False)  # NumPy only, same parameters
    result = run(qtbot, window)
    assert result.jit_run is None and result.reference_run is not None
    window.controller.set_pane_engine(1, "jax")  # ticked again, so the next Run refreshes it
    assert window.widgets.engine_checks["jax"].isChecked()
    assert "out of date" not in window.widgets.left_pane.caption_text()
    assert "out of date" in window.widgets.right_pane.caption_text()
    assert window.widgets.right_pane.view.has_picture()
    # The kept pane's figure stays visible, marked as coming from the earlier run.
    assert window.widgets.figures.value("jit.steady").endswith("(earlier run, out of date)")
    assert " ms (median of " in window.widgets.figures.value("numpy.steady")
    # The newest run had one engine: there is no difference to show, and the window says so.
    window.controller.set_show("difference")
    assert (
        window.widgets.right_pane.placeholder_text()
        == "The difference appears after a run with NumPy and JAX-jit"
    )
    assert not window.widgets.right_pane.view.has_picture()
    assert first.max_abs_diff is not None


def test_a_jax_failure_is_shown_in_its_pane_and_numpy_still_works(make_window, qtbot, monkeypatch):
    from dataclasses import replace

    from blurapp.core import engines, get_engine

    def broken(*args, **kwargs):
        raise RuntimeError("RESOURCE_EXHAUSTED: out of memory while trying to allocate")

    monkeypatch.setitem(engines._registry, "jax", replace(get_engine("jax"), first_call=broken))
    window = make_window()
    result = run(qtbot, window)
    assert result.reference_run is not None and result.jit_run is None
    assert window.widgets.left_pane.view.has_picture()
    assert "could not run" in window.widgets.right_pane.placeholder_text()
    assert "out of memory" in window.widgets.right_pane.placeholder_text()
    assert "unavailable" in window.widgets.right_pane.caption_text()
    assert "out of memory" in window.widgets.figures.value("jit.error")


def test_cancel_during_a_run(make_window, qtbot, tmp_path):
    window = make_window(big_photo(tmp_path))
    slow_setup(window)
    shown = []
    window.display.results_shown.connect(shown.append)
    start_and_wait_for_numpy(qtbot, window)
    assert window.widgets.progress_bar.isVisible() and window.widgets.cancel_button.isEnabled()
    with qtbot.waitSignal(window.display.run_stopped, timeout=RUN_TIMEOUT_MS):
        qtbot.mouseClick(window.widgets.cancel_button, Qt.MouseButton.LeftButton)
    assert not window.controller.is_running()
    assert window.widgets.status_label.text() == "Cancelled"
    assert not window.widgets.progress_bar.isVisible()
    jobs_done(qtbot, window)
    assert shown == []
    assert "not run yet" in window.widgets.left_pane.caption_text()


def test_close_during_a_run_stops_the_run_before_it_returns(make_window, qtbot, tmp_path):
    window = make_window(big_photo(tmp_path))
    slow_setup(window)
    start_and_wait_for_numpy(qtbot, window)
    assert running_jobs() != []  # the run is under way…
    window.close()
    assert running_jobs() == []  # …and over when close returns: nothing left to end later
    assert not window.isVisible()


@pytest.mark.slow
def test_a_second_run_during_the_first_shows_only_the_second(make_window, qtbot, tmp_path):
    window = make_window(big_photo(tmp_path))
    slow_setup(window)
    shown = []
    window.display.results_shown.connect(shown.append)
    start_and_wait_for_numpy(qtbot, window)
    window.set_parameters(kernel_size=3, sigma=0.8)
    with qtbot.waitSignal(window.display.results_shown, timeout=RUN_TIMEOUT_MS):
        window.controller.run()
    jobs_done(qtbot, window)
    assert [(r.kernel_size, r.sigma) for r in shown] == [(3, 0.8)]
    assert "3 × 3, σ 0.8" in window.widgets.left_pane.caption_text()


# --- Looking at the results ---------------------------------------------------------------


@pytest.mark.slow
def test_both_panes_zoom_and_pan_together(make_window, qtbot):
    window = make_window()
    run(qtbot, window)
    left, right = window.widgets.left_pane.view, window.widgets.right_pane.view
    wheel = QWheelEvent(
        QPointF(100, 100),
        left.viewport().mapToGlobal(QPointF(100, 100)),
        QPoint(0, 0),
        QPoint(0, 240),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    before = left.zoom()
    QApplication.sendEvent(left.viewport(), wheel)
    assert left.zoom() == pytest.approx(before * 1.25**2)
    assert right.zoom() == pytest.approx(left.zoom())
    left.horizontalScrollBar().setValue(left.horizontalScrollBar().value() + 40)
    assert (right.center() - left.center()).manhattanLength() < 2
    QApplication.sendEvent(window, QApplication.focusWidget() and wheel)  # harmless
    window.widgets.view_link.set_zoom(1.0)
    assert left.zoom() == right.zoom() == 1.0
    window.widgets.view_link.fit_to_window()
    assert left.is_fitted() and right.zoom() == pytest.approx(left.zoom())


def test_zoom_shortcuts(make_window, qtbot):
    window = make_window()
    view = window.widgets.right_pane.view
    view.setFocus()
    zoom = view.zoom()
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom() == 1.0 and window.widgets.left_pane.view.zoom() == 1.0
    qtbot.keyClick(window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom() == pytest.approx(zoom)


def test_the_difference_and_original_views(make_window, qtbot):
    window = make_window()
    result = run(qtbot, window)
    window.controller.set_show("difference")
    caption = window.widgets.right_pane.caption_text()
    assert caption.startswith("Difference |NumPy − JAX-jit|")
    difference = np.abs(result.reference_run.output.astype(np.float64) - result.jit_run.output)
    if result.max_abs_diff > 0:
        assert f"white = {result.max_abs_diff:.2g}" in caption
        picture = window.widgets.right_pane.view.image()
        y, x = np.unravel_index(np.argmax(difference), difference.shape)
        assert picture.pixelColor(int(x), int(y)).red() == 255
    else:
        assert "identical" in caption
    assert window.widgets.left_pane.caption_text().startswith("NumPy")
    window.controller.set_show("original")
    assert window.widgets.left_pane.caption_text().startswith("Original")
    original = window.widgets.left_pane.view.image()
    # In colour, as the photo is, whatever the Colour switch (tests/ui/test_colour_window.py).
    assert original.pixelColor(10, 10).red() == to_8bit(window.photo.pixels)[10, 10, 0]
    window.controller.set_show("blurred")
    assert window.widgets.right_pane.caption_text().startswith("JAX-jit")


@pytest.mark.slow
def test_copy_puts_the_selected_pane_on_the_clipboard(make_window, qtbot):
    window = make_window()
    result = run(qtbot, window)
    qtbot.mouseClick(window.widgets.right_pane.view.viewport(), Qt.MouseButton.LeftButton)
    assert window.selected_pane == 1
    window.actions.copy.trigger()
    image = QApplication.clipboard().image()
    assert (image.width(), image.height()) == (600, 400)
    assert image.pixelColor(5, 5).red() == to_8bit(result.jit_run.output)[5, 5]


def test_save_results_writes_both_and_asks_before_overwriting(
    make_window, qtbot, tmp_path, monkeypatch
):
    window = make_window()
    result = run(qtbot, window)
    folder = tmp_path / "out"
    folder.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    questions = []
    answer = [QMessageBox.StandardButton.No]

    def question(parent, title, text, *args, **kwargs):
        questions.append(text)
        return answer[0]

    monkeypatch.setattr(QMessageBox, "question", question)
    window.actions.save.trigger()
    assert questions == []
    assert sorted(p.name for p in folder.iterdir()) == [
        "coffee-jax-9x9-s2.5.png",
        "coffee-numpy-9x9-s2.5.png",
    ]
    for engine, run_ in (("numpy", result.reference_run), ("jax", result.jit_run)):
        with Image.open(folder / f"coffee-{engine}-9x9-s2.5.png") as saved:
            np.testing.assert_array_equal(np.asarray(saved), to_8bit(run_.output))

    (folder / "coffee-numpy-9x9-s2.5.png").write_bytes(b"keep me")
    window.actions.save.trigger()
    assert len(questions) == 1 and "coffee-numpy-9x9-s2.5.png" in questions[0]
    assert (folder / "coffee-numpy-9x9-s2.5.png").read_bytes() == b"keep me"

    answer[0] = QMessageBox.StandardButton.Yes
    window.actions.save.trigger()
    with Image.open(folder / "coffee-numpy-9x9-s2.5.png") as saved:
        assert saved.size == (600, 400)
    assert sorted(p.name for p in folder.iterdir()) == [
        "coffee-jax-9x9-s2.5.png",
        "coffee-numpy-9x9-s2.5.png",
    ]


def test_settings_survive_a_new_window(make_window, qtbot, tmp_path, settings):
    path = photo_file(tmp_path, "remembered.png")
    window = make_window(path)
    window.set_parameters(kernel_size=15, sigma=3.3)
    window.set_parameters(algorithm="separable")
    window.resize(window.width(), 640)  # the window as wide as the tests' screen allows
    window.close()
    again = make_window(wait=False)
    assert again.session.parameters.kernel_size == 15
    assert again.session.parameters.sigma == pytest.approx(3.3)
    assert again.session.parameters.algorithm == "separable"
    assert again.recent.paths()[0] == str(path)
    assert settings.value("last_folder") == str(tmp_path)
    assert again.size() == window.size()


def test_blurred_pixels_match_the_oracle(make_window, qtbot):

    window = make_window()
    result = run(qtbot, window)
    expected = blur_oracle(window.photo.gray, gaussian_kernel(9, 2.5))
    np.testing.assert_allclose(result.jit_run.output, expected, atol=TOLERANCE, rtol=0)


@pytest.mark.slow
def test_screenshot_command_saves_a_picture_of_the_window(tmp_path):
    out = tmp_path / "shot.png"
    source = photo_file(tmp_path, "scene.png", size=(200, 120))
    run_ = subprocess.run(
        [sys.executable, "-m", "blurapp", "--screenshot", str(out), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run_.returncode == 0, run_.stderr
    assert "Traceback" not in run_.stderr
    assert run_.stdout == f"wrote {out}\n"  # where it went, as `blurapp blur` says
    with Image.open(out) as shot:
        assert shot.width >= 800 and shot.height >= 500


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1024, 640), (1920, 1080)], ids=["1024x640", "1920x1080"])
def test_a_screenshot_takes_the_size_asked_for(tmp_path, size):
    out = tmp_path / "shot.png"
    source = photo_file(tmp_path, "scene.png", size=(200, 120))
    folders = ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME")
    own = {name: str(tmp_path / name.lower()) for name in folders}
    width, height = size
    command = ["--screenshot", str(out), f"--size={width}x{height}", str(source)]
    run_ = subprocess.run(
        [sys.executable, "-m", "blurapp", *command],
        capture_output=True,
        text=True,
        timeout=300,
        env={**__import__("os").environ, **own},
    )
    assert run_.returncode == 0, run_.stderr
    with Image.open(out) as shot:
        assert shot.size == size


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--screenshot", "shot.png", "--size", "1024"], "expected WIDTHxHEIGHT"),
        (["--screenshot", "shot.png", "--size", "0x640"], "at least 1 pixel"),
        (["--size", "1024x640"], "give --screenshot OUT.png too"),
    ],
)
def test_a_size_the_screenshot_cannot_take_is_one_error_line(capsys, argv, says):
    from blurapp.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert says in capsys.readouterr().err


@pytest.mark.slow
def test_screenshot_of_a_bad_photo_fails_with_one_error_line(tmp_path):
    out = tmp_path / "shot.png"
    bad = tmp_path / "bad.png"
    bad.write_text("not a picture")
    run_ = subprocess.run(
        [sys.executable, "-m", "blurapp", "--screenshot", str(out), str(bad)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run_.returncode == 1
    errors = [line for line in run_.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and str(bad) in errors[0]
    assert run_.stderr.count(str(bad)) == 1, run_.stderr  # named once, not again by a log line
    assert not out.exists()


def test_the_window_without_a_screen_says_so_instead_of_crashing():
    import os

    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}
    }
    run_ = subprocess.run(
        [sys.executable, "-m", "blurapp"], capture_output=True, text=True, timeout=120, env=env
    )
    assert run_.returncode == 1
    assert run_.stderr.startswith("error: no screen") and "blurapp compare" in run_.stderr


@pytest.mark.slow
def test_the_separable_algorithm_from_the_window(make_window, qtbot):
    window = make_window()
    run(qtbot, window)
    window.set_parameters(algorithm="separable")
    assert "out of date" in window.widgets.left_pane.caption_text()
    result = run(qtbot, window)
    assert result.algorithm == "separable" and result.kernel.shape == (9,)
    assert result.max_abs_diff <= TOLERANCE
    assert "σ 2.5, separable" in window.widgets.left_pane.caption_text()
    assert window.widgets.figures.value("kernel") == "9 × 9, sigma 2.5, separable (9 + 9 taps)"


@pytest.mark.slow
def test_cancel_after_numpy_marks_the_older_figures_out_of_date(make_window, qtbot, tmp_path):
    window = make_window(photo_file(tmp_path, size=(300, 200)))
    window.set_parameters(kernel_size=3, sigma=0.8)
    run(qtbot, window)
    window.set_parameters(kernel_size=41, sigma=7.0)
    with qtbot.waitSignal(
        window.display.progress_shown,
        timeout=RUN_TIMEOUT_MS,
        check_params_cb=lambda e, d, t: e == "jax",
    ):
        window.controller.run()
    window.controller.cancel_by_user()
    # NumPy's new result is shown; everything from the older run says it is out of date.
    assert "41 × 41" in window.widgets.left_pane.caption_text()
    assert "out of date" not in window.widgets.left_pane.caption_text()
    assert (
        "3 × 3" in window.widgets.right_pane.caption_text()
        and "out of date" in window.widgets.right_pane.caption_text()
    )
    assert window.widgets.figures.stale_label.isVisibleTo(window)
    window.controller.set_show("difference")
    assert "out of date" in window.widgets.right_pane.caption_text()


def test_opening_a_photo_during_a_run_supersedes_the_run(make_window, qtbot, tmp_path):
    window = make_window(big_photo(tmp_path))
    slow_setup(window)
    shown = []
    window.display.results_shown.connect(shown.append)
    start_and_wait_for_numpy(qtbot, window)
    with qtbot.waitSignal(window.display.photo_shown, timeout=RUN_TIMEOUT_MS):
        window.open_file(sample_photo_path())
    assert not window.controller.is_running()
    jobs_done(qtbot, window)
    assert shown == []


@pytest.mark.slow
def test_close_during_a_long_jax_call_hides_the_window_and_the_call_ends_unseen(
    make_window, qtbot, tmp_path
):
    window = make_window(photo_file(tmp_path, size=(1200, 800)))
    window.set_parameters(kernel_size=101, sigma=16.0)
    window.controller.set_pane_engine(0, "jax")  # a pane's engine is always timed
    window.controller.set_timed("numpy", False)  # JAX only: a long compiled call
    with qtbot.waitSignal(
        window.display.progress_shown,
        timeout=RUN_TIMEOUT_MS,
        check_params_cb=lambda e, d, t: e == "jax",
    ):
        window.controller.run()
    window.close()  # JAX-jit's call under way
    assert not window.isVisible()
    # The worker ends when its call returns; nothing is shown, nothing aborts.
    qtbot.waitUntil(lambda: running_jobs() == [], timeout=RUN_TIMEOUT_MS)
    QApplication.instance().setQuitOnLastWindowClosed(True)


def test_a_saved_even_kernel_size_falls_back_to_the_default(qtbot, settings):
    settings.set_value("kernel_size", "8")
    settings.set_value("sigma", "not a number")
    window = MainWindow(settings)
    qtbot.addWidget(window)
    assert window.session.parameters.kernel_size == 9 and window.session.parameters.sigma == 2.5
    window.close()


def test_ctrl_plus_and_minus_zoom_both_panes(make_window, qtbot):
    window = make_window()
    window.widgets.view_link.set_zoom(1.0)
    qtbot.keyClick(window, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert window.widgets.left_pane.view.zoom() == pytest.approx(1.25)
    assert window.widgets.right_pane.view.zoom() == pytest.approx(1.25)
    qtbot.keyClick(window, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert window.widgets.right_pane.view.zoom() == pytest.approx(1.0)


def test_pyramid_levels_halve_with_rounded_means():
    from blurapp.app.pyramid import build_pyramid

    picture = np.arange(2000 * 1200, dtype=np.uint64).reshape(1200, 2000) % 256
    levels = build_pyramid(picture.astype(np.uint8))
    assert [level.shape for level in levels] == [(1200, 2000), (600, 1000), (300, 500)]
    block = picture[:2, :2].astype(float)
    assert levels[1][0, 0] == int(np.floor(block.mean() + 0.5))


@pytest.mark.slow
def test_a_zoomed_out_big_picture_is_drawn_from_a_smaller_level(make_window, qtbot, tmp_path):
    window = make_window(photo_file(tmp_path, "wide.png", size=(3000, 2000)))
    view = window.widgets.left_pane.view
    assert len(view._item.levels()) == 4  # 3000, 1500, 750, 375 wide
    window.widgets.view_link.fit_to_window()
    # The view shows the whole picture, at the same scale in both panes.
    assert view.zoom() < 0.5
    assert window.widgets.right_pane.view.zoom() == pytest.approx(view.zoom())
    grabbed = view.viewport().grab().toImage()
    assert not grabbed.isNull()


@pytest.mark.parametrize(
    "shape", [(1025, 1537), (1201, 2003, 3), (700, 3), (2, 1200), (999, 999, 4), (800, 1000, 2)]
)
def test_each_pyramid_level_is_the_rounded_mean_of_2x2_of_the_one_before(shape):
    """Grey and RGB (Pillow's reduce) and other channel counts alike; odd sizes drop their last
    row or column, as the level's size says."""
    from blurapp.app.pyramid import build_pyramid

    picture = np.random.default_rng(sum(shape)).integers(0, 256, shape, dtype=np.uint8)
    levels = build_pyramid(picture)
    assert len(levels) >= 2
    for larger, smaller in itertools.pairwise(levels):
        height, width = larger.shape[0] // 2 * 2, larger.shape[1] // 2 * 2
        blocks = larger[:height, :width].astype(np.uint32)
        sums = blocks.reshape(height // 2, 2, width // 2, 2, *larger.shape[2:]).sum(axis=(1, 3))
        np.testing.assert_array_equal(smaller, (sums + 2) // 4)
        assert smaller.dtype == np.uint8 and smaller.flags.c_contiguous
    assert max(levels[-1].shape[:2]) <= 512 or min(levels[-1].shape[:2]) < 2


def test_the_window_shows_the_figures_compare_prints_for_its_run(make_window, qtbot, tmp_path):
    """One figure, one number: the window's speed-ups and steady times are the rows `blurapp
    compare` prints (comparison_figures) for the comparison it ran, and its end-to-end speed-up
    is the one `compare --json` gives for it."""
    from blurapp.cli.compare import comparison_figures
    from blurapp.core.measuring.comparison import comparison_dict

    window = make_window(photo_file(tmp_path, size=(300, 200)))
    result = run(qtbot, window)
    photo = window.photo
    printed = {
        row.key: row
        for row in comparison_figures(result, "x", photo.width, photo.height, bit_depth=8)
    }
    panel = window.widgets.figures
    for key in ("speedup", "speedup_end_to_end", "numpy.steady", "jit.steady", "max_abs_diff"):
        row = printed[key]
        shown = [label.text() for label in panel.value_labels(key)]
        # One label, or the figure and how it was measured apart, that cut short with "…"
        # where the panel is narrow (its whole words in its tooltip).
        words = " ".join(shown).replace("\xa0", " ")
        assert words.startswith(row.figure.replace("\xa0", " ")), (key, shown, row.text)
        assert row.text.replace("\xa0", " ").startswith(words.removesuffix("…")), (key, shown)
    document = comparison_dict(result)
    assert (
        document["speedup_end_to_end"]
        == result.end_to_end_speedup
        == printed["speedup_end_to_end"].value
    )


def test_the_window_is_the_view_of_a_controller_made_before_it(qtbot, settings, tmp_path):
    from blurapp.ui.main_window import window_controller

    controller = window_controller()  # the root: its session and runner, no widget yet
    window = MainWindow(settings, controller=controller)
    qtbot.addWidget(window)
    assert window.controller is controller and controller.view is window.display
    assert window.session is controller.session and window.runner is controller.runner
    with qtbot.waitSignal(window.display.photo_shown, timeout=RUN_TIMEOUT_MS):
        window.open_file(photo_file(tmp_path, size=(40, 30)))
    result = run(qtbot, window, engines=["numpy"])
    assert set(result.runs) == {"numpy"}
    window.close()
