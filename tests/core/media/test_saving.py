"""Writing results: the right bytes in the right format, and never a damaged file."""

import numpy as np
import pytest
from PIL import Image

from blurapp.core import OutputError, save_output, write_atomically


def gradient():
    return np.linspace(0, 1, 48, dtype=np.float32).reshape(6, 8)


def test_npy_keeps_the_float32_array_exactly(tmp_path):
    image = gradient() / 3
    save_output(tmp_path / "out.npy", image)
    loaded = np.load(tmp_path / "out.npy")
    assert loaded.dtype == np.float32
    np.testing.assert_array_equal(loaded, image)


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".tif", ".bmp", ".webp"])
def test_image_extensions_give_8_bit_grayscale(tmp_path, suffix):
    save_output(tmp_path / f"out{suffix}", gradient())
    with Image.open(tmp_path / f"out{suffix}") as written:
        assert written.size == (8, 6)
        # WebP has no grayscale mode: it stores three equal channels.
        assert written.mode == ("RGB" if suffix == ".webp" else "L")
        pixels = np.asarray(written.convert("L"))
    expected = np.rint(gradient() * 255)
    tolerance = 0 if suffix in {".png", ".tif", ".bmp"} else 8  # JPEG and WebP are lossy
    assert np.abs(pixels.astype(int) - expected).max() <= tolerance


@pytest.mark.parametrize("suffix", [".png", ".tif"])
def test_sixteen_bit_sources_give_16_bit_png_and_tiff(tmp_path, suffix):
    image = gradient()
    save_output(tmp_path / f"out{suffix}", image, bit_depth=16)
    with Image.open(tmp_path / f"out{suffix}") as written:
        assert written.mode.startswith("I")
        pixels = np.asarray(written)
    np.testing.assert_array_equal(pixels, np.rint(image * 65535))


def test_unknown_extension_is_refused_and_nothing_is_written(tmp_path):
    with pytest.raises(OutputError, match=r"out\.xyz.*unknown output format"):
        save_output(tmp_path / "out.xyz", gradient())
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_leaves_the_old_file_whole_and_no_temporary(tmp_path):
    target = tmp_path / "result.png"
    target.write_bytes(b"the user's precious file")

    def fails_midway(file):
        file.write(b"half of a new fi")
        raise OSError(28, "No space left on device")

    with pytest.raises(OutputError, match="No space left on device"):
        write_atomically(target, fails_midway)
    assert target.read_bytes() == b"the user's precious file"
    assert [p.name for p in tmp_path.iterdir()] == ["result.png"]


def test_a_read_only_folder_gives_a_clear_error(tmp_path, monkeypatch):
    # Tests run as root in CI, where chmod cannot make a folder read-only: the refusal the
    # operating system would give is simulated at the point the temporary file is made.
    import blurapp.core.media.saving as saving

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(saving.tempfile, "mkstemp", refuse)
    target = tmp_path / "out.png"
    with pytest.raises(OutputError, match=r"out\.png: cannot write in .*Permission denied"):
        save_output(target, gradient())
    assert not target.exists()


def test_a_missing_folder_gives_a_clear_error(tmp_path):
    with pytest.raises(OutputError, match="does not exist"):
        save_output(tmp_path / "no" / "such" / "out.png", gradient())


def test_overwriting_keeps_the_files_permissions(tmp_path):
    target = tmp_path / "shared.npy"
    target.write_bytes(b"old")
    target.chmod(0o640)
    save_output(target, gradient())
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["shared.npy"]


def test_a_save_sweeps_temporary_files_a_killed_process_left(tmp_path):
    import os
    import time

    left = tmp_path / ".blurapp-k1ll3d00.part"
    left_by_an_earlier_version = tmp_path / ".out.png.x7d2k9aa.part"
    two_days_ago = time.time() - 2 * 24 * 3600
    for leftover in (left, left_by_an_earlier_version):
        leftover.write_bytes(b"left by a process killed mid-save")
        os.utime(leftover, (two_days_ago, two_days_ago))
    running = tmp_path / ".blurapp-st1llgo0.part"  # another save, still under way
    running.write_bytes(b"being written now")
    save_output(tmp_path / "out.png", gradient())
    assert not left.exists() and not left_by_an_earlier_version.exists()
    assert running.exists()
    assert (tmp_path / "out.png").is_file()
