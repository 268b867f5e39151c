"""Damaged and hostile files from every format the loader reads: each ends in a photo or the
one clean error, in bounded time, through the loader (the command line's and the window's tests
of the same files are in tests/cli/ and tests/ui/)."""

import io
import mmap
import subprocess
import sys
import time

import numpy as np
import pytest
from helpers.hostile import FORMATS, HOSTILE, mappable_tiff
from PIL import Image

from blurapp.core import PhotoError, load_grayscale

TIME_LIMIT_S = 10


def test_there_is_damage_of_every_kind_for_every_format():
    for fmt in FORMATS:
        names = [name for name, _ in HOSTILE if name.startswith(f"{fmt}-")]
        assert len(names) == 12, fmt
    # And the damage is real: most of them cannot be read.
    refused = 0
    for _, data in HOSTILE:
        try:
            Image.open(io.BytesIO(data)).load()
        except Exception:
            refused += 1
    assert refused > len(HOSTILE) / 2


@pytest.mark.parametrize("name", [name for name, _ in HOSTILE])
def test_the_loader_gives_a_photo_or_the_one_error_in_bounded_time(hostile_folder, name):
    path = hostile_folder / name
    start = time.monotonic()
    try:
        gray = load_grayscale(path)
    except PhotoError as error:
        assert str(path) in str(error)
    else:
        assert gray.ndim == 2 and gray.dtype == np.float32 and np.isfinite(gray).all()
    assert time.monotonic() - start < TIME_LIMIT_S


def test_absurd_declared_sizes_are_refused_with_the_reason(hostile_folder):
    for fmt in ["PNG", "BMP", "GIF", "JPEG", "TIFF"]:
        suffix = {"JPEG": "jpg", "TIFF": "tif"}.get(fmt, fmt.lower())
        path = hostile_folder / f"{fmt}-absurd-size.{suffix}"
        with pytest.raises(PhotoError) as caught:
            load_grayscale(path)
        assert str(path) in str(caught.value)


def test_photos_are_read_without_memory_mapping_them(tmp_path, monkeypatch):
    data, pixels = mappable_tiff()
    path = tmp_path / "plain.tif"
    path.write_bytes(data)
    mapped = []
    real_mmap = mmap.mmap
    monkeypatch.setattr(
        mmap, "mmap", lambda *args, **kw: mapped.append(args) or real_mmap(*args, **kw)
    )
    with Image.open(path) as image:
        image.load()
    assert mapped, "Pillow no longer maps this file when given its name; the test proves nothing"
    mapped.clear()
    np.testing.assert_allclose(load_grayscale(path), pixels / 255, rtol=0, atol=1e-7)
    assert mapped == []


# Another program cuts the photo short just as Pillow is about to read its pixels: Pillow calls
# load_prepare after it has chosen to map or to read the file, and before it touches a pixel.
CUT_SHORT_WHILE_LOADING = """
import sys
from pathlib import Path
from PIL import TiffImagePlugin
from blurapp.core import PhotoError, load_grayscale

path = Path(sys.argv[1])
prepare = TiffImagePlugin.TiffImageFile.load_prepare

def cut_short_then_prepare(image):
    with open(path, "r+b") as file:
        file.truncate(path.stat().st_size // 4)
    prepare(image)

TiffImagePlugin.TiffImageFile.load_prepare = cut_short_then_prepare
try:
    load_grayscale(path)
except PhotoError as error:
    print(error)
"""


def test_a_photo_cut_short_while_it_loads_gives_the_error_not_a_crash(tmp_path):
    path = tmp_path / "plain.tif"
    path.write_bytes(mappable_tiff()[0])
    run = subprocess.run(
        [sys.executable, "-c", CUT_SHORT_WHILE_LOADING, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, f"the process ended with status {run.returncode}: {run.stderr}"
    assert run.stdout.strip() == f"{path}: the file is truncated (it ends before the image does)"
