"""Stored samples to what the engines blur, the one rule whether a photo is loaded whole or read
by blocks: the value of white, grey from colour (luma), alpha over white, premultiplied and
inverted samples."""

from __future__ import annotations

import numpy as np

# ITU-R 601-2 luma, the weights Pillow's own "L" conversion uses, here in floating point.
# TIFF ExtraSamples: 1 associated (premultiplied) alpha, 2 unassociated alpha.
ASSOCIATED_ALPHA, UNASSOCIATED_ALPHA = 1, 2

LUMA_WEIGHTS = np.array([0.299, 0.587, 0.114], dtype=np.float32)


def luma(rgb: np.ndarray, white: float | None = None) -> np.ndarray:
    """Height × width grey (float32, clipped to [0, 1]) from height × width × 3 red, green and
    blue floats in [0, 1], by LUMA_WEIGHTS. `white` (255, 65535): the colours are levels of a
    file with that white (a clip's frames), and so is their grey (round_to_levels), as a loaded
    photo's is (samples_to_float)."""
    gray = np.multiply(rgb[..., 0], LUMA_WEIGHTS[0], dtype=np.float32)
    for index in (1, 2):
        gray += rgb[..., index] * LUMA_WEIGHTS[index]
    np.clip(gray, 0, 1, out=gray)
    return gray if white is None else round_to_levels(gray, white)


class UnsupportedPixels(ValueError):
    """Pixels that decode fine but have no grayscale meaning BlurApp can give them."""


def _over_white(values: np.ndarray, alpha: np.ndarray, *, premultiplied: bool = False) -> None:
    """Composite `values` (height × width, or × channels) over a white background, in place."""
    if values.ndim == 3:
        alpha = alpha[..., np.newaxis]
    if not premultiplied:
        values *= alpha
    values += np.float32(1) - alpha


def white_level(dtype: np.dtype, low: float, high: float) -> float:
    """The stored value of white for samples of `dtype` whose values run from `low` to `high`.

    The type's own for 8- and 16-bit unsigned integers; 1 for 1-bit samples and for floats,
    which must lie between 0 and 1. Other integers say nothing of the range they were written
    in, so their values decide: 0-255 as 8-bit, 0-65535 as 16-bit (a 0-255 photo stored 32 bits
    wide would otherwise show nearly black). Raises UnsupportedPixels for values beyond those.
    """
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return 1.0
    if dtype == np.uint8:
        return 255.0
    if dtype == np.uint16:
        return 65535.0
    if dtype.kind == "f":
        if not (low >= 0 and high <= 1):  # NaN fails both
            raise UnsupportedPixels(
                f"{pixel_type_words(dtype)} must lie between 0 and 1, not {low} to {high}"
            )
        return 1.0
    if dtype.kind in "iu" and dtype.itemsize <= 4:
        if low < 0 or high > 65535:
            raise UnsupportedPixels(
                f"its pixels are {pixel_type_words(dtype)} from {low} to {high}; "
                "BlurApp reads integer pixels from 0 to 65535"
            )
        return 255.0 if high <= 255 else 65535.0
    raise UnsupportedPixels(
        f"its pixels are {pixel_type_words(dtype)}; BlurApp reads unsigned or signed integers "
        "of up to 32 bits, or floats between 0 and 1"
    )


def white_of(values: np.ndarray, dtype: np.dtype | None = None) -> float:
    """white_level for `values` as they were stored (as `dtype`, their own type by default),
    their range read only for a type whose white depends on it."""
    dtype = np.dtype(values.dtype if dtype is None else dtype)
    if dtype in (np.bool_, np.uint8, np.uint16):
        return white_level(dtype, 0, 0)
    low, high = (values.min().item(), values.max().item()) if values.size else (0, 0)
    return white_level(dtype, low, high)


def pixel_type_words(dtype: np.dtype) -> str:
    """What samples of `dtype` are, in words: "signed 16-bit integers", "64-bit floats"."""
    dtype = np.dtype(dtype)
    bits = dtype.itemsize * 8
    if dtype.kind == "u":
        return f"unsigned {bits}-bit integers"
    if dtype.kind == "i":
        return f"signed {bits}-bit integers"
    if dtype.kind == "f":
        return f"{bits}-bit floats"
    if dtype.kind == "c":
        return f"complex numbers ({dtype})"
    return f"values of type {dtype}"


