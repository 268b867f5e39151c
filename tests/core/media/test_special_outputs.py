"""An output that exists and is not a regular file (a FIFO, a device) is refused, never replaced
and never written into."""

import os
import stat

import numpy as np
import pytest

from blurapp.cli import main
from blurapp.core.media.saving import OutputError, save_output, write_atomically


def _fifo(tmp_path, name):
    path = tmp_path / name
    os.mkfifo(path)
    return path


def _device(tmp_path, name):
    """A character device like /dev/null (1, 3), made where the tests run as root (CI does)."""
    if os.geteuid() != 0:
        pytest.skip("making a device file needs root")
    path = tmp_path / name
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    return path


@pytest.mark.parametrize("make", [_fifo, _device])
def test_writing_over_a_fifo_or_a_device_is_refused_and_it_stays(tmp_path, make):
    path = make(tmp_path, "out.png")
    kind = os.stat(path).st_mode
    with pytest.raises(OutputError) as raised:
        save_output(path, np.zeros((4, 5), np.float32))
    assert str(path) in str(raised.value) and "not a regular file" in str(raised.value)
    with pytest.raises(OutputError):
        write_atomically(path, lambda file: file.write(b"x"))
    assert os.stat(path).st_mode == kind
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.png"]  # no temporary left


@pytest.mark.parametrize("make", [_fifo, _device])
def test_blur_and_bench_refuse_such_an_output_with_an_error_line(tmp_path, capsys, make):
    photo = tmp_path / "photo.png"
    from PIL import Image

    Image.fromarray(np.full((12, 16), 128, np.uint8)).save(photo)
    output = make(tmp_path, "pipe.png")
    kind = os.stat(output).st_mode
    assert main(["blur", str(photo), "-o", str(output), "--engine", "numpy"]) != 0
    error = capsys.readouterr().err
    assert str(output) in error and "not a regular file" in error and "Traceback" not in error
    csv = make(tmp_path, "sweep.csv")
    assert main(["bench", "--sweep", "--csv", str(csv), "--engines", "numpy",
                 "--max-megapixels", "0.01", "--kernel-sizes", "3"]) != 0  # fmt: skip
    error = capsys.readouterr().err
    assert str(csv) in error and "not a regular file" in error and "Traceback" not in error
    assert os.stat(output).st_mode == kind and os.stat(csv).st_mode == kind


def test_dev_null_or_a_fifo_without_an_extension_is_refused_as_what_it_is(tmp_path):
    from helpers.clip_files import random_levels, video_file
    from helpers.command_line import blurapp_in_process
    from PIL import Image

    photo = tmp_path / "photo.png"
    Image.fromarray(np.full((12, 16), 128, np.uint8)).save(photo)
    clip = video_file(tmp_path / "clip.mkv", random_levels(2))
    fifo = _fifo(tmp_path, "pipe")
    for output in ("/dev/null", fifo):
        for source in (photo, clip):
            run = blurapp_in_process("blur", source, "-o", output)
            assert run.returncode == 1
            assert run.stderr == (
                f"error: {output}: this is not a regular file (a pipe, a device or a socket); "
                "give the name of a file to write\n"
            )
