"""The scaling sweep's window, alone and opened from the main window."""

import csv
import threading

import pytest
from helpers.photos import photo_file
from helpers.window import RUN_TIMEOUT_MS, jax_settled
from PIL import Image


@pytest.fixture
def sweep_window(qtbot, tmp_path):
    from blurapp.core.media.photo import load_photo
    from blurapp.core.spec import BlurSpec
    from blurapp.ui.sweep_window import SweepWindow

    photo = load_photo(photo_file(tmp_path, size=(60, 40)))
    window = SweepWindow.of(photo, BlurSpec(kernel_size=3, sigma=1.0), ("numpy", "jax"), repeats=1)
    qtbot.addWidget(window)
    window.max_spin.setValue(0.1)  # the photo's own 0.0024 MP, then 0.1 MP
    window.show()
    yield window
    window.close()


def test_the_sweep_window_draws_every_engine_at_every_size(sweep_window, qtbot):
    with qtbot.waitSignal(sweep_window.sweep_finished, timeout=RUN_TIMEOUT_MS) as finished:
        qtbot.mouseClick(sweep_window.run_button, qtbot_left())
    points = finished.args[0]
    assert [(p.width, p.height) for p in points] == [(60, 40), (387, 258)]
    series = sweep_window.chart.series()
    assert set(series) == {"numpy", "jax"}
    for name, drawn in series.items():
        assert [mp for mp, _ in drawn] == [p.megapixels for p in points]
        assert [ms for _, ms in drawn] == [p.seconds[name] * 1000 for p in points]
    assert [r for _, r in sweep_window.chart.speedup_series()["jax"]] == [
        p.speedups["jax"] for p in points
    ]
    assert sweep_window.run_button.text() == "&Run" and sweep_window.save_csv_button.isEnabled()


def qtbot_left():
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton


def test_the_sweep_window_saves_its_csv_and_picture(sweep_window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    with qtbot.waitSignal(sweep_window.sweep_finished, timeout=RUN_TIMEOUT_MS):
        sweep_window.run()
    chosen = iter([str(tmp_path / "chart"), str(tmp_path / "figures.csv")])  # no .png: added
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (next(chosen), ""))
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *args: asked.append(args))
    sweep_window.save_picture()
    sweep_window.save_csv()
    with Image.open(tmp_path / "chart.png") as picture:
        assert picture.size == (sweep_window.chart.width(), sweep_window.chart.height())
        # Drawn, not blank: the engines' colours are in it.
        colours = {colour for _, colour in picture.convert("RGB").getcolors(1 << 20)}
    assert (0x4C, 0x72, 0xB0) in colours  # NumPy's blue, as in the timing chart
    with open(tmp_path / "figures.csv", newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert [row["width"] for row in rows] == ["60", "387"]
    # JAX-jit's first call at each size is saved with the rest.
    assert all(float(row["jax_first_call_seconds"]) > 0 and row["jax_compilation"] for row in rows)
    assert "figures.csv" in sweep_window.status_label.text()
    assert asked == []  # no file of either name was there to replace


def test_stop_keeps_the_sizes_done_and_closing_ends_the_thread(sweep_window, qtbot):
    sweep_window.max_spin.setValue(24.0)  # far more than the test waits for
    with qtbot.waitSignal(sweep_window.point_shown, timeout=RUN_TIMEOUT_MS):
        sweep_window.run()
    with qtbot.waitSignal(sweep_window.sweep_stopped, timeout=RUN_TIMEOUT_MS):
        qtbot.mouseClick(sweep_window.run_button, qtbot_left())  # reads "Stop" while running
    assert not sweep_window.is_running() and sweep_window.run_button.text() == "&Run"
    assert len(sweep_window.points) >= 1 and "Stopped after" in sweep_window.status_label.text()
    job = sweep_window.state.job
    sweep_window.close()
    assert not sweep_window.runner.busy()
    qtbot.waitUntil(lambda: not job.is_running(), timeout=RUN_TIMEOUT_MS)


def test_run_menu_opens_the_sweep_on_the_windows_photo_and_engines(window, qtbot):
    from blurapp.ui.sweep_window import SweepWindow

    assert window.actions.sweep.isEnabled()
    window.actions.sweep.trigger()
    [sweep] = [child for child in window.findChildren(SweepWindow) if child.isVisible()]
    assert sweep.photo is window.session.photo
    assert sweep.engines == window.session.timed
    assert sweep.parameters == window.session.parameters
    window.actions.sweep.trigger()  # the same window again, not a second one
    assert [c for c in window.findChildren(SweepWindow) if c.isVisible()] == [sweep]
    window.close()  # takes the sweep window with it
    assert not sweep.isVisible()


def test_the_sweep_needs_a_photo(make_window):
    window = make_window(wait=False)
    assert window.session.photo is None and not window.actions.sweep.isEnabled()


def test_saving_asks_before_replacing_a_file_the_dialog_did_not_ask_about(
    sweep_window, qtbot, tmp_path, monkeypatch
):
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    with qtbot.waitSignal(sweep_window.sweep_finished, timeout=RUN_TIMEOUT_MS):
        sweep_window.run()
    existing = tmp_path / "chart.png"
    existing.write_bytes(b"the user's own chart")
    # The dialog checked "chart", which is not there; the file written would be chart.png.
    chosen = str(tmp_path / "chart")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (chosen, ""))
    asked, answer = [], QMessageBox.StandardButton.No

    def question(parent, title, text, *args):
        asked.append((title, text))
        return answer

    monkeypatch.setattr(QMessageBox, "question", question)
    sweep_window.save_picture()
    assert asked == [("Replace File?", "chart.png already exists. Do you want to replace it?")]
    assert existing.read_bytes() == b"the user's own chart"  # declined: left alone
    answer = QMessageBox.StandardButton.Yes
    sweep_window.save_picture()
    assert len(asked) == 2 and existing.read_bytes().startswith(b"\x89PNG")
    # Named with its extension, the dialog itself asked about it: not asked again.
    chosen = str(existing)
    sweep_window.save_picture()
    assert len(asked) == 2


