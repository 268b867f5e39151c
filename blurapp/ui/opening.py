"""Files dropped on the window: the first local file of a drop, which the window opens as a
photo or a clip (see WindowController.open_path)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QDragEnterEvent, QDropEvent


def accept_drop(event: QDragEnterEvent | QDropEvent) -> Path | None:
    """The file a drag brings, the drag accepted; None (and the drag refused) without one."""
    mime = event.mimeData()
    for url in mime.urls() if mime.hasUrls() else []:
        if url.isLocalFile():
            event.acceptProposedAction()
            return Path(url.toLocalFile())
    event.ignore()
    return None
