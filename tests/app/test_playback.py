"""A clip playing through the engines: the clock, the frames each engine takes and drops, its
frames per second and the words (a clock of the test's own), then the threads on a real clip."""

import itertools
import sys
import threading
import time
import weakref

import numpy as np
import pytest
from helpers.clips import CameraThatGoes, OneDecoder
from helpers.oracle import blur_oracle, covered_mean, slow_oracle_engine

from blurapp.app.clip_jobs import frame_job, opens_as_clip
from blurapp.app.clip_player import FRAMES_IN_FLIGHT, READ_AHEAD, THREAD_NAME, ClipPlayer
from blurapp.app.clip_timeline import ClipTimeline
from blurapp.app.running import InlineRunner
from blurapp.core.engines import Engine, LivePreview, register, unregister
from blurapp.core.engines.runs import BlurCancelled, Call, FirstCall
from blurapp.core.media.clip import Clip, ClipError, ClipInfo, FramesInMemory
from blurapp.core.spec import BlurSpec

SPEC = BlurSpec(kernel_size=5, sigma=1.5)


def info(frame_count=30, frames_per_second=10.0):
    return ClipInfo("clip.mp4", 8, 6, frame_count, frames_per_second, colour=False)


def play_through(timeline, engine, seconds_per_frame, until, *, tick=0.01):
    """Drive `engine` as its thread would, on a clock of the test's own: whenever it is free it
    takes the frame due, and shows it `seconds_per_frame` later. The frames it showed."""
    shown, now, busy_until, frame = [], 0.0, None, None
    timeline.play(now)
    while now < until:
        if busy_until is not None and now >= busy_until:
            timeline.shown(engine, frame, now)
            shown.append(frame)
            busy_until = None
        if busy_until is None:
            frame = timeline.take(engine, timeline.due(now))
            if frame is not None:
                busy_until = now + seconds_per_frame
        now = round(now + tick, 6)
    return shown


def test_an_engine_that_keeps_up_shows_every_frame_at_the_clips_rate():
    timeline = ClipTimeline(info(), ("numpy",))
    shown = play_through(timeline, "numpy", 0.02, until=2.0)
    assert shown == list(range(20))
    track = timeline.tracks["numpy"]
    assert track.dropped == 0
    assert timeline.rate("numpy") == pytest.approx(10.0)
    assert timeline.pane_words("numpy") == "10.0 frames/s · 0 dropped"


def test_an_engine_that_falls_behind_takes_the_newest_frame_and_counts_those_it_passed_over():
    timeline = ClipTimeline(info(), ("slow",))
    shown = play_through(timeline, "slow", 0.3, until=2.0)
    # Busy for three frames: it takes every third frame due, never a queue of them, so what it
    # shows stays in time with the clip. Frames 1 and 2 went while its first call ran.
    assert shown == [0, 3, 6, 9, 12, 15]
    assert timeline.tracks["slow"].taken == 18
    assert timeline.tracks["slow"].dropped == 2 * 5
    assert timeline.rate("slow") == pytest.approx(10 / 3)
    assert timeline.pane_words("slow") == "3.3 frames/s · 10 dropped"


def test_an_engines_first_call_is_apart_from_the_frames_it_drops():
    """A first frame that took long (a compile) drops nothing: its dropping counts from then."""
    timeline = ClipTimeline(info(), ("jax",))
    timeline.play(0.0)
    assert timeline.take("jax", 0) == 0
    timeline.shown("jax", 0, 1.5)  # the first call compiled for a second and a half
    assert timeline.take("jax", 15) == 15
    assert timeline.tracks["jax"].dropped == 0
    timeline.shown("jax", 15, 1.51)
    assert timeline.take("jax", 17) == 17
    assert timeline.tracks["jax"].dropped == 1


def test_a_burst_of_frames_is_no_faster_than_the_clip_and_a_stalled_pane_falls():
    timeline = ClipTimeline(info(), ("jax",))
    timeline.play(0.0)
    for frame, when in [(0, 1.0), (10, 1.001), (11, 1.002)]:  # a backlog, read in a blink
        timeline.take("jax", frame)
        timeline.shown("jax", frame, when)
    assert timeline.rate("jax", now=1.002) == pytest.approx(10.0)
    assert timeline.rate("jax", now=5.0) < 1.0


def test_the_headline_gives_each_engines_rate_and_how_many_times_faster_one_is():
    timeline = ClipTimeline(info(), ("numpy", "jax"))
    titles = {"numpy": "NumPy", "jax": "JAX-jit"}.get
    assert timeline.headline(titles) == "NumPy – frames/s · JAX-jit – frames/s"
    timeline.play(0.0)
    for index in range(5):
        timeline.take("jax", index)
        timeline.shown("jax", index, index / 10)
        if index % 2 == 0:
            timeline.take("numpy", index)
            timeline.shown("numpy", index, index / 10)
    assert timeline.headline(titles) == (
        "NumPy 5.0 frames/s · JAX-jit 10.0 frames/s · JAX-jit 2.0× NumPy"
    )


