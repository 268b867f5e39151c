"""A result pane: its engine's choice, its picture (an ImageView, blurapp.ui.image_view) and its
caption, the captions of the panes kept level with each other."""

from __future__ import annotations

import html
import math
import re
from typing import cast

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import (
    QFont,
    QFontMetricsF,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QVBoxLayout,
    QWidget,
)

from blurapp.app.caption_room import LONGEST_RUN_CAPTION, CaptionRoom, reserved_height
from blurapp.app.captions import Caption
from blurapp.ui.colours import NOTE_COLOUR, SELECTED_COLOUR
from blurapp.ui.fonts import scaled_font
from blurapp.ui.image_view import ImageView
from blurapp.ui.text_fitting import WORD_JOINER, keep_whole


def caption_html(caption: Caption, out_of_date: str) -> str:
    """A pane's caption as the label shows it: the heading bold, an out-of-date mark amber."""
    text = f"<b>{html.escape(keep_whole(caption.heading))}</b>"
    text += "".join(f" · {html.escape(keep_whole(detail))}" for detail in caption.details)
    if caption.out_of_date:
        mark = html.escape(out_of_date)
        text += f' · <span style="color:{NOTE_COLOUR}; font-weight:bold">{mark}</span>'
    return text


# Caption heights a pane keeps, laid out once each (ResultPane._height_of), and narrowest widths
# (_CaptionPlace.follow_label).
HEIGHTS_KEPT = 16

# A figure: digits, with the points and commas between them.
_FIGURE = re.compile("[0-9][0-9.,]*")
# Font keys → whether the font's digits, regular and bold, are all as wide as each other.
_tabular: dict[str, bool] = {}


def layout_key(text: str, font: QFont) -> str:
    """What `text`'s layout in `font` depends on: where the font draws all digits as wide (the
    tabular figures of the usual screen fonts), the text with each figure as wide as before
    but the same for all figures of as many digits and points ("16.5" and "6.77" both "000."),
    so captions that differ in their figures only (a live preview's every change) are laid
    out once; the text itself in a font whose digits differ in width."""
    key = font.key()
    tabular = _tabular.get(key)
    if tabular is None:
        bold = QFont(font)
        bold.setBold(True)
        tabular = _tabular[key] = all(
            len({QFontMetricsF(each).horizontalAdvance(digit) for digit in "0123456789"}) == 1
            for each in (font, bold)
        )
    return _FIGURE.sub(_same_width, text) if tabular else text


def _same_width(figure: re.Match[str]) -> str:
    """A figure's stand-in in a layout_key: its digits as 0s, then its points and commas."""
    digits = sum(character.isdigit() for character in figure[0])
    return "0" * digits + "".join(sorted(c for c in figure[0] if not c.isdigit()))


class _CaptionPlace(QWidget):
    """Where a pane's caption goes in its layout: the label fills it, and a new text lays out
    nothing but the label. A label in the pane's layout had the whole window laid out again,
    and repainted, at every new text (the live preview's every change, twice); the place is
    laid out again only when the label's narrowest width changes (its longest unbreakable
    run), which the pane cannot be narrower than."""

    def __init__(self, label: QLabel) -> None:
        super().__init__()
        label.setParent(self)
        self._label = label
        self._narrowest = label.minimumSizeHint().width()
        # The label's narrowest width by the layout_key of its text and its font's key: a label
        # lays out its whole text to answer, at every change of the live preview.
        self._narrowest_of: dict[tuple[str, str], int] = {}

    def minimumSizeHint(self) -> QSize:
        return QSize(self._narrowest, self.minimumHeight())

    def sizeHint(self) -> QSize:
        return QSize(self._narrowest, self.minimumHeight())

    def follow_label(self) -> None:
        """The label's text or type changed: lay out again if its narrowest width did."""
        font = self._label.font()
        at = (layout_key(self._label.text(), font), font.key())
        narrowest = self._narrowest_of.get(at)
        if narrowest is None:
            narrowest = self._label.minimumSizeHint().width()
            if len(self._narrowest_of) >= HEIGHTS_KEPT:
                del self._narrowest_of[next(iter(self._narrowest_of))]  # the oldest
            self._narrowest_of[at] = narrowest
        if narrowest != self._narrowest:
            self._narrowest = narrowest
            self.updateGeometry()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._label.setGeometry(0, 0, self.width(), self._label.height())


