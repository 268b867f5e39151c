"""Clip files opened as clips: multi-page TIFF stacks (tifffile), animated GIF, WebP and PNG
(Pillow), and videos (PyAV, in blurapp.core.media.clip_video). Each is read a frame at a time, as
the frames are asked for, so a clip of any length costs the memory of a few frames.

Frames are made as photos' pixels are (blurapp.core.media.pixels): the same levels give the same
floats whether they come from a photo or a clip.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, UnidentifiedImageError

from blurapp.core.media.clip import DEFAULT_FRAMES_PER_SECOND, Clip, ClipError, ClipInfo
from blurapp.core.media.clip_checks import changed_size, check_frame_size, stopped_at, usable_rate
from blurapp.core.media.clip_saving import FRAMES_PER_SECOND_KEY
from blurapp.core.media.containers import is_camera_raw, iso_bmff_kind_of
from blurapp.core.media.photo import (
    GRAY_MODES,
    WIDE_INTEGER_MODES,
    image_to_colour,
    image_to_gray,
    wide_integers_to_gray,
)
from blurapp.core.media.photo_checks import (
    PhotoError,
    check_is_readable_file,
    check_tiff_data,
    damaged,
    not_an_image,
    os_problem,
    too_large_to_open,
)
from blurapp.core.media.tiff_pages import TIFF_MAGIC, page_kind, page_pixels, page_samples
from blurapp.core.wording import QT_TRANSLATE_NOOP

# Containers opened as videos when their first bytes do not already say what they are.
VIDEO_EXTENSIONS = frozenset({".mp4", ".m4v", ".mov", ".mkv", ".webm", ".avi", ".ts"})
# Pages of a TIFF looked at to tell a stack from a photo without reading all of a long one.
_PAGES_TOLD = 8
# MP4/MOV ("ftyp" at byte 4), Matroska/WebM (EBML), AVI (RIFF … AVI).
_VIDEO_MAGIC = (b"\x1a\x45\xdf\xa3",)


def is_clip(path: str | os.PathLike[str]) -> bool:
    """Whether the file at `path` opens as a clip rather than a photo, from its header alone:
    a TIFF of two or more pages all of one size and kind, a GIF, WebP or PNG of two or more
    frames, or a video file. A TIFF whose pages differ (a pyramid, a thumbnail) and any
    one-frame file are photos. Never raises: a file that cannot be read is not a clip here,
    and opening it as a photo says what is wrong."""
    try:
        # Never opened unless a regular file: opening a FIFO waits for a writer.
        if not Path(path).is_file():
            return False
        kind = _kind(Path(path))
        if kind == "tiff":
            return _tiff_stack_shape(Path(path), pages_read=_PAGES_TOLD) is not None
        if kind == "animation":
            # Quietly: a bomb's warning would be printed here, then its error on opening it.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", Image.DecompressionBombWarning)
                with Image.open(path) as image:
                    return getattr(image, "n_frames", 1) > 1
        return kind == "video"
    except Exception:
        return False


def open_clip_file(path: str | os.PathLike[str], *, color: bool = False) -> Clip:
    """The clip in the file at `path`, its frames read as they are asked for: grey, or red,
    green and blue when `color` and the clip has colour. Its size is checked against memory
    before any frame is decoded. Raises ClipError naming the file (a PhotoError, so one
    handler serves photos and clips)."""
    path = Path(path)
    try:
        check_is_readable_file(path)
        kind = _kind(path)
    except PhotoError as error:
        # The same words, as the ClipError a caller of open_clip_file is promised.
        raise ClipError(error.path, error.template, **error.values) from error
    except OSError as error:
        problem = os_problem(path, error)
        raise ClipError(path, problem.template, **problem.values) from error
    if kind == "tiff":
        return TiffStack(path, color=color)
    if kind == "animation":
        return Animation(path, color=color)
    if kind == "video":
        # PyAV's reader (the video extra): only for a video
        from blurapp.core.media.clip_video import VideoClip

        return VideoClip(path, color=color)
    raise ClipError(path, QT_TRANSLATE_NOOP("FileProblem", "this is not a clip BlurApp can read"))


def clip_has_colour(path: str | os.PathLike[str]) -> bool:
    """Whether the clip at `path` has colour that open_clip_file(color=True) would keep (its frames
    are not decoded); False for a file it cannot tell of."""
    try:
        with open_clip_file(path, color=True) as clip:
            return clip.info.colour
    except Exception:  # said by the open_clip_file that reads the frames, as a user sees it
        return False


def _kind(path: Path) -> str | None:
    if is_camera_raw(path):
        return None  # a photo, though most are TIFFs inside, some of several pages
    with open(path, "rb") as file:
        head = file.read(16)
    if head[:4] in TIFF_MAGIC:
        return "tiff"
    if head[:6] in (b"GIF87a", b"GIF89a") or head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "animation"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "animation"
    if head[4:8] == b"ftyp":
        # A HEIF or AVIF still image is a photo; a movie (MP4, MOV, a HEIF sequence) a video.
        return "video" if iso_bmff_kind_of(path) == "video" else None
    if head[:4] in _VIDEO_MAGIC:
        return "video"
    if head[:4] == b"RIFF" and head[8:12] == b"AVI ":
        return "video"
    return "video" if path.suffix.lower() in VIDEO_EXTENSIONS else None


# ---------------------------------------------------------------------------------------------
# Multi-page TIFF stacks


def _tiff_stack_shape(
    path: Path, *, pages_read: int | None = None
) -> tuple[tuple[int, ...], np.dtype, int] | None:
    """(page shape, sample type, page count) when the TIFF at `path` is a stack: two or more
    pages of one shape and type; None for a photo. With `pages_read`, only the first that
    many pages and the last are looked at: a pyramid's or a thumbnail's page is among them,
    and reading each of a long stack's pages takes seconds (counting them does not)."""
    import tifffile

    with tifffile.TiffFile(path) as tiff:
        pages = tiff.pages
        count = len(pages)
        if count < 2:
            return None
        first = pages.first
        looked_at: Iterable[int] = range(1, count)
        if pages_read is not None and count > pages_read:
            looked_at = [*range(1, pages_read), count - 1]
        for index in looked_at:
            page = pages[index]
            if page.shape != first.shape or page.dtype != first.dtype:
                return None
        if first.dtype is None:
            return None
        return first.shape, first.dtype, count


