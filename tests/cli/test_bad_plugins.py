"""A plugin engine's bad output is that engine's failure, named with its package, and a plugin that
exits or prints while it loads changes nothing of a command's own: its exit, its stdout."""

import json

import numpy as np
import pytest
from helpers.plugin import blurapp_with as blurapp
from helpers.plugin import write_distribution
from PIL import Image

BAD_ENGINES = """
import numpy as np

from blurapp.core.engines import Engine
from blurapp.core.engines.runs import Call, FirstCall


def _engine(name, spoil):
    def first_call(image, kernel, *, platform, progress, cancelled):
        output = spoil(np.array(image, dtype=np.float32))
        return FirstCall(output=output, again=lambda: Call(0.001), seconds=0.001)

    return Engine(name, name.title(), first_call)


def _with_nan(output):
    output[0, 0] = np.nan
    return output


WRONG_SHAPE = _engine("wrongshape", lambda output: output[:-1])
NAN = _engine("nan", _with_nan)
"""


@pytest.fixture(scope="module")
def bad_plugins(tmp_path_factory):
    folder = tmp_path_factory.mktemp("site-packages")
    write_distribution(folder, "blurapp_bad_engines",
                       {"wrongshape": "blurapp_bad:WRONG_SHAPE", "nan": "blurapp_bad:NAN"},
                       module="blurapp_bad", code=BAD_ENGINES)  # fmt: skip
    write_distribution(folder, "blurapp_exiting", {"exiting": "blurapp_exiting:ENGINE"},
                       module="blurapp_exiting", code="import sys\nsys.exit('goodbye')\n")  # fmt: skip
    write_distribution(folder, "blurapp_chatty", {"chatty": "blurapp_chatty:ENGINE"},
                       module="blurapp_chatty", code="print('*** chatty plugin 1.0 ***')\n")  # fmt: skip
    return folder


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    folder = tmp_path_factory.mktemp("photos")
    rng = np.random.default_rng(5)
    for name in ("a.png", "b.png"):
        Image.fromarray(rng.integers(0, 256, (30, 40), dtype=np.uint8)).save(folder / name)
    return folder


def _strict(text):
    def refuse(constant):
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_compare_reports_bad_outputs_as_those_engines_failures_in_strict_json(
    tmp_path, bad_plugins, photos
):
    run = blurapp(tmp_path, "compare", photos / "a.png", "--engines", "numpy,wrongshape,nan",
                  "--json", folders=[bad_plugins])  # fmt: skip
    assert run.returncode == 0, run.stderr
    result = _strict(run.stdout)  # nothing the plugins printed, no NaN
    shape = result["wrongshape"]["error"]
    assert "wrongshape engine (from blurapp-bad-engines 0.1)" in shape and "29 × 40" in shape
    assert "30 × 40" in shape
    assert "holding NaN" in result["nan"]["error"]
    assert result["numpy"]["error"] is None
    assert "Traceback" not in run.stderr
    # The plugin that exits while loading and the one that prints: one warning each.
    assert "'exiting = blurapp_exiting:ENGINE' of blurapp-exiting 0.1" in run.stderr
    assert "sys.exit('goodbye')" in run.stderr
    assert "*** chatty plugin 1.0 ***" in run.stderr


def test_blur_with_an_engine_giving_the_wrong_shape_fails_and_writes_nothing(
    tmp_path, bad_plugins, photos
):
    output = tmp_path / "out.png"
    run = blurapp(tmp_path, "blur", photos / "a.png", "-o", output, "--engine", "wrongshape",
                  folders=[bad_plugins])  # fmt: skip
    assert run.returncode == 1
    assert "error:" in run.stderr and "(from blurapp-bad-engines 0.1)" in run.stderr
    assert "Traceback" not in run.stderr
    assert not output.exists()


@pytest.mark.extra("scale")
def test_a_batch_with_a_bad_engine_lists_every_photo_and_prints_its_summary(
    tmp_path, bad_plugins, photos
):
    out = tmp_path / "out"
    run = blurapp(tmp_path, "batch", photos, "--out-dir", out, "--engine", "wrongshape",
                  "--workers", "1", "--json", folders=[bad_plugins])  # fmt: skip
    assert "Traceback" not in run.stderr, run.stderr
    summary = _strict(run.stdout)
    failed = json.dumps(summary)
    assert "a.png" in failed and "b.png" in failed and "blurapp-bad-engines 0.1" in failed
    assert run.returncode != 0
    assert not list(out.glob("*.png"))


def test_a_plugin_that_exits_or_prints_while_loading_leaves_numpy_commands_alone(
    tmp_path, bad_plugins, photos
):
    output = tmp_path / "out.png"
    run = blurapp(tmp_path, "blur", photos / "a.png", "-o", output, "--engine", "numpy",
                  folders=[bad_plugins])  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert output.exists()
    assert "goodbye" not in run.stderr and "chatty" not in run.stdout + run.stderr
