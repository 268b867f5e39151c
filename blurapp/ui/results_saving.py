"""File ▸ Save Results: every engine's result as a PNG named and described by the parameters
that made it, into a folder the user picks; never over the photo itself. Edit ▸ Copy Selected
Image: the selected pane's picture, to the clipboard."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QMessageBox, QWidget

from blurapp.app.results_to_save import Answer, Question, ResultsToSave, results_to_save
from blurapp.app.window_settings import read_settings, write_settings
from blurapp.core.media.saving import OutputError
from blurapp.core.wording import display_path
from blurapp.ui.settings import open_folder
from blurapp.ui.translations import translated_problem

if TYPE_CHECKING:
    from blurapp.app.settings_file import SettingsFile
    from blurapp.app.window_controller import WindowController
    from blurapp.ui.image_pane import ResultPane
    from blurapp.ui.messages import Messages


def _confirm_mixed_parameters(parent: QWidget, to_save: ResultsToSave) -> Answer:
    """The results were made with different parameters: say so and ask."""
    answer = QMessageBox.question(
        parent,
        QCoreApplication.translate("MainWindow", "Save Results Made with Different Parameters?"),
        QCoreApplication.translate(
            "MainWindow", "The two results were not made with the same parameters:"
        )
        + "\n{}\n\n".format("\n".join(to_save.mixed_parameters))
        + QCoreApplication.translate(
            "MainWindow",
            "Each file's name and description say which parameters made it. Save both?",
        ),
        QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel,
    )
    return Answer.SAVE if answer == QMessageBox.StandardButton.Save else Answer.CANCEL


def _choose_out_of_date(parent: QWidget, to_save: ResultsToSave) -> Answer:
    """Some results are out of date (made before the parameters or the photo changed): say so
    and ask: Save keeps to the current results, Save All includes the out-of-date ones too."""
    lines = "\n".join(to_save.out_of_date_lines())
    buttons = QMessageBox.StandardButton.SaveAll | QMessageBox.StandardButton.Cancel
    if to_save.current:
        advice = QCoreApplication.translate(
            "MainWindow", "Save keeps to the current results ({names}); Save All includes these."
        )
        advice = advice.format(names=", ".join(to_save.current_titles()))
        buttons |= QMessageBox.StandardButton.Save
        default = QMessageBox.StandardButton.Save
    else:
        advice = QCoreApplication.translate(
            "MainWindow", "None is current: Save All saves them as they are."
        )
        default = QMessageBox.StandardButton.Cancel
    answer = QMessageBox.question(
        parent,
        QCoreApplication.translate("MainWindow", "Save Out-of-Date Results?"),
        QCoreApplication.translate("MainWindow", "These results are out of date:")
        + f"\n{lines}\n\n"
        + advice,
        buttons,
        default,
    )
    if answer == QMessageBox.StandardButton.Save:
        return Answer.SAVE
    if answer == QMessageBox.StandardButton.SaveAll:
        return Answer.SAVE_ALL
    return Answer.CANCEL


def save_results(
    parent: QWidget,
    controller: WindowController,
    settings: SettingsFile,
    messages: Messages,
    status: QLabel,
) -> None:
    """Write each engine's result as PNG, atomically, into a folder the user picks (a dialog
    over `parent`), named and written by `controller`; the folder kept in `settings`, a
    problem told through `messages`, the files saved in `status`."""
    to_save = results_to_save(controller.session)
    if to_save is None:
        return
    if to_save.question is Question.MIXED_PARAMETERS:
        choice = _confirm_mixed_parameters(parent, to_save)
    elif to_save.question is Question.OUT_OF_DATE:
        choice = _choose_out_of_date(parent, to_save)
    else:
        choice = Answer.SAVE
    results = to_save.chosen(choice)
    if results is None:
        return
    remembered = read_settings(settings)
    start = remembered.last_save_folder or str(open_folder(settings))
    picked = QFileDialog.getExistingDirectory(
        parent,
        QCoreApplication.translate("MainWindow", "Save Results to Folder"),
        display_path(start),
    )
    if not picked:
        return
    folder = Path(picked)
    try:
        targets = controller.result_files(folder, results)
    except OutputError as error:
        messages.warn(
            QCoreApplication.translate("MainWindow", "Cannot Save Results"),
            _translated(error),
            error=error,
        )
        return
    existing = [path for path in targets.values() if path.exists()]
    if existing:
        names = "\n".join(display_path(path.name) for path in existing)
        answer = QMessageBox.question(
            parent,
            QCoreApplication.translate("MainWindow", "Replace Files?"),
            QCoreApplication.translate(
                "MainWindow", "These files already exist in {folder}:"
            ).format(folder=display_path(folder))
            + f"\n{names}\n\n"
            + QCoreApplication.translate("MainWindow", "Replace them?"),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
    try:
        controller.save_results(targets, results)
    except OutputError as error:
        messages.warn(
            QCoreApplication.translate("MainWindow", "Cannot Save Results"),
            _translated(error),
            error=error,
        )
        return
    write_settings(settings, dataclasses.replace(remembered, last_save_folder=str(folder)))
    status.setText(
        QCoreApplication.translate("MainWindow", "Saved {files} in {folder}").format(
            files=", ".join(display_path(p.name) for p in targets.values()),
            folder=display_path(folder),
        )
    )


def _translated(error: OutputError) -> str:
    return translated_problem(error)


def copy_selected(pane: ResultPane, status: QLabel) -> None:
    """Edit ▸ Copy Selected Image: the selected pane's picture to the clipboard, said in
    `status`."""
    if pane.view.has_picture():
        QApplication.clipboard().setImage(pane.view.image())
        status.setText(
            QCoreApplication.translate("MainWindow", "Copied the {engine} image").format(
                engine=pane.title
            )
        )
