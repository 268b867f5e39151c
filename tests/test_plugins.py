"""An engine from another package: a real distribution (a dist-info folder with its entry
point) made in a temporary folder, found through importlib.metadata, and shown everywhere an
engine of BlurApp's own is: the command line, the benchmark, the window, its figures and chart,
and the sweep. A broken plugin is one warning, and BlurApp still works."""

import json
import logging
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import Qt
from qt_helpers import RUN_TIMEOUT_MS
from scipy.ndimage import correlate

from blurapp.core import TOLERANCE, gaussian_kernel, load_grayscale
from blurapp.core.engines import engine_names, forget_plugins, get_engine

PLUGIN_COLOUR = "#17becf"

# The plugin's own code, as its author would write it: nothing in it is BlurApp's but the
# Engine it declares and the FirstCall it returns.
PLUGIN_CODE = f'''
import time

import numpy as np
from scipy import ndimage

from blurapp.core.engines import Engine
from blurapp.core.runs import Call, FirstCall


def blur_scipy(image, kernel):
    image = np.asarray(image, dtype=np.float32)
    kernel = np.asarray(kernel, dtype=np.float32)
    if kernel.ndim == 1:  # separable: along the rows, then down the columns
        rows = ndimage.correlate1d(image, kernel, axis=1, mode="nearest")
        return ndimage.correlate1d(rows, kernel, axis=0, mode="nearest")
    if image.ndim == 3:  # each channel alike
        kernel = kernel[:, :, None]
    return ndimage.correlate(image, kernel, mode="nearest")


def first_scipy_call(image, kernel, *, platform, progress, cancelled) -> FirstCall:
    def call():
        start = time.perf_counter()
        output = blur_scipy(image, kernel)
        return output, time.perf_counter() - start

    output, seconds = call()
    return FirstCall(output=output, again=lambda: Call(call()[1]), seconds=seconds)


ENGINE = Engine("scipy", "SciPy", first_scipy_call, colour="{PLUGIN_COLOUR}")
'''


