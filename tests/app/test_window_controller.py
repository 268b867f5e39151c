"""The window's one owner, driven without a QApplication: a photo opened, previewed and run; a
clip opened, played, paused and stepped; a scaling sweep, a blur by blocks and the results
saved, each through the WindowController alone, the jobs run here (InlineRunner) and the window
a view that only records what it is told."""

import time

import numpy as np
import pytest
import tifffile
from helpers.clip_files import random_levels, video_file
from helpers.photos import photo_file
from helpers.recording_view import RecordingView

from blurapp.app.running import InlineRunner
from blurapp.app.session import Session
from blurapp.app.window_controller import WindowController
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.spec import BlurSpec


@pytest.fixture
def controller():
    session = Session()
    session.set_pane_engine(0, "numpy")
    session.set_pane_engine(1, "numpy-loop")
    session.set_timed_engines(("numpy",))
    session.set_parameters(BlurSpec(kernel_size=3, sigma=1.0))
    controller = WindowController(session, InlineRunner(), RecordingView())
    yield controller
    controller.stop()


def play_until_a_frame_is_shown(controller):
    clips, view = controller.clips, controller.view
    deadline = time.monotonic() + 120  # a busy machine's threads may take long to start
    while time.monotonic() < deadline:
        clips.tick()  # what the window's timer does
        if any(p is not None for _, panes in view.said("show_played") for p, _ in panes):
            return
        time.sleep(0.01)
    pytest.fail("no blurred frame was shown in 120 s of playing")


@pytest.mark.extra("scale")
def test_a_photo_a_clip_a_sweep_blocks_and_saving_through_the_controller_alone(
    controller, tmp_path
):
    session, runner, view = controller.session, controller.runner, controller.view

    # A photo opens, and the live preview blurs it at once.
    photo = photo_file(tmp_path, size=(40, 30))
    controller.open_path(photo)
    runner.run_all()
    assert session.photo.path == photo and view.said("show_photo")
    assert view.said("remember_file") == [photo]  # Open Recent; never the bundled sample
    assert set(view.said("show_live")) == {"numpy", "numpy-loop"}

    # A change of the parameters is a step to undo, and the preview follows it.
    controller.edit_parameters(BlurSpec(kernel_size=5, sigma=1.5))
    runner.run_all()
    assert view.said("record_parameters")[-1][1].kernel_size == 5
    assert all(session.results[e].parameters.kernel_size == 5 for e in session.pane_engines)

    # Run times the engines ticked.
    controller.run()
    runner.run_all()
    assert view.said("take_typed_parameters") and session.outcome is not None
    assert set(session.outcome.result.runs) == set(session.timed)  # the panes' engines too
    assert controller.traceable()

    # A clip opens paused on its first frame, which becomes the photo.
    clip_path = video_file(tmp_path / "waves.mkv", random_levels(8, size=(32, 24)), rate=25)
    controller.open_path(clip_path)
    runner.run_all()
    assert controller.clip is not None and view.said("showed_frame") == [0]
    assert not controller.traceable()  # a clip's frame is no photo of its own

    # Playing shows each pane's frames; pausing makes the frame due the photo.
    controller.clips.play()
    assert controller.playing and view.ticking
    play_until_a_frame_is_shown(controller)
    controller.preview(moving=True)  # playing: the frames to come take the parameters
    controller.clips.pause()
    runner.run_all()
    paused = view.said("showed_frame")[-1]
    assert not controller.playing and not view.ticking

    # Stepping shows the next frame, paused.
    controller.clips.step(1)
    runner.run_all()
    assert view.said("showed_frame")[-1] == min(paused + 1, 7)

    # The scaling sweep of the frame shown, with the engines ticked.
    sweep = controller.sweep(repeats=1)
    sweep.max_megapixels = 0.01
    sweep.start()
    runner.run_all()
    assert sweep.points and all(set(p.seconds) == set(session.timed) for p in sweep.points)

    # An image too large to open blurred to a file by blocks, with the right pane's engine.
    source, output = tmp_path / "large.tif", tmp_path / "large-blurred.tif"
    tifffile.imwrite(source, np.random.default_rng(0).integers(0, 256, (64, 48), np.uint8))
    done, progress = [], []
    controller.blur_by_blocks(
        source,
        output,
        on_progress=progress.append,
        on_done=done.append,
        on_failed=pytest.fail,
        on_stopped=lambda: pytest.fail("stopped"),
    )
    runner.run_all()
    assert done and progress and output.exists()
    assert controller.blocks_engine() == "numpy-loop"
    assert not controller.blocks_offered(PhotoError(photo, "too large"))  # a small PNG

    # The results the panes show, saved under names that say what made them.
    results = session.captions.saved_results()
    assert results
    (tmp_path / "out").mkdir()
    targets = controller.result_files(tmp_path / "out", results)
    controller.save_results(targets, results)
    assert all(path.exists() for path in targets.values())
    assert {path.name for path in targets.values()} == {
        session.captions.result_file_name(engine) for engine in results
    }


class SweepDialog:
    """The sweep's dialog as the controller keeps it: its state, open until closed."""

    def __init__(self, state, jobs):
        self.state, self.jobs, self.closed = state, jobs, False
        self.heard = []
        state.subscribe(self.heard.append)

    def is_closed(self):
        return self.closed


