"""The scaling sweep: its sizes, its points and CSV, `blurapp bench --sweep`, and its window."""

import csv
import json
import threading
import time

import numpy as np
import pytest
from command_line import blurapp
from PIL import Image
from qt_helpers import RUN_TIMEOUT_MS, photo_file
from test_split_view import jax_settled

from blurapp.core.sweep import (
    SWEEP_MEGAPIXELS,
    SweepPoint,
    SweepSize,
    resample,
    run_sweep,
    sweep_csv_rows,
    sweep_sizes,
    write_sweep_csv,
)

# Two tiny sizes: each new shape costs JAX-jit a compilation.
TINY = (0.004, 0.008)


def tiny_image():
    return np.random.default_rng(3).random((40, 60), dtype=np.float32)


# --- Sizes and resampling --------------------------------------------------------------------


def test_sizes_run_from_a_tenth_of_a_megapixel_to_24_with_the_photo_at_its_own_size():
    sizes = sweep_sizes((400, 600))  # the bundled photo, 0.24 MP
    own = [size for size in sizes if not size.resampled]
    assert own == [SweepSize(400, 600, resampled=False)]
    # The ladder's 0.25 MP is too near the photo's 0.24 to add anything.
    assert [round(size.megapixels, 2) for size in sizes] == [
        0.1,
        0.24,
        0.5,
        1.0,
        2.0,
        4.0,
        8.0,
        16.0,
        24.0,
    ]
    for size in sizes:
        assert size.width / size.height == pytest.approx(1.5, rel=0.01)
    assert sizes == sorted(sizes, key=lambda size: size.megapixels)


def test_the_largest_size_is_the_one_asked_for():
    assert [round(s.megapixels, 2) for s in sweep_sizes((4000, 6000), max_megapixels=12)] == [
        *(mp for mp in SWEEP_MEGAPIXELS if mp <= 8),
        12.0,
    ]
    # Smaller than every size of the ladder, and than the photo: that one size alone.
    [only] = sweep_sizes((400, 600), max_megapixels=0.05)
    assert only.resampled and round(only.megapixels, 3) == 0.05


def test_a_photo_larger_than_the_largest_size_is_only_resampled():
    sizes = sweep_sizes((4000, 6000), max_megapixels=2)
    assert all(size.resampled for size in sizes)
    assert round(sizes[-1].megapixels, 2) == 2.0


@pytest.mark.parametrize("shape", [(123, 77), (20, 30), (400, 600)])
def test_resampling_keeps_float32_in_range(shape):
    image = np.zeros((40, 60), np.float32)
    image[::2] = 1.0  # stripes: a filter that rings would step outside [0, 1]
    resized = resample(image, *shape)
    assert resized.shape == shape and resized.dtype == np.float32
    assert resized.min() >= 0.0 and resized.max() <= 1.0
    assert 0.3 < resized.mean() < 0.7


def test_resampling_to_the_same_size_is_the_image_itself():
    image = tiny_image()
    assert resample(image, 40, 60) is image


# --- Running -------------------------------------------------------------------------------


def test_a_sweep_gives_a_point_per_size_as_each_finishes():
    image = tiny_image()
    sizes = sweep_sizes(image.shape, megapixels=TINY, max_megapixels=TINY[-1])
    assert len(sizes) == 3  # the photo's own 0.0024 MP, then the two
    seen = []
    points = run_sweep(
        image,
        sizes=sizes,
        kernel_size=3,
        sigma=1.0,
        engines=("numpy", "jax"),
        repeats=1,
        on_point=seen.append,
    )
    assert seen == points and len(points) == 3
    for size, point in zip(sizes, points, strict=True):
        assert (point.height, point.width) == (size.height, size.width)
        assert point.megapixels == pytest.approx(point.width * point.height / 1e6)
        assert point.resampled == size.resampled
        assert point.engines == ("numpy", "jax") and point.errors == {}
        assert point.seconds["numpy"] > 0 and point.seconds["jax"] > 0
        assert point.speedups == {
            "jax": pytest.approx(point.seconds["numpy"] / point.seconds["jax"])
        }
    assert [point.resampled for point in points] == [False, True, True]
    assert points[0].as_dict()["engines"]["jax"]["seconds"] == points[0].seconds["jax"]


