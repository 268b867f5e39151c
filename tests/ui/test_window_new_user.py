"""What a new user ran into, driven through the real window (pytest-qt, offscreen)."""

import logging
import os
import subprocess
import sys
import tempfile
import textwrap
import time

import pytest
from helpers.photos import photo_file
from helpers.window import RUN_TIMEOUT_MS, run
from PIL import Image
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QMessageBox

from blurapp.core.kernel import (
    DEFAULT_ALGORITHM,
    DEFAULT_KERNEL_SIZE,
    DEFAULT_SIGMA,
    MAX_SIGMA,
    MIN_SIGMA,
)
from blurapp.core.media.sample import sample_photo_path
from blurapp.ui.main_window import MainWindow


def type_into(qtbot, spin, text):
    """Replace what a spin box holds by typing, as a user does, without leaving it."""
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, text)


def leave(qtbot, spin):
    """Press Enter in the box: Qt takes (and corrects) what was typed."""
    qtbot.keyClick(spin, Qt.Key.Key_Return)


@pytest.fixture
def save_into(monkeypatch, tmp_path):
    """Save Results picks `folder`; returns the folder and the questions asked, answered from
    `answers` (Save by default)."""

    def use(folder, answers=None):
        monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
        questions = []

        def question(parent, title, text, *args, **kwargs):
            questions.append((title, text))
            return (answers or [QMessageBox.StandardButton.Save]).pop(0)

        monkeypatch.setattr(QMessageBox, "question", question)
        return questions

    return use


# --- D5: results of different runs, saved together -------------------------------------------


@pytest.mark.slow
def test_saving_results_made_with_different_parameters_asks_and_says_which_is_which(
    make_window, qtbot, tmp_path, save_into
):
    window = make_window(photo_file(tmp_path, "street.png", size=(90, 60)))
    window.set_parameters(kernel_size=11, sigma=2.5)
    run(qtbot, window, ("numpy",))
    window.set_parameters(kernel_size=21, sigma=2.5)
    run(qtbot, window, ("jax",))
    folder = tmp_path / "out"
    folder.mkdir()

    questions = save_into(folder, [QMessageBox.StandardButton.Cancel])
    window.actions.save.trigger()
    [(title, text)] = questions
    assert "Different Parameters" in title
    assert "NumPy: 11 × 11, sigma 2.5" in text and "JAX-jit: 21 × 21, sigma 2.5" in text
    assert list(folder.iterdir()) == []  # cancelled: nothing written

    save_into(folder)
    window.actions.save.trigger()
    names = sorted(path.name for path in folder.iterdir())
    assert names == ["street-jax-21x21-s2.5.png", "street-numpy-11x11-s2.5.png"]
    with Image.open(folder / "street-numpy-11x11-s2.5.png") as saved:
        assert saved.text["engine"] == "numpy"
        assert saved.text["kernel size"] == "11" and saved.text["sigma"] == "2.5"
        assert saved.text["algorithm"] == "2d"
        assert saved.text["Software"].startswith("BlurApp ")
    with Image.open(folder / "street-jax-21x21-s2.5.png") as saved:
        assert saved.text["engine"] == "jax" and saved.text["kernel size"] == "21"


def test_saving_never_writes_over_the_photo_itself(
    make_window, qtbot, tmp_path, save_into, warnings_shown
):
    photo = photo_file(tmp_path, "street.png", size=(90, 60))
    before = photo.read_bytes()
    window = make_window(photo)
    run(qtbot, window, ("numpy",))
    # The folder saved to has the photo itself under the name of its NumPy result.
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "street-numpy-9x9-s2.5.png").symlink_to(photo)
    questions = save_into(folder, [QMessageBox.StandardButton.Yes])
    window.actions.save.trigger()
    assert questions == []  # refused before asking to replace it
    [(title, text)] = warnings_shown
    assert title == "Cannot Save Results"
    assert "street-numpy-9x9-s2.5.png" in text and "never writes over it" in text
    assert photo.read_bytes() == before
    assert (folder / "street-numpy-9x9-s2.5.png").is_symlink()


