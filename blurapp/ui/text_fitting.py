"""Text that fits where the window shows it: figures and captions that never wrap inside a unit
or a symbol, a status line that elides rather than run into its neighbours, a progress bar as
wide as its words.

The words themselves (blurapp.core.report.figures, blurapp.app.captions) keep plain spaces: the
JSON, the command line and the log read them as they are. Only the window's rendering joins them.
"""

from __future__ import annotations

import functools
import re

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter
from PySide6.QtWidgets import QLabel, QProgressBar, QStyle, QStyleOptionProgressBar, QWidget

NO_BREAK = "\u00a0"  # as wide as a space, and no line breaks at it
WORD_JOINER = "\u2060"  # no width, and no line break either side of it
# "9 × 9", "σ 2.5", "sigma 2.5", "0.24 MP", "10.3 ms", "1.2 GB/s": a number with the unit or
# symbol beside it reads as one word.
_UNITS = r"(?:ms|s|µs|MP|GB/s|MB/s|GB|MB|pixels|levels|px)"
_TOGETHER = [
    (re.compile(r"(\d) × (\d)"), rf"\1{NO_BREAK}×{NO_BREAK}\2"),
    (re.compile(r"(σ|sigma) (\d)"), rf"\1{NO_BREAK}\2"),
    (re.compile(rf"(\d) ({_UNITS})(?![\w/])"), rf"\1{NO_BREAK}\2"),
    # "GB/s", "MB/s", "frames/s": no line break after the slash.
    (re.compile(r"(\w)/(s)\b"), rf"\1/{WORD_JOINER}\2"),
]


# Captions and figures are rendered again at every change of the parameters and every frame a
# clip shows, mostly from the phrases they had before.
@functools.lru_cache(maxsize=1024)
def keep_whole(text: str) -> str:
    """`text` with the spaces inside a number and its unit or symbol made non-breaking."""
    for pattern, replacement in _TOGETHER:
        text = pattern.sub(replacement, text)
    return text


class ElidedLabel(QLabel):
    """A one-line label that shows as much of its text as fits, ending in "…", and the whole
    text as its tooltip when cut; text() is always the whole text. It asks for no width, so a
    long message never pushes its neighbours aside or runs into them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)

    def setText(self, text: str) -> None:
        if text == self.text():
            return  # a playing clip's status, set at every look, is mostly what it was
        super().setText(text)
        self._update_tooltip()

    def shown_text(self) -> str:
        """The text as drawn at the label's width."""
        metrics = QFontMetrics(self.font())
        return metrics.elidedText(
            self.text(), Qt.TextElideMode.ElideRight, self.contentsRect().width()
        )

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        return QSize(0, super().sizeHint().height())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._update_tooltip()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        # Type of another size or weight (presentation mode's, a style sheet's bold) cuts the
        # same words elsewhere; setText leaves words it has unchanged alone.
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._update_tooltip()

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().windowText().color())
        painter.drawText(
            self.contentsRect(),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            self.shown_text(),
        )

    def _update_tooltip(self) -> None:
        cut = self.shown_text() != self.text()
        self.setToolTip(self.text() if cut else "")


TEXT_ROOM = 24  # the progress bar's frame, and a little room either side of its text


class FittingProgressBar(QProgressBar):
    """A progress bar at least as wide as its text at 100 % ("JAX without jit 100%")."""

    def setFormat(self, text: str) -> None:
        super().setFormat(text)
        self.updateGeometry()

    def text_width(self) -> int:
        """The width its text takes at its widest."""
        widest = self.format().replace("%p", "100").replace("%v", str(self.maximum()))
        widest = widest.replace("%m", str(self.maximum()))
        return QFontMetrics(self.font()).horizontalAdvance(widest)

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(max(hint.width(), self._width_for_text()), hint.height())

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(max(hint.width(), self._width_for_text()), hint.height())

    def text_rect_width(self) -> int:
        """How wide the style gives the bar's text at the bar's width now."""
        option = QStyleOptionProgressBar()
        self.initStyleOption(option)
        rect = self.style().subElementRect(QStyle.SubElement.SE_ProgressBarLabel, option, self)
        return rect.width()

    def _width_for_text(self) -> int:
        return self.text_width() + TEXT_ROOM
