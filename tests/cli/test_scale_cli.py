"""`blurapp batch` and `blurapp blur` by blocks: their output and exit status, a scheduler's
address refused at once, and in a process of its own on a terminal, tqdm's progress bar."""

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
import tifffile
from helpers.clip_files import random_levels, video_file
from helpers.command_line import blurapp, blurapp_in_process, run_on_a_terminal
from helpers.oracle import blur_oracle
from helpers.phone_photos import LUMA
from PIL import Image

from blurapp.core import gaussian_kernel


@pytest.fixture
def shoot(tmp_path):
    """A folder of two good photos (one in a subfolder) and two bad ones."""
    folder = tmp_path / "shoot"
    (folder / "day2").mkdir(parents=True)
    rng = np.random.default_rng(5)
    Image.fromarray(rng.integers(0, 256, (40, 60, 3), dtype=np.uint8)).save(folder / "a.png")
    Image.fromarray(rng.integers(0, 256, (30, 20), dtype=np.uint8)).save(folder / "day2/b.jpg")
    (folder / "day2" / "notes.png").write_text("not a photo")
    (folder / "empty.jpg").write_bytes(b"")
    return folder


@pytest.mark.extra("scale")
def test_batch_blurs_the_good_photos_and_lists_the_bad_ones(shoot, tmp_path):
    out = tmp_path / "out"
    run = blurapp_in_process("batch", shoot, "--out-dir", out, "--format", "npy")
    assert run.returncode == 1, run.stderr
    assert "2 blurred" in run.stdout and "2 failed" in run.stdout
    assert f"{shoot / 'day2' / 'notes.png'}: this is not an image file" in run.stdout
    assert f"{shoot / 'empty.jpg'}: the file is empty" in run.stdout
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.npy")) == [
        "shoot/a.npy",
        "shoot/day2/b.npy",
    ]
    for name in ("a.png", "day2/b.jpg"):
        alone = tmp_path / "alone.npy"
        assert blurapp_in_process("blur", shoot / name, "-o", alone).returncode == 0
        batch_output = np.load(out / "shoot" / name.replace(".png", ".npy").replace(".jpg", ".npy"))
        np.testing.assert_array_equal(batch_output, np.load(alone))
    with Image.open(shoot / "a.png") as photo:
        gray = np.asarray(photo.convert("L"), dtype=np.float64) / 255
    expected = blur_oracle(gray, gaussian_kernel(9, 2.5))
    np.testing.assert_allclose(np.load(out / "shoot" / "a.npy"), expected, atol=2e-3, rtol=0)


@pytest.mark.extra("scale")
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("color", [True, False], ids=["colour", "grey"])
def test_a_colour_tiff_of_floats_blurs_in_memory_as_by_blocks(tmp_path, dtype, color):
    floats = np.random.default_rng(6).random((30, 40, 3)).astype(dtype)
    source = tmp_path / "f.tif"
    tifffile.imwrite(source, floats, photometric="rgb")
    options = ["--color"] if color else []
    whole = blurapp_in_process("blur", source, "-o", tmp_path / "a.npy", *options)
    assert whole.returncode == 0, whole.stderr
    assert ("in grey (--color keeps the colour)" in whole.stdout) == (not color)
    by_blocks = blurapp_in_process("blur", source, "-o", tmp_path / "b.npy", "--tiles", *options)
    assert by_blocks.returncode == 0, by_blocks.stderr
    in_memory = np.load(tmp_path / "a.npy")
    np.testing.assert_allclose(in_memory, np.load(tmp_path / "b.npy"), rtol=0, atol=1e-6)
    shown = floats.astype(np.float64)
    expected = blur_oracle(shown if color else shown @ LUMA, gaussian_kernel(9, 2.5))
    np.testing.assert_allclose(in_memory, expected, rtol=0, atol=1e-5)


