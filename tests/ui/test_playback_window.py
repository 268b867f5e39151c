"""A clip in the window: it opens paused on its first frame, plays with each pane's frames per
second shown (a slow engine dropping frames), pauses, steps, seeks, and a paused frame is a
photo like any other (the model without Qt: tests/app/test_playback.py)."""

import threading
import time

import numpy as np
import pytest
from helpers.clips import CameraThatGoes, OneDecoder
from helpers.oracle import blur_oracle, slow_oracle_engine
from helpers.photos import photo_file
from helpers.window import RUN_TIMEOUT_MS, grey_values, jax_settled, jobs_done
from PySide6.QtCore import Qt, QTimer

from blurapp.app.clip_jobs import RUN_FRAMES
from blurapp.core import TOLERANCE
from blurapp.core.engines import Engine, register, unregister
from blurapp.core.engines.runs import Call, FirstCall
from blurapp.core.media.clip import ClipError, ClipInfo, FramesInMemory

FRAME_SHAPE = (48, 64)


def frames(count=12, seed=0):
    return np.random.default_rng(seed).random((count, *FRAME_SHAPE), dtype=np.float32)


@pytest.fixture
def slow_engine():
    """An engine that blurs right (scipy's correlation) but takes 0.3 s a frame."""
    with slow_oracle_engine(0.3) as name:
        yield name


def open_clip(qtbot, window, clip):
    with qtbot.waitSignal(window.display.clip_opened, timeout=RUN_TIMEOUT_MS):
        window.controller.open_clip(clip)


def play_to_the_end(qtbot, window, seconds=30):
    states = []
    window.display.played.connect(states.append)
    with qtbot.waitSignal(window.display.playing_changed, timeout=seconds * 1000) as stopped:
        window.actions.play.trigger()
    assert stopped.args == [True]
    qtbot.waitUntil(lambda: not window.controller.clips.playing, timeout=seconds * 1000)
    return states


def test_a_clip_opens_paused_on_its_first_frame_as_the_windows_photo(qtbot, make_window):
    window = make_window(wait=False)
    clip = FramesInMemory(frames(12), frames_per_second=10, name="walk.mp4")
    assert not window.actions.play.isEnabled() and not window.widgets.clip_bar.isVisible()
    open_clip(qtbot, window, clip)
    assert window.widgets.clip_bar.isVisible() and window.actions.play.isEnabled()
    assert window.widgets.clip_bar.slider.maximum() == 11
    assert window.widgets.clip_bar.frame_label.text() == "frame 1 of 12"
    np.testing.assert_array_equal(window.photo.pixels, clip.frame(0))
    assert window.windowTitle().startswith("walk.mp4")


def test_both_panes_show_frames_per_second_and_the_slow_engine_drops_frames(
    qtbot, make_window, slow_engine
):
    window = make_window(wait=False)
    jax_settled(qtbot, window)
    window.controller.set_pane_engine(0, "numpy")
    window.controller.set_pane_engine(1, slow_engine)
    clip = FramesInMemory(frames(20), frames_per_second=10)
    open_clip(qtbot, window, clip)
    # The window's own timer, beside the playing: it ticks while an engine blurs.
    ticks_while_blurring = []

    def tick():
        tracks = (
            window.controller.clips.player.timeline.tracks if window.controller.clips.player else {}
        )
        if tracks and tracks[slow_engine].busy:
            ticks_while_blurring.append(time.perf_counter())

    captions = []
    window.display.played.connect(
        lambda _: captions.append([p.caption_text() for p in window.widgets.panes])
    )
    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(20)
    try:
        states = play_to_the_end(qtbot, window)
    finally:
        timer.stop()
    assert len(ticks_while_blurring) >= 2  # the event loop went on while frames were blurred
    last = states[-1]
    numpy_words, slow_words = last.pane_words["numpy"], last.pane_words[slow_engine]
    assert numpy_words.endswith("frames/s · 0 dropped"), numpy_words
    dropped = int(slow_words.split(" · ")[1].split()[0])
    assert dropped > 0, slow_words
    left, right = captions[-1]  # the panes while playing
    assert left.startswith("NumPy · ") and "frames/s" in left
    assert right.startswith("Slow · ") and f"{dropped} dropped" in right
    assert "NumPy" in last.headline and "× Slow" in last.headline
    # What the panes showed while playing was each frame's blur.
    for state in states:
        for shown in state.shown.values():
            expected = blur_oracle(clip.frame(shown.index), window.session.parameters.kernel)
            np.testing.assert_allclose(shown.output, expected, atol=1e-5, rtol=0)
    # At the end it pauses on the last frame, which is the window's photo.
    qtbot.waitUntil(lambda: window.widgets.clip_bar.frame_label.text() == "frame 20 of 20")
    qtbot.waitUntil(lambda: window.photo is not None and window.photo.pixels is not None)
    qtbot.waitUntil(lambda: np.array_equal(window.photo.pixels, clip.frame(19)))
    # The rates it played at stay in the status line.
    assert window.widgets.status_label.text().endswith(" · frame 20 of 20 · " + last.headline)


