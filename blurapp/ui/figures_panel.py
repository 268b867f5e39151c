"""The figures of the last comparison, and its timings as bars a demo audience can read."""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import cast

from PySide6.QtCore import QCoreApplication, QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPolygonF
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLayoutItem,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from blurapp.app.captions import ENGINES_CONTEXT
from blurapp.app.figures_column import SPEEDUP_SAMPLE
from blurapp.core.engines.runs import PaidFirstCall
from blurapp.core.measuring.comparison import ComparisonResult
from blurapp.core.report.chart_bars import timing_bars
from blurapp.core.report.chart_layout import ChartLayout, chart_layout
from blurapp.core.report.figures import CONTEXT, Figure, comparison_figures
from blurapp.ui.colours import NOTE_COLOUR, WARNING_COLOUR
from blurapp.ui.fonts import scaled_font
from blurapp.ui.text_fitting import ElidedLabel, keep_whole


def figure_text(text: str) -> str:
    """A phrase of blurapp.core.report.figures in the user's language."""
    return QCoreApplication.translate(CONTEXT, text)


def row_name_text(label: str) -> str:
    """A figure row's label in the user's language: a row of the figures, or an engine's title."""
    translated = figure_text(label)
    if translated == label:
        translated = QCoreApplication.translate(ENGINES_CONTEXT, label)
    return translated


class TimingChart(QWidget):
    """Horizontal bars for every engine's time (NumPy, JAX without jit, JAX's first call, JAX
    steady, …), their length proportional to time; a bar that would dwarf the others is drawn
    broken, with its time beside it. Bars are named as given, already in the user's language."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._bars: list[tuple[str, float, QColor]] = []
        self._headline: tuple[str, ...] = ()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setToolTip(
            self.tr(
                "Bar length is proportional to time. A bar with a break is too long to draw "
                "to scale; its time is printed beside it."
            )
        )

    def set_timings(
        self, bars: list[tuple[str, float, QColor]], headline: Collection[str] = ()
    ) -> None:
        """Draw `bars` (name, seconds, colour), the axis made for the bars named in `headline`
        (blurapp.core.report.chart_layout)."""
        self._bars = [(name, seconds, colour) for name, seconds, colour in bars if seconds > 0]
        self._headline = tuple(headline)
        self.updateGeometry()
        self.update()

    def bars(self) -> list[tuple[str, float]]:
        return [(name, seconds) for name, seconds, _ in self._bars]

    def colours(self) -> dict[str, str]:
        """Each bar's colour ('#8172b3'), by the bar's name."""
        return {name: colour.name() for name, _, colour in self._bars}

    def layout_for_width(self, width: int) -> ChartLayout:
        """The geometry paintEvent draws at `width`, in this widget's font."""
        metrics = QFontMetrics(self.font())
        named = [(name, seconds) for name, seconds, _ in self._bars]
        return chart_layout(named, width, metrics.horizontalAdvance, self._headline)

    def _row_heights(self, layout: ChartLayout) -> list[int]:
        """Each bar's row: as many lines high as its name takes."""
        line = QFontMetrics(self.font()).height()
        return [max(1, len(bar.name_lines)) * line + 8 for bar in layout.bars]

    def heightForWidth(self, width: int) -> int:
        """The height the chart needs at `width` (its sizeHint's at its own width: the
        scrolling rows ask their widgets for no height for width)."""
        line = QFontMetrics(self.font()).height()
        rows = sum(self._row_heights(self.layout_for_width(width))) if self._bars else line + 8
        return rows + line + 10

    def sizeHint(self) -> QSize:
        return QSize(320, self.heightForWidth(max(self.width(), 220)))

    def minimumSizeHint(self) -> QSize:
        return QSize(220, self.sizeHint().height())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        # Narrower, a long name may wrap to another line: the rows grow.
        if self.heightForWidth(event.size().width()) != self.height():
            self.updateGeometry()

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        metrics = QFontMetrics(self.font())
        text_colour = self.palette().windowText().color()
        background = self.palette().window().color()
        if not self._bars:
            painter.setPen(text_colour)
            painter.drawText(
                self.rect(), Qt.AlignmentFlag.AlignCenter, self.tr("Timings appear after a run")
            )
            return
        layout = self.layout_for_width(self.width())
        heights = self._row_heights(layout)
        tops = list(itertools.accumulate(heights, initial=0))
        bottom = tops[-1]

        # An axis under the bars with tick marks, no grid lines: nothing runs through the bars'
        # printed times, and each bar's time is printed anyway.
        painter.setPen(text_colour)
        zero = round(layout.bar_left) - 1  # bars start just right of it
        painter.drawLine(zero, 0, zero, bottom)
        painter.drawLine(zero, bottom, round(layout.axis_end), bottom)
        for tick in layout.ticks:
            painter.drawLine(round(tick.x), bottom, round(tick.x), bottom + 3)
            painter.drawText(round(tick.label_left), bottom + metrics.ascent() + 5, tick.label)

        # In whole pixels, as Qt takes them (truncated, as PySide6 makes a float).
        name_room = int(layout.name_width - 6)
        for index, (bar, (_, _, colour)) in enumerate(zip(layout.bars, self._bars, strict=True)):
            top = tops[index] + 3
            height = heights[index] - 6
            painter.setPen(text_colour)
            painter.drawText(
                QRectF(0, top, layout.name_width - 6, height),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                "\n".join(
                    metrics.elidedText(line, Qt.TextElideMode.ElideRight, name_room)
                    for line in bar.name_lines
                ),
            )
            # Whole pixels: crisp edges, and the painted length is the computed one. Every bar
            # one line thick, in the middle of a row its name's second line makes taller.
            left = round(layout.bar_left)
            thickness = metrics.height() + 2
            top += (height - thickness) // 2
            painter.fillRect(QRect(left, top, round(bar.end) - left, thickness), colour)
            if bar.broken:
                assert layout.break_x is not None  # laid out with a break when a bar is broken
                self._draw_break(painter, layout.break_x, top, thickness, background)
            painter.drawText(
                QRectF(bar.value_left, top, metrics.horizontalAdvance(bar.value) + 2, thickness),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                bar.value,
            )

    @staticmethod
    def _draw_break(painter: QPainter, x: float, top: int, height: int, background: QColor) -> None:
        """A slanted gap across the bar: the mark readers know for 'longer than drawn'."""
        slant, gap = 4, 3
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(background)
        painter.drawPolygon(
            QPolygonF(
                [
                    QPointF(x + slant, top - 1),
                    QPointF(x + slant + gap, top - 1),
                    QPointF(x - slant + gap, top + height + 1),
                    QPointF(x - slant, top + height + 1),
                ]
            )
        )
        painter.restore()


