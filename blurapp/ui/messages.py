"""Warnings to the user: the one place a window's problem is logged and shown."""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

log = logging.getLogger("blurapp.ui.main_window")


class Messages(QObject):
    """Tells the user: the log gets the message, and an error's traceback when there is one;
    a message box shows it, unless `boxes` is off (a screenshot, whose receiver of `shown`
    prints an `error:` line, and the log keeps it to its file)."""

    shown = Signal(str, str)  # title, text: every warning the user is given

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self._parent = parent
        self.boxes = True

    def warn(
        self, title: str, text: str, *, critical: bool = False, error: BaseException | None = None
    ) -> None:
        # The one place a window error is logged, so it reaches the terminal once.
        level = logging.ERROR if critical else logging.WARNING
        extra = {} if self.boxes else {"file_only": True}
        log.log(level, "%s: %s", title, text, exc_info=error, extra=extra)
        self.shown.emit(title, text)
        if self.boxes:
            box = QMessageBox.critical if critical else QMessageBox.warning
            box(self._parent, title, text)