def test_each_panes_frame_rate_stays_after_the_clip_ends_until_it_plays_again_or_runs(
    qtbot, make_window
):
    window = make_window(wait=False, live=True)
    jax_settled(qtbot, window)
    open_clip(qtbot, window, FramesInMemory(frames(30), frames_per_second=20))
    panes = window.widgets.panes
    last = play_to_the_end(qtbot, window)[-1]
    # The frame paused on is previewed as a photo, under the rates it played at.
    qtbot.waitUntil(
        lambda: all("live: " in pane.caption_text() for pane in panes), timeout=RUN_TIMEOUT_MS
    )
    for pane, engine in zip(panes, ("numpy", "jax"), strict=True):
        words = last.pane_words[engine]
        assert "frames/s · " in words and words.endswith(" dropped"), words
        assert f"played: {words}" in pane.caption_text()
    with qtbot.waitSignal(window.display.playing_changed, timeout=RUN_TIMEOUT_MS):
        window.actions.play.trigger()
    assert not any("played: " in pane.caption_text() for pane in panes)
    qtbot.waitUntil(
        lambda: all(" dropped" in pane.caption_text() for pane in panes), timeout=RUN_TIMEOUT_MS
    )
    assert not any("played: " in pane.caption_text() for pane in panes)  # the playing's own
    with qtbot.waitSignal(window.display.frame_shown, timeout=RUN_TIMEOUT_MS):
        window.controller.clips.pause()  # paused, or at its end already: its rates again
    assert all("played: " in pane.caption_text() for pane in panes)
    with qtbot.waitSignal(window.display.clip_compared, timeout=RUN_TIMEOUT_MS):
        window.controller.run()
    assert not any("played: " in pane.caption_text() for pane in panes)


def test_space_pauses_and_the_live_preview_blurs_the_frame_paused_on(qtbot, make_window):
    window = make_window(wait=False, live=True)
    jax_settled(qtbot, window)
    clip = FramesInMemory(frames(300), frames_per_second=20)
    open_clip(qtbot, window, clip)
    window.activateWindow()
    window.widgets.panes[0].view.setFocus()
    with qtbot.waitSignal(window.display.playing_changed, timeout=RUN_TIMEOUT_MS):
        qtbot.keyClick(window.widgets.panes[0].view, Qt.Key.Key_Space)
    qtbot.waitUntil(
        lambda: "frames/s" in window.widgets.panes[0].caption_text(), timeout=RUN_TIMEOUT_MS
    )
    seen = []
    window.display.live_shown.connect(seen.append)
    with qtbot.waitSignal(window.display.frame_shown, timeout=RUN_TIMEOUT_MS) as paused:
        qtbot.keyClick(window.widgets.panes[0].view, Qt.Key.Key_Space)
    index = paused.args[0]
    assert 0 < index < 299 and not window.controller.clips.playing
    assert window.widgets.clip_bar.frame_label.text() == f"frame {index + 1} of 300"
    np.testing.assert_array_equal(window.photo.pixels, clip.frame(index))
    qtbot.waitUntil(lambda: {"numpy", "jax"} <= set(seen), timeout=RUN_TIMEOUT_MS)
    expected = blur_oracle(clip.frame(index), window.session.parameters.kernel)
    for engine in ("numpy", "jax"):
        output = window.session.results[engine].run.output
        np.testing.assert_allclose(output, expected, atol=1e-5, rtol=0)
    assert "live: " in window.widgets.panes[0].caption_text()


