"""The photos phones and cameras make, made here by the libraries themselves: HEIC (pillow-heif),
AVIF (Pillow), JPEG and PNG with a Display P3 profile; and what an independent reader makes of
them (Pillow, pillow-heif and ImageCms decoding and converting to sRGB), to compare BlurApp's
reading with."""

import io
from pathlib import Path

import imagecodecs
import numpy as np
import pytest
from PIL import Image, ImageCms, ImageOps

LUMA = np.array([0.299, 0.587, 0.114])


def display_p3_profile():
    """A Display P3 profile (its primaries, D65 white, the sRGB curve): the matrix/TRC profile
    an iPhone photo carries, built by LittleCMS from the primaries."""
    x = np.linspace(0.0, 1.0, 4096)
    curve = np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4)
    return imagecodecs.cms_profile(
        "rgb",
        whitepoint=[0.3127, 0.3290, 1.0],
        primaries=[0.680, 0.320, 1.0, 0.265, 0.690, 1.0, 0.150, 0.060, 1.0],
        transferfunction=np.rint(curve * 65535).astype(np.uint16),
    )


def _rgb_to_xyz(primaries, white=(0.3127, 0.3290)):
    """The matrix from linear RGB of these primaries ((x, y) each) to XYZ, white's Y 1."""
    columns = np.array([[x / y, 1.0, (1 - x - y) / y] for x, y in primaries]).T
    white_xyz = np.array([white[0] / white[1], 1.0, (1 - white[0] - white[1]) / white[1]])
    return columns * np.linalg.solve(columns, white_xyz)


def p3_in_srgb(values):
    """Display P3 colours (floats in [0, 1], last axis red, green, blue) in sRGB, clipped, worked
    out from the two spaces' primaries (they share D65 white and the curve): an oracle that
    owes nothing to LittleCMS."""
    linear = np.where(values <= 0.04045, values / 12.92, ((values + 0.055) / 1.055) ** 2.4)
    p3 = _rgb_to_xyz([(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)])
    srgb = _rgb_to_xyz([(0.640, 0.330), (0.300, 0.600), (0.150, 0.060)])
    converted = np.clip(linear @ (np.linalg.inv(srgb) @ p3).T, 0.0, 1.0)
    return np.where(
        converted <= 0.0031308, converted * 12.92, 1.055 * converted ** (1 / 2.4) - 0.055
    )


def saturated_pattern(height=48, width=64, seed=0):
    """Saturated colours (a P3 photo's reds and greens, where its numbers and sRGB's differ
    most) beside random ones, 8 bits a channel."""
    rng = np.random.default_rng(seed)
    pixels = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    pixels[: height // 2, : width // 2] = (0, 230, 0)
    pixels[: height // 2, width // 2 :] = (230, 20, 10)
    pixels[height // 2 :, : width // 4] = (250, 30, 220)
    return pixels


def exif_with_orientation(orientation):
    exif = Image.Exif()
    exif[0x0112] = orientation
    return exif.tobytes()


def heic_file(path, pixels, *, orientation=None, icc_profile=None):
    """A HEIC written by pillow-heif (lossless, so the pixels decode close to these); an EXIF
    orientation is stored as the image's rotation (irot), as an iPhone stores it. Skips,
    naming it, where pillow-heif is not installed (a machine whose own index lacks it)."""
    pillow_heif = pytest.importorskip("pillow_heif")

    options = {"quality": -1}
    if orientation:
        options["exif"] = exif_with_orientation(orientation)
    if icc_profile:
        options["icc_profile"] = icc_profile
    if pixels.dtype == np.uint16:
        heif = pillow_heif.from_bytes(
            mode="RGB;16", size=(pixels.shape[1], pixels.shape[0]), data=pixels.tobytes()
        )
        heif.save(path, **options)
    else:
        pillow_heif.from_pillow(Image.fromarray(pixels)).save(path, **options)
    return path


def avif_file(path, pixels, *, orientation=None, icc_profile=None):
    """An AVIF written by Pillow, lossless."""
    options = {"quality": 100, "lossless": True}
    if orientation:
        options["exif"] = exif_with_orientation(orientation)
    if icc_profile:
        options["icc_profile"] = icc_profile
    Image.fromarray(pixels).save(path, format="AVIF", **options)
    return path


def in_srgb(image):
    """An 8-bit RGB Pillow image converted to sRGB through its embedded profile by ImageCms."""
    profile = image.info.get("icc_profile")
    if not profile:
        return image.convert("RGB")
    source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
    return ImageCms.profileToProfile(
        image.convert("RGB"), source, ImageCms.createProfile("sRGB"), outputMode="RGB"
    )


def shown_colours(path):
    """The photo at `path` as an independent reader shows it: decoded by Pillow (with
    pillow-heif for HEIC), turned upright, converted to sRGB; float64 in [0, 1]."""
    try:
        import pillow_heif
    except ImportError:  # the phone-photos extra: CI installs it; Pillow reads the rest alone
        if Path(path).suffix.lower() in {".heic", ".heif", ".avif"}:
            pytest.importorskip("pillow_heif")
    else:
        pillow_heif.register_heif_opener()
    with Image.open(path) as image:
        image.load()
        upright = ImageOps.exif_transpose(image)
        upright.info = image.info
        return np.asarray(in_srgb(upright), np.float64) / 255


def shown_grey(path):
    """The luma of shown_colours."""
    return shown_colours(path) @ LUMA


def unmanaged_grey(path):
    """The luma of the photo's numbers taken as sRGB, its profile ignored."""
    with Image.open(path) as image:
        return (np.asarray(image.convert("RGB"), np.float64) / 255) @ LUMA