def blocking_compare(monkeypatch):
    """Make each comparison of a sweep one uninterruptible call, as a JAX call on a large photo
    is, until the returned event is set; the other event is set once the call is entered."""
    from blurapp.core.measuring import sweep

    entered, release = threading.Event(), threading.Event()
    real = sweep.compare_engines

    def held_compare(*args, **kwargs):
        entered.set()
        release.wait(60)  # no cancelled() check in here
        return real(*args, **kwargs)

    monkeypatch.setattr(sweep, "compare_engines", held_compare)
    return entered, release


def test_closing_during_a_long_uninterruptible_call_returns_at_once(
    sweep_window, qtbot, monkeypatch
):
    entered, release = blocking_compare(monkeypatch)
    sweep_window.run()
    assert entered.wait(30)
    job = sweep_window.state.job
    sweep_window.close()
    assert not sweep_window.isVisible() and not sweep_window.runner.busy()
    # Still inside its call, which only release ends: close returned without waiting for it.
    assert job.is_running()
    release.set()
    qtbot.waitUntil(lambda: not job.is_running(), timeout=RUN_TIMEOUT_MS)


def test_closing_the_main_window_during_a_sweep_returns_at_once(window, qtbot, monkeypatch):
    from PySide6.QtWidgets import QApplication

    jax_settled(qtbot, window)
    window.actions.sweep.trigger()
    sweep = open_sweep(window)
    entered, release = blocking_compare(monkeypatch)
    sweep.run()
    assert entered.wait(30)
    job = sweep.state.job
    # On the window's one runner: the window says it closed with a job still busy, as for a
    # run, and the program then ends without waiting for the call.
    with qtbot.waitSignal(window.closed_while_busy, timeout=RUN_TIMEOUT_MS):
        window.close()  # takes the sweep window with it
    assert not window.isVisible() and not sweep.isVisible()
    assert job.is_running()  # inside its call, which only release ends: close did not wait
    release.set()
    qtbot.waitUntil(lambda: not job.is_running(), timeout=RUN_TIMEOUT_MS)
    QApplication.instance().setQuitOnLastWindowClosed(True)


def open_sweep(window):
    from blurapp.ui.sweep_window import SweepWindow

    [sweep] = [child for child in window.findChildren(SweepWindow) if not child.is_closed()]
    sweep.max_spin.setValue(0.1)  # one small size
    return sweep