def test_arrows_step_a_frame_and_the_slider_goes_to_one(qtbot, make_window):
    window = make_window(wait=False)
    clip = FramesInMemory(frames(12), frames_per_second=10)
    open_clip(qtbot, window, clip)
    view = window.widgets.panes[1].view
    view.setFocus()
    for key, index in [(Qt.Key.Key_Right, 1), (Qt.Key.Key_Right, 2), (Qt.Key.Key_Left, 1)]:
        with qtbot.waitSignal(window.display.frame_shown, timeout=RUN_TIMEOUT_MS) as shown:
            qtbot.keyClick(view, key)
        assert shown.args == [index]
        np.testing.assert_array_equal(window.photo.pixels, clip.frame(index))
        assert window.widgets.clip_bar.slider.value() == index
    with qtbot.waitSignal(window.display.frame_shown, timeout=RUN_TIMEOUT_MS) as shown:
        window.widgets.clip_bar.slider.setValue(9)
    assert shown.args == [9] and window.widgets.clip_bar.frame_label.text() == "frame 10 of 12"
    np.testing.assert_array_equal(window.photo.pixels, clip.frame(9))
    # Left at the first frame stays there.
    window.widgets.clip_bar.slider.setValue(0)
    qtbot.waitUntil(lambda: np.array_equal(window.photo.pixels, clip.frame(0)))
    with qtbot.waitSignal(window.display.frame_shown, timeout=RUN_TIMEOUT_MS) as shown:
        qtbot.keyClick(view, Qt.Key.Key_Left)
    assert shown.args == [0]


def test_run_while_playing_pauses_and_times_a_span_of_frames_from_the_one_paused_on(
    qtbot, make_window
):
    window = make_window(wait=False)
    jax_settled(qtbot, window)
    clip = FramesInMemory(frames(400), frames_per_second=20)
    open_clip(qtbot, window, clip)
    with qtbot.waitSignal(window.display.playing_changed, timeout=RUN_TIMEOUT_MS):
        window.actions.play.trigger()
    with qtbot.waitSignal(window.display.clip_compared, timeout=RUN_TIMEOUT_MS) as compared:
        window.controller.run()
    assert not window.controller.clips.playing
    result = compared.args[0]
    index = window.controller.clips.player.timeline.position
    assert (result.start, result.frames) == (index, RUN_FRAMES)
    assert set(result.runs) == {"numpy", "jax"} and not result.errors
    assert result.differences["jax"] <= TOLERANCE
    # The figures say each engine's frames a second and the speed-up, as compare CLIP does.
    shown = {key: window.widgets.figures.value(key) for key in window.widgets.figures.names()}
    rates = [text for text in shown.values() if "frames/s" in text]
    assert len(rates) >= 2, shown
    assert "×" in window.widgets.figures.value("speedup")
    assert (
        not window.widgets.cancel_button.isEnabled() and not window.widgets.progress_bar.isVisible()
    )


def test_cancel_stops_a_run_on_a_clip(qtbot, make_window, slow_engine):
    window = make_window(wait=False)
    clip = FramesInMemory(frames(100), frames_per_second=20)
    open_clip(qtbot, window, clip)
    window.controller.set_timed(slow_engine, True)
    compared = []
    window.display.clip_compared.connect(compared.append)
    window.controller.run()
    assert window.widgets.cancel_button.isEnabled()
    with qtbot.waitSignal(window.display.run_cancelled, timeout=RUN_TIMEOUT_MS):
        window.widgets.cancel_button.click()
    assert (
        not window.widgets.cancel_button.isEnabled() and not window.widgets.progress_bar.isVisible()
    )
    jobs_done(qtbot, window)  # whatever the cancelled run still sent has come
    assert compared == []


def test_a_camera_that_goes_away_mid_play_is_said_and_the_window_stays_up(
    qtbot, make_window, warnings_shown, tmp_path
):
    window = make_window(wait=False)
    open_clip(qtbot, window, CameraThatGoes(shape=FRAME_SHAPE))
    assert not window.widgets.clip_bar.slider.isVisible()
    with qtbot.waitSignal(window.display.clip_stopped, timeout=RUN_TIMEOUT_MS) as stopped:
        window.actions.play.trigger()
    assert stopped.args == ["Camera: the camera went away"]
    assert warnings_shown == [("The Clip Stopped", "Camera: the camera went away")]
    assert not window.controller.clips.playing and window.isVisible()
    # The window goes on: a photo opens after it.
    with qtbot.waitSignal(window.display.photo_shown, timeout=RUN_TIMEOUT_MS):
        window.open_file(photo_file(tmp_path))
    assert not window.widgets.clip_bar.isVisible() and not window.actions.play.isEnabled()


