"""Made-up clips in memory that behave as a camera or a video file does: a camera unplugged
mid-play, a file read through one decoder."""

import time
import weakref

import numpy as np

from blurapp.core.media.clip import Clip, ClipError, ClipInfo, FramesInMemory


class CameraThatGoes(Clip):
    """A camera's `count` frames (grey, height × width = `shape`, each a level of its own), then
    the camera gone: what a real one unplugged mid-play gives."""

    def __init__(self, count=15, shape=(12, 16)):
        self.info = ClipInfo("Camera", shape[1], shape[0], None, 20.0, colour=False)
        self.count = count
        self.shape = shape
        self.read = []  # a weak reference to each frame read
        self.closed = False

    def _read(self, start):
        for index in range(start, self.count):
            frame = np.full(self.shape, index / self.count, np.float32)
            self.read.append(weakref.ref(frame))
            yield frame
        raise ClipError("Camera", "the camera went away")

    def close(self):
        self.closed = True

    def frames_held(self):
        """How many of the frames read are still held by someone."""
        return sum(reference() is not None for reference in self.read)


class OneDecoder(FramesInMemory):
    """Frames read through one decoder, as a video file's are: every read seeks it (taking
    `seek_seconds`), so a read of one frame moves the place the frames being played come from."""

    def __init__(self, frames, *, seek_seconds=0.0, **keywords):
        super().__init__(frames, **keywords)
        self.seek_seconds = seek_seconds
        self.place = 0

    def frame(self, index):
        return Clip.frame(self, index)  # through the decoder, as a file's is

    def _read(self, start):
        if self.seek_seconds:
            time.sleep(self.seek_seconds)
        self.place = start
        while self.place < len(self._frames):
            frame = self._frames[self.place].copy()
            self.place += 1
            yield frame