class _VerticalScroll(QScrollArea):
    """Scrolls `content` up and down, never sideways: it is as wide as the content needs."""

    def __init__(self, content: QWidget) -> None:
        super().__init__()
        self.setWidget(content)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def minimumSizeHint(self) -> QSize:
        scroll_bar = self.verticalScrollBar().sizeHint().width()
        content = cast(QWidget, self.widget())  # the one given to __init__
        width = content.minimumSizeHint().width() + scroll_bar
        return QSize(width, super().minimumSizeHint().height())


@dataclass(frozen=True)
class RowArrangement:
    """Which of the figures' rows show, in what order, and how (FiguresPanel.arrange_rows).
    Rows are named by their keys (Figure.key)."""

    first: tuple[str, ...] = ()  # shown before the others, in this order
    hidden: frozenset[str] = frozenset()  # left out
    # Each name above its value, which gets the panel's whole width: room for large type, and
    # no long name can push the values past the panel's edge.
    stacked: bool = False
    # Each value's figure in the rows' type and, beside it, how it was measured
    # (Figure.measured) in type this many times the panel's: a short row for each figure.
    detail_scale: float | None = None
    # The speed-up above the chart, out of the rows' scrolling: its figure in large type
    # (FiguresPanel.set_speedup_scale) and how it was measured beside it in the rows' type; and
    # under it, whole, the warning that the times cannot be trusted, when they cannot.
    headline: bool = False
    # With the headline: the rows first under it, above the chart, each on one line: its name,
    # its figure and how it was measured, cut short with "…" where the panel is narrow (whole
    # in its tooltip).
    pinned: tuple[str, ...] = ()


# Outside presentation mode the speed-up heads the figures, read first at every window size,
# with the warning that says what it is worth; the steady times it divides and the largest
# difference come under it, on screen in a 1024 × 640 window, where the rows below the chart
# scroll.
WINDOW_ROWS = RowArrangement(headline=True, pinned=("numpy.steady", "jit.steady", "max_abs_diff"))


