"""A run's progress in the status bar: the bar and the status line."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QLabel, QProgressBar

# Small taps send hundreds of counts a second: more than anyone can read, and each a paint of
# the bar. Counts are shown at most this often.
PROGRESS_INTERVAL_MS = 40


class RunProgress(QObject):
    """Shows a run's progress on `bar` and `status`: a new stage (another engine, the timing)
    at once, the counts within a stage at most every PROGRESS_INTERVAL_MS, and the last count
    always. Nothing is shown once `running()` says no run is timing any more."""

    def __init__(
        self, bar: QProgressBar, status: QLabel, running: Callable[[], bool], parent: QObject
    ) -> None:
        super().__init__(parent)
        self._bar, self._status, self._running = bar, status, running
        self._due: tuple[int, int, str, str] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PROGRESS_INTERVAL_MS)
        self._timer.timeout.connect(self._show_due)

    def show(self, done: int, total: int, words: tuple[str, str]) -> None:
        """`done` of `total` (0 of 0: busy), with `words`: (status line, bar format)."""
        status, bar_format = words
        self._due = (done, total, status, bar_format)
        # A stage is told by its words; the timing's total of calls is refined as it goes.
        if bar_format != self._bar.format() or not self._timer.isActive():
            self._show_due()

    def _show_due(self) -> None:
        due, self._due = self._due, None
        if due is None or not self._running():
            return
        done, total, status, bar_format = due
        # QProgressBar.setValue repaints at once, and with the bar everything else waiting to
        # be painted in the window (the panes, the chart), in the middle of a run. With its
        # updates held, the bar is painted with the rest of the window, once a pass of the
        # event loop.
        self._bar.setUpdatesEnabled(False)
        try:
            if self._bar.maximum() != total or self._bar.minimum() != 0:
                self._bar.setRange(0, total)
            self._bar.setValue(done)
            if self._bar.format() != bar_format:
                self._bar.setFormat(bar_format)
        finally:
            self._bar.setUpdatesEnabled(True)  # schedules the bar's paint
        self._status.setText(status)
        self._timer.start()
