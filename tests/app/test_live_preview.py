"""The live preview in the session, without a window: what it plans and how it counts."""

from helpers.photos import photo_file

from blurapp.app.session import Session
from blurapp.core import kernel_for
from blurapp.core.spec import BlurSpec


def test_the_session_plans_a_preview_of_the_panes_engines_jit_first(tmp_path):
    from blurapp.core import load_photo

    session = Session()
    assert session.start_live_preview() is None  # no photo
    session.set_photo(load_photo(photo_file(tmp_path)))
    plan = session.start_live_preview()
    assert plan.live and plan.repeats == 0 and plan.engines == ("jax", "numpy")
    session.set_timed("jax-eager", True)  # timed by Run, but no pane shows it
    assert session.start_live_preview().engines == ("jax", "numpy")
    # A timed run of the parameters now is not interrupted by a preview of the same.
    session.set_pane_engine(1, "jax-eager")
    run = session.start_run()
    assert run.repeats is None  # a run times as many calls as each needs
    assert session.start_live_preview() is None and session.running is run
    session.set_parameters(BlurSpec(sigma=4.0))
    # Compiled engines first; JAX without jit is no quicker than NumPy.
    assert session.start_live_preview(moving=True).engines == ("numpy", "jax-eager")
    session.set_live(False)
    assert session.start_live_preview() is None


def test_the_update_rate_counts_the_last_two_seconds(tmp_path, monkeypatch):
    import blurapp.app.live_rates as live_rates
    from blurapp.core import get_engine, load_photo

    clock = [100.0]
    monkeypatch.setattr(live_rates.time, "monotonic", lambda: clock[0])
    session = Session()
    photo = load_photo(photo_file(tmp_path))
    session.set_photo(photo)
    run = get_engine("numpy").blur(photo.gray, kernel_for("2d", 3, 1.0), repeats=0)
    for step in range(5):
        session.set_parameters(BlurSpec(kernel_size=3, sigma=1.0 + step / 10))
        session.start_live_preview(moving=True)
        session.engine_done("numpy", run, None)
        clock[0] += 0.25
    rates, pane = session.live_rates, session.pane_engines.index("numpy")
    assert rates.rate("numpy") == 4.0  # 5 updates, 0.25 s apart
    assert "4.0 updates/s" in session.captions.caption(pane).details
    # The rate goes when fewer than two updates are left in the last two seconds: the one
    # before the last came at 100.75, so at 102.75, 1.5 s from now (101.25).
    assert rates.seconds_until_gone() == 1.5
    clock[0] += 1.49
    assert rates.rate("numpy") is not None
    clock[0] += 0.01
    assert rates.rate("numpy") is None and rates.seconds_until_gone() is None
    assert not any(
        "updates/s" in d for d in session.captions.caption(pane).details
    )  # still: no rate to show


def test_going_back_to_what_the_panes_show_drops_the_preview_of_the_passing_value(tmp_path):
    from blurapp.core import get_engine, load_photo

    session = Session()
    photo = load_photo(photo_file(tmp_path))
    session.set_photo(photo)
    shown = session.parameters
    session.start_live_preview()
    for engine in ("jax", "numpy"):
        run = get_engine(engine).blur(photo.gray, kernel_for("2d", 9, shown.sigma), repeats=0)
        session.engine_done(engine, run, None)
    session.run_stopped()
    session.set_parameters(BlurSpec(sigma=2.6))
    assert session.start_live_preview(moving=True) is not None
    session.set_parameters(shown)  # back before the 2.6 preview came
    assert session.start_live_preview(moving=True) is None
    assert session.running is None  # the 2.6 preview is dropped: it would land on the panes


class PreviewView:
    """A PhotoController's view that records the engines whose live preview it was shown, and
    calls `on_progress(engine, done)` as each engine's taps are counted."""

    def __init__(self, on_progress):
        self.live, self.stopped, self._on_progress = [], 0, on_progress

    def show_live(self, engine):
        self.live.append(engine)

    def show_progress(self, engine, done, total, words):
        self._on_progress(engine, done)

    def show_run_stopped(self):
        self.stopped += 1

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def test_new_parameters_stop_the_numpy_preview_of_the_ones_before_at_once(tmp_path):
    """The parameters change once JAX-jit's pane has its preview, while NumPy's is blurring:
    NumPy's preview of the parameters before stops there, before any preview of the new ones
    has started (which would wait for it on the runner); it shows nothing."""
    from blurapp.app.photo_controller import PhotoController
    from blurapp.app.running import InlineRunner
    from blurapp.core import load_photo

    session, runner = Session(), InlineRunner()
    session.set_photo(load_photo(photo_file(tmp_path)))

    def on_progress(engine, done):
        # The slider moves on while NumPy blurs: at its first count of taps done (a preview
        # counts every tenth of them).
        if engine == "numpy" and done > 0 and session.parameters.sigma != 3.5:
            session.set_parameters(BlurSpec(sigma=3.5))

    view = PreviewView(on_progress)
    controller = PhotoController(session, runner, view)
    controller.preview()
    job = runner.queue[0]
    runner.run_all()
    assert job.quit_requested and view.live == ["jax"] and view.stopped == 1
    assert "numpy" not in session.results  # no NumPy pane of the 2.5 blur
