"""The loader on files made here with Pillow, and on every way a file can be wrong."""

import os
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
import tifffile
from helpers.photos import as_levels
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from blurapp.core import PhotoError, load_grayscale, load_photo, sample_photo_path
from blurapp.core.media.photo import has_colour


def luma(r, g, b):
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


def test_the_bundled_sample_is_a_real_colour_photo():
    photo = load_photo(sample_photo_path())
    assert (photo.width, photo.height) == (600, 400)
    assert photo.gray.dtype == np.float32
    assert 0 <= photo.gray.min() < 0.2 and 0.8 < photo.gray.max() <= 1
    assert photo.bit_depth == 8


def test_rgb_grey_is_the_601_luma_as_8_bit_levels(tmp_path):
    pixels = np.array([[[255, 0, 0], [0, 255, 0], [0, 0, 255], [10, 200, 77]]], dtype=np.uint8)
    path = tmp_path / "colours.png"
    Image.fromarray(pixels).save(path)
    gray = load_grayscale(path)
    expected = as_levels([luma(*p) for p in pixels[0].tolist()])
    np.testing.assert_allclose(gray[0], expected, rtol=0, atol=1e-7)
    # Bit for bit the values an 8-bit grey file of those levels gives.
    levels = np.array([76, 150, 29, 129], dtype=np.uint8)
    np.testing.assert_array_equal(
        gray[0], np.multiply(levels, np.float32(1 / 255), dtype=np.float32)
    )


def test_exif_orientation_turns_a_phone_photo_upright(tmp_path):
    stored = np.zeros((20, 40, 3), dtype=np.uint8)  # landscape as stored: 40 wide, 20 high
    stored[:5, :5] = 255  # a white mark in the stored top-left corner
    image = Image.fromarray(stored)
    exif = image.getexif()
    exif[0x0112] = 6  # "rotate 90° clockwise to display"
    path = tmp_path / "phone.jpg"
    image.save(path, exif=exif, quality=95)
    gray = load_grayscale(path)
    assert gray.shape == (40, 20)  # portrait, as a viewer shows it
    assert gray[:5, -5:].mean() > 0.9  # the mark is now in the top-right corner
    assert gray[-5:, :5].mean() < 0.1


def test_sixteen_bit_png_keeps_its_full_range(tmp_path):
    ramp = np.linspace(0, 65535, 256 * 4, dtype=np.uint16).reshape(4, 256)
    ramp[0, :2] = [1000, 1001]  # neighbouring 16-bit levels stay distinct
    path = tmp_path / "ramp16.png"
    Image.fromarray(ramp).save(path)
    photo = load_photo(path)
    assert photo.bit_depth == 16
    np.testing.assert_allclose(photo.gray, ramp / 65535, rtol=0, atol=1e-7)
    assert photo.gray.max() == 1.0
    assert photo.gray[0, 0] < photo.gray[0, 1]
    assert np.unique(photo.gray).size > 256  # not squeezed into 8 bits


def test_sixteen_bit_tiff_keeps_its_full_range(tmp_path):
    values = np.array([[0, 300, 40000, 65535]], dtype=np.uint16)
    path = tmp_path / "gray16.tif"
    Image.fromarray(values).save(path)
    np.testing.assert_allclose(load_grayscale(path), values / 65535, rtol=0, atol=1e-7)


def test_a_transparent_colour_key_in_a_sixteen_bit_png_shows_white(tmp_path):
    values = np.array([[1000, 0, 40000, 1001]], dtype=np.uint16)
    path = tmp_path / "gray16-key.png"
    Image.fromarray(values).save(path, transparency=1000)
    assert b"tRNS\x03\xe8" in path.read_bytes()  # the key, 1000, as the PNG stores it
    photo = load_photo(path)
    np.testing.assert_allclose(photo.gray[0], [1.0, 0.0, 40000 / 65535, 1001 / 65535], atol=1e-7)
    assert photo.bit_depth == 16


