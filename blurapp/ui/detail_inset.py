"""The 100% inset a reduced picture shows of the pixels under the cursor: at fit zoom a blur of
a few pixels cannot be seen, at 100% it can."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen


def draw_detail(
    painter: QPainter,
    target: QRectF,
    source: QRectF,
    image: QImage,
    before: QImage | None,
    divider: float | None,
    marked: QRectF,
) -> None:
    """Draw `source` (picture pixels), whose pixels `image` holds (and `before`, the picture
    before, when split), at 100% into `target` (view pixels), each side of the before/after
    `divider` from its own picture when there is one, and mark `source`'s place on the
    picture (`marked`, in view pixels)."""
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
    label = QRectF(target.left() + 4, target.bottom() - 20, 60, 18)
    painter.fillRect(label, QColor(0, 0, 0, 160))
    painter.drawText(label, Qt.AlignmentFlag.AlignCenter, "100%")
    painter.restore()
