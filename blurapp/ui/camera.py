"""A camera as a clip (Qt Multimedia: QCamera into a QVideoSink), and File ▸ Open Camera,
offered only where Qt Multimedia is installed and finds a camera.

The camera's frames come on Qt's side as they are captured; the clip keeps the newest, and
its reader (the playing's thread, blurapp.app.clip_player) takes each new one as it comes. A
camera that goes away (unplugged, taken by another program, an error) ends the clip with a
ClipError saying so, which the window shows while it stays up.

Qt Multimedia is imported only when File ▸ Open Camera is offered (the File menu's first
showing), not with the window: a window that never uses a camera pays nothing for it.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction

from blurapp.core.media.clip import Clip, ClipError, ClipInfo
from blurapp.core.wording import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from blurapp.ui.messages import Messages

log = logging.getLogger(__name__)

# A camera that gives no frame for this long has gone, whatever it says.
SILENT_SECONDS = 5.0
# The format asked of a camera: the largest of its sizes up to this many pixels (1080p).
MOST_PIXELS = 1920 * 1080
DEFAULT_CAMERA_RATE = 30.0


def camera_devices() -> list[Any]:
    """The cameras Qt Multimedia finds; none where it is not installed (PySide6-Addons)."""
    try:
        from PySide6.QtMultimedia import QMediaDevices
    except ImportError:
        return []
    return list(QMediaDevices.videoInputs())


class CameraClip(Clip):
    """The frames of a camera as they are captured: colour, frame_count None."""

    def __init__(self, device: Any) -> None:
        from PySide6.QtMultimedia import (
            QCamera,
            QMediaCaptureSession,
            QMediaDevices,
            QVideoSink,
        )

        self._device = device
        name = device.description() or "Camera"
        self._begin_frames()
        self._camera = QCamera(device)
        formats = [f for f in device.videoFormats() if _pixels(f) <= MOST_PIXELS]
        if formats:
            self._camera.setCameraFormat(max(formats, key=_pixels))
        chosen = self._camera.cameraFormat()
        size = chosen.resolution()
        rate = chosen.maxFrameRate() if not chosen.isNull() else 0.0
        self.info = ClipInfo(
            name=name,
            width=max(size.width(), 1),
            height=max(size.height(), 1),
            frame_count=None,
            frames_per_second=rate if rate > 0 else DEFAULT_CAMERA_RATE,
            colour=True,
        )
        self._session = QMediaCaptureSession()
        self._sink = QVideoSink()
        self._session.setCamera(self._camera)
        self._session.setVideoSink(self._sink)
        self._sink.videoFrameChanged.connect(self._on_frame)
        self._camera.errorOccurred.connect(lambda error, words: self._went(words))
        self._devices = QMediaDevices()
        self._devices.videoInputsChanged.connect(self._on_devices_changed)
        self._camera.start()

    def _begin_frames(self) -> None:
        self._condition = threading.Condition()
        # The newest frame captured: its serial number, and its red, green and blue levels
        # (0-255), made floats by the reader, off the window's thread.
        self._newest: tuple[int, np.ndarray] | None = None
        self._gone: str | None = None
        self._closed = False

    def _on_frame(self, frame: Any) -> None:
        # On the window's thread: only a copy of the frame's bytes (a 1080p frame made floats
        # here would hold the window up for tens of milliseconds, 30 times a second).
        image = frame.toImage()
        if image.isNull():
            return
        from PySide6.QtGui import QImage

        image = image.convertToFormat(QImage.Format.Format_RGB888)
        width, height = image.width(), image.height()
        rows = np.frombuffer(image.constBits(), np.uint8).reshape(height, image.bytesPerLine())
        levels = rows[:, : width * 3].reshape(height, width, 3).copy()
        with self._condition:
            serial = self._newest[0] + 1 if self._newest is not None else 0
            self._newest = (serial, levels)
            self._condition.notify_all()

    def _on_devices_changed(self) -> None:
        from PySide6.QtMultimedia import QMediaDevices

        ids = {device.id() for device in QMediaDevices.videoInputs()}
        if self._device.id() not in ids:
            self._went("unplugged")

    def _went(self, words: str) -> None:
        log.warning("%s went away: %s", self.info.name, words)
        with self._condition:
            self._gone = self._gone or words
            self._condition.notify_all()

    def _arrived(self, taken: int) -> bool:
        newest = self._newest
        return self._closed or self._gone is not None or (newest is not None and newest[0] > taken)

    def _read(self, start: int) -> Iterator[np.ndarray]:
        taken = -1
        while True:
            with self._condition:
                arrived = self._condition.wait_for(
                    functools.partial(self._arrived, taken), timeout=SILENT_SECONDS
                )
                if self._closed:
                    return
                if self._gone is not None or not arrived or self._newest is None:
                    raise ClipError(
                        self.info.name, QT_TRANSLATE_NOOP("FileProblem", "the camera went away")
                    )
                taken, levels = self._newest
            frame = np.multiply(levels, np.float32(1 / 255), dtype=np.float32)
            if frame.shape != self.info.frame_shape:
                raise ClipError(
                    self.info.name,
                    QT_TRANSLATE_NOOP(
                        "FileProblem", "the camera's frames changed size to {width} × {height}"
                    ),
                    width=frame.shape[1],
                    height=frame.shape[0],
                )
            yield frame

    def close(self) -> None:
        with self._condition:
            self._closed = True
            self._condition.notify_all()
        self._camera.stop()


def _pixels(video_format: Any) -> int:
    size = video_format.resolution()
    return int(size.width() * size.height())


def offer_camera(action: QAction) -> None:
    """Show File ▸ Open Camera only while a camera is there (asked as the File menu opens)."""
    action.setVisible(bool(camera_devices()))


def open_camera(messages: Messages) -> Clip | None:
    """File ▸ Open Camera: the first camera, as a clip to play; None without one, or when it
    cannot be opened (told through `messages`)."""
    devices = camera_devices()
    if not devices:
        return None
    try:
        return CameraClip(devices[0])
    except Exception as error:
        messages.warn(
            QCoreApplication.translate("MainWindow", "Cannot Open the Camera"),
            str(error),
            error=error,
        )
        return None
