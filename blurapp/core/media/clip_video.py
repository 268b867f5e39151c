"""Video files (MP4, MOV, MKV, WebM, AVI, …) read through PyAV, a frame at a time as they are
decoded. PyAV is the `video` extra, imported only when a video is opened."""

from __future__ import annotations

import bisect
import contextlib
import itertools
import math
import os
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from blurapp.core.media.clip import DEFAULT_FRAMES_PER_SECOND, Clip, ClipError, ClipInfo
from blurapp.core.media.clip_checks import changed_size, check_frame_size, stopped_at, usable_rate
from blurapp.core.media.photo import turn_upright
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.media.pixels import UNASSOCIATED_ALPHA, samples_to_float
from blurapp.core.wording import QT_TRANSLATE_NOOP

VIDEO_EXTRA = "pip install 'blurapp[video]'"


def import_av(path: Path) -> ModuleType:
    """PyAV, or a ClipError naming `path` and the extra that brings it."""
    try:
        import av
    except ImportError:
        raise ClipError(
            path,
            QT_TRANSLATE_NOOP(
                "FileProblem", "reading and writing video needs PyAV, which is not installed: {how}"
            ),
            how=VIDEO_EXTRA,
        ) from None
    return av


def _bits(pixel_format: str) -> int:
    """The bits of the widest sample of a pixel format (8 for yuv420p, 10 for yuv420p10le)."""
    import av

    try:
        return max(component.bits for component in av.VideoFormat(pixel_format).components)
    except (ValueError, TypeError):
        return 8


def _is_rgb(pixel_format: str) -> bool:
    import av

    try:
        return bool(av.VideoFormat(pixel_format).is_rgb)
    except (ValueError, TypeError):
        return False


def _has_alpha(pixel_format: str) -> bool:
    import av

    try:
        return any(component.is_alpha for component in av.VideoFormat(pixel_format).components)
    except (ValueError, TypeError):
        return False


def _is_grey(pixel_format: str) -> bool:
    return pixel_format.startswith(("gray", "ya", "y4", "mono"))


def _movie_stream(container: Any) -> Any:
    """The video stream of `container` (opened by PyAV, with one or more) that is its movie:
    the one of the most frames, the first of equals (a stream that says none counts none). A
    HEIF or AVIF sequence holds its primary image, a still, as a stream of its own listed
    before the track of all its frames."""
    return max(container.streams.video, key=lambda stream: stream.frames or 0)


