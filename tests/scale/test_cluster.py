"""A real Dask cluster: a scheduler and two workers in processes of their own, as on a network
of machines, and the same outputs from it as from the local threads."""

import json
import os
import re
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import numpy as np
import pytest

# The scale extra's (Dask): skipped, saying so, where it is not installed (the TPU machine).
pytest.importorskip("distributed", reason="needs the scale extra (Dask), not installed here")
import distributed
from helpers.batch import BAD, GOOD, SPEC, write_photos
from helpers.cluster import (
    REPOSITORY,
    EndedFuture,
    FakeClient,
    dask_cluster,
    finishes_within,
    killing,
)
from PIL import Image

from blurapp.core.kernel import kernel_for
from blurapp.core.spec import BlurSpec
from blurapp.scale.batch_plan import plan_batch
from blurapp.scale.batch_run import run_batch


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """(scheduler address, the two workers' process ids), for the module's tests: those that
    use it are one xdist group, so the suite's loadgroup distribution starts one cluster a
    run."""
    with dask_cluster(tmp_path_factory.mktemp("cluster")) as (address, _, workers):
        yield address, {process.pid for process in workers}


def _arrays(folder: Path) -> dict[Path, np.ndarray]:
    return {path.relative_to(folder): np.load(path) for path in sorted(folder.rglob("*.npy"))}


@pytest.mark.slow
@pytest.mark.xdist_group("cluster")
def test_a_batch_on_the_cluster_writes_what_a_local_batch_writes(tmp_path, cluster):
    address, worker_pids = cluster
    photos = tmp_path / "photos"
    photos.mkdir()
    write_photos(photos)
    for index in range(6):  # enough photos for both workers to take some
        (photos / f"copy{index}.png").write_bytes((photos / "a.png").read_bytes())

    local = run_batch(plan_batch([photos], tmp_path / "local", output_format="npy"), SPEC)
    progress = []
    remote = run_batch(
        plan_batch([photos], tmp_path / "remote", output_format="npy"),
        SPEC,
        scheduler=address,
        progress=lambda *call: progress.append(call),
    )

    assert remote.done == local.done == len(GOOD) + 6
    expected, written = _arrays(tmp_path / "local"), _arrays(tmp_path / "remote")
    assert written.keys() == expected.keys()
    for name, array in expected.items():
        np.testing.assert_array_equal(written[name], array)
    assert [failure.reason for failure in remote.failed] == [
        failure.reason for failure in local.failed
    ]
    assert len(remote.failed) == len(BAD)
    # Blurred by the worker processes, both of them, not by this one.
    pids = {int(worker.rsplit(":", 1)[1]) for worker in remote.workers}
    assert pids == worker_pids
    assert sum(remote.workers.values()) == remote.done
    assert [call[:2] for call in progress] == [
        (n, len(progress)) for n in range(1, 1 + len(progress))
    ]

    again = plan_batch([photos], tmp_path / "remote", output_format="npy")
    summary = run_batch(again, SPEC, scheduler=address)
    assert (summary.done, summary.skipped) == (0, remote.done)


@pytest.mark.slow
@pytest.mark.xdist_group("cluster")
def test_a_tiled_blur_on_the_cluster_writes_what_a_local_one_writes(tmp_path, cluster):
    from blurapp.bench.scale import write_test_tiff
    from blurapp.scale.tiled import blur_file_tiled

    address, _ = cluster
    source = write_test_tiff(tmp_path / "big.tif", 2048, tile=256)  # 4.2 MP
    kernel = kernel_for("2d", 9, 2.5)
    blur_file_tiled(source, tmp_path / "local.npy", kernel=kernel, block=512)
    result = blur_file_tiled(
        source, tmp_path / "cluster.npy", kernel=kernel, block=512, scheduler=address
    )
    assert (result.width, result.height, result.blocks) == (2048, 2048, 16)
    np.testing.assert_array_equal(
        np.load(tmp_path / "cluster.npy"), np.load(tmp_path / "local.npy")
    )


