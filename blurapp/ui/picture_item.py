"""A picture drawn from the pyramid level that matches the zoom, only the part in view; split, a
picture "before" left of a divider and the picture right of it."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import (
    QImage,
    QPainter,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
)


def picture_qimage(picture: np.ndarray) -> QImage:
    """A view of a contiguous uint8 array, height×width (grey) or height×width×3 (RGB), as a
    QImage, without copying.

    The caller keeps the array alive for as long as the QImage is used.
    """
    height, width = picture.shape[:2]
    if picture.ndim == 3:
        return QImage(picture.data, width, height, 3 * width, QImage.Format.Format_RGB888)
    return QImage(picture.data, width, height, width, QImage.Format.Format_Grayscale8)


class PictureItem(QGraphicsItem):
    """A picture (grey or colour) drawn from the pyramid level that matches the zoom; or, split, a
    picture "before" left of a divider and the picture right of it.

    Only the part in view is drawn, from a level at least as detailed as the screen needs,
    so a 24 MP photo pans and zooms as smoothly as a small one.
    """

    def __init__(self) -> None:
        super().__init__()
        self._levels: tuple[np.ndarray, ...] = ()
        self._images: list[QImage] = []
        self._before: tuple[np.ndarray, ...] = ()
        self._before_images: list[QImage] = []
        self.divider = 0.5  # the fraction of the width left of the divider
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)

    def set_levels(
        self, levels: tuple[np.ndarray, ...], before: tuple[np.ndarray, ...] = ()
    ) -> None:
        self.prepareGeometryChange()
        self._levels, self._before = levels, before
        self._images = [picture_qimage(level) for level in levels]
        self._before_images = [picture_qimage(level) for level in before]
        self.update()

    def levels(self) -> tuple[np.ndarray, ...]:
        return self._levels

    def images(self) -> list[QImage]:
        return self._images

    def before_images(self) -> list[QImage]:
        return self._before_images

    def before(self) -> tuple[np.ndarray, ...]:
        return self._before

    def set_divider(self, fraction: float) -> None:
        self.divider = fraction
        self.update()

    def divider_x(self) -> float:
        """Where the divider is, in picture pixels from the left edge."""
        return self.divider * self.size().width()

    def size(self) -> QSize:
        if not self._levels:
            return QSize()
        height, width = self._levels[0].shape[:2]
        return QSize(width, height)

    def boundingRect(self) -> QRectF:
        size = self.size()
        return QRectF(0, 0, size.width(), size.height())

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if not self._images:
            return
        scale = painter.worldTransform().m11()
        level = 0
        # The smallest level still at least as detailed as the screen at this zoom.
        while level + 1 < len(self._images) and scale * 2 ** (level + 1) <= 1:
            level += 1
        # Magnified: square pixels, to compare them one by one. Reduced: smooth.
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, scale * 2**level < 1)
        exposed = option.exposedRect.intersected(self.boundingRect())
        if not self._before_images:
            self._draw(painter, self._images, level, exposed)
            return
        bounds, x = self.boundingRect(), self.divider_x()
        left = QRectF(0, 0, x, bounds.height())
        right = QRectF(x, 0, bounds.width() - x, bounds.height())
        self._draw(painter, self._before_images, level, exposed.intersected(left))
        self._draw(painter, self._images, level, exposed.intersected(right))

    @staticmethod
    def _draw(painter: QPainter, images: list[QImage], level: int, target: QRectF) -> None:
        """Draw the `target` part of the picture (in full-size pixels) from pyramid `level`."""
        if target.isEmpty():
            return
        level = min(level, len(images) - 1)
        factor = 2**level
        source = QRectF(
            target.x() / factor,
            target.y() / factor,
            target.width() / factor,
            target.height() / factor,
        )
        painter.drawImage(target, images[level], source)