def samples_to_float(
    values: np.ndarray,
    *,
    white: float,
    colour: bool,
    alpha: int | None = None,
    inverted: bool = False,
    in_colour: bool = False,
) -> np.ndarray:
    """Stored samples as the float32 in [0, 1] the engines blur: height × width, or
    height × width × 3 (red, green, blue) when `in_colour` and the samples have `colour`.

    `values`: height × width × samples, or height × width for one sample, of any number type;
    `white` the value of full intensity (see white_level). The first sample is grey, or the
    first three red, green and blue when `colour` (grey from them by LUMA_WEIGHTS unless
    `in_colour`); the sample after them, if any and `alpha` says so (ASSOCIATED_ALPHA:
    premultiplied, UNASSOCIATED_ALPHA), is transparency, composited over white. `inverted`:
    0 is white (TIFF MinIsWhite). Every photo, loaded whole or read by blocks, comes through
    here, so both give the same pixels.
    """
    if values.ndim == 2:
        values = values[..., np.newaxis]
    scale = np.float32(1 / white)
    one = np.float32(1)

    def level(index: int, weight: np.float32 = one, out: np.ndarray | None = None) -> np.ndarray:
        # One channel at a time, in float32: a 24 MP colour photo's grey never needs a float
        # array of all three channels (that alone would be 288 MB). Scaled, then weighed, as
        # luma weighs a clip's frames: the same grey, bit for bit, whichever made it.
        channel = values[..., index]
        if inverted and values.dtype.kind in "uib":
            # Integers inverted exactly (white − level), so that inverted levels are levels.
            channel = np.subtract(white, channel, dtype=np.float32, out=out)
            np.multiply(channel, scale, out=channel)
        else:
            channel = np.multiply(channel, scale, dtype=np.float32, out=out)
            if inverted:
                np.subtract(one, channel, out=channel)
        return channel if weight == one else np.multiply(channel, weight, out=channel)

    if colour and in_colour:
        pixels = np.empty((*values.shape[:2], 3), dtype=np.float32)
        for index in range(3):
            pixels[..., index] = level(index)
    elif colour:
        pixels = level(0, LUMA_WEIGHTS[0])
        scratch = np.empty_like(pixels)  # the other two channels' in turn, not one apiece
        for index in (1, 2):
            pixels += level(index, LUMA_WEIGHTS[index], out=scratch)
    else:
        pixels = level(0)
    alpha_index = 3 if colour else 1
    composited = alpha is not None and values.shape[2] > alpha_index
    if composited:
        opacity = np.multiply(values[..., alpha_index], scale, dtype=np.float32)
        _over_white(pixels, opacity, premultiplied=alpha == ASSOCIATED_ALPHA)
    np.clip(pixels, 0, 1, out=pixels)
    if white in (255, 65535) and (composited or (colour and not in_colour)):
        round_to_levels(pixels, white)
    return pixels


def round_to_levels(pixels: np.ndarray, white: float) -> np.ndarray:
    """`pixels` (float32 in [0, 1]) rounded, in place, to the nearest of the levels a file of
    that `white` stores (255: 8-bit, 65535: 16-bit), as a level × (1/white) in float32, half to
    even as saving rounds.

    What the engines blur of an 8- or 16-bit photo is always levels of its own depth, as an
    image editor's grey of an 8-bit photo is an 8-bit grey: the grey of its colours (luma) and
    alpha over white are rounded back to them, at most half a level away (0.5/255 for 8 bits,
    below what its 8-bit picture shows); inverted samples are inverted exactly (white − level),
    and are levels without rounding. Levels cross to an accelerator as a
    quarter (8-bit) or half (16-bit) of their float32's bytes both ways
    (blurapp.core.engines.levels), where floats cross as they are."""
    np.multiply(pixels, np.float32(white), out=pixels)
    np.rint(pixels, out=pixels)
    # A whole number times 1/white in float32: bit for bit the level × (1/white) of a file's
    # own levels (np.multiply(levels, 1/white, dtype=float32)), the value a level always has.
    np.multiply(pixels, np.float32(1 / white), out=pixels)
    return pixels