@pytest.mark.parametrize(
    ("values", "full_scale", "bit_depth"),
    [([0, 1, 128, 255], 255, 8), ([0, 255, 256, 65535], 65535, 16), ([0, 5, 2000], 65535, 16)],
)
def test_a_32_bit_integer_tiff_is_scaled_by_the_range_its_values_are_in(
    tmp_path, values, full_scale, bit_depth
):
    path = tmp_path / "int32.tif"
    Image.fromarray(np.array([values], dtype=np.int32)).save(path)
    with Image.open(path) as check:
        assert check.mode == "I" and check.tag_v2[258] == (32,)  # 32 bits per sample
    photo = load_photo(path)
    np.testing.assert_allclose(photo.gray[0], np.array(values) / full_scale, rtol=0, atol=1e-7)
    assert photo.bit_depth == bit_depth


def test_a_dark_sixteen_bit_tiff_stays_sixteen_bit(tmp_path):
    values = np.array([[0, 1, 100, 255]], dtype=np.uint16)  # fits 8 bits, but the file says 16
    path = tmp_path / "dark16.tif"
    Image.fromarray(values).save(path)
    photo = load_photo(path)
    np.testing.assert_allclose(photo.gray, values / 65535, rtol=0, atol=1e-7)
    assert photo.bit_depth == 16


def test_a_dark_sixteen_bit_pgm_stays_sixteen_bit(tmp_path):
    path = tmp_path / "dark16.pgm"
    path.write_bytes(b"P5\n4 1\n65535\n" + np.array([0, 1, 100, 255], dtype=">u2").tobytes())
    with Image.open(path) as check:
        assert check.mode == "I"  # Pillow gives 16-bit PGMs the 32-bit integer mode
    photo = load_photo(path)
    np.testing.assert_allclose(photo.gray[0], [0, 1 / 65535, 100 / 65535, 255 / 65535], atol=1e-9)
    assert photo.bit_depth == 16


def test_rgba_is_composited_over_white(tmp_path):
    pixels = np.array([[[255, 0, 0, 128], [0, 0, 0, 0], [0, 0, 0, 255]]], dtype=np.uint8)
    path = tmp_path / "rgba.png"
    Image.fromarray(pixels, "RGBA").save(path)
    gray = load_grayscale(path)
    alpha = 128 / 255
    expected = as_levels([luma(255, 0, 0) * alpha + 1 - alpha, 1.0, 0.0])
    np.testing.assert_allclose(gray[0], expected, atol=1e-7)


def test_la_is_composited_over_white(tmp_path):
    image = Image.new("LA", (2, 1))
    image.putpixel((0, 0), (100, 255))
    image.putpixel((1, 0), (0, 0))
    path = tmp_path / "la.png"
    image.save(path)
    np.testing.assert_allclose(load_grayscale(path)[0], [100 / 255, 1.0], atol=1e-6)


def test_palette_with_transparency_shows_white_where_transparent(tmp_path):
    image = Image.new("P", (3, 1))
    image.putpalette([0, 0, 0, 255, 0, 0, 0, 0, 255] + [0] * (256 * 3 - 9))
    image.putdata([0, 1, 2])
    path = tmp_path / "palette.png"
    image.save(path, transparency=0)
    gray = load_grayscale(path)
    np.testing.assert_allclose(
        gray[0], as_levels([1.0, luma(255, 0, 0), luma(0, 0, 255)]), atol=1e-7
    )


def test_palette_without_transparency(tmp_path):
    image = Image.new("P", (2, 1))
    image.putpalette([0, 255, 0, 40, 40, 40] + [0] * (256 * 3 - 6))
    image.putdata([0, 1])
    path = tmp_path / "palette.gif"
    image.save(path)
    np.testing.assert_allclose(
        load_grayscale(path)[0], as_levels([luma(0, 255, 0), 40 / 255]), atol=1e-7
    )


def test_cmyk_jpeg(tmp_path):
    image = Image.new("CMYK", (16, 16), (0, 0, 0, 0))  # no ink: white paper
    image.paste((0, 0, 0, 255), (8, 0, 16, 16))  # full black ink on the right half
    path = tmp_path / "cmyk.jpg"
    image.save(path, quality=100)
    with Image.open(path) as check:
        assert check.mode == "CMYK"
    gray = load_grayscale(path)
    assert gray.shape == (16, 16)
    assert gray[:, :6].mean() > 0.97 and gray[:, 10:].mean() < 0.03


