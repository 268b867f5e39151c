"""Type sizes the widgets set for themselves (presentation mode's large type)."""

from __future__ import annotations

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QWidget


def scaled_font(widget: QWidget, factor: float) -> QFont:
    """A font for a child of `widget`: `factor` times `widget`'s type size, everything else
    inherited (a style sheet's bold stays bold). At 1, the child simply inherits again."""
    font = QFont()
    if factor != 1:
        base = widget.font()
        if base.pointSizeF() > 0:
            font.setPointSizeF(base.pointSizeF() * factor)
        else:
            font.setPixelSize(round(base.pixelSize() * factor))
    return font
