"""File ▸ Save Results: every engine's result as a PNG named and described by the parameters
that made it, into a folder the user picks; never over the photo itself. Edit ▸ Copy Selected
Image: the selected pane's picture, to the clipboard."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QWidget

from blurapp.core.media.saving import OutputError
from blurapp.core.wording import display_path
from blurapp.ui.settings import open_folder, read_settings, write_settings
from blurapp.ui.translations import translated_problem

if TYPE_CHECKING:
    from blurapp.app.session import Session
    from blurapp.app.settings_file import SettingsFile
    from blurapp.app.window_controller import WindowController
    from blurapp.ui.messages import Messages
    from blurapp.ui.window_layout import WindowWidgets


class ResultsWindow(Protocol):
    """What saving and copying results use of the main window (a QWidget, the dialogs' parent)."""

    session: Session
    controller: WindowController
    settings: SettingsFile
    messages: Messages
    widgets: WindowWidgets
    selected_pane: int


def _parent(window: ResultsWindow) -> QWidget:
    """The window as its dialogs' parent: a QWidget too, which a Protocol cannot say."""
    return cast(QWidget, window)


def _confirm_mixed_parameters(window: ResultsWindow) -> bool:
    """The results were made with different parameters: say so and ask."""
    lines = window.session.captions.mixed_parameters()
    answer = QMessageBox.question(
        _parent(window),
        QCoreApplication.translate("MainWindow", "Save Results Made with Different Parameters?"),
        QCoreApplication.translate(
            "MainWindow", "The two results were not made with the same parameters:"
        )
        + "\n{}\n\n".format("\n".join(lines))
        + QCoreApplication.translate(
            "MainWindow",
            "Each file's name and description say which parameters made it. Save both?",
        ),
        QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel,
    )
    return answer == QMessageBox.StandardButton.Save


def _choose_out_of_date(window: ResultsWindow, results: dict) -> dict | None:
    """When a result is out of date (made before the parameters or the photo changed), say so
    and ask: Save keeps to the current results, Save All includes the out-of-date ones too; None
    for Cancel."""
    session = window.session
    reasons = {engine: session.captions.result_out_of_date(engine) for engine in results}
    stale = [engine for engine, reason in reasons.items() if reason]
    assert stale, "asked only when a result is out of date"
    current = {engine: kept for engine, kept in results.items() if not reasons[engine]}
    lines = "\n".join(f"{session.captions.title(engine)}: {reasons[engine]}" for engine in stale)
    buttons = QMessageBox.StandardButton.SaveAll | QMessageBox.StandardButton.Cancel
    if current:
        names = ", ".join(session.captions.title(engine) for engine in current)
        advice = QCoreApplication.translate(
            "MainWindow", "Save keeps to the current results ({names}); Save All includes these."
        )
        advice = advice.format(names=names)
        buttons |= QMessageBox.StandardButton.Save
        default = QMessageBox.StandardButton.Save
    else:
        advice = QCoreApplication.translate(
            "MainWindow", "None is current: Save All saves them as they are."
        )
        default = QMessageBox.StandardButton.Cancel
    answer = QMessageBox.question(
        _parent(window),
        QCoreApplication.translate("MainWindow", "Save Out-of-Date Results?"),
        QCoreApplication.translate("MainWindow", "These results are out of date:")
        + f"\n{lines}\n\n"
        + advice,
        buttons,
        default,
    )
    if answer == QMessageBox.StandardButton.Save and current:
        return current
    if answer == QMessageBox.StandardButton.SaveAll:
        return results
    return None


def save_results(window: ResultsWindow) -> None:
    """Write each engine's result as PNG, atomically, into a folder the user picks."""
    session = window.session
    results = session.captions.saved_results()
    if not results or session.photo is None:
        return
    if session.captions.mixed_parameters():
        # Which parameters made each is the question then; each file's name says it too.
        if not _confirm_mixed_parameters(window):
            return
    elif any(session.captions.result_out_of_date(engine) for engine in results):
        # Made alike, but not what the window shows now (another photo, the colour, a later
        # run): never saved without a word.
        chosen = _choose_out_of_date(window, results)
        if chosen is None:
            return
        results = chosen
    remembered = read_settings(window.settings)
    start = remembered.last_save_folder or str(open_folder(window.settings))
    picked = QFileDialog.getExistingDirectory(
        _parent(window),
        QCoreApplication.translate("MainWindow", "Save Results to Folder"),
        display_path(start),
    )
    if not picked:
        return
    folder = Path(picked)
    try:
        targets = window.controller.result_files(folder, results)
    except OutputError as error:
        window.messages.warn(
            QCoreApplication.translate("MainWindow", "Cannot Save Results"),
            _translated(error),
            error=error,
        )
        return
    existing = [path for path in targets.values() if path.exists()]
    if existing:
        names = "\n".join(display_path(path.name) for path in existing)
        answer = QMessageBox.question(
            _parent(window),
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
        window.controller.save_results(targets, results)
    except OutputError as error:
        window.messages.warn(
            QCoreApplication.translate("MainWindow", "Cannot Save Results"),
            _translated(error),
            error=error,
        )
        return
    write_settings(window.settings, dataclasses.replace(remembered, last_save_folder=str(folder)))
    window.widgets.status_label.setText(
        QCoreApplication.translate("MainWindow", "Saved {files} in {folder}").format(
            files=", ".join(display_path(p.name) for p in targets.values()),
            folder=display_path(folder),
        )
    )


def _translated(error: OutputError) -> str:
    return translated_problem(error)


def copy_selected(window: ResultsWindow) -> None:
    """Edit ▸ Copy Selected Image: the selected pane's picture to the clipboard."""
    pane = window.widgets.panes[window.selected_pane]
    if pane.view.has_picture():
        QApplication.clipboard().setImage(pane.view.image())
        window.widgets.status_label.setText(
            QCoreApplication.translate("MainWindow", "Copied the {engine} image").format(
                engine=pane.title
            )
        )