def test_one_bit_and_eight_bit_gray(tmp_path):
    bits = Image.new("1", (2, 1))
    bits.putpixel((1, 0), 1)
    bits.save(tmp_path / "bits.png")
    np.testing.assert_array_equal(load_grayscale(tmp_path / "bits.png")[0], [0.0, 1.0])

    gray = np.array([[0, 51, 255]], dtype=np.uint8)
    Image.fromarray(gray).save(tmp_path / "gray.png")
    np.testing.assert_allclose(load_grayscale(tmp_path / "gray.png"), gray / 255, atol=1e-7)


def test_animated_gif_gives_its_first_frame(tmp_path):
    frames = [Image.new("L", (4, 4), level) for level in (30, 200, 120)]
    path = tmp_path / "animated.gif"
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=100, loop=0)
    with Image.open(path) as check:
        assert check.n_frames == 3
    np.testing.assert_allclose(load_grayscale(path), np.full((4, 4), 30 / 255), atol=1e-6)


def test_multipage_tiff_gives_its_first_page(tmp_path):
    pages = [Image.new("L", (3, 2), level) for level in (77, 5)]
    path = tmp_path / "pages.tif"
    pages[0].save(path, save_all=True, append_images=pages[1:])
    np.testing.assert_allclose(load_grayscale(path), np.full((2, 3), 77 / 255), atol=1e-6)


def test_non_ascii_file_name(tmp_path):
    path = tmp_path / "café ☕ фото.png"
    Image.new("L", (5, 4), 128).save(path)
    photo = load_photo(path)
    assert photo.gray.shape == (4, 5)
    assert photo.path == path


# b"caf\xe9" is "café" in Latin-1; not UTF-8, so Python keeps the byte as a lone surrogate.
NOT_UTF8 = os.fsdecode(b"caf\xe9")
linux_only = pytest.mark.skipif(
    sys.platform != "linux", reason="only Linux allows file names that are not UTF-8"
)


@linux_only
def test_a_file_name_that_is_not_utf8_loads(tmp_path):
    path = tmp_path / f"{NOT_UTF8}.png"
    Image.new("L", (3, 2), 51).save(path)
    assert os.fsencode(path).endswith(b"/caf\xe9.png")
    photo = load_photo(path)
    np.testing.assert_allclose(photo.gray, np.full((2, 3), 0.2), atol=1e-7)
    assert photo.path == path


@linux_only
@pytest.mark.parametrize("content", [None, b"not a photo"])
def test_the_error_for_a_file_name_that_is_not_utf8_can_be_shown(tmp_path, content):
    path = tmp_path / f"{NOT_UTF8}.png"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(PhotoError) as caught:
        load_grayscale(path)
    message = str(caught.value)
    message.encode("utf-8")  # printable and showable: no lone surrogates left
    assert message.startswith(f"{os.fsencode(tmp_path).decode()}/caf\ufffd.png: ")
    assert caught.value.path == path  # the real name, to open the file with


# --- Every failure is a PhotoError naming the file -----------------------------------------


def assert_refused(path, words):
    with pytest.raises(PhotoError) as caught:
        load_grayscale(path)
    message = str(caught.value)
    assert str(path) in message
    assert words in message
    assert caught.value.path == path
    return message


def test_missing_file(tmp_path):
    assert_refused(tmp_path / "nowhere.jpg", "no such file")


def test_a_folder(tmp_path):
    assert_refused(tmp_path, "folder")


