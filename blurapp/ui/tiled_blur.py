"""An image too large to open in the window, blurred to a file by blocks instead.

The window offers it when a TIFF or zarr image is past what it can hold (see
blurapp.scale.tiled.needs_tiles); the blur runs on a worker thread of its own, under a progress
dialog whose Cancel stops it between rows of blocks.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QMessageBox,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

from blurapp.app.session import BlurSpec
from blurapp.core.wording import display_path
from blurapp.ui.worker import WorkerThread, finish_in_background

log = logging.getLogger(__name__)

# Closing the dialog waits this long for the row of blocks in hand; a longer one finishes in
# the background (its temporary file is removed when it stops).
CLOSE_WAIT_MS = 250


class TiledBlurWorker(QObject):
    progress = Signal(int, int)  # blocks done, blocks in all
    finished = Signal(object)  # TiledResult
    failed = Signal(str)  # why, in a user's words
    cancelled = Signal()
    _start = Signal()

    def __init__(self, source: Path, output: Path, parameters: BlurSpec, engine: str) -> None:
        super().__init__()
        self.source, self.output = source, output
        self.parameters, self.engine = parameters, engine
        self._stopping = threading.Event()
        self._start.connect(self.run)

    def stop(self) -> None:
        self._stopping.set()

    @Slot()
    def run(self) -> None:
        from blurapp.core.photo import PhotoError
        from blurapp.core.runs import BlurCancelled
        from blurapp.core.saving import OutputError
        from blurapp.scale import tiled
        from blurapp.scale.tiled import ClusterError, MissingExtraError, blur_file_tiled

        made = self.parameters
        kernel = made.kernel
        try:
            result = blur_file_tiled(
                self.source,
                self.output,
                kernel=kernel,
                engine=self.engine,
                color=made.color,
                progress=self.progress.emit,
                cancelled=self._stopping.is_set,
                block=tiled.DEFAULT_BLOCK,
                description=made.description(self.engine),
            )
        except BlurCancelled:
            self.cancelled.emit()
        except (PhotoError, OutputError, MissingExtraError, ClusterError) as error:
            self.failed.emit(str(error))
        except MemoryError:
            self.failed.emit(f"{display_path(self.source)}: not enough memory for its blocks")
        except Exception as error:
            log.exception("the blur by blocks failed")
            self.failed.emit(f"{display_path(self.source)}: {type(error).__name__}: {error}")
        else:
            self.finished.emit(result)


class TiledBlurDialog(QDialog):
    """The progress of one blur by blocks; `ended` says how it ended once it has.

    A plain dialog with a bar, not a QProgressDialog: a modal one processes events inside
    setValue, and a row of blocks ending there would end the dialog under its own feet."""

    ended = Signal(str, str)  # how ("written", "failed", "cancelled"), the words to show

    def __init__(
        self,
        source: Path,
        output: Path,
        parameters: BlurSpec,
        engine: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Blurring by Blocks"))
        self.label = QLabel(
            self.tr("Blurring {name} by blocks into {output}…").format(
                name=source.name, output=output.name
            )
        )
        self.label.setWordWrap(True)
        self.bar = QProgressBar()
        # Empty until the first row of blocks says how many there are. (Not Qt's "busy" range
        # of 0 to 0: Fusion's animation of it crashed once the dialog had been hidden.)
        self.bar.setRange(0, 1)
        self.bar.setValue(0)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        buttons.rejected.connect(self.cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(buttons)
        self.setMinimumWidth(420)
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.output = output
        self.outcome: tuple[str, str] | None = None
        self._thread = WorkerThread(
            TiledBlurWorker(source, output, parameters, engine), "blurapp-tiled"
        )
        worker = self._thread.worker
        worker.progress.connect(self._on_progress)
        worker.finished.connect(self._on_finished)
        # Bound methods of this dialog, not lambdas: so they run on its thread, not the worker's.
        worker.failed.connect(self._on_failed)
        worker.cancelled.connect(self._on_cancelled)
        worker._start.emit()

    @Slot(int, int)
    def _on_progress(self, done: int, total: int) -> None:
        # QProgressBar.setValue repaints at once when the value moves far enough; with the
        # window-modal dialog that repaint could land inside a paint already going (Qt warned
        # "Recursive repaint detected", then crashed). Updates off while it is set, then one
        # ordinary update, drawn with the next paint.
        self.bar.setUpdatesEnabled(False)
        self.bar.setMaximum(total)
        self.bar.setValue(done)
        self.bar.setUpdatesEnabled(True)
        self.bar.update()
        self.label.setText(
            self.tr("Blurring by blocks into {output}: {done} of {total} blocks").format(
                output=self.output.name, done=done, total=total
            )
        )

    @Slot(object)
    def _on_finished(self, result) -> None:
        megapixels = result.width * result.height / 1e6
        self._end(
            "written",
            self.tr("Wrote {output}: {width} × {height} ({megapixels} MP) in {seconds} s.").format(
                output=display_path(self.output),
                width=f"{result.width:,}",
                height=f"{result.height:,}",
                megapixels=f"{megapixels:,.0f}",
                seconds=f"{result.seconds:.1f}",
            ),
        )

    @Slot(str)
    def _on_failed(self, text: str) -> None:
        self._end("failed", text)

    @Slot()
    def _on_cancelled(self) -> None:
        self._end("cancelled", self.tr("The blur by blocks was cancelled."))

    def cancel(self) -> None:
        self.label.setText(self.tr("Stopping after the blocks in hand…"))
        self._thread.worker.stop()

    def reject(self) -> None:
        """Esc or the close button: cancel; the dialog goes once the blur has stopped."""
        self.cancel()

    def _end(self, how: str, text: str) -> None:
        if self.outcome is not None:
            return
        self.outcome = (how, text)
        self._let_go()
        self.hide()
        self.ended.emit(how, text)
        self.deleteLater()  # each blur has a dialog of its own; this one is done

    def _let_go(self) -> None:
        if not self._thread.stop(wait_ms=CLOSE_WAIT_MS):
            finish_in_background(self._thread)

    def closeEvent(self, event) -> None:
        self._thread.worker.stop()
        self._let_go()
        super().closeEvent(event)


def offer_blur_by_blocks(
    window: QWidget, source: Path, parameters: BlurSpec, engine: str, problem: str
) -> TiledBlurDialog | None:
    """Ask whether to blur `source` (which the window cannot open: `problem`) to a file by
    blocks; start it if so. Returns the progress dialog, or None if the user declined."""
    answer = QMessageBox.question(
        window,
        QCoreApplication.translate("TiledBlurDialog", "Photo Too Large to Open"),
        QCoreApplication.translate(
            "TiledBlurDialog",
            "{problem}\n\nBlurApp can still blur it with the current parameters by blocks, "
            "straight into a file, without opening it. Blur it to a file?",
        ).format(problem=problem),
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.Yes,
    )
    if answer != QMessageBox.StandardButton.Yes:
        return None
    suggested = source.with_name(parameters.result_name(source.stem, engine) + ".tif")
    chosen, _ = QFileDialog.getSaveFileName(
        window,
        QCoreApplication.translate("TiledBlurDialog", "Blur to File"),
        str(suggested),
        QCoreApplication.translate(
            "TiledBlurDialog", "Tiled TIFF (*.tif *.tiff);;NumPy array (*.npy)"
        ),
    )
    if not chosen:
        return None
    output = Path(chosen)
    if output.suffix.lower() not in {".tif", ".tiff", ".npy"}:
        output = output.with_name(output.name + ".tif")
        # The file dialog asked about the name typed, not this one.
        if output.exists() and (
            QMessageBox.question(
                window,
                QCoreApplication.translate("TiledBlurDialog", "Replace File?"),
                QCoreApplication.translate(
                    "TiledBlurDialog", "{name} already exists. Replace it?"
                ).format(name=output.name),
            )
            != QMessageBox.StandardButton.Yes
        ):
            return None
    dialog = TiledBlurDialog(source, output, parameters, engine, window)
    dialog.show()
    return dialog