def _timed_out_reading(path):
    raise TimeoutError(f"{path}: timed out")  # as an OSError(ETIMEDOUT) from a network share


def _slowly(value):
    time.sleep(2.5)  # past two polls of the cluster
    return value


def test_a_result_whose_fetch_is_reset_says_the_scheduler_went_away(monkeypatch):
    """Not an OSError, which the blur by blocks would take for one of its output file's."""
    from blurapp.scale.scheduler import ClusterError, compute_on_cluster

    monkeypatch.setattr(distributed, "wait", FakeClient.wait)
    reset = EndedFuture("finished", ConnectionResetError(104, "Connection reset by peer"))
    with pytest.raises(
        ClusterError, match=re.escape("at tcp://10.0.0.9:8786 stopped the blur: its scheduler")
    ):
        compute_on_cluster(FakeClient(reset), None, "tcp://10.0.0.9:8786")
    # The blur's own OSError, and a fetch failing here for want of memory, are as they are.
    own = EndedFuture("error", PermissionError(13, "Permission denied"))
    for future in (own, EndedFuture("finished", MemoryError())):
        with pytest.raises(type(future._error)):
            compute_on_cluster(FakeClient(future), None, "tcp://10.0.0.9:8786")


@pytest.mark.slow
@pytest.mark.xdist_group("cluster")
def test_what_the_cluster_computes_comes_back_even_when_slow_and_its_errors_as_they_are(cluster):
    """compute_on_cluster gives a task's value however long it takes while workers are there,
    and a task's own error as it is, a TimeoutError too (not taken for the wait's own)."""
    import dask

    from blurapp.scale.scheduler import compute_on_cluster, connect_to_cluster

    address, _ = cluster
    client = connect_to_cluster(address)
    try:
        slow = dask.delayed(_slowly)(np.arange(5), dask_key_name="slow-value")
        np.testing.assert_array_equal(compute_on_cluster(client, slow, address), np.arange(5))
        failing = dask.delayed(_timed_out_reading)("/share/scan.tif", dask_key_name="timed-out")
        raised = []

        def compute_failing():
            with pytest.raises(TimeoutError, match=re.escape("/share/scan.tif: timed out")):
                compute_on_cluster(client, failing, address)
            raised.append(True)

        finishes_within(
            30, compute_failing, "the task's TimeoutError did not come out of it in 30 s"
        )
        assert raised  # and it was the task's
    finally:
        client.close()


@pytest.mark.slow
@pytest.mark.xdist_group("cluster")
def test_relative_paths_on_the_cluster_land_where_the_user_is(tmp_path, cluster, monkeypatch):
    # The workers run in the repository's folder; the user types paths relative to theirs.
    address, _ = cluster
    photos = tmp_path / "photos"
    photos.mkdir()
    write_photos(photos)
    monkeypatch.chdir(tmp_path)
    summary = run_batch(plan_batch(["photos"], "out", output_format="npy"), SPEC, scheduler=address)
    assert summary.done == len(GOOD)
    assert len(list((tmp_path / "out").rglob("*.npy"))) == len(GOOD)


@pytest.mark.slow
@pytest.mark.xdist_group("cluster")
def test_an_address_without_tcp_reaches_the_cluster_too(tmp_path, cluster, monkeypatch):
    from blurapp.bench.scale import write_test_tiff
    from blurapp.scale.tiled import blur_file_tiled

    address, _ = cluster
    source = write_test_tiff(tmp_path / "scan.tif", 600, tile=256)
    monkeypatch.chdir(tmp_path)
    kernel = kernel_for("2d", 9, 2.5)
    blur_file_tiled("scan.tif", "local.npy", kernel=kernel, block=256)
    blur_file_tiled(
        "scan.tif", "cluster.npy", kernel=kernel, block=256,
        scheduler=address.removeprefix("tcp://"),
    )  # fmt: skip
    assert source.exists()
    np.testing.assert_array_equal(np.load("cluster.npy"), np.load("local.npy"))


