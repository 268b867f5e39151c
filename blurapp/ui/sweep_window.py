"""Run ▸ Scaling Sweep: the comparison on the photo resampled from 0.1 MP upwards, drawn as
time against megapixels for every engine (blurapp.ui.sweep_chart), with each engine's speed-up
over NumPy below.

The dialog renders a SweepState (blurapp.app.sweep_state), which its WindowController makes
(WindowController.open_sweep): the sweep's jobs wait their turn on the window's one runner
(blurapp.ui.background_runner) behind the window's own, through a JobGroup that the dialog
stops when it closes. Points come back as plain data, one per size as it finishes, and Stop is
honoured between sizes, kernel taps and JAX calls. A sweep of a photo alone (`SweepWindow.of`)
has a runner of its own.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import cast

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QCoreApplication,
    QEvent,
    QIODevice,
    QObject,
    QStandardPaths,
    Qt,
    Signal,
)
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDoubleSpinBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from blurapp.app.running import JobGroup
from blurapp.app.sweep_state import SweepChange, SweepState
from blurapp.core.measuring.sweep import DEFAULT_MAX_MEGAPIXELS, SweepPoint, write_sweep_csv
from blurapp.core.media.photo import Photo
from blurapp.core.media.saving import OutputError, write_atomically
from blurapp.core.spec import BlurSpec
from blurapp.core.wording import display_path
from blurapp.ui.background_runner import BackgroundRunner
from blurapp.ui.messages import Messages
from blurapp.ui.sweep_chart import SweepChart
from blurapp.ui.translations import translated_problem

log = logging.getLogger(__name__)

# Closing waits this long for the sweep's job; one inside a JAX call then ends on its own.
# The main window, closing, waits for its own jobs after this: under 2 s in all.
CLOSE_WAIT_MS = 250


class SweepWindow(QDialog):
    """Run ▸ Scaling Sweep: a chart of each engine's time against the photo's size.

    Modal to the window it belongs to: a sweep and that window's runs would measure at the
    same time, each skewing the other's figures."""

    point_shown = Signal(object)  # SweepPoint, once the chart shows it
    sweep_finished = Signal(object)  # list[SweepPoint]: every size done
    sweep_stopped = Signal()  # stopped by the user, or closed, before the last size
    sweep_failed = Signal(str)

    def __init__(
        self,
        state: SweepState,
        jobs: JobGroup,
        parent: QWidget | None = None,
        *,
        messages: Messages | None = None,
    ) -> None:
        """`state`: the sweep, whose jobs go to `jobs` (from WindowController.open_sweep, or
        `of` for a photo alone), which the dialog stops when it closes."""
        super().__init__(parent)
        self._messages = messages  # the main window's, when it belongs to one
        self.setWindowTitle(self.tr("Scaling Sweep"))
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self._closed = False  # closed, and deleted soon when WA_DeleteOnClose: never reused
        self.runner = jobs
        self.state = state
        self.state.subscribe(self._on_model_changed)

        self.subject_label = QLabel()
        self.subject_label.setWordWrap(True)
        self.chart = SweepChart()
        # JAX-jit's first call at each size: what the chart's steady times leave out.
        self.first_call_label = QLabel()
        self.first_call_label.setWordWrap(True)
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
        self.status_label.setWordWrap(True)  # with the break-even sizes, once a sweep is done
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
        layout.addWidget(self.first_call_label)
        layout.addLayout(controls)

        self.run_button.clicked.connect(self._on_view_run_or_stop)
        self.save_picture_button.clicked.connect(self.save_picture)
        self.save_csv_button.clicked.connect(self.save_csv)
        close_button.clicked.connect(self.close)
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self._stop_runner)
        if parent is not None:
            parent.installEventFilter(self)  # closes with the window it belongs to
        self._on_model_subject()
        self.resize(900, 640)

    # --- What is swept, as the tests and the main window reach it -------------------------

    @classmethod
    def of(
        cls,
        photo: Photo,
        parameters: BlurSpec,
        engines: Sequence[str],
        parent: QWidget | None = None,
        *,
        repeats: int | None = None,
    ) -> SweepWindow:
        """The sweep of `photo` alone, with `parameters` and `engines`, belonging to no window:
        on a runner of its own."""
        jobs = JobGroup(BackgroundRunner())
        state = SweepState(
            photo, parameters, engines, jobs, QCoreApplication.translate, repeats=repeats
        )
        return cls(state, jobs, parent)

    @property
    def photo(self) -> Photo:
        return self.state.photo

    @property
    def parameters(self) -> BlurSpec:
        return self.state.parameters

    @property
    def engines(self) -> tuple[str, ...]:
        return self.state.engines

    @property
    def points(self) -> list[SweepPoint]:
        return self.state.points

    def set_subject(self, photo: Photo, parameters: BlurSpec, engines: Sequence[str]) -> None:
        """Sweep `photo` with `parameters` and `engines` from now on; drops the chart shown."""
        self.state.set_subject(photo, parameters, engines)

    # --- Running ------------------------------------------------------------------------

    def is_running(self) -> bool:
        return self.state.running

    def run(self) -> None:
        """Start the sweep; one in progress starts over (and the window's run in flight is
        cancelled: SweepState's `before_start`)."""
        self.state.max_megapixels = self.max_spin.value()
        self.state.start()

    def stop(self) -> None:
        """Stop the sweep in progress; the sizes done stay on the chart."""
        self.state.stop()

    def _on_view_run_or_stop(self) -> None:
        if self.state.running:
            self.stop()
        else:
            self.run()

    # --- The state, rendered ------------------------------------------------------------

    def _on_model_changed(self, what: SweepChange) -> None:
        renderers = {
            SweepChange.SUBJECT: self._on_model_subject,
            SweepChange.RUNNING: self._on_model_running,
            SweepChange.POINT: self._on_model_point,
            SweepChange.FINISHED: self._on_model_finished,
            SweepChange.STOPPED: self._on_model_stopped,
            SweepChange.FAILED: self._on_model_failed,
        }
        renderers[what]()

    def _on_model_subject(self) -> None:
        state = self.state
        self.chart.set_engines(state.engines, state.photo.width * state.photo.height / 1e6)
        self.subject_label.setText(state.subject())
        self._on_model_running()

    def _on_model_running(self) -> None:
        running = self.state.running
        self.status_label.setText(self.state.status)
        self.chart.set_points(self.state.points)
        self.first_call_label.setText(self.state.first_call_words())
        self.first_call_label.setVisible(bool(self.state.points))
        self.run_button.setText(self.tr("&Stop") if running else self.tr("&Run"))
        self.max_spin.setEnabled(not running)
        self.save_picture_button.setEnabled(bool(self.state.points))
        self.save_csv_button.setEnabled(bool(self.state.points))

    def _on_model_point(self) -> None:
        self._on_model_running()
        self.point_shown.emit(self.state.points[-1])

    def _on_model_finished(self) -> None:
        self.sweep_finished.emit(list(self.state.points))

    def _on_model_stopped(self) -> None:
        self.sweep_stopped.emit()

    def _on_model_failed(self) -> None:
        assert self.state.failure is not None  # "failed" is heard once it is set
        words, error = self.state.failure
        self.sweep_failed.emit(words)
        self._warn(*self.state.failure_message(), error=error)

    def _warn(self, title: str, text: str, *, error: BaseException | None = None) -> None:
        """Tell the user as the window this one belongs to does (which logs it, and shows no
        message box with its boxes off); on its own, log it and show a box."""
        if self._messages is not None:
            self._messages.warn(title, text, error=error)
            return
        log.warning("%s: %s", title, text, exc_info=error)
        QMessageBox.warning(self, title, text)

    # --- Saving -------------------------------------------------------------------------

    def picture_png(self) -> bytes:
        """The chart as PNG."""
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        # PySide6 takes a str for the format's char * too; its stubs say bytes only.
        self.chart.grab().toImage().save(buffer, "PNG")  # type: ignore[call-overload]
        buffer.close()
        return bytes(data.data())

    def _save_name(self, extension: str) -> str:
        folder = QStandardPaths.writableLocation(
            QStandardPaths.StandardLocation.DocumentsLocation
        ) or str(Path.home())
        name = f"{self.photo.path.stem}-sweep-{self.parameters.file_tag()}{extension}"
        return str(Path(folder) / name)

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

    def _stop_runner(self) -> None:
        """Stop the sweep, waiting CLOSE_WAIT_MS at most: one still inside one JAX call ends on
        its own once the call returns, and nothing it still sends reaches this window."""
        self.stop()
        if not self.runner.stop(CLOSE_WAIT_MS):
            log.info("the sweep ends once its JAX call returns")

    def _close_down(self) -> None:
        self._stop_runner()
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
    named = Path(path)
    return named if named.suffix.lower() == extension else named.with_name(named.name + extension)


def open_sweep_window(window) -> SweepWindow | None:
    """Run ▸ Scaling Sweep: the main window's sweep window on its photo, parameters and timed
    engines, made on first use (WindowController.open_sweep); None without a photo."""

    def make(state: SweepState, jobs: JobGroup) -> SweepWindow:
        made = SweepWindow(state, jobs, window, messages=window.messages)
        # A closed one is deleted soon: the controller then makes another.
        made.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        return made

    sweep = cast(SweepWindow | None, window.controller.open_sweep(make))
    if sweep is None:
        return None
    sweep.show()
    sweep.raise_()
    sweep.activateWindow()
    return sweep