@pytest.mark.slow
def test_the_sweep_is_modal_and_starting_it_cancels_the_windows_run(window, qtbot):
    from PySide6.QtCore import Qt

    jax_settled(qtbot, window)
    window.set_parameters(kernel_size=51)  # a run still going when the sweep starts
    window.controller.run()
    assert window.controller.is_running()
    window.actions.sweep.trigger()
    sweep = open_sweep(window)
    assert sweep.windowModality() == Qt.WindowModality.WindowModal
    with qtbot.waitSignal(window.display.run_cancelled, timeout=1000):
        sweep.run()
    assert not window.controller.is_running()
    with qtbot.waitSignal(sweep.sweep_finished, timeout=RUN_TIMEOUT_MS):
        pass
    sweep.close()


def test_starting_the_sweep_drops_a_live_preview_in_flight(make_window, qtbot):
    window = make_window(live=True)
    jax_settled(qtbot, window)
    window.actions.sweep.trigger()
    sweep = open_sweep(window)
    window.set_parameters(sigma=4.0)  # a live preview re-blurs the panes
    running = window.session.running
    assert running is not None and running.live
    cancelled = []
    window.display.run_cancelled.connect(lambda: cancelled.append(True))
    sweep.run()
    assert window.session.running is None
    assert cancelled == []  # nothing the user cancelled: no "Cancelled" for a preview
    with qtbot.waitSignal(sweep.sweep_finished, timeout=RUN_TIMEOUT_MS):
        pass
    sweep.close()


