"""What is checked of a clip's frames before and while they are decoded, and how a clip that
stops part way is said to stop."""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image

from blurapp.core.media.clip import DEFAULT_FRAMES_PER_SECOND, ClipError, ClipInfo
from blurapp.core.media.photo_checks import check_fits_in_memory
from blurapp.core.wording import QT_TRANSLATE_NOOP

# The frame rates a clip is read and written at: one frame in 100 s to a thousand a second.
# A file saying anything else (an ImageJ interval of 1e-300 s, a corrupt header) plays and is
# written at DEFAULT_FRAMES_PER_SECOND.
SLOWEST_FRAMES_PER_SECOND, FASTEST_FRAMES_PER_SECOND = 0.01, 1000.0


def usable_rate(rate: float) -> float:
    """`rate` if it is a frame rate a clip can be played and written at, else the default."""
    if math.isfinite(rate) and SLOWEST_FRAMES_PER_SECOND <= rate <= FASTEST_FRAMES_PER_SECOND:
        return rate
    return DEFAULT_FRAMES_PER_SECOND


def check_frame_size(path: Path, width: int, height: int, *, channels: int) -> None:
    """Refuse, before a frame is decoded, frames with no pixels, larger than Pillow lets a
    photo be (twice Image.MAX_IMAGE_PIXELS, a decompression bomb), or too large to blur in the
    memory available. Only the frame's size counts: frames are decoded one at a time, so a
    clip of many frames is refused only when one frame would not fit."""
    if width <= 0 or height <= 0:
        raise ClipError(path, QT_TRANSLATE_NOOP("FileProblem", "the image has no pixels"))
    limit = Image.MAX_IMAGE_PIXELS
    if limit is not None and width * height > 2 * limit:
        raise ClipError(
            path,
            QT_TRANSLATE_NOOP(
                "FileProblem",
                "its frames are {width} × {height} pixels, too large to open safely (over "
                "{limit} pixels)",
            ),
            width=f"{width:,}",
            height=f"{height:,}",
            limit=f"{2 * limit:,}",
        )
    check_fits_in_memory(path, width, height, channels=channels)


def stopped_at(path: Path, index: int, reason: object) -> ClipError:
    """The error of a clip that could be read up to frame `index` (from 0) and no further."""
    return ClipError(
        path,
        QT_TRANSLATE_NOOP("FileProblem", "the clip stops at frame {frame}: {reason}"),
        frame=index,
        reason=reason,
    )


def changed_size(info: ClipInfo, width: int, height: int) -> ValueError:
    """What a frame of another size than the clip's first is said to be."""
    return ValueError(
        f"the frame is {width} × {height} pixels where the clip's are {info.width} × {info.height}"
    )