def test_cancelling_stops_between_sizes_and_keeps_the_points_done():
    image = tiny_image()
    sizes = sweep_sizes(image.shape, megapixels=TINY, max_megapixels=TINY[-1])
    points = []
    kept = run_sweep(
        image,
        sizes=sizes,
        kernel_size=3,
        sigma=1.0,
        engines=("numpy",),
        repeats=1,
        cancelled=lambda: len(points) >= 1,
        on_point=points.append,
    )
    assert kept == points and len(kept) == 1
    assert run_sweep(image, sizes=sizes, engines=("numpy",), cancelled=lambda: True) == []


# --- CSV -----------------------------------------------------------------------------------


def made_up_points():
    return [
        SweepPoint(
            width=60,
            height=40,
            engines=("numpy", "jax"),
            seconds={"numpy": 0.002, "jax": 0.0005},
            errors={},
            speedups={"jax": 4.0},
            resampled=False,
        ),
        SweepPoint(
            width=3000,
            height=2000,
            engines=("numpy", "jax"),
            seconds={"numpy": 0.75},
            errors={"jax": 'JAX-jit ran out of memory for this photo, "quoted", and so on'},
            speedups={},
        ),
    ]


def test_the_csv_reads_back_with_its_header_and_a_row_per_size(tmp_path):
    path = tmp_path / "sweep.csv"
    write_sweep_csv(path, made_up_points())
    with open(path, newline="", encoding="utf-8") as file:
        rows = list(csv.reader(file))
    assert rows == sweep_csv_rows(made_up_points())
    assert rows[0] == [
        "megapixels",
        "width",
        "height",
        "resampled",
        "numpy_seconds",
        "jax_seconds",
        "copy_seconds",
        "jax_speedup",
        "numpy_error",
        "jax_error",
    ]
    first, second = (dict(zip(rows[0], row, strict=True)) for row in rows[1:])
    assert float(first["megapixels"]) == pytest.approx(0.0024)
    assert (first["width"], first["height"], first["resampled"]) == ("60", "40", "no")
    assert float(first["jax_seconds"]) == 0.0005 and float(first["jax_speedup"]) == 4.0
    assert second["resampled"] == "yes" and second["jax_seconds"] == ""
    assert second["jax_error"] == made_up_points()[1].errors["jax"]
    assert [p.name for p in tmp_path.iterdir()] == ["sweep.csv"]  # no temporary file left


def test_a_csv_that_cannot_be_written_is_an_output_error(tmp_path):
    from blurapp.core.saving import OutputError

    with pytest.raises(OutputError, match="does not exist"):
        write_sweep_csv(tmp_path / "missing" / "sweep.csv", made_up_points())


# --- The command line ------------------------------------------------------------------------


SWEEP = ("bench", "--sweep", "--max-megapixels", "0.008", "--engines", "numpy,jax")
SWEEP += ("--kernel-sizes", "3", "--repeat", "1")