def test_an_empty_file(tmp_path):
    path = tmp_path / "empty.png"
    path.touch()
    assert_refused(path, "empty")


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    path = tmp_path / "pipe.png"
    os.mkfifo(path)
    refusals = []

    def load():
        try:
            load_grayscale(path)
        except PhotoError as error:
            refusals.append(str(error))

    reader = threading.Thread(target=load, daemon=True)
    reader.start()
    reader.join(timeout=10)
    if reader.is_alive():
        with open(path, "wb"):  # the other end of the pipe lets the stuck reader go
            pass
        reader.join()
        pytest.fail("loading a FIFO waited for something to write into it")
    assert refusals == [f"{path}: this is not a regular file"]


def test_a_device_is_refused(tmp_path):
    assert_refused(Path("/dev/zero"), "this is not a regular file")


@pytest.mark.skipif(not Path("/proc/cpuinfo").exists(), reason="no /proc file system")
def test_a_proc_file_is_not_called_empty():
    # The kernel reports a size of 0 for it, yet reading it gives text.
    assert Path("/proc/cpuinfo").stat().st_size == 0
    message = assert_refused(Path("/proc/cpuinfo"), "this is not an image file BlurApp can read")
    assert "empty" not in message


def test_not_an_image(tmp_path):
    path = tmp_path / "notes.jpg"
    path.write_text("shopping list: coffee, milk\n")
    assert_refused(path, "not an image")


@pytest.mark.parametrize(("suffix", "fraction"), [(".png", 0.5), (".jpg", 0.5), (".png", 0.9)])
def test_a_truncated_file(tmp_path, suffix, fraction):
    whole = tmp_path / f"whole{suffix}"
    noise = np.random.default_rng(0).integers(0, 255, (64, 64, 3), dtype=np.uint8)
    Image.fromarray(noise).save(whole)
    data = whole.read_bytes()
    cut = tmp_path / f"cut{suffix}"
    cut.write_bytes(data[: int(len(data) * fraction)])
    assert_refused(cut, "truncated")


@pytest.mark.parametrize("times_limit", [1.5, 3])
@pytest.mark.parametrize("name", ["bomb.png", "floats.tif"])
def test_an_image_over_the_decompression_bomb_limit(tmp_path, monkeypatch, times_limit, name):
    path = tmp_path / name
    if name.endswith(".tif"):  # read through tifffile, not Pillow: the same limit holds
        tifffile.imwrite(path, np.zeros((100, 100, 3), np.float32), photometric="rgb")
    else:
        Image.new("L", (100, 100)).save(path)
    # 10,000 pixels: above 1× the limit Pillow warns, above 2× it refuses; both are refused here.
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", int(10_000 / times_limit))
    assert_refused(path, "too large")


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("planes", [False, True], ids=["pixels", "planes"])
def test_a_colour_tiff_of_floats_keeps_its_floats(tmp_path, dtype, planes):
    floats = np.random.default_rng(8).random((6, 10, 3)).astype(dtype)
    path = tmp_path / "floats.tif"
    stored = np.moveaxis(floats, -1, 0) if planes else floats
    layout = "separate" if planes else "contig"
    tifffile.imwrite(path, stored, photometric="rgb", planarconfig=layout)
    photo = load_photo(path, color=True)
    assert has_colour(path) and photo.channels == 3
    assert photo.bit_depth == 16  # written at 16 bits, as a blur by blocks writes it
    np.testing.assert_allclose(photo.pixels, floats, rtol=1e-7, atol=0)  # float32's rounding
    grey = floats.astype(np.float64) @ [0.299, 0.587, 0.114]
    np.testing.assert_allclose(photo.gray, grey, rtol=0, atol=1e-6)
    np.testing.assert_array_equal(load_grayscale(path), photo.gray)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_a_grey_tiff_of_floats_shows_white_where_it_says(tmp_path, dtype):
    floats = np.random.default_rng(9).random((6, 10)).astype(dtype)
    exact = floats.astype(np.float64)  # 1 - a float16 would be rounded to float16 again
    for photometric, shown in (("minisblack", exact), ("miniswhite", 1 - exact)):
        path = tmp_path / f"{photometric}.tif"
        tifffile.imwrite(path, floats, photometric=photometric)
        assert not has_colour(path)
        np.testing.assert_allclose(load_grayscale(path), shown, rtol=0, atol=1e-7)