def test_pause_step_and_seek_stay_within_the_clip_and_play_starts_again_from_the_end():
    timeline = ClipTimeline(info(frame_count=30), ("numpy",))
    timeline.play(0.0)
    assert timeline.pause(1.25) == 12
    assert timeline.due(5.0) == 12  # paused: the clock stands
    assert timeline.step(1, 5.0) == 13
    assert timeline.step(-20, 5.0) == 0
    assert timeline.seek(99, 5.0) == 29
    assert timeline.frame_words() == "frame 30 of 30"
    timeline.play(6.0)
    assert timeline.due(6.0) == 0
    assert timeline.pause(100.0) == 29  # past the end: the last frame


def test_playing_is_finished_once_past_the_last_frame_and_every_engine_is_done():
    timeline = ClipTimeline(info(frame_count=3), ("numpy",))
    timeline.play(0.0)
    timeline.take("numpy", 2)
    assert not timeline.finished(0.35)  # still blurring the last frame
    timeline.shown("numpy", 2, 0.35)
    assert timeline.finished(0.35)


def test_a_clip_of_unknown_length_ends_where_reading_stops_and_says_why():
    timeline = ClipTimeline(info(frame_count=None), ("numpy",))
    assert timeline.frame_words(4) == "frame 5"
    timeline.clip_ended(7, "camera: the camera went away")
    assert timeline.last_frame() == 6 and timeline.problem == "camera: the camera went away"
    assert timeline.frame_words(4) == "frame 5 of 7"


def test_an_engine_that_fails_says_why_in_its_pane_and_takes_no_more_frames():
    timeline = ClipTimeline(info(), ("numpy", "broken"))
    timeline.play(0.0)
    timeline.take("broken", 0)
    timeline.failed("broken", "RuntimeError: out of registers")
    assert timeline.take("broken", 1) is None
    assert timeline.pane_words("broken") == "RuntimeError: out of registers"


def test_an_engine_that_failed_is_tried_again_when_playing_starts_again():
    timeline = ClipTimeline(info(), ("numpy", "flaky"))
    timeline.play(0.0)
    timeline.take("flaky", 0)
    timeline.failed("flaky", "RuntimeError: out of memory")
    timeline.pause(0.5)
    timeline.play(1.0)
    assert timeline.take("flaky", 5) == 5
    assert timeline.pane_words("flaky") == "starting…"


# --- The threads, on a clip -------------------------------------------------------------------


def frames(count=12, shape=(24, 32), seed=0):
    return np.random.default_rng(seed).random((count, *shape), dtype=np.float32)


@pytest.fixture
def slow_engine():
    """An engine that blurs right (scipy's correlation) but takes 0.25 s a frame."""
    with slow_oracle_engine(0.25) as name:
        yield name


def play_to_the_end(player, timeout=30.0):
    """Play, and every frame each engine showed (by collect(), as the window looks)."""
    shown = {engine: {} for engine in player.timeline.engines}
    player.play()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = player.collect()
        for engine, frame in state.shown.items():
            shown[engine][frame.index] = frame
        if state.finished:
            return state, shown
        time.sleep(0.01)
    raise AssertionError("the clip did not finish playing")


def test_a_clip_plays_through_two_engines_the_slow_one_dropping_frames(slow_engine):
    clip = FramesInMemory(frames(12), frames_per_second=10)
    player = ClipPlayer(clip, SPEC, ("numpy", slow_engine))
    try:
        state, shown = play_to_the_end(player)
    finally:
        assert player.close()
    # Whether NumPy keeps up depends on this machine; the slow engine, 0.25 s a frame of a
    # clip at 10 a second, cannot. Each counts as dropped the frames it passed over between
    # those it showed (those during its first call apart).
    assert 0 < len(shown["slow"]) < 12 and player.timeline.tracks["slow"].dropped > 0
    assert shown["numpy"] and max(shown["numpy"]) == 11  # the newest frame is never passed over
    for engine in ("numpy", "slow"):
        gaps = [b - a - 1 for a, b in itertools.pairwise(sorted(shown[engine]))]
        assert player.timeline.tracks[engine].dropped == sum(gaps[1:])
    for engine in ("numpy", "slow"):
        for index, frame in shown[engine].items():
            expected = blur_oracle(clip.frame(index), SPEC.kernel)
            np.testing.assert_allclose(frame.output, expected, atol=1e-5, rtol=0)
    assert "dropped" in state.pane_words["slow"] and "frames/s" in state.headline
    assert state.frame_words == "frame 12 of 12"


def test_a_colour_clip_plays_in_grey_unless_colour_is_asked_for():
    rgb = np.random.default_rng(1).random((3, 10, 12, 3), dtype=np.float32)
    clip = FramesInMemory(rgb, frames_per_second=20)
    for color, channels in [(False, 2), (True, 3)]:
        spec = BlurSpec(kernel_size=3, sigma=1.0, color=color)
        player = ClipPlayer(clip, spec, ("numpy",))
        try:
            _, shown = play_to_the_end(player)
        finally:
            player.close()
        assert {frame.output.ndim for frame in shown["numpy"].values()} == {channels}