class VideoClip(Clip):
    """A video file's movie (_movie_stream), decoded as its frames are asked for.

    Grey is the luma the video stores (its Y plane, or its grey samples) on 0 to 1, as a
    player shows it, or for a video stored as red, green and blue (FFV1, PNG), their luma as a
    photo's; colour is the red, green and blue FFmpeg converts to. Sources of more than
    8 bits a sample are read at 16 bits (bit_depth 16). Frames are turned upright as the
    stream's display matrix says a player shows them (a phone's portrait video), and `info`
    gives the upright size."""

    def __init__(self, path: Path, *, color: bool) -> None:
        av = import_av(path)
        self._path = path
        self._container: Any = None
        try:
            self._container = av.open(str(path), metadata_errors="ignore")
            if not self._container.streams.video:
                raise ClipError(
                    path,
                    QT_TRANSLATE_NOOP(
                        "FileProblem", "the file has no video stream (only {streams})"
                    ),
                    streams=_streams_in_words(self._container) or "no streams at all",
                )
            stream = _movie_stream(self._container)
            context = stream.codec_context
            pixel_format = context.pix_fmt or "yuv420p"
            in_colour = color and not _is_grey(pixel_format)
            check_frame_size(path, context.width, context.height, channels=3 if in_colour else 1)
        except PhotoError:
            self.close()
            raise
        except Exception as error:
            self.close()
            raise ClipError(
                path,
                QT_TRANSLATE_NOOP("FileProblem", "this is not a video BlurApp can read ({reason})"),
                reason=_reason(error),
            ) from error
        stream.thread_type = "AUTO"  # FFmpeg's decoding threads, frames and slices alike
        self._stream = stream
        deep = _bits(pixel_format) > 8
        # Grey from red, green and blue as a photo's (LUMA_WEIGHTS); from luma and chroma, the
        # luma the video stores.
        rgb_source = _is_rgb(pixel_format)
        if in_colour or rgb_source:
            self._format = "rgb48le" if deep else "rgb24"
        else:
            self._format = "gray16le" if deep else "gray"
        self._white = 65535.0 if deep else 255.0
        # Transparency is shown over white, as a photo's is: the alpha comes with the levels.
        self._alpha = _has_alpha(pixel_format)
        self._alpha_format = "rgba64le" if deep else "rgba"
        # The frames are their levels scaled where nothing is made of them but the scale: grey
        # as stored, or colour as FFmpeg converts it, with no transparency to composite.
        self.gives_levels = not self._alpha and (in_colour or not rgb_source)
        rate = stream.average_rate or stream.guessed_rate or stream.base_rate
        fps = usable_rate(float(rate)) if rate else DEFAULT_FRAMES_PER_SECOND
        self.audio_streams = len(self._container.streams.audio)
        # A count the stream declares is enforced, and so is one counted from the packets'
        # timestamps (read without decoding); one worked out from the duration is only an
        # estimate (a variable-rate video has more or fewer frames): such a clip is cut short
        # when its frames end well before its duration does.
        self._declared = bool(stream.frames and stream.frames > 0)
        self._seconds = _duration_seconds(self._container, stream)
        self._stamps: list[int] | None = None  # see _frame_stamps
        self._stamps_known = False
        frame_count = _frame_count(stream, self._seconds, fps)
        # Counted from the packets when they reach the end of the stream's duration; a file
        # cut short holds fewer packets than its duration says: its count stays an estimate,
        # so that reading to its end finds where it stops (see _cut_short).
        self._counted = not self._declared and self._packets_last(fps)
        if self._counted:
            frame_count = len(self._frame_stamps() or ())
        self._orientation = self._first_orientation()
        self._stored_size = (context.width, context.height)
        # The size as shown: what the window, the outputs and every check of a frame's size see.
        width, height = self._shown_size(context.width, context.height)
        self.info = ClipInfo(
            name=path.name,
            width=width,
            height=height,
            frame_count=frame_count,
            frames_per_second=fps,
            colour=in_colour,
            bit_depth=16 if deep else 8,
            path=path,
            frame_count_estimated=not (self._declared or self._counted)
            and bool(stream.duration or self._seconds),
        )

    def _read(self, start: int) -> Iterator[np.ndarray]:
        colour = self._format.startswith("rgb")
        alpha = UNASSOCIATED_ALPHA if self._alpha else None
        for levels in self._decoded(start):
            yield samples_to_float(
                levels, white=self._white, colour=colour, alpha=alpha, in_colour=self.info.colour
            )

    def _read_levels(self, start: int) -> Iterator[np.ndarray]:
        return self._decoded(start)

    def _decoded(self, start: int) -> Iterator[np.ndarray]:
        """The frames from `start` on as FFmpeg gives them in self._format (with their alpha
        where the video has one), turned upright."""
        container, stream = self._container, self._stream
        if container is None:
            raise ClipError(self._path, QT_TRANSLATE_NOOP("FileProblem", "the clip is closed"))
        index = self._seek(start) if start > 0 else self._rewind()
        container, stream = self._container, self._stream
        frames = container.decode(stream)
        shown = None  # seconds into the clip of the last frame decoded
        while True:
            try:
                decoded = next(frames, None)
                if decoded is None:
                    break
                if index == 0 and self._before_first_frame(decoded.pts):
                    continue  # shown before the first keyframe: no frame of the clip's
                if (decoded.width, decoded.height) != self._stored_size:
                    raise changed_size(self.info, *self._shown_size(decoded.width, decoded.height))
                if index >= start:
                    levels = decoded.to_ndarray(format=self._format)
                    if self._alpha:
                        with_alpha = decoded.to_ndarray(format=self._alpha_format)
                        # Red, green, blue and alpha; or the grey read as ever, and the alpha.
                        levels = (
                            with_alpha
                            if levels.ndim == 3
                            else np.dstack((levels, with_alpha[..., 3]))
                        )
                    levels = turn_upright(levels, self._orientation)
                if decoded.pts is not None and stream.time_base is not None:
                    shown = float((decoded.pts - (stream.start_time or 0)) * stream.time_base)
            except (ClipError, GeneratorExit):
                raise
            except Exception as error:
                raise stopped_at(self._path, index, _reason(error)) from error
            if index >= start:
                yield levels
            index += 1
        if self._cut_short(index, shown):
            raise stopped_at(
                self._path,
                index,
                self._cut_short_words(shown),
            )

    def _cut_short_words(self, shown: float | None) -> str:
        """Why a clip that stopped early is cut short: the count it stopped short of, and
        where that count came from (the stream's word, its packets, or its duration)."""
        if self._declared or self._counted:
            source = "declares" if self._declared else "holds packets of"
            return (
                f"the file ends before the {self.info.frame_count} frames it {source} "
                "(it is truncated)"
            )
        missing = (self._seconds or 0.0) - (shown or 0.0)
        return f"the file ends {missing:.3g} s before the duration it declares (it is truncated)"

    def _before_first_frame(self, pts: int | None) -> bool:
        """Whether a picture decoded before any frame of the clip's comes before its first
        frame (its timestamp is earlier than the first keyframe's), when the frames'
        timestamps are known."""
        stamps = self._stamps
        return stamps is not None and pts is not None and pts < stamps[0]

    def _in_time_order(self) -> bool:
        """Whether the frames' timestamps rise from each frame to the next, so that a
        timestamp says which frame it is; not so for recordings joined end to end, or a
        clock that was reset, whose timestamps start over."""
        stamps = self._frame_stamps()
        return stamps is not None and all(a < b for a, b in itertools.pairwise(stamps))

    def _rewind(self) -> int:
        """Read from the first frame on: 0, the index of the frame decoded next. Seeking to
        time 0 lands on the first frame only when no later frame is stamped earlier than it:
        otherwise the file is opened again, at its first byte."""
        if self._stamps is None or self._in_time_order():
            self._container.seek(0)
            return 0
        import av  # already imported: this is a video

        stream_index = self._stream.index  # the stream __init__ reads (known while it is open)
        container = av.open(str(self._path), metadata_errors="ignore")
        self._container.close()
        self._container = container
        self._stream = container.streams[stream_index]
        self._stream.thread_type = "AUTO"
        return 0

    def _first_orientation(self) -> int:
        """The EXIF orientation (a key of photo.UPRIGHT) that turns the frames upright, from
        the display matrix FFmpeg hands with the first decoded frame (the stream's own, which
        PyAV gives no other way). 1 when there is none, or when the first frame does not
        decode: reading the frames says what is wrong with them."""
        orientation = 1
        with contextlib.suppress(Exception):
            self._container.seek(0)
            for decoded in self._container.decode(self._stream):
                orientation = _orientation(decoded)
                break
        with contextlib.suppress(Exception):
            self._container.seek(0)  # where every reading starts
        return orientation

    def _shown_size(self, width: int, height: int) -> tuple[int, int]:
        """Width and height of a stored frame of `width` × `height` once turned upright."""
        # Orientations 5 to 8 make columns rows.
        return (height, width) if self._orientation >= 5 else (width, height)

    def _cut_short(self, index: int, shown: float | None) -> bool:
        """Whether the frames ended (at `index`, the last shown at `shown` seconds) before
        the file says they do. A cut-short file often ends without a decoding error."""
        count = self.info.frame_count
        if count is None:
            return False
        if self._declared or self._counted:
            return index < count
        if shown is None or self._seconds is None:
            # A count worked out from the duration may be one more than the frames there are.
            return index < count - 1
        # The last frame is shown until the duration ends: more than two frames' time
        # missing at the average rate is a file that stops early.
        return self._seconds - shown > 2 / self.info.frames_per_second

    def _seek(self, start: int) -> int:
        """Seek to the keyframe at or before frame `start`; the index of the frame decoded
        next. Frames are numbered by their own timestamps, so a video whose frames are not
        evenly spaced is seeked as truly as one whose are; without timestamps to go by,
        decoding starts over from the first frame."""
        stream = self._stream
        stamps = self._frame_stamps()
        if stream.time_base is None or not stamps or not self._in_time_order():
            # A frame cannot be found by its time: decoded from the first and counted.
            return self._rewind()
        target = stamps[min(start, len(stamps) - 1)]
        self._container.seek(target, stream=stream, backward=True, any_frame=False)
        # Where the keyframe is, known only once it is decoded: decode and count from there.
        for decoded in self._container.decode(stream):
            if decoded.pts is None:
                break
            index = bisect.bisect_left(stamps, decoded.pts)
            if index > start:
                break  # past the frame asked for: counted from the first frame instead
            self._container.seek(decoded.pts, stream=stream, backward=True, any_frame=False)
            return index
        self._container.seek(0)
        return 0

    def _packets_last(self, fps: float) -> bool:
        """Whether the packets' timestamps run to the end of the stream's duration (within two
        frames' time), so that their count is the clip's."""
        stamps, stream = self._frame_stamps(), self._stream
        if not stamps or stream.time_base is None:
            return False
        if self._seconds is None or not self._in_time_order():
            return True  # times that start over say nothing of the duration: the packets do
        first = stream.start_time if stream.start_time is not None else stamps[0]
        last = float((stamps[-1] - first) * stream.time_base)
        return self._seconds - last <= 2 / fps

    def _frame_stamps(self) -> list[int] | None:
        """Every frame's timestamp in the order frames are shown, read once from the packets
        without decoding; None when the packets carry none (a raw stream) or cannot be read.
        A frame's index is its place here, never its time divided by a rate: a rate may
        change within a video while its average stays what the stream says. Packets before
        the first keyframe (a recording that starts mid-way through a group of pictures) are
        left out: the decoder drops them, so they are no frames; so are pictures stamped
        before that keyframe that come before any stamped after it (an open group's leading
        pictures). Timestamps that start over (recordings joined end to end) start a new run
        of frames, shown after the run before: frames are numbered by their order in the
        stream, whatever their times do. Kept for the file while it is unchanged, so that
        opening it again (each span of a batch on a cluster) reads its packets once a
        process."""
        if not self._stamps_known:
            self._stamps_known = True
            key = _file_key(self._path, self._stream.index)
            if key is not None and key in _STAMPS:
                self._stamps = _STAMPS[key]
                return self._stamps
            try:
                packets = _packets(self._path, self._stream.index)
            except Exception:
                return None  # read as it decodes, where the decoder says what is wrong
            self._stamps = _frame_order(packets) or None
            if key is not None:
                _STAMPS[key] = self._stamps
                while len(_STAMPS) > _STAMPS_KEPT:
                    _STAMPS.pop(next(iter(_STAMPS)))
        return self._stamps

    def close(self) -> None:
        if self._container is not None:
            self._container.close()
            self._container = None


