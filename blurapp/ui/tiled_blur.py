"""An image too large to open in the window, blurred to a file by blocks instead.

The window offers it when a TIFF or zarr image is past what it can hold (see
blurapp.scale.tiled_read.needs_tiles); the blur (blurapp.app.jobs.blur_to_file_job) runs on the
window's one runner (started by WindowController.blur_by_blocks, after the jobs before it),
under a progress dialog whose Cancel stops it between rows of blocks.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, Signal, Slot
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

from blurapp.app.jobs import BlocksDone, failure_words, is_foreseen
from blurapp.app.window_controller import BlurByBlocks
from blurapp.core.spec import BlurSpec
from blurapp.core.wording import display_path
from blurapp.ui.messages import Messages

log = logging.getLogger(__name__)

# Closing the dialog waits this long for the row of blocks in hand; a longer one finishes in
# the background (its temporary file is removed when it stops).
CLOSE_WAIT_MS = 250


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
        blur: BlurByBlocks,
        parent: QWidget | None = None,
    ) -> None:
        """`blur` starts the blur (WindowController.blur_by_blocks), with `parameters` and
        `engine`, which the dialog's words name."""
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
        self.source = source
        self.job = blur(
            source,
            output,
            on_progress=self._on_progress,
            on_done=self._on_finished,
            on_failed=self._on_failed,
            on_stopped=self._on_cancelled,
        )

    @Slot(object)
    def _on_progress(self, blocks: BlocksDone) -> None:
        done, total = blocks.done, blocks.total
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
            self.tr(
                "Blurring by blocks into {output}: {done} of {total} blocks, {rate} MP/s"
            ).format(
                output=self.output.name,
                done=done,
                total=total,
                rate=self.locale().toString(blocks.megapixels_per_second, "f", 1),
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

    def _on_failed(self, error: BaseException) -> None:
        if not is_foreseen(error):
            log.error("the blur by blocks failed", exc_info=error)
        self._end("failed", failure_words(error, subject=self.source, memory_for="its blocks"))

    @Slot()
    def _on_cancelled(self) -> None:
        self._end("cancelled", self.tr("The blur by blocks was cancelled."))

    def cancel(self) -> None:
        self.label.setText(self.tr("Stopping after the blocks in hand…"))
        self.job.quit()

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
        # A row of blocks longer than this finishes on its own; its temporary file then goes.
        self.job.quit()
        self.job.wait(CLOSE_WAIT_MS)

    def stop_for_exit(self) -> None:
        """The window is closing: stop the blur now, without waiting to say how it ended."""
        self.outcome = ("cancelled", "")
        self._let_go()
        self.hide()

    def closeEvent(self, event) -> None:
        """The title bar's close button (or close()): a cancel like Esc, which the window hears
        of once the blur has stopped; the dialog goes then."""
        if self.outcome is None:
            event.ignore()
            self.cancel()
            return
        super().closeEvent(event)


def tell_blurred_by_blocks(parent: QWidget, messages: Messages, how: str, text: str) -> None:
    """How a blur by blocks ended, told as the user expects: a written file in a box, a
    failure as a warning, a cancel only in the status line (the window's)."""
    if how == "written" and messages.boxes:
        QMessageBox.information(
            parent, QCoreApplication.translate("MainWindow", "Blurred by Blocks"), text
        )
    elif how == "failed":
        messages.warn(QCoreApplication.translate("MainWindow", "Cannot Blur by Blocks"), text)


def ask_to_blur_by_blocks(
    window: QWidget,
    source: Path,
    parameters: BlurSpec,
    engine: str,
    problem: str,
    blur: BlurByBlocks,
) -> TiledBlurDialog | None:
    """Ask whether to blur `source` (which the window cannot open: `problem`) to a file by
    blocks with `parameters` and `engine`; start it with `blur` if so. Returns the progress
    dialog, or None if the user declined."""
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
    # the scale layer: as above
    from blurapp.scale.tiled_read import has_colour

    in_colour = parameters.color and has_colour(source)
    name = parameters.result_name(source.stem, engine, in_colour=in_colour)
    suggested = source.with_name(f"{name}.tif")
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
    dialog = TiledBlurDialog(source, output, parameters, engine, blur, window)
    dialog.show()
    return dialog
