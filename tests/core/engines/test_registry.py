"""The engine registry: what the command line offers and what JSON gives for every engine, a
fourth engine added in a few lines, JAX engines on a chosen platform, and JAX without jit."""

import json
import os
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest
from helpers.oracle import blur_oracle
from helpers.photos import photo_file
from scipy.ndimage import correlate

from blurapp import cli
from blurapp.core import (
    TOLERANCE,
    BlurCancelled,
    Call,
    Engine,
    FirstCall,
    UnknownEngineError,
    compare_engines,
    engine_names,
    gaussian_kernel,
    get_engine,
    register,
)
from blurapp.core import engines as registry
from blurapp.core.engines import Shown, engines_on_every_platform, parse_engines


def run_scipy(image, kernel, *, platform, progress, cancelled):
    """A fourth engine: scipy's own correlation, in the registry's shape."""
    weights = kernel if kernel.ndim == 2 else np.outer(kernel, kernel)
    output = correlate(image, weights, mode="nearest").astype(np.float32)
    return FirstCall(output=output, again=lambda: Call(1e-3), seconds=1e-3)


@pytest.fixture
def scipy_engine():
    engine = register(Engine("scipy", "SciPy", run_scipy))
    yield engine
    registry.unregister("scipy")


@pytest.fixture
def photo(tmp_path):
    return photo_file(tmp_path, "photo.png", size=(31, 24), seed=4, colour=False)


def test_the_built_in_engines_are_registered_in_order():
    assert engine_names() == ("numpy", "numpy-loop", "jax", "jax-eager", "pallas")
    assert [get_engine(name).title for name in engine_names()] == [
        "NumPy",
        "NumPy, tutorial loop",
        "JAX-jit",
        "JAX without jit",
        "JAX Pallas",
    ]