def test_a_file_the_clip_readers_take_opens_as_a_clip(qtbot, make_window, monkeypatch, tmp_path):
    from blurapp.core.media import clip_files

    clip = FramesInMemory(frames(5), frames_per_second=10, name="walk.mp4")
    asked = []

    def fake_open_clip_file(path, *, color):
        asked.append((path, color))
        return clip

    monkeypatch.setattr(clip_files, "is_clip", lambda path: path.suffix == ".mp4")
    monkeypatch.setattr(clip_files, "open_clip_file", fake_open_clip_file)
    window = make_window(wait=False)
    path = tmp_path / "walk.mp4"
    path.write_bytes(b"")
    with qtbot.waitSignal(window.display.clip_opened, timeout=RUN_TIMEOUT_MS):
        window.open_file(path)
    assert asked == [(path, True)] and window.controller.clips.clip is clip
    assert window.recent.paths()[0] == str(path.resolve())


def test_a_pane_given_another_engine_while_playing_plays_on_with_it(
    qtbot, make_window, slow_engine
):
    window = make_window(wait=False)
    window.controller.set_pane_engine(0, "numpy")
    window.controller.set_pane_engine(1, "numpy-loop")
    clip = FramesInMemory(frames(400), frames_per_second=20)
    open_clip(qtbot, window, clip)
    with qtbot.waitSignal(window.display.playing_changed, timeout=RUN_TIMEOUT_MS):
        window.actions.play.trigger()
    window.controller.set_pane_engine(1, slow_engine)
    assert window.controller.clips.playing
    qtbot.waitUntil(
        lambda: (
            window.widgets.panes[1].caption_text().startswith("Slow · ")
            and "frames/s" in window.widgets.panes[1].caption_text()
        ),
        timeout=RUN_TIMEOUT_MS,
    )
    assert window.controller.clips.player.timeline.engines == ("numpy", slow_engine)
    with qtbot.waitSignal(window.display.frame_shown, timeout=RUN_TIMEOUT_MS):
        window.actions.play.trigger()


def test_closing_the_window_while_playing_stops_every_thread(qtbot, make_window, slow_engine):
    window = make_window(wait=False)
    jax_settled(qtbot, window)
    window.controller.set_pane_engine(0, "numpy")
    window.controller.set_pane_engine(1, slow_engine)
    threads = threading.active_count()
    open_clip(qtbot, window, FramesInMemory(frames(400), frames_per_second=20))
    with qtbot.waitSignal(window.display.playing_changed, timeout=RUN_TIMEOUT_MS):
        window.actions.play.trigger()
    qtbot.waitUntil(lambda: window.controller.clips.player.timeline.tracks[slow_engine].busy)
    player = window.controller.clips.player
    window.close()
    assert window.controller.clips.player is None and not player.playing
    assert threading.active_count() == threads


class CutShort(FramesInMemory):
    """A file whose frames stop decoding at frame 3, as a truncated video's do."""

    def frame(self, index):
        if index >= 3:
            raise ClipError("cut.mp4", "the file ends at frame {count}", count=3)
        return super().frame(index)


def test_a_frame_that_cannot_be_read_is_said_and_the_clip_stays_open(
    qtbot, make_window, warnings_shown
):
    window = make_window(wait=False)
    clip = CutShort(frames(8), frames_per_second=10, name="cut.mp4")
    open_clip(qtbot, window, clip)
    window.widgets.clip_bar.slider.setValue(5)
    qtbot.waitUntil(lambda: bool(warnings_shown), timeout=RUN_TIMEOUT_MS)
    assert warnings_shown == [("Cannot Read the Frame", "cut.mp4: the file ends at frame 3")]
    np.testing.assert_array_equal(window.photo.pixels, clip.frame(0))  # the frame shown stays
    with qtbot.waitSignal(window.display.frame_shown, timeout=RUN_TIMEOUT_MS) as shown:
        window.widgets.clip_bar.slider.setValue(2)
    assert shown.args == [2] and window.controller.clips.clip is clip


