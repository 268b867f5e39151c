"""The programs JAX-jit compiles as the live preview follows the parameters: each one counted,
with why it was needed (what changed since the program before) and what it cost."""

import numpy as np
import pytest
from helpers.oracle import blur_oracle
from helpers.photos import photo_file
from helpers.session import jax_run, photo

from blurapp.app.captions import RIGHT
from blurapp.app.photo_controller import PhotoController
from blurapp.app.recompiles import Changed, Reason
from blurapp.app.running import InlineRunner
from blurapp.app.session import Session
from blurapp.core import kernel_for
from blurapp.core.engines.runs import Compilation
from blurapp.core.spec import BlurSpec


class Unseen:
    """A window that shows nothing: the session is what these tests read."""

    def show_status(self, text):
        pass

    def show_progress(self, engine, done, total, words):
        pass

    def show_photo(self, loaded):
        pass

    def show_open_failed(self, error):
        pass

    def show_live(self, engine):
        pass

    def show_run_stopped(self):
        pass

    def remember_file(self, path):
        pass

    def show_run_failed(self, error, words):
        pass


@pytest.fixture
def previewing(tmp_path):
    """A session previewing a colour photo (in grey) with a 9 × 9 kernel, JAX-jit's programs
    all let go first, so each new one it needs is compiled (or loaded from the cache) here;
    preview(**parameters) previews a change."""
    from blurapp.core.engines.jax_engine import compiled_blurs

    compiled_blurs.clear()
    session, runner = Session(), InlineRunner()
    controller = PhotoController(session, runner, Unseen())
    session.set_parameters(BlurSpec(kernel_size=9, sigma=2.0))
    controller.open_photo(photo_file(tmp_path, size=(53, 37)))  # and previews it
    runner.run_all()
    assert session.results["jax"].live and session.results["jax"].run.compiled

    def preview(**changes):
        session.set_parameters(BlurSpec(**{**vars(session.parameters), **changes}))
        controller.preview(moving=True)
        runner.run_all()
        kept = session.results["jax"]
        assert kept.live and kept.parameters == session.parameters
        return kept.run

    return session, preview


def jax_caption(session):
    return session.captions.caption(session.pane_engines.index("jax")).text()


def test_a_new_kernel_size_compiles_one_program_and_says_which_sizes(previewing):
    session, preview = previewing
    before = session.recompiles.count("jax")
    run = preview(kernel_size=11)
    expected = blur_oracle(session.photo.gray, kernel_for("2d", 11, 2.0))
    np.testing.assert_allclose(run.output, expected, atol=1e-5, rtol=0)
    assert session.recompiles.count("jax") == before + 1
    got = session.recompiles.last("jax")
    assert got.reasons == (Reason(Changed.KERNEL, 9, 11),)
    assert got.program.kernel_size == 11 and got.previous.kernel_size == 9
    assert got.compilation is run.compilation and got.seconds > 0
    assert session.captions.why_program(got) == "kernel 9 × 9 → 11 × 11"
    caption = jax_caption(session)
    assert f"programs this session: {before + 1}; last: kernel 9 × 9 → 11 × 11, " in caption


def test_a_new_sigma_of_the_same_size_compiles_nothing(previewing):
    session, preview = previewing
    before = session.recompiles.all()
    run = preview(sigma=2.7)
    assert run.compilation is Compilation.REUSED
    assert session.recompiles.all() == before
    # The caption still counts the session's programs.
    assert f"programs this session: {len(before)}; last: " in jax_caption(session)


def test_turning_colour_on_compiles_one_program_for_the_colour_photo(previewing):
    session, preview = previewing
    before = session.recompiles.count("jax")
    run = preview(color=True)
    assert run.output.shape == (37, 53, 3)
    assert session.recompiles.count("jax") == before + 1
    got = session.recompiles.last("jax")
    assert got.reasons == (Reason(Changed.COLOUR, False, True),)
    assert session.captions.why_program(got) == "grey → colour"


def test_a_photo_of_another_size_says_the_image_changed_and_the_figures_keep_the_count():
    session = Session()
    session.set_photo(photo(shape=(4, 6)), original="first")
    session.start_live_preview()
    session.engine_done("jax", jax_run(), None)
    session.run_stopped()
    session.set_photo(photo("wide.png", shape=(8, 12)), original="second")
    # A timed run: its first call is told twice (its output, then its figures), one program.
    session.start_run()
    run = jax_run()
    session.engine_done("jax", run, None, final=False)
    session.engine_done("jax", run, None)
    assert session.recompiles.count("jax") == 2
    got = session.recompiles.last("jax")
    assert session.captions.why_program(got) == "image 6 × 4 → 12 × 8"
    [row] = session.captions.program_rows()
    assert row.key == "jax.programs" and row.value == 2
    assert row.text == "2, JAX-jit; last: image 6 × 4 → 12 × 8 (366 ms, compiled)", row.text
    assert "programs this session" not in session.captions.caption(RIGHT).text()  # not live


def test_the_scaling_sweeps_programs_count_among_the_sessions(previewing):
    """Run ▸ Scaling Sweep compiles JAX-jit a program at each size it resamples the photo to:
    the session's count, the live caption and the figures' row count them, each with the size
    it was compiled for."""
    from blurapp.app.session import Change
    from blurapp.app.sweep_state import SweepState
    from blurapp.core.engines.runs import Payer

    session, _ = previewing
    before = session.recompiles.count("jax")
    heard = []
    session.subscribe(heard.append)
    runner = InlineRunner()
    sweep = SweepState(
        session.photo,
        session.parameters,
        ("numpy", "jax"),
        runner,
        repeats=1,
        first_calls=session.first_calls,
        recompiles=session.recompiles,
    )
    sweep.max_megapixels = 0.2
    sweep.start()
    runner.run_all()
    # The photo's own size (its program the preview's), then 0.1 and 0.2 MP.
    own, *resampled = sweep.points
    assert not own.resampled and len(resampled) == 2
    assert own.first_calls["jax"].compilation is Compilation.REUSED
    assert all(
        point.first_calls["jax"].compilation is not Compilation.REUSED for point in resampled
    )
    assert session.recompiles.count("jax") == before + 2
    got = session.recompiles.all()[-2:]
    assert [g.program.shape for g in got] == [(p.height, p.width) for p in resampled]
    assert all(g.paid_by is Payer.SWEEP and g.seconds > 0 for g in got)
    small, large = resampled
    assert got[0].reasons == (Reason(Changed.IMAGE, (53, 37), (small.width, small.height)),)
    assert got[1].reasons == (
        Reason(Changed.IMAGE, (small.width, small.height), (large.width, large.height)),
    )
    # The window hears of them, and its live caption and figures count them.
    assert Change.PROGRAMS in heard
    why = f"image {small.width} × {small.height} → {large.width} × {large.height}"
    assert session.captions.why_program(got[1]) == f"{why}, in the scaling sweep"
    assert f"programs this session: {before + 2}; last: {why}, in the scaling sweep, " in (
        jax_caption(session)
    )
    [row] = session.captions.program_rows()
    assert row.key == "jax.programs" and row.value == before + 2
