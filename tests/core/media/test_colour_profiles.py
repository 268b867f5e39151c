"""Photos with an embedded ICC profile read as a colour-managed viewer shows them: converted to
sRGB through the profile (ImageCms, LittleCMS), grey the luma of that; a profile that cannot
be used warned of, naming the file, and the photo read as sRGB."""

import io
import logging

import numpy as np
import pytest
import tifffile
from helpers.phone_photos import (
    LUMA,
    avif_file,
    display_p3_profile,
    p3_in_srgb,
    saturated_pattern,
    shown_colours,
    shown_grey,
    unmanaged_grey,
)
from PIL import Image, ImageCms

import blurapp.core.media.colour_profiles as colour_profiles
from blurapp.core import load_photo

LEVEL = 1 / 255


def p3_photo(path, pixels=None, profile=None, **options):
    pixels = saturated_pattern() if pixels is None else pixels
    Image.fromarray(pixels).save(path, icc_profile=profile or display_p3_profile(), **options)
    return path


def test_a_p3_jpegs_grey_is_the_luma_of_its_colours_in_srgb(tmp_path):
    path = p3_photo(tmp_path / "p3.jpg", quality=95)
    grey = load_photo(path).pixels
    np.testing.assert_allclose(grey, shown_grey(path), atol=LEVEL)
    # The saturated pattern's numbers read as if they were sRGB are far from what is shown.
    assert np.abs(grey - unmanaged_grey(path)).max() > 5 * LEVEL


@pytest.mark.parametrize("suffix", [".png", ".tif", ".webp", ".avif"])
def test_a_p3_photos_colours_are_those_a_viewer_shows(tmp_path, suffix):
    path = tmp_path / f"p3{suffix}"
    if suffix == ".avif":
        avif_file(path, saturated_pattern(), icc_profile=display_p3_profile())
    else:
        p3_photo(path, **({"lossless": True} if suffix == ".webp" else {}))
    photo = load_photo(path, color=True)
    np.testing.assert_allclose(photo.pixels, shown_colours(path), atol=1e-6)
    np.testing.assert_allclose(photo.gray, shown_colours(path) @ LUMA, atol=LEVEL)
    # A saturated P3 green is outside sRGB: clipped to no red and no blue, greener than its
    # numbers taken as sRGB.
    red, green, blue = np.rint(photo.pixels[0, 0] * 255)
    assert red == blue == 0 and green > 230


def test_a_16_bit_p3_tiff_is_converted_at_16_bits(tmp_path):
    rng = np.random.default_rng(3)
    levels = rng.integers(0, 65536, (24, 32, 3), dtype=np.uint16)
    levels[:12, :16] = (0, 60000, 0)
    path = tmp_path / "p3-16.tif"
    tifffile.imwrite(path, levels, photometric="rgb", iccprofile=display_p3_profile())
    photo = load_photo(path, color=True)
    assert photo.bit_depth == 16
    # ImageCms transforms 8 bits only: the oracle is the conversion worked out from the primaries.
    np.testing.assert_allclose(photo.pixels, p3_in_srgb(levels / 65535), atol=LEVEL)
    unmanaged = levels / 65535
    assert np.abs(photo.pixels - unmanaged).max() > 5 * LEVEL


def test_a_photo_in_srgb_is_read_as_before(tmp_path):
    pixels = saturated_pattern()
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    path = p3_photo(tmp_path / "srgb.png", pixels, profile=srgb)
    np.testing.assert_allclose(load_photo(path, color=True).pixels, pixels / 255, atol=LEVEL)


def cut_short(profile):
    return profile[: len(profile) // 3]


def lab_profile(_profile):
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("LAB")).tobytes()


def garbage(_profile):
    return b"acsp" * 40


@pytest.mark.parametrize("spoil", [cut_short, lab_profile, garbage])
def test_a_profile_that_cannot_be_used_is_warned_of_and_the_photo_read_as_srgb(
    tmp_path, caplog, spoil
):
    pixels = saturated_pattern()
    path = p3_photo(tmp_path / "odd.png", pixels, profile=spoil(display_p3_profile()))
    with caplog.at_level(logging.WARNING):
        photo = load_photo(path, color=True)
    np.testing.assert_allclose(photo.pixels, pixels / 255, atol=1e-6)
    assert len(caplog.records) == 1
    assert (
        caplog.records[0]
        .getMessage()
        .startswith(f"{path}: its colour profile cannot be used, so its colours are read as sRGB: ")
    )


def test_a_huge_profile_is_not_parsed(tmp_path, caplog, monkeypatch):
    monkeypatch.setattr(colour_profiles, "MAX_PROFILE_BYTES", 1000)
    pixels = saturated_pattern()
    path = p3_photo(tmp_path / "huge.png", pixels, profile=display_p3_profile())
    with caplog.at_level(logging.WARNING):
        photo = load_photo(path, color=True)
    np.testing.assert_allclose(photo.pixels, pixels / 255, atol=1e-6)
    assert "more than a profile holds" in caplog.text


def test_a_16_bit_photo_with_a_damaged_profile_is_read_as_srgb(tmp_path, caplog):
    levels = np.random.default_rng(4).integers(0, 65536, (8, 9, 3), dtype=np.uint16)
    path = tmp_path / "odd.tif"
    tifffile.imwrite(path, levels, photometric="rgb", iccprofile=b"\0" * 200)
    with caplog.at_level(logging.WARNING):
        photo = load_photo(path, color=True)
    np.testing.assert_allclose(photo.pixels, levels / 65535, atol=1e-6)
    assert f"{path}: its colour profile cannot be used" in caplog.text


def test_the_written_colour_files_say_they_are_srgb(tmp_path):
    from blurapp.core.media.saving import save_output

    image = np.random.default_rng(5).random((6, 7, 3)).astype(np.float32)
    for name, bits in (
        ("a.png", 8),
        ("a.jpg", 8),
        ("a.tif", 8),
        ("a.webp", 8),
        ("b.tif", 16),
        ("b.png", 16),
    ):
        save_output(tmp_path / name, image, bit_depth=bits)
        with Image.open(tmp_path / name) as written:
            if name.endswith(".png"):
                assert "srgb" in written.info or "icc_profile" in written.info, name
            else:
                profile = ImageCms.ImageCmsProfile(io.BytesIO(written.info["icc_profile"]))
                assert "sRGB" in ImageCms.getProfileDescription(profile), name
