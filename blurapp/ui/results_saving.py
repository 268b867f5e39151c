"""File ▸ Save Results: every engine's result as a PNG named and described by the parameters
that made it, into a folder the user picks; never over the photo itself. Edit ▸ Copy Selected
Image: the selected pane's picture, to the clipboard."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from blurapp.core.saving import OutputError, check_output_path, save_output
from blurapp.core.wording import display_path
from blurapp.ui.settings import open_folder, read_setting, write_setting

if TYPE_CHECKING:
    from blurapp.ui.main_window import MainWindow


def _tr(text: str) -> str:
    return QCoreApplication.translate("MainWindow", text)


def _confirm_mixed_parameters(window: MainWindow) -> bool:
    """When the results were made with different parameters, say so and ask."""
    lines = window.session.mixed_parameters()
    if not lines:
        return True
    answer = QMessageBox.question(
        window,
        _tr("Save Results Made with Different Parameters?"),
        _tr("The two results were not made with the same parameters:")
        + "\n{}\n\n".format("\n".join(lines))
        + _tr("Each file's name and description say which parameters made it. Save both?"),
        QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel,
    )
    return answer == QMessageBox.StandardButton.Save


def save_results(window: MainWindow) -> None:
    """Write each engine's result as PNG, atomically, into a folder the user picks."""
    session = window.session
    results = session.saved_results()
    if not results or session.photo is None:
        return
    if not _confirm_mixed_parameters(window):
        return
    start = read_setting(window.settings, "last_save_folder") or str(open_folder(window.settings))
    folder = QFileDialog.getExistingDirectory(
        window, _tr("Save Results to Folder"), display_path(start)
    )
    if not folder:
        return
    folder = Path(folder)
    targets = {engine: folder / session.result_file_name(engine) for engine in results}
    try:
        for path in targets.values():
            check_output_path(path, source=session.photo.path)
    except OutputError as error:
        window._warn(_tr("Cannot Save Results"), _translated(error), error=error)
        return
    existing = [path for path in targets.values() if path.exists()]
    if existing:
        names = "\n".join(display_path(path.name) for path in existing)
        answer = QMessageBox.question(
            window,
            _tr("Replace Files?"),
            _tr("These files already exist in {folder}:").format(folder=display_path(folder))
            + f"\n{names}\n\n"
            + _tr("Replace them?"),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
    try:
        for engine, path in targets.items():
            kept = results[engine]
            save_output(
                path,
                kept.run.output,
                bit_depth=kept.photo.bit_depth,
                description=session.result_description(engine),
            )
    except OutputError as error:
        window._warn(_tr("Cannot Save Results"), _translated(error), error=error)
        return
    write_setting(window.settings, "last_save_folder", str(folder))
    window.status_label.setText(
        _tr("Saved {files} in {folder}").format(
            files=", ".join(display_path(p.name) for p in targets.values()),
            folder=display_path(folder),
        )
    )


def _translated(error: OutputError) -> str:
    from blurapp.ui.translations import translated_problem

    return translated_problem(error)


def copy_selected(window: MainWindow) -> None:
    """Edit ▸ Copy Selected Image: the selected pane's picture to the clipboard."""
    pane = window.panes[window.selected_pane]
    if pane.view.has_picture():
        QApplication.clipboard().setImage(pane.view.image())
        window.status_label.setText(
            QCoreApplication.translate("MainWindow", "Copied the {engine} image").format(
                engine=pane.title
            )
        )