def test_a_camera_that_goes_away_stops_the_playing_with_its_reason(slow_engine):
    camera = CameraThatGoes(count=8)
    player = ClipPlayer(camera, SPEC, ("numpy", slow_engine))
    try:
        state, shown = play_to_the_end(player)
    finally:
        player.close()
    assert state.problem == "Camera: the camera went away"
    assert isinstance(state.problem_error, ClipError)
    assert max(shown["numpy"]) == 7 and state.frame_words == "frame 8 of 8"


def test_memory_stays_a_few_frames_whatever_the_clips_length(slow_engine):
    """A long clip through a slow engine: the frames it passes over are let go as they pass,
    never queued for it."""
    camera = CameraThatGoes(count=10**6)
    camera.info = ClipInfo("Camera", 16, 12, None, 200.0, colour=False)
    player = ClipPlayer(camera, SPEC, ("numpy", slow_engine))
    most = 0
    try:
        player.play()
        # Until 300 frames came and went (some 1.5 s at 200 a second), however long a busy
        # machine takes: what is checked is how many were held meanwhile.
        deadline = time.monotonic() + 120
        while len(camera.read) < 300:
            assert time.monotonic() < deadline, "the camera's frames stopped being read"
            player.collect()
            most = max(most, camera.frames_held())
            time.sleep(0.005)
    finally:
        player.close()
    assert most <= 6  # no more than the newest and each engine's were ever held


def test_closing_stops_every_thread_and_lets_go_of_the_clips_reading():
    before = set(threading.enumerate())
    clip = FramesInMemory(frames(200), frames_per_second=50)
    player = ClipPlayer(clip, SPEC, ("numpy",))
    player.play()
    deadline = time.monotonic() + 120
    while not player.collect().shown:  # playing: a frame read, blurred and shown
        assert time.monotonic() < deadline, "no frame was shown"
        time.sleep(0.005)
    started = [t for t in set(threading.enumerate()) - before if t.name.startswith(THREAD_NAME)]
    assert started  # the player's reader and engine threads
    assert player.close(timeout=120)
    assert not any(thread.is_alive() for thread in started)


def test_the_frame_paused_on_becomes_a_photo_named_after_the_clip():
    clip = FramesInMemory(frames(4), frames_per_second=10, name="street.mp4")
    runner, answers = InlineRunner(), []
    runner.start(frame_job, clip.frame, clip.info, 2, on_return=answers.append)
    runner.run_all()
    (loaded,) = answers
    assert loaded.photo.path.name == "street.mp4"
    np.testing.assert_array_equal(loaded.photo.pixels, clip.frame(2))
    assert loaded.picture[0].shape == (24, 32) and loaded.grey_picture is None


def test_a_path_opens_as_a_clip_when_the_clip_readers_say_so(monkeypatch, tmp_path):
    from blurapp.core.media import clip_files

    monkeypatch.setattr(clip_files, "is_clip", lambda path: path.suffix == ".tif")
    assert opens_as_clip(tmp_path / "stack.tif") and not opens_as_clip(tmp_path / "walk.png")


def test_a_paused_frames_read_never_moves_the_frames_being_played():
    ramp = np.arange(60, dtype=np.float32)[:, None, None] / 60 * np.ones((1, 6, 8), np.float32)
    clip = OneDecoder(ramp, frames_per_second=40)
    player = ClipPlayer(clip, BlurSpec(kernel_size=1, sigma=0.5), ("numpy",))
    shown = {}
    refused = 0
    try:
        player.play()
        deadline = time.monotonic() + 30
        while not (state := player.collect()).finished and time.monotonic() < deadline:
            for frame in state.shown.values():
                shown[frame.index] = frame
            try:  # a paused frame's read that comes late, as a queued one does
                player.read_frame(50)
            except BlurCancelled:
                refused += 1
            time.sleep(0.005)
    finally:
        assert player.close()
    wrong = [i for i, f in shown.items() if not np.allclose(f.output, ramp[i], atol=1e-5)]
    assert len(shown) > 10 and wrong == []
    assert refused > 0  # read while playing: not wanted, and not read


def test_an_engine_that_failed_is_tried_again_with_new_parameters():
    calls = []

    def first_call(image, kernel, *, platform, progress, cancelled):
        calls.append(kernel.shape)
        if len(calls) == 1:
            raise RuntimeError("out of memory")
        return FirstCall(output=image.copy(), again=lambda: Call(0.001), seconds=0.001)

    register(Engine("flaky", "Flaky", first_call))
    player = ClipPlayer(FramesInMemory(frames(400), frames_per_second=50), SPEC, ("flaky",))
    try:
        player.play()
        deadline = time.monotonic() + 30
        while "out of memory" not in player.collect().pane_words["flaky"]:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        player.set_spec(BlurSpec(kernel_size=7, sigma=2.0))
        while not player.collect().shown:
            assert time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        assert player.close()
        unregister("flaky")
    assert calls[0] == (5, 5) and calls[-1] == (7, 7)


