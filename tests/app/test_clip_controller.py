"""A clip in the window, decided without Qt: opening a clip or a photo, pausing, stepping,
seeking, playing and a Run on the clip's frames, driven through a ClipController with the jobs
run here (InlineRunner) and a view that only records what it is told."""

import time

import numpy as np
import pytest
from helpers.clip_files import random_levels, video_file
from helpers.photos import photo_file
from helpers.recording_view import RecordingView

from blurapp.app.running import InlineRunner
from blurapp.app.session import Session
from blurapp.app.window_controller import WindowController
from blurapp.core.media.clip_files import open_clip_file
from blurapp.core.spec import BlurSpec

FRAMES = 12


@pytest.fixture
def controller(tmp_path):
    """A session showing NumPy in both panes, timing NumPy, with its window's controller."""
    session, runner = Session(), InlineRunner()
    session.set_live(False)
    session.set_pane_engine(0, "numpy")
    session.set_pane_engine(1, "numpy")
    session.set_timed_engines(("numpy",))
    session.set_parameters(BlurSpec(kernel_size=3, sigma=1.0))
    controller = WindowController(session, runner, RecordingView())
    yield controller
    controller.stop()


@pytest.fixture
def window(controller):
    """The session, the runner, the clip's controller and what it tells the window."""
    return controller.session, controller.runner, controller.clips, controller.view


@pytest.fixture
def clip_path(tmp_path):
    return video_file(tmp_path / "waves.mkv", random_levels(FRAMES, size=(32, 24)), rate=25)


def frame(path, index):
    with open_clip_file(path) as clip:
        return np.asarray(clip.frame(index))


def test_a_clip_opens_paused_on_its_first_frame_as_the_windows_photo(window, clip_path):
    session, runner, clips, view = window
    clips.open_path(clip_path)
    assert view.said("show_status") == ["Opening waves.mkv…"]
    runner.run_all()
    assert view.said("show_clip_bar") == [FRAMES]
    assert view.said("enable_clip_actions")[-1] is True
    [opened] = view.said("opened_clip")
    assert opened is clips.clip and view.said("showed_frame") == [0]
    np.testing.assert_array_equal(session.photo.pixels, frame(clip_path, 0))
    assert view.said("show_status")[-1].startswith("waves.mkv · frame 1 of 12")
    assert view.said("remember_file") == [clip_path]


def test_a_photo_opened_after_a_clip_closes_the_clip(controller, window, clip_path, tmp_path):
    session, runner, clips, view = window
    controller.open_path(clip_path)
    runner.run_all()
    photo = photo_file(tmp_path)
    controller.open_path(photo)
    runner.run_all()
    assert clips.clip is None and session.photo.path == photo
    assert view.said("hide_clip_bar") and view.said("enable_clip_actions")[-1] is False


def test_stepping_and_seeking_show_each_frame_paused(window, clip_path):
    session, runner, clips, view = window
    clips.open_path(clip_path)
    runner.run_all()
    clips.step(1)
    runner.run_all()
    np.testing.assert_array_equal(session.photo.pixels, frame(clip_path, 1))
    clips.seek(7)
    runner.run_all()
    np.testing.assert_array_equal(session.photo.pixels, frame(clip_path, 7))
    clips.step(-3)
    runner.run_all()
    assert view.said("showed_frame") == [0, 1, 7, 4]
    np.testing.assert_array_equal(session.photo.pixels, frame(clip_path, 4))
    clips.step(-10)  # before the first frame: the first
    runner.run_all()
    assert view.said("showed_frame")[-1] == 0


def test_playing_shows_each_panes_frames_then_pausing_makes_the_frame_the_photo(window, clip_path):
    session, runner, clips, view = window
    clips.open_path(clip_path)
    runner.run_all()
    clips.play()
    assert clips.playing and view.ticking and view.said("changed_playing") == [True]
    assert session.photo is None or session.running is None  # the panes are the playing's
    deadline = time.monotonic() + 120  # a busy machine's threads may take long to start
    while time.monotonic() < deadline:
        clips.tick()  # what the window's timer does
        pictures = [picture for _, panes in view.said("show_played") for picture, _ in panes]
        if any(picture is not None for picture in pictures):
            break
        time.sleep(0.01)
    else:
        pytest.fail("no blurred frame was shown in 120 s of playing")
    _, panes = view.said("show_played")[-1]
    assert len(panes) == 2  # one for each pane, in the panes' order
    clips.pause()
    runner.run_all()
    paused = view.said("showed_frame")[-1]
    assert not clips.playing and not view.ticking and view.said("changed_playing")[-1] is False
    np.testing.assert_array_equal(session.photo.pixels, frame(clip_path, paused))


def test_a_run_on_the_clip_times_its_frames_from_the_one_shown(window, clip_path):
    _, runner, clips, view = window
    clips.open_path(clip_path)
    runner.run_all()
    clips.seek(4)
    runner.run_all()
    assert clips.run()
    assert view.said("show_running") == [True]
    assert view.said("show_clip_stage")[0][2] == "Choosing each engine's batch size…"
    runner.run_all()
    [result] = view.said("compared_clip")
    assert (result.start, result.frames) == (4, FRAMES - 4)
    assert set(result.runs) == {"numpy"}
    result_shown, rows = view.said("show_clip_result")[-1]
    assert result_shown is result and any(row.key == "numpy.frames_per_second" for row in rows)
    assert view.said("show_running")[-1] is False


def test_a_run_cancelled_sends_nothing_more(window, clip_path):
    _, runner, clips, view = window
    clips.open_path(clip_path)
    runner.run_all()
    assert clips.run()
    assert clips.cancel_run()
    runner.run_all()
    assert view.said("compared_clip") == [] and view.said("show_running") == [True, False]
    assert not clips.cancel_run()  # nothing left to cancel


def test_a_clip_that_cannot_be_opened_is_told(window, tmp_path):
    _, runner, clips, view = window
    broken = tmp_path / "broken.mkv"
    broken.write_bytes(b"\x1a\x45\xdf\xa3" + bytes(range(256)) * 8)
    clips.open_path(broken)
    runner.run_all()
    [error] = view.said("show_open_failed")
    assert str(broken) in str(error)
    assert view.said("show_status")[-1] == "Could not open the clip" and clips.clip is None


def play_to_the_end(clips, runner, view, seconds=120):
    """Play, ticking as the window's timer does, until the clip pauses at its end; each pane's
    words at the last look."""
    clips.play()
    deadline = time.monotonic() + seconds  # a busy machine's threads may take long to start
    while clips.playing and time.monotonic() < deadline:
        clips.tick()
        time.sleep(0.01)
    assert not clips.playing, f"the clip did not end in {seconds} s of playing"
    runner.run_all()  # the last frame, paused on, becomes the photo
    _, panes = view.said("show_played")[-1]
    return [words for _, words in panes]


def test_a_clips_frame_rates_stay_in_the_captions_after_it_ends_until_play_or_run(
    window, clip_path
):
    session, runner, clips, view = window
    clips.open_path(clip_path)
    runner.run_all()
    last_words = play_to_the_end(clips, runner, view)
    assert view.said("showed_frame")[-1] == FRAMES - 1
    for pane, words in enumerate(last_words):
        assert "frames/s · " in words and words.endswith(" dropped")
        assert f"played: {words}" in session.captions.caption(pane).text()
    clips.play()
    assert not any("played: " in session.captions.caption(pane).text() for pane in (0, 1))
    play_to_the_end(clips, runner, view)
    assert "played: " in session.captions.caption(0).text()
    assert clips.run()
    assert not any("played: " in session.captions.caption(pane).text() for pane in (0, 1))
