"""An engine from another package: a real distribution (a dist-info folder with its entry
point) made in a temporary folder, found through importlib.metadata, and shown everywhere an
engine of BlurApp's own is: here the command line and the benchmark (the registry in
tests/core/engines/test_plugins_registry.py, the window, chart and sweep in tests/ui/test_plugins_window.py).
A broken plugin is one warning, and BlurApp still works."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from helpers.command_line import blurapp_in_process
from helpers.oracle import blur_oracle
from helpers.photos import photo_file

from blurapp.core import TOLERANCE, gaussian_kernel, load_grayscale


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    return photo_file(tmp_path_factory.mktemp("photos"), size=(45, 30), seed=3)


@pytest.fixture
def blurapp(monkeypatch):
    """`blurapp ARGS…` called in this process with `folders` first on its path, where the
    registry finds the distributions they hold; none of them is left behind after."""
    from blurapp.core.engines import forget_plugins

    def call(*args, folders):
        with monkeypatch.context() as path:
            for folder in reversed(folders):
                path.syspath_prepend(str(folder))
            forget_plugins()
            try:
                return blurapp_in_process(*args)
            finally:
                forget_plugins()
                for module in ("blurapp_scipy_plugin", "blurapp_missing_module"):
                    sys.modules.pop(module, None)

    return call


# --- The command line --------------------------------------------------------------------


@pytest.mark.slow
def test_compare_times_the_plugin_engine_beside_numpy(blurapp, plugin_folder, photo):
    run = blurapp("compare", photo, "--engines", "numpy,scipy", "--json", folders=[plugin_folder])
    assert run.returncode == 0, run.stderr
    scipy = json.loads(run.stdout)["scipy"]
    assert scipy["error"] is None and scipy["seconds"] > 0
    assert scipy["max_abs_diff"] <= TOLERANCE and scipy["within_tolerance"] is True
    assert scipy["speedup"] > 0
    # And in words: its row, under its title.
    table = blurapp("compare", photo, "--engines", "numpy,scipy", folders=[plugin_folder])
    assert table.returncode == 0, table.stderr
    assert any(line.lstrip().startswith("SciPy") for line in table.stdout.splitlines())


def test_compare_without_the_plugin_does_not_know_it(blurapp, photo):
    run = blurapp("compare", photo, "--engines", "numpy,scipy", folders=[])
    assert run.returncode == 2 and "no engine called 'scipy'" in run.stderr


def test_blur_with_the_plugin_engine_writes_its_result(blurapp, tmp_path, plugin_folder, photo):
    out = tmp_path / "blurred.npy"
    run = blurapp(
        "blur", photo, "-o", out, "--engine", "scipy", "--sigma", "2",
        folders=[plugin_folder],
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    expected = blur_oracle(load_grayscale(photo), gaussian_kernel(9, 2.0))
    np.testing.assert_allclose(np.load(out), expected, atol=1e-5, rtol=0)


@pytest.mark.extra("scale")
def test_batch_with_the_plugin_engine(blurapp, tmp_path, plugin_folder, photo):
    out = tmp_path / "out"
    run = blurapp(
        "batch", photo, "--out-dir", out, "--format", "npy", "--engine", "scipy",
        "--json", folders=[plugin_folder],
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["done"] == 1
    expected = blur_oracle(load_grayscale(photo), gaussian_kernel(9, 2.5))
    np.testing.assert_allclose(np.load(out / "street.npy"), expected, atol=1e-5, rtol=0)


BENCH = (
    "bench", "--sections", "engines", "--engines", "numpy,scipy", "--megapixels", "0.3",
    "--kernel-sizes", "9", "--algorithms", "2d", "--repeat", "3",
)  # fmt: skip


@pytest.mark.slow
def test_bench_has_a_column_for_the_plugin_engine_in_its_table_and_json(blurapp, plugin_folder):
    table = blurapp(*BENCH, folders=[plugin_folder])
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    headings, row = lines[2], lines[-1]
    assert "NumPy ms (IQR)" in headings and "scipy ms (IQR)" in headings
    assert "JAX" not in headings  # only the engines that ran
    # ms (IQR) each, the copy, each as a multiple of the copy, the compute floor, each as a
    # multiple of it, noisy
    assert (
        len(row.split()) == len(["size", "MP", "kernel", "algorithm"]) + 2 * 2 + 1 + 2 + 1 + 2 + 1
    )
    assert "scipy: SciPy" in lines[3]

    run = blurapp(*BENCH, "--json", folders=[plugin_folder])
    assert run.returncode == 0, run.stderr
    [result] = json.loads(run.stdout)["results"]
    assert result["scipy"]["seconds"] > 0 and result["scipy"]["max_abs_diff"] <= TOLERANCE
    assert len(result["scipy"]["seconds_all"]) == 3


@pytest.mark.slow
def test_a_broken_plugin_is_one_warning_and_compare_still_works(
    blurapp, plugin_folder, broken_folder, photo
):
    run = blurapp(
        "compare", photo, "--engines", "numpy,scipy", "--json",
        folders=[broken_folder, plugin_folder],
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    warnings = [line for line in run.stderr.splitlines() if "plugin" in line]
    assert len(warnings) == 1, run.stderr
    [warning] = warnings
    assert warning.startswith("warning: ")
    assert "'broken = blurapp_missing_module:ENGINE'" in warning
    assert "blurapp-broken-plugin 0.1" in warning and "blurapp_missing_module" in warning
    assert "Traceback" not in run.stderr
    assert json.loads(run.stdout)["scipy"]["within_tolerance"] is True  # the good one still counts


def test_plugins_are_loaded_when_the_registry_is_first_asked_not_on_import(tmp_path, plugin_folder):
    code = (
        "import sys\nimport blurapp.core\nfrom blurapp.core import engines\n"
        "print('blurapp_scipy_plugin' in sys.modules)\n"
        "print(engines.engine_names()[-1], 'blurapp_scipy_plugin' in sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(plugin_folder), *sys.path])}
    for variable in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env[variable] = str(tmp_path / variable.lower())
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "scipy", "True"]