def test_an_engine_gone_from_the_registry_says_so_in_its_pane_and_the_other_plays_on():
    from blurapp.core.engines import get_engine

    player = ClipPlayer(
        FramesInMemory(frames(400), frames_per_second=50),
        SPEC,
        ("numpy", "nowhere"),
        titles=lambda engine: get_engine(engine).title,
    )
    try:
        player.play()
        deadline = time.monotonic() + 30
        while "nowhere" not in (state := player.collect()).pane_words["nowhere"]:
            assert time.monotonic() < deadline, state.pane_words
            time.sleep(0.01)
        while "numpy" not in player.collect().shown:
            assert time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        assert player.close()
    assert state.pane_words["nowhere"].startswith("UnknownEngineError")
    assert state.headline.startswith("NumPy ") and "nowhere –" in state.headline


EXIT_SCRIPT = """
import sys, time
import numpy as np
from blurapp.app.clip_player import ClipPlayer
from blurapp.core.media.clip import FramesInMemory
from blurapp.core.engines import Engine, register
from blurapp.core.engines.runs import Call, FirstCall
from blurapp.core.spec import BlurSpec

def first_call(image, kernel, *, platform, progress, cancelled):
    time.sleep(1.0)  # one call that cannot be stopped, as a compiled one
    with open(sys.argv[1], "w") as done:
        done.write("ended")
    return FirstCall(output=image.copy(), again=lambda: Call(1.0), seconds=1.0)

register(Engine("stuck", "Stuck", first_call))
clip = FramesInMemory(np.zeros((50, 6, 8), np.float32), frames_per_second=20)
player = ClipPlayer(clip, BlurSpec(kernel_size=3, sigma=1.0), ("stuck",))
player.play()
while not player.timeline.tracks["stuck"].busy:
    time.sleep(0.01)
print(player.close(0))
"""