def _slow_photos(folder: Path, count: int) -> None:
    """Photos that take a worker a while each (a 2-D 25 × 25 kernel on 300 × 300)."""
    folder.mkdir()
    rng = np.random.default_rng(4)
    for index in range(count):
        pixels = rng.integers(0, 256, (300, 300), dtype=np.uint8)
        Image.fromarray(pixels).save(folder / f"p{index:02}.png")


SLOW_SPEC = BlurSpec(algorithm="2d", kernel_size=25, sigma=4.0)


@pytest.mark.slow
@pytest.mark.parametrize("finished", ["one at a time", "several together"])
def test_a_batch_whose_last_worker_dies_ends_listing_the_photos_not_blurred(
    tmp_path, monkeypatch, finished
):
    # No worker for 1 s ends it, told from four polls of the cluster, not one or two.
    monkeypatch.setattr("blurapp.scale.scheduler.NO_WORKERS_SECONDS", 1.0)
    monkeypatch.setattr("blurapp.scale.scheduler.CLUSTER_POLL_SECONDS", 0.25)
    monkeypatch.setattr("blurapp.scale.batch_run.CLUSTER_POLL_SECONDS", 0.25)
    if finished == "several together":
        # As on a busy machine: the batch looks late, when two photos have finished, so the
        # worker dies (at the first result) with a finished photo whose result it still holds.
        wait = distributed.wait
        looked = []

        def late_wait(futures, *args, **kwargs):
            while not looked and sum(future.done() for future in futures) < 2:
                time.sleep(0.01)
            looked.append(True)
            return wait(futures, *args, **kwargs)

        monkeypatch.setattr(distributed, "wait", late_wait)
    photos = tmp_path / "photos"
    _slow_photos(photos, 24)
    out = tmp_path / "out"
    with dask_cluster(tmp_path / "cluster", workers=1) as (address, _, (worker,)):
        summary = finishes_within(
            90,
            lambda: run_batch(
                plan_batch([photos], out, output_format="npy"),
                SLOW_SPEC,
                engine="numpy",
                scheduler=address,
                progress=killing(worker),
            ),
            "the batch still waits 90 s after its last worker died",
        )
    written = sorted(out.rglob("*.npy"))
    assert summary.done == len(written) >= 1
    assert summary.done + len(summary.failed) == 24
    assert summary.failed  # the worker died with photos left
    for failure in summary.failed:
        assert failure.reason == (
            f"{failure.source}: not blurred: the Dask cluster had no worker left for 1 s"
        )
        assert not (out / "photos" / failure.source.with_suffix(".npy").name).exists()


@pytest.mark.slow
@pytest.mark.parametrize("lost", ["worker", "scheduler"])
def test_a_tiled_blur_whose_cluster_is_lost_fails_saying_so(tmp_path, monkeypatch, lost):
    """Blurring by blocks on a cluster that loses its last worker, or its scheduler, ends with
    an error naming the cluster (not a wait forever, nor distributed's bare CancelledError),
    and leaves no output behind."""
    from blurapp.bench.scale import write_test_tiff
    from blurapp.scale.scheduler import ClusterError
    from blurapp.scale.tiled import blur_file_tiled

    # No worker for 1 s ends it, told from four polls of the cluster, not one or two.
    monkeypatch.setattr("blurapp.scale.scheduler.NO_WORKERS_SECONDS", 1.0)
    monkeypatch.setattr("blurapp.scale.scheduler.CLUSTER_POLL_SECONDS", 0.25)
    source = write_test_tiff(tmp_path / "big.tif", 4096, tile=256)  # 16.8 MP, 8 rows of blocks
    output = tmp_path / "blurred.tif"
    with dask_cluster(tmp_path / "cluster", workers=1) as (address, scheduler, (worker,)):
        errors = []

        def blur():
            try:
                blur_file_tiled(
                    source, output, kernel=kernel_for("2d", 25, 4.0), block=512,
                    scheduler=address, progress=killing(worker if lost == "worker" else scheduler),
                )  # fmt: skip
            except ClusterError as error:
                errors.append(str(error))

        finishes_within(90, blur, f"the blur still waits 90 s after its {lost} died")
    if lost == "worker":
        assert errors == [f"the Dask cluster at {address} had no worker left for 1 s"]
    else:
        assert len(errors) == 1 and errors[0].startswith(f"the Dask cluster at {address} "), errors
    assert sorted(path.name for path in tmp_path.iterdir()) == ["big.tif", "cluster"]


