"""Writing colour results: RGB at 8 and 16 bits, descriptions kept, never a damaged file."""

import json

import imagecodecs
import numpy as np
import pytest
import tifffile
from PIL import Image

from blurapp.core import OutputError, save_output

DESCRIPTION = {"Software": "BlurApp test", "engine": "jax", "kernel size": "7", "sigma": "1.5"}


def colour_gradient(height=96, width=128):
    """Red rises left to right, green top to bottom, blue falls along the diagonal: a swapped
    or dropped channel shows at once."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    red = x / (width - 1)
    green = y / (height - 1)
    blue = 1 - (x + y) / (width + height - 2)
    fractions = np.stack([red, green, blue], axis=-1)
    # A quarter of a level above a 16-bit level: far from halfway between two levels at 16
    # bits and at 8, so which level a value rounds to never hangs on float32's last bit.
    return ((np.round(fractions * 65534) + 0.25) / 65535).astype(np.float32)


def levels(image, maximum):
    return np.round(image.astype(np.float64) * maximum)


def files_in(folder):
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("suffix", [".png", ".tif", ".bmp"])
def test_lossless_formats_keep_8_bit_rgb_exactly(tmp_path, suffix):
    image = colour_gradient()
    save_output(tmp_path / f"out{suffix}", image)
    with Image.open(tmp_path / f"out{suffix}") as written:
        assert written.mode == "RGB"
        assert written.size == (128, 96)
        pixels = np.asarray(written)
    np.testing.assert_array_equal(pixels, levels(image, 255))


@pytest.mark.parametrize(("suffix", "largest", "mean"), [(".jpg", 8, 2), (".webp", 16, 3)])
def test_lossy_formats_give_rgb_close_to_the_image(tmp_path, suffix, largest, mean):
    # Pillow's WebP is lossy by default, as for grayscale: its values are only close.
    image = colour_gradient()
    save_output(tmp_path / f"out{suffix}", image)
    with Image.open(tmp_path / f"out{suffix}") as written:
        assert written.mode == "RGB"
        assert written.size == (128, 96)
        error = np.abs(np.asarray(written).astype(int) - levels(image, 255))
    # A swapped pair of channels is off by about 70 levels on average.
    assert error.max() <= largest
    assert error.mean() <= mean


def test_16_bit_colour_png_keeps_every_level(tmp_path):
    image = colour_gradient()
    save_output(tmp_path / "out.png", image, bit_depth=16)
    pixels = imagecodecs.png_decode((tmp_path / "out.png").read_bytes())
    assert pixels.dtype == np.uint16
    assert pixels.shape == (96, 128, 3)
    np.testing.assert_array_equal(pixels, levels(image, 65535))


@pytest.mark.parametrize("suffix", [".tif", ".tiff"])
def test_16_bit_colour_tiff_keeps_every_level(tmp_path, suffix):
    image = colour_gradient()
    save_output(tmp_path / f"out{suffix}", image, bit_depth=16)
    with tifffile.TiffFile(tmp_path / f"out{suffix}") as tiff:
        page = tiff.pages[0]
        assert page.photometric == tifffile.PHOTOMETRIC.RGB
        pixels = page.asarray()
    assert pixels.dtype == np.uint16
    assert pixels.shape == (96, 128, 3)
    np.testing.assert_array_equal(pixels, levels(image, 65535))
    np.testing.assert_array_equal(tifffile.imread(tmp_path / f"out{suffix}"), pixels)


@pytest.mark.parametrize("suffix", [".jpg", ".bmp", ".webp"])
def test_16_bit_colour_falls_back_to_8_bit_where_the_format_has_no_16_bits(tmp_path, suffix):
    image = colour_gradient()
    save_output(tmp_path / f"out{suffix}", image, bit_depth=16)
    with Image.open(tmp_path / f"out{suffix}") as written:
        assert written.mode == "RGB"
        assert written.size == (128, 96)
        pixels = np.asarray(written)
    tolerance = 0 if suffix == ".bmp" else 16
    assert np.abs(pixels.astype(int) - levels(image, 255)).max() <= tolerance


@pytest.mark.parametrize("bit_depth", [8, 16])
def test_png_descriptions_read_back_as_text_chunks(tmp_path, bit_depth):
    description = {**DESCRIPTION, "note": "σ in µm, ünïcode"}
    save_output(
        tmp_path / "out.png", colour_gradient(), bit_depth=bit_depth, description=description
    )
    with Image.open(tmp_path / "out.png") as written:
        assert written.text == description
        written.load()  # Pillow checks each chunk's CRC as it reads
        assert written.mode == "RGB"
    pixels = imagecodecs.png_decode((tmp_path / "out.png").read_bytes())
    assert pixels.dtype == (np.uint16 if bit_depth == 16 else np.uint8)


@pytest.mark.parametrize("bit_depth", [8, 16])
def test_tiff_descriptions_read_back_as_json(tmp_path, bit_depth):
    save_output(
        tmp_path / "out.tif", colour_gradient(), bit_depth=bit_depth, description=DESCRIPTION
    )
    with tifffile.TiffFile(tmp_path / "out.tif") as tiff:
        page = tiff.pages[0]
        descriptions = [tag.value for tag in page.tags.values() if tag.code == 270]
        assert json.loads(page.description) == DESCRIPTION
    assert len(descriptions) == 1


def test_16_bit_tiff_keeps_text_beyond_ascii(tmp_path):
    description = {**DESCRIPTION, "note": "σ in µm"}
    save_output(tmp_path / "out.tif", colour_gradient(), bit_depth=16, description=description)
    with tifffile.TiffFile(tmp_path / "out.tif") as tiff:
        assert json.loads(tiff.pages[0].description) == description


def test_npy_keeps_the_colour_float32_array_exactly(tmp_path):
    image = colour_gradient() / 3
    save_output(tmp_path / "out.npy", image)
    loaded = np.load(tmp_path / "out.npy")
    assert loaded.dtype == np.float32
    assert loaded.shape == (96, 128, 3)
    np.testing.assert_array_equal(loaded, image)


@pytest.mark.parametrize(
    ("suffix", "bit_depth", "mode"),
    [(".png", 8, "L"), (".tif", 8, "L"), (".png", 16, "I;16"), (".tif", 16, "I;16")],
)
def test_grayscale_is_still_written_as_grayscale(tmp_path, suffix, bit_depth, mode):
    image = colour_gradient()[..., 0]
    save_output(tmp_path / f"out{suffix}", image, bit_depth=bit_depth, description=DESCRIPTION)
    with Image.open(tmp_path / f"out{suffix}") as written:
        assert written.mode == mode
        pixels = np.asarray(written)
    np.testing.assert_array_equal(pixels, levels(image, 65535 if bit_depth == 16 else 255))


@pytest.mark.parametrize(("suffix", "bit_depth"), [(".png", 8), (".png", 16), (".tif", 16)])
def test_an_existing_file_is_replaced_whole(tmp_path, suffix, bit_depth):
    target = tmp_path / f"result{suffix}"
    target.write_bytes(b"an older result")
    image = colour_gradient()
    save_output(target, image, bit_depth=bit_depth)
    assert files_in(tmp_path) == [target.name]
    if suffix == ".png":
        pixels = imagecodecs.png_decode(target.read_bytes())
    else:
        pixels = tifffile.imread(target)
    np.testing.assert_array_equal(pixels, levels(image, 65535 if bit_depth == 16 else 255))


@pytest.mark.parametrize(
    ("suffix", "bit_depth", "encoder", "failure"),
    [
        (".png", 16, (imagecodecs, "png_encode"), imagecodecs.PngError("the encoder gave up")),
        (".tif", 16, (tifffile, "imwrite"), ValueError("the encoder gave up")),
        (".png", 8, (Image.Image, "save"), OSError("the encoder gave up")),
    ],
)
def test_an_encoder_failure_leaves_the_old_file_untouched(
    tmp_path, monkeypatch, suffix, bit_depth, encoder, failure
):
    def fail(*args, **kwargs):
        raise failure

    monkeypatch.setattr(*encoder, fail)
    target = tmp_path / f"result{suffix}"
    target.write_bytes(b"the user's precious file")
    with pytest.raises(OutputError, match=rf"result\{suffix}.*the encoder gave up"):
        save_output(target, colour_gradient(), bit_depth=bit_depth, description=DESCRIPTION)
    assert target.read_bytes() == b"the user's precious file"
    assert files_in(tmp_path) == [target.name]


@pytest.mark.parametrize("shape", [(6, 8, 4), (6, 8, 1), (6,), (2, 6, 8, 3)])
def test_an_image_neither_grayscale_nor_rgb_is_refused_and_nothing_is_written(tmp_path, shape):
    with pytest.raises(ValueError, match=r"H×W or H×W×3"):
        save_output(tmp_path / "out.png", np.zeros(shape, np.float32))
    assert files_in(tmp_path) == []
