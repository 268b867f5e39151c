"""Batches of photos: a folder tree in, the same tree of blurred outputs out, each output what
`blurapp blur` writes for that photo, and every bad file listed with its reason."""

import dataclasses
import hashlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

# The scale extra's (Dask): skipped, saying so, where it is not installed (the TPU machine).
pytest.importorskip("distributed", reason="needs the scale extra (Dask), not installed here")
from helpers.batch import BAD, GOOD, KERNEL, SPEC, write_photos
from helpers.oracle import blur_oracle
from PIL import Image

from blurapp.core.media.photo import load_photo
from blurapp.core.media.photo_checks import PhotoError
from blurapp.scale.batch_plan import PHOTO_SUFFIXES, BatchError, plan_batch
from blurapp.scale.batch_run import run_batch


@pytest.fixture
def photos(tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    write_photos(folder)
    return folder


def _hashes(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def _expected(source: Path) -> np.ndarray:
    pixels = load_photo(source).gray
    return blur_oracle(pixels, KERNEL)


def _reason_of(source: Path) -> str:
    with pytest.raises(PhotoError) as error:
        load_photo(source)
    return str(error.value)


def test_the_walk_takes_what_pillow_reads():
    assert {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".webp"} <= PHOTO_SUFFIXES
    assert ".txt" not in PHOTO_SUFFIXES and ".h5" not in PHOTO_SUFFIXES  # HDF5: a stub only


@pytest.mark.parametrize("engine", ["numpy", "jax"])
def test_a_folder_tree_is_blurred_into_the_same_tree(tmp_path, photos, engine):
    extra = tmp_path / "extra.png"
    Image.fromarray(np.full((12, 14), 200, np.uint8)).save(extra)
    readme = tmp_path / "readme.txt"
    readme.write_text("given by name, so it is tried, and fails\n")
    before = _hashes(tmp_path)
    out = tmp_path / "out"

    plan = plan_batch([photos, extra, readme], out, output_format="npy")
    assert [job.relative.as_posix() for job in plan.jobs] == [
        *(f"photos/{name}" for name in sorted([*GOOD, *BAD])),
        "extra.png",
        "readme.txt",
    ]
    progress = []
    summary = run_batch(plan, SPEC, engine=engine, progress=lambda *call: progress.append(call))

    for name in GOOD:
        output = out / "photos" / Path(name).with_suffix(".npy")
        blurred = np.load(output)
        assert blurred.dtype == np.float32
        np.testing.assert_allclose(blurred, _expected(photos / name), atol=1e-5, rtol=0)
    np.testing.assert_allclose(np.load(out / "extra.npy"), 200 / 255, atol=1e-5)
    failed = {failure.source: failure.reason for failure in summary.failed}
    assert set(failed) == {photos / name for name in BAD} | {readme}
    for source, reason in failed.items():
        assert reason == _reason_of(source)
        assert source.name in reason
    assert "truncated" in failed[photos / "broken/truncated.png"]
    assert "empty" in failed[photos / "broken/empty.jpg"]
    assert "not an image file" in failed[readme]
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == sorted(
        [*(f"photos/{Path(name).with_suffix('.npy').as_posix()}" for name in GOOD), "extra.npy"]
    )

    assert (summary.done, summary.skipped, len(summary.failed)) == (len(GOOD) + 1, 0, len(BAD) + 1)
    pixels = sum(load_photo(photos / name).gray.size for name in GOOD) + 12 * 14
    assert summary.megapixels == pytest.approx(pixels / 1e6)
    assert summary.photos_per_second == pytest.approx(summary.done / summary.seconds)
    report = summary.to_json()
    assert report["done"] == summary.done and len(report["failed"]) == len(BAD) + 1
    assert report["failed"][0].keys() == {"source", "reason"}
    # Progress after every photo, failures included, and the megapixels of those written.
    assert [call[:2] for call in progress] == [
        (n, len(plan.jobs)) for n in range(1, len(plan.jobs) + 1)
    ]
    assert progress[-1][2] == pytest.approx(summary.megapixels)
    assert {k: v for k, v in _hashes(tmp_path).items() if not k.startswith("out/")} == before


def test_each_output_is_what_blurapp_blur_writes(tmp_path, photos):
    out = tmp_path / "out"
    summary = run_batch(plan_batch([photos], out), SPEC)
    assert summary.done == len(GOOD)
    for name in ("a.png", "sub/deeper/c16.png"):  # 8-bit, and 16-bit kept 16-bit
        single = tmp_path / f"single-{Path(name).stem}.png"
        run = subprocess.run(
            [
                *(sys.executable, "-m", "blurapp", "blur", photos / name, "-o", single),
                *("--kernel-size", "5", "--sigma", "1.5", "--algorithm", "2d", "--engine", "numpy"),
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stderr
        with Image.open(single) as expected, Image.open(out / "photos" / name) as written:
            assert written.mode == expected.mode
            np.testing.assert_array_equal(np.asarray(written), np.asarray(expected))
            assert written.text == expected.text  # engine, kernel size, sigma, algorithm
    with Image.open(out / "photos/sub/deeper/c16.png") as wide:
        assert wide.mode == "I;16"


def test_running_again_does_only_what_is_missing(tmp_path, photos):
    out = tmp_path / "out"
    first = run_batch(plan_batch([photos], out), SPEC)
    assert first.done == len(GOOD)
    written = {path: path.stat().st_mtime_ns for path in out.rglob("*.png")}

    again = plan_batch([photos], out)
    assert [job.relative.as_posix() for job in again.jobs] == [
        f"photos/{name}" for name in sorted(BAD)
    ]
    assert len(again.skipped) == len(GOOD)
    summary = run_batch(again, SPEC)
    assert (summary.done, summary.skipped, len(summary.failed)) == (0, len(GOOD), len(BAD))

    lost = out / "photos/sub/b.png"
    lost.unlink()
    summary = run_batch(plan_batch([photos], out), SPEC)
    assert (summary.done, summary.skipped) == (1, len(GOOD) - 1)
    assert summary.outputs == (lost,)
    assert {path: path.stat().st_mtime_ns for path in out.rglob("*.png") if path != lost} == {
        path: mtime for path, mtime in written.items() if path != lost
    }

    redo = plan_batch([photos], out, overwrite=True)
    assert not redo.skipped and len(redo.jobs) == len(GOOD) + len(BAD)
    summary = run_batch(redo, SPEC)
    assert (summary.done, summary.skipped) == (len(GOOD), 0)


def test_an_input_is_never_written_over(tmp_path, photos):
    before = _hashes(photos)
    # Photos named one by one into their own folder: a.png would be written over itself.
    given = [photos / "a.png", photos / "sub/b.jpg", photos / "sub/deeper/c16.png"]
    plan = plan_batch(given, photos, output_format="png")
    refused = {failure.source: failure.reason for failure in plan.failed}
    assert set(refused) == {photos / "a.png"}
    assert "never writes over" in refused[photos / "a.png"]
    summary = run_batch(plan, SPEC)
    assert summary.done == 2  # b.jpg and c16.png, as photos/b.png and photos/c16.png
    now = _hashes(photos)
    assert {name: now[name] for name in before} == before
    # The output folder as an input folder, or as the folder holding one, is refused whole.
    for out in (photos, photos.parent):
        with pytest.raises(BatchError, match="cannot also be an input folder"):
            plan_batch([photos], out)
    assert {name: _hashes(photos)[name] for name in before} == before


def test_an_output_folder_inside_the_input_folder_is_not_walked(photos):
    out = photos / "blurred"
    run_batch(plan_batch([photos], out), SPEC)
    assert (out / "photos/a.png").is_file()
    again = plan_batch([photos], out)
    assert not any("blurred" in job.source.parts for job in (*again.jobs, *again.skipped))
    assert len(again.skipped) == len(GOOD)


def test_photos_of_one_name_are_written_apart_by_their_extensions(tmp_path):
    rng = np.random.default_rng(11)
    card = tmp_path / "card"
    card.mkdir()
    eight = rng.integers(0, 256, (30, 40), dtype=np.uint8)
    sixteen = rng.integers(0, 65536, (30, 40), dtype=np.uint16)
    alone = rng.integers(0, 256, (20, 24), dtype=np.uint8)
    Image.fromarray(eight).save(card / "IMG_0001.png")
    Image.fromarray(sixteen).save(card / "IMG_0001.tif")
    Image.fromarray(alone).save(card / "IMG_0002.png")
    # One name to a case-insensitive disk: one output there, so written apart here too.
    Image.fromarray(alone).save(card / "img_0003.png")
    Image.fromarray(sixteen).save(card / "IMG_0003.TIF")
    out = tmp_path / "out"

    plan = plan_batch([card], out)
    assert {job.source.name: job.output.relative_to(out).as_posix() for job in plan.jobs} == {
        "IMG_0001.png": "card/IMG_0001-png.png",
        "IMG_0001.tif": "card/IMG_0001-tif.png",
        "IMG_0002.png": "card/IMG_0002.png",  # its name as ever: no other photo meets it
        "IMG_0003.TIF": "card/IMG_0003-tif.png",
        "img_0003.png": "card/img_0003-png.png",
    }
    assert not plan.failed and len(plan.named_apart) == 4
    summary = run_batch(plan, SPEC)
    assert (summary.done, summary.failed) == (5, ())
    # Each its own photo's blur, in its own depth: within half a level of the oracle.
    for name, levels, white in [
        ("IMG_0001-png.png", eight, 255),
        ("IMG_0001-tif.png", sixteen, 65535),
        ("IMG_0002.png", alone, 255),
    ]:
        with Image.open(out / "card" / name) as written:
            blurred = np.asarray(written).astype(np.float64) / white
        expected = blur_oracle(levels / white, KERNEL)
        np.testing.assert_allclose(blurred, expected, atol=0.5 / white + 1e-6, rtol=0)

    again = plan_batch([card], out)
    assert not again.jobs and {job.output for job in again.skipped} == {
        job.output for job in plan.jobs
    }
    assert run_batch(again, SPEC).done == 0


def test_two_photos_wanting_the_same_output_are_not_both_written(tmp_path):
    # One name and one extension, from two folders: the extension cannot tell them apart.
    for folder in ("day1", "day2"):
        (tmp_path / folder).mkdir()
        Image.fromarray(np.zeros((8, 8), np.uint8)).save(tmp_path / folder / "x.png")
    first, second = tmp_path / "day1/x.png", tmp_path / "day2/x.png"
    plan = plan_batch([first, second], tmp_path / "out")
    assert [job.source for job in plan.jobs] == [first]
    assert plan.jobs[0].output == tmp_path / "out/x.png"
    (failure,) = plan.failed
    assert failure.source == second
    assert f"{first} is written here already; {second} was not blurred" in failure.reason


def test_a_missing_input_is_a_failure_not_the_end(tmp_path, photos):
    missing = tmp_path / "gone.png"
    summary = run_batch(plan_batch([missing, photos], tmp_path / "out"), SPEC)
    assert summary.done == len(GOOD)
    assert f"{missing}: no such file" in {failure.reason for failure in summary.failed}


def test_bad_formats_and_output_folders_are_refused(tmp_path, photos):
    with pytest.raises(BatchError, match="png, tif, npy"):
        plan_batch([photos], tmp_path / "out", output_format="jpg")
    (tmp_path / "file").write_text("")
    with pytest.raises(BatchError, match="is a file"):
        plan_batch([photos], tmp_path / "file")
    assert (
        plan_batch([photos], tmp_path / "out", output_format=".TIFF").jobs[0].output.suffix
        == ".tif"
    )


def test_on_two_threads_the_outputs_are_the_same(tmp_path, photos):
    outputs = {}
    for workers in (1, 2):
        out = tmp_path / f"out{workers}"
        run_batch(plan_batch([photos], out, output_format="npy"), SPEC, workers=workers)
        outputs[workers] = {p.relative_to(out): np.load(p) for p in out.rglob("*.npy")}
    assert outputs[1].keys() == outputs[2].keys() and len(outputs[1]) == len(GOOD)
    for name, blurred in outputs[1].items():
        np.testing.assert_array_equal(blurred, outputs[2][name])


def test_colour_photos_keep_their_channels(tmp_path):
    rng = np.random.default_rng(3)
    source = tmp_path / "colour.png"
    Image.fromarray(rng.integers(0, 256, (21, 26, 3), dtype=np.uint8)).save(source)
    out = tmp_path / "out"
    summary = run_batch(
        plan_batch([source], out, output_format="npy"), dataclasses.replace(SPEC, color=True)
    )
    assert summary.done == 1
    blurred = np.load(out / "colour.npy")
    pixels = load_photo(source, color=True).pixels
    assert blurred.shape == pixels.shape == (21, 26, 3)
    for channel in range(3):
        expected = blur_oracle(pixels[..., channel], KERNEL)
        np.testing.assert_allclose(blurred[..., channel], expected, atol=1e-5, rtol=0)


def test_a_photo_too_large_to_load_whole_is_blurred_in_tiles(tmp_path, photos, monkeypatch):
    # As `blurapp blur` does: past Pillow's pixel limit a TIFF is read and blurred in tiles.
    big = photos / "sub/deeper/d.tif"
    pixels = np.random.default_rng(5).integers(0, 256, (60, 70), np.uint8)
    Image.fromarray(pixels).save(big)
    expected = blur_oracle(pixels / 255, KERNEL)
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)
    out = tmp_path / "out"
    summary = run_batch(plan_batch([big], out, output_format="npy"), SPEC)
    assert (summary.done, summary.failed) == (1, ())
    np.testing.assert_allclose(np.load(out / "d.npy"), expected, atol=1e-5, rtol=0)
    assert summary.workers == {"tiles": 1}


def test_a_photo_that_fails_by_blocks_does_not_stop_the_batch(tmp_path, photos, monkeypatch):
    big = photos / "big.tif"
    Image.fromarray(np.zeros((40, 50), np.uint8)).save(big)
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)

    def broken(*args, **kwargs):
        raise RuntimeError("the disk caught fire")

    monkeypatch.setattr("blurapp.scale.batch_run.blur_file_tiled", broken)
    summary = run_batch(plan_batch([photos], tmp_path / "out", output_format="npy"), SPEC)
    reasons = [failure.reason for failure in summary.failed]
    assert f"{big}: RuntimeError: the disk caught fire" in reasons
    assert summary.done >= 1  # the photos small enough to load whole were blurred all the same


def test_a_photo_too_large_for_a_png_batch_says_which_format_to_use(tmp_path, monkeypatch):
    big = tmp_path / "scan.tif"
    Image.fromarray(np.zeros((40, 50), np.uint8)).save(big)
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)
    summary = run_batch(plan_batch([big], tmp_path / "out"), SPEC)
    [failure] = summary.failed
    assert failure.reason.startswith(f"{big}: too large to load whole")
    assert "--format tif or npy" in failure.reason


def test_an_output_folder_holding_an_input_folder_is_refused(tmp_path, photos):
    # out/photos/… would be written beside the photos themselves.
    with pytest.raises(BatchError, match="cannot also be an input folder or hold it"):
        plan_batch([photos], photos.parent)


def test_relative_paths_become_absolute_for_the_workers(tmp_path, photos, monkeypatch):
    monkeypatch.chdir(photos.parent)
    plan = plan_batch([photos.name], "out")
    assert plan.out_dir == tmp_path / "out" and plan.out_dir.is_absolute()
    assert all(job.source.is_absolute() and job.output.is_absolute() for job in plan.jobs)


def test_a_zarr_image_in_a_folder_is_one_photo_blurred_by_blocks(tmp_path):
    import zarr

    pixels = np.random.default_rng(8).random((50, 60)).astype(np.float32)
    folder = tmp_path / "scans" / "sub"
    folder.mkdir(parents=True)
    array = zarr.open_array(folder / "scan.zarr", mode="w", shape=pixels.shape, chunks=(32, 32),
                            dtype="f4")  # fmt: skip
    array[:] = pixels
    plan = plan_batch([tmp_path / "scans"], tmp_path / "out", output_format="npy")
    assert [job.relative.as_posix() for job in plan.jobs] == ["scans/sub/scan.zarr"]
    summary = run_batch(plan, SPEC)
    assert (summary.done, summary.failed) == (1, ())
    expected = blur_oracle(pixels, KERNEL)
    blurred = np.load(tmp_path / "out/scans/sub/scan.npy")
    np.testing.assert_allclose(blurred, expected, atol=1e-5, rtol=0)


def test_a_loop_of_links_is_a_failure_and_the_rest_are_blurred(tmp_path, photos):
    (photos / "loop.png").symlink_to("loop.png")
    (photos / "sub/one.png").symlink_to("two.png")
    (photos / "sub/two.png").symlink_to("one.png")
    given = tmp_path / "given.png"
    given.symlink_to("given.png")
    summary = run_batch(plan_batch([photos, given], tmp_path / "out"), SPEC)
    assert summary.done == len(GOOD)
    failed = {failure.source: failure.reason for failure in summary.failed}
    loops = [photos / "loop.png", photos / "sub/one.png", photos / "sub/two.png", given]
    assert set(failed) == {photos / name for name in BAD} | set(loops)
    for path in loops:
        assert (
            failed[path]
            == f"{path}: the file could not be read (Too many levels of symbolic links)"
        )


def test_photos_in_an_output_folder_inside_the_input_folder_are_listed_as_left_out(photos):
    kept = photos / "sub/kept.png"  # the user's photo, in the folder chosen for the outputs
    Image.fromarray(np.zeros((8, 8), np.uint8)).save(kept)
    out = photos / "sub"
    summary = run_batch(plan_batch([photos], out), SPEC)
    reasons = {failure.source: failure.reason for failure in summary.failed}
    assert f"{kept}: not blurred: it is in the output folder ({out})" in reasons[kept]
    assert f"{photos / 'sub/b.jpg'}: not blurred" in reasons[photos / "sub/b.jpg"]
    assert (out / "photos/a.png").is_file()
    # Its own outputs, there from the first run, are not listed the second time.
    again = plan_batch([photos], out)
    assert {failure.source for failure in again.failed} - {photos / name for name in BAD} == {
        kept,
        photos / "sub/b.jpg",
        photos / "sub/deeper/c16.png",
        photos / "sub/deeper/d.tif",
    }


def test_a_full_output_folder_is_listed_once_not_at_every_photo(tmp_path, monkeypatch):
    # An output folder holding many files: listing it at every write (for stale temporary files)
    # made 600 photos into 20,000 files take 21.7 s against 1.9 s into an empty folder.
    import os
    import time

    source = tmp_path / "tiny"
    source.mkdir()
    for index in range(30):
        Image.fromarray(np.full((6, 6), index, np.uint8)).save(source / f"p{index:02}.png")
    out = tmp_path / "out" / "tiny"
    out.mkdir(parents=True)
    for index in range(200):
        (out / f"other-{index}.txt").write_text("")
    stale, young = out / ".blurapp-k1ll3d00.part", out / ".blurapp-st1llgo0.part"
    earlier = out / ".p07.png.x7d2k9aa.part"  # an earlier version's, named after its target
    two_days_ago = time.time() - 2 * 24 * 3600
    for leftover in (stale, young, earlier):
        leftover.write_bytes(b"left by a process killed mid-save")
    for leftover in (stale, earlier):
        os.utime(leftover, (two_days_ago, two_days_ago))
    listed = []
    scandir = os.scandir

    def counting_scandir(path="."):
        listed.append(os.path.abspath(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", counting_scandir)
    summary = run_batch(plan_batch([source], tmp_path / "out"), SPEC, workers=2)
    assert summary.done == 30
    assert listed.count(str(out)) <= 1
    assert not stale.exists() and not earlier.exists()  # still swept
    assert young.exists()  # perhaps another save, still under way


def test_a_huge_number_of_workers_is_capped(tmp_path):
    import os
    import threading

    most = 4 * (os.cpu_count() or 1)  # the README's "at most 4 per core"
    source = tmp_path / "tiny"
    source.mkdir()
    photos = most + 40
    for index in range(photos):
        Image.fromarray(np.full((6, 6), index % 256, np.uint8)).save(source / f"p{index:03}.png")
    before = threading.active_count()
    peak = []
    summary = run_batch(
        plan_batch([source], tmp_path / "out"),
        SPEC,
        workers=100_000,
        progress=lambda *_: peak.append(threading.active_count()),
    )
    assert summary.done == photos
    # Dask's pool and the thread that runs it, beside the test's own.
    assert max(peak) <= before + most + 2


def test_once_the_cluster_is_lost_the_photos_left_to_blur_by_blocks_are_listed_at_once(
    tmp_path, monkeypatch
):
    from blurapp.scale import batch_run
    from blurapp.scale.scheduler import ClusterError

    photos = tmp_path / "scans"
    photos.mkdir()
    for name in ("a.tif", "b.tif", "c.tif"):
        Image.fromarray(np.zeros((8, 8), np.uint8)).save(photos / name)
    monkeypatch.setattr(batch_run, "needs_tiles", lambda path, color=False: True)
    tried = []

    def cluster_gone(source, *args, **kwargs):
        tried.append(source)
        raise ClusterError("the Dask cluster at tcp://127.0.0.1:1 had no worker left for 60 s")

    monkeypatch.setattr(batch_run, "blur_file_tiled", cluster_gone)
    summary = batch_run.run_batch(plan_batch([photos], tmp_path / "out", output_format="tif"))
    assert len(tried) == 1  # the others did not wait out the same loss in turn
    assert summary.done == 0 and len(summary.failed) == 3
    for failure in summary.failed:
        assert failure.reason.endswith(
            "not blurred: the Dask cluster at tcp://127.0.0.1:1 had no worker left for 60 s"
        ), failure.reason
