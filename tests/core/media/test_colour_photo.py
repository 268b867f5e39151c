"""Loading in colour: every kind of colour photo, made here, as a caller gets it back."""

import struct
import zlib

import imagecodecs
import numpy as np
import pytest
import tifffile
from helpers.photos import as_levels
from PIL import Image

import blurapp.core.media.photo_checks as photo_checks
from blurapp.core import PhotoError, load_photo

LUMA = np.array([0.299, 0.587, 0.114])

# Values a 16-bit file can hold that no 8-bit file can: 1001 / 65535 lies between 3 / 255 and
# 4 / 255, so a loader that went through 8 bits could not give it back.
NOT_EIGHT_BIT = 1001


def sixteen_bit_rgb(height=4, width=5, seed=0):
    values = np.random.default_rng(seed).integers(0, 65536, (height, width, 3), dtype=np.uint16)
    values[0, 0] = [NOT_EIGHT_BIT, 1000, 65535]
    return values


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def with_chunk_before_pixels(png: bytes, kind: bytes, data: bytes) -> bytes:
    """The PNG with one more chunk just before its first IDAT, where PNG wants eXIf and tRNS."""
    at = png.index(b"IDAT") - 4  # back over the chunk's length
    return png[:at] + png_chunk(kind, data) + png[at:]


def with_chunk_after_pixels(png: bytes, kind: bytes, data: bytes) -> bytes:
    """The PNG with one more chunk after its pixels, just before IEND (PNG allows eXIf there)."""
    at = png.rindex(b"IEND") - 4
    return png[:at] + png_chunk(kind, data) + png[at:]


def exif_orientation(orientation: int) -> bytes:
    exif = Image.Exif()
    exif[0x0112] = orientation
    return exif.tobytes()


def over_white(colour, alpha):
    return colour * alpha + (1 - alpha)


# --- 8-bit colour ------------------------------------------------------------------------


def test_an_rgb_png_keeps_its_three_channels(tmp_path):
    values = np.random.default_rng(1).integers(0, 256, (6, 7, 3), dtype=np.uint8)
    path = tmp_path / "rgb.png"
    Image.fromarray(values).save(path)
    photo = load_photo(path, color=True)
    assert photo.pixels.shape == (6, 7, 3) and photo.pixels.dtype == np.float32
    assert (photo.height, photo.width, photo.channels) == (6, 7, 3)
    assert photo.bit_depth == 8
    np.testing.assert_allclose(photo.pixels, values / 255, rtol=0, atol=1e-7)


def test_an_rgb_jpeg_is_what_pillow_decodes(tmp_path):
    values = np.random.default_rng(2).integers(0, 256, (16, 24, 3), dtype=np.uint8)
    path = tmp_path / "rgb.jpg"
    Image.fromarray(values).save(path, quality=90)
    with Image.open(path) as check:
        expected = np.asarray(check.convert("RGB")) / 255
    photo = load_photo(path, color=True)
    np.testing.assert_allclose(photo.pixels, expected, rtol=0, atol=1e-7)
    assert photo.bit_depth == 8


def test_rgba_is_composited_over_white_channel_by_channel(tmp_path):
    values = np.array(
        [[[255, 0, 0, 128], [0, 0, 0, 0], [10, 200, 30, 255], [90, 60, 250, 40]]], dtype=np.uint8
    )
    path = tmp_path / "rgba.png"
    Image.fromarray(values, "RGBA").save(path)
    photo = load_photo(path, color=True)
    alpha = values[..., 3:] / 255
    expected = over_white(values[..., :3] / 255, alpha)
    assert photo.pixels.shape == (1, 4, 3)
    # Alpha over white, rounded back to the photo's own 8-bit levels.
    np.testing.assert_array_equal(photo.pixels, as_levels(expected))
    np.testing.assert_array_equal(photo.pixels[0, 1], [1, 1, 1])  # fully transparent: white


def test_an_rgb_colour_key_shows_white(tmp_path):
    path = tmp_path / "rgb-key.png"
    Image.fromarray(np.array([[[0, 0, 0], [10, 20, 30]]], dtype=np.uint8)).save(
        path, transparency=(0, 0, 0)
    )
    pixels = load_photo(path, color=True).pixels
    np.testing.assert_allclose(pixels[0], [[1, 1, 1], [10 / 255, 20 / 255, 30 / 255]], atol=1e-6)