def test_a_sweep_started_during_a_run_waits_its_turn_on_the_windows_runner(controller, tmp_path):
    from blurapp.app.jobs import compare_job, sweep_job

    session, runner, view = controller.session, controller.runner, controller.view
    controller.open_path(photo_file(tmp_path, size=(40, 30)))
    runner.run_all()
    order = []
    session.subscribe(lambda what: order.append(f"session {what}"))
    controller.run()
    assert controller.is_running()
    sweep = controller.open_sweep(SweepDialog)
    assert controller.open_sweep(SweepDialog) is sweep  # the one open, not a second
    sweep.state.subscribe(lambda what: order.append(f"sweep {what}"))
    sweep.state.repeats, sweep.state.max_megapixels = 1, 0.01
    sweep.state.start()
    # The sweep measures alone: the run is cancelled, and the window says so at once…
    assert view.said("show_run_cancelled") and not controller.is_running()
    # …but its job is on the one runner, after the run's, which lets go first.
    assert [job.job for job in runner.queue] == [compare_job, sweep_job]
    assert sweep.jobs.busy()
    runner.run_all()
    assert "sweep finished" in order and sweep.state.points
    assert view.said("show_run_stopped") and session.outcome is None
    assert not sweep.jobs.busy()
    # Closed, the next Scaling Sweep is a dialog of its own.
    sweep.closed = True
    assert controller.open_sweep(SweepDialog) is not sweep


def test_a_dialogs_jobs_stop_without_the_windows():
    from blurapp.app.running import JobGroup

    def counting(name, told, *, cancelled, report):
        for step in range(3):
            told.append((name, step))
            yield step
        return name

    runner, told, answers = InlineRunner(), [], []
    window_job = runner.start(counting, "window", told, on_return=answers.append)
    dialog = JobGroup(runner)
    dialog_job = dialog.start(
        counting, "dialog", told, on_event=told.append, on_return=answers.append
    )
    runner.step()
    assert dialog.busy() and not dialog_job.wait()
    assert dialog.stop() is False  # still waiting for its turn: not ended yet
    assert not dialog.busy()
    runner.run_all()
    assert window_job.wait() and dialog_job.wait()
    # The window's job ran through; the dialog's, quit before its turn, never began or told.
    assert answers == ["window"] and told == [("window", 0), ("window", 1), ("window", 2)]


def test_the_controller_is_made_first_and_runs_a_photo_for_a_window_attached_later(tmp_path):
    # The root without a window: its session, its runner, and no view yet.
    session, runner = Session(), InlineRunner()
    controller = WindowController(session, runner)
    controller.set_pane_engine(0, "numpy")
    controller.set_pane_engine(1, "numpy-loop")
    controller.set_timed_engines(("numpy",))
    controller.set_live(False)
    controller.set_show("original")
    assert not runner.busy()  # nothing to run without a photo
    view = RecordingView()
    controller.attach(view)
    with pytest.raises(RuntimeError):
        controller.attach(view)  # one window
    controller.open_path(photo_file(tmp_path, size=(40, 30)))
    runner.run_all()
    assert view.said("show_photo") and view.said("show_live") == []  # the preview is off
    controller.run()
    runner.run_all()
    assert set(session.outcome.result.runs) == {"numpy", "numpy-loop"}
    controller.edit_parameters(BlurSpec(kernel_size=5, sigma=1.5))
    runner.run_all()
    assert view.said("show_live") == []  # off: the panes wait
    controller.set_live(True)  # on: they catch up at once
    runner.run_all()
    assert set(view.said("show_live")) == {"numpy", "numpy-loop"}
    assert session.show == "original"
    controller.stop()


def test_a_change_of_the_parameters_is_drawn_once_and_a_typed_note_without_one_is_drawn(
    controller, tmp_path
):
    # The window draws a change of the parameters (the boxes' notes, every caption) when the
    # session tells its listeners: the controller does not ask for it a second time, inside
    # the live preview's every change. A text typed that changes no parameter (its note
    # changes alone) is drawn at the controller's asking.
    session, runner, view = controller.session, controller.runner, controller.view
    told = []
    session.subscribe(told.append)
    controller.open_path(photo_file(tmp_path, size=(40, 30)))
    runner.run_all()
    view.told.clear()
    told.clear()
    controller.edit_parameters(BlurSpec(kernel_size=5, sigma=1.5))
    assert told.count("parameters") == 1
    assert view.said("show_parameters") == []
    assert view.said("record_parameters")  # a step to undo, and previewed
    controller.edit_parameters(BlurSpec(kernel_size=5, sigma=1.5))
    assert told.count("parameters") == 1
    assert len(view.said("show_parameters")) == 1
    runner.run_all()
    assert all(session.results[e].parameters.sigma == 1.5 for e in session.pane_engines)


def test_a_photo_that_fails_to_open_leaves_the_clip_opened_after_it_opening(controller, tmp_path):
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not a picture")
    clip = video_file(tmp_path / "waves.mkv", random_levels(4, size=(32, 24)), rate=25)
    session, runner, view = controller.session, controller.runner, controller.view

    controller.open_path(broken)
    controller.open_path(clip)  # chosen before the photo's failure is heard
    while not view.said("show_open_failed"):
        assert runner.step()

    assert session.opening == "waves.mkv"  # the panes still say the clip is opening
    runner.run_all()
    assert controller.clip is not None and session.opening is None
