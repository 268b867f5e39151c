"""Camera RAW files (DNG, CR2, CR3, NEF, ARW, RAF, ORF, RW2, …) developed through rawpy (LibRaw),
the `raw` extra, imported when the first RAW file is read.

What is developed, and why: the camera's white balance (what the camera showed on its own
screen), LibRaw's default demosaicing (AHD), the camera's colours converted to sRGB with the
sRGB curve (the space BlurApp blurs and shows in, as every other photo is read), 16 bits a
channel, turned upright as the camera recorded, and no auto-brightening: the exposure the
photographer chose, the same figures on every run.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from blurapp.core.media.photo_checks import PhotoError, check_fits_in_memory, check_pixel_limit
from blurapp.core.wording import QT_TRANSLATE_NOOP

RAW_INSTALL = "pip install 'blurapp[raw]'"
# LibRaw's gamma as (power, slope of the linear part): sRGB's curve, as the colours' space.
_SRGB_GAMMA = (2.4, 12.92)


def raw_missing(path: Path) -> PhotoError:
    """The error for a RAW file at `path` where rawpy is not installed."""
    return PhotoError(
        path,
        QT_TRANSLATE_NOOP(
            "FileProblem", "reading camera RAW files needs rawpy, which is not installed: {how}"
        ),
        how=RAW_INSTALL,
    )


def develop_raw(path: Path, *, channels: int) -> np.ndarray:
    """The RAW file at `path` developed (see the module's words) into 16-bit sRGB levels,
    height × width × 3, upright. Its size, read from its header, is checked before it is
    developed: against the pixels any photo may have, and against memory for a photo blurred
    in `channels` channels. Raises PhotoError."""
    try:
        import rawpy  # the raw extra's LibRaw: only for a RAW file
    except ImportError as error:
        raise raw_missing(path) from error
    try:
        # The sizes are the header's (LibRaw reads them as it opens the file): both checks come
        # before postprocess, which develops the photo and takes the memory.
        with rawpy.imread(str(path)) as raw:
            sizes = raw.sizes
            check_pixel_limit(path, sizes.iwidth, sizes.iheight)
            check_fits_in_memory(path, sizes.iwidth, sizes.iheight, channels=channels)
            levels = raw.postprocess(
                use_camera_wb=True,
                no_auto_bright=True,
                output_bps=16,
                output_color=rawpy.ColorSpace.sRGB,
                gamma=_SRGB_GAMMA,
            )
    except (rawpy.LibRawError, rawpy.NotSupportedError) as error:
        raise PhotoError(
            path,
            QT_TRANSLATE_NOOP("FileProblem", "LibRaw cannot develop this RAW file: {reason}"),
            reason=_reason(error),
        ) from error
    return np.ascontiguousarray(levels)


def _reason(error: Exception) -> str:
    """LibRaw's complaint in words (rawpy gives it as the text of its bytes: "b'Input/output
    error'")."""
    words = str(error).strip()
    if words[:2] in ("b'", 'b"') and words[-1:] == words[1]:
        words = words[2:-1]
    return words[:1].lower() + words[1:] if words else type(error).__name__
