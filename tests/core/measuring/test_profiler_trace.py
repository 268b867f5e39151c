"""A profiler trace's folders: each run's trace in a run folder of its own, never another run's,
and nothing half-written left behind however the run ends (the trace's contents, read back:
tests/cli/test_cli.py)."""

import gzip
import json
import os
import time

import pytest

from blurapp.core.measuring.profiler_trace import (
    PERFETTO_FILE,
    SteadyTrace,
    TraceError,
    make_trace_folder,
)


def steady_calls():
    """A few calls of a jitted function: what a trace records."""
    import jax
    import jax.numpy as jnp

    double = jax.jit(lambda x: x * 2)
    for _ in range(3):
        double(jnp.ones(8)).block_until_ready()


def files_under(folder):
    return sorted(path.relative_to(folder) for path in folder.rglob("*") if path.is_file())


def another_run(folder, name, mtime=None):
    """A run folder another trace wrote in `folder` (another process, another machine): its
    raw trace, Chrome JSON (what JAX rewrites into a Perfetto file) and contents by file."""
    run = folder / "plugins" / "profile" / name
    run.mkdir(parents=True)
    (run / "other.xplane.pb").write_bytes(b"another run's trace")
    with gzip.open(run / "other.trace.json.gz", "wt") as file:
        json.dump({"traceEvents": [], "metadata": {}}, file)
    if mtime is not None:
        os.utime(run, (mtime, mtime))
    return run, {path.name: path.read_bytes() for path in run.iterdir()}


def test_a_trace_never_writes_into_a_run_folder_another_trace_made_meanwhile(tmp_path):
    folder = tmp_path / "traces"
    make_trace_folder(folder)
    trace = SteadyTrace(folder)
    with trace:
        steady_calls()
        # Another process's traces, written while this one records: jax.profiler names a run
        # folder by the second it ends in, so one of these has the name this run's would get.
        now = time.time()
        others = [
            another_run(folder, time.strftime("%Y_%m_%d_%H_%M_%S", time.localtime(now + s)))
            for s in range(0, 4)
        ]
    assert trace.run_folder is not None
    assert trace.run_folder.parent == folder / "plugins" / "profile"
    assert trace.run_folder not in [run for run, _ in others]
    for run, contents in others:  # as they were
        assert {path.name: path.read_bytes() for path in run.iterdir()} == contents
    names = {path.name for path in trace.files}
    assert PERFETTO_FILE in names and any(name.endswith(".xplane.pb") for name in names)
    assert trace.written.words().startswith(f"trace: {trace.run_folder} (")


def test_a_run_folder_dated_later_is_left_alone_and_the_new_run_gets_its_perfetto_file(tmp_path):
    folder = tmp_path / "traces"
    # Copied from a machine whose clock runs a year ahead.
    later, contents = another_run(folder, "2099_01_01_00_00_00", mtime=time.time() + 3e7)
    trace = SteadyTrace(folder)
    with trace:
        steady_calls()
    assert {path.name: path.read_bytes() for path in later.iterdir()} == contents
    assert trace.run_folder is not None and trace.run_folder != later
    assert (trace.run_folder / PERFETTO_FILE).is_file()
    with gzip.open(trace.run_folder / PERFETTO_FILE) as file:
        assert "traceEvents" in json.load(file)


@pytest.mark.parametrize("stop", [KeyboardInterrupt, SystemExit, MemoryError])
def test_a_run_that_ends_any_other_way_leaves_no_partial_trace(tmp_path, stop):
    folder = tmp_path / "traces"
    earlier, contents = another_run(folder, "2020_01_01_00_00_00")
    trace = SteadyTrace(folder)
    with pytest.raises(stop), trace:
        steady_calls()
        raise stop()
    assert files_under(folder) == sorted(path.relative_to(folder) for path in earlier.iterdir())
    assert {path.name: path.read_bytes() for path in earlier.iterdir()} == contents
    assert trace.run_folder is None


def test_a_folder_whose_name_is_not_utf8_is_refused_before_the_work(tmp_path):
    folder = tmp_path / os.fsdecode(b"caf\xe9")
    with pytest.raises(TraceError) as refused:
        make_trace_folder(folder)
    assert str(refused.value).endswith(
        "the profiler trace's folder must have a UTF-8 name (JAX's profiler writes no other)"
    )
    assert "\n" not in str(refused.value)
    assert not folder.exists()