@pytest.mark.extra("scale")
def test_a_second_batch_does_only_what_is_left(shoot, tmp_path):
    out = tmp_path / "out"
    blurapp_in_process("batch", shoot, "--out-dir", out)
    (out / "shoot" / "a.png").unlink()
    run = blurapp_in_process("batch", shoot, "--out-dir", out, "--json")
    summary = json.loads(run.stdout)
    assert (summary["done"], summary["skipped"], len(summary["failed"])) == (1, 1, 2)
    assert (out / "shoot" / "a.png").exists()
    again = json.loads(
        blurapp_in_process("batch", shoot, "--out-dir", out, "--json", "--overwrite").stdout
    )
    assert (again["done"], again["skipped"]) == (2, 0)
    assert again["photos_per_second"] > 0 and again["megapixels_per_second"] > 0


@pytest.mark.extra("scale")
def test_batch_in_colour_writes_rgb(shoot, tmp_path):
    out = tmp_path / "out"
    blurapp_in_process("batch", shoot / "a.png", "--out-dir", out, "--color", "--engine", "jax")
    with Image.open(out / "a.png") as written:
        assert written.mode == "RGB" and written.size == (60, 40)


@pytest.mark.extra("scale")
def test_batch_of_only_good_photos_exits_0_and_a_bad_option_2(shoot, tmp_path):
    run = blurapp_in_process("batch", shoot / "a.png", "--out-dir", tmp_path / "out")
    assert run.returncode == 0, run.stderr
    assert (
        blurapp_in_process("batch", shoot, "--out-dir", tmp_path, "--workers", "0").returncode == 2
    )
    assert (
        blurapp_in_process("batch", shoot, "--out-dir", tmp_path, "--format", "gif").returncode == 2
    )


@pytest.mark.extra("scale")
def test_batch_shows_a_progress_bar_on_a_terminal(shoot, tmp_path):
    status, shown = run_on_a_terminal("batch", shoot, "--out-dir", tmp_path / "out")
    assert status == 1
    assert "4/4" in shown and "photo/s" in shown and "MP/s" in shown


@pytest.mark.extra("scale")
def test_a_batch_with_a_clip_shows_its_frames_on_a_second_bar(shoot, tmp_path):
    video_file(shoot / "clip.mkv", random_levels(6), rate=25)
    status, shown = run_on_a_terminal("batch", shoot, "--out-dir", tmp_path / "out")
    assert status == 1  # the bad photos
    assert "5/5" in shown and "file/s" in shown  # photos and the clip
    # The clip's own bar, its frames counted (cleared once the clip is written).
    assert "clip.mkv: " in shown and "/6 [" in shown and "frame/s" in shown
    assert (tmp_path / "out" / "shoot" / "clip.mkv").exists()


@pytest.mark.extra("scale")
def test_blur_by_blocks_writes_a_tiled_bigtiff_with_a_progress_bar(tmp_path):
    levels = np.random.default_rng(9).integers(0, 256, (700, 900), dtype=np.uint8)
    source = tmp_path / "scan.tif"
    tifffile.imwrite(source, levels, tile=(256, 256))
    out = tmp_path / "scan-blurred.tif"
    status, shown = run_on_a_terminal("blur", source, "-o", out, "--tiles")
    assert status == 0, shown
    assert "block" in shown and "MP/s" in shown  # the bar's rate of pixels blurred
    with tifffile.TiffFile(out) as written:
        assert written.is_bigtiff and written.pages[0].is_tiled
        blurred = written.asarray()
    expected = blur_oracle(levels / 255.0, gaussian_kernel(9, 2.5)) * 255
    assert np.abs(blurred - expected).max() <= 0.5 + 1e-3


@pytest.mark.extra("scale")
def test_blur_by_blocks_refuses_an_output_it_cannot_write_before_the_work(tmp_path):
    source = tmp_path / "scan.tif"
    tifffile.imwrite(source, np.zeros((64, 64), np.uint8), tile=(32, 32))
    run = blurapp_in_process("blur", source, "-o", tmp_path / "scan.png", "--tiles")
    assert run.returncode == 1
    assert run.stderr.startswith(f"error: {tmp_path / 'scan.png'}: ")
    assert "Traceback" not in run.stderr