def test_an_unsupported_mode(tmp_path):
    path = tmp_path / "floats.tif"
    Image.fromarray(np.array([[0.5, 42.0]], dtype=np.float32)).save(path)
    assert_refused(path, "not supported")


def test_a_32_bit_integer_image_outside_16_bits(tmp_path):
    path = tmp_path / "int32.tif"
    Image.fromarray(np.array([[0, 1_000_000]], dtype=np.int32)).save(path)
    assert_refused(path, "not supported")


def test_a_signed_16_bit_tiff_with_negative_pixels_says_what_it_holds(tmp_path):
    import tifffile

    path = tmp_path / "int16.tif"
    tifffile.imwrite(path, np.array([[-5, 300]], dtype=np.int16))
    assert_refused(path, "its pixels are signed 16-bit integers from -5 to 300")


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=2048))
def test_arbitrary_bytes_give_an_image_or_a_photo_error(tmp_path, data):
    path = tmp_path / "anything.img"
    path.write_bytes(data)
    try:
        gray = load_grayscale(path)
    except PhotoError as error:
        assert str(path) in str(error)
    else:
        assert gray.dtype == np.float32 and gray.ndim == 2
        assert np.isfinite(gray).all() and gray.min() >= 0 and gray.max() <= 1


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_damaged_real_files_give_an_image_or_a_photo_error(tmp_path, data):
    # Starting from a real PNG/JPEG/GIF/TIFF reaches much deeper into the decoders than noise.
    fmt = data.draw(st.sampled_from(["PNG", "JPEG", "GIF", "TIFF", "BMP", "WEBP", "floats"]))
    source = tmp_path / f"source.{fmt.lower()}"
    if fmt == "floats":  # a TIFF of floats, which tifffile reads, not Pillow
        tifffile.imwrite(source, np.full((16, 24, 3), 0.5, np.float32), photometric="rgb")
    else:
        Image.new("RGB", (24, 16), (200, 30, 90)).save(source, format=fmt)
    raw = bytearray(source.read_bytes())
    for _ in range(data.draw(st.integers(1, 8))):
        position = data.draw(st.integers(0, len(raw) - 1))
        raw[position] = data.draw(st.integers(0, 255))
    raw = raw[: data.draw(st.integers(1, len(raw)))]
    path = tmp_path / "damaged"
    path.write_bytes(bytes(raw))
    try:
        gray = load_grayscale(path)
    except PhotoError as error:
        assert str(path) in str(error)
    else:
        assert gray.ndim == 2 and np.isfinite(gray).all()


def test_a_transparent_colour_key_in_gray_and_rgb_pngs_shows_white(tmp_path):
    gray = Image.fromarray(np.array([[0, 200]], dtype=np.uint8))
    gray.save(tmp_path / "gray-key.png", transparency=0)
    np.testing.assert_allclose(
        load_grayscale(tmp_path / "gray-key.png")[0], [1.0, 200 / 255], atol=1e-6
    )
    rgb = Image.fromarray(np.array([[[0, 0, 0], [10, 20, 30]]], dtype=np.uint8))
    rgb.save(tmp_path / "rgb-key.png", transparency=(0, 0, 0))
    np.testing.assert_allclose(
        load_grayscale(tmp_path / "rgb-key.png")[0], as_levels([1.0, luma(10, 20, 30)]), atol=1e-7
    )


def test_a_photo_too_large_for_the_memory_is_refused_up_front(tmp_path, monkeypatch):
    import blurapp.core.media.photo_checks as photo_checks

    path = tmp_path / "huge.png"
    Image.new("L", (3000, 2000)).save(path)
    decoded = []
    monkeypatch.setattr(Image.Image, "load", lambda self: decoded.append(self) or None)
    monkeypatch.setattr(photo_checks, "available_memory", lambda: 100_000_000)  # 100 MB free
    message = assert_refused(path, "3,000 × 2,000 pixels (6 MP)")
    assert "needs about 0.2 GB of memory, but only 0.1 GB is available" in message
    assert decoded == []  # refused before decoding a single pixel
