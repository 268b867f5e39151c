"""Every registered engine against an independent oracle: scipy's edge-padded correlation."""

from dataclasses import replace

import numpy as np
import pytest
from helpers.blur_inputs import random_image
from helpers.engine_calls import first_output
from helpers.oracle import blur_oracle
from helpers.tpu_runtime import seem_to_have_libtpu

from blurapp.core import (
    TOLERANCE,
    BlurCancelled,
    blur_jax,
    blur_numpy,
    compare_engines,
    engine_names,
    gaussian_kernel,
    get_engine,
)
from blurapp.core import engines as registry
from blurapp.core.engines import pallas_engine
from blurapp.core.engines.jax_runtime import describe_device, jax_device
from blurapp.core.engines.pallas_engine import JAX_PALLAS, compiled_here
from blurapp.core.measuring.comparison import TIMING, Watch
from blurapp.core.platforms import jax_opens_a_tpu
from blurapp.core.spec import BlurSpec

# Run where the accelerator is: `pytest -m accelerator` (docs/contributing.md).
pytestmark = pytest.mark.accelerator

ENGINES = engine_names()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("shape", [(1, 1), (3, 5), (4, 6), (5, 3), (40, 17), (473, 716)])
@pytest.mark.parametrize("sigma", [0.7, 2.5, 6.0])
def test_engine_matches_scipy_on_many_shapes(engine, shape, sigma):
    # (1, 1), (3, 5), (4, 6) and (5, 3) are all smaller than the 9 × 9 kernel.
    image = random_image(shape, seed=sum(shape))
    kernel = gaussian_kernel(9, sigma)
    output = first_output(engine, image, kernel)
    assert output.dtype == np.float32
    assert output.shape == shape
    np.testing.assert_allclose(output, blur_oracle(image, kernel), rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("size", range(1, 32, 2))
def test_engine_matches_scipy_for_every_kernel_size(engine, size):
    image = random_image((37, 23), seed=size)
    kernel = gaussian_kernel(size, 0.3 * size + 0.5)
    np.testing.assert_allclose(
        first_output(engine, image, kernel), blur_oracle(image, kernel), rtol=0, atol=TOLERANCE
    )


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_large_non_square_image_with_a_large_kernel(engine):
    image = random_image((473, 716), seed=7)
    kernel = gaussian_kernel(31, 5.0)
    np.testing.assert_allclose(
        first_output(engine, image, kernel), blur_oracle(image, kernel), rtol=0, atol=TOLERANCE
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_kernel_of_size_one_returns_the_image(engine):
    image = random_image((12, 9))
    np.testing.assert_array_equal(first_output(engine, image, gaussian_kernel(1, 2.0)), image)


def test_engines_agree_with_each_other():
    image = random_image((120, 80), seed=3)
    kernel = gaussian_kernel(15, 3.0)
    difference = np.abs(blur_numpy(image, kernel) - blur_jax(image, kernel)).max()
    assert difference <= TOLERANCE


def test_numpy_engine_reports_progress_for_every_tap():
    seen = []
    blur_numpy(
        random_image((10, 10)), gaussian_kernel(3, 1.0), progress=lambda d, t: seen.append((d, t))
    )
    assert seen == [(i, 9) for i in range(1, 10)]


def test_numpy_engine_stops_between_taps_when_cancelled():
    checks = []

    def cancelled():
        checks.append(1)
        return len(checks) > 5

    with pytest.raises(BlurCancelled):
        blur_numpy(random_image((10, 10)), gaussian_kernel(9, 2.0), cancelled=cancelled)
    assert len(checks) == 6  # the pad's check and four taps, the sixth check stopped it


def test_numpy_engine_asked_to_stop_while_it_pads_stops_before_its_first_tap(monkeypatch):
    # A large photo's pad is made a block of rows at a time, the request to stop looked at
    # before each: a live preview's next change need not wait for the whole pad.
    from blurapp.core.engines import numpy_engine

    taps, checks = [], []
    monkeypatch.setattr(numpy_engine, "_add_slices_into", lambda *args: taps.append(args))

    def cancelled():
        checks.append(1)
        return len(checks) > 1

    photo = random_image((3 * numpy_engine.PAD_BLOCK_ROWS, 10))
    with pytest.raises(BlurCancelled):
        blur_numpy(photo, gaussian_kernel(9, 2.0), cancelled=cancelled)
    assert taps == [] and len(checks) == 2


def test_comparison_figures_are_separate_and_consistent():
    image = random_image((200, 300), seed=11)
    result = compare_engines(image, BlurSpec(kernel_size=9, sigma=2.5), repeats=4)
    kernel = gaussian_kernel(9, 2.5)
    expected = blur_oracle(image, kernel)
    np.testing.assert_allclose(result.reference_run.output, expected, atol=TOLERANCE, rtol=0)
    np.testing.assert_allclose(result.jit_run.output, expected, atol=TOLERANCE, rtol=0)
    assert result.max_abs_diff == pytest.approx(
        float(np.abs(result.reference_run.output.astype(np.float64) - result.jit_run.output).max())
    )
    assert result.within_tolerance
    assert len(result.jit_run.repeat_seconds) == 4
    assert result.jit_run.seconds == pytest.approx(float(np.median(result.jit_run.repeat_seconds)))
    # JAX's default device, in words: "cpu", or an accelerator's platform and name.
    assert result.jit_run.device == describe_device(jax_device())
    for seconds in (
        result.reference_run.seconds,
        result.jit_run.first_call_seconds,
        result.jit_run.seconds,
        result.jit_run.to_device_seconds,
        result.jit_run.from_device_seconds,
    ):
        assert seconds > 0
    # --repeat 4: one call of each engine in each of 4 rounds, divided round by round.
    by_round = np.divide(result.reference_run.repeat_seconds, result.jit_run.repeat_seconds)
    assert result.speedup == pytest.approx(float(np.median(by_round)))


@pytest.mark.slow
def test_a_new_sigma_reuses_the_compiled_blur_and_a_new_size_compiles():
    image = random_image((61, 47), seed=5)
    first = compare_engines(image, BlurSpec(kernel_size=11, sigma=1.5))
    again = compare_engines(image, BlurSpec(kernel_size=11, sigma=3.5))
    other_size = compare_engines(image, BlurSpec(kernel_size=13, sigma=3.5))
    assert first.jit_run.compiled
    assert not again.jit_run.compiled
    assert other_size.jit_run.compiled
    # The reused program really used the new weights.
    np.testing.assert_allclose(
        again.jit_run.output, blur_oracle(image, gaussian_kernel(11, 3.5)), atol=TOLERANCE, rtol=0
    )


def test_a_jax_failure_is_reported_and_numpy_still_runs(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("RESOURCE_EXHAUSTED: out of memory on the device")

    monkeypatch.setitem(registry._registry, "jax", replace(get_engine("jax"), first_call=broken))
    result = compare_engines(random_image((20, 20)))
    assert result.jit_run is None
    assert "out of memory" in result.jit_error
    assert result.reference_run is not None and result.max_abs_diff is None


def test_jax_run_stops_between_steps_when_cancelled():
    steps = []

    def cancelled():
        steps.append(1)
        return len(steps) >= 3  # before the first call, after it, before the warm-up call

    with pytest.raises(BlurCancelled):
        get_engine("jax").blur(
            random_image((16, 16)), gaussian_kernel(3, 1.0), repeats=5, cancelled=cancelled
        )
    assert len(steps) == 3


def test_difference_picture_makes_the_largest_difference_white():
    from blurapp.core import difference_picture

    a = np.zeros((2, 3), np.float32)
    b = a.copy()
    b[0, 1] = 2e-7
    b[1, 2] = -1e-7
    picture, largest = difference_picture(a, b)
    assert largest == pytest.approx(2e-7)
    assert picture.dtype == np.uint8
    assert picture.tolist() == [[0, 255, 0], [0, 0, 128]]
    same, zero = difference_picture(a, a)
    assert zero == 0 and not same.any()


@pytest.mark.slow
def test_compare_reports_each_engine_as_it_finishes():
    done = []

    class Following(Watch):
        def engine_done(self, engine, run, error):
            done.append((engine, run is not None, error))

    compare_engines(random_image((8, 8)), watch=Following())
    assert done == [("numpy", True, None), ("jax", True, None)]


def test_compare_tells_its_watch_each_step_and_stops_when_the_watch_says_so():
    seen = []

    class Following(Watch):
        def progress(self, step, done, total):
            seen.append(("progress", step))

        def output(self, engine, run):
            seen.append(("output", engine, run.output.shape))

        def engine_done(self, engine, run, error):
            seen.append(("done", engine, run.seconds > 0, error))

    compare_engines(random_image((16, 16)), engines=["numpy"], repeats=2, watch=Following())
    assert seen[0] == ("progress", "numpy")  # its taps
    assert seen.index(("output", "numpy", (16, 16))) < seen.index(("progress", TIMING))
    assert seen[-1] == ("done", "numpy", True, None)
    with pytest.raises(BlurCancelled):
        compare_engines(random_image((16, 16)), engines=["numpy"], watch=Watch(lambda: True))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("shape", [(1, 1), (3, 5), (40, 17), (473, 716)])
@pytest.mark.parametrize("size", [1, 3, 9, 25, 31])
def test_separable_engine_matches_scipy(engine, shape, size):
    from blurapp.core import gaussian_kernel_1d

    image = random_image(shape, seed=size)
    sigma = 0.3 * size + 0.5
    output = first_output(engine, image, gaussian_kernel_1d(size, sigma))
    assert output.dtype == np.float32 and output.shape == shape
    # The oracle gets the 2-D kernel: separable must give the same 2-D blur.
    np.testing.assert_allclose(
        output, blur_oracle(image, gaussian_kernel(size, sigma)), rtol=0, atol=TOLERANCE
    )


def test_the_2d_kernel_is_the_outer_product_of_the_1d_one():
    from blurapp.core import gaussian_kernel_1d

    for size, sigma in [(1, 1.0), (9, 2.5), (31, 6.0)]:
        row = gaussian_kernel_1d(size, sigma)
        assert row.shape == (size,) and row.dtype == np.float32
        assert float(row.sum(dtype=np.float64)) == pytest.approx(1.0, abs=1e-6)
        np.testing.assert_allclose(
            np.outer(row, row), gaussian_kernel(size, sigma), rtol=1e-6, atol=1e-9
        )


@pytest.mark.slow
def test_separable_and_2d_comparisons_agree():
    image = random_image((300, 200), seed=9)
    two_d = compare_engines(image, BlurSpec(kernel_size=15, sigma=3.0))
    separable = compare_engines(image, BlurSpec(kernel_size=15, sigma=3.0, algorithm="separable"))
    assert separable.algorithm == "separable" and separable.kernel_size == 15
    for a, b in [
        (two_d.reference_run, separable.reference_run),
        (two_d.jit_run, separable.jit_run),
    ]:
        assert np.abs(a.output - b.output).max() <= TOLERANCE
    assert separable.max_abs_diff <= TOLERANCE


def test_numpy_separable_reports_two_k_taps():
    from blurapp.core import gaussian_kernel_1d

    seen = []
    blur_numpy(
        random_image((6, 6)), gaussian_kernel_1d(5, 1.0), progress=lambda d, t: seen.append((d, t))
    )
    assert seen == [(i, 10) for i in range(1, 11)]


@pytest.mark.parametrize("engine", ENGINES)
def test_large_kernels_take_the_looped_path_and_stay_exact(engine):
    # 17 × 17 = 289 taps: beyond the JAX engine's unrolling limit.
    image = random_image((64, 48), seed=17)
    kernel = gaussian_kernel(17, 4.0)
    np.testing.assert_allclose(
        first_output(engine, image, kernel), blur_oracle(image, kernel), rtol=0, atol=TOLERANCE
    )


def test_jax_running_out_of_memory_is_told_apart(monkeypatch, caplog):
    from blurapp.core.engines.jax_engine import compiled_blurs
    from blurapp.core.engines.runs import Compilation
    from blurapp.core.measuring import comparison

    def out_of_memory(*_arrays):
        raise RuntimeError("RESOURCE_EXHAUSTED: Out of memory while trying to allocate 4.0GiB")

    monkeypatch.setattr(
        compiled_blurs,
        "get_in_stages",
        lambda *shapes, **_options: (out_of_memory, Compilation.FROM_CACHE, None),
    )
    result = comparison.compare_engines(
        np.zeros((4, 4), np.float32), BlurSpec(kernel_size=3, sigma=1.0)
    )
    assert result.reference_run is not None and result.jit_run is None
    assert result.jit_error.startswith("JAX-jit ran out of memory for this photo")
    assert "compiling it again" not in caplog.text


@pytest.mark.parametrize("channels", [1, 3])
@pytest.mark.parametrize("algorithm", ["2d", "separable"])
def test_the_gpus_one_pass_formulation_matches_scipy_too(algorithm, channels):
    # On an accelerator every kernel runs in one pass over the image instead of strips (a 2-D
    # kernel's rows a loop): check that formulation here on the CPU, as no accelerator may be
    # there to run it.
    import jax

    from blurapp.core.engines.jax_program import blur
    from blurapp.core.kernel import kernel_for

    planes = [random_image((300, 70), seed=9 + plane) for plane in range(channels)]
    image = planes[0] if channels == 1 else np.stack(planes, axis=2)  # taller than a strip
    weights = kernel_for(algorithm, 25, 6.0)
    one_pass = np.asarray(
        jax.jit(blur, static_argnames="in_strips")(image, weights, in_strips=False)
    )
    assert one_pass.shape == (300, 70 * channels)  # rows of values, reshaped by the caller
    for plane, blurred in zip(
        planes, np.moveaxis(one_pass.reshape(300, 70, -1), 2, 0), strict=True
    ):
        expected = blur_oracle(plane, gaussian_kernel(25, 6.0))
        np.testing.assert_allclose(blurred, expected, atol=TOLERANCE, rtol=0)


# The CPU's separable blur runs strip by strip in a loop, its row pass kept apart from its column
# pass: heights that make the last strip end past the image, a strip boundary inside a kernel's
# reach, colour pixels of 3 and 4 values, a kernel of one tap, and one reaching past a strip.
@pytest.mark.parametrize("shape", [(65, 30), (131, 17), (97, 41, 3), (70, 9, 4)])
@pytest.mark.parametrize("size", [1, 3, 9, 31, 41])
def test_the_cpus_separable_blur_strip_by_strip_matches_scipy(shape, size):
    import jax

    from blurapp.core.engines.jax_program import blur
    from blurapp.core.kernel import gaussian_kernel_1d

    image = np.random.default_rng(size).random(shape, dtype=np.float32)
    weights = gaussian_kernel_1d(size, 4.0)
    in_strips = np.asarray(jax.jit(blur, static_argnames="in_strips")(image, weights))
    assert in_strips.shape == (shape[0], np.prod(shape[1:]))  # rows of values
    np.testing.assert_allclose(
        in_strips.reshape(shape), blur_oracle(image, weights), atol=TOLERANCE, rtol=0
    )


# The reference NumPy engine adds the shifted slices a block of rows at a time; the tutorial's
# loop (numpy-loop) one pass over the image per tap. The same taps in the same order.
@pytest.mark.parametrize("shape", [(64, 30), (65, 30), (200, 97), (150, 41, 3)])
@pytest.mark.parametrize("algorithm", ["2d", "separable"])
def test_the_blocked_numpy_engine_sums_exactly_what_the_tutorials_loop_sums(shape, algorithm):
    from blurapp.core.engines.numpy_engine import BLOCK_ROWS, blur_numpy_loop
    from blurapp.core.kernel import kernel_for

    assert shape[0] >= BLOCK_ROWS  # one block, and one row more, and several
    image = np.random.default_rng(5).random(shape, dtype=np.float32)
    kernel = kernel_for(algorithm, 9, 2.0)
    blocked = blur_numpy(image, kernel)
    np.testing.assert_array_equal(blocked, blur_numpy_loop(image, kernel))
    assert np.abs(blocked - blur_oracle(image, kernel)).max() <= TOLERANCE


def test_the_blocked_numpy_engine_reports_each_whole_tap_once_over_many_blocks():
    seen = []
    blur_numpy(
        random_image((300, 20)), gaussian_kernel(3, 1.0), progress=lambda d, t: seen.append((d, t))
    )
    assert seen == [(i, 9) for i in range(1, 10)]


def test_the_blocked_numpy_engine_stops_between_taps_of_a_block_when_cancelled():
    checks = []

    def cancelled():
        checks.append(1)
        return len(checks) > 100  # in the second block of 81 taps

    with pytest.raises(BlurCancelled):
        blur_numpy(random_image((300, 20)), gaussian_kernel(9, 2.0), cancelled=cancelled)
    assert len(checks) == 101


def test_the_tutorials_loop_is_its_own_engine_beside_the_reference():
    loop = get_engine("numpy-loop")
    assert loop.title == "NumPy, tutorial loop" and not loop.uses_jax
    assert registry.REFERENCE_ENGINE == "numpy"
    result = compare_engines(random_image((70, 40)), engines=["numpy", "numpy-loop"], repeats=2)
    assert result.differences["numpy-loop"] == 0.0


def test_a_preview_comparison_works_out_the_difference_only_when_asked(monkeypatch):
    """The window's live preview (one call each, repeats=0) never shows the difference, and
    the next change of the slider waited for it: it is worked out when first read."""
    from blurapp.core.measuring import comparison

    worked_out = []
    real = comparison.max_abs_difference

    def counted(a, b):
        worked_out.append(1)
        return real(a, b)

    monkeypatch.setattr(comparison, "max_abs_difference", counted)
    image = np.random.default_rng(3).random((40, 30), dtype=np.float32)
    result = compare_engines(
        image, BlurSpec(kernel_size=5, sigma=1.2), repeats=0, engines=("numpy", "jax")
    )
    assert worked_out == []
    outputs = {name: run.output for name, run in result.runs.items()}
    expected = float(np.max(np.abs(outputs["jax"].astype(np.float64) - outputs["numpy"])))
    assert result.differences == {"jax": pytest.approx(expected, abs=0)}
    oracle = blur_oracle(image, gaussian_kernel(5, 1.2))
    for output in outputs.values():
        np.testing.assert_allclose(output, oracle, atol=TOLERANCE)
    assert result.max_abs_diff == result.differences["jax"]
    assert len(worked_out) == 1  # once, then kept


def test_an_engine_that_calls_sys_exit_is_that_engines_failure():
    import sys

    from blurapp.core.engines import Engine

    exits = Engine("exits", "Exits", lambda image, kernel, **_: sys.exit(3))
    result = compare_engines(np.zeros((8, 8), np.float32), engines=["numpy", exits], repeats=1)
    assert (
        "numpy" in result.runs and "the exits engine called sys.exit(3)" in result.errors["exits"]
    )


def test_wide_float_outputs_are_checked_without_overflowing():
    from blurapp.core.engines import get_engine
    from blurapp.core.engines.engine import EngineOutputError, check_output

    engine = get_engine("numpy")
    huge = np.full((4, 4), 1e308)
    assert check_output(engine, huge, (4, 4)) is huge
    huge[1, 1] = np.inf
    with pytest.raises(EngineOutputError, match="holding infinity"):
        check_output(engine, huge, (4, 4))


@pytest.mark.parametrize(
    ("name", "steady", "first_call", "heading", "key"),
    [
        ("numpy", "#4c72b0", "#8c8c8c", "NumPy", "numpy"),
        ("numpy-loop", "#8da0cb", "#ccb974", "loop", "numpy_loop"),
        ("jax", "#55a868", "#dd8452", "JAX", "jax"),
        ("jax-eager", "#da8bc3", "#ccb974", "eager", "jax_eager"),
        # On a platform of its own: its steady bar told apart, its first call and heading kept.
        ("jax@gpu", "#937860", "#dd8452", "JAX", "jax_gpu"),
        ("jax-eager@cpu", "#c44e52", "#ccb974", "eager", "jax_eager_cpu"),
    ],
)
def test_each_engine_keeps_its_chart_colours_bench_heading_and_json_key(
    name, steady, first_call, heading, key
):
    from blurapp.bench.report import column_label
    from blurapp.core.measuring.comparison import json_key
    from blurapp.core.report.chart_bars import chart_colour, first_call_colour

    engine = get_engine(name)
    assert (chart_colour(engine), first_call_colour(engine)) == (steady, first_call)
    assert column_label(engine) == heading and json_key(engine.name) == key


@pytest.mark.parametrize(
    ("libtpu", "platforms", "expected"),
    [
        (True, None, True),
        (True, "", True),
        (True, "tpu", True),
        (True, "tpu,cpu", True),
        (True, "TPU", False),  # JAX knows no platform "TPU"
        (True, "cpu", False),
        (True, "cpu,tpu", True),  # opened too, though not the default
        (True, "gpu", False),
        (False, None, False),
        (False, "tpu", False),
    ],
)
def test_a_tpu_that_jax_will_open_is_known_before_jax_is_imported(
    monkeypatch, libtpu, platforms, expected
):
    monkeypatch.setattr(pallas_engine, "default_device_opened", lambda: None)  # not yet
    seem_to_have_libtpu(monkeypatch, libtpu)
    if platforms is None:
        monkeypatch.delenv("JAX_PLATFORMS", raising=False)
    else:
        monkeypatch.setenv("JAX_PLATFORMS", platforms)
    assert jax_opens_a_tpu() is expected
    assert compiled_here() is expected  # JAX Pallas is compiled wherever JAX opens a TPU


def test_once_jax_has_opened_its_device_pallas_is_compiled_only_if_that_is_a_tpu(monkeypatch):
    """A process that set JAX_PLATFORMS after JAX had opened its device (the suite's own on a
    TPU machine) computes on the device opened, whatever the variable says now."""
    opened = jax_device()
    seem_to_have_libtpu(monkeypatch, True)
    monkeypatch.delenv("JAX_PLATFORMS", raising=False)
    assert jax_opens_a_tpu()
    assert compiled_here() is (opened.platform == "tpu")
    assert (JAX_PALLAS.shown.caveat() is None) is (opened.platform == "tpu")
