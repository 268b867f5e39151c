"""`blurapp compare`, `blur` and `batch` on the photos phones and cameras save: HEIC, AVIF and
camera RAW are photos, blurred as an independent reader shows them."""

import numpy as np
import pytest
from helpers.command_line import blurapp_in_process
from helpers.oracle import blur_oracle
from helpers.phone_photos import (
    LUMA,
    avif_file,
    display_p3_profile,
    heic_file,
    saturated_pattern,
    shown_colours,
    shown_grey,
)
from helpers.raw_files import developed_by_rawpy, dng_file, random_mosaic
from PIL import Image

from blurapp.core import gaussian_kernel

LEVEL = 1 / 255


def blocks(height, width, seed=0):
    """Blocks of one colour, 4 pixels a side: what a photo codec keeps close."""
    rng = np.random.default_rng(seed)
    small = rng.integers(0, 256, (height // 4, width // 4, 3), dtype=np.uint8)
    return small.repeat(4, axis=0).repeat(4, axis=1)


@pytest.fixture(params=["heic", "avif"])
def phone_photo(request, tmp_path):
    write = heic_file if request.param == "heic" else avif_file
    return write(tmp_path / f"IMG_0001.{request.param}", blocks(40, 60), orientation=6)


def test_compare_of_a_phone_photo_prints_a_photos_figures(phone_photo):
    run = blurapp_in_process("compare", phone_photo, "--engines", "numpy", "--repeat", "3")
    assert run.returncode == 0, run.stderr
    assert "frames/s" not in run.stdout and "clip" not in run.stdout
    image_line = next(line for line in run.stdout.splitlines() if line.startswith("image"))
    assert "40 × 60" in image_line  # upright: width 40, height 60


def test_blur_of_a_phone_photo_writes_a_png_equal_to_the_reference(phone_photo, tmp_path):
    out = tmp_path / "y.png"
    run = blurapp_in_process("blur", phone_photo, "-o", out)
    assert run.returncode == 0, run.stderr
    expected = blur_oracle(shown_grey(phone_photo), gaussian_kernel(9, 2.5))
    with Image.open(out) as written:
        assert written.format == "PNG" and written.size == (40, 60)
        np.testing.assert_allclose(np.asarray(written) / 255, expected, atol=LEVEL + 1e-9)


def test_blur_in_colour_of_a_p3_heic_keeps_the_colours_a_viewer_shows(tmp_path):
    path = heic_file(tmp_path / "p3.heic", blocks(32, 48), icc_profile=display_p3_profile())
    out = tmp_path / "y.png"
    run = blurapp_in_process("blur", path, "--color", "-o", out, "--kernel-size", "5")
    assert run.returncode == 0, run.stderr
    expected = blur_oracle(shown_colours(path), gaussian_kernel(5, 2.5))
    with Image.open(out) as written:
        np.testing.assert_allclose(np.asarray(written) / 255, expected, atol=LEVEL + 1e-9)


@pytest.mark.extra("scale")
def test_a_folder_of_phone_photos_is_batched_with_nothing_lost(tmp_path):
    folder = tmp_path / "DCIM"
    folder.mkdir()
    p3 = display_p3_profile()
    for index in range(20):
        pixels = saturated_pattern(24, 32, seed=index)
        kind = index % 4
        if kind == 0:
            heic_file(folder / f"IMG_{index:04}.HEIC", pixels, icc_profile=p3)
        elif kind == 1:
            avif_file(folder / f"IMG_{index:04}.avif", pixels)
        elif kind == 2:
            Image.fromarray(pixels).save(folder / f"IMG_{index:04}.jpg", icc_profile=p3)
        else:
            Image.fromarray(pixels).save(folder / f"IMG_{index:04}.png")
    out = tmp_path / "out"
    run = blurapp_in_process("batch", folder, "--out-dir", out, "--format", "npy")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "20 blurred" in run.stdout and "0 failed" in run.stdout
    kernel = gaussian_kernel(9, 2.5)
    for source in sorted(folder.iterdir()):
        blurred = np.load(out / "DCIM" / f"{source.stem}.npy")
        np.testing.assert_allclose(
            blurred, blur_oracle(shown_grey(source), kernel), atol=LEVEL, err_msg=source.name
        )


@pytest.mark.extra("raw")
def test_blur_of_a_dng_writes_a_16_bit_png_equal_to_the_reference(tmp_path):
    path = dng_file(tmp_path / "DSC_0001.DNG", random_mosaic())
    out = tmp_path / "y.png"
    run = blurapp_in_process("blur", path, "-o", out)
    assert run.returncode == 0, run.stderr
    expected = blur_oracle(developed_by_rawpy(path) @ LUMA, gaussian_kernel(9, 2.5))
    with Image.open(out) as written:
        assert written.mode.startswith("I;16") and written.size == (64, 48)
        np.testing.assert_allclose(np.asarray(written) / 65535, expected, atol=LEVEL)


@pytest.mark.extra("raw")
def test_compare_of_a_dng_prints_a_photos_figures(tmp_path):
    path = dng_file(tmp_path / "DSC_0002.dng", random_mosaic())
    run = blurapp_in_process("compare", path, "--engines", "numpy", "--repeat", "3")
    assert run.returncode == 0, run.stderr
    assert "frames/s" not in run.stdout and "64 × 48" in run.stdout


@pytest.mark.extra("raw")
@pytest.mark.extra("scale")
def test_a_card_of_raw_files_is_batched(tmp_path):
    card = tmp_path / "DCIM"
    card.mkdir()
    for index in range(3):
        dng_file(card / f"DSC_{index:04}.DNG", random_mosaic(seed=index))
    out = tmp_path / "out"
    run = blurapp_in_process("batch", card, "--out-dir", out, "--color", "--format", "npy")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 blurred" in run.stdout
    for index in range(3):
        source = card / f"DSC_{index:04}.DNG"
        expected = blur_oracle(developed_by_rawpy(source), gaussian_kernel(9, 2.5))
        np.testing.assert_allclose(
            np.load(out / "DCIM" / f"{source.stem}.npy"), expected, atol=1e-5
        )


@pytest.mark.extra("raw")
@pytest.mark.extra("scale")
def test_a_card_shot_raw_and_jpeg_is_batched_whole(tmp_path):
    card = tmp_path / "DCIM"
    card.mkdir()
    raw = dng_file(card / "IMG_0001.DNG", random_mosaic(seed=1))
    jpeg = card / "IMG_0001.JPG"
    Image.fromarray(blocks(48, 64)).save(jpeg, quality=95)
    alone = card / "IMG_0002.JPG"
    Image.fromarray(blocks(48, 64, seed=2)).save(alone, quality=95)
    out = tmp_path / "out"
    run = blurapp_in_process("batch", card, "--out-dir", out)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 blurred" in run.stdout and "0 failed" in run.stdout
    assert "2 named apart by their extensions" in run.stdout
    assert "IMG_0001.DNG → IMG_0001-dng.png" in run.stdout
    assert sorted(path.name for path in (out / "DCIM").iterdir()) == [
        "IMG_0001-dng.png",
        "IMG_0001-jpg.png",
        "IMG_0002.png",
    ]
    # Each its own photo's blur, within the rounding of its depth (its grey's, then the output's).
    kernel = gaussian_kernel(9, 2.5)
    for name, source_grey, white in [
        ("IMG_0001-dng.png", developed_by_rawpy(raw) @ LUMA, 65535),
        ("IMG_0001-jpg.png", shown_grey(jpeg), 255),
        ("IMG_0002.png", shown_grey(alone), 255),
    ]:
        with Image.open(out / "DCIM" / name) as written:
            blurred = np.asarray(written).astype(np.float64) / white
        expected = blur_oracle(source_grey, kernel)
        np.testing.assert_allclose(blurred, expected, atol=1 / white + 1e-6, err_msg=name)

    written = {path: path.stat().st_mtime_ns for path in (out / "DCIM").iterdir()}
    again = blurapp_in_process("batch", card, "--out-dir", out)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "0 blurred" in again.stdout and "3 already done" in again.stdout
    assert {path: path.stat().st_mtime_ns for path in (out / "DCIM").iterdir()} == written
