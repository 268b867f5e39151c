"""Long commands on a photo show tqdm's bar on stderr when it is a terminal: each stage's
words and how far it is."""

import numpy as np
import pytest

# The bars are tqdm's, which the scale extra installs: skipped, saying so, where it is not
# (the TPU machine), where a command says how far it is in plain lines instead.
pytest.importorskip("tqdm", reason="needs tqdm (the scale extra), not installed here")
from helpers.command_line import run_on_a_terminal
from PIL import Image


def test_comparing_on_a_photo_shows_each_stage_on_a_bar(tmp_path):
    source = tmp_path / "street.png"
    Image.fromarray(np.zeros((40, 60), np.uint8)).save(source)
    status, shown = run_on_a_terminal("compare", source, "--engines", "numpy", "--repeat", "2")
    assert status == 0, shown
    assert "NumPy's first call on street.png: " in shown and "step/s" in shown
    assert "timing each engine on street.png: " in shown and "call/s" in shown


def test_blurring_a_photo_in_colour_shows_the_blur_on_a_bar(tmp_path):
    source = tmp_path / "street.png"
    Image.fromarray(np.zeros((40, 60, 3), np.uint8)).save(source)
    out = tmp_path / "soft.png"
    status, shown = run_on_a_terminal("blur", source, "--color", "-o", out, "--engine", "numpy")
    assert status == 0, shown
    assert "blurring street.png with NumPy: " in shown and "step/s" in shown
    assert out.exists()