def test_play_at_once_after_dragging_the_slider_plays_each_frame_as_it_is(qtbot, make_window):
    window = make_window(wait=False)
    jax_settled(qtbot, window)  # the frames read for the slider are the runner's next jobs
    window.controller.set_pane_engine(0, "numpy")
    window.controller.set_pane_engine(1, "numpy-loop")
    ramp = np.arange(80, dtype=np.float32)[:, None, None] / 80 * np.ones((1, *FRAME_SHAPE))
    open_clip(qtbot, window, OneDecoder(ramp, seek_seconds=0.01, frames_per_second=40))
    wrong = []

    def played(state):
        for shown in state.shown.values():
            if shown.index >= len(ramp) or not np.allclose(shown.output, ramp[shown.index]):
                wrong.append((shown.engine, shown.index))

    window.display.played.connect(played)
    for index in range(40, 80, 2):  # dragged while paused: a frame read for each place
        window.widgets.clip_bar.slider.setValue(index)
    window.widgets.clip_bar.slider.setValue(0)
    play_to_the_end(qtbot, window)
    assert wrong == []


@pytest.fixture
def stuck_engines():
    """Two engines that take 4 s a frame and cannot be stopped inside it (as one compiled
    call cannot); after the test, the frames they are in end at once and their threads are
    waited for."""
    from blurapp.app.clip_player import wait_for_playing

    test_over = threading.Event()

    def first_call(image, kernel, *, platform, progress, cancelled):
        test_over.wait(4)
        return FirstCall(output=image.copy(), again=lambda: Call(4), seconds=4)

    names = ("stuck1", "stuck2")
    for name in names:
        register(Engine(name, name.title(), first_call))
    yield names
    test_over.set()
    assert wait_for_playing(30)
    for name in names:
        unregister(name)


@pytest.mark.parametrize("action", ["another engine", "another clip", "close"])
def test_the_window_never_waits_for_an_engine_stuck_in_a_frame(
    qtbot, make_window, stuck_engines, action
):
    window = make_window(wait=False)
    for pane, engine in enumerate(stuck_engines):
        window.controller.set_pane_engine(pane, engine)
    open_clip(qtbot, window, FramesInMemory(frames(400), frames_per_second=20))
    with qtbot.waitSignal(window.display.playing_changed, timeout=RUN_TIMEOUT_MS):
        window.actions.play.trigger()
    tracks = window.controller.clips.player.timeline.tracks
    qtbot.waitUntil(lambda: all(tracks[engine].busy for engine in stuck_engines))
    began = time.perf_counter()
    if action == "another engine":
        window.controller.set_pane_engine(1, "numpy")
        assert window.controller.clips.playing
    elif action == "another clip":
        window.controller.open_clip(FramesInMemory(frames(5), frames_per_second=20))
    else:
        window.close()
    seconds = time.perf_counter() - began
    # Closing waits a little for the threads, all of them together; nothing else waits.
    assert seconds < (2.5 if action == "close" else 0.5)


class CutShortReading(FramesInMemory):
    """A file whose decoding stops at frame 3 as it plays, as a truncated video's does."""

    def _read(self, start):
        for index in range(start, len(self._frames)):
            if index >= 3:
                raise ClipError("cut.mp4", "the file ends at frame {count}", count=3)
            yield self._frames[index].copy()


def test_a_clip_that_stops_playing_pauses_on_the_last_frame_that_decoded(
    qtbot, make_window, warnings_shown
):
    window = make_window(wait=False)
    clip = CutShortReading(frames(8), frames_per_second=20, name="cut.mp4")
    open_clip(qtbot, window, clip)
    with qtbot.waitSignal(window.display.frame_shown, timeout=RUN_TIMEOUT_MS) as paused:
        window.actions.play.trigger()
    assert paused.args == [2] and not window.controller.clips.playing
    assert warnings_shown == [("The Clip Stopped", "cut.mp4: the file ends at frame 3")]
    assert window.widgets.clip_bar.frame_label.text() == "frame 3 of 3"
    np.testing.assert_array_equal(window.photo.pixels, clip.frame(2))