class ResultPane(QFrame):
    """A captioned image view under a choice of engine: which engine, on which device, how fast."""

    selected = Signal()
    engine_chosen = Signal(str)  # the user picked another engine for this pane
    caption_reflowed = Signal()  # the caption's text or width changed: its height may have to

    def __init__(
        self, engines: list[tuple[str, str]], engine: str, parent: QWidget | None = None
    ) -> None:
        """`engines`: (name, title) of each engine the pane can show; `engine`: the one shown."""
        super().__init__(parent)
        self.setObjectName("pane")
        self.engine_combo = QComboBox()
        self.engine_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for name, title in engines:
            self.engine_combo.addItem(title, name)
        self.engine_combo.setToolTip(self.tr("The engine this pane shows"))
        self.engine_combo.currentIndexChanged.connect(
            lambda _: self.engine_chosen.emit(self.engine_combo.currentData())
        )
        self.title = ""
        # caption_height_reserved's answer and the width and type it was laid out at.
        self._reserved: tuple[tuple[int, str], int] | None = None
        # The heights of the captions laid out lately, by (text, width, type): CaptionLink asks
        # for both panes' at every change of either's caption.
        self._heights: dict[tuple[str, int, str], int] = {}
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setTextFormat(Qt.TextFormat.RichText)
        self.caption.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        # Room for two lines at least; CaptionLink gives both panes' captions the height of the
        # taller one's whole text.
        self._caption_place = _CaptionPlace(self.caption)
        self.set_caption_height(self.smallest_caption_height())
        self.view = ImageView(self)
        self.view.clicked.connect(self.selected)
        self.view.focused.connect(self.selected)
        self.engine_combo.activated.connect(lambda _: self.selected.emit())
        self.placeholder = QLabel(self.view)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.placeholder.setStyleSheet("color: #f0f0f0; font-size: 12pt; padding: 12px;")
        self.placeholder.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        header = QHBoxLayout()
        header.addWidget(self.engine_combo)
        header.addStretch(1)
        layout.addLayout(header)
        layout.addWidget(self._caption_place)
        layout.addWidget(self.view, 1)
        self.set_engine(engine)
        self.set_selected(False)

    def engine(self) -> str:
        return self.engine_combo.currentData()

    def set_engine(self, engine: str) -> None:
        """Show `engine` as the pane's choice (without emitting engine_chosen)."""
        index = self.engine_combo.findData(engine)
        if index < 0:
            raise ValueError(f"this pane cannot show {engine!r}")
        self.engine_combo.blockSignals(True)
        self.engine_combo.setCurrentIndex(index)
        self.engine_combo.blockSignals(False)
        self.title = title = self.engine_combo.itemText(index)
        pane_name = self.tr("Engine of the {engine} pane").format(engine=title)
        self.engine_combo.setAccessibleName(pane_name)
        self.view.setAccessibleName(self.tr("{engine} image").format(engine=title))
        self.view.setToolTip(
            self.tr(
                "{engine}: wheel or Ctrl +/− to zoom, drag or arrow keys to pan;"
                " both panes move together"
            ).format(engine=title)
        )

    def set_caption(self, html: str) -> None:
        if html != self.caption.text():
            self.caption.setText(html)
            self._caption_place.follow_label()
            self.caption_reflowed.emit()

    def set_caption_scale(self, factor: float) -> None:
        """Set the caption in `factor` times the pane's type size; 1 is the normal size."""
        self.caption.setFont(scaled_font(self, factor))
        self._caption_place.follow_label()
        self.caption_reflowed.emit()  # its lines are taller now, or shorter

    def set_caption_height(self, height: int) -> None:
        """Give the caption `height` pixels (CaptionLink: both panes' the same)."""
        self._caption_place.setFixedHeight(height)
        self.caption.setFixedHeight(height)

    def smallest_caption_height(self) -> int:
        return 2 * self.caption.fontMetrics().lineSpacing() + 4

    def caption_width(self) -> int:
        """The width the caption's text wraps at."""
        width = cast(QLayout, self.layout()).contentsRect().width()  # the one __init__ set
        return width if width > 0 else self.caption.width()

    def caption_height_reserved(self) -> int:
        """The height kept for the caption a run brings (blurapp.app.caption_room), laid out
        once a width and type: asked at every change of caption, as often as a playing clip's
        frames."""
        at = (self.caption_width(), self.caption.font().key())
        if self._reserved is None or self._reserved[0] != at:
            longest = self._height_of(caption_html(LONGEST_RUN_CAPTION, ""))
            height = reserved_height(longest, self.caption.fontMetrics().lineSpacing()) + 4
            self._reserved = (at, height)
        return self._reserved[1]

    def caption_height_needed(self) -> int:
        """The height at which the caption shows its whole text, wrapped to the pane's width."""
        return max(self.smallest_caption_height(), self._height_of(self.caption.text()))

    def _height_of(self, html: str) -> int:
        """The height of the caption label showing `html`, wrapped to the pane's width: laid out
        as the label lays it out (the label's own heightForWidth would never go below the
        height it was last fixed at)."""
        margins = self.caption.contentsMargins()
        width = max(1, self.caption_width() - margins.left() - margins.right())
        font = self.caption.font()
        at = (layout_key(html, font), width, font.key())
        height = self._heights.get(at)
        if height is None:
            document = QTextDocument()
            document.setDocumentMargin(0)
            document.setDefaultFont(self.caption.font())
            document.setHtml(html)
            document.setTextWidth(width)
            height = math.ceil(document.size().height())
            if len(self._heights) >= HEIGHTS_KEPT:
                del self._heights[next(iter(self._heights))]  # the oldest
            self._heights[at] = height
        return height + margins.top() + margins.bottom()

    def caption_text(self) -> str:
        """The caption as a user reads it, without markup."""
        document = QTextDocument()
        document.setHtml(self.caption.text())
        return document.toPlainText().replace(WORD_JOINER, "")

    def set_placeholder(self, text: str) -> None:
        self.placeholder.setText(text)
        self.placeholder.setVisible(bool(text))
        self.placeholder.resize(self.view.size())

    def placeholder_text(self) -> str:
        return "" if self.placeholder.isHidden() else self.placeholder.text()

    def set_selected(self, selected: bool) -> None:
        border = SELECTED_COLOUR if selected else "transparent"
        self.setStyleSheet(f"QFrame#pane {{ border: 2px solid {border}; border-radius: 3px; }}")

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.placeholder.resize(self.view.size())
        if event.size().width() != event.oldSize().width():
            self.caption_reflowed.emit()


class CaptionLink:
    """Gives the captions of panes side by side one height, the one the longest needs to show
    its whole text, and at least the room a run's caption takes (blurapp.app.caption_room):
    captions never clip, the views below them stay the same size, so both show the picture at
    the same scale, and a run's longer caption does not push the pictures down."""

    def __init__(self, panes: list[ResultPane]) -> None:
        self.panes = panes
        self._room = CaptionRoom()
        for pane in panes:
            pane.caption_reflowed.connect(self.align)

    def align(self) -> None:
        first = self.panes[0]
        at = (first.caption_width(), first.caption.fontMetrics().lineSpacing())
        height = self._room.height(
            at,
            max(pane.caption_height_needed() for pane in self.panes),
            max(pane.caption_height_reserved() for pane in self.panes),
        )
        for pane in self.panes:
            if pane.caption.height() != height:
                pane.set_caption_height(height)
