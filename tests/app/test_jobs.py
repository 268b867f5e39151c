"""The window's jobs, its controller and the sweep's state, without Qt: no QApplication, no
thread; the jobs run here, step by step, on blurapp.app.running.InlineRunner."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers.oracle import blur_oracle, covered_mean, halved
from helpers.photos import photo_file
from PIL import Image

from blurapp.app.jobs import (
    EngineProgress,
    EngineResult,
    compare_job,
    failure_words,
    load_job,
    sweep_job,
)
from blurapp.app.photo_controller import PhotoController
from blurapp.app.pyramid import fitted, fitted_size
from blurapp.app.run_records import RunPlan
from blurapp.app.running import InlineRunner
from blurapp.app.session import Session
from blurapp.app.sweep_state import SweepState
from blurapp.core.engines.runs import BlurCancelled
from blurapp.core.kernel import gaussian_kernel
from blurapp.core.media.photo import load_photo
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.media.saving import OutputError, to_8bit
from blurapp.core.spec import BlurSpec

# Two tiny sizes for a sweep: each new shape costs JAX-jit a compilation.
TINY = 0.004


def grey_photo_file(folder: Path) -> Path:
    return photo_file(folder, size=(60, 40), seed=5, colour=False)


def drain(steps, told):
    """Run a job's generator to its end, as a runner would: what it yields and reports goes
    to `told`; returns its answer."""
    while True:
        try:
            event = next(steps)
        except StopIteration as returned:
            return returned.value
        if event is not None:
            told.append(event)


# --- The jobs --------------------------------------------------------------------------------


def test_loading_gives_the_photo_and_its_picture(tmp_path):
    path = grey_photo_file(tmp_path)
    loaded = drain(load_job(path), [])
    assert loaded.photo.path == path and (loaded.photo.width, loaded.photo.height) == (60, 40)
    assert loaded.picture[0].dtype == np.uint8 and loaded.picture[0].shape == (40, 60)
    assert not loaded.grey_for_memory


def test_loading_a_file_that_is_not_a_photo_names_the_file(tmp_path):
    bad = tmp_path / "notes.png"
    bad.write_text("not a picture")
    with pytest.raises(PhotoError) as raised:
        drain(load_job(bad), [])
    assert str(bad) in str(raised.value)


def test_an_unexpected_error_while_loading_is_a_problem_with_that_file(tmp_path, monkeypatch):
    import blurapp.app.jobs as jobs

    def broken(picture):
        raise ValueError("simulated bug")

    monkeypatch.setattr(jobs, "build_pyramid", broken)
    path = grey_photo_file(tmp_path)
    with pytest.raises(PhotoError) as raised:
        drain(load_job(path), [])
    assert str(path) in str(raised.value) and "simulated bug" in str(raised.value)
    assert isinstance(raised.value.__cause__, ValueError)


def plan_for(path, *, engines=("numpy",), live=False, **parameters):
    photo = load_photo(path)
    return RunPlan(1, photo, BlurSpec(**parameters), engines, live=live)


def test_a_run_reports_progress_and_each_engine_and_returns_the_comparison(tmp_path):
    plan = plan_for(grey_photo_file(tmp_path), kernel_size=5, sigma=1.0, algorithm="2d")
    told = []
    outcome = drain(compare_job(plan, report=told.append), told)
    assert told[0] == EngineProgress("numpy", 0, 0)
    taps = [
        event
        for event in told
        if isinstance(event, EngineProgress) and event.engine == "numpy" and event.total
    ]
    assert taps and taps[-1] == EngineProgress("numpy", 25, 25)
    [done] = [event for event in told if isinstance(event, EngineResult) and event.final]
    assert done.engine == "numpy" and done.error is None
    expected = blur_oracle(plan.photo.gray, gaussian_kernel(5, 1.0))
    np.testing.assert_allclose(outcome.result.runs["numpy"].output, expected, atol=1e-5)
    assert done.picture[0].dtype == np.uint8


def test_a_live_preview_tells_its_taps_every_tenth_and_its_last_a_run_every_hundredth(
    tmp_path,
):
    # A 21 × 21 kernel: 441 taps, more than a hundred counts for a timed run.
    path = grey_photo_file(tmp_path)
    counts = {}
    for live in (False, True):
        plan = plan_for(path, kernel_size=21, sigma=4.0, algorithm="2d", live=live)
        told = []
        outcome = drain(compare_job(plan, report=told.append), told)
        taps = [
            event
            for event in told
            if isinstance(event, EngineProgress) and event.engine == "numpy" and event.total
        ]
        assert taps[-1] == EngineProgress("numpy", 441, 441)  # the last count always comes
        counts[live] = len(taps)
        expected = blur_oracle(plan.photo.gray, gaussian_kernel(21, 4.0))
        np.testing.assert_allclose(outcome.result.runs["numpy"].output, expected, atol=1e-5)
    assert counts[False] == 101  # 0 % (the first tap), 1 %, … 100 %
    assert counts[True] == 11  # 0 %, 10 %, … 100 %


@pytest.mark.slow
def test_a_timed_run_works_out_the_difference_on_the_worker_and_a_preview_never_does(
    tmp_path, monkeypatch
):
    """The window reads a timed run's differences on its own thread: the job must have worked
    them out (ComparisonResult.differences is computed when first read). A preview's are never
    shown, so its job does not spend on them."""
    import blurapp.core.measuring.comparison as comparison

    worked_out = []
    real = comparison.max_abs_difference
    monkeypatch.setattr(
        comparison, "max_abs_difference", lambda a, b: worked_out.append(1) or real(a, b)
    )
    path = grey_photo_file(tmp_path)
    engines = ("numpy", "jax")
    timed = drain(compare_job(plan_for(path, engines=engines, kernel_size=3)), [])
    assert len(worked_out) == 1
    assert timed.result.differences["jax"] < 1e-5
    assert len(worked_out) == 1  # the window's read finds it worked out
    worked_out.clear()
    live = plan_for(path, engines=engines, live=True, kernel_size=3)
    previewed = drain(compare_job(live), [])
    assert set(previewed.result.runs) == set(engines) and worked_out == []


@pytest.mark.slow
def test_a_live_preview_keeps_the_photo_on_the_jax_device_and_a_timed_run_copies_it(
    tmp_path, monkeypatch
):
    """Each change of the live preview blurs the same photo: JAX-jit copies it to its device
    at most once, and later changes blur the copy kept there (each blur still the oracle's);
    a timed run puts it on the device for every call it times, as its figures say. (On the
    CPU JAX may take an aligned array's own memory instead of copying it: no copy at all.)"""
    import jax

    puts, copies = [], []
    real_put = jax.device_put

    def counting_put(value, *args, **kwargs):
        on_device = real_put(value, *args, **kwargs)
        if getattr(value, "shape", None) == (40, 60):
            puts.append(1)
            if on_device.unsafe_buffer_pointer() != value.ctypes.data:
                copies.append(1)
        return on_device

    monkeypatch.setattr(jax, "device_put", counting_put)
    photo = load_photo(grey_photo_file(tmp_path))
    for sigma in (1.0, 1.5, 2.0):
        plan = RunPlan(1, photo, BlurSpec(kernel_size=5, sigma=sigma), ("jax",), live=True)
        outcome = drain(compare_job(plan), [])
        expected = blur_oracle(photo.gray, gaussian_kernel(5, sigma))
        np.testing.assert_allclose(outcome.result.runs["jax"].output, expected, atol=1e-5)
    assert len(copies) <= 1 and len(puts) == 3 - 2 * len(copies)
    puts.clear()
    timed = RunPlan(2, photo, BlurSpec(kernel_size=5, sigma=2.0), ("jax",))
    run = drain(compare_job(timed), []).result.runs["jax"]
    # The first call's, and one for each steady call timed.
    assert len(puts) >= 1 + len(run.repeat_seconds) * run.calls_per_sample > 1


@pytest.mark.parametrize("live", [True, False])
def test_each_engines_picture_comes_fitted_to_the_view_of_its_pane(tmp_path, live):
    """A run given the size of each engine's pane brings the engine's picture reduced to fit
    it, ready to draw: the full result, 8-bit, reduced from the level the pane would draw."""
    photo = load_photo(photo_file(tmp_path, size=(1200, 800), seed=3, colour=False))
    parameters = BlurSpec(kernel_size=5, sigma=1.5)
    view_sizes = {"numpy": (390, 2000), "jax": (500, 290)}  # (height, width): one fits each side
    plan = RunPlan(1, photo, parameters, ("numpy", "jax"), live=live, view_sizes=view_sizes)
    told: list = []
    drain(compare_job(plan, report=told.append), told)
    pictures = {
        event.engine: event.picture
        for event in told
        if isinstance(event, EngineResult) and event.picture is not None
    }
    full = to_8bit(blur_oracle(photo.gray, gaussian_kernel(5, 1.5)))
    # The level a pane draws at these sizes: the result halved, once (400 × 600) for NumPy's
    # pane, twice (200 × 300) for JAX-jit's; each pixel the mean of 2 × 2, rounded half up.
    once = halved(full)
    for engine, level, fitted_shape in (
        ("numpy", once, (390, 585)),
        ("jax", halved(once), (193, 290)),
    ):
        picture = fitted(pictures[engine])
        assert picture is not None and picture.shape == fitted_shape
        assert fitted_size(full.shape, view_sizes[engine]) == fitted_shape
        # Pillow's box filter sums in fixed point: within 1 of the exact mean.
        difference = np.abs(picture - covered_mean(level, *fitted_shape))
        assert difference.max() <= 1, (engine, np.argwhere(difference > 1)[:5])


def test_a_picture_is_fitted_to_no_view_it_fits_unreduced(tmp_path):
    photo = load_photo(grey_photo_file(tmp_path))  # 60 × 40
    plan = RunPlan(1, photo, BlurSpec(kernel_size=5), ("numpy",), view_sizes={"numpy": (80, 90)})
    told: list = []
    drain(compare_job(plan, report=told.append), told)
    results = [event for event in told if isinstance(event, EngineResult)]
    assert results and all(result.picture is not None for result in results)
    assert all(fitted(result.picture) is None for result in results)  # drawn as the levels


@pytest.mark.slow
@pytest.mark.parametrize(
    "what",
    [
        "the live preview switched off",
        "a timed run without JAX-jit",
        pytest.param("a blur by blocks", marks=pytest.mark.extra("scale")),
    ],
)
def test_the_photo_kept_on_the_jax_device_is_let_go(what, tmp_path, monkeypatch):
    """In the window, JAX-jit keeps the previewed photo on its device between changes, and
    lets go of it when the live preview is switched off (a job after any preview in flight)
    or a job does not preview with it: it is not held there for nothing, and the next
    preview puts it there again."""
    import jax
    import tifffile

    import blurapp.core.engines.on_device as on_device
    from blurapp.app.jobs import blur_to_file_job

    # On the CPU JAX may take an aligned array's own memory instead of a copy, and then keeps
    # nothing; here every copy counts as one, so the photo is always kept.
    monkeypatch.setattr(on_device, "_shares_memory", lambda *arguments: False)
    puts = []
    real_put = jax.device_put

    def counting_put(value, *args, **kwargs):
        if getattr(value, "shape", None) == (40, 60):
            puts.append(1)
        return real_put(value, *args, **kwargs)

    monkeypatch.setattr(jax, "device_put", counting_put)
    session, runner = Session(), InlineRunner()
    controller = PhotoController(session, runner, Shown())

    def preview(sigma):
        session.set_parameters(BlurSpec(kernel_size=5, sigma=sigma, algorithm="2d"))
        controller.preview(moving=True)
        runner.run_all()
        expected = blur_oracle(session.photo.gray, gaussian_kernel(5, sigma))
        np.testing.assert_allclose(session.results["jax"].run.output, expected, atol=1e-5)

    controller.open_photo(grey_photo_file(tmp_path))  # and previews it
    runner.run_all()
    preview(1.5)
    assert len(puts) == 1  # kept
    if what == "the live preview switched off":
        controller.preview(moving=True)  # nothing to re-blur: the panes show 1.5
        session.set_parameters(BlurSpec(kernel_size=5, sigma=1.7, algorithm="2d"))
        controller.preview(moving=True)
        runner.step()  # this preview begins, then the live preview is switched off
        session.set_live(False)
        runner.run_all()
        session.set_live(True)
    elif what == "a timed run without JAX-jit":
        jax_pane = session.pane_engines.index("jax")
        session.set_pane_engine(jax_pane, "numpy")  # a pane's engine is always timed
        session.set_timed_engines(("numpy",))
        assert controller.run()
        runner.run_all()
        assert tuple(session.outcome.result.runs) == ("numpy",)
        session.set_pane_engine(jax_pane, "jax")
    else:
        source = tmp_path / "large.tif"
        tifffile.imwrite(source, np.zeros((64, 64), np.uint8))
        parameters = BlurSpec(kernel_size=5, sigma=1.0, algorithm="2d")
        drain(blur_to_file_job(source, tmp_path / "blurred.tif", parameters, "numpy"), [])
    puts_before = len(puts)
    preview(2.0)
    assert len(puts) == puts_before + 1


def test_a_window_that_starts_with_the_live_preview_off_starts_no_job(tmp_path):
    """Nothing was previewed, so nothing is let go: the first job of a window is still its
    photo's load, once the window is shown."""
    session, runner = Session(), InlineRunner()
    controller = PhotoController(session, runner, Shown())
    session.set_live(False)  # as the settings restore it
    assert not runner.busy()
    controller.open_photo(grey_photo_file(tmp_path))  # as the window does once it is shown
    assert [job.job for job in runner.queue] == [load_job]
    runner.run_all()
    assert session.photo is not None and session.photo.path.name == "street.png"
    assert not runner.busy()  # and no job after it: nothing to let go of


@pytest.mark.parametrize("kind", ["writeable", "read-only view of a writeable array"])
def test_a_preview_of_an_array_that_can_change_copies_it_each_time(kind, monkeypatch):
    """Only an array nothing can write to (a photo's) is kept on the device: one that its
    owner may write to, directly or through the array it is a view of, is put on the device
    for every call, so each blur is of what it holds then."""
    import jax

    from blurapp.core.engines.jax_engine import preview_jax_call

    puts = []
    real_put = jax.device_put
    monkeypatch.setattr(
        jax,
        "device_put",
        lambda value, *a, **k: (
            puts.append(getattr(value, "shape", None)),
            real_put(value, *a, **k),
        )[1],
    )
    owner = np.random.default_rng(9).random((24, 32), dtype=np.float32)
    image = owner if kind == "writeable" else owner.view()
    if image is not owner:
        image.flags.writeable = False
    kernel = gaussian_kernel(5, 1.2)
    first = preview_jax_call(image, kernel).output
    np.testing.assert_allclose(first, blur_oracle(image, kernel), atol=1e-5)
    owner[:, :16] = 1.0
    second = preview_jax_call(image, kernel).output
    np.testing.assert_allclose(second, blur_oracle(image, kernel), atol=1e-5)
    assert puts.count((24, 32)) == 2


def test_a_photo_s_pixels_are_read_only(tmp_path):
    grey = grey_photo_file(tmp_path)
    colour = tmp_path / "colour.png"
    rgb = np.random.default_rng(6).integers(0, 256, (40, 60, 3), dtype=np.uint8)
    Image.fromarray(rgb).save(colour)
    for photo in (load_photo(grey), load_photo(colour, color=True), load_photo(colour)):
        for pixels in (photo.pixels, photo.gray):
            with pytest.raises(ValueError):
                pixels[0, 0] = 0.5


def test_a_run_stops_between_kernel_taps_when_cancelled(tmp_path):
    plan = plan_for(grey_photo_file(tmp_path), kernel_size=21, sigma=4.0, algorithm="2d")
    told = []

    def cancelled():  # as soon as the blur has begun its taps
        return any(isinstance(event, EngineProgress) and event.done > 0 for event in told)

    with pytest.raises(BlurCancelled):
        drain(compare_job(plan, cancelled=cancelled, report=told.append), told)
    done = max(event.done for event in told if isinstance(event, EngineProgress))
    assert 0 < done < 21 * 21


def test_a_sweep_yields_each_size_as_it_finishes(tmp_path):
    photo = load_photo(grey_photo_file(tmp_path))
    told = []
    points = drain(sweep_job(photo, BlurSpec(kernel_size=3), ("numpy",), TINY, 1), told)
    assert told == points and len(points) >= 1
    assert all(point.seconds["numpy"] > 0 for point in points)


@pytest.mark.extra("scale")
def test_a_blur_by_blocks_tells_each_row_of_blocks_with_its_rate(tmp_path, monkeypatch):
    import tifffile

    from blurapp.app import jobs
    from blurapp.scale import tiled

    levels = np.random.default_rng(3).integers(0, 256, (300, 200), dtype=np.uint8)
    source = tmp_path / "scan.tif"
    tifffile.imwrite(source, levels, tile=(128, 128))
    monkeypatch.setattr(tiled, "DEFAULT_BLOCK", 128)  # three rows of two blocks

    class Clock:  # the job's clock: 2 s more at each reading, from its start at 100 s
        now = 98.0

        def perf_counter(self):
            self.now += 2.0
            return self.now

    monkeypatch.setattr(jobs, "time", Clock())
    told = []
    job = jobs.blur_to_file_job(
        source, tmp_path / "out.tif", BlurSpec(kernel_size=5), "numpy", report=told.append
    )
    drain(job, told)

    rows = [event for event in told if isinstance(event, jobs.BlocksDone)]
    assert [row.done for row in rows] == [2, 4, 6] and {row.total for row in rows} == {6}
    # Rows of 128, 128 and 44 pixel rows of 200 pixels, written 2, 4 and 6 s after the start.
    written = [128 * 200 / 1e6, 256 * 200 / 1e6, 300 * 200 / 1e6]
    assert [row.megapixels_per_second for row in rows] == pytest.approx(
        [written[0] / 2, written[1] / 4, written[2] / 6]
    )


def test_failures_are_told_in_words_naming_what_failed(tmp_path):
    problem = PhotoError(tmp_path / "a.tif", "the file does not exist")
    assert failure_words(problem) == str(problem)
    refused = OutputError(tmp_path / "out.tif", "the folder is read-only")
    assert failure_words(refused, subject="ignored.tif") == str(refused)
    assert failure_words(MemoryError(), memory_for="the next size") == (
        "not enough memory for the next size"
    )
    assert failure_words(MemoryError(), subject=tmp_path / "big.tif", memory_for="its blocks") == (
        f"{tmp_path / 'big.tif'}: not enough memory for its blocks"
    )
    assert failure_words(ValueError("boom")) == "ValueError: boom"


# --- The runner without threads --------------------------------------------------------------


def counting(limit, *, cancelled, report):
    for number in range(limit):
        report(("told", number))
        yield number
    return "counted"


def test_the_inline_runner_runs_jobs_in_turn_and_honours_quit_at_a_step():
    runner = InlineRunner()
    told, answers = [], []
    first = runner.start(
        counting,
        5,
        on_event=told.append,
        on_return=answers.append,
        on_stop=lambda: told.append("stopped"),
    )
    runner.start(counting, 2, on_event=told.append, on_return=answers.append)
    runner.step()
    runner.step()
    first.quit()
    runner.run_all()
    assert told == [("told", 0), 0, ("told", 1), 1, "stopped", ("told", 0), 0, ("told", 1), 1]
    assert answers == ["counted"]
    assert not runner.busy()


def test_a_job_quit_before_its_turn_never_starts():
    runner = InlineRunner()
    stopped = []
    job = runner.start(
        counting, 3, on_event=stopped.append, on_stop=lambda: stopped.append("stopped")
    )
    job.quit()
    runner.run_all()
    assert stopped == ["stopped"]


# --- The window's controller -------------------------------------------------------------------


class Shown:
    """What the window would show: the view a controller talks to, as a record."""

    def __init__(self):
        self.status, self.progress, self.photos, self.failed, self.live = [], [], [], [], []
        self.stopped = 0
        self.run_failures = []

    def show_status(self, text):
        self.status.append(text)

    def show_progress(self, engine, done, total, words):
        self.progress.append((engine, done, total, words))

    def show_photo(self, loaded):
        self.photos.append(loaded)

    def show_open_failed(self, error):
        self.failed.append(error)

    def show_live(self, engine):
        self.live.append(engine)

    def show_run_stopped(self):
        self.stopped += 1

    def remember_file(self, path):
        pass

    def show_run_failed(self, error, words):
        self.run_failures.append(words)


@pytest.fixture
def controlled(tmp_path):
    session, runner, shown = Session(), InlineRunner(), Shown()
    controller = PhotoController(session, runner, shown)
    session.set_live(False)
    session.set_timed_engines(("numpy",))
    session.set_pane_engine(0, "numpy")
    session.set_pane_engine(1, "numpy")
    session.set_parameters(BlurSpec(kernel_size=5, sigma=1.0, algorithm="2d"))
    controller.open_photo(grey_photo_file(tmp_path))
    runner.run_all()
    return session, runner, shown, controller


def test_opening_a_photo_says_so_then_shows_it(controlled):
    session, _, shown, _ = controlled
    assert shown.status[0] == "Opening street.png…"
    assert [loaded.photo for loaded in shown.photos] == [session.photo]
    assert shown.status[-1].endswith("street.png  ·  60 × 40 (2,400 pixels)")


def test_a_photo_that_fails_is_told_once(controlled, tmp_path):
    _, runner, shown, controller = controlled
    controller.open_photo(tmp_path / "missing.png")
    runner.run_all()
    [error] = shown.failed
    assert str(tmp_path / "missing.png") in str(error)
    assert shown.status[-1] == "Could not open the photo"


@pytest.mark.slow
def test_run_puts_the_result_in_the_session_with_its_progress(controlled):
    session, runner, shown, controller = controlled
    assert controller.run()
    assert shown.progress[0][:3] == ("numpy", 0, 0) and shown.progress[0][3] is not None
    runner.run_all()
    assert session.running is None and session.outcome is not None
    assert session.results["numpy"].run is not None
    assert any(total == 25 for _, _, total, _ in shown.progress)


@pytest.mark.slow
def test_a_second_run_supersedes_the_first_which_shows_nothing(controlled):
    session, runner, shown, controller = controlled
    controller.run()
    runner.step()  # the first run has begun
    session.set_parameters(BlurSpec(kernel_size=7, sigma=1.5, algorithm="2d"))
    controller.run()
    runner.run_all()
    assert shown.stopped == 1  # the first let go
    assert session.outcome.parameters.kernel_size == 7
    assert session.results["numpy"].parameters.kernel_size == 7


def test_cancel_stops_the_run_and_says_so(controlled):
    session, runner, shown, controller = controlled
    controller.run()
    runner.step()
    assert controller.cancel()
    assert shown.status[-1] == "Cancelled"
    runner.run_all()
    assert session.outcome is None and shown.stopped == 1
    assert not controller.cancel()  # nothing left to cancel


def test_a_live_preview_superseding_a_run_says_the_run_stopped(controlled):
    session, runner, shown, controller = controlled
    session.set_live(True)
    controller.run()
    session.set_parameters(BlurSpec(kernel_size=7, sigma=1.5, algorithm="2d"))
    controller.preview(moving=True)
    assert shown.status[-1] == "The run stopped for the new parameters; press Run to time them"
    runner.run_all()
    assert session.outcome is None  # a preview is not a measurement
    assert shown.live == ["numpy"]
    assert session.results["numpy"].live


def test_a_failed_run_is_told_in_words(controlled, monkeypatch):
    import blurapp.app.jobs as jobs

    def broken(*args, **kwargs):
        raise ValueError("simulated bug in the comparison")

    monkeypatch.setattr(jobs, "compare_engines", broken)
    session, runner, shown, controller = controlled
    controller.run()
    runner.run_all()
    assert shown.run_failures == ["ValueError: simulated bug in the comparison"]
    assert shown.status[-1] == "The run failed" and session.running is None


def test_a_run_with_a_trace_folder_records_its_steady_calls_and_says_where(controlled, tmp_path):
    session, runner, shown, controller = controlled
    folder = tmp_path / "made" / "traces"
    assert controller.run(trace=folder)
    assert session.running.trace == folder
    runner.run_all()
    assert shown.run_failures == [] and session.running is None
    [run_folder] = (folder / "plugins" / "profile").iterdir()
    assert (run_folder / "perfetto_trace.json.gz").is_file()
    assert session.outcome.trace.run_folder == run_folder
    assert session.captions.summary().startswith(
        f"trace: {run_folder} (the steady calls; open perfetto_trace.json.gz in "
        f"ui.perfetto.dev, or run: tensorboard --logdir {folder}) · Done: NumPy "
    )
    # The profiler slows the calls it records: their figures say so.
    assert session.outcome.result.noisy
    # (led by the profiler, whatever else a busy machine adds)
    assert "the profiler recorded" in session.outcome.result.noisy_reason
    controller.run()  # a plain Run after it records no trace, and says none
    runner.run_all()
    assert session.outcome.trace is None
    assert "profiler" not in (session.outcome.result.noisy_reason or "")
    assert session.captions.summary().startswith("Done: NumPy ")
    assert len(list((folder / "plugins" / "profile").iterdir())) == 1


def test_a_trace_run_cancelled_while_timed_leaves_no_partial_trace(controlled, tmp_path):
    session, runner, shown, controller = controlled
    folder = tmp_path / "traces"
    (folder / "plugins" / "profile" / "earlier").mkdir(parents=True)  # a whole run of before
    shown.show_progress = lambda engine, *_: engine == "timing" and controller.cancel()
    controller.run(trace=folder)
    runner.run_all()
    assert shown.status[-1] == "Cancelled" and session.outcome is None
    assert [path.name for path in (folder / "plugins" / "profile").iterdir()] == ["earlier"]
    # The profiler was stopped: another trace can start.
    del shown.show_progress
    controller.run(trace=folder)
    runner.run_all()
    assert session.outcome.trace.run_folder.is_dir()


def test_a_cancelled_runs_partial_trace_goes_even_when_the_profiler_fails_to_stop(
    controlled, tmp_path, monkeypatch
):
    import jax.profiler

    session, runner, shown, controller = controlled
    folder = tmp_path / "traces"
    stop = jax.profiler.stop_trace

    def stop_then_fail():
        stop()  # the trace is written, then its last step fails
        raise ValueError("no new run folder found")

    monkeypatch.setattr(jax.profiler, "stop_trace", stop_then_fail)
    shown.show_progress = lambda engine, *_: engine == "timing" and controller.cancel()
    controller.run(trace=folder)
    runner.run_all()
    assert shown.status[-1] == "Cancelled" and session.outcome is None
    assert [path for path in folder.rglob("*") if not path.is_dir()] == []


def test_a_trace_folder_that_cannot_be_made_fails_the_run_naming_it(controlled, tmp_path):
    session, runner, shown, controller = controlled
    notes = tmp_path / "notes.txt"
    notes.write_text("a file, not a folder")
    controller.run(trace=notes / "trace")
    runner.run_all()
    [words] = shown.run_failures
    assert words.startswith(f"{notes / 'trace'}: cannot make the folder for the profiler trace (")
    assert shown.status[-1] == "The run failed" and session.running is None
    assert session.outcome is None


def test_a_trace_while_another_is_recording_fails_naming_the_folder(controlled, tmp_path):
    import jax.profiler

    session, runner, shown, controller = controlled
    jax.profiler.start_trace(tmp_path / "theirs")
    try:
        controller.run(trace=tmp_path / "mine")
        runner.run_all()
    finally:
        jax.profiler.stop_trace()
    [words] = shown.run_failures
    assert words.startswith(f"{tmp_path / 'mine'}: cannot start the profiler trace (")
    assert session.running is None and session.outcome is None


def test_the_trace_words_say_when_nothing_was_written(tmp_path):
    from blurapp.core.measuring.profiler_trace import WrittenTrace

    assert WrittenTrace(tmp_path, None).words() == f"trace: nothing was written to {tmp_path}"


# --- The sweep's state -----------------------------------------------------------------------


def sweep_state(tmp_path, runner):
    photo = load_photo(grey_photo_file(tmp_path))
    state = SweepState(photo, BlurSpec(kernel_size=3), ("numpy",), runner, repeats=1)
    state.max_megapixels = TINY
    heard = []
    state.subscribe(heard.append)
    return state, heard


def test_a_sweep_shows_each_size_and_says_when_it_is_done(tmp_path):
    runner = InlineRunner()
    state, heard = sweep_state(tmp_path, runner)
    assert state.subject().startswith("street.png, ") and state.subject().endswith("· NumPy")
    state.start()
    assert state.running and state.status == "Running…"
    runner.run_all()
    assert not state.running and state.points
    assert heard[0] == "running" and "point" in heard and heard[-1] == "finished"
    assert state.status == f"Done: {len(state.points)} sizes"


def test_a_stopped_sweep_keeps_its_sizes_and_drops_what_comes_after(tmp_path):
    runner = InlineRunner()
    state, heard = sweep_state(tmp_path, runner)
    state.max_megapixels = 0.01  # more than one size
    state.start()
    while not state.points:
        runner.step()
    state.stop()
    kept = list(state.points)
    runner.run_all()
    assert state.points == kept and heard[-1] == "stopped"
    assert state.status == "Stopped after 1 sizes"


def test_a_failed_sweep_says_why(tmp_path, monkeypatch):
    from blurapp.core.measuring import sweep

    def fail(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(sweep, "compare_engines", fail)
    runner = InlineRunner()
    state, heard = sweep_state(tmp_path, runner)
    state.start()
    runner.run_all()
    assert heard[-1] == "failed" and not state.running
    assert state.failure_message() == (
        "Sweep Failed",
        "The sweep stopped: not enough memory for the next size",
    )


def test_jobs_controller_and_sweep_state_import_no_qt():
    code = (
        "import sys, blurapp.app.jobs, blurapp.app.photo_controller, blurapp.app.sweep_state; "
        "print(any(name.startswith(('PySide6', 'superqt', 'qtpy')) for name in sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "False"