# --- C3: file names too long ------------------------------------------------------------------


def test_saving_with_a_very_long_photo_name_says_the_name_is_too_long(
    make_window, qtbot, tmp_path, save_into, warnings_shown
):
    photo = photo_file(tmp_path, "x" * 246 + ".png", size=(40, 30))
    window = make_window(photo)
    run(qtbot, window, ("numpy",))
    folder = tmp_path / "out"
    folder.mkdir()
    save_into(folder)
    window.actions.save.trigger()
    [(title, text)] = warnings_shown
    assert title == "Cannot Save Results"
    assert "the file name is too long" in text and "x" * 246 in text
    assert list(folder.iterdir()) == []


def test_a_screenshot_name_too_long_fails_at_once_with_one_error_line(tmp_path):
    target = tmp_path / ("s" * 300 + ".png")
    start = time.monotonic()
    run_ = subprocess.run(
        [sys.executable, "-m", "blurapp", "--screenshot", str(target)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert time.monotonic() - start < 30
    assert run_.returncode == 1
    assert "Traceback" not in run_.stderr
    errors = [line for line in run_.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and target.name in errors[0] and "too long" in errors[0]


@pytest.mark.slow
def test_a_screenshot_that_fails_while_saving_ends_the_program(tmp_path):
    # The fault is put in through sitecustomize, which Python imports before BlurApp.
    (tmp_path / "sitecustomize.py").write_text(
        "import blurapp.core.media.saving as saving\n"
        "def broken(*args, **kwargs):\n"
        "    raise RuntimeError('the disk caught fire')\n"
        "saving.write_atomically = broken\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    target = tmp_path / "shot.png"
    run_ = subprocess.run(
        [sys.executable, "-m", "blurapp", "--screenshot", str(target)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert run_.returncode == 1
    errors = [line for line in run_.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and str(target) in errors[0] and "caught fire" in errors[0]
    assert "Traceback" not in run_.stderr


# --- C5: file names that are not UTF-8 --------------------------------------------------------


def test_a_photo_whose_name_is_not_utf8_reopens_from_open_recent(make_window, tmp_path, qtbot):
    raw = os.path.join(os.fsencode(tmp_path), b"caf\xe9.png")
    os.rename(photo_file(tmp_path, "plain.png", size=(40, 30)), raw)
    path = os.fsdecode(raw)
    window = make_window(path)
    assert window.windowTitle() == "caf\ufffd.png — BlurApp"
    window.close()

    again = make_window(wait=False)  # the same settings file
    [entry] = [
        action for action in again.actions.recent_menu.actions() if action.text().startswith("&")
    ]
    assert entry.text() == "&1 caf\ufffd.png"
    with qtbot.waitSignal(again.display.photo_shown, timeout=RUN_TIMEOUT_MS):
        entry.trigger()
    assert os.fsencode(again.photo.path) == raw
    assert again.widgets.left_pane.view.picture_size().width() == 40


# --- E2: typed parameters ---------------------------------------------------------------------


def test_the_sigma_range_is_the_one_the_command_line_has(window):
    assert (window.widgets.sigma_spin.minimum(), window.widgets.sigma_spin.maximum()) == (
        MIN_SIGMA,
        MAX_SIGMA,
    )


def test_typing_a_sigma_above_the_largest_uses_the_largest_and_says_so(window, qtbot):
    type_into(qtbot, window.widgets.sigma_spin, "99")
    expected = "sigma 99 is above the largest, 16.5: using 16.5"
    # While typing: what a run would use, and why.
    assert window.session.parameters.sigma == MAX_SIGMA
    assert (
        expected in window.widgets.parameter_note.text()
        and window.widgets.parameter_note.isVisible()
    )
    leave(qtbot, window.widgets.sigma_spin)
    assert window.widgets.sigma_spin.value() == MAX_SIGMA
    assert expected in window.widgets.parameter_note.text()


def test_typing_a_sigma_of_zero_uses_the_smallest_and_says_so(window, qtbot):
    type_into(qtbot, window.widgets.sigma_spin, "0")
    leave(qtbot, window.widgets.sigma_spin)
    assert window.widgets.sigma_spin.value() == MIN_SIGMA
    assert "sigma 0 is below the smallest, 0.1: using 0.1" in window.widgets.parameter_note.text()
    # A value then chosen another way clears the note.
    window.widgets.sigma_slider.setValue(20)
    assert window.session.parameters.sigma == 2.0 and window.widgets.parameter_note.isHidden()


def test_typing_an_even_kernel_size_shows_the_odd_size_it_uses(window, qtbot):
    type_into(qtbot, window.widgets.size_spin, "10")
    assert window.widgets.effective_size_label.text() == "11 × 11"  # not 1 × 1 halfway through
    note = "kernel sizes are odd, so the kernel has a centre: using 11"
    assert note in window.widgets.parameter_note.text()
    leave(qtbot, window.widgets.size_spin)
    assert (
        window.widgets.size_spin.value() == 11
        and window.widgets.effective_size_label.text() == "11 × 11"
    )
    assert note in window.widgets.parameter_note.text()


def test_typing_a_kernel_size_above_the_largest_uses_the_largest(window, qtbot):
    type_into(qtbot, window.widgets.size_spin, "250")
    assert window.session.parameters.size == 101
    assert (
        "kernel size 250 is above the largest, 101: using 101"
        in window.widgets.parameter_note.text()
    )


def test_a_kernel_that_cuts_the_gaussian_short_gets_a_note(window, qtbot):
    assert window.widgets.parameter_note.isHidden()  # 9 × 9 at sigma 2.5 is fine
    type_into(qtbot, window.widgets.size_spin, "11")
    type_into(qtbot, window.widgets.sigma_spin, "9")
    leave(qtbot, window.widgets.sigma_spin)
    note = window.widgets.parameter_note.text()
    assert window.widgets.parameter_note.isVisible()
    assert "11 × 11 kernel reaches only" in note and "cut short" in note


@pytest.mark.parametrize("size", [(1024, 640), (1366, 768)], ids=["1024x640", "1366x768"])
def test_run_stays_under_the_pointer_when_a_sigma_drag_brings_the_kernel_note(window, size):
    # The note used to come above Run and push it 48 px down: the click meant for Run landed
    # on the note.
    window.setGeometry(0, 0, *size)
    for _ in range(3):  # laid out
        QApplication.processEvents()
    run_button, note = window.widgets.run_button, window.widgets.parameter_note
    assert note.isHidden()  # 9 × 9 at sigma 2.5 reaches far enough
    before = run_button.mapToGlobal(run_button.rect().topLeft())
    window.widgets.sigma_slider.setValue(90)  # dragged to sigma 9: 9 × 9 cuts it short
    for _ in range(3):  # the note shown and the side panel laid out again
        QApplication.processEvents()
    assert note.isVisible() and "kernel reaches only" in note.text()
    assert run_button.mapToGlobal(run_button.rect().topLeft()) == before
    # The note is whole on screen, under Run rather than over it.
    assert note.mapToGlobal(note.rect().topLeft()).y() > before.y() + run_button.height()
    assert note.height() >= note.heightForWidth(note.width())


# --- E3: captions at every size ---------------------------------------------------------------


def whole_caption_height(caption):
    """The height a label of the caption's text and width needs, measured afresh."""
    label = QLabel()
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setFont(caption.font())
    label.setText(caption.text())
    return label.heightForWidth(caption.width())


@pytest.mark.slow
def test_captions_show_their_whole_text_from_the_minimum_size_up(window, qtbot):
    run(qtbot, window, ("numpy", "jax"))
    line = window.widgets.right_pane.caption.fontMetrics().lineSpacing()
    minimum = window.minimumSize()
    for width, height in [(minimum.width(), minimum.height()), (800, 640), (1360, 820)]:
        window.resize(width, height)
        QApplication.processEvents()
        for pane in window.widgets.panes:
            needed = whole_caption_height(pane.caption)
            assert pane.caption.height() >= needed, (width, pane.title, pane.caption_text())
            if (width, height) == (minimum.width(), minimum.height()):
                assert needed <= 4 * line + 4, "the smallest window wraps captions unreadably"
        # Both views keep one size, so both show the picture at the same scale.
        assert window.widgets.left_pane.view.size() == window.widgets.right_pane.view.size()


# --- E4: first launch -------------------------------------------------------------------------


def test_the_sample_photo_is_named_as_such_and_stays_out_of_open_recent(window, monkeypatch, qtbot):
    status = window.widgets.status_label.text()
    assert status.startswith("sample photo (coffee.png)")
    assert str(sample_photo_path().parent) not in status
    assert window.recent.paths() == []
    assert not window.actions.recent_menu.isEnabled()
    asked = []

    def choose(parent, caption, folder, filters):
        asked.append(folder)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", choose)
    window.actions.open.trigger()
    assert asked and os.path.realpath(asked[0]) != str(sample_photo_path().parent.resolve())


def test_a_missing_photo_at_launch_says_how_to_open_one(
    make_window, tmp_path, qtbot, warnings_shown
):
    window = make_window(wait=False)
    window.open_file(tmp_path / "missing.png")  # as `blurapp missing.png` does
    qtbot.waitUntil(lambda: bool(warnings_shown), timeout=RUN_TIMEOUT_MS)
    assert "missing.png" in warnings_shown[0][1]
    assert not window.widgets.run_button.isEnabled()
    for pane in window.widgets.panes:
        assert "Ctrl+O" in pane.placeholder_text() and "drop" in pane.placeholder_text()
        assert pane.placeholder.isVisible()


def test_while_a_photo_opens_the_panes_say_so_then_show_it(
    make_window, tmp_path, qtbot, monkeypatch
):
    """A 40 MP JPEG takes seconds to decode: the panes say it is opening, not "Open a photo"."""
    import threading

    from blurapp.app import jobs

    decoding, decode = threading.Event(), threading.Event()
    real_load_photo = jobs.load_photo

    def slow_load_photo(path, **options):
        decoding.set()
        assert decode.wait(RUN_TIMEOUT_MS / 1000), "the test never let the photo decode"
        return real_load_photo(path, **options)

    monkeypatch.setattr(jobs, "load_photo", slow_load_photo)
    window = make_window(wait=False)
    path = photo_file(tmp_path, name="harbour.jpg")
    window.open_file(path)
    try:
        qtbot.waitUntil(decoding.is_set, timeout=RUN_TIMEOUT_MS)
        qtbot.waitUntil(
            lambda: all("reading the file" in p.placeholder_text() for p in window.widgets.panes),
            timeout=RUN_TIMEOUT_MS,
        )
        for pane in window.widgets.panes:
            assert pane.placeholder_text().startswith("Opening harbour.jpg…")
            assert "Open a photo" not in pane.placeholder_text() and pane.placeholder.isVisible()
        assert window.widgets.status_label.text() == "Opening harbour.jpg…"
    finally:
        decode.set()
    qtbot.waitUntil(lambda: window.photo is not None, timeout=RUN_TIMEOUT_MS)
    assert window.photo.path == path
    for pane in window.widgets.panes:
        assert pane.placeholder_text() == "" and pane.view.has_picture()


# --- E6: languages, errors, settings ----------------------------------------------------------


def _exit_when_shown(*options):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, "-m", "blurapp", *options, "--exit-when-shown"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


@pytest.mark.slow
def test_a_window_closed_at_once_exits_without_an_error():
    # Closed as it is shown, its first job given to the thread pool but not yet begun: that
    # job began after Qt's objects were deleted at exit, and the program ended on two
    # tracebacks ("Signal source has been deleted"), in 2 of 3 launches on the 2-core machine:
    # three launches see it 26 times in 27.
    for _ in range(3):
        run_ = _exit_when_shown()
        assert run_.returncode == 0 and run_.stdout.startswith("shown"), run_.stderr
        assert "Traceback" not in run_.stderr and "Error" not in run_.stderr, run_.stderr


@pytest.mark.slow
def test_an_unknown_language_is_named_with_the_languages_there_are():
    # The window still opens, in English, after one warning line.
    run_ = _exit_when_shown("--lang", "klingon")
    assert run_.returncode == 0 and run_.stdout.startswith("shown"), run_.stderr
    warnings = [line for line in run_.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1, run_.stderr
    assert "'klingon'" in warnings[0] and "Available: en, zh_CN" in warnings[0]


@pytest.mark.parametrize(
    "language, warned",
    [("fr", True), ("zh_CN", False), ("zh-CN", False), ("zh", False), ("en", False)],
)
def test_only_a_language_without_a_translation_is_warned_of(language, warned, capsys):
    from blurapp.ui.launch import _check_language

    _check_language(language)
    warning = capsys.readouterr().err
    assert (f"--lang {language!r}" in warning and "Available: en, zh_CN" in warning) is warned
    assert bool(warning) is warned


def test_a_window_error_is_logged_once(make_window, tmp_path, qtbot, caplog, warnings_shown):
    bad = tmp_path / "broken.png"
    bad.write_bytes(b"not a picture at all")
    window = make_window()
    with caplog.at_level(logging.WARNING):
        window.open_file(bad)
        qtbot.waitUntil(lambda: bool(warnings_shown), timeout=RUN_TIMEOUT_MS)
    about_bad = [record for record in caplog.records if str(bad) in record.getMessage()]
    assert len(about_bad) == 1
    assert about_bad[0].exc_info is not None  # the traceback goes to the log file


@pytest.mark.parametrize(
    "name, value",
    [
        ("sigma", "nan"),
        ("sigma", "inf"),
        ("sigma", "100"),
        ("sigma", "0"),
        ("kernel_size", "abc"),
        ("kernel_size", "-3"),
        ("algorithm", "fast"),
    ],
)
def test_a_bad_saved_setting_falls_back_to_its_default(qtbot, settings, name, value):
    settings.set_value(name, value)
    window = MainWindow(settings)
    qtbot.addWidget(window)
    assert window.session.parameters.sigma == DEFAULT_SIGMA
    assert window.session.parameters.kernel_size == DEFAULT_KERNEL_SIZE
    assert window.session.parameters.algorithm == DEFAULT_ALGORITHM
    window.close()


# --- E5: help -----------------------------------------------------------------------------------


def test_about_gives_every_version_a_bug_report_needs_and_copies_them(window, monkeypatch, qtbot):
    import numpy
    import PySide6

    from blurapp import __version__
    from blurapp.ui.dialogs import AboutDialog
    from blurapp.ui.menus import show_about

    shown = []
    monkeypatch.setattr(AboutDialog, "exec", lambda self: shown.append(self) or 0)
    show_about(window, window.session.jax_device)
    [dialog] = shown
    text = dialog.versions_text
    for name, version in [
        ("BlurApp", __version__),
        ("NumPy", numpy.__version__),
        ("PySide6", PySide6.__version__),
        ("Python", f"{sys.version_info.major}.{sys.version_info.minor}"),
        ("Qt", ""),
        ("JAX", ""),
    ]:
        assert f"{name}: {version}" in text
    assert dialog.label.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == text


def test_about_does_not_load_jax_to_describe_it(monkeypatch):
    from blurapp.ui.dialogs import version_rows

    monkeypatch.delitem(sys.modules, "jax", raising=False)
    assert dict(version_rows(None))["JAX"] == "not loaded yet"
    assert "jax" not in sys.modules


@pytest.mark.slow
def test_a_16_bit_photos_difference_is_in_its_own_levels(make_window, qtbot, tmp_path):
    import numpy as np

    path = tmp_path / "deep.png"
    pixels = np.random.default_rng(1).integers(0, 65536, (40, 60), dtype=np.uint16)
    Image.fromarray(pixels).save(path)
    window = make_window(path)
    assert window.photo.bit_depth == 16
    run(qtbot, window, ("numpy", "jax"))
    assert "of 65,535 levels" in window.widgets.figures.value("max_abs_diff")


def _files_under(folder):
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file())


@pytest.mark.slow
def test_a_window_the_tests_start_keeps_its_settings_out_of_the_users_home(tmp_path, monkeypatch):
    # What the README's test command does to a user's home: nothing. The suite's children get
    # settings, cache and state folders of the run's own (tests/conftest.py).
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for variable in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        assert os.environ.get(variable, "").startswith(tempfile.gettempdir()), variable
    run_ = _exit_when_shown()
    assert run_.returncode == 0, run_.stderr
    assert _files_under(home) == []


@pytest.mark.slow
def test_the_window_is_on_screen_before_superqt_is_imported_and_the_photo_loads(tmp_path):
    # superqt imports all its widgets (about 300 ms): the window shows first, then its first
    # job (opening the photo) brings superqt in, and the photo still opens.
    script = textwrap.dedent(
        """
        import sys
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from blurapp.ui.launch import open_window
        from blurapp.ui.main_window import MainWindow
        window = MainWindow()
        seen = {}
        def on_screen():
            seen["shown"] = window.isVisible()
            seen["superqt before"] = "superqt" in sys.modules
        QTimer.singleShot(0, window, on_screen)
        open_window(window, None)
        window.display.photo_shown.connect(lambda *_: app.quit())
        QTimer.singleShot(60_000, app.quit)
        app.exec()
        print(seen["shown"], seen["superqt before"], "superqt" in sys.modules, window.photo is not None)
        sys.stdout.flush()
        import os
        os._exit(0)  # a job may still run (JAX starting): no teardown to wait for
        """
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run_ = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env
    )
    assert run_.returncode == 0, run_.stderr
    assert run_.stdout.split() == ["True", "False", "True", "True"], run_.stdout


@pytest.mark.slow
def test_the_window_is_painted_before_superqt_and_jax_are_imported():
    # On a screen, the window's first paint comes when the system exposes it, after the event
    # loop has run what was queued at show: the first jobs' start, which imported superqt
    # (all its widgets, 0.1-0.3 s) on this thread, held the paint back. The work waits for
    # the paint now, and still comes: the photo opens, JAX starts.
    script = textwrap.dedent(
        """
        import sys
        from PySide6.QtCore import QEvent, QObject, QTimer
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from blurapp.ui.launch import open_window
        from blurapp.ui.main_window import MainWindow
        window = MainWindow()
        seen = {}
        class FirstPaint(QObject):
            def eventFilter(self, watched, event):
                if event.type() == QEvent.Type.Paint and "painted" not in seen:
                    seen["painted"] = sorted(
                        name
                        for name in ("superqt", "jax", "pillow_heif", "rawpy", "PIL.ImageCms")
                        if name in sys.modules
                    )
                return False
        first_paint = FirstPaint()
        window.installEventFilter(first_paint)
        open_window(window, None)
        window.display.photo_shown.connect(lambda *_: app.quit())
        QTimer.singleShot(60_000, app.quit)
        app.exec()
        print(seen.get("painted"), window.photo is not None, "superqt" in sys.modules)
        sys.stdout.flush()
        import os
        os._exit(0)  # a job may still run (JAX starting): no teardown to wait for
        """
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run_ = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env
    )
    assert run_.returncode == 0, run_.stderr
    painted_with, photo_opened, superqt_after = run_.stdout.rsplit(maxsplit=2)
    assert painted_with == "[]" and photo_opened == "True" and superqt_after == "True", run_.stdout


@pytest.mark.slow
def test_a_settings_file_holding_a_lone_surrogate_is_left_as_it_is_and_the_window_runs(tmp_path):
    config = tmp_path / "config"
    config.mkdir()
    path = config / "settings.json"
    path.write_text('{"sigma": 3.0, "note": "caf\\ud800"}')  # valid JSON, not Unicode text
    before = path.read_bytes()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "BLURAPP_CONFIG_DIR": str(config)}
    run_ = subprocess.run(
        [sys.executable, "-m", "blurapp", "--exit-when-shown"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert run_.returncode == 0 and run_.stdout.startswith("shown"), run_.stderr
    assert "Traceback" not in run_.stderr and "Error" not in run_.stderr, run_.stderr
    warnings = [line for line in run_.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and str(path) in warnings[0], run_.stderr
    assert "leaving the file as it is" in warnings[0]
    assert path.read_bytes() == before