def write_distribution(folder, name, entry_points, module=None, code=""):
    """A distribution as pip leaves it in site-packages: its package and its dist-info."""
    info = folder / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: 0.1\n", encoding="utf-8"
    )
    lines = "".join(f"{key} = {value}\n" for key, value in entry_points.items())
    (info / "entry_points.txt").write_text(f"[blurapp.engines]\n{lines}", encoding="utf-8")
    if module is not None:
        package = folder / module
        package.mkdir()
        (package / "__init__.py").write_text(textwrap.dedent(code), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def plugin_folder(tmp_path_factory):
    return write_distribution(
        tmp_path_factory.mktemp("site-packages"),
        "blurapp_scipy_plugin",
        {"scipy": "blurapp_scipy_plugin:ENGINE"},
        module="blurapp_scipy_plugin",
        code=PLUGIN_CODE,
    )


@pytest.fixture(scope="module")
def broken_folder(tmp_path_factory):
    return write_distribution(
        tmp_path_factory.mktemp("broken-site-packages"),
        "blurapp_broken_plugin",
        {"broken": "blurapp_missing_module:ENGINE"},
    )


@pytest.fixture
def installed(plugin_folder, monkeypatch):
    """The SciPy plugin installed in this process, for this test only."""
    monkeypatch.syspath_prepend(str(plugin_folder))
    forget_plugins()
    yield
    forget_plugins()
    sys.modules.pop("blurapp_scipy_plugin", None)


def oracle(image, kernel):
    return correlate(image.astype(np.float64), kernel, mode="nearest")


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    path = tmp_path_factory.mktemp("photos") / "street.png"
    rng = np.random.default_rng(3)
    Image.fromarray(rng.integers(0, 256, (30, 45, 3), dtype=np.uint8)).save(path)
    return path


def blurapp(tmp_path, *args, folders):
    """`python -m blurapp ARGS…` with `folders` on its path, and folders of its own for settings,
    cache and log."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [*map(str, folders), *filter(None, [env.get("PYTHONPATH")])]
    )
    for variable in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env[variable] = str(tmp_path / variable.lower())
    return subprocess.run(
        [sys.executable, "-m", "blurapp", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


# --- The command line --------------------------------------------------------------------


def test_compare_times_the_plugin_engine_beside_numpy(tmp_path, plugin_folder, photo):
    run = blurapp(
        tmp_path, "compare", photo, "--engines", "numpy,scipy", "--json", folders=[plugin_folder]
    )
    assert run.returncode == 0, run.stderr
    scipy = json.loads(run.stdout)["scipy"]
    assert scipy["error"] is None and scipy["seconds"] > 0
    assert scipy["max_abs_diff"] <= TOLERANCE and scipy["within_tolerance"] is True
    assert scipy["speedup"] > 0
    # And in words: its row, under its title.
    table = blurapp(tmp_path, "compare", photo, "--engines", "numpy,scipy", folders=[plugin_folder])
    assert table.returncode == 0, table.stderr
    assert any(line.lstrip().startswith("SciPy") for line in table.stdout.splitlines())


def test_compare_without_the_plugin_does_not_know_it(tmp_path, photo):
    run = blurapp(tmp_path, "compare", photo, "--engines", "numpy,scipy", folders=[])
    assert run.returncode == 2 and "no engine called 'scipy'" in run.stderr


def test_blur_with_the_plugin_engine_writes_its_result(tmp_path, plugin_folder, photo):
    out = tmp_path / "blurred.npy"
    run = blurapp(
        tmp_path, "blur", photo, "-o", out, "--engine", "scipy", "--sigma", "2",
        folders=[plugin_folder],
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    expected = oracle(load_grayscale(photo), gaussian_kernel(9, 2.0))
    np.testing.assert_allclose(np.load(out), expected, atol=1e-5, rtol=0)


def test_batch_with_the_plugin_engine(tmp_path, plugin_folder, photo):
    out = tmp_path / "out"
    run = blurapp(
        tmp_path, "batch", photo, "--out-dir", out, "--format", "npy", "--engine", "scipy",
        "--json", folders=[plugin_folder],
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["done"] == 1
    expected = oracle(load_grayscale(photo), gaussian_kernel(9, 2.5))
    np.testing.assert_allclose(np.load(out / "street.npy"), expected, atol=1e-5, rtol=0)


BENCH = (
    "bench", "--sections", "engines", "--engines", "numpy,scipy", "--megapixels", "0.3",
    "--kernel-sizes", "9", "--algorithms", "2d", "--repeat", "3",
)  # fmt: skip


def test_bench_has_a_column_for_the_plugin_engine_in_its_table_and_json(tmp_path, plugin_folder):
    table = blurapp(tmp_path, *BENCH, folders=[plugin_folder])
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    headings, row = lines[2], lines[-1]
    assert "NumPy ms (IQR)" in headings and "scipy ms (IQR)" in headings
    assert "JAX" not in headings  # only the engines that ran
    # ms (IQR) each, the copy, each as a multiple of the copy, noisy
    assert len(row.split()) == len(["size", "MP", "kernel", "algorithm"]) + 2 * 2 + 1 + 2 + 1
    assert "scipy: SciPy" in lines[3]

    run = blurapp(tmp_path, *BENCH, "--json", folders=[plugin_folder])
    assert run.returncode == 0, run.stderr
    [result] = json.loads(run.stdout)["results"]
    assert result["scipy"]["seconds"] > 0 and result["scipy"]["max_abs_diff"] <= TOLERANCE
    assert len(result["scipy"]["repeat_seconds"]) == 3


def test_a_broken_plugin_is_one_warning_and_compare_still_works(
    tmp_path, plugin_folder, broken_folder, photo
):
    run = blurapp(
        tmp_path, "compare", photo, "--engines", "numpy,scipy", "--json",
        folders=[broken_folder, plugin_folder],
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    warnings = [line for line in run.stderr.splitlines() if "plugin" in line]
    assert len(warnings) == 1, run.stderr
    [warning] = warnings
    assert warning.startswith("WARNING: ")
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


# --- The registry, in this process -------------------------------------------------------


def test_the_plugin_is_discovered_once_and_forgotten_after(installed):
    assert engine_names()[-1] == "scipy" and engine_names()[:1] == ("numpy",)
    engine = get_engine("scipy")
    assert engine.title == "SciPy" and engine.chart_colour == PLUGIN_COLOUR
    assert get_engine("scipy") is engine  # not loaded again
    forget_plugins()
    sys.modules.pop("blurapp_scipy_plugin", None)
    assert "scipy" in engine_names()  # the next use found it again
    assert get_engine("scipy") is not engine


def test_plugins_that_cannot_be_registered_are_each_one_warning(tmp_path, monkeypatch, caplog):
    folder = write_distribution(
        tmp_path,
        "blurapp_odd_plugins",
        {
            "clash": "blurapp_odd_plugins:CLASH",
            "number": "blurapp_odd_plugins:NUMBER",
            "several": "blurapp_odd_plugins:several",
        },
        module="blurapp_odd_plugins",
        code="""
            from dataclasses import replace

            from blurapp.core.engines.numpy_engine import NUMPY

            CLASH = replace(NUMPY, title="Another NumPy")  # the name "numpy" is BlurApp's
            NUMBER = 42

            def several():
                return [replace(NUMPY, name="numpy-a", title="A"),
                        replace(NUMPY, name="numpy-b", title="B")]
        """,
    )
    monkeypatch.syspath_prepend(str(folder))
    forget_plugins()
    try:
        with caplog.at_level(logging.WARNING, logger="blurapp.core.engines"):
            names = engine_names()
        assert names[-2:] == ("numpy-a", "numpy-b")  # a function may give several engines
        assert get_engine("numpy").title == "NumPy"  # the built-in one stays
        warnings = [record.getMessage() for record in caplog.records]
        assert len(warnings) == 2, warnings
        clash, number = sorted(warnings)
        assert (
            "'clash = blurapp_odd_plugins:CLASH'" in clash and "'numpy' is BlurApp's own" in clash
        )
        assert "blurapp-odd-plugins 0.1" in clash
        assert "'number = blurapp_odd_plugins:NUMBER'" in number and "int" in number
        caplog.clear()
        engine_names()
        assert caplog.records == []  # found once: no second warning
    finally:
        monkeypatch.undo()  # the distribution leaves sys.path
        forget_plugins()
        sys.modules.pop("blurapp_odd_plugins", None)
    assert "numpy-a" not in engine_names()  # discovered again: it is gone


# --- The window ----------------------------------------------------------------------------


def run(qtbot, window):
    with qtbot.waitSignal(window.results_shown, timeout=RUN_TIMEOUT_MS) as shown:
        qtbot.mouseClick(window.run_button, Qt.MouseButton.LeftButton)
    return shown.args[0]


def test_the_window_times_shows_and_charts_the_plugin_engine(installed, make_window, qtbot):
    window = make_window()
    check = window.engine_checks["scipy"]
    assert check.text() == "SciPy" and not check.isChecked()
    check.click()
    result = run(qtbot, window)
    assert list(result.runs) == ["numpy", "jax", "scipy"]
    photo = window.session.photo
    expected = oracle(photo.gray, result.kernel)
    np.testing.assert_allclose(result.runs["scipy"].output, expected, atol=TOLERANCE, rtol=0)
    row = window.figures.value("SciPy")
    assert "NumPy's speed" in row and "within 1e-05" in row
    chart = window.figures.chart
    assert dict(chart.bars())["SciPy"] == pytest.approx(result.runs["scipy"].seconds)
    assert chart.colours()["SciPy"] == PLUGIN_COLOUR
    assert chart.colours()["NumPy"] != PLUGIN_COLOUR

    # A pane can show it.
    combo = window.right_pane.engine_combo
    assert combo.findData("scipy") >= 0
    combo.setCurrentIndex(combo.findData("scipy"))
    assert window.session.pane_engines == ["numpy", "scipy"]
    assert window.right_pane.caption_text().startswith("SciPy")

    # And the sweep opened from the window sweeps it, in its colour.
    from blurapp.ui.sweep_chart import engine_colour
    from blurapp.ui.sweep_window import SweepWindow

    window.sweep_action.trigger()
    [sweep] = [child for child in window.findChildren(SweepWindow) if child.isVisible()]
    assert "scipy" in sweep.engines
    assert engine_colour("scipy").name() == PLUGIN_COLOUR


def test_the_sweep_times_the_plugin_engine_at_every_size(installed, qtbot, tmp_path):
    from qt_helpers import photo_file

    from blurapp.core.photo import load_photo
    from blurapp.core.spec import BlurSpec
    from blurapp.ui.sweep_window import SweepWindow

    photo = load_photo(photo_file(tmp_path, size=(60, 40)))
    sweep = SweepWindow(photo, BlurSpec(kernel_size=3, sigma=1.0), ("numpy", "scipy"), repeats=1)
    qtbot.addWidget(sweep)
    sweep.max_spin.setValue(0.1)
    sweep.show()
    try:
        with qtbot.waitSignal(sweep.sweep_finished, timeout=RUN_TIMEOUT_MS) as finished:
            qtbot.mouseClick(sweep.run_button, Qt.MouseButton.LeftButton)
        points = finished.args[0]
        assert len(points) == 2 and all(point.seconds["scipy"] > 0 for point in points)
        assert [mp for mp, _ in sweep.chart.series()["scipy"]] == [p.megapixels for p in points]
        assert [r for _, r in sweep.chart.speedup_series()["scipy"]] == [
            p.speedups["scipy"] for p in points
        ]
    finally:
        sweep.close()
