"""A TIFF page's samples as the engines' floats, read as the page's own tags say they are meant:
grey, MinIsWhite, palette or colour, in planes or not, with alpha or not. The one reading of a
page read through tifffile, whether it is a stack's (blurapp.core.media.clip_files) or a photo
of floats, which Pillow does not read (blurapp.core.media.photo)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from blurapp.core.media.pixels import (
    ASSOCIATED_ALPHA,
    UNASSOCIATED_ALPHA,
    samples_to_float,
    white_of,
)

# A TIFF's first four bytes: little- or big-endian, classic TIFF or BigTIFF.
TIFF_MAGIC = (b"II*\0", b"MM\0*", b"II+\0", b"MM\0+")
# TIFF PhotometricInterpretation: 0 MinIsWhite, 1 MinIsBlack, 2 RGB, 3 palette, 6 YCbCr.
MIN_IS_WHITE, MIN_IS_BLACK, RGB, _PALETTE, _YCBCR = 0, 1, 2, 3, 6
# TIFF Compression 7: JPEG, whose YCbCr tifffile decodes to red, green and blue.
_JPEG = 7
# TIFF PlanarConfiguration 2: each sample in a plane of its own.
_SEPARATE = 2


@dataclass(frozen=True)
class PageKind:
    """How a TIFF page's samples are read, from its own tags: pages of one stack may differ
    (grey, MinIsWhite and palette pages of one size and type), each read as what it is."""

    planes: bool  # one plane a sample (planar configuration "separate")
    palette: bool  # samples are indices into the page's own colour map
    has_colour: bool
    inverted: bool  # MinIsWhite: 0 is white
    white: float | None  # the top level of 2- and 4-bit samples; None: the type's own
    alpha: int | None  # ASSOCIATED_ALPHA, UNASSOCIATED_ALPHA, or no transparency
    samples: int  # samples a pixel, extra ones (alpha or others) included


def page_kind(page: Any) -> PageKind:
    """What tifffile's `page` is; ValueError for a palette page whose colour map is unusable."""
    # How the samples lie comes from the page's tags, never from the shape: a stack two
    # pixels wide or of six grey planes looks like either.
    palette = page.photometric == _PALETTE
    if palette:
        palette_colours(page)
    decoded_rgb = page.photometric == RGB or (
        page.photometric == _YCBCR and page.compression == _JPEG
    )
    # 2- and 4-bit levels arrive as bytes of 0-3 or 0-15: white is their top level, as in
    # a photo of one such page, not the byte's.
    bits = int(page.bitspersample)
    # Premultiplied (associated) or straight (unassociated) alpha, either over white.
    meaning = tuple(page.extrasamples[:1])
    return PageKind(
        planes=page.samplesperpixel > 1 and page.planarconfig == _SEPARATE,
        palette=palette,
        has_colour=palette or (decoded_rgb and page.samplesperpixel >= 3),
        inverted=page.photometric == MIN_IS_WHITE,
        white=float(2**bits - 1) if 1 < bits < 8 and not palette else None,
        alpha=meaning[0] if meaning in ((ASSOCIATED_ALPHA,), (UNASSOCIATED_ALPHA,)) else None,
        samples=int(page.samplesperpixel),
    )


def page_samples(page: Any, kind: PageKind) -> np.ndarray:
    """`page`'s samples as stored, height × width × samples (height × width for one)."""
    values = page.asarray()
    if kind.planes:
        values = np.moveaxis(values, 0, -1)  # one plane a sample: samples last
    return values


def page_pixels(page: Any, values: np.ndarray, kind: PageKind, *, in_colour: bool) -> np.ndarray:
    """`page`'s samples `values` (page_samples) as the engines' float32 in [0, 1]: red, green
    and blue when `in_colour` and the page has colour, else grey (samples_to_float)."""
    if kind.palette:
        # Height × width × 3; np.take reads a 1-bit page's booleans as indices 0 and 1.
        values = np.take(palette_colours(page), values, axis=0)
    white = kind.white if kind.white is not None else white_of(values)
    return samples_to_float(
        values,
        white=white,
        colour=kind.has_colour,
        alpha=kind.alpha,
        inverted=kind.inverted,
        in_colour=in_colour,
    )


def palette_colours(page: Any) -> np.ndarray:
    """Red, green and blue levels for each index of the palette `page`'s colour map: the
    map's top 8 bits for pages of up to 8 bits, as Pillow shows a palette photo (so a stack's
    page is that page opened as a photo), its whole 16 for 16-bit pages. Raises ValueError for
    a map that lacks colours for the page's indices, or pages of more than an index a pixel."""
    colour_map = page.colormap
    bits = int(page.bitspersample)
    if page.samplesperpixel != 1:
        # Baseline TIFF's palette images hold one index a pixel; tifffile writes no other.
        raise ValueError(f"its palette pages have {page.samplesperpixel} samples a pixel, not 1")
    if colour_map is None or colour_map.ndim != 2 or colour_map.shape[0] != 3:
        raise ValueError("its palette pages have no colour map")
    if colour_map.shape[1] < 2**bits:
        raise ValueError(
            f"its colour map has {colour_map.shape[1]} colours for {bits}-bit palette pages"
        )
    colours = np.ascontiguousarray(colour_map.T.astype(np.uint16))
    return (colours >> 8).astype(np.uint8) if bits <= 8 else colours