def _packets(path: Path, stream: int) -> list[tuple[int, bool]]:
    """The (timestamp, keyframe) of stream number `stream`'s packets in the order stored, read
    from the file opened again at its first byte: seeking to time 0 may land where the
    timestamps start over, not at the start."""
    import av  # already imported: this is a video

    with av.open(str(path), metadata_errors="ignore") as container:
        return [
            (packet.pts, packet.is_keyframe)
            for packet in container.demux(container.streams[stream])
            if packet.pts is not None
        ]


# How many packets back a picture's timestamp may be later than its own (a decoder's reorder
# window: H.264 keeps at most 16 pictures): a timestamp lower than all of the last so many
# starts the times over.
_REORDER_PACKETS = 16


def _frame_order(packets: list[tuple[int, bool]]) -> list[int]:
    """The frames' timestamps in the order they are shown, from the packets' (timestamp,
    keyframe) in the order they are stored: see VideoClip._frame_stamps."""
    first = next((index for index, (_, key) in enumerate(packets) if key), None)
    if first is None:
        return []
    first_key = packets[first][0]
    runs: list[list[int]] = [[]]
    recent: list[int] = []
    started = False  # a picture stamped after the first keyframe has come
    for pts, _ in packets[first:]:
        if not started and pts < first_key:
            continue  # a leading picture of the first group: it does not decode
        started = started or pts > first_key
        if recent and pts < min(recent):
            runs.append([])  # the times start over
            recent.clear()
        runs[-1].append(pts)
        recent = [*recent[-(_REORDER_PACKETS - 1) :], pts]
    return [pts for run in runs for pts in sorted(run)]


