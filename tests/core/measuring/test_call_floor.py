"""The call floor: an empty jitted call on a tiny array, waited for, timed with the engines;
each engine's time as a multiple of it, and a figure that is mostly the call says the photo is
too small for the device to matter."""

import numpy as np
import pytest

from blurapp.core import compare_engines
from blurapp.core.engines.jax_calls import first_jax_empty_call
from blurapp.core.engines.jax_runtime import describe_device, jax_device
from blurapp.core.engines.runs import EngineRun
from blurapp.core.measuring.comparison import ComparisonResult, comparison_dict
from blurapp.core.measuring.floors import MOSTLY_THE_CALL, CallFloor, mostly_the_call
from blurapp.core.report.figures import comparison_figures, device_name

# Run where the accelerator is: `pytest -m accelerator` (docs/contributing.md).
pytestmark = pytest.mark.accelerator

TPU = "tpu: TPU v5 lite"


def result_on(device: str, jax_seconds: float, call_seconds: float) -> ComparisonResult:
    """NumPy on the CPU (10 ms) and JAX-jit on `device`, with `device`'s call floor."""
    runs = {
        "numpy": EngineRun(np.zeros((4, 4), np.float32), (0.01,) * 3),
        "jax": EngineRun(np.zeros((4, 4), np.float32), (jax_seconds,) * 3, device=device),
    }
    floors = (CallFloor(device, call_seconds, (call_seconds, call_seconds), 3),)
    return ComparisonResult(kernel=np.ones((3, 3), np.float32), sigma=1.0, runs=runs,
                            call_floors=floors)  # fmt: skip


def test_the_rule_is_a_steady_time_within_twice_the_call():
    floor = CallFloor(TPU, 0.00055, (0.0005, 0.0006), 9)
    assert MOSTLY_THE_CALL == 2.0
    assert mostly_the_call(0.00064, floor) and mostly_the_call(0.0011, floor)
    assert not mostly_the_call(0.0012, floor)
    assert not mostly_the_call(0.0001, None)


def test_a_blur_that_is_mostly_the_call_says_the_photo_is_too_small_for_the_device():
    # The bundled photo on a TPU v5e: JAX-jit 0.64 ms, an empty call 0.55 ms.
    result = result_on(TPU, 0.00064, 0.00055)
    assert result.mostly_the_call("jax") and not result.mostly_the_call("numpy")
    assert result.call_floor_of("numpy") is None  # NumPy's calls are not jitted calls
    assert result.call_floor_multiple_of("jax") == pytest.approx(0.64 / 0.55)
    rows = {row.key: row for row in comparison_figures(result, "photo.png", 4, 4)}
    assert rows["call"].value == pytest.approx(0.00055)
    assert rows["call"].text.startswith("0.550 ms on tpu: TPU v5 lite (an empty jitted call")
    assert rows["vs_call"].text == (
        "JAX-jit 1.2×: the time of an empty call (this photo is too small for the TPU v5 lite "
        "to matter: the time is the call itself)"
    )
    data = comparison_dict(result)
    assert data["call_floors"][TPU]["seconds"] == pytest.approx(0.00055)
    assert data["jax"]["call_floor_multiple"] == pytest.approx(0.64 / 0.55)
    assert data["jax"]["mostly_the_call"] is True
    assert data["numpy"]["call_floor_seconds"] is None and data["numpy"]["mostly_the_call"] is False


def test_a_blur_well_above_the_call_says_nothing_of_it():
    result = result_on(TPU, 0.0109, 0.00055)  # 24 MP 2-D on the TPU: 10.9 ms
    assert not result.mostly_the_call("jax")
    rows = {row.key: row for row in comparison_figures(result, "photo.png", 4, 4)}
    assert rows["vs_call"].text == "JAX-jit 20×: the time of an empty call"


@pytest.mark.parametrize(
    ("device", "name"),
    [(TPU, "the TPU v5 lite"), ("gpu: NVIDIA H200", "the NVIDIA H200"), ("cpu", "the CPU")],
)
def test_a_device_is_named_by_its_own_name_in_a_sentence(device, name):
    assert device_name(device) == name


def test_the_empty_call_runs_on_jaxs_device_and_is_timed_until_ready():
    first = first_jax_empty_call(None)
    assert first.device == describe_device(jax_device())
    assert first.seconds > 0 and first.again().seconds > 0
    assert first_jax_empty_call("cpu").device == "cpu"


def test_a_comparison_times_the_call_floor_of_jaxs_device_with_the_engines():
    result = compare_engines(np.zeros((30, 20), np.float32), engines=["numpy", "jax"], repeats=3)
    assert [floor.device for floor in result.call_floors] == [result.runs["jax"].device]
    assert result.call_floors[0].samples == 3 and result.call_floors[0].seconds > 0
    assert result.call_floor_of("jax") is result.call_floors[0]
    # No JAX engine, no call floor.
    assert (
        compare_engines(np.zeros((30, 20), np.float32), engines=["numpy"], repeats=2).call_floors
        == ()
    )
