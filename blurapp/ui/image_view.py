"""Pictures that zoom and pan together, so every pane shows the same pixels; the before/after
divider drawn over them."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QFrame,
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsView,
    QWidget,
)

MIN_ZOOM = 1 / 64
MAX_ZOOM = 64.0
ZOOM_STEP = 1.25
# The before/after divider, in screen pixels: the mouse picks it up this close to its line,
# which is also the radius of its handle.
DIVIDER_REACH = 10


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


class ImageView(QGraphicsView):
    """One picture, zoomed with the wheel and panned by dragging; or two split by a divider
    the user drags, the one before on its left."""

    zoom_changed = Signal(float)
    view_moved = Signal()  # scrolled or zoomed: the linked views follow
    divider_moved = Signal(float)  # the fraction of the width left of it: linked views follow
    clicked = Signal()
    focused = Signal()
    # The picture's pixel under the cursor (x, y), and whether it is left of the divider, in
    # the picture drawn there ("before"); hover_left: the cursor is off the picture.
    hovered = Signal(int, int, bool)
    hover_left = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setScene(QGraphicsScene(self))
        self._item = PictureItem()
        self.scene().addItem(self._item)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setBackgroundBrush(Qt.GlobalColor.darkGray)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._fit = True
        self._dragging_divider = False
        self._hovering = False
        self.viewport().setMouseTracking(True)  # the value under the cursor, buttons up too
        self.horizontalScrollBar().valueChanged.connect(self.view_moved)
        self.verticalScrollBar().valueChanged.connect(self.view_moved)

    # The picture ---------------------------------------------------------------------------

    def set_picture(
        self,
        levels: tuple[np.ndarray, ...] | None,
        before: tuple[np.ndarray, ...] | None = None,
    ) -> None:
        """Show a picture given as its pyramid (see blurapp.app.pyramid), or none; with
        `before` (a pyramid of the same size), that left of the divider and `levels` right."""
        levels, before = levels or (), before or ()
        if levels is self._item.levels() and before is self._item.before():
            return
        old_size = self.picture_size()
        self._item.set_levels(levels, before)
        self.scene().setSceneRect(self._item.boundingRect())
        # The divider's handle and labels keep their place on screen while the picture
        # scrolls under them, so a scroll repaints the whole view instead of moving pixels.
        mode = QGraphicsView.ViewportUpdateMode
        self.setViewportUpdateMode(
            mode.FullViewportUpdate if before else mode.MinimalViewportUpdate
        )
        if not before and self.viewport().cursor().shape() == Qt.CursorShape.SplitHCursor:
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
        self.viewport().update()
        if self.picture_size() != old_size and self._fit:
            self.fit_to_window()

    def picture_size(self) -> QSize:
        return self._item.size()

    def has_picture(self) -> bool:
        return bool(self._item.levels())

    def image(self) -> QImage:
        """The picture at full size (a copy), as the clipboard and the tests take it; split,
        the picture right of the divider."""
        levels = self._item.levels()
        return picture_qimage(levels[0]).copy() if levels else QImage()

    # The before/after divider ------------------------------------------------------------

    def is_split(self) -> bool:
        return bool(self._item.before()) and self.has_picture()

    def divider(self) -> float:
        """Where the divider is, as the fraction of the picture's width left of it."""
        return self._item.divider

    def set_divider(self, fraction: float) -> None:
        """Move the divider to `fraction` of the picture's width (0 to 1) from its left edge."""
        fraction = min(1.0, max(0.0, fraction))
        if fraction != self._item.divider:
            self._item.set_divider(fraction)
            self.viewport().update()
            self.divider_moved.emit(fraction)

    def _divider_on_screen(self) -> tuple[float, float, float]:
        """(x, top, bottom) of the divider's line in the view's pixels."""
        transform = self.viewportTransform()
        x = transform.map(QPointF(self._item.divider_x(), 0)).x()
        top = max(0.0, transform.map(QPointF(0, 0)).y())
        bottom = transform.map(QPointF(0, self.picture_size().height())).y()
        return x, top, min(float(self.viewport().height()), bottom)

    def _over_divider(self, position: QPointF) -> bool:
        if not self.is_split():
            return False
        x, top, bottom = self._divider_on_screen()
        return abs(position.x() - x) <= DIVIDER_REACH and top <= position.y() <= bottom

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:
        if not self.is_split():
            return
        x, top, bottom = self._divider_on_screen()
        if not 0 <= x <= self.viewport().width() or bottom <= top:
            return
        painter.save()
        painter.resetTransform()  # in the view's pixels: the same size at every zoom
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        shadow, light = QColor(0, 0, 0, 150), QColor(255, 255, 255)
        # A light line edged dark, to stand out on bright and dark pictures alike.
        for colour, width in ((shadow, 4), (light, 2)):
            painter.setPen(QPen(colour, width))
            painter.drawLine(QPointF(x, top), QPointF(x, bottom))
        middle = (top + bottom) / 2
        painter.setPen(QPen(shadow, 1.5))
        painter.setBrush(light)
        painter.drawEllipse(QPointF(x, middle), DIVIDER_REACH, DIVIDER_REACH)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(60, 60, 60))
        for side in (-1, 1):  # ◂ ▸: it moves sideways
            tip, back = x + side * 7, x + side * 2
            painter.drawPolygon(
                QPolygonF(
                    [QPointF(tip, middle), QPointF(back, middle - 4), QPointF(back, middle + 4)]
                )
            )
        self._draw_side_labels(painter, x, top)
        painter.restore()

    def _draw_side_labels(self, painter: QPainter, x: float, top: float) -> None:
        """'Before' and 'After' either side of the divider, near its top."""
        font = QFont(self.font())
        font.setPointSizeF(max(7.0, font.pointSizeF() * 0.9))
        painter.setFont(font)
        metrics = painter.fontMetrics()
        height = metrics.height() + 4
        for text, side in ((self.tr("Before"), -1), (self.tr("After"), 1)):
            width = metrics.horizontalAdvance(text) + 12
            left = x - 8 - width if side < 0 else x + 8
            box = QRectF(left, top + 8, width, height)
            path = QPainterPath()
            path.addRoundedRect(box, 4, 4)
            painter.fillPath(path, QColor(0, 0, 0, 160))
            painter.setPen(QColor(255, 255, 255))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)

    # Zoom ----------------------------------------------------------------------------------

    def zoom(self) -> float:
        return self.transform().m11()

    def is_fitted(self) -> bool:
        return self._fit

    def set_zoom(self, zoom: float, *, fit: bool = False) -> None:
        zoom = min(MAX_ZOOM, max(MIN_ZOOM, zoom))
        self._fit = fit
        self.setTransform(self.transform().fromScale(zoom, zoom))
        self.zoom_changed.emit(zoom)
        self.view_moved.emit()

    def zoom_by(self, factor: float) -> None:
        self.set_zoom(self.zoom() * factor)

    def fit_to_window(self) -> None:
        if not self.has_picture():
            self._fit = True
            return
        size = self.picture_size()
        viewport = self.viewport().size()
        zoom = min(viewport.width() / size.width(), viewport.height() / size.height())
        self.set_zoom(zoom, fit=True)
        self.centerOn(self._item.boundingRect().center())

    def center(self) -> QPointF:
        """The point of the picture at the middle of the view."""
        return self.mapToScene(self.viewport().rect().center())

    # Events --------------------------------------------------------------------------------

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120
        if steps and self.has_picture():
            self.zoom_by(ZOOM_STEP**steps)
            event.accept()
        else:
            super().wheelEvent(event)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._fit:
            self.fit_to_window()

    def focusInEvent(self, event) -> None:
        super().focusInEvent(event)
        self.focused.emit()

    def mousePressEvent(self, event) -> None:
        self.clicked.emit()
        if event.button() == Qt.MouseButton.LeftButton and self._over_divider(event.position()):
            self._dragging_divider = True  # instead of panning
            event.accept()
            return
        super().mousePressEvent(event)

    def pixel_at(self, position: QPointF) -> tuple[int, int] | None:
        """The picture's pixel (x, y) at `position` in the viewport, or None off the picture."""
        if not self.has_picture():
            return None
        point = self.mapToScene(position.toPoint())
        x, y = math.floor(point.x()), math.floor(point.y())
        size = self.picture_size()
        if 0 <= x < size.width() and 0 <= y < size.height():
            return x, y
        return None

    def _tell_hover(self, position: QPointF) -> None:
        pixel = self.pixel_at(position)
        if pixel is None:
            if self._hovering:
                self._hovering = False
                self.hover_left.emit()
            return
        self._hovering = True
        before = self.is_split() and pixel[0] < self._item.divider_x()
        self.hovered.emit(*pixel, before)

    def leaveEvent(self, event) -> None:
        super().leaveEvent(event)
        if self._hovering:
            self._hovering = False
            self.hover_left.emit()

    def mouseMoveEvent(self, event) -> None:
        self._tell_hover(event.position())
        if self._dragging_divider:
            scene_x = self.mapToScene(event.position().toPoint()).x()
            width = self.picture_size().width()
            if width > 0:  # 0: the picture was cleared mid-drag; nothing to move
                self.set_divider(scene_x / width)
            event.accept()
            return
        super().mouseMoveEvent(event)
        if event.buttons() == Qt.MouseButton.NoButton:
            over = self._over_divider(event.position())
            shape = self.viewport().cursor().shape()
            if over and shape != Qt.CursorShape.SplitHCursor:
                self.viewport().setCursor(Qt.CursorShape.SplitHCursor)
            elif not over and shape == Qt.CursorShape.SplitHCursor:
                self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)  # the hand that pans

    def mouseReleaseEvent(self, event) -> None:
        if self._dragging_divider and event.button() == Qt.MouseButton.LeftButton:
            self._dragging_divider = False
            event.accept()
            return
        super().mouseReleaseEvent(event)


class ViewLink:
    """Keeps views at the same zoom, showing the same point of the picture, with their
    before/after dividers at the same place."""

    def __init__(self, views: list[ImageView]) -> None:
        self.views = views
        self._following = False
        for view in views:
            view.view_moved.connect(lambda view=view: self._follow(view))
            view.divider_moved.connect(self._move_dividers)

    def _move_dividers(self, fraction: float) -> None:
        # A view already there does not emit again, so this ends.
        for view in self.views:
            view.set_divider(fraction)

    def _follow(self, leader: ImageView) -> None:
        if self._following:
            return
        self._following = True
        try:
            center = leader.center()
            for view in self.views:
                if view is leader:
                    continue
                view._fit = leader.is_fitted()
                view.setTransform(leader.transform())
                view.centerOn(center)
        finally:
            self._following = False

    def zoom_by(self, factor: float) -> None:
        self.views[0].zoom_by(factor)

    def set_zoom(self, zoom: float) -> None:
        self.views[0].set_zoom(zoom)

    def fit_to_window(self) -> None:
        self.views[0].fit_to_window()
