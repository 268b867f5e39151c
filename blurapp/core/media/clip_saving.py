"""Writing frames as a clip file, atomically: a video (PyAV), a multi-page TIFF (tifffile), an
animated GIF or WebP (Pillow). Frames are written as they come, so a video or a TIFF of any
length costs the memory of a few frames; Pillow's GIF and WebP writers keep every frame until
the end, and a clip too long for them is refused before the first frame is blurred."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from blurapp.core.media.clip import ClipInfo
from blurapp.core.media.clip_checks import usable_rate
from blurapp.core.media.photo_checks import available_memory
from blurapp.core.media.saving import (
    OutputError,
    cannot_store,
    check_not_source,
    check_writable,
    levels_for_output,
    unknown_format,
    write_atomically,
)
from blurapp.core.wording import QT_TRANSLATE_NOOP

# The container of each video extension, and the codecs tried for it, the first available
# taken. Matroska and AVI are lossless (FFV1) unless another codec is asked for.
VIDEO_OUTPUTS: dict[str, tuple[str, tuple[str, ...]]] = {
    ".mp4": ("mp4", ("libx264", "h264", "mpeg4")),
    ".m4v": ("mp4", ("libx264", "h264", "mpeg4")),
    ".mov": ("mov", ("libx264", "h264", "mpeg4")),
    ".mkv": ("matroska", ("ffv1",)),
    ".avi": ("avi", ("ffv1",)),
    ".webm": ("webm", ("libvpx-vp9", "libvpx")),
}
STACK_OUTPUTS = (".tif", ".tiff")
ANIMATION_OUTPUTS = {".gif": "GIF", ".webp": "WEBP"}
CLIP_OUTPUTS = (*VIDEO_OUTPUTS, *STACK_OUTPUTS, *ANIMATION_OUTPUTS)
# A clip whose own format BlurApp does not write (MPEG-TS, APNG) is written as lossless Matroska.
CLIP_FALLBACK_SUFFIX = ".mkv"
# The key of the frame rate in the description BlurApp writes in a stack's first page.
FRAMES_PER_SECOND_KEY = "frames per second"
# Lossless codecs: the frames written at the source's depth, as planes of red, green and blue
# (or grey), so that what is read back is the levels written.
_LOSSLESS = {"ffv1"}
# The pixel formats (video_pixel_formats) a video's frames are handed over in as 16-bit levels.
_DEEP_VIDEO_FORMATS = ("rgb48le", "gray16le")
# A TIFF stack larger than this is written as a BigTIFF (a classic TIFF stops at 4 GB).
_BIGTIFF_BYTES = 2**32 - 2**25


def clip_output_suffix(source: Path) -> str:
    """The extension a clip's blurred copy takes: the source's own where BlurApp writes that
    format, else CLIP_FALLBACK_SUFFIX."""
    suffix = source.suffix.lower()
    return suffix if suffix in CLIP_OUTPUTS else CLIP_FALLBACK_SUFFIX


def check_clip_output_path(
    path: str | os.PathLike[str],
    info: ClipInfo,
    *,
    source: Path | None = None,
    codec: str | None = None,
) -> None:
    """Raise OutputError now, before any frame is blurred, if `path` could not take the clip:
    an extension that is not a clip format, a codec this FFmpeg lacks, no folder, the source
    itself, or a GIF or WebP whose frames would not fit in memory."""
    path = Path(path)
    # What the name is first: /dev/null or a folder is refused as such, not for its extension.
    check_writable(path)
    extension = path.suffix.lower()
    if extension not in CLIP_OUTPUTS:
        raise unknown_format(path, CLIP_OUTPUTS)
    if codec is not None and extension not in VIDEO_OUTPUTS:
        raise OutputError(
            path,
            QT_TRANSLATE_NOOP(
                "FileProblem", "a codec can be chosen for video only ({videos}), not {extension}"
            ),
            videos=", ".join(VIDEO_OUTPUTS),
            extension=extension,
        )
    if extension in VIDEO_OUTPUTS:
        video_codec(path, codec)
    if source is not None:
        check_not_source(path, source, what="clip")
    if extension in ANIMATION_OUTPUTS:
        _check_animation_fits(path, info)


def video_codec(path: Path, asked: str | None = None) -> str:
    """The encoder a video at `path` is written with: `asked`, else the first of its
    extension's that PyAV's FFmpeg has. Raises OutputError."""
    # PyAV's reader (the video extra): only for a video
    from blurapp.core.media.clip_video import import_av

    av = import_av(path)
    available = av.codecs_available
    wanted = (asked,) if asked else VIDEO_OUTPUTS[path.suffix.lower()][1]
    for name in wanted:
        if name in available and _is_video_encoder(av, name):
            return name
    raise OutputError(
        path,
        QT_TRANSLATE_NOOP(
            "FileProblem", "this FFmpeg has no video encoder named {codec} (it is PyAV {version}'s)"
        ),
        codec=" or ".join(wanted),
        version=av.__version__,
    )


def _is_video_encoder(av: Any, name: str) -> bool:
    try:
        return av.Codec(name, "w").type == "video"
    except Exception:
        return False


def _animation_frames_that_fit(info: ClipInfo) -> int | None:
    """How many frames a GIF or WebP writer can keep in memory; None when memory is unknown."""
    available = available_memory()
    if available is None:
        return None
    # Pillow keeps each frame (at 8 bits, 4 channels for WebP) until the file is written.
    return (available // 2) // max(1, info.width * info.height * 4)


def _check_animation_fits(path: Path, info: ClipInfo, frames: int | None = None) -> None:
    """Refuse a GIF or WebP of `frames` (by default, the clip's count) that would not fit."""
    frames = info.frame_count if frames is None else frames
    available = available_memory()
    if frames is None or available is None:
        return
    needed = frames * info.width * info.height * 4
    if needed > available // 2:
        raise OutputError(
            path,
            QT_TRANSLATE_NOOP(
                "FileProblem",
                "{format} keeps every frame in memory until it is written: {frames} frames need "
                "about {needed} GB and {available} GB is available; write a video (.mp4, .mkv) "
                "instead",
            ),
            format=ANIMATION_OUTPUTS[path.suffix.lower()],
            frames=f"{frames:,}",
            needed=f"{needed / 1e9:.1f}",
            available=f"{available / 1e9:.1f}",
        )


def save_clip(
    path: str | os.PathLike[str],
    frames: Iterable[np.ndarray],
    info: ClipInfo,
    *,
    codec: str | None = None,
    description: Mapping[str, str] | None = None,
) -> int:
    """Write `frames` (float [0, 1], as `info` describes them: its size, colour, rate and bit
    depth; or already the levels the output stores, of output_bit_depth's type) to `path`
    atomically, the format following the extension (CLIP_OUTPUTS); the
    number of frames written. A video keeps the frame rate; Matroska and AVI are lossless
    FFV1 unless `codec` names another encoder. A TIFF stack keeps the bit depth; a GIF has a
    palette of 256 colours a frame; WebP is lossless. Audio is never written. Never writes
    over the clip's own file (info.path). Raises OutputError; an error raised by `frames` (a
    clip cut short, an engine failing) leaves nothing at `path`."""
    path = Path(path)
    check_clip_output_path(path, info, source=info.path, codec=codec)
    extension = path.suffix.lower()
    written = [0]
    # A clip of unknown length, or one saying fewer frames than it has, is counted as it
    # comes: a GIF or WebP stops once its frames would no longer fit in memory.
    fit = _animation_frames_that_fit(info) if extension in ANIMATION_OUTPUTS else None

    def counted() -> Iterator[np.ndarray]:
        for frame in frames:
            if fit is not None and written[0] >= fit:
                _check_animation_fits(path, info, written[0] + 1)
            if frame.shape != info.frame_shape:
                # Written anyway, it would come out scrambled, or fail deep in an encoder.
                raise OutputError(
                    path,
                    QT_TRANSLATE_NOOP(
                        "FileProblem",
                        "frame {frame} is an array of {shape}, not of the clip's {expected} "
                        "(height × width × colours)",
                    ),
                    frame=written[0],
                    shape=" × ".join(map(str, frame.shape)),
                    expected=" × ".join(map(str, info.frame_shape)),
                )
            yield frame
            written[0] += 1

    def written_whole(named: Path) -> None:
        """Before the output replaces anything: every frame the clip holds came, and every
        frame that came is in the file (an encoder or a cluster that lost frames would
        otherwise leave a shorter clip, with nothing said)."""
        expected = info.known_frame_count
        if expected is not None and written[0] < expected:
            raise OutputError(
                path,
                QT_TRANSLATE_NOOP(
                    "FileProblem",
                    "only {written} of the {count} frames of {source} were blurred; nothing "
                    "was written",
                ),
                written=written[0],
                count=expected,
                source=info.name,
            )
        stored = _frames_stored(named, extension)
        if stored is not None and stored != written[0]:
            raise OutputError(
                path,
                QT_TRANSLATE_NOOP(
                    "FileProblem",
                    "{stored} of the {written} frames blurred were stored; nothing was written",
                ),
                stored=stored,
                written=written[0],
            )

    deep = output_bit_depth(path, info, codec=codec) == 16

    def write(named: Path) -> None:
        if extension in VIDEO_OUTPUTS:
            _write_video(named, path, counted(), info, video_codec(path, codec), deep)
        else:
            with open(named, "r+b") as file:
                if extension in STACK_OUTPUTS:
                    _write_stack(file, counted(), info, description, deep)
                else:
                    _write_animation(file, path, counted(), info)
        written_whole(named)

    write_atomically(path, None, by_name=write)
    return written[0]


def _frames_stored(named: Path, extension: str) -> int | None:
    """The frames in the clip file just written at `named`, counted without decoding: a
    video's packets, a stack's pages; None for an animation, whose writer merges frames that
    repeat the one before."""
    if extension in VIDEO_OUTPUTS:
        import av

        with av.open(str(named)) as container:
            stream = container.streams.video[0]
            return sum(1 for packet in container.demux(stream) if packet.size)
    if extension in STACK_OUTPUTS:
        import tifffile

        with tifffile.TiffFile(named) as tiff:
            return len(tiff.pages)
    return None


def output_bit_depth(
    path: str | os.PathLike[str], info: ClipInfo, *, codec: str | None = None
) -> int:
    """The bit depth (8 or 16) of the levels a clip like `info` is stored in at `path` (with
    `codec` for a video): a lossless video's and a TIFF stack's the clip's own, any other
    video's and an animation's 8. Raises OutputError for a video codec this FFmpeg lacks."""
    path = Path(path)
    extension = path.suffix.lower()
    if extension in VIDEO_OUTPUTS:
        source_format, _ = video_pixel_formats(video_codec(path, codec), info)
        return 16 if source_format in _DEEP_VIDEO_FORMATS else 8
    if extension in STACK_OUTPUTS:
        return 16 if info.bit_depth == 16 else 8
    return 8


def video_pixel_formats(codec: str, info: ClipInfo) -> tuple[str, str]:
    """The pixel format `codec`'s frames of a clip like `info` are handed over in (PyAV's
    VideoFrame.from_ndarray) and the one they are stored in."""
    lossless = codec in _LOSSLESS
    deep = lossless and info.bit_depth == 16
    if info.colour:
        source_format = "rgb48le" if deep else "rgb24"
        pixel_format = ("gbrp16le" if deep else "bgr0") if lossless else "yuv420p"
    else:
        source_format = "gray16le" if deep else "gray"
        pixel_format = source_format if lossless else "yuv420p"
    if not lossless and codec in ("libx264", "h264") and (info.width % 2 or info.height % 2):
        pixel_format = "yuv444p"  # x264's 4:2:0 needs an even width and height
    return source_format, pixel_format


def _write_video(
    named: Path, path: Path, frames: Iterator[np.ndarray], info: ClipInfo, codec: str, deep: bool
) -> None:
    import av

    container_format = VIDEO_OUTPUTS[path.suffix.lower()][0]
    source_format, pixel_format = video_pixel_formats(codec, info)
    rate = Fraction(usable_rate(info.frames_per_second)).limit_denominator(1001 * 1000)
    try:
        # By name, not through a Python file object: FFmpeg then writes with no Python code
        # in its writes, where a Ctrl-C would be printed as ignored and the writing go on.
        with av.open(str(named), mode="w", format=container_format) as container:
            # No display matrix: the frames come upright, a source's turn made as it was read.
            stream: Any = container.add_stream(codec, rate=rate)
            stream.width, stream.height = info.width, info.height
            stream.pix_fmt = pixel_format
            stream.options = encoder_options(codec)
            for frame in frames:
                levels = levels_for_output(frame, deep)
                picture = av.VideoFrame.from_ndarray(levels, format=source_format)
                for packet in stream.encode(picture):
                    container.mux(packet)
            for packet in stream.encode():
                container.mux(packet)
    except av.FFmpegError as error:
        reason = getattr(error, "strerror", None) or error
        raise cannot_store(path, codec, reason, what="clip") from error


def encoder_options(codec: str) -> dict[str, str]:
    """The options a video is encoded with by `codec`, the user asking for no quality of their
    own: chosen for speed where the codec offers the choice (docs/clips.md lists them)."""
    if codec in ("libx264", "h264"):
        # x264's "veryfast" encodes 1080p about 2.5 times as fast as its default (docs/clips.md),
        # its files somewhat larger at the same quality.
        return {"crf": "18", "preset": "veryfast"}
    if codec.startswith("libvpx"):
        return {"crf": "20", "b": "0"}
    return {}  # FFV1 is lossless: FFmpeg's own settings


def _milliseconds_a_frame(image_format: str, rate: float) -> int:
    """Each frame's duration in an animation: GIF's shortest that browsers honour is 20 ms
    (shorter ones they play at 100 ms), WebP's 1 ms."""
    return max(20 if image_format == "GIF" else 1, round(1000 / usable_rate(rate)))


def _write_stack(
    file: BinaryIO,
    frames: Iterator[np.ndarray],
    info: ClipInfo,
    description: Mapping[str, str] | None,
    deep: bool,
) -> None:
    import tifffile

    described = {
        **(description or {}),
        FRAMES_PER_SECOND_KEY: repr(usable_rate(info.frames_per_second)),
    }
    frame_bytes = info.width * info.height * (3 if info.colour else 1) * (2 if deep else 1)
    count = info.known_frame_count
    big = count is None or count * frame_bytes > _BIGTIFF_BYTES
    # Named, since tifffile takes a name from the file and os.fdopen's is a number.
    named = tifffile.FileHandle(file, mode="wb", name="clip.tif", size=0)
    with tifffile.TiffWriter(named, bigtiff=big) as tiff:
        for index, frame in enumerate(frames):
            tiff.write(
                levels_for_output(frame, deep),
                photometric="rgb" if info.colour else "minisblack",
                # TIFF strings are 7-bit ASCII: escaped JSON keeps every character.
                description=json.dumps(described, ensure_ascii=True) if index == 0 else None,
                metadata=None,
                software=False,
            )


def _write_animation(
    file: BinaryIO, path: Path, frames: Iterator[np.ndarray], info: ClipInfo
) -> None:
    from PIL import Image

    pictures = (Image.fromarray(levels_for_output(frame, deep=False)) for frame in frames)
    first = next(pictures, None)
    if first is None:
        raise OutputError(path, QT_TRANSLATE_NOOP("FileProblem", "the clip has no frames"))
    image_format = ANIMATION_OUTPUTS[path.suffix.lower()]
    options: dict[str, object] = {"lossless": True} if image_format == "WEBP" else {}
    try:
        first.save(
            file,
            format=image_format,
            save_all=True,
            append_images=pictures,
            duration=_milliseconds_a_frame(image_format, info.frames_per_second),
            loop=0,
            **options,
        )
    except (OSError, ValueError, KeyError) as error:
        raise cannot_store(path, image_format, error, what="clip") from error