class FiguresPanel(QGroupBox):
    """Every figure of the last comparison, visible at a glance."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Figures"), parent)
        self._grid = QGridLayout()
        self._grid.setHorizontalSpacing(12)
        self._grid.setVerticalSpacing(3)
        self._grid.setColumnStretch(1, 1)
        self.stale_label = QLabel()
        self.stale_label.setStyleSheet(f"color: {NOTE_COLOUR}; font-weight: bold;")
        self.stale_label.setWordWrap(True)
        self.stale_label.hide()
        self.chart = TimingChart()
        self.chart_caption = QLabel(self.tr("Time per blur (ms)"))
        self.chart_caption.setStyleSheet("color: gray;")
        # The speed-up, when the arrangement heads the figures with it.
        self.headline = QWidget()
        self.headline_figure = QLabel()
        self.headline_figure.setStyleSheet("font-weight: bold;")
        self.headline_figure.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.headline_name = QLabel()
        self.headline_name.setStyleSheet("color: gray;")
        self.headline_detail = QLabel()
        self.headline_detail.setWordWrap(True)
        self.headline_detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        words = QVBoxLayout()
        words.setContentsMargins(0, 0, 0, 0)
        words.setSpacing(0)
        words.addWidget(self.headline_name)
        words.addWidget(self.headline_detail)
        words.addStretch(1)
        speedup = QHBoxLayout()
        speedup.setSpacing(10)
        speedup.addWidget(self.headline_figure, 0, Qt.AlignmentFlag.AlignTop)
        speedup.addLayout(words, 1)
        self.headline_warning = QLabel()
        self.headline_warning.setWordWrap(True)
        self.headline_warning.setStyleSheet(f"color: {WARNING_COLOUR}; font-weight: bold;")
        self.headline_warning.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # The pinned rows (RowArrangement.pinned): name, figure, how it was measured.
        self._pinned_grid = QGridLayout()
        self._pinned_grid.setContentsMargins(0, 0, 0, 4)
        self._pinned_grid.setHorizontalSpacing(8)
        self._pinned_grid.setVerticalSpacing(1)
        self._pinned_grid.setColumnStretch(2, 1)
        headline_layout = QVBoxLayout(self.headline)
        headline_layout.setContentsMargins(0, 0, 0, 4)
        headline_layout.setSpacing(2)
        headline_layout.addLayout(speedup)
        headline_layout.addWidget(self.headline_warning)
        self.headline.hide()
        self._speedup_scale = 1.0  # the headline's figure's type, set_speedup_scale
        # Wrapped rows need more height the narrower the panel; a window's layout does not ask
        # for that height, so the rows and chart scroll when the panel is short rather than
        # being squeezed into each other.
        figures = QWidget()
        figures_layout = QVBoxLayout(figures)
        figures_layout.setContentsMargins(0, 0, 0, 0)
        # The pinned rows first, a short line each: the figures a reader looks for after a Run
        # show in a 1024 × 640 window. Then the chart, read at a glance, and the other rows.
        # (Out of the scrolling, with the speed-up, they squeezed its words at 800 × 600.)
        figures_layout.addLayout(self._pinned_grid)
        figures_layout.addWidget(self.chart_caption)
        figures_layout.addWidget(self.chart)
        figures_layout.addSpacing(6)
        figures_layout.addLayout(self._grid)
        figures_layout.addStretch(1)
        self._scroll = _VerticalScroll(figures)
        layout = QVBoxLayout(self)
        layout.addWidget(self.stale_label)
        layout.addWidget(self.headline)
        layout.addWidget(self._scroll, 1)
        self._values: dict[str, QLabel] = {}  # the label of each row's value (its figure)
        self._details: dict[str, QLabel] = {}  # how it was measured, when shown apart
        self._texts: dict[str, str] = {}  # each row's whole text, by its key
        self._font_scale = (1.0, 1.0)  # the figures', the speed-up's; see set_font_scale
        self._arrangement = RowArrangement()
        self._shown: list[Figure] = []

    def show_rows(self, rows: list[Figure]) -> None:
        """`rows`, each its label and its text; an alarming one (a difference outside the
        tolerance, the warning that the times cannot be trusted) in the warning colour."""
        while self._grid.count():
            widget = cast(QLayoutItem, self._grid.takeAt(0)).widget()  # one of count()
            if widget is not None:
                widget.hide()  # at once: deleteLater alone leaves it painted until later
                widget.deleteLater()
        self._values, self._details, self._texts = {}, {}, {}
        self._shown = list(rows)
        arrangement = self._arrangement
        rows = [row for row in rows if row.key not in arrangement.hidden]
        speedup = next((row for row in rows if row.key == "speedup"), None)
        warning = next((row for row in rows if row.key == "warning"), None)
        if not arrangement.headline or speedup is None:
            speedup = warning = None
        pinned = {row.key: row for row in rows if row.key in arrangement.pinned}
        if speedup is None:
            pinned = {}
        pinned_rows = [pinned[key] for key in arrangement.pinned if key in pinned]
        self._show_headline(speedup, warning, pinned_rows)
        rows = [
            row
            for row in rows
            if row is not speedup and row is not warning and row.key not in pinned
        ]
        first = {key: index for index, key in enumerate(arrangement.first)}
        rows.sort(key=lambda row: first.get(row.key, len(first)))  # the rest keep their order
        line = 0  # in the grid: a stacked row takes two
        for row in rows:
            name = row.key
            self._texts[name] = row.text
            name_label = QLabel(row_name_text(row.label))
            name_label.setStyleSheet("color: gray;")
            texts = [row.text]
            if arrangement.detail_scale is not None:
                texts = [row.figure, row.measured]
            labels = [QLabel(keep_whole(text)) for text in texts if text]
            for label in labels:
                label.setWordWrap(True)
                label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                if row.alarming:
                    label.setStyleSheet(f"color: {WARNING_COLOUR}; font-weight: bold;")
                elif name == "speedup":
                    label.setStyleSheet("font-weight: bold;")
            value_label = labels[0]
            if len(labels) > 1:
                labels[1].setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
                self._details[name] = labels[1]
            if arrangement.stacked:
                self._grid.addWidget(name_label, line, 0, 1, 2)
                line += 1
                if len(labels) > 1 and row.value is None:
                    # Words, not a number ("these times cannot be trusted"): the panel's whole
                    # width for them, and their reason under them.
                    self._grid.addWidget(value_label, line, 0, 1, 2)
                    line += 1
                    self._grid.addWidget(labels[1], line, 0, 1, 2)
                elif len(labels) > 1:
                    # A number keeps its line, so that its column is only as wide as the widest
                    # figure and the words beside it get the rest (a wrapped label would ask
                    # for some 200 px, and each detail wrap to a third line on a 1600 px
                    # screen).
                    value_label.setWordWrap(False)
                    self._grid.addWidget(value_label, line, 0, Qt.AlignmentFlag.AlignVCenter)
                    self._grid.addWidget(labels[1], line, 1, Qt.AlignmentFlag.AlignVCenter)
                else:
                    self._grid.addWidget(value_label, line, 0, 1, 2)
            else:
                self._grid.addWidget(name_label, line, 0, Qt.AlignmentFlag.AlignTop)
                self._grid.addWidget(value_label, line, 1)
            line += 1
            self._values[name] = value_label
        self._apply_font_scale()
        self._scroll.updateGeometry()  # the widest row may have changed

    def _show_headline(
        self, row: Figure | None, warning: Figure | None, pinned: Sequence[Figure] = ()
    ) -> None:
        """The speed-up's row `row` above the chart with the `warning` row and then the
        `pinned` rows under it, or no headline."""
        while self._pinned_grid.count():
            widget = cast(QLayoutItem, self._pinned_grid.takeAt(0)).widget()  # one of count()
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        self.headline.setVisible(row is not None)
        self.headline_warning.setVisible(warning is not None)
        if row is not None:
            self.headline_figure.setText(keep_whole(row.figure))
            self.headline_name.setText(row_name_text(row.label))
            self.headline_detail.setText(keep_whole(row.measured))
            self.headline_detail.setVisible(bool(row.measured))
            style = f"color: {WARNING_COLOUR}; font-weight: bold;" if row.alarming else ""
            self.headline_detail.setStyleSheet(style)
            self._texts[row.key] = row.text
            self._values[row.key] = self.headline_figure
            if row.measured:
                self._details[row.key] = self.headline_detail
        if warning is not None:
            self.headline_warning.setText(keep_whole(warning.text))
            self._texts[warning.key] = warning.text
            self._values[warning.key] = self.headline_warning
        for line, pinned_row in enumerate(pinned):
            self._show_pinned(line, pinned_row)

    def _show_pinned(self, line: int, row: Figure) -> None:
        """`row` on the pinned rows' `line`: its name, its figure whole, how it was measured
        cut short where the panel is narrow."""
        name = QLabel(row_name_text(row.label))
        name.setStyleSheet("color: gray;")
        figure = QLabel(keep_whole(row.figure))
        figure.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        detail = ElidedLabel()
        detail.setText(row.measured)
        detail.setStyleSheet("color: gray;")
        if row.alarming:
            for label in (figure, detail):
                label.setStyleSheet(f"color: {WARNING_COLOUR}; font-weight: bold;")
        self._pinned_grid.addWidget(name, line, 0)
        self._pinned_grid.addWidget(figure, line, 1)
        self._pinned_grid.addWidget(detail, line, 2)
        self._texts[row.key] = row.text
        self._values[row.key] = figure
        if row.measured:
            self._details[row.key] = detail

    def set_speedup_scale(self, scale: float) -> None:
        """Set the headline's speed-up `scale` times the panel's type size
        (blurapp.app.figures_column decides it for the window's size)."""
        if scale != self._speedup_scale:
            self._speedup_scale = scale
            self._apply_font_scale()

    def speedup_sample_size(self) -> tuple[float, float]:
        """(width, line height) in the panel's type of the figure the headline's type is sized
        for (blurapp.app.figures_column.SPEEDUP_SAMPLE)."""
        metrics = QFontMetrics(scaled_font(self, 1).resolve(self.font()))
        return metrics.horizontalAdvance(SPEEDUP_SAMPLE), metrics.height()

    def show_result(
        self,
        result: ComparisonResult,
        image_label: str,
        width: int,
        height: int,
        earlier: Sequence[Figure] = (),
        bit_depth: int = 8,
        paid: dict[str, PaidFirstCall] | None = None,
    ) -> None:
        """The figures of `result`, then `earlier` rows kept from a previous run; differences
        are in levels of the photo's `bit_depth`; `paid`: the first calls paid before this run
        (see comparison_figures)."""
        rows = comparison_figures(
            result, image_label, width, height, figure_text, bit_depth=bit_depth, paid=paid
        )
        self.show_rows(rows + list(earlier))
        bars = timing_bars(result, paid)
        self.chart.set_timings(
            [(row_name_text(bar.label), bar.seconds, QColor(bar.colour)) for bar in bars],
            headline=[row_name_text(bar.label) for bar in bars if bar.headline],
        )

    def clear_result(self) -> None:
        self.chart.set_timings([])

    def value(self, key: str) -> str:
        """The text shown for the row `key` ('numpy.steady', 'speedup', …; Figure.key), or ''
        when none is shown."""
        return self._texts.get(key, "")

    def names(self) -> list[str]:
        """The keys of the rows shown, in their order."""
        return list(self._texts)

    def value_labels(self, name: str) -> list[QLabel]:
        """The labels that show the value of the row `name` (its key): its figure, and how it
        was measured when shown apart (RowArrangement.detail_scale); [] when none is shown."""
        labels = [self._values[name]] if name in self._values else []
        return labels + ([self._details[name]] if name in self._details else [])

    def set_stale(self, reason: str | None) -> None:
        self.stale_label.setText(
            self.tr("Out of date: {reason}").format(reason=reason) if reason else ""
        )
        self.stale_label.setVisible(bool(reason))

    def arrange_rows(self, arrangement: RowArrangement = RowArrangement()) -> None:
        """Lay the rows out as `arrangement` says, now and in the results to come; by default
        every row shows, in its own order, beside its name."""
        self._arrangement = arrangement
        # A stacked row is two lines of the grid, its name over its figure: a pixel between
        # lines, not three, keeps the demo's figures on a 1600 × 1000 screen when the chart's
        # longest bar name takes a second line.
        self._grid.setVerticalSpacing(1 if arrangement.stacked else 3)
        self.show_rows(self._shown)

    def set_font_scale(self, figures: float, speedup: float | None = None) -> None:
        """Set the rows, the chart and their notes in `figures` times the panel's type size, and
        the speed-up `speedup` times (as the others when not given); 1 is the normal size."""
        self._font_scale = (figures, speedup if speedup is not None else figures)
        self._apply_font_scale()
        self._scroll.updateGeometry()  # its width follows the rows' (_VerticalScroll)

    def _apply_font_scale(self) -> None:
        figures, speedup = self._font_scale
        font = scaled_font(self, figures)
        for widget in [self.stale_label, self.chart_caption, self.chart]:
            widget.setFont(font)
        for index in range(self._grid.count()):
            shown = cast(QLayoutItem, self._grid.itemAt(index)).widget()  # one of count()
            if shown is not None:
                shown.setFont(font)
        for label in (self.headline_name, self.headline_detail, self.headline_warning):
            label.setFont(font)
        for index in range(self._pinned_grid.count()):
            pinned = cast(QLayoutItem, self._pinned_grid.itemAt(index)).widget()
            if pinned is not None:
                pinned.setFont(font)
        self.headline_figure.setFont(scaled_font(self, max(self._speedup_scale, speedup)))
        if self._values.get("speedup", self.headline_figure) is not self.headline_figure:
            self._values["speedup"].setFont(scaled_font(self, speedup))
        detail_scale = self._arrangement.detail_scale
        for label in self._details.values():
            if label is self.headline_detail or isinstance(label, ElidedLabel):
                continue  # in the headline, in the rows' type
            assert detail_scale is not None  # shown apart only by an arrangement with a scale
            label.setFont(scaled_font(self, detail_scale if figures != 1 else 1))