def test_la_stays_grayscale_and_is_composited_over_white(tmp_path):
    image = Image.new("LA", (2, 1))
    image.putpixel((0, 0), (100, 255))
    image.putpixel((1, 0), (40, 64))
    path = tmp_path / "la.png"
    image.save(path)
    photo = load_photo(path, color=True)
    assert photo.pixels.shape == (1, 2) and photo.channels == 1
    np.testing.assert_allclose(
        photo.pixels[0], as_levels([100 / 255, over_white(40 / 255, 64 / 255)]), atol=1e-7
    )


def test_a_palette_becomes_rgb(tmp_path):
    image = Image.new("P", (2, 1))
    image.putpalette([0, 255, 0, 40, 40, 40] + [0] * (256 * 3 - 6))
    image.putdata([0, 1])
    path = tmp_path / "palette.png"
    image.save(path)
    pixels = load_photo(path, color=True).pixels
    np.testing.assert_allclose(pixels[0], [[0, 1, 0], [40 / 255] * 3], atol=1e-7)


def test_a_palette_with_transparency_shows_white_where_transparent(tmp_path):
    image = Image.new("P", (3, 1))
    image.putpalette([0, 0, 0, 255, 0, 0, 0, 0, 255] + [0] * (256 * 3 - 9))
    image.putdata([0, 1, 2])
    path = tmp_path / "palette.png"
    image.save(path, transparency=0)
    pixels = load_photo(path, color=True).pixels
    np.testing.assert_allclose(pixels[0], [[1, 1, 1], [1, 0, 0], [0, 0, 1]], atol=1e-7)


@pytest.mark.parametrize("suffix", [".jpg", ".tif"])
def test_cmyk_is_what_pillow_converts_to_rgb(tmp_path, suffix):
    ink = np.random.default_rng(3).integers(0, 256, (8, 12, 4), dtype=np.uint8)
    path = tmp_path / f"cmyk{suffix}"
    Image.fromarray(ink, "CMYK").save(path)
    with Image.open(path) as check:
        assert check.mode == "CMYK"
        expected = np.asarray(check.convert("RGB")) / 255
    photo = load_photo(path, color=True)
    assert photo.pixels.shape == (8, 12, 3)
    np.testing.assert_allclose(photo.pixels, expected, rtol=0, atol=1e-7)


@pytest.mark.parametrize(("orientation", "mark_at"), [(6, (0, -1)), (8, (-1, 0))])
def test_exif_orientation_turns_an_rgb_jpeg_upright(tmp_path, orientation, mark_at):
    stored = np.zeros((16, 32, 3), dtype=np.uint8)  # landscape as stored
    stored[:8, :8] = [255, 0, 0]  # a red mark in the stored top-left corner
    path = tmp_path / "phone.jpg"
    Image.fromarray(stored).save(path, exif=exif_orientation(orientation), quality=95)
    pixels = load_photo(path, color=True).pixels
    assert pixels.shape == (32, 16, 3)  # portrait, as a viewer shows it
    row = slice(0, 8) if mark_at[0] == 0 else slice(-8, None)
    column = slice(0, 8) if mark_at[1] == 0 else slice(-8, None)
    corner = pixels[row, column].reshape(-1, 3).mean(axis=0)
    assert corner[0] > 0.9 and corner[1] < 0.1 and corner[2] < 0.1
    assert pixels[:8, :8].mean() < 0.1  # the stored corner is no longer the top-left one


def test_the_first_frame_of_an_animation(tmp_path):
    frames = [Image.new("RGB", (4, 4), colour) for colour in [(200, 10, 30), (0, 0, 255)]]
    path = tmp_path / "animated.gif"
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=100, loop=0)
    pixels = load_photo(path, color=True).pixels
    np.testing.assert_allclose(pixels, np.broadcast_to([200 / 255, 10 / 255, 30 / 255], (4, 4, 3)))


# --- 16-bit colour -----------------------------------------------------------------------