@pytest.mark.slow
def test_a_batch_whose_scheduler_dies_reports_what_is_on_disk(tmp_path):
    photos = tmp_path / "photos"
    _slow_photos(photos, 24)
    out = tmp_path / "out"
    environment = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(REPOSITORY), *sys.path]),
        **{name: str(tmp_path / name) for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME",
                                                    "XDG_STATE_HOME")},
    )  # fmt: skip
    with dask_cluster(tmp_path / "cluster", workers=1) as (address, scheduler, (worker,)):
        batch = subprocess.Popen(
            [
                *(sys.executable, "-m", "blurapp", "batch", photos, "--out-dir", out),
                *("--format", "npy", "--json", "--scheduler", address, "--engine", "numpy"),
                *("--kernel-size", "25", "--sigma", "4"),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
        )
        try:
            deadline = time.monotonic() + 300
            while not list(out.rglob("*.npy")):
                if time.monotonic() > deadline or batch.poll() is not None:
                    pytest.fail(f"the batch wrote no photo:\n{batch.communicate()[1]}")
                time.sleep(0.05)
            # The worker is frozen mid-batch, blurring its next photo, and the scheduler dies:
            # the disk stays as the batch finds it when it looks. A worker left running can
            # rename a photo into place after the batch has looked, and nothing on disk tells
            # it apart (the file's time is its temporary file's, from before the batch ended).
            os.kill(worker.pid, signal.SIGSTOP)
            scheduler.kill()
            stdout, stderr = batch.communicate(timeout=240)
        finally:
            worker.kill()  # frozen: only SIGKILL ends it
            if batch.poll() is None:
                batch.kill()
                batch.communicate()
    assert stdout, stderr
    summary = json.loads(stdout)
    written = {path.relative_to(out / "photos") for path in out.rglob("*.npy")}
    assert summary["done"] == len(written) >= 1
    assert summary["done"] + len(summary["failed"]) == 24
    for failure in summary["failed"]:
        assert Path(failure["source"]).with_suffix(".npy").name not in {p.name for p in written}
    # Every line on stderr says something.
    for line in stderr.splitlines():
        assert line.split(":", 1)[-1].strip(), stderr


def test_a_cluster_that_cannot_be_asked_about_its_workers_counts_as_without_any(monkeypatch):
    """A client that cannot reach its scheduler (stuck reconnecting) must not wait forever: no
    answer for NO_WORKERS_SECONDS is the same as no worker."""
    from blurapp.scale import scheduler

    class Unreachable:
        def scheduler_info(self, **_):
            raise OSError("Timed out trying to connect")

    now = [1000.0]  # the watch's clock, the test's own: no sleeping, no busy machine's delays
    monkeypatch.setattr(scheduler, "time", types.SimpleNamespace(monotonic=lambda: now[0]))
    monkeypatch.setattr(scheduler, "NO_WORKERS_SECONDS", 0.2)
    watch = scheduler.WorkerWatch(Unreachable())
    assert not watch.alone_too_long(progressed=False)
    now[0] += 0.19
    assert not watch.alone_too_long(progressed=False)
    now[0] += 0.01
    assert watch.alone_too_long(progressed=False)
    assert watch.words("tcp://127.0.0.1:8786") == (
        "the Dask cluster at tcp://127.0.0.1:8786 did not answer whether it has a worker for 0.2 s"
    )
    assert not watch.alone_too_long(progressed=True)  # a photo done: it is there after all