# The orientation for a display matrix whose picture is (transposed, flipped top to bottom,
# flipped left to right), in the order of photo.UPRIGHT's turns.
_ORIENTATIONS = {
    (False, False, False): 1,
    (False, False, True): 2,
    (False, True, True): 3,
    (False, True, False): 4,
    (True, False, False): 5,
    (True, False, True): 6,
    (True, True, True): 7,
    (True, True, False): 8,
}


def _orientation(frame: Any) -> int:
    """The EXIF orientation that shows `frame` as its display matrix says, to the nearest
    quarter turn; 1 without one. The matrix maps a stored pixel (x, y), y down, to the shown
    (a·x + c·y, b·x + d·y): a = m[0], b = m[1], c = m[3], d = m[4] (FFmpeg's display.h)."""
    try:
        data = bytes(frame.side_data["DISPLAYMATRIX"])
    except (KeyError, ValueError, TypeError):
        return 1
    if len(data) < 36:
        return 1
    a, b, _, c, d = np.frombuffer(data, np.int32, 5).astype(np.float64)
    if abs(b) + abs(c) > abs(a) + abs(d):  # x and y change places: a quarter turn
        return _ORIENTATIONS[(True, b < 0, c < 0)]
    if a == 0 or d == 0:
        return 1  # no picture at all: shown as stored
    return _ORIENTATIONS[(False, d < 0, a < 0)]


