"""An image too large to open: the window offers to blur it to a file by blocks, with a
progress dialog, instead of only failing."""

import os
import re
import subprocess
import sys
import textwrap
import time
import typing

import numpy as np
import pytest
import tifffile
from helpers.oracle import blur_oracle
from helpers.window import RUN_TIMEOUT_MS, jobs_done
from PIL import Image
from PySide6.QtCore import QThread, Slot
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from blurapp.core import gaussian_kernel
from blurapp.ui import tiled_blur


class CancelAtTheFirstRow(tiled_blur.TiledBlurDialog):
    """Cancel pressed as soon as the first row of blocks is written. (At module level: PySide
    crashes collecting a QObject subclass made inside a test function.) It records whether each
    row's call came on the GUI thread, the only one where widgets may be touched."""

    rows = 0
    threads: typing.ClassVar[list[bool]] = []
    labels: typing.ClassVar[list[str]] = []
    how = "cancel"  # the Cancel button; "reject": Esc; "close": the title bar's close button

    @Slot(object)
    def _on_progress(self, blocks):
        type(self).threads.append(QThread.currentThread() is QApplication.instance().thread())
        super()._on_progress(blocks)
        type(self).labels.append(self.label.text())
        type(self).rows += 1
        if type(self).rows == 1:
            getattr(self, type(self).how)()


@pytest.fixture
def too_large(tmp_path, monkeypatch):
    """A 1,200 × 900 tiled TIFF, past a pixel limit lowered to 1 MP for the test (Pillow's own
    is 89 MP: a file that large would take minutes to blur here)."""
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 500_000)
    levels = np.random.default_rng(7).integers(0, 256, (900, 1200), dtype=np.uint8)
    path = tmp_path / "scan.tif"
    tifffile.imwrite(path, levels, tile=(256, 256))
    return path, levels


@pytest.fixture
def answers(monkeypatch, tmp_path):
    """The user's answers: Yes to the offer, `output` in the save dialog."""
    asked = []
    chosen = {"output": tmp_path / "scan-blurred.tif", "answer": QMessageBox.StandardButton.Yes}

    def question(parent, title, text, *args, **kwargs):
        asked.append((title, text))
        return chosen["answer"]

    monkeypatch.setattr(QMessageBox, "question", question)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(chosen["output"]), ""))
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: None)
    chosen["asked"] = asked
    return chosen


@pytest.mark.extra("scale")  # the blur by blocks
def test_a_too_large_tiff_is_offered_a_blur_to_a_file(make_window, qtbot, too_large, answers):
    path, levels = too_large
    window = make_window()
    with qtbot.waitSignal(window.display.blur_by_blocks_done, timeout=RUN_TIMEOUT_MS) as done:
        window.open_file(path)
    [(title, text)] = answers["asked"]
    assert title == "Photo Too Large to Open"
    assert str(path) in text and "too large" in text
    how, words = done.args
    assert how == "written", words
    assert "scan-blurred.tif" in words and "1,200 × 900" in words
    expected = blur_oracle(levels / 255.0, gaussian_kernel(9, 2.5))
    written = tifffile.imread(answers["output"])
    assert written.shape == (900, 1200) and written.dtype == np.uint8
    assert np.abs(written - expected * 255).max() <= 0.5 + 1e-3
    assert window.widgets.status_label.text() == words
    # The photo open before stays open.
    assert window.windowTitle() == "coffee.png — BlurApp"


def test_declining_the_offer_leaves_no_file(make_window, qtbot, too_large, answers):
    path, _ = too_large
    answers["answer"] = QMessageBox.StandardButton.No
    window = make_window()
    window.open_file(path)
    qtbot.waitUntil(lambda: bool(answers["asked"]), timeout=RUN_TIMEOUT_MS)
    jobs_done(qtbot, window)
    assert not answers["output"].exists()
    assert window.display.tiled_blur is None


