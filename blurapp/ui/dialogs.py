"""The window's dialogs: Help ▸ Keyboard Shortcuts and Help ▸ About."""

from __future__ import annotations

import html
import platform
import sys

from PySide6.QtCore import QCoreApplication, Qt, qVersion
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from blurapp._version import __version__
from blurapp.ui.identity import APP_NAME


class ShortcutsDialog(QDialog):
    """A table of the window's keyboard shortcuts."""

    def __init__(self, rows: list[tuple[str, str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard Shortcuts"))
        table = QTableWidget(len(rows), 3, self)
        table.setHorizontalHeaderLabels([self.tr("Menu"), self.tr("Action"), self.tr("Keys")])
        table.verticalHeader().hide()
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        table.setAccessibleName(self.tr("Keyboard shortcuts"))
        for row, cells in enumerate(rows):
            for column, text in enumerate(cells):
                table.setItem(row, column, QTableWidgetItem(text))
        table.resizeColumnsToContents()
        table.resizeRowsToContents()
        table.horizontalHeader().setStretchLastSection(True)
        notes = QLabel(
            self.tr(
                "Tab moves through the parameters and the two panes; in a pane the arrow keys "
                "pan. Alt and an underlined letter jumps to a parameter."
            )
        )
        notes.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(table)
        layout.addWidget(notes)
        layout.addWidget(buttons)
        self.table = table
        # Every row at once, as far as the screen allows; the rest of the dialog (note,
        # buttons, title bar) needs about ROOM_AROUND_TABLE pixels.
        frame = 2 * table.frameWidth()
        rows_height = (
            table.horizontalHeader().sizeHint().height() + table.verticalHeader().length() + frame
        )
        screen = parent.screen() if parent is not None else QApplication.primaryScreen()
        available = screen.availableGeometry()
        table.setMinimumHeight(min(rows_height, available.height() - self.ROOM_AROUND_TABLE))
        table.setMinimumWidth(
            min(
                table.horizontalHeader().length()
                + frame
                + table.verticalScrollBar().sizeHint().width(),
                available.width() - 40,
            )
        )
        self.resize(self.sizeHint())

    ROOM_AROUND_TABLE = 180


def version_rows(jax_device: str | None) -> list[tuple[str, str]]:
    """(name, version) of BlurApp and what it runs on: what a bug report needs.

    JAX is described only if something has already imported it: About must not wait for it.
    """
    import numpy
    import PySide6

    translate = QCoreApplication.translate
    jax = sys.modules.get("jax")
    if jax is None:
        jax_text = translate("MainWindow", "not loaded yet")
    else:
        device = jax_device or translate("MainWindow", "device not known yet")
        jax_text = f"{jax.__version__} ({device})"
    return [
        (APP_NAME, __version__),
        ("Python", f"{platform.python_version()} ({platform.python_implementation()})"),
        ("NumPy", numpy.__version__),
        ("JAX", jax_text),
        ("Qt", qVersion()),
        ("PySide6", PySide6.__version__),
        (translate("MainWindow", "System"), platform.platform()),
    ]


class AboutDialog(QDialog):
    """Help ▸ About: what BlurApp is, every version a bug report needs (selectable, with a
    Copy button), and where the log is."""

    def __init__(
        self, versions: list[tuple[str, str]], log_file: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("About BlurApp"))
        self.versions_text = "\n".join(f"{name}: {value}" for name, value in versions)
        rows = "".join(
            f"<tr><td>{html.escape(name)}</td><td>{html.escape(value)}</td></tr>"
            for name, value in versions
        )
        self.label = QLabel(
            f"<b>{APP_NAME} {__version__}</b><p>"
            + self.tr(
                "The same Gaussian blur with NumPy on the CPU and with JAX-jit on the "
                "accelerator (or the CPU), side by side."
            )
            + f'</p><table cellspacing="0" cellpadding="2">{rows}</table><p>'
            + self.tr("Warnings and errors are logged to:")
            + f"<br><tt>{html.escape(log_file)}</tt></p>"
        )
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = buttons.addButton(
            self.tr("&Copy Versions"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.copy_button.setToolTip(self.tr("Copy the versions, to paste into a bug report"))
        self.copy_button.clicked.connect(
            lambda: QApplication.clipboard().setText(self.versions_text)
        )
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addWidget(buttons)
        self.setMinimumWidth(420)
