"""The scaling sweep's chart: time against megapixels on log–log axes for every engine, with
each engine's speed-up over NumPy below, and a line where JAX-jit's speed-up crosses 1× (the
break-even size). Drawn with QPainter: PySide6-Essentials has no QtCharts."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from blurapp.app.captions import ENGINES_CONTEXT
from blurapp.core.engines import REFERENCE_ENGINE, get_engine
from blurapp.core.measuring.sweep import Crossing, SweepPoint, sweep_break_even
from blurapp.core.report.chart_bars import chart_colour

# The chart's drawing, in px.
MARGIN = 10
MARKER_RADIUS = 3.5
LEGEND_SWATCH = 22
PANEL_GAP = 14
TIME_SHARE = 0.62  # of the height below the legend: the time plot; the speed-up plot the rest
GRID_COLOUR = QColor(128, 128, 128, 48)
ONE_COLOUR = QColor(128, 128, 128)
# The floors' lines: one copy of the photo at each size (dotted), and its multiply-adds at
# the rate of a matrix product (dashes and dots).
COPY_COLOUR = QColor(96, 96, 96)
COMPUTE_COLOUR = QColor(150, 60, 150)
# The break-even sizes' dashed lines.
BREAK_EVEN_COLOUR = QColor(200, 120, 0)


@dataclass(frozen=True)
class _FloorLine:
    """One floor under the engines' lines: its label at the line's end, its words in the
    legend, its colour and dashes, and its (megapixels, milliseconds)."""

    label: str
    legend: str
    colour: QColor
    style: Qt.PenStyle
    series: list[tuple[float, float]]


def engine_colour(engine: str) -> QColor:
    """An engine's colour as the window's timing chart draws its steady bar."""
    return QColor(chart_colour(get_engine(engine)))


def engine_title(engine: str) -> str:
    return QCoreApplication.translate(ENGINES_CONTEXT, get_engine(engine).title)


# --- The log axes, without Qt ----------------------------------------------------------------


def log_range(values: Sequence[float], *, include: float | None = None) -> tuple[float, float]:
    """(low, high) of a log axis showing `values` (and `include`) with a little room around
    them, spanning at least one power of ten."""
    chosen = [value for value in values if value > 0]
    if include is not None:
        chosen.append(include)
    if not chosen:
        return 1.0, 10.0
    low, high = math.log10(min(chosen)), math.log10(max(chosen))
    if high - low < 1:
        middle = (low + high) / 2
        low, high = middle - 0.5, middle + 0.5
    room = 0.06 * (high - low)
    return 10 ** (low - room), 10 ** (high + room)


@dataclass(frozen=True)
class LogTick:
    value: float
    label: str  # '' for an unlabelled minor tick


def tick_label(value: float) -> str:
    """0.1, 1, 10, 1,000; 0.02, 5."""
    return f"{value:,.{max(0, -math.floor(math.log10(value) + 1e-9))}f}"


def log_ticks(low: float, high: float) -> list[LogTick]:
    """Ticks at 1…9 × 10ⁿ between `low` and `high`: powers of ten labelled, and 2 and 5 × 10ⁿ
    too when fewer than three powers of ten fall in the range."""
    ticks = []
    for exponent in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1):
        for mantissa in range(1, 10):
            value = mantissa * 10.0**exponent
            if low <= value <= high:
                ticks.append((mantissa, value))
    powers = sum(1 for mantissa, _ in ticks if mantissa == 1)
    labelled = {1} if powers >= 3 else {1, 2, 5}
    return [
        LogTick(value, tick_label(value) if mantissa in labelled else "")
        for mantissa, value in ticks
    ]


class LogAxis:
    """Maps values on a log scale to pixels between `start` and `end` (end < start upwards)."""

    def __init__(self, low: float, high: float, start: float, end: float) -> None:
        self.low, self.high = low, high
        self.start, self.end = start, end
        self._span = math.log10(high) - math.log10(low)

    def __call__(self, value: float) -> float:
        fraction = (math.log10(value) - math.log10(self.low)) / self._span
        return self.start + fraction * (self.end - self.start)


# --- The chart ---------------------------------------------------------------------------


class SweepChart(QWidget):
    """Time (ms) against megapixels on log-log axes, a line and markers per engine; below it
    each engine's speed-up over the reference, with a line at 1×."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._engines: tuple[str, ...] = ()
        self._points: list[SweepPoint] = []
        self._photo_megapixels: float | None = None
        self.photo_label_rect: QRectF | None = None  # where "this photo" was drawn last
        self.break_even_label_rects: list[QRectF] = []  # where their labels were drawn last
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(360, 300)
        self.setAutoFillBackground(True)

    def set_engines(self, engines: Sequence[str], photo_megapixels: float | None) -> None:
        self._engines = tuple(engines)
        self._photo_megapixels = photo_megapixels
        self._points = []
        self.update()

    def set_points(self, points: Sequence[SweepPoint]) -> None:
        self._points = list(points)
        self.update()

    def series(self) -> dict[str, list[tuple[float, float]]]:
        """(megapixels, milliseconds) drawn for each engine."""
        return {
            name: [
                (point.megapixels, point.seconds[name] * 1000)
                for point in self._points
                if point.seconds.get(name, 0) > 0
            ]
            for name in self._engines
        }

    def copy_series(self) -> list[tuple[float, float]]:
        """(megapixels, milliseconds) of one copy of the photo at each size: the dotted line
        under the engines', the least any blur can take."""
        return [
            (point.megapixels, point.floor_seconds * 1000)
            for point in self._points
            if point.floor_seconds is not None and point.floor_seconds > 0
        ]

    def compute_series(self) -> list[tuple[float, float]]:
        """(megapixels, milliseconds) of the photo's multiply-adds at each size at the rate of
        a matrix product on the same device: the least the blur's arithmetic can take."""
        return [
            (point.megapixels, point.compute_floor_seconds * 1000)
            for point in self._points
            if point.compute_floor_seconds is not None and point.compute_floor_seconds > 0
        ]

    def floor_lines(self) -> list[_FloorLine]:
        """The floors drawn under the engines' lines, each with its label and legend."""
        lines = [
            _FloorLine(
                self.tr("copy"),
                self.tr("copy of the photo"),
                COPY_COLOUR,
                Qt.PenStyle.DotLine,
                self.copy_series(),
            ),
            _FloorLine(
                self.tr("compute"),
                self.tr("its multiply-adds at a matrix product's rate"),
                COMPUTE_COLOUR,
                Qt.PenStyle.DashDotLine,
                self.compute_series(),
            ),
        ]
        return [line for line in lines if line.series]

    def speedup_series(self) -> dict[str, list[tuple[float, float]]]:
        """(megapixels, speed-up) drawn for each engine but the reference."""
        return {
            name: [
                (point.megapixels, point.speedups[name])
                for point in self._points
                if point.speedups.get(name, 0) > 0
            ]
            for name in self._engines
            if name != REFERENCE_ENGINE
        }

    def break_even_marks(self) -> list[tuple[float, str]]:
        """(megapixels, label) of each break-even size drawn: where JAX-jit's speed-up over
        NumPy crosses 1× for the last time, by the steady calls and end to end. None is drawn
        where JAX-jit is faster at every size, or at none: the status says so."""
        found = sweep_break_even(self._points)
        if found is None:
            return []
        marks = []
        for crossing, label in (
            (found.steady, self.tr("{engine} break-even (steady)")),
            (found.end_to_end, self.tr("{engine} break-even (end to end)")),
        ):
            if crossing is not None and crossing.crossing is Crossing.BETWEEN:
                assert crossing.megapixels is not None  # interpolated between two sizes
                marks.append((crossing.megapixels, label.format(engine=engine_title(found.engine))))
        return marks

    def sizeHint(self) -> QSize:
        return QSize(760, 520)

    # Drawing -------------------------------------------------------------------------------

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.break_even_label_rects = []
        metrics = QFontMetrics(self.font())
        text = self.palette().windowText().color()
        times, speedups, floors = self.series(), self.speedup_series(), self.floor_lines()
        top = MARGIN + self._draw_legend(painter, metrics, text, floors)
        if not any(times.values()):
            painter.setPen(text)
            painter.drawText(
                QRectF(0, top, self.width(), self.height() - top),
                Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                self.tr(
                    "Press Run: the comparison runs on the photo at each size in turn, "
                    "and each size is drawn here as it finishes."
                ),
            )
            return
        megapixels = [mp for series in times.values() for mp, _ in series]
        ms = [value for series in times.values() for _, value in series]
        ms += [value for floor in floors for _, value in floor.series]
        ratios = [value for series in speedups.values() for _, value in series]
        x_low, x_high = log_range(megapixels, include=self._photo_megapixels)
        ms_range = log_range(ms)
        ratio_range = log_range(ratios, include=1.0)
        label_width = max(
            metrics.horizontalAdvance(tick.label + "×")
            for low, high in (ms_range, ratio_range)
            for tick in log_ticks(low, high)
        )
        left = MARGIN + label_width + 6
        right = self.width() - MARGIN - metrics.horizontalAdvance("10") / 2
        line = metrics.height()
        bottom = self.height() - MARGIN - 2 * line - 4  # room for the x labels and their name
        has_ratios = bool(ratios)
        height = bottom - top - (PANEL_GAP + line if has_ratios else 0)
        time_bottom = top + line + (height - line) * (TIME_SHARE if has_ratios else 1.0)
        x = LogAxis(x_low, x_high, left, right)

        self._draw_panel(
            painter,
            metrics,
            self.tr("Time per blur (ms, median of steady calls)"),
            x,
            LogAxis(*ms_range, time_bottom, top + line + 4),
            {name: times[name] for name in self._engines},
            suffix="",
            top=top,
            x_labels=not has_ratios,
            photo_label=True,
            floors=floors,
            marks=self.break_even_marks(),
        )
        if has_ratios:
            ratio_top = time_bottom + PANEL_GAP
            reference = engine_title(REFERENCE_ENGINE)
            self._draw_panel(
                painter,
                metrics,
                self.tr("Speed-up over {reference} ({reference}'s time ÷ the engine's)").format(
                    reference=reference
                ),
                x,
                LogAxis(*ratio_range, bottom, ratio_top + line + 4),
                speedups,
                suffix="×",
                top=ratio_top,
                x_labels=True,
                one_line=True,
                marks=[(megapixels, "") for megapixels, _ in self.break_even_marks()],
            )
        painter.setPen(text)
        painter.drawText(
            QRectF(left, self.height() - MARGIN - line, right - left, line),
            Qt.AlignmentFlag.AlignCenter,
            self.tr("Photo size (megapixels, log scale)"),
        )

    def _draw_legend(
        self,
        painter: QPainter,
        metrics: QFontMetrics,
        text: QColor,
        floors: Sequence[_FloorLine] = (),
    ) -> float:
        """The engines' names and colours in rows across the top (and the floors' lines, when
        drawn); returns the rows' height."""
        x, y, row = MARGIN, MARGIN, metrics.height() + 4
        entries: list[tuple[str, str | _FloorLine]] = [
            (engine_title(name), name) for name in self._engines
        ]
        entries += [(floor.legend, floor) for floor in floors]
        for title, name in entries:
            width = LEGEND_SWATCH + 6 + metrics.horizontalAdvance(title) + 18
            if x > MARGIN and x + width > self.width() - MARGIN:
                x, y = MARGIN, y + row
            middle = y + row / 2
            swatch = [QPointF(x, middle), QPointF(x + LEGEND_SWATCH, middle)]
            if isinstance(name, _FloorLine):
                self._draw_line(painter, name.colour, swatch, name.style)
            else:
                self._draw_line(painter, engine_colour(name), swatch)
                self._draw_marker(
                    painter, engine_colour(name), QPointF(x + LEGEND_SWATCH / 2, middle)
                )
            painter.setPen(text)
            painter.drawText(
                QRectF(x + LEGEND_SWATCH + 6, y, width, row),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                title,
            )
            x += width
        return y + row - MARGIN + 4

    def _draw_panel(
        self,
        painter: QPainter,
        metrics: QFontMetrics,
        title: str,
        x: LogAxis,
        y: LogAxis,
        series: dict[str, list[tuple[float, float]]],
        *,
        suffix: str,
        top: float,
        x_labels: bool,
        photo_label: bool = False,
        one_line: bool = False,
        floors: Sequence[_FloorLine] = (),
        marks: Sequence[tuple[float, str]] = (),
    ) -> None:
        text = self.palette().windowText().color()
        left, right = x.start, x.end
        plot_top, bottom = y.end - 4, y.start
        painter.fillRect(
            QRectF(left, plot_top, right - left, bottom - plot_top), self.palette().base()
        )
        painter.setPen(text)
        painter.drawText(
            QRectF(left, top, right - left, metrics.height()),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            metrics.elidedText(title, Qt.TextElideMode.ElideRight, round(right - left)),
        )
        # The grid: every 1…9 × 10ⁿ faint, a label at the powers of ten (and 2, 5 when few).
        for tick in log_ticks(y.low, y.high):
            position = y(tick.value)
            painter.setPen(QPen(GRID_COLOUR, 1.5 if tick.label else 1))
            painter.drawLine(QPointF(left, position), QPointF(right, position))
            if tick.label:
                painter.setPen(text)
                label = tick.label + suffix
                painter.drawText(
                    QRectF(
                        MARGIN, position - metrics.height() / 2, left - MARGIN - 6, metrics.height()
                    ),
                    Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                    label,
                )
        for tick in log_ticks(x.low, x.high):
            position = x(tick.value)
            painter.setPen(QPen(GRID_COLOUR, 1.5 if tick.label else 1))
            painter.drawLine(QPointF(position, plot_top), QPointF(position, bottom))
            if tick.label and x_labels:
                painter.setPen(text)
                width = metrics.horizontalAdvance(tick.label)
                painter.drawText(
                    QPointF(position - width / 2, bottom + 4 + metrics.ascent()), tick.label
                )
        painter.setPen(QPen(text, 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(QRectF(left, plot_top, right - left, bottom - plot_top))
        if self._photo_megapixels is not None:
            # The photo's own size: the comparison the main window runs is this column.
            position = x(self._photo_megapixels)
            painter.setPen(QPen(ONE_COLOUR, 1, Qt.PenStyle.DotLine))
            painter.drawLine(QPointF(position, plot_top), QPointF(position, bottom))
            if photo_label:
                label = self.tr("this photo")
                width = metrics.horizontalAdvance(label)
                # Right of its line, or left of it where the chart ends first (the photo is
                # often the largest size the sweep reaches).
                label_left = (
                    position + 3 if position + 3 + width <= right - 2 else position - 3 - width
                )
                label_left = max(label_left, left + 2)
                self.photo_label_rect = QRectF(label_left, plot_top + 2, width, metrics.height())
                painter.setPen(ONE_COLOUR)
                painter.drawText(QPointF(label_left, plot_top + metrics.ascent() + 2), label)
        for row, (megapixels, label) in enumerate(marks):
            # The size where JAX-jit starts to win; its label at the bottom, one row apiece.
            position = x(megapixels)
            painter.setPen(QPen(BREAK_EVEN_COLOUR, 1.5, Qt.PenStyle.DashLine))
            painter.drawLine(QPointF(position, plot_top), QPointF(position, bottom))
            if label:
                width = metrics.horizontalAdvance(label)
                label_left = (
                    position + 3 if position + 3 + width <= right - 2 else position - 3 - width
                )
                label_left = max(label_left, left + 2)
                label_top = bottom - (row + 1) * metrics.height() - 2
                self.break_even_label_rects.append(
                    QRectF(label_left, label_top, width, metrics.height())
                )
                painter.setPen(BREAK_EVEN_COLOUR)
                painter.drawText(QPointF(label_left, label_top + metrics.ascent()), label)
        if one_line:
            position = y(1.0)
            painter.setPen(QPen(ONE_COLOUR, 1.5, Qt.PenStyle.DashLine))
            painter.drawLine(QPointF(left, position), QPointF(right, position))
        painter.save()
        painter.setClipRect(
            QRectF(left, plot_top, right - left, bottom - plot_top).adjusted(-5, -5, 5, 5)
        )
        for floor in floors:
            places = [QPointF(x(mp), y(value)) for mp, value in floor.series]
            self._draw_line(painter, floor.colour, places, floor.style)
            if places:
                painter.setPen(floor.colour)
                last = places[-1]
                width = metrics.horizontalAdvance(floor.label)
                painter.drawText(
                    QPointF(min(last.x() + 4, right - width - 2), last.y() - 4), floor.label
                )
        for name, values in series.items():
            colour = engine_colour(name)
            places = [QPointF(x(mp), y(value)) for mp, value in values]
            self._draw_line(painter, colour, places)
            for place in places:
                self._draw_marker(painter, colour, place)
        painter.restore()

    @staticmethod
    def _draw_line(
        painter: QPainter,
        colour: QColor,
        places: list[QPointF],
        style: Qt.PenStyle = Qt.PenStyle.SolidLine,
    ) -> None:
        if len(places) < 2:
            return
        path = QPainterPath(places[0])
        for place in places[1:]:
            path.lineTo(place)
        painter.setPen(QPen(colour, 2, style))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)

    @staticmethod
    def _draw_marker(painter: QPainter, colour: QColor, place: QPointF) -> None:
        painter.setPen(QPen(colour.darker(130), 1))
        painter.setBrush(colour)
        painter.drawEllipse(place, MARKER_RADIUS, MARKER_RADIUS)
