"""The bar under the panes while a clip is open: Play/Pause, the frame slider and where the
clip is. The window's display (blurapp.ui.window_display) drives it."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSlider, QWidget


class ClipBar(QWidget):
    """Under the panes while a clip is open: Play/Pause, the frame slider and the frame."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.play_button = QPushButton()
        self.play_button.setCheckable(True)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setAccessibleName(QCoreApplication.translate("ClipDisplay", "Frame"))
        self.slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # ←/→ step frames wherever it is
        self.frame_label = QLabel()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.play_button)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.frame_label)
        self.show_playing(False)
        self.hide()

    def show_playing(self, playing: bool) -> None:
        self.play_button.setChecked(playing)
        self.play_button.setText(
            QCoreApplication.translate("ClipDisplay", "Pause")
            if playing
            else QCoreApplication.translate("ClipDisplay", "Play")
        )
        self.play_button.setToolTip(
            QCoreApplication.translate("ClipDisplay", "Play or pause the clip (Space)")
        )

    def show_frame(self, index: int, words: str) -> None:
        self.slider.blockSignals(True)
        self.slider.setValue(index)
        self.slider.blockSignals(False)
        self.frame_label.setText(words)

    def show_clip(self, frame_count: int | None) -> None:
        """A clip of `frame_count` frames (None: a camera, which has no slider)."""
        self.slider.setVisible(frame_count is not None)
        self.slider.setRange(0, max((frame_count or 1) - 1, 0))
        self.show()
