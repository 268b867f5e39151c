"""Colours as a colour-managed viewer shows them: a photo's pixels read through the ICC profile
embedded in its file (JPEG, PNG, TIFF, WebP, HEIC, AVIF) and converted to sRGB with LittleCMS.

BlurApp blurs in sRGB, the space its panes show and the files it writes are in: a Display P3
or Adobe RGB photo is converted on reading, with the perceptual intent (for the matrix profiles
of cameras and phones the same as relative colorimetric), and colours outside sRGB are clipped
to its gamut. Grey is the luma of the converted colours. A profile that cannot be used
(damaged, too large, of the wrong colour space or class) is left out with a warning naming the
file, and the photo is read as sRGB. 8-bit pixels go through Pillow's ImageCms; 16-bit ones,
which ImageCms cannot transform, through imagecodecs' LittleCMS in floating point.
"""

from __future__ import annotations

import functools
import io
import logging
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from blurapp.core.wording import display_path

log = logging.getLogger(__name__)

# A real profile is a few kilobytes (a matrix and curves) to a few hundred (tables); a larger
# one is not worth the time LittleCMS would take to parse it.
MAX_PROFILE_BYTES = 4 * 1024 * 1024
# The profile's colour space each Pillow mode's samples are in.
_SPACE_OF_MODE = {"RGB": "RGB", "RGBA": "RGB", "CMYK": "CMYK"}
# Device classes that describe how a device's numbers look (input, display, output, colour
# space); abstract, link and named-colour profiles transform nothing of a photo's own.
_PHOTO_CLASSES = {"scnr", "mntr", "prtr", "spac"}


class UnusableProfile(ValueError):
    """An embedded profile that cannot convert the photo's colours; the message says why."""


def embedded_profile(image: Image.Image) -> bytes | None:
    """The ICC profile embedded in the file Pillow opened as `image`, None if it has none."""
    profile = image.info.get("icc_profile")
    return bytes(profile) if profile else None


def srgb_profile() -> bytes:
    """LittleCMS's sRGB profile, as embedded in the colour files BlurApp writes."""
    return _srgb_profile_bytes()


@functools.cache
def _srgb_profile_bytes() -> bytes:
    from PIL import ImageCms  # LittleCMS: loaded for the first photo with a profile, or a write

    return bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())


def _opened(profile: bytes, mode: str) -> Any:
    """The profile opened by ImageCms, checked to fit a photo of Pillow `mode`. Raises
    UnusableProfile."""
    from PIL import ImageCms

    if len(profile) > MAX_PROFILE_BYTES:
        raise UnusableProfile(f"it is {len(profile):,} bytes, more than a profile holds")
    try:
        opened = ImageCms.ImageCmsProfile(io.BytesIO(profile))
    except (OSError, ValueError, TypeError, ImageCms.PyCMSError) as error:
        raise UnusableProfile(f"it is damaged ({error})") from error
    space = opened.profile.xcolor_space.strip()
    if space != _SPACE_OF_MODE[mode]:
        raise UnusableProfile(f"it is for {space or 'no'} colours, not {_SPACE_OF_MODE[mode]}")
    if opened.profile.device_class not in _PHOTO_CLASSES:
        raise UnusableProfile(f"it is a profile of class {opened.profile.device_class!r}")
    return opened


def _warn(path: Path, problem: Exception) -> None:
    log.warning(
        "%s: its colour profile cannot be used, so its colours are read as sRGB: %s",
        display_path(path),
        problem,
    )


def image_in_srgb(path: Path, image: Image.Image) -> Image.Image:
    """The 8-bit Pillow `image` (read from `path`) in sRGB, through its embedded profile: RGB
    and RGBA stay so (alpha untouched), CMYK becomes RGB. An image without a profile, or of a
    grey or other mode, is returned as it is; so is one whose profile cannot be used, with a
    warning naming the file."""
    profile = embedded_profile(image)
    if profile is None or image.mode not in _SPACE_OF_MODE:
        return image
    from PIL import ImageCms

    try:
        source = _opened(profile, image.mode)
        output_mode = "RGBA" if image.mode == "RGBA" else "RGB"
        transform = ImageCms.buildTransform(
            source, ImageCms.createProfile("sRGB"), image.mode, output_mode
        )
        converted = ImageCms.applyTransform(image, transform)
    except UnusableProfile as problem:
        _warn(path, problem)
        return image
    except (OSError, ValueError, TypeError, ImageCms.PyCMSError) as error:
        _warn(path, UnusableProfile(f"LittleCMS cannot convert with it ({error})"))
        return image
    assert converted is not None  # applyTransform makes a new image when not told inPlace
    converted.info = {key: value for key, value in image.info.items() if key != "icc_profile"}
    return converted


def levels_in_srgb(path: Path, values: np.ndarray, profile: bytes | None) -> np.ndarray:
    """8- or 16-bit RGB or RGBA `values` (height × width × 3 or 4, read from `path`) in sRGB
    through `profile`, of the same type; alpha untouched, colours outside sRGB clipped. Values
    of another shape, and those whose profile cannot be used (with a warning), are returned as
    they are."""
    if profile is None or values.ndim != 3 or values.shape[2] not in (3, 4):
        return values
    import imagecodecs

    try:
        _opened(profile, "RGB")
        white = float(np.iinfo(values.dtype).max)
        colours = values[..., :3].astype(np.float32) / np.float32(white)
        # In floating point, unoptimised: LittleCMS's optimised 16-bit transforms stray by
        # several levels near the edge of sRGB's gamut.
        converted = imagecodecs.cms_transform(
            colours,
            profile,
            srgb_profile(),
            colorspace="rgb",
            outcolorspace="rgb",
            flags=imagecodecs.CMS.FLAGS.NOOPTIMIZE,
        )
    except UnusableProfile as problem:
        _warn(path, problem)
        return values
    except (imagecodecs.CmsError, ValueError, TypeError) as error:
        _warn(path, UnusableProfile(f"LittleCMS cannot convert with it ({error})"))
        return values
    levels = np.rint(np.clip(converted, 0.0, 1.0) * white).astype(values.dtype)
    if values.shape[2] == 4:
        levels = np.concatenate([levels, values[..., 3:]], axis=2)
    return levels
