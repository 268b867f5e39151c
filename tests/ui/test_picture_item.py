"""A pane's picture fitted to its view is drawn with its own pixels, whatever the layout of the
array it came in: the QImage the pane draws never reads memory that has gone back."""

import gc

import numpy as np
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QStyleOptionGraphicsItem
from shiboken6 import VoidPtr

from blurapp.app.pyramid import Levels
from blurapp.ui import picture_item
from blurapp.ui.picture_item import PictureItem


def qimage_keeping_nothing(picture: np.ndarray) -> QImage:
    """picture_qimage as a binding gives it that keeps no reference to the array (the contract
    picture_qimage states: its caller keeps the array alive); PySide6 6.11 happens to keep one,
    which would hide a caller that does not."""
    height, width = picture.shape[:2]
    pixels = VoidPtr(picture.ctypes.data, picture.nbytes, False)
    return QImage(pixels, width, height, width, QImage.Format.Format_Grayscale8)


def drawn_at_fitted_zoom(item: PictureItem, height: int, width: int) -> np.ndarray:
    """What the item draws at the zoom where the whole picture takes height × width pixels."""
    target = QImage(width, height, QImage.Format.Format_Grayscale8)
    target.fill(0)
    painter = QPainter(target)
    painter.scale(width / item.size().width(), height / item.size().height())
    option = QStyleOptionGraphicsItem()
    option.exposedRect = item.boundingRect()
    item.paint(painter, option)
    painter.end()
    rows = np.frombuffer(target.constBits(), np.uint8).reshape(height, target.bytesPerLine())
    return rows[:, :width].copy()


def test_a_fitted_picture_not_contiguous_is_drawn_with_its_pixels_after_its_array_goes(
    qapp, monkeypatch
):
    monkeypatch.setattr(picture_item, "picture_qimage", qimage_keeping_nothing)
    rng = np.random.default_rng(63)
    height, width = 48, 64
    levels = Levels((rng.integers(0, 256, (2 * height, 2 * width), dtype=np.uint8),))
    # A transposed view: the item must make a contiguous copy before a QImage can read it.
    levels.fitted = rng.integers(0, 256, (width, height), dtype=np.uint8).T
    expected = levels.fitted.copy()
    item = PictureItem()
    item.set_levels(levels)
    del levels
    assert item.fitted_image() is not None
    gc.collect()
    # Memory given back is handed out again: arrays of the same size take it if it was freed.
    others = [np.full((height, width), 7, np.uint8) for _ in range(64)]
    drawn = drawn_at_fitted_zoom(item, height, width)
    np.testing.assert_array_equal(drawn, expected)
    assert others