def test_a_clip_cut_short_plays_again_to_where_it_stops_without_a_second_warning(
    qtbot, make_window, warnings_shown
):
    window = make_window(wait=False)
    clip = CutShortReading(frames(8), frames_per_second=20, name="cut.mp4")
    open_clip(qtbot, window, clip)
    with qtbot.waitSignal(window.display.frame_shown, timeout=RUN_TIMEOUT_MS):
        window.actions.play.trigger()
    with qtbot.waitSignal(window.display.frame_shown, timeout=RUN_TIMEOUT_MS):
        window.widgets.clip_bar.slider.setValue(0)
    shown = set()
    window.display.played.connect(lambda state: shown.update(f.index for f in state.shown.values()))
    with qtbot.waitSignal(window.display.frame_shown, timeout=RUN_TIMEOUT_MS) as paused:
        window.actions.play.trigger()
    assert paused.args == [2] and {0, 2} <= shown <= {0, 1, 2}
    assert warnings_shown == [("The Clip Stopped", "cut.mp4: the file ends at frame 3")]
    np.testing.assert_array_equal(window.photo.pixels, clip.frame(2))


class CapturedFrame:
    """What a camera's video sink hands the window's thread: a frame that gives its picture."""

    def __init__(self, image):
        self.image = image

    def toImage(self):
        return self.image


def test_a_cameras_frame_is_only_copied_on_the_windows_thread_and_read_as_floats(qtbot):
    from PySide6.QtGui import QImage

    from blurapp.ui.camera import CameraClip

    levels = np.random.default_rng(0).integers(0, 256, (6, 8, 3), dtype=np.uint8)
    data = levels.tobytes()
    image = QImage(data, 8, 6, 24, QImage.Format.Format_RGB888)
    camera = CameraClip.__new__(CameraClip)  # its frames' side, without a device
    camera.info = ClipInfo("Camera", 8, 6, None, 30.0, colour=True)
    camera._begin_frames()
    camera._on_frame(CapturedFrame(image))
    held = camera._newest[1]
    assert held.dtype == np.uint8  # the bytes, as captured: floats are the reader's work
    frame = next(camera.frames())
    assert frame.dtype == np.float32
    np.testing.assert_allclose(frame, levels / 255, atol=1e-7)
    camera._closed = True


def test_jax_starting_while_a_clips_run_goes_on_leaves_its_cancel_and_progress(
    qtbot, make_window, slow_engine
):
    window = make_window(wait=False)
    jax_settled(qtbot, window)
    window.controller.set_pane_engine(1, slow_engine)
    open_clip(qtbot, window, FramesInMemory(frames(12), frames_per_second=10))
    window.controller.run()  # a span of the clip's frames, the slow engine's 0.3 s each
    qtbot.waitUntil(window.actions.cancel.isEnabled, timeout=RUN_TIMEOUT_MS)
    # JAX's start told while the clip's run goes on (a slow JAX start on a GPU machine).
    window.session.jax_started("cpu")
    assert window.actions.cancel.isEnabled()
    assert window.widgets.progress_bar.isVisible()
    window.controller.cancel_by_user()
    jobs_done(qtbot, window)


def test_a_playing_clips_frames_come_fitted_to_each_pane_and_are_drawn_pixel_for_pixel(
    qtbot, make_window
):
    """A clip larger than the panes plays as a photo's live preview shows: each pane is
    brought each frame reduced to fit its view, off the window's thread, and draws it as it is."""
    from blurapp.app.pyramid import fitted, fitted_size

    window = make_window(wait=False)
    jax_settled(qtbot, window)
    shape = (480, 900)
    clip = FramesInMemory(
        np.random.default_rng(2).random((6, *shape), dtype=np.float32), frames_per_second=10
    )
    open_clip(qtbot, window, clip)
    checked = []

    def look(state):
        for pane, engine in zip(window.widgets.panes, window.session.pane_engines, strict=True):
            frame = state.shown.get(engine)
            if frame is None or not pane.view.is_fitted():
                continue
            picture = fitted(frame.picture)
            size = fitted_size(shape, pane.view.screen_size())
            assert picture is not None and picture.shape == size, engine
            pane.view.set_detail_on(False)  # the 100% inset would cover some of the pixels
            drawn = grey_values(pane.view.viewport().grab().toImage())
            corner = pane.view.mapFromScene(0, 0)
            left, top = corner.x(), corner.y()
            np.testing.assert_array_equal(
                drawn[top : top + size[0], left : left + size[1]], picture
            )
            checked.append(engine)

    window.display.played.connect(look)
    play_to_the_end(qtbot, window)
    assert set(checked) == set(window.session.pane_engines)
