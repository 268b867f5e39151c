"""A picture drawn from the pyramid level that matches the zoom, only the part in view; split, a
picture "before" left of a divider and the picture right of it."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize
from PySide6.QtGui import (
    QImage,
    QPainter,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
)

from blurapp.app.pyramid import Pyramid, fitted, full_size, picture_region


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
    so a 24 MP photo pans and zooms as smoothly as a small one. A level becomes a QImage when
    it is first drawn: a picture left on its device (blurapp.app.pyramid.PictureOnDevice)
    crosses to the host level by level, as the zoom asks for them. A picture fitted to the
    view (blurapp.app.pyramid.output_pyramid) is drawn as it is wherever it is the size the
    picture takes on screen: at the view's fitted zoom, a new picture costs a copy, not a
    scaling.
    """

    def __init__(self) -> None:
        super().__init__()
        self._levels: Pyramid = ()
        self._images: dict[int, QImage] = {}
        self._before: Pyramid = ()
        self._before_images: dict[int, QImage] = {}
        # The picture fitted to the view as drawn, and the array its QImage reads: a copy where
        # the picture was not contiguous, kept here as the levels keep theirs (see image()).
        self._fitted: QImage | None = None
        self._fitted_picture: np.ndarray | None = None
        # The part of the picture (and of the picture before) the 100% inset last drew, by
        # where it lies: a picture is drawn more than once (each paint, each grab).
        self._regions: dict[tuple[bool, int, int, int, int], QImage] = {}
        self.divider = 0.5  # the fraction of the width left of the divider
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)

    def set_levels(self, levels: Pyramid, before: Pyramid = ()) -> None:
        if not levels or not self._levels or full_size(levels) != full_size(self._levels):
            # Only a new size moves the item's bounds: a live preview's every new picture of
            # the same photo is a repaint, not a change of the scene's geometry.
            self.prepareGeometryChange()
        self._levels, self._before = levels, before
        self._images, self._before_images = {}, {}
        self._fitted, self._fitted_picture = None, None
        self._regions = {}
        self.update()

    def levels(self) -> Pyramid:
        return self._levels

    def before(self) -> Pyramid:
        return self._before

    def image(self, level: int, before: bool = False) -> QImage:
        """Pyramid `level` (of the picture before, left of the divider) as a QImage."""
        levels = self._before if before else self._levels
        images = self._before_images if before else self._images
        image = images.get(level)
        if image is None:
            image = images[level] = picture_qimage(levels[level])
        return image

    def fitted_image(self) -> QImage | None:
        """The picture fitted to the view, as the pane draws it at its fitted zoom; None where
        the picture holds none."""
        picture = fitted(self._levels) if self._levels else None
        if picture is None:
            return None
        if self._fitted is None:
            self._fitted_picture = np.ascontiguousarray(picture)
            self._fitted = picture_qimage(self._fitted_picture)
        return self._fitted

    def region(self, source: QRectF, before: bool = False) -> QImage:
        """The `source` part of the picture at full size (picture pixels, whole ones) as a
        QImage of its own: only that part crosses from a device."""
        at = (
            before,
            round(source.top()),
            round(source.left()),
            round(source.height()),
            round(source.width()),
        )
        image = self._regions.get(at)
        if image is None:
            part = picture_region(self._before if before else self._levels, *at[1:])
            image = picture_qimage(np.ascontiguousarray(part)).copy()
            self._regions = {
                kept: shown for kept, shown in self._regions.items() if kept[0] != before
            }
            self._regions[at] = image
        return image

    def set_divider(self, fraction: float) -> None:
        self.divider = fraction
        self.update()

    def divider_x(self) -> float:
        """Where the divider is, in picture pixels from the left edge."""
        return self.divider * self.size().width()

    def size(self) -> QSize:
        if not self._levels:
            return QSize()
        height, width = full_size(self._levels)
        return QSize(width, height)

    def boundingRect(self) -> QRectF:
        size = self.size()
        return QRectF(0, 0, size.width(), size.height())

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if not self._levels:
            return
        scale = painter.worldTransform().m11()
        level = 0
        # The smallest level still at least as detailed as the screen at this zoom.
        while level + 1 < len(self._levels) and scale * 2 ** (level + 1) <= 1:
            level += 1
        # Magnified: square pixels, to compare them one by one. Reduced: smooth.
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, scale * 2**level < 1)
        exposed = option.exposedRect.intersected(self.boundingRect())
        if not self._before:
            if not self._draw_fitted(painter):
                self._draw(painter, level, exposed)
            return
        bounds, x = self.boundingRect(), self.divider_x()
        left = QRectF(0, 0, x, bounds.height())
        right = QRectF(x, 0, bounds.width() - x, bounds.height())
        self._draw(painter, level, exposed.intersected(left), before=True)
        self._draw(painter, level, exposed.intersected(right))

    def _draw(self, painter: QPainter, level: int, target: QRectF, before: bool = False) -> None:
        """Draw the `target` part of the picture (in full-size pixels) from pyramid `level`."""
        if target.isEmpty():
            return
        level = min(level, len(self._before if before else self._levels) - 1)
        factor = 2**level
        source = QRectF(
            target.x() / factor,
            target.y() / factor,
            target.width() / factor,
            target.height() / factor,
        )
        painter.drawImage(target, self.image(level, before), source)

    def _draw_fitted(self, painter: QPainter) -> bool:
        """Draw the picture fitted to the view, pixel for pixel, where the whole picture takes
        its size on screen now; whether it did."""
        image = self.fitted_image()
        if image is None:
            return False
        on_screen = painter.worldTransform().mapRect(self.boundingRect())
        ratio = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
        if (
            painter.worldTransform().isRotating()
            or abs(on_screen.width() * ratio - image.width()) >= 1
            or abs(on_screen.height() * ratio - image.height()) >= 1
        ):
            return False
        image.setDevicePixelRatio(ratio)
        painter.save()
        painter.resetTransform()  # in the view's pixels: no scaling, whole pixels
        painter.drawImage(QPointF(round(on_screen.x()), round(on_screen.y())), image)
        painter.restore()
        return True