# The frames' timestamps of the last few video files opened (see VideoClip._frame_stamps), by
# file and stream: a batch on a cluster opens the same clip once for every span of frames.
_STAMPS: dict[tuple[str, int, int, int], list[int] | None] = {}
_STAMPS_KEPT = 16


def _file_key(path: Path, stream: int) -> tuple[str, int, int, int] | None:
    """The file at `path` as it is now (its real path, size and time of change) and the
    stream: a file rewritten since is read again. None when it cannot be looked at."""
    try:
        details = os.stat(path)
        return (os.path.realpath(path), details.st_size, details.st_mtime_ns, stream)
    except OSError:
        return None


def _frame_count(stream: Any, seconds: float | None, fps: float) -> int | None:
    """The frames the stream says it has, else its duration times its rate, else None."""
    if stream.frames and stream.frames > 0:
        return int(stream.frames)
    if seconds is None:
        return None
    return max(1, round(seconds * fps))


def _duration_seconds(container: Any, stream: Any) -> float | None:
    """The stream's duration (Matroska's per-track DURATION tag included), else None. The
    container's duration counts only for a file of one stream: with sound, it is the longer
    of the two."""
    seconds = None
    if stream.duration is not None and stream.time_base is not None:
        seconds = float(stream.duration * stream.time_base)
    elif "DURATION" in stream.metadata:
        seconds = _clock_seconds(stream.metadata["DURATION"])
    elif container.duration is not None and len(container.streams) == 1:
        seconds = container.duration / 1_000_000  # AV_TIME_BASE
    if seconds is None or not (math.isfinite(seconds) and seconds > 0):
        return None
    return seconds


def _clock_seconds(text: str) -> float | None:
    """'00:00:01.600000000' in seconds; None for anything else."""
    try:
        hours, minutes, seconds = text.split(":")
        return int(hours) * 3600 + int(minutes) * 60 + float(seconds)
    except ValueError:
        return None


def _streams_in_words(container: Any) -> str:
    kinds = [stream.type for stream in container.streams]
    return ", ".join(f"{kinds.count(kind)} {kind}" for kind in dict.fromkeys(kinds))


def _reason(error: Exception) -> str:
    """An FFmpeg error as a person reads it: its words, without the function that raised it."""
    text = getattr(error, "strerror", None) or str(error)
    return str(text)