def test_a_sixteen_bit_rgb_png_keeps_its_full_precision(tmp_path):
    values = sixteen_bit_rgb()
    path = tmp_path / "rgb16.png"
    path.write_bytes(imagecodecs.png_encode(values))
    with Image.open(path) as check:
        assert check.mode == "RGB"  # Pillow itself would give 8 bits a channel
    photo = load_photo(path, color=True)
    assert photo.bit_depth == 16
    assert photo.pixels.shape == (4, 5, 3) and photo.pixels.dtype == np.float32
    np.testing.assert_allclose(photo.pixels, values / 65535, rtol=0, atol=1e-7)
    assert photo.pixels[0, 0, 0] == np.float32(NOT_EIGHT_BIT / 65535)
    assert photo.pixels[0, 0, 0] > photo.pixels[0, 0, 1]  # 1001 and 1000 stay apart


@pytest.mark.parametrize(
    "layout",
    [{}, {"planarconfig": "separate"}, {"compression": "zlib"}, {"byteorder": ">"}],
    ids=["contiguous", "planar", "deflate", "big-endian"],
)
def test_a_sixteen_bit_rgb_tiff_keeps_its_full_precision(tmp_path, layout):
    values = sixteen_bit_rgb(6, 3, seed=4)
    path = tmp_path / "rgb16.tif"
    stored = np.moveaxis(values, -1, 0) if "planarconfig" in layout else values
    tifffile.imwrite(path, stored, photometric="rgb", **layout)
    photo = load_photo(path, color=True)
    assert photo.bit_depth == 16
    assert photo.pixels.shape == (6, 3, 3)
    np.testing.assert_allclose(photo.pixels, values / 65535, rtol=0, atol=1e-7)
    assert photo.pixels[0, 0, 0] == np.float32(NOT_EIGHT_BIT / 65535)


@pytest.mark.parametrize("alpha_kind", ["unassalpha", "assocalpha"])
def test_a_sixteen_bit_rgba_tiff_is_composited_over_white(tmp_path, alpha_kind):
    colour = sixteen_bit_rgb(3, 4, seed=5)
    alpha = np.array([[65535, 0, 32768, 20000]] * 3, dtype=np.uint16)
    if alpha_kind == "assocalpha":  # stored already multiplied by alpha
        colour = np.round(colour * (alpha[..., None] / 65535)).astype(np.uint16)
    path = tmp_path / "rgba16.tif"
    tifffile.imwrite(path, np.dstack([colour, alpha]), photometric="rgb", extrasamples=[alpha_kind])
    photo = load_photo(path, color=True)
    a = alpha[..., None] / 65535
    if alpha_kind == "assocalpha":
        expected = colour / 65535 + (1 - a)
    else:
        expected = over_white(colour / 65535, a)
    assert photo.bit_depth == 16 and photo.pixels.shape == (3, 4, 3)
    np.testing.assert_allclose(photo.pixels, as_levels(expected, 65535), rtol=0, atol=1e-7)
    np.testing.assert_array_equal(photo.pixels[:, 1], 1.0)  # fully transparent: white
    if alpha_kind == "unassalpha":
        assert photo.pixels[0, 0, 0] == np.float32(NOT_EIGHT_BIT / 65535)


def test_a_sixteen_bit_rgba_png_is_composited_over_white(tmp_path):
    colour = sixteen_bit_rgb(2, 3, seed=6)
    alpha = np.array([[65535, 0, 50000]] * 2, dtype=np.uint16)
    path = tmp_path / "rgba16.png"
    path.write_bytes(imagecodecs.png_encode(np.dstack([colour, alpha])))
    photo = load_photo(path, color=True)
    expected = over_white(colour / 65535, alpha[..., None] / 65535)
    assert photo.bit_depth == 16
    np.testing.assert_allclose(photo.pixels, as_levels(expected, 65535), rtol=0, atol=1e-7)
    assert photo.pixels[0, 0, 0] == np.float32(NOT_EIGHT_BIT / 65535)


def test_a_sixteen_bit_rgb_colour_key_shows_white(tmp_path):
    values = sixteen_bit_rgb(2, 2, seed=7)
    key = values[1, 1]
    path = tmp_path / "rgb16-key.png"
    png = imagecodecs.png_encode(values)
    path.write_bytes(with_chunk_before_pixels(png, b"tRNS", struct.pack(">3H", *key)))
    pixels = load_photo(path, color=True).pixels
    np.testing.assert_array_equal(pixels[1, 1], [1, 1, 1])
    np.testing.assert_allclose(pixels[0], values[0] / 65535, rtol=0, atol=1e-7)


