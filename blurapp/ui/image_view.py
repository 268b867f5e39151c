"""Pictures that zoom and pan together, so every pane shows the same pixels; the before/after
divider drawn over them."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QFrame,
    QGraphicsScene,
    QGraphicsView,
    QWidget,
)

from blurapp.app.detail_place import Box, detail_inset_place
from blurapp.app.pyramid import Pyramid
from blurapp.ui.detail_inset import detail_label_rect, draw_detail
from blurapp.ui.picture_item import PictureItem

MIN_ZOOM = 1 / 64
MAX_ZOOM = 64.0
ZOOM_STEP = 1.25
# The before/after divider, in screen pixels: the mouse picks it up this close to its line,
# which is also the radius of its handle.
DIVIDER_REACH = 10
# Below this zoom a blur of a few pixels cannot be seen on screen (a 12 MP photo fits a pane at
# some 15%): the view then shows an inset of the pixels under the cursor at 100%.
DETAIL_BELOW_ZOOM = 0.5
DETAIL_SIZE = 220  # the inset's side, in screen pixels at most


def _box(rect: QRectF) -> Box:
    return Box(rect.x(), rect.y(), rect.width(), rect.height())


class ImageView(QGraphicsView):
    """One picture, zoomed with the wheel and panned by dragging; or two split by a divider
    the user drags, the one before on its left."""

    zoom_changed = Signal(float)
    view_moved = Signal()  # scrolled or zoomed: the linked views follow
    divider_moved = Signal(float)  # the fraction of the width left of it: linked views follow
    detail_moved = Signal(QPointF)  # the point the 100% inset shows: linked views follow
    clicked = Signal()
    focused = Signal()
    # The picture's pixel under the cursor (x, y), and whether it is left of the divider, in
    # the picture drawn there ("before"); hover_left: the cursor is off the picture.
    hovered = Signal(int, int, bool)
    hover_left = Signal()
    # The (height, width) in screen pixels the view fits a picture in (screen_size), as it
    # changes: what a picture fitted to it is made for (blurapp.app.pyramid.fit_picture).
    size_changed = Signal(int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setScene(QGraphicsScene(self))
        # One item: an index of where items lie finds nothing quicker, and each new picture
        # would have the scene update it.
        self.scene().setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self._item = PictureItem()
        self.scene().addItem(self._item)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setBackgroundBrush(Qt.GlobalColor.darkGray)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._fit = True
        # Linked with other views (ViewLink), the view shares their zoom: to fit, the one that
        # fits the picture in each of them.
        self._link: ViewLink | None = None
        self._dragging_divider = False
        self._detail_on = True
        self._detail_point: QPointF | None = None  # in picture pixels; None: its centre
        self._hovering = False
        self.viewport().setMouseTracking(True)  # the value under the cursor, buttons up too
        self.horizontalScrollBar().valueChanged.connect(self.view_moved)
        self.verticalScrollBar().valueChanged.connect(self.view_moved)

    # The picture ---------------------------------------------------------------------------

    def set_picture(
        self,
        levels: Pyramid | None,
        before: Pyramid | None = None,
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
        return self._item.image(0).copy() if self._item.levels() else QImage()

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

    # The 100% detail ----------------------------------------------------------------------

    def set_detail_on(self, on: bool) -> None:
        """Show the 100% inset while the picture is reduced below DETAIL_BELOW_ZOOM, or not."""
        self._detail_on = on
        self.viewport().update()

    def detail_point(self) -> QPointF:
        """The point of the picture the inset is centred on (picture pixels)."""
        if self._detail_point is not None:
            return self._detail_point
        return self._item.boundingRect().center()

    def set_detail_point(self, point: QPointF) -> None:
        if point != self._detail_point:
            self._detail_point = QPointF(point)
            self.viewport().update()
            self.detail_moved.emit(QPointF(point))

    def detail_rect(self) -> QRectF | None:
        """Where the inset is drawn (view pixels), or None when none is shown: where the picture
        is not, or else away from the pixels it shows (blurapp.app.detail_place)."""
        if not (self._detail_on and self.has_picture() and self.zoom() < DETAIL_BELOW_ZOOM):
            return None
        viewport = self.viewport().rect()
        size = self.picture_size()
        largest = min(DETAIL_SIZE, size.width(), size.height())
        # The inset's side when it cannot go beside the picture, and so the pixels it shows then.
        side = min(largest, viewport.width() / 2, viewport.height() / 2)
        shown = self.viewportTransform().mapRect(self._detail_source(round(side)))
        picture = self.viewportTransform().mapRect(self._item.boundingRect())
        place = detail_inset_place(
            Box(0, 0, viewport.width(), viewport.height()), _box(picture), _box(shown), largest
        )
        if place is None:
            return None
        return QRectF(round(place.x), round(place.y), round(place.width), round(place.width))

    def detail_source(self) -> QRectF | None:
        """The picture pixels the inset shows at 100%: a square around detail_point(), kept
        inside the picture."""
        target = self.detail_rect()
        if target is None:
            return None
        return self._detail_source(round(target.width()))

    def _detail_source(self, side: int) -> QRectF:
        size, point = self.picture_size(), self.detail_point()
        left = min(max(point.x() - side / 2, 0.0), size.width() - side)
        top = min(max(point.y() - side / 2, 0.0), size.height() - side)
        return QRectF(round(left), round(top), side, side)

    def detail_label(self) -> str:
        """The words the inset names itself with: what it is, not a bare "100%"."""
        return self.tr("Detail at 100%")

    def detail_label_rect(self) -> QRectF | None:
        """Where the inset's label is drawn (view pixels), or None when no inset is shown."""
        target = self.detail_rect()
        if target is None:
            return None
        return detail_label_rect(target, self.detail_label(), QFontMetricsF(self.font()))

    def _draw_detail(self, painter: QPainter) -> None:
        target = self.detail_rect()
        if target is None:
            return
        source = self._detail_source(round(target.width()))  # detail_source(), laid out once
        split = bool(self._item.before())
        painter.setFont(self.font())  # the type detail_label_rect() measures the label in
        draw_detail(
            painter,
            target,
            source,
            self._item.region(source),
            self._item.region(source, before=True) if split else None,
            self._item.divider_x() if split else None,
            self.viewportTransform().mapRect(source),
            self.detail_label(),
        )

    def drawForeground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        self._draw_detail(painter)
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
        area = self.fit_area()
        zoom = min(area.width() / size.width(), area.height() / size.height())
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
        self.size_changed.emit(*self.screen_size())

    def fit_area(self) -> QSize:
        """The area (view pixels) the zoom to fit fits the picture in: the view's own, or,
        linked with other views, the narrowest width and lowest height among them, so that
        the zoom they share fits it in each."""
        return self._link.fit_area() if self._link is not None else self.viewport().size()

    def screen_size(self) -> tuple[int, int]:
        """The (height, width) in screen pixels of the area the picture is fitted in (see
        fit_area): a picture fitted to it is the size the view draws it at its fitted zoom."""
        size, ratio = self.fit_area(), self.viewport().devicePixelRatioF()
        return round(size.height() * ratio), round(size.width() * ratio)

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
        if event.buttons() == Qt.MouseButton.NoButton and self.has_picture():
            self.set_detail_point(self.mapToScene(event.position().toPoint()))
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
            view._link = self
            view.view_moved.connect(lambda view=view: self._follow(view))
            view.divider_moved.connect(self._move_dividers)
            view.detail_moved.connect(self._move_details)

    def fit_area(self) -> QSize:
        """The narrowest width and lowest height of the views (view pixels): the zoom to fit
        that fits a picture in this fits it in each view, a view a pixel wider than another
        (a window of an odd width) among them."""
        sizes = [view.viewport().size() for view in self.views]
        return QSize(min(size.width() for size in sizes), min(size.height() for size in sizes))

    def _move_dividers(self, fraction: float) -> None:
        # A view already there does not emit again, so this ends.
        for view in self.views:
            view.set_divider(fraction)

    def _move_details(self, point: QPointF) -> None:
        for view in self.views:
            view.set_detail_point(point)

    def set_detail_on(self, on: bool) -> None:
        for view in self.views:
            view.set_detail_on(on)

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