def test_the_program_exits_after_an_engine_call_still_running_has_ended(tmp_path):
    import subprocess
    import sys

    marker = tmp_path / "ended"
    finished = subprocess.run(
        [sys.executable, "-c", EXIT_SCRIPT, str(marker)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.strip() == "False"  # closed without waiting...
    assert marker.read_text() == "ended"  # ...and the exit waited for the call to end


class EngineThatSendsAhead:
    """An engine registered as "ahead" while in the block that sends each frame to its device
    ahead of its call, as JAX-jit does, and blurs with a 1 × 1 kernel's identity in `seconds`.
    Each frame's index is its value × 1000. It records the frames sent, how many of them were
    taken and not yet shown at each send (told by the player's timeline), and whether each call
    was given the very image sent."""

    def __init__(self, seconds=0.0):
        self.seconds = seconds
        self.player = None
        self.sent = []  # the index of each frame sent, in order
        self.most_in_flight = 0
        self.calls_on_sent = []  # per call: whether its image was one sent
        self._images_sent = []  # a weak reference to each image sent

    def __enter__(self):
        register(
            Engine("ahead", "Ahead", self.first_call, preview=LivePreview(send_ahead=self.send))
        )
        return self

    def __exit__(self, *exc):
        unregister("ahead")

    def send(self, image, platform):
        index = round(float(image[0, 0]) * 1000)
        self.sent.append(index)
        shown = self.player.timeline.tracks["ahead"].shown
        in_flight = sum(1 for sent in self.sent if shown is None or sent > shown)
        self.most_in_flight = max(self.most_in_flight, in_flight)
        self._images_sent.append(weakref.ref(image))

    def first_call(self, image, kernel, *, platform, progress, cancelled):
        self.calls_on_sent.append(any(sent() is image for sent in self._images_sent))
        if self.seconds:
            time.sleep(self.seconds)
        return FirstCall(output=image.copy(), again=lambda: Call(self.seconds), seconds=0.001)


def numbered(count, shape=(6, 8)):
    """Frames whose every pixel is their index ÷ 1000."""
    return np.arange(count, dtype=np.float32)[:, None, None] / 1000 * np.ones(shape, np.float32)


def play_and_record(player, timeout=60.0):
    """Play to the end, and each engine's frames in the order collect() handed them out."""
    handed = {engine: [] for engine in player.timeline.engines}
    player.play()
    deadline = time.monotonic() + timeout
    while not (state := player.collect()).finished:
        assert time.monotonic() < deadline, "the clip did not finish playing"
        for engine, frame in state.shown.items():
            handed[engine].append(frame)
        time.sleep(0.005)
    for engine, frame in state.shown.items():
        handed[engine].append(frame)
    return handed


def test_a_clips_frames_come_in_order_at_their_times_with_few_in_flight():
    clip = FramesInMemory(numbered(40), frames_per_second=50)
    one = BlurSpec(kernel_size=1, sigma=0.5)
    with EngineThatSendsAhead() as ahead:
        player = ClipPlayer(clip, one, ("numpy", "ahead"))
        ahead.player = player
        try:
            handed = play_and_record(player)
            time_of = player.timeline.time_of
        finally:
            assert player.close()
    for engine in ("numpy", "ahead"):
        indices = [frame.index for frame in handed[engine]]
        assert indices == sorted(set(indices)), engine  # in order, none twice
        assert indices[-1] == 39  # the newest frame is never passed over
        # None shown before its time on the player's clock.
        assert all(frame.shown_at >= time_of(frame.index) for frame in handed[engine]), engine
        for frame in handed[engine]:
            np.testing.assert_allclose(frame.output, clip.frame(frame.index), atol=1e-6)
    # JAX-jit's way: every frame blurred was sent to the device ahead, and its call was given
    # that copy's image; never more than the bound taken and not shown.
    assert ahead.sent == sorted(set(ahead.sent)) and ahead.calls_on_sent
    assert all(ahead.calls_on_sent)
    assert 1 <= ahead.most_in_flight <= FRAMES_IN_FLIGHT


def test_a_slow_engine_with_a_fast_reader_keeps_the_bound_and_drops_frames():
    """The frames it cannot keep up with are passed over, never queued for it: the reader's
    frames ahead and the engine's in flight stay within their bounds."""
    camera = CameraThatGoes(count=10**6)
    camera.info = ClipInfo("Camera", 16, 12, None, 200.0, colour=False)
    most_held = 0
    with EngineThatSendsAhead(seconds=0.05) as ahead:
        player = ClipPlayer(camera, BlurSpec(kernel_size=1, sigma=0.5), ("ahead",))
        ahead.player = player
        try:
            player.play()
            # Until 300 frames came and went (some 1.5 s at 200 a second), however long a
            # busy machine takes: what is checked is how many were held meanwhile.
            deadline = time.monotonic() + 120
            while len(camera.read) < 300 or len(ahead.sent) < 5:
                assert time.monotonic() < deadline, "the camera's frames stopped being read"
                player.collect()
                most_held = max(most_held, camera.frames_held())
                time.sleep(0.005)
            track = player.timeline.tracks["ahead"]
            dropped, shown = track.dropped, track.frames_shown
        finally:
            assert player.close()
    assert 1 <= ahead.most_in_flight <= FRAMES_IN_FLIGHT
    assert dropped > 0 and shown < len(camera.read) // 2
    # The newest frame due and those read ahead, and the engine's in flight; and one more for
    # a moment: the frame just shown is let go after its stage says so, while the next is taken.
    assert most_held <= READ_AHEAD + 1 + FRAMES_IN_FLIGHT + 1


class SlowCamera(Clip):
    """A camera whose frames come slower than its rate says: each read is a new frame."""

    def __init__(self):
        self.info = ClipInfo("Camera", 8, 6, None, 50.0, colour=False)
        self.served = []
        self.reading = False  # asked for a frame, not yet given

    def _read(self, start):
        while True:
            self.reading = True
            time.sleep(0.05)
            self.served.append(len(self.served) + 1)
            self.reading = False
            yield np.full((6, 8), self.served[-1] / 1000, np.float32)


def play_then_pause(player, camera, frames=5):
    """Play until `camera` has given `frames` frames, then pause: the index paused on, how many
    frames the camera had given then, and a deadline 30 s from the start for what follows."""
    player.play()
    deadline = time.monotonic() + 30
    while len(camera.served) < frames:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    return player.pause(), len(camera.served), deadline


def test_a_camera_paused_is_paused_on_the_last_frame_it_gave():
    camera = SlowCamera()
    player = ClipPlayer(camera, SPEC, ("numpy",))
    try:
        index, given, deadline = play_then_pause(player, camera)
        frame = player.read_frame(index)
        # A read under way as it paused ends (its frame not shown), however long it takes.
        while camera.reading:
            assert time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        assert player.close()
    assert len(camera.served) <= given + 1  # the camera was not asked for another frame...
    # ...and the last frame it gave before the pause is the photo.
    assert round(float(frame[0, 0]) * 1000) in camera.served[:given]


class SlowLevelsCamera(Clip):
    """A camera that gives its frames as 8-bit levels (as a webcam's decoder does), slower
    than its rate says: frame n is all level n."""

    gives_levels = True

    def __init__(self):
        self.info = ClipInfo("Camera", 8, 6, None, 50.0, colour=False)
        self.served = []

    def _read(self, start):
        for levels in self._read_levels(start):
            yield np.multiply(levels, np.float32(1 / 255), dtype=np.float32)

    def _read_levels(self, start):
        while True:
            time.sleep(0.05)
            self.served.append(len(self.served) + 1)
            yield np.full((6, 8), self.served[-1], np.uint8)


def test_a_camera_played_from_its_levels_is_paused_on_its_last_frame_and_the_window_looks_on(
    monkeypatch,
):
    # The photo paused on is the last frame the camera gave, as floats; making them from its
    # levels never holds up the window, which looks (collect(), on its own thread) meanwhile.
    from blurapp.app import clip_player

    camera = SlowLevelsCamera()
    player = ClipPlayer(camera, SPEC, ("numpy",))
    made = clip_player.levels_as_floats
    looked = []  # for each frame made floats: whether the window's look came back meanwhile

    def making_floats(levels):
        look = threading.Thread(target=player.collect, daemon=True)
        look.start()
        look.join(10)
        looked.append(not look.is_alive())
        return made(levels)

    try:
        index, given, _ = play_then_pause(player, camera)
        monkeypatch.setattr(clip_player, "levels_as_floats", making_floats)
        frame = player.read_frame(index)
    finally:
        assert player.close()
    assert looked and all(looked)
    assert frame.dtype == np.float32 and frame.shape == (6, 8)
    assert round(float(frame[0, 0]) * 255) in camera.served[:given]


@pytest.mark.parametrize(
    ("colour", "color"),
    [(False, False), (True, True)],
    ids=["grey clip", "colour clip in colour"],
)
def test_a_runs_frames_are_the_clips_levels(colour, color):
    # A Run on a clip times the clip's stored levels, as `compare CLIP` does, wherever the
    # frames it blurs are the clip's own.
    from blurapp.app.clip_jobs import FramesToBlur
    from blurapp.bench.synthetic import SyntheticClip

    clip = SyntheticClip(12, 8, 3, colour=colour)
    frames = FramesToBlur(clip, color=color)
    assert frames.gives_levels
    np.testing.assert_array_equal(np.stack(list(frames.levels())), np.stack(list(clip.levels())))


def test_a_colour_clip_made_grey_gives_the_8_bit_levels_of_its_grey():
    # As a colour photo's grey is levels of its depth, so is a colour clip's: a Run in grey,
    # the clip playing in grey, move a quarter of float32's bytes to an accelerator.
    from blurapp.app.clip_jobs import FramesToBlur, frame_to_blur
    from blurapp.bench.synthetic import SyntheticClip

    clip = SyntheticClip(12, 8, 3, colour=True)
    frames = FramesToBlur(clip, color=False)
    assert frames.gives_levels and not frames.info.colour
    levels = np.stack(list(frames.levels()))
    assert levels.dtype == np.uint8 and levels.shape == (3, 8, 12)
    # ITU-R 601 luma of the clip's own levels, rounded: half a level at most away.
    luma = np.stack(list(clip.levels())) @ np.array([0.299, 0.587, 0.114])
    assert np.abs(levels - luma).max() <= 0.5 + 1e-4
    # Its frames are those levels, as a file's levels are read, and the player's grey too.
    as_read = np.multiply(levels, np.float32(1 / 255), dtype=np.float32)
    np.testing.assert_array_equal(np.stack(list(frames.frames())), as_read)
    played = [frame_to_blur(f, color=False, white=clip.info.levels_white) for f in clip.frames()]
    np.testing.assert_array_equal(np.stack(played), as_read)
    # And the frame paused on, as the window's photo: its grey is those levels.
    runner, answers = InlineRunner(), []
    runner.start(frame_job, clip.frame, clip.info, 1, on_return=answers.append)
    runner.run_all()
    np.testing.assert_array_equal(answers[0].photo.gray, as_read[1])


def test_frames_given_as_floats_keep_the_floats_of_their_grey():
    from blurapp.app.clip_jobs import frame_to_blur
    from blurapp.core.engines.levels import stored_levels

    clip = FramesInMemory(np.random.default_rng(2).random((2, 6, 9, 3), dtype=np.float32))
    assert clip.info.levels_white is None
    grey = frame_to_blur(clip.frame(0), color=False, white=clip.info.levels_white)
    weights = np.array([0.299, 0.587, 0.114])
    np.testing.assert_allclose(grey, clip.frame(0) @ weights, rtol=0, atol=1e-6)
    assert stored_levels.of(grey) is None  # not rounded to levels


def test_an_animations_grey_is_the_grey_of_its_frame_opened_as_a_photo(tmp_path):
    # Whether shown paused, playing, or opened as a photo, one frame has one grey, bit for bit.
    from PIL import Image

    from blurapp.app.clip_jobs import frame_to_blur
    from blurapp.core import load_photo
    from blurapp.core.media.clip_files import open_clip_file

    rng = np.random.default_rng(5)
    pictures = [Image.fromarray(rng.integers(0, 256, (30, 40, 3), dtype=np.uint8)) for _ in "abc"]
    path = tmp_path / "moving.png"
    pictures[0].save(path, save_all=True, append_images=pictures[1:], duration=100)
    pictures[1].save(tmp_path / "frame.png")
    with open_clip_file(path, color=True) as clip:
        assert clip.info.colour and clip.info.levels_white == 255
        runner, answers = InlineRunner(), []
        runner.start(frame_job, clip.frame, clip.info, 1, on_return=answers.append)
        runner.run_all()
        played = frame_to_blur(clip.frame(1), color=False, white=clip.info.levels_white)
    photo = load_photo(tmp_path / "frame.png")
    np.testing.assert_array_equal(answers[0].photo.gray, photo.gray)
    np.testing.assert_array_equal(played, photo.gray)


def test_a_four_bit_colour_stacks_grey_is_one_grey_whoever_makes_it(tmp_path):
    # Levels of 4 bits are not 8-bit levels: their grey is not rounded to 8-bit ones, shown or
    # read in grey alike.
    import tifffile

    from blurapp.app.clip_jobs import FramesToBlur, frame_to_blur
    from blurapp.core.media.clip_files import open_clip_file

    levels = np.random.default_rng(4).integers(0, 16, (3, 6, 8, 3), dtype=np.uint8)
    path = tmp_path / "four-bit.tif"
    with tifffile.TiffWriter(path) as tiff:
        for page in levels:
            tiff.write(page, photometric="rgb", bitspersample=4)
    with open_clip_file(path, color=True) as colour, open_clip_file(path, color=False) as grey:
        assert colour.info.colour and colour.info.levels_white is None
        shown = frame_to_blur(colour.frame(1), color=False, white=colour.info.levels_white)
        np.testing.assert_array_equal(shown, grey.frame(1))
        made_grey = list(FramesToBlur(colour, color=False).frames())
        np.testing.assert_array_equal(np.stack(made_grey), np.stack(list(grey.frames())))


class EngineThatTakesLevels:
    """An engine registered as "levels" while in the block whose display call takes a clip's
    frames as their stored levels (LivePreview.takes_levels, as JAX-jit's does): it records
    what it was given, and blurs it right (scipy's correlation of the levels' floats)."""

    def __init__(self):
        self.given = []  # (dtype, a copy of the image) of each call

    def __enter__(self):
        register(
            Engine(
                "levels",
                "Levels",
                self.first_call,
                preview=LivePreview(takes_levels=True),
            )
        )
        return self

    def __exit__(self, *exc):
        unregister("levels")

    def first_call(self, image, kernel, *, platform, progress, cancelled):
        self.given.append((image.dtype, image.copy()))
        floats = (
            image / np.float32(np.iinfo(image.dtype).max) if image.dtype != np.float32 else image
        )
        output = blur_oracle(floats, kernel).astype(np.float32)
        return FirstCall(output=output, again=lambda: Call(0.001), seconds=0.001)


@pytest.mark.parametrize("color", [False, True], ids=["in grey", "in colour"])
def test_a_video_plays_from_its_levels_sent_as_they_are_to_an_engine_that_takes_them(color):
    # A decoded video gives 8-bit levels: the pane whose engine takes them is sent them as
    # they are (a quarter of float32's bytes, no floats made on the host), its grey the
    # levels of the frame's grey; NumPy's pane gets the frame's floats. Both show the blur.
    from blurapp.app.clip_jobs import FramesToBlur
    from blurapp.bench.synthetic import SyntheticClip

    clip = SyntheticClip(14, 9, 6, colour=True)
    spec = BlurSpec(kernel_size=3, sigma=1.0, color=color)
    to_blur = FramesToBlur(clip, color=color)
    levels_to_blur = list(to_blur.levels())
    with EngineThatTakesLevels() as levels_engine:
        player = ClipPlayer(clip, spec, ("numpy", "levels"))
        try:
            _, shown = play_to_the_end(player)
        finally:
            assert player.close()
    assert levels_engine.given and shown["levels"] and shown["numpy"]
    for dtype, image in levels_engine.given:
        assert dtype == np.uint8
        assert any(np.array_equal(image, levels) for levels in levels_to_blur)
    for engine in ("numpy", "levels"):
        for index, frame in shown[engine].items():
            expected = blur_oracle(to_blur.frame(index), spec.kernel)
            assert frame.output.shape == expected.shape
            np.testing.assert_allclose(frame.output, expected, atol=1e-5, rtol=0)


@pytest.mark.parametrize("color", [False, True], ids=["in grey", "in colour"])
def test_jax_jit_plays_a_video_from_its_levels_and_shows_its_blur(color):
    # JAX-jit takes a frame's levels (sent ahead to its device as they are on an
    # accelerator, made floats on a CPU): what its pane shows is the blur of the frame.
    from blurapp.app.clip_jobs import FramesToBlur
    from blurapp.bench.synthetic import SyntheticClip

    clip = SyntheticClip(20, 12, 5, colour=True)
    spec = BlurSpec(kernel_size=5, sigma=1.5, color=color)
    to_blur = FramesToBlur(clip, color=color)
    player = ClipPlayer(clip, spec, ("jax",))
    try:
        _, shown = play_to_the_end(player, timeout=120.0)
    finally:
        assert player.close()
    assert shown["jax"], player.collect().pane_words
    for index, frame in shown["jax"].items():
        expected = blur_oracle(to_blur.frame(index), spec.kernel)
        np.testing.assert_allclose(np.asarray(frame.output), expected, atol=1e-5, rtol=0)


class HandClock:
    """A player's clock that moves only when the test moves it."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.mark.parametrize("engine", ["numpy", "jax"])
@pytest.mark.parametrize(
    ("clip", "new"),
    [
        (FramesInMemory(frames(12), frames_per_second=10), BlurSpec(kernel_size=5, sigma=0.6)),
        (
            FramesInMemory(
                np.stack([frames(12, seed=c) for c in range(3)], -1), frames_per_second=10
            ),
            BlurSpec(kernel_size=5, sigma=1.5, color=True),
        ),
    ],
    ids=["sigma", "colour"],
)
def test_every_frame_shown_after_new_parameters_is_blurred_with_them(engine, clip, new):
    """Frames taken ahead of the clock (JAX-jit's sent to its device, blurred, waiting for their
    time) when the sigma or the colour changes are never shown with what they were taken with."""
    from blurapp.core import TOLERANCE

    old = BlurSpec(kernel_size=5, sigma=1.5)
    clock = HandClock()
    player = ClipPlayer(clip, old, (engine,), clock=clock)
    ahead = FRAMES_IN_FLIGHT if engine == "jax" else 1
    track = player.timeline.tracks[engine]
    handed = []
    try:
        player.play()
        # The clock stands at frame 0 until the pane has shown it and taken the frames after
        # it ahead of their time, with the old parameters.
        deadline = time.monotonic() + 120
        while not (handed and track.in_flight == ahead):
            assert time.monotonic() < deadline, player.collect().pane_words
            handed += player.collect().shown.values()
            time.sleep(0.005)
        assert [frame.index for frame in handed] == [0] and track.taken == ahead
        clock.now = changed_at = 0.5 / clip.info.frames_per_second
        player.set_spec(new)
        while not (state := player.collect()).finished:
            assert time.monotonic() < deadline, state.pane_words
            handed += state.shown.values()
            clock.now += 0.25 / clip.info.frames_per_second
            time.sleep(0.01)
        handed += state.shown.values()
    finally:
        assert player.close()
    after = [frame for frame in handed if frame.shown_at > changed_at]
    assert after and after[-1].index == 11
    for frame in after:
        expected = blur_oracle(clip.frame(frame.index), new.kernel)
        assert np.asarray(frame.output).shape == expected.shape
        np.testing.assert_allclose(np.asarray(frame.output), expected, atol=TOLERANCE, rtol=0)
    # A frame blurred with the old parameters and let go counts as dropped, as a late one does:
    # each of the clip's frames was shown or counted dropped.
    assert track.frames_shown + track.dropped == 12


def test_each_engines_frames_come_fitted_to_its_panes_view():
    # A pane at its fitted zoom draws a playing clip's frames pixel for pixel: each comes
    # reduced to fit the pane's view, each pixel within 1 level of the exact mean of the
    # blur's pixels it covers. Views resized while playing: the frames after fit the new size.
    from blurapp.app.pyramid import fitted
    from blurapp.core.media.saving import to_8bit

    clip = FramesInMemory(frames(6, shape=(120, 160)), frames_per_second=20)
    sizes = {"numpy": (50, 70), "jax": (60, 200)}  # (height, width): one fits each side
    player = ClipPlayer(clip, SPEC, ("numpy", "jax"), view_sizes=sizes)
    try:
        _, first = play_to_the_end(player, timeout=120.0)
        player.set_view_sizes({"numpy": (40, 40)})  # JAX-jit's pane has no size now
        player.seek(0)
        _, second = play_to_the_end(player, timeout=120.0)
    finally:
        assert player.close()
    for shown, engine, fitted_shape in (
        (first, "numpy", (50, 67)),
        (first, "jax", (60, 80)),
        (second, "numpy", (30, 40)),
    ):
        assert shown[engine], engine
        for index, frame in shown[engine].items():
            picture = fitted(frame.picture)
            assert picture is not None and picture.shape == fitted_shape, (engine, index)
            full = to_8bit(blur_oracle(clip.frame(index), SPEC.kernel))
            difference = np.abs(picture - covered_mean(full, *fitted_shape))
            assert difference.max() <= 1, (engine, index)
    assert second["jax"] and all(fitted(frame.picture) is None for frame in second["jax"].values())


@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="a thread's own priority is Linux's"
)
def test_a_pane_whose_engine_does_not_compile_plays_at_the_lowest_priority_a_compiled_ones_not():
    """On a machine of few cores NumPy's pane, which drops most frames whatever it is given,
    takes the cores only when the compiled panes leave them idle; the threads its first call
    starts, which the whole program may keep (XLA's, started by JAX without jit when it is the
    first to call JAX), run at the priority the program's other threads have."""
    import os

    from blurapp.app.clip_player import YIELDING_NICENESS
    from blurapp.core.engines import Computation

    def niceness():
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    calls: dict[str, list[int]] = {"reference": [], "compiled": []}
    pool: list[int] = []  # the priority of a thread the reference's first call starts

    def recording(name):
        def first_call(image, kernel, *, platform, progress, cancelled):
            calls[name].append(niceness())
            if name == "reference" and not pool:
                started = threading.Thread(target=lambda: pool.append(niceness()))
                started.start()
                started.join()
            return FirstCall(output=image.copy(), again=lambda: Call(0.0), seconds=0.0)

        return first_call

    register(Engine("reference", "Reference", recording("reference")))
    register(
        Engine(
            "compiled",
            "Compiled",
            recording("compiled"),
            computation=Computation(compiles=True),
        )
    )
    try:
        player = ClipPlayer(
            FramesInMemory(frames(8), frames_per_second=50), SPEC, ("reference", "compiled")
        )
        try:
            play_to_the_end(player)
        finally:
            assert player.close()
    finally:
        unregister("reference")
        unregister("compiled")
    own = niceness()
    lowest = max(own, YIELDING_NICENESS)
    # Its first call as the program's others; every call after it at the lowest priority.
    assert len(calls["reference"]) >= 2 and calls["reference"][0] == own
    assert set(calls["reference"][1:]) == {lowest}
    assert pool == [own]
    assert calls["compiled"] and set(calls["compiled"]) == {own}
