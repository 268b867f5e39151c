"""`--color` on the command line: compare, blur and bench in colour, as a user runs them."""

import json

import numpy as np
import pytest
from helpers.command_line import blurapp_in_process
from helpers.oracle import blur_oracle
from PIL import Image

from blurapp.core import gaussian_kernel, gaussian_kernel_1d, sample_photo_path


def rgb_of(path):
    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"), dtype=np.float64) / 255


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["2d", "separable"])
def test_compare_color_blurs_each_channel_of_the_bundled_photo(tmp_path, algorithm):
    run = blurapp_in_process(
        "compare", "--color", "--json", "--algorithm", algorithm, "--out-dir", tmp_path / "out"
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["image"]["channels"] == 3
    assert (report["image"]["width"], report["image"]["height"]) == (600, 400)
    assert report["max_abs_diff"] <= 1e-5
    expected = blur_oracle(rgb_of(sample_photo_path()), gaussian_kernel(9, 2.5))
    for engine in ("numpy", "jax"):
        output = np.load(tmp_path / "out" / f"{engine}.npy")
        assert output.shape == (400, 600, 3) and output.dtype == np.float32
        np.testing.assert_allclose(output, expected, atol=1e-5, rtol=0)
    with Image.open(tmp_path / "out" / "jax.png") as picture:
        assert picture.mode == "RGB" and picture.size == (600, 400)


def test_compare_without_color_stays_grey():
    run = blurapp_in_process("compare", "--json", "--engines", "numpy")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["image"]["channels"] == 1


def test_a_colour_photo_blurred_or_compared_in_grey_says_how_to_keep_the_colour(tmp_path):
    source = tmp_path / "street.png"
    Image.fromarray(np.random.default_rng(4).integers(0, 256, (12, 16, 3), np.uint8)).save(source)
    keep = "in grey (--color keeps the colour)"
    run = blurapp_in_process("blur", source, "-o", tmp_path / "out.png")
    assert run.returncode == 0, run.stderr
    assert run.stdout == f"wrote {tmp_path / 'out.png'} {keep}\n"
    compared = blurapp_in_process("compare", source, "--engines", "numpy", "--repeat", "1")
    assert compared.returncode == 0, compared.stderr
    assert keep in compared.stdout.splitlines()[0]  # the "image" row
    in_colour = blurapp_in_process("blur", source, "-o", tmp_path / "c.png", "--color")
    grey = tmp_path / "grey.png"
    Image.fromarray(np.zeros((12, 16), np.uint8)).save(grey)
    of_grey = blurapp_in_process("blur", grey, "-o", tmp_path / "g.png")
    for quiet in (in_colour, of_grey):
        assert quiet.returncode == 0, quiet.stderr
        assert "in grey" not in quiet.stdout


@pytest.mark.slow
def test_compare_color_table_says_colour():
    run = blurapp_in_process("compare", "--color")
    assert run.returncode == 0, run.stderr
    assert "colour (R, G, B)" in run.stdout
    assert "the largest over the 3 channels" in run.stdout


@pytest.mark.parametrize("engine", ["numpy", "jax", "jax-eager"])
def test_blur_color_writes_each_channel(tmp_path, engine):
    source = tmp_path / "street.png"
    rgb = np.random.default_rng(4).integers(0, 256, (37, 52, 3), dtype=np.uint8)
    Image.fromarray(rgb).save(source)
    out = tmp_path / "blurred.npy"
    run = blurapp_in_process(
        "blur", source, "-o", out, "--color", "--engine", engine, "--algorithm", "separable"
    )
    assert run.returncode == 0, run.stderr
    kernel = np.outer(gaussian_kernel_1d(9, 2.5), gaussian_kernel_1d(9, 2.5))
    np.testing.assert_allclose(np.load(out), blur_oracle(rgb / 255.0, kernel), atol=1e-5, rtol=0)


def test_blur_color_png_is_rgb(tmp_path):
    out = tmp_path / "coffee.png"
    run = blurapp_in_process("blur", "--color", "-o", out)
    assert run.returncode == 0, run.stderr
    expected = blur_oracle(rgb_of(sample_photo_path()), gaussian_kernel(9, 2.5))
    with Image.open(out) as picture:
        assert picture.mode == "RGB"
        np.testing.assert_allclose(np.asarray(picture), expected * 255, atol=0.5 + 1e-3)


@pytest.mark.slow
def test_bench_color_times_three_channel_images():
    run = blurapp_in_process(
        "bench", "--color", "--json", "--sections", "engines", "--megapixels", "0.01",
        "--kernel-sizes", "3", "--engines", "numpy,jax",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    rows = json.loads(run.stdout)["results"]
    assert rows and all(row["channels"] == 3 for row in rows)
    assert all(round(row["megapixels"], 2) == 0.01 for row in rows)
    assert all(row["max_abs_diff"] <= 1e-5 for row in rows)
