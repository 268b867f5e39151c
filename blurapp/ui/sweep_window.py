"""Run ▸ Scaling Sweep: the comparison on the photo resampled from 0.1 MP upwards, drawn as
time against megapixels for every engine, with each engine's speed-up over NumPy below.

The sweep runs on a thread of its own (SweepThread), as the window's worker does: points come
back as plain data, one per size as it finishes, and a Stop flag is checked between kernel
taps and JAX calls. The chart is drawn with QPainter: PySide6-Essentials has no QtCharts.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QCoreApplication,
    QEvent,
    QIODevice,
    QObject,
    QPointF,
    QRectF,
    QSize,
    QStandardPaths,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtGui import QCloseEvent, QColor, QFontMetrics, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDoubleSpinBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from blurapp.app.session import ENGINES_CONTEXT, Parameters
from blurapp.core.engines import REFERENCE_ENGINE, get_engine
from blurapp.core.figures import describe_kernel, format_megapixels
from blurapp.core.kernel import Algorithm, KernelSize
from blurapp.core.photo import Photo
from blurapp.core.saving import OutputError, write_atomically
from blurapp.core.sweep import (
    DEFAULT_MAX_MEGAPIXELS,
    SweepPoint,
    run_sweep,
    sweep_sizes,
    write_sweep_csv,
)
from blurapp.core.wording import display_path
from blurapp.ui.worker import WorkerThread, finish_in_background

log = logging.getLogger(__name__)

# The chart's drawing, in px.
MARGIN = 10
MARKER_RADIUS = 3.5
LEGEND_SWATCH = 22
PANEL_GAP = 14
TIME_SHARE = 0.62  # of the height below the legend: the time plot; the speed-up plot the rest
GRID_COLOUR = QColor(128, 128, 128, 48)
ONE_COLOUR = QColor(128, 128, 128)
# Closing waits this long for the sweep's thread; one inside a JAX call then ends on its own.
# The main window, closing, waits for its own worker after this: under 2 s in all.
CLOSE_WAIT_MS = 250


def engine_colour(engine: str) -> QColor:
    """An engine's colour as the window's timing chart draws its steady bar."""
    return QColor(get_engine(engine).chart_colour)


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

    def sizeHint(self) -> QSize:
        return QSize(760, 520)

    # Drawing -------------------------------------------------------------------------------

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        metrics = QFontMetrics(self.font())
        text = self.palette().windowText().color()
        times, speedups = self.series(), self.speedup_series()
        top = MARGIN + self._draw_legend(painter, metrics, text)
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
            )
        painter.setPen(text)
        painter.drawText(
            QRectF(left, self.height() - MARGIN - line, right - left, line),
            Qt.AlignmentFlag.AlignCenter,
            self.tr("Photo size (megapixels, log scale)"),
        )

    def _draw_legend(self, painter: QPainter, metrics: QFontMetrics, text: QColor) -> float:
        """The engines' names and colours in rows across the top; returns the rows' height."""
        x, y, row = MARGIN, MARGIN, metrics.height() + 4
        for name in self._engines:
            title = engine_title(name)
            width = LEGEND_SWATCH + 6 + metrics.horizontalAdvance(title) + 18
            if x > MARGIN and x + width > self.width() - MARGIN:
                x, y = MARGIN, y + row
            middle = y + row / 2
            self._draw_line(
                painter,
                engine_colour(name),
                [QPointF(x, middle), QPointF(x + LEGEND_SWATCH, middle)],
            )
            self._draw_marker(painter, engine_colour(name), QPointF(x + LEGEND_SWATCH / 2, middle))
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
                painter.setPen(ONE_COLOUR)
                painter.drawText(QPointF(position + 3, plot_top + metrics.ascent() + 2), label)
        if one_line:
            position = y(1.0)
            painter.setPen(QPen(ONE_COLOUR, 1.5, Qt.PenStyle.DashLine))
            painter.drawLine(QPointF(left, position), QPointF(right, position))
        painter.save()
        painter.setClipRect(
            QRectF(left, plot_top, right - left, bottom - plot_top).adjusted(-5, -5, 5, 5)
        )
        for name, values in series.items():
            colour = engine_colour(name)
            places = [QPointF(x(mp), y(value)) for mp, value in values]
            self._draw_line(painter, colour, places)
            for place in places:
                self._draw_marker(painter, colour, place)
        painter.restore()

    @staticmethod
    def _draw_line(painter: QPainter, colour: QColor, places: list[QPointF]) -> None:
        if len(places) < 2:
            return
        path = QPainterPath(places[0])
        for place in places[1:]:
            path.lineTo(place)
        painter.setPen(QPen(colour, 2))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)

    @staticmethod
    def _draw_marker(painter: QPainter, colour: QColor, place: QPointF) -> None:
        painter.setPen(QPen(colour.darker(130), 1))
        painter.setBrush(colour)
        painter.drawEllipse(place, MARKER_RADIUS, MARKER_RADIUS)


# --- The worker --------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SweepRequest:
    number: int
    photo: Photo
    kernel_size: KernelSize
    sigma: float
    algorithm: Algorithm
    engines: tuple[str, ...]
    max_megapixels: float
    repeats: int | None


class SweepWorker(QObject):
    """Runs sweeps on its own thread, one at a time; every signal carries its sweep's number.

    The window tells the user and logs a failure, with its traceback: the worker doesn't, or
    it would reach the terminal twice (as the window's Worker)."""

    point_done = Signal(int, object)  # number, SweepPoint
    sweep_done = Signal(int, object)  # number, list[SweepPoint]
    sweep_stopped = Signal(int)
    sweep_failed = Signal(int, str, object)  # number, what went wrong, the exception (or None)

    def __init__(self) -> None:
        super().__init__()
        self._wanted = 0  # written by the window's thread; a plain int needs no lock
        self._stopping = threading.Event()

    def want(self, number: int) -> None:
        """Only sweep `number` is wanted now (0: none); another stops at its next check."""
        self._wanted = number

    def stop(self) -> None:
        self._stopping.set()
        self._wanted = -1

    @Slot(object)
    def run(self, request: SweepRequest) -> None:
        number = request.number

        def cancelled() -> bool:
            return number != self._wanted or self._stopping.is_set()

        try:
            points = run_sweep(
                request.photo.gray,
                sizes=sweep_sizes(request.photo.gray.shape, max_megapixels=request.max_megapixels),
                kernel_size=request.kernel_size,
                sigma=request.sigma,
                algorithm=request.algorithm,
                engines=request.engines,
                repeats=request.repeats,
                cancelled=cancelled,
                on_point=lambda point: self.point_done.emit(number, point),
            )
        except MemoryError:
            self.sweep_failed.emit(number, "not enough memory for the next size", None)
            return
        except Exception as error:
            self.sweep_failed.emit(number, f"{type(error).__name__}: {error}", error)
            return
        if cancelled():
            self.sweep_stopped.emit(number)
        else:
            self.sweep_done.emit(number, points)


class SweepThread(QObject):
    """A SweepWorker in a WorkerThread of its own, started at once: the tests see one left
    running as they see the window's worker."""

    _run_requested = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._worker_thread = WorkerThread(SweepWorker(), name="blurapp-sweep")
        self.thread = self._worker_thread.thread
        self.worker: SweepWorker = self._worker_thread.worker
        self._run_requested.connect(self.worker.run)

    def run(self, request: SweepRequest) -> None:
        self.worker.want(request.number)
        self._run_requested.emit(request)

    def cancel(self) -> None:
        self.worker.want(0)

    def stop(self, wait_ms: int | None = CLOSE_WAIT_MS) -> bool:
        """Stop the sweep and wait up to `wait_ms` (None: as long as it takes) for the thread.
        A thread still inside one JAX call (seconds on a large photo) is left to end on its
        own, held until it does. Returns whether it has ended."""
        if self._worker_thread.stop(wait_ms):
            return True
        log.info("the sweep's thread ends once its JAX call returns")
        finish_in_background(self._worker_thread)
        return False


# --- The window --------------------------------------------------------------------------


class SweepWindow(QDialog):
    """Run ▸ Scaling Sweep: a chart of each engine's time against the photo's size.

    Modal to the window it belongs to: a sweep and that window's runs would measure at the
    same time, each skewing the other's figures."""

    point_shown = Signal(object)  # SweepPoint, once the chart shows it
    sweep_started = Signal()  # before the first size: whatever else measures should stop
    sweep_finished = Signal(object)  # list[SweepPoint]: every size done
    sweep_stopped = Signal()  # stopped by the user, or closed, before the last size
    sweep_failed = Signal(str)

    def __init__(
        self,
        photo: Photo,
        parameters: Parameters,
        engines: Sequence[str],
        parent: QWidget | None = None,
        *,
        repeats: int | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Scaling Sweep"))
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.repeats = repeats  # None: as many steady calls as each engine needs
        self.points: list[SweepPoint] = []
        self._number = 0
        self._running = False
        self._closed = False  # closed, and deleted soon when WA_DeleteOnClose: never reused
        self._sweeper: SweepThread | None = None

        self.subject_label = QLabel()
        self.subject_label.setWordWrap(True)
        self.chart = SweepChart()
        self.max_spin = QDoubleSpinBox()
        self.max_spin.setRange(0.1, 100.0)
        self.max_spin.setDecimals(1)
        self.max_spin.setValue(DEFAULT_MAX_MEGAPIXELS)
        self.max_spin.setSuffix(" MP")
        self.max_spin.setToolTip(
            self.tr(
                "The sweep runs from 0.1 MP up to this size. The photo is resampled up or "
                "down: an engine's time depends on how many pixels it blurs, not on what they "
                "show."
            )
        )
        max_label = QLabel(self.tr("&Largest size:"))
        max_label.setBuddy(self.max_spin)
        self.status_label = QLabel()
        self.run_button = QPushButton(self.tr("&Run"))
        self.run_button.setDefault(True)
        self.save_picture_button = QPushButton(self.tr("Save &Picture…"))
        self.save_csv_button = QPushButton(self.tr("Save &CSV…"))
        close_button = QPushButton(self.tr("Close"))

        controls = QHBoxLayout()
        controls.addWidget(max_label)
        controls.addWidget(self.max_spin)
        controls.addWidget(self.status_label, 1)
        controls.addWidget(self.run_button)
        controls.addWidget(self.save_picture_button)
        controls.addWidget(self.save_csv_button)
        controls.addWidget(close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.subject_label)
        layout.addWidget(self.chart, 1)
        layout.addLayout(controls)

        self.run_button.clicked.connect(self._on_view_run_or_stop)
        self.save_picture_button.clicked.connect(self.save_picture)
        self.save_csv_button.clicked.connect(self.save_csv)
        close_button.clicked.connect(self.close)
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self._stop_thread)
        if parent is not None:
            parent.installEventFilter(self)  # closes with the window it belongs to
        self.set_subject(photo, parameters, engines)
        self.resize(900, 640)

    # --- What is swept ------------------------------------------------------------------

    def set_subject(self, photo: Photo, parameters: Parameters, engines: Sequence[str]) -> None:
        """Sweep `photo` with `parameters` and `engines` from now on; drops the chart shown."""
        self.stop()
        self.photo, self.parameters, self.engines = photo, parameters, tuple(engines)
        self.points = []
        self.chart.set_engines(self.engines, photo.width * photo.height / 1e6)
        kernel = describe_kernel(
            parameters.effective_size,
            parameters.sigma,
            parameters.algorithm,
            lambda text: QCoreApplication.translate("Figures", text),
        )
        self.subject_label.setText(
            self.tr("{photo}, {size} · kernel {kernel} · {engines}").format(
                photo=display_path(photo.path.name),
                size=format_megapixels(photo.width, photo.height),
                kernel=kernel,
                engines=", ".join(engine_title(name) for name in self.engines),
            )
        )
        self.status_label.setText("")
        self._on_model_running()

    # --- Running ------------------------------------------------------------------------

    def is_running(self) -> bool:
        return self._running

    def run(self) -> None:
        """Start the sweep; one in progress starts over."""
        self.sweep_started.emit()
        if self._sweeper is None:
            self._sweeper = SweepThread(self)
            worker = self._sweeper.worker
            worker.point_done.connect(self._on_point_done)
            worker.sweep_done.connect(self._on_sweep_done)
            worker.sweep_stopped.connect(self._on_sweep_stopped)
            worker.sweep_failed.connect(self._on_sweep_failed)
        self._number += 1
        self.points = []
        self.chart.set_points([])
        self._running = True
        self.status_label.setText(self.tr("Running…"))
        self._on_model_running()
        parameters = self.parameters
        self._sweeper.run(
            SweepRequest(
                number=self._number,
                photo=self.photo,
                kernel_size=parameters.kernel_size,
                sigma=parameters.sigma,
                algorithm=parameters.algorithm,
                engines=self.engines,
                max_megapixels=self.max_spin.value(),
                repeats=self.repeats,
            )
        )

    def stop(self) -> None:
        """Stop the sweep in progress; the sizes done stay on the chart."""
        if not self._running:
            return
        self._running = False
        self._number += 1  # its last answers, still on their way, are dropped
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.status_label.setText(
            self.tr("Stopped after {count} sizes").format(count=len(self.points))
        )
        self._on_model_running()
        self.sweep_stopped.emit()

    def _on_view_run_or_stop(self) -> None:
        if self._running:
            self.stop()
        else:
            self.run()

    def _on_model_running(self) -> None:
        self.run_button.setText(self.tr("&Stop") if self._running else self.tr("&Run"))
        self.max_spin.setEnabled(not self._running)
        self.save_picture_button.setEnabled(bool(self.points))
        self.save_csv_button.setEnabled(bool(self.points))

    def _on_point_done(self, number: int, point: SweepPoint) -> None:
        if number != self._number:
            return
        self.points.append(point)
        self.chart.set_points(self.points)
        self.status_label.setText(
            self.tr("{size} done").format(size=format_megapixels(point.width, point.height))
        )
        self._on_model_running()
        self.point_shown.emit(point)

    def _on_sweep_done(self, number: int, points: list[SweepPoint]) -> None:
        if number != self._number:
            return
        self._running = False
        self.status_label.setText(self.tr("Done: {count} sizes").format(count=len(points)))
        self._on_model_running()
        self.sweep_finished.emit(list(self.points))

    def _on_sweep_stopped(self, number: int) -> None:
        log.debug("sweep %d stopped", number)

    def _on_sweep_failed(self, number: int, message: str, error: BaseException | None) -> None:
        if number != self._number:
            return
        self._running = False
        self._on_model_running()
        self.status_label.setText(self.tr("The sweep failed"))
        self.sweep_failed.emit(message)
        self._warn(
            self.tr("Sweep Failed"),
            self.tr("The sweep stopped: {reason}").format(reason=message),
            error=error,
        )

    def _warn(self, title: str, text: str, *, error: BaseException | None = None) -> None:
        """Tell the user as the window this one belongs to does (which logs it, and shows no
        message box with its show_messages off); on its own, log it and show a box."""
        owner = self.parent()
        if owner is not None and hasattr(owner, "_warn"):
            owner._warn(title, text, error=error)
            return
        log.warning("%s: %s", title, text, exc_info=error)
        QMessageBox.warning(self, title, text)

    # --- Saving -------------------------------------------------------------------------

    def picture_png(self) -> bytes:
        """The chart as PNG."""
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        self.chart.grab().toImage().save(buffer, "PNG")
        buffer.close()
        return bytes(data.data())

    def _save_name(self, extension: str) -> str:
        folder = QStandardPaths.writableLocation(
            QStandardPaths.StandardLocation.DocumentsLocation
        ) or str(Path.home())
        return str(Path(folder) / f"{self.photo.path.stem}-sweep{extension}")

    def _choose_save_path(self, title: str, extension: str, file_filter: str) -> Path | None:
        """The file the user chooses, `extension` added when its name lacks it; None when they
        cancel, or decline to replace the file that name with the extension names.

        The dialog asked about replacing the name as typed: with the extension added, the
        name is a different file, and replacing it is asked here."""
        chosen, _ = QFileDialog.getSaveFileName(
            self, title, self._save_name(extension), file_filter
        )
        if not chosen:
            return None
        path = _with_extension(chosen, extension)
        if path.name != Path(chosen).name and path.is_file():
            answer = QMessageBox.question(
                self,
                self.tr("Replace File?"),
                self.tr("{name} already exists. Do you want to replace it?").format(
                    name=display_path(path.name)
                ),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No,
            )
            if answer != QMessageBox.StandardButton.Yes:
                return None
        return path

    def save_picture(self) -> None:
        path = self._choose_save_path(
            self.tr("Save Sweep Picture"), ".png", self.tr("PNG images (*.png)")
        )
        if path is not None:
            png = self.picture_png()
            self._write(path, lambda file: file.write(png))

    def save_csv(self) -> None:
        path = self._choose_save_path(
            self.tr("Save Sweep as CSV"), ".csv", self.tr("CSV files (*.csv)")
        )
        if path is not None:
            self._write(path, None)

    def _write(self, path: Path, write) -> None:
        try:
            if write is None:
                write_sweep_csv(path, self.points)
            else:
                write_atomically(path, write)
        except OutputError as error:
            from blurapp.ui.translations import translated_problem

            self._warn(self.tr("Cannot Save"), translated_problem(error))
            return
        self.status_label.setText(self.tr("Saved {name}").format(name=display_path(path.name)))

    # --- Closing ------------------------------------------------------------------------

    def is_closed(self) -> bool:
        """Closed and not shown since: deleted soon when WA_DeleteOnClose is set."""
        return self._closed

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parent() and event.type() == QEvent.Type.Close:
            self.close()
        return False

    def _stop_thread(self) -> None:
        """Stop the sweep and its thread, waiting CLOSE_WAIT_MS at most: a thread still inside
        one JAX call ends on its own once the call returns (SweepThread.stop)."""
        self.stop()
        sweeper, self._sweeper = self._sweeper, None
        if sweeper is None:
            return
        worker = sweeper.worker
        # Whatever it still sends belongs to no sweep: nothing of it reaches a window closed.
        worker.point_done.disconnect(self._on_point_done)
        worker.sweep_done.disconnect(self._on_sweep_done)
        worker.sweep_stopped.disconnect(self._on_sweep_stopped)
        worker.sweep_failed.disconnect(self._on_sweep_failed)
        sweeper.stop(CLOSE_WAIT_MS)

    def _close_down(self) -> None:
        self._stop_thread()
        self._closed = True
        if self.testAttribute(Qt.WidgetAttribute.WA_DeleteOnClose):
            self.deleteLater()  # closed by Esc too, whichever Qt: deleted, never just hidden

    def showEvent(self, event) -> None:
        self._closed = False
        super().showEvent(event)

    def done(self, result: int) -> None:
        self._close_down()
        super().done(result)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._close_down()
        super().closeEvent(event)


def _with_extension(path: str, extension: str) -> Path:
    """`path`, with `extension` added unless it has it: "chart" and "chart.v2" alike."""
    path = Path(path)
    return path if path.suffix.lower() == extension else path.with_name(path.name + extension)


def stop_window_run(window) -> None:
    """A sweep measures alone: the main window's run in flight is cancelled, and its live
    preview's call dropped."""
    running = window.session.running
    if running is None:
        return
    if running.live:
        window.session.run_stopped()
    else:
        window.cancel_run()


def open_sweep_window(window) -> SweepWindow | None:
    """Run ▸ Scaling Sweep: the main window's sweep window on its photo, parameters and timed
    engines, made on first use; None without a photo."""
    session = window.session
    if session.photo is None:
        return None
    # A closed one is deleted soon (WA_DeleteOnClose): only one still open, shown or hidden,
    # is reused.
    sweep = next(
        (child for child in window.findChildren(SweepWindow) if not child.is_closed()), None
    )
    if sweep is None:
        sweep = SweepWindow(session.photo, session.parameters, session.timed, window)
        sweep.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        sweep.sweep_started.connect(lambda: stop_window_run(window))
    elif not sweep.is_running():
        sweep.set_subject(session.photo, session.parameters, session.timed)
    sweep.show()
    sweep.raise_()
    sweep.activateWindow()
    return sweep