def test_bench_sweep_prints_a_line_per_size_and_writes_the_csv(tmp_path):
    photo = photo_file(tmp_path, size=(60, 40))
    out = tmp_path / "sweep.csv"
    run = blurapp(*SWEEP, "--photo", photo, "--csv", out)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("machine: ")
    assert lines[2].startswith(f"scaling sweep of {photo} (60×40)")
    assert lines[4].split() == ["size", "MP", "numpy", "ms", "jax", "ms", "jax", "speedup"]
    sizes = [f"{s.width}×{s.height}" for s in sweep_sizes((40, 60), max_megapixels=0.008)]
    assert sizes == ["60×40", "110×73"]
    assert [line.split()[0] for line in lines[5:7]] == sizes
    assert lines[7] == f"wrote {out}"
    with open(out, newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert [f"{row['width']}×{row['height']}" for row in rows] == sizes
    assert [row["resampled"] for row in rows] == ["no", "yes"]
    assert all(float(row["jax_seconds"]) > 0 for row in rows)


def test_bench_sweep_checks_its_csv_before_measuring(tmp_path):
    out = tmp_path / "missing" / "sweep.csv"
    start = time.monotonic()
    run = blurapp(*SWEEP, "--csv", out)
    assert run.returncode == 1
    assert run.stderr.splitlines() == [f"error: {out}: the folder {out.parent} does not exist"], (
        run.stderr
    )
    assert run.stdout == ""  # not a size measured, not even the machine described
    assert time.monotonic() - start < 30


def test_bench_sweep_json_has_the_points(tmp_path):
    run = blurapp(*SWEEP, "--json")
    assert run.returncode == 0, run.stderr
    sweep = json.loads(run.stdout)["sweep"]
    assert sweep["photo"]["width"] == 600 and sweep["kernel"]["size"] == 3
    [point] = sweep["points"]  # the bundled photo is larger than 0.008 MP: one size
    assert point["resampled"] is True and point["megapixels"] == pytest.approx(0.008, rel=0.05)
    assert point["engines"]["numpy"]["seconds"] > 0
    assert point["engines"]["jax"]["speedup"] > 0


# --- The window ----------------------------------------------------------------------------


@pytest.fixture
def sweep_window(qtbot, tmp_path):
    from blurapp.core.photo import load_photo
    from blurapp.core.spec import BlurSpec
    from blurapp.ui.sweep_window import SweepWindow

    photo = load_photo(photo_file(tmp_path, size=(60, 40)))
    window = SweepWindow(photo, BlurSpec(kernel_size=3, sigma=1.0), ("numpy", "jax"), repeats=1)
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
    assert "figures.csv" in sweep_window.status_label.text()
    assert asked == []  # no file of either name was there to replace


def test_stop_keeps_the_sizes_done_and_closing_ends_the_thread(sweep_window, qtbot):
    sweep_window.max_spin.setValue(24.0)  # far more than the test waits for
    with qtbot.waitSignal(sweep_window.point_shown, timeout=RUN_TIMEOUT_MS):
        sweep_window.run()
    with qtbot.waitSignal(sweep_window.sweep_stopped, timeout=1000):
        qtbot.mouseClick(sweep_window.run_button, qtbot_left())  # reads "Stop" while running
    assert not sweep_window.is_running() and sweep_window.run_button.text() == "&Run"
    assert len(sweep_window.points) >= 1 and "Stopped after" in sweep_window.status_label.text()
    job = sweep_window.state.job
    sweep_window.close()
    assert not sweep_window.runner.busy()
    qtbot.waitUntil(lambda: not job.is_running(), timeout=RUN_TIMEOUT_MS)


def test_run_menu_opens_the_sweep_on_the_windows_photo_and_engines(window, qtbot):
    from blurapp.ui.sweep_window import SweepWindow

    assert window.sweep_action.isEnabled()
    window.sweep_action.trigger()
    [sweep] = [child for child in window.findChildren(SweepWindow) if child.isVisible()]
    assert sweep.photo is window.session.photo
    assert sweep.engines == window.session.timed
    assert sweep.parameters == window.session.parameters
    window.sweep_action.trigger()  # the same window again, not a second one
    assert [c for c in window.findChildren(SweepWindow) if c.isVisible()] == [sweep]
    window.close()  # takes the sweep window with it
    assert not sweep.isVisible()


def test_the_sweep_needs_a_photo(make_window):
    window = make_window(wait=False)
    assert window.session.photo is None and not window.sweep_action.isEnabled()


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
    from blurapp.core import sweep

    entered, release = threading.Event(), threading.Event()
    real = sweep.compare

    def compare(*args, **kwargs):
        entered.set()
        release.wait(60)  # no cancelled() check in here
        return real(*args, **kwargs)

    monkeypatch.setattr(sweep, "compare", compare)
    return entered, release


def test_closing_during_a_long_uninterruptible_call_returns_at_once(
    sweep_window, qtbot, monkeypatch
):
    entered, release = blocking_compare(monkeypatch)
    sweep_window.run()
    assert entered.wait(30)
    job = sweep_window.state.job
    start = time.monotonic()
    sweep_window.close()
    assert time.monotonic() - start < 1.0
    assert not sweep_window.isVisible() and not sweep_window.runner.busy()
    assert job.is_running()  # still inside its call: left to end on its own
    release.set()
    qtbot.waitUntil(lambda: not job.is_running(), timeout=RUN_TIMEOUT_MS)


def test_closing_the_main_window_during_a_sweep_returns_at_once(window, qtbot, monkeypatch):
    jax_settled(qtbot, window)
    window.sweep_action.trigger()
    sweep = open_sweep(window)
    entered, release = blocking_compare(monkeypatch)
    sweep.run()
    assert entered.wait(30)
    job = sweep.state.job
    start = time.monotonic()
    window.close()  # takes the sweep window with it
    assert time.monotonic() - start < 1.0
    assert not window.isVisible() and not sweep.isVisible()
    assert job.is_running()
    release.set()
    qtbot.waitUntil(lambda: not job.is_running(), timeout=RUN_TIMEOUT_MS)


def open_sweep(window):
    from blurapp.ui.sweep_window import SweepWindow

    [sweep] = [child for child in window.findChildren(SweepWindow) if not child.is_closed()]
    sweep.max_spin.setValue(0.1)  # one small size
    return sweep


def test_the_sweep_is_modal_and_starting_it_cancels_the_windows_run(window, qtbot):
    from PySide6.QtCore import Qt

    jax_settled(qtbot, window)
    window.set_parameters(kernel_size=51)  # a run still going when the sweep starts
    window.run_comparison()
    assert window.is_running()
    window.sweep_action.trigger()
    sweep = open_sweep(window)
    assert sweep.windowModality() == Qt.WindowModality.WindowModal
    with qtbot.waitSignal(window.run_cancelled, timeout=1000):
        sweep.run()
    assert not window.is_running()
    with qtbot.waitSignal(sweep.sweep_finished, timeout=RUN_TIMEOUT_MS):
        pass
    sweep.close()


def test_starting_the_sweep_drops_a_live_preview_in_flight(make_window, qtbot):
    window = make_window(live=True)
    jax_settled(qtbot, window)
    window.sweep_action.trigger()
    sweep = open_sweep(window)
    window.set_parameters(sigma=4.0)  # a live preview re-blurs the panes
    running = window.session.running
    assert running is not None and running.live
    cancelled = []
    window.run_cancelled.connect(lambda: cancelled.append(True))
    sweep.run()
    assert window.session.running is None
    assert cancelled == []  # nothing the user cancelled: no "Cancelled" for a preview
    with qtbot.waitSignal(sweep.sweep_finished, timeout=RUN_TIMEOUT_MS):
        pass
    sweep.close()


def test_a_failed_sweep_is_told_as_the_main_window_tells_it(
    window, qtbot, monkeypatch, warnings_shown
):
    from blurapp.core import sweep as sweep_module

    def fail(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(sweep_module, "compare", fail)
    window.show_messages = False  # as in a screenshot: no message box, only message_shown
    told = []
    window.message_shown.connect(lambda title, text: told.append((title, text)))
    window.sweep_action.trigger()
    sweep = open_sweep(window)
    with qtbot.waitSignal(sweep.sweep_failed, timeout=RUN_TIMEOUT_MS):
        sweep.run()
    assert told == [("Sweep Failed", "The sweep stopped: RuntimeError: boom")]
    assert warnings_shown == []
    sweep.close()


def test_a_hidden_sweep_window_is_reused_and_one_closed_with_esc_deleted(window, qtbot):
    import shiboken6
    from PySide6.QtCore import Qt

    from blurapp.ui.sweep_window import SweepWindow

    window.sweep_action.trigger()
    first = open_sweep(window)
    first.hide()
    window.sweep_action.trigger()
    assert window.findChildren(SweepWindow) == [first] and first.isVisible()
    with qtbot.waitSignal(first.sweep_finished, timeout=RUN_TIMEOUT_MS):
        first.run()
    job = first.state.job
    qtbot.keyClick(first, Qt.Key.Key_Escape)
    assert not job.is_running()
    qtbot.waitUntil(lambda: not shiboken6.isValid(first), timeout=5000)
    window.sweep_action.trigger()
    [second] = window.findChildren(SweepWindow)
    assert second.isVisible()
    second.close()
