"""The Colour switch in the real window: off by default, the original always in colour, and a
colour run blurring each of R, G and B, shown, compared and saved in colour."""

import numpy as np
import pytest
from helpers.oracle import blur_oracle
from helpers.photos import photo_file
from helpers.window import RUN_TIMEOUT_MS, run
from PIL import Image
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from blurapp.core import TOLERANCE, gaussian_kernel, sample_photo_path, to_8bit


def pixel(image, x, y):
    colour = image.pixelColor(x, y)
    return colour.red(), colour.green(), colour.blue()


def file_rgb(path):
    """The photo as Pillow decodes it: the oracle for what the window shows."""
    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"))


@pytest.mark.slow
def test_colour_is_off_by_default_and_the_original_shows_the_photo_in_colour(make_window, qtbot):
    window = make_window()
    assert not window.widgets.controls.color_check.isChecked()
    window.controller.set_show("original")
    shown = window.widgets.left_pane.view.image()
    expected = file_rgb(sample_photo_path())
    points = [(10, 10), (300, 200), (599, 399)]
    assert any(len(set(expected[y, x])) > 1 for x, y in points)  # not grey pixels
    for x, y in points:
        assert pixel(shown, x, y) == tuple(int(v) for v in expected[y, x])
    # Grey is still what a run blurs while Colour is off.
    result = run(qtbot, window)
    assert result.reference_run.output.shape == (400, 600)
    window.controller.set_show("blurred")
    # Its caption says the blur is grey, and how to keep the colour.
    for pane in window.widgets.panes:
        caption = pane.caption_text()
        assert caption.endswith("σ 2.5, grey: Blur in colour is off"), caption
    window.set_parameters(color=True)
    run(qtbot, window)
    for pane in window.widgets.panes:
        assert pane.caption_text().endswith("σ 2.5, colour"), pane.caption_text()


@pytest.mark.parametrize("colour_on", [False, True])
def test_show_original_is_captioned_colour_as_it_is_drawn(make_window, colour_on):
    window = make_window()
    window.set_parameters(color=colour_on)
    window.controller.set_show("original")
    expected = file_rgb(sample_photo_path())
    for pane in (window.widgets.left_pane, window.widgets.right_pane):
        assert pixel(pane.view.image(), 300, 200) == tuple(int(v) for v in expected[200, 300])
        assert pane.caption_text() == "Original · colour · 600 × 400"


@pytest.mark.slow
def test_a_colour_run_blurs_each_channel_and_shows_it_in_colour(make_window, qtbot):
    window = make_window()
    window.set_parameters(color=True)
    assert window.widgets.controls.color_check.isChecked()
    result = run(qtbot, window)
    photo = window.photo.pixels
    assert photo.shape == (400, 600, 3)
    expected = blur_oracle(photo, gaussian_kernel(9, 2.5))
    for engine_run in (result.reference_run, result.jit_run):
        assert engine_run.output.shape == (400, 600, 3)
        np.testing.assert_allclose(engine_run.output, expected, atol=TOLERANCE, rtol=0)
    shown = window.widgets.right_pane.view.image()
    levels = to_8bit(result.jit_run.output)
    for x, y in [(5, 5), (320, 111)]:
        assert pixel(shown, x, y) == tuple(int(v) for v in levels[y, x])
    assert "colour" in window.widgets.right_pane.caption_text()
    assert "colour (R, G, B)" in window.widgets.figures.value("image")
    assert "largest over the 3 channels" in window.widgets.figures.value("max_abs_diff")

    window.controller.set_show("difference")
    caption = window.widgets.right_pane.caption_text()
    assert "largest over R, G and B" in caption
    difference = np.abs(result.reference_run.output.astype(np.float64) - result.jit_run.output).max(
        axis=2
    )
    if result.max_abs_diff > 0:
        y, x = np.unravel_index(np.argmax(difference), difference.shape)
        assert window.widgets.right_pane.view.image().pixelColor(int(x), int(y)).red() == 255

    window.controller.set_show("blurred")
    qtbot.mouseClick(window.widgets.right_pane.view.viewport(), Qt.MouseButton.LeftButton)
    window.actions.copy.trigger()
    copied = QApplication.clipboard().image()
    assert pixel(copied, 320, 111) == tuple(int(v) for v in levels[111, 320])


@pytest.mark.slow
def test_turning_colour_on_or_off_puts_the_results_out_of_date(make_window, qtbot):
    window = make_window()
    run(qtbot, window)
    window.set_parameters(color=True)
    assert "colour turned on since this run" in window.session.captions.result_out_of_date("numpy")
    assert "out of date" in window.widgets.left_pane.caption_text()
    run(qtbot, window)
    assert window.session.captions.result_out_of_date("numpy") is None
    window.set_parameters(color=False)
    assert "colour turned off since this run" in window.session.captions.result_out_of_date("jax")