@pytest.mark.parametrize("color", [True, False])
def test_sixteen_bit_gray_with_alpha_stays_grayscale_at_sixteen_bits(tmp_path, color):
    gray = np.array([[NOT_EIGHT_BIT, 40000, 7]], dtype=np.uint16)
    alpha = np.array([[65535, 30000, 0]], dtype=np.uint16)
    path = tmp_path / "la16.png"
    path.write_bytes(imagecodecs.png_encode(np.dstack([gray, alpha])))
    photo = load_photo(path, color=color)
    assert photo.pixels.shape == (1, 3) and photo.bit_depth == 16
    expected = over_white(gray / 65535, alpha / 65535)
    np.testing.assert_allclose(photo.pixels, as_levels(expected, 65535), rtol=0, atol=1e-7)
    assert photo.pixels[0, 0] == np.float32(NOT_EIGHT_BIT / 65535)


def test_a_sixteen_bit_tiff_gives_its_first_page(tmp_path):
    pages = np.stack([sixteen_bit_rgb(seed=8), sixteen_bit_rgb(seed=9)])
    path = tmp_path / "pages16.tif"
    tifffile.imwrite(path, pages, photometric="rgb")
    np.testing.assert_allclose(load_photo(path, color=True).pixels, pages[0] / 65535, atol=1e-7)


@pytest.mark.parametrize("where", [with_chunk_before_pixels, with_chunk_after_pixels])
@pytest.mark.parametrize("orientation", range(1, 9))
def test_exif_orientation_turns_a_sixteen_bit_png_as_pillow_turns_an_eight_bit_one(
    tmp_path, orientation, where
):
    # The same picture at 8 and at 16 bits (v × 257 is v at 16 bits): Pillow turns the 8-bit
    # one itself, so both must come back equal whatever the orientation.
    eight = np.random.default_rng(orientation).integers(0, 256, (3, 5, 3), dtype=np.uint8)
    exif = exif_orientation(orientation)
    Image.fromarray(eight).save(tmp_path / "eight.png", exif=exif)
    sixteen = imagecodecs.png_encode(eight.astype(np.uint16) * 257)
    (tmp_path / "sixteen.png").write_bytes(where(sixteen, b"eXIf", exif))
    upright = load_photo(tmp_path / "eight.png", color=True)
    photo = load_photo(tmp_path / "sixteen.png", color=True)
    assert photo.bit_depth == 16
    assert photo.pixels.flags.c_contiguous
    np.testing.assert_allclose(photo.pixels, upright.pixels, rtol=0, atol=1e-7)
    if orientation in (6, 8):
        assert photo.pixels.shape == (5, 3, 3)


@pytest.mark.parametrize(("orientation", "mark_at"), [(6, (0, -1)), (8, (-1, 0))])
def test_exif_orientation_turns_a_sixteen_bit_tiff_upright(tmp_path, orientation, mark_at):
    stored = np.zeros((2, 4, 3), dtype=np.uint16)
    stored[0, 0] = [NOT_EIGHT_BIT, 0, 0]  # a mark in the stored top-left corner
    path = tmp_path / "turned16.tif"
    tifffile.imwrite(path, stored, photometric="rgb", extratags=[(274, "H", 1, orientation)])
    pixels = load_photo(path, color=True).pixels
    assert pixels.shape == (4, 2, 3)
    assert pixels[mark_at][0] == np.float32(NOT_EIGHT_BIT / 65535)
    assert np.count_nonzero(pixels) == 1


# --- Grayscale photos stay grayscale -----------------------------------------------------