@pytest.mark.extra("scale")
def test_blur_by_blocks_runs_jax_on_the_device_asked_for(tmp_path):
    source = tmp_path / "scan.tif"
    tifffile.imwrite(source, np.zeros((64, 64), np.uint8), tile=(32, 32))
    run = blurapp_in_process("blur", source, "-o", tmp_path / "out.tif", "--tiles", "--engine", "jax",
                  "--device", "gpu")  # fmt: skip
    assert "Traceback" not in run.stderr
    from blurapp.core.engines.jax_runtime import jax_platforms

    there = jax_platforms()
    if "gpu" in there:
        assert run.returncode == 0, run.stderr
    else:  # the device is not ignored: asked for and missing, it is an error line
        assert run.returncode == 1
        # The last line: a CUDA-less jaxlib on a machine with a driver warns before it.
        missing = f"error: JAX has no gpu device here (it has: {', '.join(there)})"
        assert run.stderr.splitlines()[-1] == missing


@pytest.mark.extra("scale")
def test_a_batch_that_finds_no_photos_says_so(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("not a photo")
    run = blurapp_in_process("batch", tmp_path / "empty", "--out-dir", tmp_path / "out")
    assert run.returncode == 1
    assert (
        run.stderr
        == f"error: {tmp_path / 'empty'}: no photos or clips found (the types Pillow reads, zarr, videos)\n"
    )


def _in_process_within(seconds, *args):
    """`blurapp ARGS…` in this process (main installs signal handlers, so on this thread),
    which must end within `seconds`: a stall is a failure, not a hang."""

    def stalled(signum, frame):
        pytest.fail(f"blurapp {' '.join(map(str, args))} ran past {seconds} s")

    previous = signal.signal(signal.SIGALRM, stalled)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return blurapp_in_process(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL if previous is None else previous)


NOT_ADDRESSES = [
    "garbage",
    "foo://x",
    "inproc://x",
    "threads",
    "",
    "tls://127.0.0.1:1",
    "ucx://127.0.0.1:1",
]


@pytest.mark.extra("scale")
@pytest.mark.parametrize("address", NOT_ADDRESSES)
def test_batch_with_a_scheduler_that_is_no_address_says_so_at_once(shoot, tmp_path, address):
    run = _in_process_within(
        30, "batch", shoot, "--out-dir", tmp_path / "out", "--scheduler", address
    )
    assert run.returncode == 1
    assert run.stderr == (
        f"error: {address!r} is not the address of a Dask scheduler (tcp://HOST:PORT): "
        f"{run.stderr.split('(tcp://HOST:PORT): ', 1)[-1]}"
    )
    assert len(run.stderr.splitlines()) == 1, run.stderr


@pytest.mark.extra("scale")
@pytest.mark.parametrize("address", [name for name in NOT_ADDRESSES if name != "threads"])
def test_blur_with_a_scheduler_that_is_no_address_says_so_at_once(tmp_path, address):
    source = tmp_path / "scan.tif"
    tifffile.imwrite(source, np.zeros((64, 64), np.uint8), tile=(32, 32))
    run = _in_process_within(30, "blur", source, "-o", tmp_path / "out.tif", "--scheduler", address)
    assert run.returncode == 1
    assert run.stderr.startswith(f"error: {address!r} is not the address of a Dask scheduler")
    assert len(run.stderr.splitlines()) == 1, run.stderr
    assert not (tmp_path / "out.tif").exists()


@pytest.mark.extra("scale")
@pytest.mark.slow
@pytest.mark.parametrize("command", ["batch", "blur"])
def test_a_process_given_no_address_ends_at_once(shoot, tmp_path, command):
    # In a process of its own, its exit is timed too: a Dask Client that failed to start
    # takes a minute to give up while Python exits.
    source = tmp_path / "scan.tif"
    tifffile.imwrite(source, np.zeros((64, 64), np.uint8), tile=(32, 32))
    output = ["--out-dir", tmp_path / "out"] if command == "batch" else ["-o", tmp_path / "out.tif"]
    started = time.monotonic()
    run = blurapp(
        command,
        shoot if command == "batch" else source,
        *output,
        "--scheduler",
        "tls://127.0.0.1:1",
    )
    assert run.returncode == 1 and "is not the address of a Dask scheduler" in run.stderr
    assert time.monotonic() - started < 30


def test_blur_by_blocks_without_the_scale_extra_says_what_to_install(tmp_path):
    # Packages that cannot be imported stand for the extra not installed.
    missing = tmp_path / "without-scale"
    for name in ("dask", "distributed", "tqdm", "zarr"):
        (missing / name).mkdir(parents=True)
        (missing / name / "__init__.py").write_text(f"raise ImportError('no {name} here')\n")
    source = tmp_path / "scan.tif"
    tifffile.imwrite(source, np.zeros((64, 64), np.uint8), tile=(32, 32))
    environment = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(missing), *sys.path]),
        **{name: str(tmp_path / name) for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME",
                                                    "XDG_STATE_HOME")},
    )  # fmt: skip
    run = subprocess.run(
        [sys.executable, "-m", "blurapp", "blur", source, "-o", tmp_path / "out.tif", "--tiles"],
        capture_output=True,
        text=True,
        timeout=300,
        env=environment,
    )
    assert run.returncode == 1
    assert run.stderr.endswith(": pip install 'blurapp[scale]'\n")
    assert run.stderr.startswith("error: ") and len(run.stderr.splitlines()) == 1, run.stderr
    assert "_CommandFailed" not in run.stderr and "Error" not in run.stderr
    assert not (tmp_path / "out.tif").exists()


