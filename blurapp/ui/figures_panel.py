"""The figures of the last comparison, and its timings as bars a demo audience can read."""

from __future__ import annotations

import math

from PySide6.QtCore import QCoreApplication, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QSizePolicy, QVBoxLayout, QWidget

from blurapp.core.comparison import ComparisonResult
from blurapp.core.figures import CONTEXT, comparison_lines, format_ms


def figure_text(text: str) -> str:
    """A phrase of blurapp.core.figures in the user's language."""
    return QCoreApplication.translate(CONTEXT, text)


NUMPY_COLOUR = QColor("#4c72b0")
JAX_FIRST_COLOUR = QColor("#dd8452")
JAX_STEADY_COLOUR = QColor("#55a868")


class TimingChart(QWidget):
    """Horizontal bars for NumPy, JAX's first call and JAX steady, on a log scale.

    A log scale keeps a 1 ms bar visible beside a 2 s one, and equal ratios look equal.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._bars: list[tuple[str, float, QColor]] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_timings(self, bars: list[tuple[str, float, QColor]]) -> None:
        self._bars = [(name, seconds, colour) for name, seconds, colour in bars if seconds > 0]
        self.updateGeometry()
        self.update()

    def bars(self) -> list[tuple[str, float]]:
        return [(name, seconds) for name, seconds, _ in self._bars]

    def _row_height(self) -> int:
        return QFontMetrics(self.font()).height() + 8

    def sizeHint(self) -> QSize:
        rows = max(1, len(self._bars))
        return QSize(320, rows * self._row_height() + QFontMetrics(self.font()).height() + 10)

    def minimumSizeHint(self) -> QSize:
        return QSize(220, self.sizeHint().height())

    def scale(self) -> tuple[float, float]:
        """The chart's range in seconds: whole decades around the bars."""
        values = [seconds for _, seconds, _ in self._bars]
        low = 10 ** math.floor(math.log10(min(values)))
        high = 10 ** math.ceil(math.log10(max(values)))
        if high <= low:
            high = low * 10
        return low, high

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        metrics = QFontMetrics(self.font())
        text_colour = self.palette().windowText().color()
        if not self._bars:
            painter.setPen(text_colour)
            painter.drawText(
                self.rect(), Qt.AlignmentFlag.AlignCenter, self.tr("Timings appear after a run")
            )
            return
        labels = [figure_text(name) for name, _, _ in self._bars]
        label_width = max(metrics.horizontalAdvance(label) for label in labels) + 8
        value_width = max(metrics.horizontalAdvance(format_ms(s)) for _, s, _ in self._bars) + 8
        left = label_width
        right = self.width() - value_width
        span = max(10, right - left)
        low, high = self.scale()
        decades = math.log10(high / low)
        row = self._row_height()

        def x_of(seconds: float) -> float:
            return left + span * math.log10(seconds / low) / decades

        # Decade grid lines, labelled at the bottom.
        grid_pen = QPen(QColor(text_colour))
        grid_pen.setStyle(Qt.PenStyle.DotLine)
        bottom = len(self._bars) * row
        for power in range(round(decades) + 1):
            seconds = low * 10**power
            x = x_of(seconds)
            painter.setPen(grid_pen)
            painter.drawLine(int(x), 0, int(x), bottom)
            painter.setPen(text_colour)
            label = format_ms(seconds).replace(".000", "").replace(".00", "").replace(".0 ", " ")
            width = metrics.horizontalAdvance(label)
            painter.drawText(
                int(min(max(x - width / 2, 0), self.width() - width)),
                bottom + metrics.ascent() + 4,
                label,
            )

        for index, (_, seconds, colour) in enumerate(self._bars):
            top = index * row + 3
            painter.setPen(text_colour)
            painter.drawText(
                QRectF(0, top, label_width - 6, row - 6),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                labels[index],
            )
            # At least a sliver, so the fastest bar is never invisible.
            end = max(x_of(seconds), left + 3)
            painter.fillRect(QRectF(left, top, end - left, row - 6), colour)
            painter.setPen(text_colour)
            painter.drawText(
                QRectF(end + 4, top, value_width + span, row - 6),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                format_ms(seconds),
            )


class FiguresPanel(QGroupBox):
    """Every figure of the last comparison, visible at a glance."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Figures"), parent)
        self._grid = QGridLayout()
        self._grid.setHorizontalSpacing(12)
        self._grid.setVerticalSpacing(3)
        self._grid.setColumnStretch(1, 1)
        self.stale_label = QLabel()
        self.stale_label.setStyleSheet("color: #b35c00; font-weight: bold;")
        self.stale_label.setWordWrap(True)
        self.stale_label.hide()
        self.chart = TimingChart()
        self.chart_caption = QLabel(self.tr("Time per blur, log scale"))
        self.chart_caption.setStyleSheet("color: gray;")
        layout = QVBoxLayout(self)
        layout.addWidget(self.stale_label)
        layout.addLayout(self._grid)
        layout.addSpacing(6)
        layout.addWidget(self.chart_caption)
        layout.addWidget(self.chart)
        layout.addStretch(1)
        self._values: dict[str, QLabel] = {}

    def show_rows(self, rows: list[tuple[str, str]], *, outside_tolerance: bool = False) -> None:
        while self._grid.count():
            widget = self._grid.takeAt(0).widget()
            if widget is not None:
                widget.hide()  # at once: deleteLater alone leaves it painted until later
                widget.deleteLater()
        self._values = {}
        for index, (name, value) in enumerate(rows):
            name_label = QLabel(figure_text(name))
            name_label.setStyleSheet("color: gray;")
            value_label = QLabel(value)
            value_label.setWordWrap(True)
            value_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            if name == "max abs diff" and outside_tolerance:
                value_label.setStyleSheet("color: #c0392b; font-weight: bold;")
            elif name == "speedup":
                value_label.setStyleSheet("font-weight: bold;")
            self._grid.addWidget(name_label, index, 0, Qt.AlignmentFlag.AlignTop)
            self._grid.addWidget(value_label, index, 1)
            self._values[name] = value_label

    def show_result(
        self,
        result: ComparisonResult,
        image_label: str,
        width: int,
        height: int,
        earlier: list[tuple[str, str]] = (),
    ) -> None:
        """The figures of `result`, then `earlier` rows kept from a previous run."""
        rows = comparison_lines(result, image_label, width, height, figure_text)
        self.show_rows(rows + list(earlier), outside_tolerance=result.within_tolerance is False)
        bars = []
        if result.numpy is not None:
            bars.append(("NumPy", result.numpy.seconds, NUMPY_COLOUR))
        if result.jax is not None:
            bars.append(("JAX first call", result.jax.first_call_seconds, JAX_FIRST_COLOUR))
            bars.append(("JAX steady", result.jax.seconds, JAX_STEADY_COLOUR))
        self.chart.set_timings(bars)

    def clear_result(self) -> None:
        self.chart.set_timings([])

    def value(self, name: str) -> str:
        """The figure shown for `name` ('NumPy', 'speedup', …), or '' when none is shown."""
        label = self._values.get(name)
        return label.text() if label is not None else ""

    def set_stale(self, reason: str | None) -> None:
        self.stale_label.setText(
            self.tr("Out of date: {reason}").format(reason=reason) if reason else ""
        )
        self.stale_label.setVisible(bool(reason))
