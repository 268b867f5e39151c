"""Camera RAW files developed through rawpy: the camera's white balance, 16-bit sRGB, upright;
without rawpy, with a file LibRaw cannot develop or one over the photos' pixel limit, one error
naming the file."""

import io
import struct
import sys

import numpy as np
import pytest
from helpers.phone_photos import LUMA
from helpers.raw_files import developed_by_rawpy, dng_file, dng_header, random_mosaic
from PIL import Image

from blurapp.core import PhotoError, load_photo
from blurapp.core.media.clip_files import is_clip
from blurapp.core.media.photo import has_colour


def test_a_dng_is_developed_as_rawpy_develops_it(tmp_path):
    pytest.importorskip("rawpy")  # the raw extra (CI installs it; the TPU machine has not)
    path = dng_file(tmp_path / "IMG_0001.DNG", random_mosaic())
    assert not is_clip(path) and has_colour(path)
    photo = load_photo(path, color=True)
    assert (photo.height, photo.width, photo.bit_depth) == (48, 64, 16)
    expected = developed_by_rawpy(path)
    np.testing.assert_allclose(photo.pixels, expected, atol=1e-6)
    np.testing.assert_allclose(load_photo(path).pixels, expected @ LUMA, atol=1e-5)


def test_the_cameras_white_balance_makes_its_grey_grey(tmp_path):
    pytest.importorskip("rawpy")  # the raw extra (CI installs it; the TPU machine has not)
    # A grey wall as the camera's sensor saw it: red at half of green, blue at 0.8.
    mosaic = np.empty((32, 32), np.uint16)
    mosaic[0::2, 0::2] = 1000  # red
    mosaic[0::2, 1::2] = mosaic[1::2, 0::2] = 2000  # green
    mosaic[1::2, 1::2] = 1600  # blue
    path = dng_file(tmp_path / "wall.dng", mosaic, neutral=(0.5, 1.0, 0.8))
    centre = load_photo(path, color=True).pixels[8:-8, 8:-8]
    red, green, blue = centre.reshape(-1, 3).mean(axis=0)
    assert abs(red - green) < 0.01 and abs(blue - green) < 0.01
    # Not brightened: the wall at half the sensor's range stays a mid grey.
    assert 0.5 < green < 0.9


def test_a_turned_dng_is_developed_upright(tmp_path):
    pytest.importorskip("rawpy")  # the raw extra (CI installs it; the TPU machine has not)
    path = dng_file(tmp_path / "turned.dng", random_mosaic(32, 48), orientation=6)
    photo = load_photo(path, color=True)
    assert (photo.height, photo.width) == (48, 32)
    np.testing.assert_allclose(photo.pixels, developed_by_rawpy(path), atol=1e-6)


def test_a_raw_file_without_rawpy_is_one_line_naming_the_extra(tmp_path, monkeypatch):
    path = dng_file(tmp_path / "a.nef", random_mosaic())
    monkeypatch.setitem(sys.modules, "rawpy", None)  # as where the extra is not installed
    with pytest.raises(PhotoError) as caught:
        load_photo(path)
    assert str(caught.value) == (
        f"{path}: reading camera RAW files needs rawpy, which is not installed: "
        "pip install 'blurapp[raw]'"
    )


@pytest.mark.parametrize("data", [b"", b"not a raw file at all" * 10, "cut"])
def test_a_raw_file_libraw_cannot_develop_is_one_error_naming_it(tmp_path, data):
    path = tmp_path / "broken.cr2"
    if data == "cut":
        whole = dng_file(tmp_path / "whole.dng", random_mosaic()).read_bytes()
        data = whole[: len(whole) // 3]
    path.write_bytes(data)
    with pytest.raises(PhotoError) as caught:
        load_photo(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert "\n" not in str(caught.value)


def test_a_raw_file_over_the_pixel_limit_is_refused_as_any_photo_is(tmp_path):
    pytest.importorskip("rawpy")  # the raw extra (CI installs it; the TPU machine has not)
    # 12,000 × 10,000 pixels (120 MP) declared and none stored: refused from the header, as a
    # JPEG of that size is, where developing it would have failed for want of its pixels.
    raw = dng_header(tmp_path / "IMG_0120.DNG", 10_000, 12_000)
    jpeg = tmp_path / "IMG_0120.JPG"
    jpeg.write_bytes(_jpeg_declaring(10_000, 12_000))
    for path in (raw, jpeg):
        for color in (False, True):
            with pytest.raises(PhotoError) as caught:
                load_photo(path, color=color)
            assert str(caught.value) == (
                f"{path}: the image is too large to open safely (over 89,478,485 pixels)"
            )


def _jpeg_declaring(height, width):
    """A small JPEG whose start-of-frame says it is `height` × `width` pixels."""
    buffer = io.BytesIO()
    Image.new("L", (8, 8)).save(buffer, format="JPEG")
    data = bytearray(buffer.getvalue())
    start = data.index(b"\xff\xc0")
    data[start + 5 : start + 9] = struct.pack(">HH", height, width)
    return bytes(data)
