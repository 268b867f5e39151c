"""Camera RAW files made here: a DNG written by tifffile holding a colour filter mosaic (RGGB),
with the tags LibRaw needs to develop it; and what rawpy itself develops from a RAW file."""

import numpy as np
import tifffile

# XYZ (D65) to the camera's colours: the test camera's colours are taken to be sRGB's.
_XYZ_TO_CAMERA = [3.2406, -1.5372, -0.4986, -0.9689, 1.8758, 0.0415, 0.0557, -0.2040, 1.0570]


def _rationals(values, denominator=10000):
    pairs = []
    for value in values:
        pairs += [round(value * denominator), denominator]
    return pairs


def dng_file(path, mosaic, *, white=4095, neutral=(0.5, 1.0, 0.8), orientation=1):
    """A DNG of the 16-bit `mosaic` (RGGB, levels up to `white`), shot with the camera's white
    balance `neutral` (the raw red, green and blue of something grey), stored turned by the
    TIFF `orientation`."""
    tags = _dng_tags(white, neutral, orientation)
    tifffile.imwrite(path, mosaic, photometric=32803, extratags=tags, subfiletype=0)
    return path


def dng_header(path, height, width):
    """A DNG whose header declares a `height` × `width` mosaic, holding none of its pixels: all
    that can be known of a RAW file before it is developed, in a few hundred bytes."""
    tags = _dng_tags(white=4095, neutral=(1.0, 1.0, 1.0), orientation=1)
    # Written whole (its pixels a hole in the file, where the file system keeps holes), then cut
    # where they begin.
    tifffile.imwrite(
        path,
        shape=(height, width),
        dtype=np.uint16,
        photometric=32803,
        extratags=tags,
        subfiletype=0,
    )
    with tifffile.TiffFile(path) as tiff:
        header_end = int(tiff.pages.first.dataoffsets[0])
    with open(path, "r+b") as file:
        file.truncate(header_end)
    return path


def _dng_tags(white, neutral, orientation):
    """The tags LibRaw needs to develop a DNG's RGGB mosaic (see dng_file)."""
    return [
        (274, "H", 1, orientation, True),  # Orientation
        (271, "s", 0, "BlurApp", True),  # Make
        (272, "s", 0, "Test Camera", True),  # Model
        (33421, "H", 2, (2, 2), True),  # CFARepeatPatternDim
        (33422, "B", 4, (0, 1, 1, 2), True),  # CFAPattern: red, green / green, blue
        (50706, "B", 4, (1, 4, 0, 0), True),  # DNGVersion
        (50707, "B", 4, (1, 1, 0, 0), True),  # DNGBackwardVersion
        (50708, "s", 0, "BlurApp Test Camera", True),  # UniqueCameraModel
        (50710, "B", 3, (0, 1, 2), True),  # CFAPlaneColor
        (50711, "H", 1, 1, True),  # CFALayout: rectangular
        (50714, "H", 1, 0, True),  # BlackLevel
        (50717, "H", 1, white, True),  # WhiteLevel
        (50721, "2i", 9, _rationals(_XYZ_TO_CAMERA), True),  # ColorMatrix1
        (50778, "H", 1, 21, True),  # CalibrationIlluminant1: D65
        (50728, "2I", 3, _rationals(neutral), True),  # AsShotNeutral
    ]


def random_mosaic(height=48, width=64, seed=0, white=4095):
    return np.random.default_rng(seed).integers(0, white + 1, (height, width), dtype=np.uint16)


def developed_by_rawpy(path):
    """The RAW file as rawpy develops it with the settings BlurApp documents: the camera's white
    balance, sRGB with its curve, 16 bits, no auto-brightening; float64 in [0, 1]."""
    import rawpy

    with rawpy.imread(str(path)) as raw:
        levels = raw.postprocess(
            use_camera_wb=True,
            no_auto_bright=True,
            output_bps=16,
            output_color=rawpy.ColorSpace.sRGB,
            gamma=(2.4, 12.92),
        )
    return levels / 65535