def test_a_batch_without_the_scale_extra_names_the_extra_and_all_it_lacks(
    shoot, tmp_path, monkeypatch
):
    # None in sys.modules: an import of it fails, as when it is not installed.
    for name in ("tqdm", "dask", "dask.array", "distributed"):
        monkeypatch.setitem(sys.modules, name, None)
    run = blurapp_in_process("batch", shoot, "--out-dir", tmp_path / "blurred")
    assert run.returncode == 1
    assert run.stderr == (
        "error: blurring a batch needs the scale extra, which is not installed (no dask): "
        "pip install 'blurapp[scale]'\n"
    )
    address = "tcp://127.0.0.1:1"
    on_a_cluster = blurapp_in_process(
        "batch", shoot, "--out-dir", tmp_path / "blurred", "--scheduler", address
    )
    assert on_a_cluster.stderr == (
        "error: blurring a batch needs the scale extra, which is not installed (no dask, "
        "distributed): pip install 'blurapp[scale]'\n"
    )
    assert not (tmp_path / "blurred").exists()


@pytest.mark.extra("scale")
def test_a_batch_without_tqdm_says_how_far_it_is_in_lines(shoot, tmp_path, monkeypatch):
    from blurapp.cli import progress

    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setattr(progress, "PLAIN_LINE_SECONDS", 0.0)
    run = blurapp_in_process("batch", shoot, "--out-dir", tmp_path / "blurred")
    assert run.returncode == 1  # the two bad photos
    assert "2 blurred" in run.stdout and "2 failed" in run.stdout
    assert "blurring: 4 of 4 photos (100 %)" in run.stderr


@pytest.mark.extra("scale")
@pytest.mark.parametrize("where", ["loop", "a-file/sub", "/proc/blurapp-no-such/sub", "proc"])
def test_an_output_folder_that_cannot_be_one_is_one_error_line(shoot, tmp_path, where):
    (tmp_path / "loop").symlink_to("loop")
    (tmp_path / "a-file").write_text("a file, not a folder")
    out = tmp_path / where if where != "proc" else "/proc/self/fd/0/sub"
    run = blurapp_in_process("batch", shoot, "--out-dir", out)
    assert run.returncode == 1
    assert run.stderr.startswith(f"error: {out}: "), run.stderr
    assert len(run.stderr.splitlines()) == 1, run.stderr
    assert run.stdout == ""
