"""HEIC and AVIF photos as a phone saves them, read as photos: whole, upright, 10-bit kept, and
never taken for a video; a real video and an image sequence still are clips."""

import sys

import av
import numpy as np
import pytest
from helpers.phone_photos import avif_file, heic_file, shown_colours, shown_grey
from PIL import Image

import blurapp.core.media.containers as containers
from blurapp.core import PhotoError, load_photo
from blurapp.core.media.clip_files import is_clip
from blurapp.core.media.containers import iso_bmff_kind_of

LEVEL = 1 / 255


def random_pixels(height=40, width=56, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)


@pytest.mark.parametrize("write", [heic_file, avif_file], ids=["heic", "avif"])
def test_a_phone_photo_is_a_photo_read_as_a_viewer_reads_it(tmp_path, write):
    path = write(tmp_path / f"IMG_0001.{write.__name__[:4]}", random_pixels())
    assert not is_clip(path)
    assert iso_bmff_kind_of(path) in {"heif", "avif"}
    photo = load_photo(path, color=True)
    assert (photo.height, photo.width, photo.bit_depth) == (40, 56, 8)
    np.testing.assert_allclose(photo.pixels, shown_colours(path), atol=1e-6)
    # Its grey rounded to 8-bit levels, as an 8-bit photo's grey is: half a level at most.
    np.testing.assert_allclose(load_photo(path).pixels, shown_grey(path), atol=0.5 / 255 + 1e-5)


@pytest.mark.parametrize("write", [heic_file, avif_file], ids=["heic", "avif"])
def test_a_turned_phone_photo_is_read_upright(tmp_path, write):
    # Blocks of one colour, which a photo codec keeps close even where it rounds colours.
    pixels = random_pixels(3, 5).repeat(10, axis=0).repeat(10, axis=1)
    path = write(tmp_path / "turned", pixels, orientation=6)
    photo = load_photo(path, color=True)
    # A quarter turn clockwise: the stored 50 × 30 shows as 30 × 50.
    assert (photo.height, photo.width) == (50, 30)
    np.testing.assert_allclose(photo.pixels, shown_colours(path), atol=1e-6)
    # Near the stored pixels turned by hand (HEIC's lossless coding still rounds its colours).
    turned = np.rot90(pixels, k=-1) / 255
    assert np.abs(photo.pixels - turned).mean() < 0.03


def test_a_10_bit_heic_keeps_its_precision(tmp_path):
    import pillow_heif

    levels = np.random.default_rng(2).integers(0, 65536, (24, 32, 3), dtype=np.uint16)
    path = heic_file(tmp_path / "deep.heic", levels)
    photo = load_photo(path, color=True)
    assert photo.bit_depth == 16
    stored = np.asarray(pillow_heif.open_heif(path, convert_hdr_to_8bit=False)) >> 6
    # Within the rounding of 10-bit levels to 16-bit ones, far below a 10-bit level (1e-3).
    np.testing.assert_allclose(photo.pixels, stored / 1023, atol=1e-5)
    # Values only 10 bits hold: an 8-bit reading could not give them back.
    assert np.abs(photo.pixels * 255 - np.rint(photo.pixels * 255)).max() > 0.1


def test_a_heic_without_pillow_heif_is_one_line_naming_what_to_install(tmp_path, monkeypatch):
    path = heic_file(tmp_path / "IMG_0002.HEIC", random_pixels())
    monkeypatch.setattr(containers, "_registered", set())
    monkeypatch.setitem(sys.modules, "pillow_heif", None)  # as where it is not installed
    with pytest.raises(PhotoError) as caught:
        load_photo(path)
    assert str(caught.value) == (
        f"{path}: reading HEIC and HEIF photos needs pillow-heif, which is not installed: "
        "pip install pillow-heif"
    )


def test_pillow_heif_is_loaded_by_the_first_heic_not_before(tmp_path):
    import subprocess

    path = heic_file(tmp_path / "a.heic", random_pixels())
    code = (
        "import sys\nfrom blurapp.core import load_photo\n"
        f"load_photo({str(tmp_path / 'plain.png')!r})\n"
        "print('pillow_heif' in sys.modules, 'PIL.ImageCms' in sys.modules)\n"
        f"load_photo({str(path)!r})\nprint('pillow_heif' in sys.modules)"
    )
    Image.fromarray(random_pixels()).save(tmp_path / "plain.png")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "False", "True"]


def test_a_video_and_an_image_sequence_are_still_clips(tmp_path):
    video = tmp_path / "clip.mp4"
    with av.open(str(video), "w") as container:
        stream = container.add_stream("mpeg4", rate=5)
        stream.width, stream.height, stream.pix_fmt = 32, 24, "yuv420p"
        for index in range(3):
            frame = av.VideoFrame.from_ndarray(random_pixels(24, 32, index), format="rgb24")
            container.mux(stream.encode(frame))
        container.mux(stream.encode())
    assert iso_bmff_kind_of(video) == "video" and is_clip(video)
    # A HEIF sequence: the image brands, and a movie (moov) with its timing.
    ftyp = b"\x00\x00\x00\x18ftypmsf1\x00\x00\x00\x00mif1msf1"
    sequence = tmp_path / "burst.heics"
    sequence.write_bytes(ftyp + b"\x00\x00\x00\x08moov")
    assert iso_bmff_kind_of(sequence) == "video"


@pytest.mark.parametrize(
    "data",
    [
        b"\x00\x00\x00\x1cftypheic",  # cut short inside its ftyp
        b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic\xff\xff\xff\xffmeta",  # a box past the end
        b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic\x00\x00\x00\x01meta",  # a box too small
    ],
)
def test_a_damaged_heic_is_a_photo_error_not_a_clip(tmp_path, data):
    path = tmp_path / "damaged.heic"
    path.write_bytes(data)
    assert not is_clip(path)
    with pytest.raises(PhotoError) as caught:
        load_photo(path)
    assert str(caught.value).startswith(f"{path}: ")