class TiffStack(Clip):
    """A multi-page TIFF: one frame a page, each page read when it is asked for."""

    def __init__(self, path: Path, *, color: bool) -> None:
        import tifffile

        self._path = path
        try:
            stack = _tiff_stack_shape(path)
            if stack is None:
                raise ClipError(
                    path,
                    QT_TRANSLATE_NOOP(
                        "FileProblem",
                        "this TIFF is a photo, not a stack: it has one page, or pages of "
                        "different sizes",
                    ),
                )
            self._tiff = tifffile.TiffFile(path)
        except PhotoError:
            raise
        except OSError as error:
            raise os_problem(path, error) from error
        except Exception as error:
            raise damaged(path, error, ClipError) from error
        _, dtype, count = stack
        first = self._tiff.pages.first
        # Each page is read as what it is (grey, MinIsWhite, palette, colour: see page_kind),
        # every page's tags looked at now: a palette page's unusable map refuses the stack.
        try:
            kinds = [page_kind(page) for page in self._tiff.pages]
        except ValueError as error:  # a palette page's unusable colour map
            self.close()
            raise damaged(path, error, ClipError) from error
        self._kinds = kinds
        # 1-bit pages arrive as booleans, 1 white (or black, MinIsWhite) as in a photo.
        if dtype != np.bool_ and (
            dtype.kind not in "uf" or (dtype.kind == "u" and dtype.itemsize > 2)
        ):
            self.close()
            raise ClipError(
                path,
                QT_TRANSLATE_NOOP(
                    "FileProblem",
                    "this kind of image is not supported: BlurApp reads stacks of 8- or 16-bit "
                    "unsigned integers or floats between 0 and 1, not {kind}",
                ),
                kind=dtype,
            )
        in_colour = color and any(kind.has_colour for kind in kinds)
        self._in_colour = in_colour
        # Its frames are its levels scaled when every page is stored as it is shown: levels of
        # 8 or 16 bits, grey or colour as the frames are, nothing to look up, invert or
        # composite.
        channels = 3 if in_colour else 1
        self.gives_levels = dtype in (np.uint8, np.uint16) and all(
            not (kind.palette or kind.inverted or kind.white is not None or kind.alpha)
            and kind.has_colour == in_colour
            and kind.samples == channels
            for kind in kinds
        )
        height, width = int(first.imagelength), int(first.imagewidth)
        try:
            check_frame_size(path, width, height, channels=3 if in_colour else 1)
        except PhotoError:
            self.close()
            raise
        self.info = ClipInfo(
            name=path.name,
            width=width,
            height=height,
            frame_count=count,
            frames_per_second=_stack_rate(self._tiff),
            colour=in_colour,
            bit_depth=16 if dtype.itemsize >= 2 else 8,
            path=path,
            # Floats, or levels of 2 or 4 bits held in bytes, are not levels of bit_depth.
            levels_of_depth=dtype.kind != "f" and all(kind.white is None for kind in kinds),
        )

    def _read(self, start: int) -> Iterator[np.ndarray]:
        return self._pages(start, self._page)

    def _read_levels(self, start: int) -> Iterator[np.ndarray]:
        return self._pages(start, self._stored)

    def _pages(self, start: int, read: Callable[[int], np.ndarray]) -> Iterator[np.ndarray]:
        for index in range(start, self.info.frame_count or 0):
            try:
                yield read(index)
            except (ClipError, GeneratorExit):
                raise
            except Exception as error:
                reason = error.problem if isinstance(error, PhotoError) else error
                raise stopped_at(self._path, index, reason) from error

    def frame(self, index: int) -> np.ndarray:
        count = self.info.frame_count or 0
        if not 0 <= index < count:
            raise IndexError(f"{self.info.name} has no frame {index}")
        try:
            frame = self._page(index)
        except Exception as error:
            reason = error.problem if isinstance(error, PhotoError) else error
            raise stopped_at(self._path, index, reason) from error
        frame.flags.writeable = False
        return frame

    def _stored(self, index: int) -> np.ndarray:
        """Page `index`'s samples as stored, samples last, its size checked."""
        page = self._tiff.pages[index]
        check_tiff_data(
            self._path, page.dataoffsets, page.databytecounts, os.path.getsize(self._path)
        )
        values = page_samples(page, self._kinds[index])
        if values.shape[:2] != (self.info.height, self.info.width):
            raise changed_size(self.info, *values.shape[1::-1])
        return values

    def _page(self, index: int) -> np.ndarray:
        page, kind = self._tiff.pages[index], self._kinds[index]
        pixels = page_pixels(page, self._stored(index), kind, in_colour=self._in_colour)
        if self._in_colour and pixels.ndim == 2:  # a grey page among colour ones
            pixels = np.repeat(pixels[..., np.newaxis], 3, axis=-1)
        return pixels

    def close(self) -> None:
        tiff = getattr(self, "_tiff", None)
        if tiff is not None:
            tiff.close()