def gray_photos(tmp_path):
    """Grayscale photos of every mode, each with the values a grayscale load gives."""
    made = {}
    Image.new("1", (3, 2), 1).save(tmp_path / "bits.png")
    Image.fromarray(np.array([[0, 51, 255]], dtype=np.uint8)).save(tmp_path / "gray.png")
    Image.fromarray(np.array([[0, NOT_EIGHT_BIT]], dtype=np.uint16)).save(tmp_path / "g16.png")
    Image.fromarray(np.array([[0, 300, 70000 // 2]], dtype=np.int32)).save(tmp_path / "i.tif")
    Image.fromarray(np.array([[0.25, 1.0]], dtype=np.float32)).save(tmp_path / "f.tif")
    Image.new("L", (4, 4), 90).save(tmp_path / "gray.jpg")
    for name in ["bits.png", "gray.png", "g16.png", "i.tif", "f.tif", "gray.jpg"]:
        made[tmp_path / name] = load_photo(tmp_path / name).pixels
    return made


def test_grayscale_photos_stay_grayscale_in_colour(tmp_path):
    for path, gray in gray_photos(tmp_path).items():
        photo = load_photo(path, color=True)
        assert photo.pixels.ndim == 2 and photo.channels == 1, path.name
        np.testing.assert_array_equal(photo.pixels, gray, err_msg=path.name)
        assert photo.gray is photo.pixels


# --- A grayscale load of a colour photo is what it always was ----------------------------


def colour_photos(tmp_path):
    values = np.random.default_rng(10).integers(0, 256, (5, 6, 4), dtype=np.uint8)
    Image.fromarray(values[..., :3]).save(tmp_path / "rgb.png")
    Image.fromarray(values, "RGBA").save(tmp_path / "rgba.png")
    Image.fromarray(values[..., :3]).save(tmp_path / "rgb.jpg")
    (tmp_path / "rgb16.png").write_bytes(imagecodecs.png_encode(sixteen_bit_rgb(seed=11)))
    tifffile.imwrite(tmp_path / "rgb16.tif", sixteen_bit_rgb(seed=12), photometric="rgb")
    return [
        tmp_path / name for name in ["rgb.png", "rgba.png", "rgb.jpg", "rgb16.png", "rgb16.tif"]
    ]


def test_a_grayscale_load_of_colour_is_the_601_luma_as_levels_of_its_depth(tmp_path):
    values = np.random.default_rng(13).integers(0, 256, (5, 6, 3), dtype=np.uint8)
    Image.fromarray(values).save(tmp_path / "rgb.png")
    photo = load_photo(tmp_path / "rgb.png")
    assert photo.pixels.shape == (5, 6) and photo.channels == 1
    # Levels of the file's depth, the nearest to the luma (an exact tie may go either way).
    np.testing.assert_array_equal(photo.pixels, as_levels(photo.pixels))
    np.testing.assert_allclose(photo.pixels, values @ LUMA / 255, rtol=0, atol=0.5 / 255 + 1e-7)

    values16 = sixteen_bit_rgb(seed=14)
    (tmp_path / "rgb16.png").write_bytes(imagecodecs.png_encode(values16))
    photo = load_photo(tmp_path / "rgb16.png")
    assert photo.pixels.shape == (4, 5) and photo.bit_depth == 16
    np.testing.assert_array_equal(photo.pixels, as_levels(photo.pixels, 65535))
    np.testing.assert_allclose(photo.pixels, values16 @ LUMA / 65535, rtol=0, atol=8e-6)


def test_the_gray_of_a_colour_load_is_the_grayscale_load(tmp_path):
    for path in colour_photos(tmp_path):
        colour = load_photo(path, color=True)
        gray = load_photo(path)
        assert colour.channels == 3 and gray.channels == 1, path.name
        assert colour.bit_depth == gray.bit_depth, path.name
        assert colour.gray.dtype == np.float32 and colour.gray.shape == gray.pixels.shape
        # Bit for bit: the window (which loads in colour) and the command line blur the same grey.
        np.testing.assert_array_equal(colour.gray, gray.pixels, err_msg=path.name)
        assert colour.gray is colour.gray  # worked out once


# --- Refusals ----------------------------------------------------------------------------


def test_the_memory_check_counts_three_channels_in_colour(tmp_path, monkeypatch):
    path = tmp_path / "wide.png"
    Image.new("RGB", (3000, 2000), (10, 20, 30)).save(path)
    # One channel needs about 0.24 GB, three about 0.72 GB: 0.5 GB is enough for one only.
    monkeypatch.setattr(photo_checks, "available_memory", lambda: 500_000_000)
    assert load_photo(path).pixels.shape == (2000, 3000)
    with pytest.raises(PhotoError) as caught:
        load_photo(path, color=True)
    message = str(caught.value)
    assert str(path) in message and caught.value.path == path
    assert "needs about 0.7 GB of memory, but only 0.5 GB is available" in message


def test_the_memory_check_counts_three_channels_for_sixteen_bit_colour(tmp_path, monkeypatch):
    path = tmp_path / "wide16.png"
    path.write_bytes(imagecodecs.png_encode(np.zeros((2000, 3000, 3), dtype=np.uint16)))
    monkeypatch.setattr(photo_checks, "available_memory", lambda: 500_000_000)
    with pytest.raises(PhotoError, match=r"needs about 0\.7 GB") as caught:
        load_photo(path, color=True)
    assert caught.value.path == path


@pytest.mark.parametrize("kind", ["8-bit gray", "16-bit gray and alpha"])
def test_a_grayscale_photo_needs_one_channel_even_in_colour(tmp_path, monkeypatch, kind):
    path = tmp_path / "wide-gray.png"
    if kind == "8-bit gray":
        Image.new("L", (3000, 2000), 40).save(path)
    else:  # which Pillow calls RGBA
        path.write_bytes(imagecodecs.png_encode(np.zeros((2000, 3000, 2), dtype=np.uint16)))
    monkeypatch.setattr(photo_checks, "available_memory", lambda: 500_000_000)
    assert load_photo(path, color=True).pixels.shape == (2000, 3000)


def sixteen_bit_files(tmp_path):
    values = sixteen_bit_rgb(64, 48, seed=15)
    png = tmp_path / "whole16.png"
    png.write_bytes(imagecodecs.png_encode(values))
    tif = tmp_path / "whole16.tif"
    tifffile.imwrite(tif, values, photometric="rgb")
    return {".png": png.read_bytes(), ".tif": tif.read_bytes()}


@pytest.mark.parametrize("suffix", [".png", ".tif"])
@pytest.mark.parametrize("color", [True, False])
def test_a_truncated_sixteen_bit_file_is_refused(tmp_path, suffix, color):
    whole = sixteen_bit_files(tmp_path)[suffix]
    path = tmp_path / f"cut{suffix}"
    path.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(PhotoError) as caught:
        load_photo(path, color=color)
    assert str(caught.value) == f"{path}: the file is truncated (it ends before the image does)"


def test_a_damaged_sixteen_bit_png_is_refused(tmp_path):
    damaged = bytearray(sixteen_bit_files(tmp_path)[".png"])
    damaged[len(damaged) // 2] ^= 0x55  # inside the compressed pixels
    path = tmp_path / "damaged16.png"
    path.write_bytes(bytes(damaged))
    with pytest.raises(PhotoError) as caught:
        load_photo(path, color=True)
    assert str(caught.value).startswith(f"{path}: the file is damaged or not a valid image (")


def test_a_damaged_sixteen_bit_tiff_is_refused(tmp_path):
    path = tmp_path / "compressed16.tif"
    tifffile.imwrite(path, sixteen_bit_rgb(32, 32, seed=16), photometric="rgb", compression="zlib")
    with tifffile.TiffFile(path) as tiff:
        start = tiff.pages[0].dataoffsets[0]
    data = bytearray(path.read_bytes())
    data[start : start + 40] = bytes(40)  # the deflate stream's start, which then cannot decode
    path.write_bytes(bytes(data))
    with pytest.raises(PhotoError) as caught:
        load_photo(path, color=True)
    assert str(caught.value).startswith(f"{path}: the file is damaged or not a valid image (")


def test_a_16_bit_rgb_tiff_with_an_unspecified_fourth_sample_is_not_made_transparent(tmp_path):
    import tifffile

    values = np.zeros((4, 5, 4), np.uint16)
    values[..., 0] = 30000
    values[..., 3] = 0  # "unspecified" (RGBX): not alpha, so not white
    path = tmp_path / "rgbx.tif"
    tifffile.imwrite(path, values, photometric="rgb", extrasamples=["unspecified"])
    photo = load_photo(path, color=True)
    np.testing.assert_array_equal(photo.pixels[0, 0], np.float32([30000 / 65535, 0, 0]))
    assert photo.bit_depth == 16
