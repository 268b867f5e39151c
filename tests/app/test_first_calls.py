"""JAX-jit's first call as the window shows it: the session keeps what each program's first
call cost and who paid it (the live preview, a Run, the sweep), and the figures, chart and
captions show that cost with where it was paid. And the live preview's zero-padded kernels."""

import numpy as np
import pytest
from helpers.oracle import blur_oracle
from helpers.session import session_with_photo

from blurapp.app.captions import RIGHT
from blurapp.app.first_calls import FirstCalls, Program
from blurapp.core.engines.runs import Compilation, EngineRun, PaidFirstCall, Payer
from blurapp.core.kernel import (
    PREVIEW_KERNEL_SIZES,
    kernel_for,
    pad_kernel,
    preview_kernel_size,
)
from blurapp.core.measuring.comparison import ComparisonResult
from blurapp.core.report.chart_bars import timing_bars
from blurapp.core.report.figures import comparison_figures
from blurapp.core.spec import BlurSpec


def jax_run(first, compilation, steady=0.172):
    return EngineRun(
        output=np.zeros((4, 6), np.float32),
        repeat_seconds=(steady, steady, steady),
        device="cpu",
        first_call_seconds=first,
        compilation=compilation,
    )


def numpy_run():
    return EngineRun(output=np.zeros((4, 6), np.float32), repeat_seconds=(1.5,))


def play(session, runs, *, live=False):
    """Play a run (or a live preview) through the session as the worker reports it."""
    plan = session.start_live_preview() if live else session.start_run()
    for engine, run in runs.items():
        session.engine_done(engine, run, None, picture=f"picture of {engine}")
    result = ComparisonResult(
        kernel=np.ones((plan.parameters.size,) * 2, np.float32),
        sigma=plan.parameters.sigma,
        runs=runs,
    )
    session.run_done(result)
    return result


@pytest.fixture
def session():
    return session_with_photo()


def test_a_run_after_the_preview_shows_what_the_preview_paid(session):
    play(session, {"jax": jax_run(1.234, Compilation.COMPILED)}, live=True)
    result = play(
        session, {"numpy": numpy_run(), "jax": jax_run(0.0525, Compilation.REUSED)}, live=False
    )
    paid = session.paid_first_calls()
    assert paid == {"jax": PaidFirstCall(1.234, Compilation.COMPILED, Payer.LIVE_PREVIEW)}
    rows = {row.key: row for row in comparison_figures(result, "street.png", 6, 4, paid=paid)}
    first = rows["jit.first_call"].text
    assert rows["jit.first_call"].value == 1.234 and rows["jit.first_call"].figure == "1,234 ms"
    assert first.startswith("1,234 ms, compiled during the live preview"), first
    assert "52.5 ms (already compiled)" in first  # this Run's own, said to be no compile
    caption = session.captions.caption(RIGHT).text()
    assert "first call 1,234 ms, compiled during the live preview" in caption, caption
    # The chart's first-call bar is the cost paid, named by who paid it: never shorter than
    # steady without the reason.
    bars = {bar.label: bar.seconds for bar in timing_bars(result, paid)}
    assert bars["JAX first call (live preview)"] == 1.234 and "JAX first call" not in bars


def test_a_run_that_compiles_shows_its_own_first_call(session):
    result = play(session, {"numpy": numpy_run(), "jax": jax_run(0.927, Compilation.COMPILED)})
    assert session.paid_first_calls() == {}
    rows = comparison_figures(result, "street.png", 6, 4, paid=session.paid_first_calls())
    assert {row.key: row.text for row in rows}["jit.first_call"] == "927 ms (includes compilation)"
    # A second Run finds it compiled: the first Run paid.
    again = play(session, {"numpy": numpy_run(), "jax": jax_run(0.05, Compilation.REUSED)})
    paid = session.paid_first_calls()
    rows = {row.key: row.text for row in comparison_figures(again, "street.png", 6, 4, paid=paid)}
    assert rows["jit.first_call"].startswith("927 ms, compiled during an earlier Run")
    assert [bar.label for bar in timing_bars(again, paid)][1] == "JAX first call (earlier Run)"


