"""The 100% inset a reduced picture shows of the pixels under the cursor: at fit zoom a blur of
a few pixels cannot be seen, at 100% it can."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QImage, QPainter, QPen

LABEL_PADDING = 6  # px each side of the label's words


def detail_label_rect(target: QRectF, label: str, metrics: QFontMetricsF) -> QRectF:
    """Where the inset at `target` names itself (`label`, in type of `metrics`): its bottom
    left, as wide as the words and no wider than the inset."""
    width = min(metrics.horizontalAdvance(label) + 2 * LABEL_PADDING, target.width() - 8)
    height = metrics.height() + 4
    return QRectF(target.left() + 4, target.bottom() - 4 - height, width, height)


def draw_detail(
    painter: QPainter,
    target: QRectF,
    source: QRectF,
    image: QImage,
    before: QImage | None,
    divider: float | None,
    marked: QRectF,
    label: str,
) -> None:
    """Draw `source` (picture pixels), whose pixels `image` holds (and `before`, the picture
    before, when split), at 100% into `target` (view pixels), each side of the before/after
    `divider` from its own picture when there is one, named `label` ("Detail at 100%"), and
    mark `source`'s place on the picture (`marked`, in view pixels)."""
    painter.save()
    painter.resetTransform()
    parts = [(image, source)]
    if before is not None and divider is not None:
        left = QRectF(
            source.left(), source.top(), max(0.0, divider - source.left()), source.height()
        )
        right = QRectF(divider, source.top(), max(0.0, source.right() - divider), source.height())
        parts = [(before, left.intersected(source)), (image, right.intersected(source))]
    for picture, part in parts:
        if part.isEmpty():
            continue
        on_screen = QRectF(
            target.left() + part.left() - source.left(),
            target.top() + part.top() - source.top(),
            part.width(),
            part.height(),
        )
        painter.drawImage(on_screen, picture, part.translated(-source.topLeft()))
    painter.setPen(QPen(QColor(255, 255, 255), 2))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(target)
    painter.setPen(QPen(QColor(255, 255, 255), 1, Qt.PenStyle.DashLine))
    painter.drawRect(marked)
    painter.setPen(QColor(255, 255, 255))
    metrics = QFontMetricsF(painter.font())
    place = detail_label_rect(target, label, metrics)
    painter.fillRect(place, QColor(0, 0, 0, 160))
    shown = metrics.elidedText(
        label, Qt.TextElideMode.ElideRight, place.width() - 2 * LABEL_PADDING
    )
    painter.drawText(place, Qt.AlignmentFlag.AlignCenter, shown)
    painter.restore()