def _stack_rate(tiff: Any) -> float:
    """The frames per second a stack says: BlurApp's own (in the JSON description it writes),
    or ImageJ's frame interval; else DEFAULT_FRAMES_PER_SECOND."""
    try:
        described = json.loads(tiff.pages.first.description or "{}")
        rate = float(described.get(FRAMES_PER_SECOND_KEY, 0))
    except (ValueError, TypeError, AttributeError):
        rate = 0.0
    if not rate:
        interval = (tiff.imagej_metadata or {}).get("finterval")
        try:
            rate = 1 / interval if isinstance(interval, int | float) and interval > 0 else 0.0
        except OverflowError:  # an interval of 1e-300 s
            rate = 0.0
    return usable_rate(rate)


# ---------------------------------------------------------------------------------------------
# Animated GIF, WebP and PNG


class Animation(Clip):
    """An animated GIF, WebP or PNG, read through Pillow a frame at a time; each frame as a
    photo of that file would be (composited over white)."""

    def __init__(self, path: Path, *, color: bool) -> None:
        self._path = path
        self._image: Any = None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", Image.DecompressionBombWarning)
                self._image = Image.open(path)
            image = self._image
            count = getattr(image, "n_frames", 1)
            in_colour = color and image.mode not in GRAY_MODES
            check_frame_size(path, *image.size, channels=3 if in_colour else 1)
            # WebP says its first frame's duration once that frame is decoded.
            image.seek(0)
            image.load()
            milliseconds = image.info.get("duration") or 0
        except PhotoError:
            self.close()
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
            self.close()
            # Pillow's warning is an error here, as for photos: its limit is the one.
            raise too_large_to_open(path, ClipError) from error
        except UnidentifiedImageError as error:
            self.close()
            raise not_an_image(path, ClipError) from error
        except Exception as error:
            self.close()
            raise damaged(path, error, ClipError) from error
        self._in_colour = in_colour
        self.info = ClipInfo(
            name=path.name,
            width=image.width,
            height=image.height,
            frame_count=count,
            # The first frame's duration sets the pace of the whole clip.
            frames_per_second=usable_rate(1000 / milliseconds)
            if milliseconds > 0
            else DEFAULT_FRAMES_PER_SECOND,
            colour=in_colour,
            # A 16-bit grey PNG arrives as 16-bit integers; Pillow gives every other mode at 8.
            bit_depth=16 if image.mode in WIDE_INTEGER_MODES else 8,
            path=path,
        )

    def _read(self, start: int) -> Iterator[np.ndarray]:
        image = self._image
        for index in range(start, self.info.frame_count or 0):
            try:
                with warnings.catch_warnings():
                    # Pillow warns of a huge frame as it seeks to it: the size is checked here.
                    warnings.simplefilter("ignore", Image.DecompressionBombWarning)
                    image.seek(index)
                # A later frame can declare any size (a GIF bomb): checked before it is decoded.
                if image.size != (self.info.width, self.info.height):
                    check_frame_size(self._path, *image.size, channels=1)
                    raise changed_size(self.info, *image.size)
                image.load()
                if image.mode in WIDE_INTEGER_MODES:
                    # As a photo's: image_to_gray's 8-bit conversion would turn them all white.
                    frame = wide_integers_to_gray(image)[0]
                elif self._in_colour:
                    frame = image_to_colour(image)
                else:
                    frame = image_to_gray(image)
            except GeneratorExit:
                raise
            except ClipError as error:
                raise stopped_at(self._path, index, error.problem) from error
            except Exception as error:
                raise stopped_at(self._path, index, error) from error
            yield frame

    def close(self) -> None:
        if self._image is not None:
            self._image.close()
            self._image = None