def test_another_program_is_not_paid_for_by_this_one(session):
    play(session, {"jax": jax_run(1.234, Compilation.COMPILED)}, live=True)
    session.set_parameters(BlurSpec(kernel_size=11))  # another kernel size: another program
    result = play(session, {"numpy": numpy_run(), "jax": jax_run(0.05, Compilation.REUSED)})
    assert session.paid_first_calls() == {}
    # Compiled by nobody this session knows: the bar says so, it is no bare first call.
    keys = [bar.label for bar in timing_bars(result, session.paid_first_calls())]
    assert "JAX first call (compiled before)" in keys and "JAX first call" not in keys


def test_the_padded_previews_program_is_kept_under_its_own_size(session):
    session.set_parameters(BlurSpec(kernel_size="auto", sigma=3.5))  # 23 × 23
    session.start_live_preview()
    run = jax_run(0.8, Compilation.COMPILED)
    session.engine_done("jax", run, None, picture="p", program_size=25)
    assert "kernel zero-padded to 25 × 25" in session.captions.caption(RIGHT).text()
    program = Program("jax", (4, 6), 25, "2d", "cpu")
    assert session.first_calls.paid(program) == PaidFirstCall(
        0.8, Compilation.COMPILED, Payer.LIVE_PREVIEW
    )
    assert session.first_calls.paid(Program("jax", (4, 6), 23, "2d", "cpu")) is None


def test_the_caption_says_compiling_while_the_run_compiles(session):
    session.start_live_preview()
    session.compiling_started("jax", 23)
    assert "compiling for 23 × 23…" in session.captions.caption(RIGHT).text()
    session.engine_done("jax", jax_run(0.8, Compilation.COMPILED), None, picture="p")
    assert "compiling" not in session.captions.caption(RIGHT).text()
    session.start_live_preview()  # nothing stale: no plan, nothing compiling
    session.set_parameters(BlurSpec(sigma=3.0))
    session.start_live_preview()
    session.compiling_started("jax", 9)
    session.run_stopped()
    assert "compiling" not in session.captions.caption(RIGHT).text()


def test_a_call_that_loaded_from_the_cache_is_a_price_too():
    ledger = FirstCalls()
    program = Program("jax", (4, 6), 9, "2d", "cpu")
    ledger.record(program, 0.05, Compilation.REUSED, Payer.RUN)
    assert ledger.paid(program) is None  # found it compiled: paid nothing
    ledger.record(program, 0.31, Compilation.FROM_CACHE, Payer.SWEEP)
    assert ledger.for_call(program, Compilation.REUSED) == PaidFirstCall(
        0.31, Compilation.FROM_CACHE, Payer.SWEEP
    )
    assert ledger.for_call(program, Compilation.FROM_CACHE) is None  # it paid itself


# --- The live preview's zero-padded kernels -------------------------------------------------


def test_every_kernel_size_has_a_preview_size_at_most_twice_its_taps():
    for size in range(1, PREVIEW_KERNEL_SIZES[-1] + 1, 2):
        bucket = preview_kernel_size(size)
        assert bucket >= size and bucket % 2 == 1
        assert size < 5 or bucket**2 <= 2 * size**2


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["2d", "separable"])
@pytest.mark.parametrize("color", [False, True])
def test_jax_with_the_padded_kernel_blurs_as_the_exact_one(algorithm, color):
    from blurapp.core.engines.jax_engine import blur_jax

    rng = np.random.default_rng(1)
    image = rng.random((70, 90, 3) if color else (70, 90), dtype=np.float32)
    for sigma in (1.4, 2.2, 3.4):  # 11, 15 and 23 taps: padded to 13, 17 and 25
        spec = BlurSpec(kernel_size="auto", sigma=sigma, algorithm=algorithm)
        kernel = kernel_for(algorithm, "auto", sigma)
        padded = pad_kernel(kernel, preview_kernel_size(spec.size))
        assert padded.shape[0] > kernel.shape[0]
        expected = blur_oracle(image, kernel)
        np.testing.assert_allclose(blur_jax(image, padded), expected, atol=1e-5, rtol=0)


def test_a_kernel_cannot_be_padded_to_fewer_or_an_even_number_of_taps():
    kernel = kernel_for("2d", 9, 2.0)
    with pytest.raises(ValueError):
        pad_kernel(kernel, 7)
    with pytest.raises(ValueError):
        pad_kernel(kernel, 12)