@pytest.mark.slow
def test_a_fourth_engine_reaches_the_command_line_and_its_json(scipy_engine, photo, capsys):
    assert cli.main(["compare", str(photo), "--engines", "numpy,jax,scipy", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scipy"]["seconds"] == pytest.approx(1e-3)
    assert data["scipy"]["max_abs_diff"] <= TOLERANCE and data["scipy"]["within_tolerance"]
    assert data["jax"]["max_abs_diff"] <= TOLERANCE  # the old keys hold beside it
    assert cli.main(["compare", str(photo), "--engines", "numpy,scipy"]) == 0
    table = capsys.readouterr().out
    assert "\nSciPy " in table and "max abs diff" in table
    out = photo.with_name("scipy.npy")
    assert cli.main(["blur", str(photo), "--engine", "scipy", "-o", str(out)]) == 0
    assert np.load(out).shape == (24, 31)
    with pytest.raises(SystemExit):
        cli.main(["compare", "--help"])
    assert "numpy, numpy-loop, jax, jax-eager, pallas, scipy" in " ".join(
        capsys.readouterr().out.split()
    )


def test_a_fake_engine_registered_in_one_place_shows_everywhere_engines_are_shown(photo, capsys):
    """One Engine registered, with how it is shown: `compare --engines` runs it, the chart
    draws its bar in its colour and the bench table heads its column, none of them told."""
    from blurapp.bench.report import column_lines
    from blurapp.core.report.chart_bars import timing_bars

    fake = register(
        Engine("fake", "Fake", run_scipy, shown=Shown(colour="#123456", column="Phony"))
    )
    try:
        assert cli.main(["compare", str(photo), "--engines", "numpy,fake", "--repeat", "1"]) == 0
        assert "\nFake " in capsys.readouterr().out
        image = np.random.default_rng(2).random((12, 10), dtype=np.float32)
        result = compare_engines(image, engines=("numpy", "fake"), repeats=1)
        coloured = [bar.label for bar in timing_bars(result) if bar.colour == "#123456"]
        assert len(coloured) == 1 and "Fake" in coloured[0]
        assert "Phony ms" in column_lines([get_engine("numpy"), fake])[0]
    finally:
        registry.unregister("fake")


def test_an_unknown_engine_names_the_ones_there_are(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["compare", "--engines", "numpy,cuda"])
    assert stop.value.code == 2
    assert "no engine called 'cuda'; the engines are numpy, numpy-loop, jax, jax-eager" in (
        capsys.readouterr().err
    )
    with pytest.raises(UnknownEngineError, match="only JAX engines take a platform"):
        get_engine("numpy@gpu")


def test_each_engine_is_named_once_in_the_order_given():
    assert [e.name for e in parse_engines("jax-eager, numpy,jax-eager")] == ["jax-eager", "numpy"]


def test_three_engines_read_like_the_tutorials_table(photo):
    from blurapp.core.report.figures import comparison_figures, format_ms

    image = np.random.default_rng(5).random((40, 50), dtype=np.float32)
    result = compare_engines(image, engines=("numpy", "jax", "jax-eager"), repeats=2)
    expected = blur_oracle(image, gaussian_kernel())
    for name in ("numpy", "jax", "jax-eager"):
        np.testing.assert_allclose(result.runs[name].output, expected, atol=TOLERANCE, rtol=0)
        if name != "numpy":
            assert result.differences[name] <= TOLERANCE
    eager = result.runs["jax-eager"]
    assert eager.first_call_seconds > 0 and eager.compilation is None
    assert eager.to_device_seconds > 0 and len(eager.repeat_seconds) == 2
    rows = {row.label: row.text for row in comparison_figures(result, "photo", 50, 40)}
    assert {"NumPy", "JAX first call", "JAX steady", "JAX without jit"} <= set(rows)
    assert rows["JAX without jit"].startswith(format_ms(eager.seconds))
    assert "NumPy's speed" in rows["JAX without jit"] and "within 1e-05" in rows["JAX without jit"]


def test_jax_without_jit_reports_taps_and_stops_between_them():
    seen = []
    image = np.random.default_rng(6).random((9, 9), dtype=np.float32)
    get_engine("jax-eager").blur(
        image, gaussian_kernel(3, 1.0), repeats=1, progress=lambda d, t: seen.append((d, t))
    )
    # Every tap reported once per run (on its first call), then no more: one fill of a bar.
    assert seen == [(n, 9) for n in range(1, 10)]
    checks = []

    def cancelled():
        checks.append(1)
        return len(checks) > 5

    with pytest.raises(BlurCancelled):
        get_engine("jax-eager").blur(image, gaussian_kernel(9, 2.0), cancelled=cancelled)
    assert len(checks) == 6  # stopped between taps, not after the whole blur


@pytest.mark.parametrize("platform", ["gpu", "tpu"])
def test_a_jax_engine_on_a_platform_there_is_not_says_so(platform):
    from blurapp.core.engines.jax_runtime import jax_platforms

    there = jax_platforms()
    if platform in there:
        pytest.skip(f"this machine has a {platform}: the test is of a platform it has not")
    result = compare_engines(np.zeros((5, 5), np.float32), engines=("numpy", f"jax@{platform}"))
    assert result.reference_run is not None
    missing = f"JAX has no {platform} device here (it has: {', '.join(there)})"
    assert missing in result.errors[f"jax@{platform}"]
    result = compare_engines(
        np.zeros((5, 5), np.float32), engines=("numpy", "jax"), device=platform
    )
    assert f"JAX has no {platform} device here" in result.jit_error


def test_jax_engines_appear_once_per_platform_when_there_are_several(monkeypatch):
    from blurapp.core.engines import jax_runtime

    monkeypatch.setattr(jax_runtime, "jax_platforms", lambda: ["cpu"])
    assert [e.name for e in engines_on_every_platform()] == list(engine_names())
    monkeypatch.setattr(jax_runtime, "jax_platforms", lambda: ["gpu", "cpu"])
    names = [e.name for e in engines_on_every_platform()]
    assert names == [
        "numpy",
        "numpy-loop",
        "jax@gpu",
        "jax@cpu",
        "jax-eager@gpu",
        "jax-eager@cpu",
        "pallas@gpu",
        "pallas@cpu",
    ]
    assert get_engine("jax@cpu").title == "JAX-jit (CPU)"
    monkeypatch.setattr(jax_runtime, "jax_platforms", lambda: ["tpu", "cpu"])
    names = [e.name for e in engines_on_every_platform()]
    assert names == [
        "numpy",
        "numpy-loop",
        "jax@tpu",
        "jax@cpu",
        "jax-eager@tpu",
        "jax-eager@cpu",
        "pallas@tpu",
        "pallas@cpu",
    ]
    assert get_engine("jax@tpu").title == "JAX-jit (TPU)"


BLURAPP = (sys.executable, "-m", "blurapp")
THREE_ON_CPU = ("--engines", "numpy,jax@cpu,jax-eager", "--device", "cpu")
JAX_ON_GPU = ("--engine", "jax", "--device", "gpu")


@pytest.mark.slow
def test_a_platform_is_chosen_among_several_devices(photo):
    # Two CPU devices stand in for a machine with more than one; BlurApp takes the first.
    env = {
        **os.environ,
        "XLA_FLAGS": "--xla_force_host_platform_device_count=2",
        "JAX_PLATFORMS": "cpu",
    }
    run = subprocess.run(
        [*BLURAPP, "compare", str(photo), "--json", "--repeat", "1", *THREE_ON_CPU],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["jax_cpu"]["device"] == "cpu" and data["jax_cpu"]["max_abs_diff"] <= TOLERANCE
    assert data["jax_eager"]["device"] == "cpu" and data["jax_eager"]["max_abs_diff"] <= TOLERANCE
    refused = subprocess.run(
        [*BLURAPP, "blur", str(photo), "-o", str(photo.with_suffix(".npy")), *JAX_ON_GPU],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert refused.returncode == 1
    # One error line, naming the photo that could not be blurred and why.
    assert refused.stderr.strip() == f"error: {photo}: JAX has no gpu device here (it has: cpu)"


def test_an_engine_not_in_the_registry_still_gets_its_figures():
    from blurapp.core.measuring.comparison import comparison_dict
    from blurapp.core.report.figures import comparison_figures

    outsider = Engine("outsider", "Outsider", run_scipy)
    result = compare_engines(np.ones((6, 6), np.float32), engines=["numpy", outsider])
    assert comparison_dict(result)["outsider"]["max_abs_diff"] <= TOLERANCE
    [row] = [row for row in comparison_figures(result, "x", 6, 6) if row.label == "Outsider"]
    assert row.key == "engine.outsider" and row.value == result.runs["outsider"].seconds


def test_all_engines_means_every_engine_on_every_platform(photo, capsys, monkeypatch):
    from blurapp.core.engines import jax_runtime

    with monkeypatch.context() as only_the_cpu:
        only_the_cpu.setattr(jax_runtime, "jax_platforms", lambda: ["cpu"])
        assert [e.name for e in parse_engines("all")] == list(engine_names())
    from blurapp.core.measuring.comparison import json_key

    assert cli.main(["compare", str(photo), "--engines", "all", "--json", "--repeat", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    # One key an engine, and each JAX engine once per platform where JAX has several.
    assert {json_key(engine.name) for engine in parse_engines("all")} <= set(data)
    assert {"numpy", "numpy_loop"} <= set(data)


def test_blur_runs_its_engine_once(photo, tmp_path):
    calls = []

    def counting(image, kernel, **_):
        calls.append("first")
        return FirstCall(output=np.asarray(image), again=lambda: calls.append("again"), seconds=0)

    register(Engine("counting", "Counting", counting))
    try:
        assert (
            cli.main(["blur", str(photo), "--engine", "counting", "-o", str(tmp_path / "c.npy")])
            == 0
        )
    finally:
        registry.unregister("counting")
    assert calls == ["first"]  # the first call only: no steady calls to time


def test_compare_out_dir_writes_each_engines_pair(photo, tmp_path):
    out = tmp_path / "out"
    assert (
        cli.main(["compare", str(photo), "--engines", "numpy,jax-eager", "--out-dir", str(out)])
        == 0
    )
    assert sorted(p.name for p in out.iterdir()) == [
        "jax-eager.npy",
        "jax-eager.png",
        "numpy.npy",
        "numpy.png",
    ]


def test_a_slow_engine_keeps_its_cap_on_repeats(monkeypatch):
    calls = []

    def again():
        calls.append("again")
        return Call(1.0)

    def counting(image, kernel, **_):
        return FirstCall(output=image, again=again, seconds=1.0)

    eager = get_engine("jax-eager")
    slow = replace(
        eager, first_call=counting, computation=replace(eager.computation, max_repeats=2)
    )
    run = slow.blur(np.zeros((2, 2), np.float32), gaussian_kernel(1, 1.0))
    assert len(calls) == 3  # a warm-up call, then two timed
    assert run.repeat_seconds == (1.0, 1.0)


def test_the_chart_and_rows_of_an_unregistered_engine_use_its_own_title():
    from blurapp.core.report.chart_bars import timing_bars
    from blurapp.core.report.figures import comparison_figures

    outsider = Engine("outsider", "Outsider", run_scipy)
    result = compare_engines(np.ones((6, 6), np.float32), engines=["numpy", outsider])
    assert [bar.label for bar in timing_bars(result)] == ["NumPy", "Outsider"]
    labels = {row.key: row.label for row in comparison_figures(result, "x", 6, 6)}
    assert labels["engine.outsider"] == "Outsider"