@pytest.mark.slow
def test_a_grey_photo_stays_one_channel_with_colour_on(make_window, qtbot, tmp_path):
    path = tmp_path / "grey.png"
    levels = np.random.default_rng(3).integers(0, 256, (40, 70), dtype=np.uint8)
    Image.fromarray(levels).save(path)
    window = make_window(path)
    window.set_parameters(color=True)
    result = run(qtbot, window)
    assert result.reference_run.output.shape == (40, 70)
    expected = blur_oracle(levels / 255.0, gaussian_kernel(9, 2.5))
    np.testing.assert_allclose(result.jit_run.output, expected, atol=TOLERANCE, rtol=0)
    assert "colour" not in window.widgets.right_pane.caption_text()
    # Colour off again changes nothing for a grey photo: nothing goes out of date.
    window.set_parameters(color=False)
    assert window.session.captions.result_out_of_date("jax") is None
    assert "out of date" not in window.widgets.right_pane.caption_text()
    window.controller.set_show("original")
    assert "grayscale" in window.widgets.left_pane.caption_text()
    assert "colour" not in window.widgets.left_pane.caption_text()


@pytest.mark.slow
def test_colour_results_save_as_rgb_files(make_window, qtbot, tmp_path, monkeypatch):
    window = make_window()
    window.set_parameters(color=True)
    result = run(qtbot, window)
    folder = tmp_path / "out"
    folder.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)
    window.actions.save.trigger()
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["coffee-jax-9x9-s2.5-colour.png", "coffee-numpy-9x9-s2.5-colour.png"]
    with Image.open(folder / names[0]) as saved:
        assert saved.mode == "RGB"
        np.testing.assert_array_equal(np.asarray(saved), to_8bit(result.jit_run.output))
        assert saved.text["channels"] == "3"


def test_the_colour_switch_is_remembered(make_window, tmp_path):
    window = make_window(photo_file(tmp_path))
    window.set_parameters(color=True)
    window.close()
    again = make_window(wait=False)
    assert again.widgets.controls.color_check.isChecked()
    assert again.session.parameters.color


def test_the_live_preview_follows_the_colour_switch(make_window, qtbot):
    window = make_window(live=True)
    seen = []
    window.display.live_shown.connect(seen.append)
    window.set_parameters(color=True)
    qtbot.waitUntil(lambda: {"numpy", "jax"} <= set(seen), timeout=RUN_TIMEOUT_MS)
    for engine in ("numpy", "jax"):
        kept = window.session.results[engine]
        assert kept.live and kept.parameters.color
        assert kept.run.output.shape == (400, 600, 3)
    expected = blur_oracle(window.photo.pixels, gaussian_kernel(9, 2.5))
    np.testing.assert_allclose(
        window.session.results["jax"].run.output, expected, atol=TOLERANCE, rtol=0
    )


@pytest.mark.parametrize("size", [(800, 600), (1360, 820)])
def test_the_colour_switch_fits_at_small_and_large_sizes(make_window, size):
    window = make_window()
    window.resize(*size)
    check = window.widgets.controls.color_check
    assert check.isVisible()
    assert check.width() >= check.sizeHint().width()


def test_a_colour_photo_too_large_for_a_colour_blur_opens_in_grey(
    make_window, tmp_path, monkeypatch
):
    from blurapp.core.media.photo_checks import WORKING_BYTES_PER_PIXEL

    path = photo_file(tmp_path, "wide.png", size=(90, 60))
    # Room for one channel's blur, not for three.
    monkeypatch.setattr(
        "blurapp.core.media.photo_checks.available_memory",
        lambda: 90 * 60 * WORKING_BYTES_PER_PIXEL * 2,
    )
    window = make_window(path)
    assert window.windowTitle() == "wide.png — BlurApp"
    assert window.photo.channels == 1
    assert "opened in grey: there is not enough memory to blur it in colour" in (
        window.widgets.status_label.text()
    )
    with Image.open(path) as image:
        expected = np.asarray(image.convert("L"), dtype=np.float64) / 255
    np.testing.assert_allclose(window.photo.pixels, expected, atol=1 / 255)
    # Show ▸ Original draws it as opened, in grey, and says so.
    window.controller.set_show("original")
    assert window.widgets.left_pane.view.image().isGrayscale()
    assert "grayscale" in window.widgets.left_pane.caption_text()
