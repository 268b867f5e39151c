"""The window opens the photos phones and cameras save as photos: upright, in the colours a
viewer shows, with no play bar."""

import numpy as np
import pytest
from helpers.phone_photos import (
    avif_file,
    display_p3_profile,
    heic_file,
    saturated_pattern,
    shown_colours,
)
from helpers.raw_files import developed_by_rawpy, dng_file, random_mosaic


def p3_heic(folder):
    return heic_file(
        folder / "IMG_0001.HEIC",
        saturated_pattern(48, 64).repeat(2, axis=0).repeat(2, axis=1),
        orientation=6,
        icc_profile=display_p3_profile(),
    )


def p3_avif(folder):
    return avif_file(
        folder / "PXL_0001.avif", saturated_pattern(), icc_profile=display_p3_profile()
    )


def dng(folder):
    return dng_file(folder / "DSC_0001.DNG", random_mosaic())


@pytest.mark.parametrize(
    "make", [p3_heic, p3_avif, pytest.param(dng, marks=pytest.mark.extra("raw"))]
)
def test_the_window_opens_a_camera_photo_as_a_photo(make_window, tmp_path, make):
    path = make(tmp_path)
    window = make_window(path)
    assert window.photo is not None and window.photo.path == path
    assert not window.widgets.clip_bar.isVisible() and not window.actions.play.isEnabled()
    expected = developed_by_rawpy(path) if path.suffix == ".DNG" else shown_colours(path)
    assert window.photo.pixels.shape == expected.shape
    np.testing.assert_allclose(window.photo.to_blur(color=True), expected, atol=1e-5)
