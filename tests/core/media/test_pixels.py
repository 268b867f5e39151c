"""The one rule from stored samples to what the engines blur (blurapp.core.media.pixels): an 8-
or 16-bit photo's pixels are levels of its depth, whatever made them, so that they are what a
file of those levels gives and cross to an accelerator as levels."""

import numpy as np
import pytest

from blurapp.core.engines.levels import stored_levels
from blurapp.core.media.pixels import luma, round_to_levels, samples_to_float


def as_read(levels, white):
    """Levels as a file's are read: a level × (1/white) in float32."""
    return np.multiply(levels, np.float32(1 / white), dtype=np.float32)


@pytest.mark.parametrize(("white", "dtype"), [(255, np.uint8), (65535, np.uint16)])
def test_rounding_to_levels_gives_the_values_a_file_of_those_levels_gives(white, dtype):
    values = np.random.default_rng(1).random(200_000, dtype=np.float32)
    values[:3] = [0, 1, np.float32(0.5 / white)]
    rounded = round_to_levels(values.copy(), white)
    # The nearest level, but for float32's own rounding of value × white (a 16-bit level's
    # fraction holds 8 bits there): half a level away at most, and exactly a level.
    assert np.abs(rounded.astype(np.float64) - values).max() <= 0.5 / white + 1e-7
    np.testing.assert_array_equal(rounded, as_read(np.rint(rounded * np.float64(white)), white))
    found = stored_levels.of(rounded)
    assert found is not None and found.dtype == dtype


def test_the_grey_of_colour_levels_is_luma_of_their_floats_bit_for_bit():
    # A photo's grey (from its stored levels) and a clip frame's (luma of its floats) are the
    # same numbers for every colour: two million of the 16.7 million here.
    colours = np.random.default_rng(2).integers(0, 256, (2_000_000, 1, 3), dtype=np.uint8)
    from_levels = samples_to_float(colours, white=255, colour=True)
    from_floats = luma(as_read(colours, 255), 255)
    np.testing.assert_array_equal(from_levels, from_floats)
    found = stored_levels.of(from_levels)
    assert found is not None and found.dtype == np.uint8
    weighed = colours @ np.array([0.299, 0.587, 0.114])
    assert np.abs(found - weighed).max() <= 0.5 + 1e-4


@pytest.mark.parametrize("white", [1, 3, 15, 255, 65535])
def test_inverted_integer_samples_are_their_levels_turned_over_exactly(white):
    # MinIsWhite: 0 is white. White − level, then scaled: a 2- or 4-bit page is the same
    # numbers whoever reads it, and an 8- or 16-bit one is levels of its depth.
    dtype = np.uint16 if white > 255 else np.uint8
    levels = np.random.default_rng(3).integers(0, white + 1, (7, 9), dtype=dtype)
    pixels = samples_to_float(levels, white=white, colour=False, inverted=True)
    np.testing.assert_array_equal(pixels, as_read(white - levels.astype(np.int64), white))