@pytest.mark.extra("scale")
@pytest.mark.parametrize("how", ["cancel", "reject", "close"])
def test_cancelling_the_blur_by_blocks_leaves_no_file(
    make_window, qtbot, too_large, answers, monkeypatch, how
):
    from blurapp.scale import tiled

    real = tiled.blur_file_tiled

    def waiting_for_cancel(*args, progress, cancelled, **kwargs):
        """The real blur, whose first row of blocks then waits for Cancel: however fast the
        machine, the dialog gets to press it before the last row."""

        def report(done, total, megapixels):
            progress(done, total, megapixels)
            deadline = time.monotonic() + 30
            while not cancelled() and time.monotonic() < deadline:
                time.sleep(0.01)

        return real(*args, progress=report, cancelled=cancelled, **kwargs)

    monkeypatch.setattr(tiled, "blur_file_tiled", waiting_for_cancel)
    monkeypatch.setattr(tiled_blur, "TiledBlurDialog", CancelAtTheFirstRow)
    monkeypatch.setattr(CancelAtTheFirstRow, "rows", 0)
    monkeypatch.setattr(CancelAtTheFirstRow, "threads", [])
    monkeypatch.setattr(CancelAtTheFirstRow, "labels", [])
    monkeypatch.setattr(CancelAtTheFirstRow, "how", how)
    # Small blocks: several rows of them, so there are rows left to cancel.
    monkeypatch.setattr(tiled, "DEFAULT_BLOCK", 128)
    window = make_window()
    path = too_large[0]
    with qtbot.waitSignal(window.display.blur_by_blocks_done, timeout=RUN_TIMEOUT_MS) as done:
        window.open_file(path)
    assert done.args[0] == "cancelled", done.args
    assert CancelAtTheFirstRow.rows == 1  # 900 rows in blocks of 128: it stopped after one
    assert CancelAtTheFirstRow.threads == [True]
    # The dialog says how far it is and how fast: a row of 10 blocks of 1,200 × 900, at some MP/s.
    [label] = CancelAtTheFirstRow.labels
    assert re.fullmatch(
        r"Blurring by blocks into scan-blurred\.tif: 10 of 80 blocks, \d+\.\d MP/s", label
    ), label
    assert not answers["output"].exists()
    assert sorted(p.name for p in path.parent.iterdir()) == ["scan.tif"]


def test_a_small_photo_that_fails_is_not_offered_a_blur(
    make_window, qtbot, tmp_path, answers, warnings_shown
):
    bad = tmp_path / "broken.tif"
    bad.write_bytes(b"II*\x00 not really a TIFF")
    window = make_window()
    with qtbot.waitSignal(window.message_shown, timeout=RUN_TIMEOUT_MS):
        window.open_file(bad)
    assert answers["asked"] == []
    [(title, text)] = warnings_shown
    assert title == "Cannot Open Photo" and str(bad) in text


@pytest.mark.extra("scale")
@pytest.mark.slow
def test_closing_the_window_during_a_blur_by_blocks_ends_it_as_cancelled(tmp_path):
    """The window closed after the first row of blocks, and the program exiting: the row in
    hand meets thread pools shut down for the exit, and ends as a cancelled blur, no error
    logged. (A process of its own: the program must really exit.)"""
    script = textwrap.dedent(
        """
        import sys, time
        import numpy as np, tifffile
        from PIL import Image
        from PySide6.QtCore import QTimer
        from blurapp.app.settings_file import SettingsFile
        from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox
        from blurapp.scale import tiled
        from blurapp.logs import configure_logging
        from blurapp.ui.main_window import MainWindow

        folder = sys.argv[1]
        configure_logging()
        Image.MAX_IMAGE_PIXELS = 500_000
        tiled.DEFAULT_BLOCK = 128
        real = tiled._blur_block

        def slow(block, **options):  # rows long enough to close the window inside one
            time.sleep(0.2)
            return real(block, **options)

        tiled._blur_block = slow
        levels = np.random.default_rng(7).integers(0, 256, (900, 1200), dtype=np.uint8)
        tifffile.imwrite(f"{folder}/scan.tif", levels, tile=(256, 256))
        QMessageBox.question = lambda *a, **k: QMessageBox.StandardButton.Yes
        QFileDialog.getSaveFileName = lambda *a, **k: (f"{folder}/scan-blurred.tif", "")
        app = QApplication([])
        window = MainWindow(SettingsFile(f"{folder}/settings.json"))
        window.show()
        window.open_file(f"{folder}/scan.tif")

        def close_after_the_first_row():
            dialog = window.display.tiled_blur
            if dialog is not None and dialog.bar.value() > 0:
                print("closing", flush=True)
                window.close()
                app.quit()

        timer = QTimer(interval=10, timeout=close_after_the_first_row)
        timer.start()
        app.exec()
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "closing"
    assert "Traceback" not in run.stderr and "failed" not in run.stderr, run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scan.tif", "settings.json"]