def test_a_failed_sweep_is_told_as_the_main_window_tells_it(
    window, qtbot, monkeypatch, warnings_shown
):
    from blurapp.core.measuring import sweep as sweep_module

    def fail(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(sweep_module, "compare_engines", fail)
    window.messages.boxes = False  # as in a screenshot: no message box, only message_shown
    told = []
    window.message_shown.connect(lambda title, text: told.append((title, text)))
    window.actions.sweep.trigger()
    sweep = open_sweep(window)
    with qtbot.waitSignal(sweep.sweep_failed, timeout=RUN_TIMEOUT_MS):
        sweep.run()
    assert told == [("Sweep Failed", "The sweep stopped: RuntimeError: boom")]
    assert warnings_shown == []
    sweep.close()


@pytest.mark.slow
def test_a_hidden_sweep_window_is_reused_and_one_closed_with_esc_deleted(window, qtbot):
    import shiboken6
    from PySide6.QtCore import Qt

    from blurapp.ui.sweep_window import SweepWindow

    window.actions.sweep.trigger()
    first = open_sweep(window)
    first.hide()
    window.actions.sweep.trigger()
    assert window.findChildren(SweepWindow) == [first] and first.isVisible()
    with qtbot.waitSignal(first.sweep_finished, timeout=RUN_TIMEOUT_MS):
        first.run()
    job = first.state.job
    qtbot.keyClick(first, Qt.Key.Key_Escape)
    assert not job.is_running()
    qtbot.waitUntil(lambda: not shiboken6.isValid(first), timeout=RUN_TIMEOUT_MS)
    window.actions.sweep.trigger()
    [second] = window.findChildren(SweepWindow)
    assert second.isVisible()
    second.close()


@pytest.mark.slow
def test_the_sweep_shows_the_first_call_the_live_preview_paid_for_this_photo(
    make_window, qtbot, tmp_path
):
    from blurapp.core.report.figures import format_ms

    window = make_window(live=True, wait=False)
    # A size of its own: no other test has compiled JAX-jit's program for it.
    seen = []
    window.display.live_shown.connect(seen.append)
    window.open_file(photo_file(tmp_path, size=(83, 59)))
    qtbot.waitUntil(lambda: {"numpy", "jax"} <= set(seen), timeout=RUN_TIMEOUT_MS)
    preview = window.session.results["jax"].run
    assert preview.compiled
    window.actions.sweep.trigger()
    sweep = open_sweep(window)
    with qtbot.waitSignal(sweep.sweep_finished, timeout=RUN_TIMEOUT_MS):
        sweep.run()
    words = sweep.first_call_label.text()
    assert sweep.first_call_label.isVisibleTo(sweep)
    paid = f"this photo: {format_ms(preview.first_call_seconds)}, compiled during the live preview"
    assert words.startswith("JAX-jit first call: ") and paid in words, words
    # The resampled size's program was the sweep's own to compile.
    assert "0.10 MP: " in words and "(includes compilation)" in words, words
    sweep.close()


@pytest.mark.slow
def test_the_live_caption_counts_the_programs_the_sweep_compiled(make_window, qtbot, tmp_path):
    window = make_window(live=True, wait=False)
    # A size of its own: the sweep's 0.1 MP program is new to this process.
    seen = []
    window.display.live_shown.connect(seen.append)
    window.open_file(photo_file(tmp_path, size=(79, 61)))
    qtbot.waitUntil(lambda: {"numpy", "jax"} <= set(seen), timeout=RUN_TIMEOUT_MS)
    count = window.session.recompiles.count("jax")
    assert f"programs this session: {count}; " in window.widgets.right_pane.caption_text()
    window.actions.sweep.trigger()
    sweep = open_sweep(window)
    with qtbot.waitSignal(sweep.sweep_finished, timeout=RUN_TIMEOUT_MS) as finished:
        sweep.run()
    resampled = [point for point in finished.args[0] if point.resampled]
    assert len(resampled) == 1
    caption = window.widgets.right_pane.caption_text()
    assert f"programs this session: {count + 1}; last: " in caption, caption
    assert f" → {resampled[0].width} × {resampled[0].height}, in the scaling sweep, " in caption
    sweep.close()


def crossing_points():
    """A made-up sweep: NumPy 10 ms a megapixel, JAX-jit 20 ms × √megapixels (equal at 4 MP on
    the chart's log–log axes), JAX-jit's copies adding 2.5 ms a megapixel end to end (equal at
    near 7 MP)."""
    from blurapp.core.measuring.sweep import SweepPoint

    points = []
    for mp in (0.5, 1.0, 2.0, 8.0, 16.0):
        seconds = {"numpy": 0.010 * mp, "jax": 0.020 * mp**0.5}
        points.append(
            SweepPoint(
                width=round(mp * 1000),
                height=1000,
                engines=("numpy", "jax"),
                seconds=seconds,
                errors={},
                speedups={"jax": seconds["numpy"] / seconds["jax"]},
                end_to_end_seconds={"numpy": seconds["numpy"], "jax": seconds["jax"] + 0.0025 * mp},
            )
        )
    return points


def test_the_sweep_says_and_draws_from_which_size_jax_jit_wins(sweep_window, qtbot, monkeypatch):
    import blurapp.app.jobs as jobs

    made_up = crossing_points()
    monkeypatch.setattr(jobs, "sweep_points", lambda *args, **kwargs: iter(made_up))
    with qtbot.waitSignal(sweep_window.sweep_finished, timeout=RUN_TIMEOUT_MS):
        sweep_window.run()
    status = sweep_window.status_label.text()
    assert status.startswith("Done: 5 sizes · JAX-jit faster than NumPy: steady from 4.00 MP, ")
    end_to_end = float(status.split(", end to end from ")[1].removesuffix(" MP"))
    assert 2.0 < end_to_end < 8.0 and end_to_end != pytest.approx(4.0, abs=0.5)
    marks = sweep_window.chart.break_even_marks()
    assert [label for _, label in marks] == [
        "JAX-jit break-even (steady)",
        "JAX-jit break-even (end to end)",
    ]
    assert marks[0][0] == pytest.approx(4.0) and marks[1][0] == pytest.approx(end_to_end, abs=0.01)
    sweep_window.chart.grab()  # drawn: a label for each line, inside the chart
    rects = sweep_window.chart.break_even_label_rects
    assert len(rects) == 2 and all(sweep_window.chart.rect().contains(r.toRect()) for r in rects)


def test_the_sweep_says_when_jax_jit_wins_at_every_size_and_draws_no_line(
    sweep_window, qtbot, monkeypatch
):
    import blurapp.app.jobs as jobs

    made_up = crossing_points()[3:]  # 8 and 16 MP: JAX-jit ahead at both, steady
    monkeypatch.setattr(jobs, "sweep_points", lambda *args, **kwargs: iter(made_up))
    with qtbot.waitSignal(sweep_window.sweep_finished, timeout=RUN_TIMEOUT_MS):
        sweep_window.run()
    assert sweep_window.status_label.text() == (
        "Done: 2 sizes · JAX-jit faster than NumPy: steady from the smallest size measured, "
        "end to end from the smallest size measured"
    )
    assert sweep_window.chart.break_even_marks() == []
