"""A clip played through the engines on threads, without Qt, as a pipeline whose rate is its
slowest stage's, not the sum of its stages': one thread reads the frames a little before they
are due (READ_AHEAD), and each engine blurs on a thread of its own, taking the newest frame due
whenever it is free, or the next one read when it is ahead (blurapp.app.clip_timeline keeps the
clock and the counts). An engine that can send a frame to its device ahead of its call
(LivePreview.send_ahead: JAX-jit) has a second thread that makes the next frame ready and sends it
while the one before it blurs, FRAMES_IN_FLIGHT frames at most between them. A frame blurred
before its time waits for it: none is shown before it is due, none twice, and one read or
begun before a pause, a seek or a new start is let go unseen. New parameters (set_spec) reach
the frames already taken too: one not yet begun is blurred with them, and one blurred with the
parameters before is let go unseen and counted dropped, as a late one is.

Nothing queues for long: the reader keeps the newest frame due and a few ahead, each engine
the frames in its hands and its last output, so memory is a few frames per engine whatever the
clip's length, and an engine that falls behind drops frames instead of queueing them. The
window asks `collect()` on its own thread for what there is to show; nothing here ever waits
for it.
"""

from __future__ import annotations

import atexit
import logging
import os
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from blurapp.app.captions import Translate
from blurapp.app.clip_jobs import frame_to_blur, levels_to_blur
from blurapp.app.clip_timeline import ClipTimeline
from blurapp.app.jobs import failure_words, is_foreseen
from blurapp.app.pyramid import Pyramid, output_pyramid
from blurapp.core.engines import Engine, get_engine
from blurapp.core.engines.levels import levels_as_floats
from blurapp.core.engines.runs import BlurCancelled
from blurapp.core.media.clip import Clip
from blurapp.core.spec import BlurSpec

log = logging.getLogger(__name__)

THREAD_NAME = "clip playing"  # the start of its threads' names: the tests look for any left
# At the program's exit, a thread inside an engine's call (a compiled JAX call cannot be
# stopped) is waited for this long in all: Python torn down under it could crash.
EXIT_WAIT_SECONDS = 30.0
# Frames read before they are due: one is there when an engine is free, even while reading one
# takes a while; few, so that memory stays a few frames whatever the clip's length.
READ_AHEAD = 2
# The frames an engine that sends ahead has taken and not yet shown: one blurring (or waiting
# for its time) while the next is made ready and crosses to its device. More would only be
# frames growing stale in a queue; one would leave its device idle while a frame crosses.
FRAMES_IN_FLIGHT = 2
# The niceness of a thread that blurs for an engine that does not compile (NumPy, a second or
# more a 1080p frame): its pane shows few of a clip's frames whatever it is given, so it takes
# the cores only when the compiled engines' panes leave them idle. On a machine of two cores
# JAX-jit's calls otherwise share them with it, and its pane plays at a fraction of its
# engine's rate (docs/performance.md, "A clip playing on two cores").
YIELDING_NICENESS = 19


def _english(context: str, text: str) -> str:
    return text


class _ClipReading:
    """Who reads a clip: one thread at a time (a file's decoder is one), and a count of the
    reads, by which the frames being played know that another read has moved the decoder."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.reads = 0
        self.readers = 0  # players' reader threads not yet ended


# Every player's threads still running, those of players closed included.
_threads: weakref.WeakSet[threading.Thread] = weakref.WeakSet()


_readings: weakref.WeakKeyDictionary[Clip, _ClipReading] = weakref.WeakKeyDictionary()
_readings_lock = threading.Lock()


def _reading(clip: Clip) -> _ClipReading:
    """The one _ClipReading of `clip`, shared by every player of it (a pane given another
    engine starts a new player while the old one's threads end)."""
    with _readings_lock:
        reading = _readings.get(clip)
        if reading is None:
            reading = _readings[clip] = _ClipReading()
        return reading


def wait_for_playing(timeout: float | None) -> bool:
    """Wait up to `timeout` seconds in all (None: as long as it takes) for the threads of
    every player closed to end; whether they have (one inside an engine's call ends when the
    call returns, its frame not shown)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    for thread in list(_threads):
        if thread is threading.current_thread():
            continue
        thread.join(None if deadline is None else max(deadline - time.monotonic(), 0.0))
    return not any(thread.is_alive() for thread in list(_threads))


def close_if_unread(clip: Clip) -> bool:
    """Close `clip` unless a player's thread or a paused frame's read still has it; whether
    it is closed (the window tries again a little later, so that it never waits)."""
    reading = _reading(clip)
    if not reading.lock.acquire(blocking=False):
        return False
    try:
        if reading.readers:
            return False
        clip.close()
        return True
    finally:
        reading.lock.release()


@atexit.register
def _wait_at_exit() -> None:
    if not wait_for_playing(EXIT_WAIT_SECONDS):
        log.warning("the program ends while an engine still blurs a clip's frame")


@dataclass(frozen=True, eq=False)
class ShownFrame:
    """An engine's blur of one frame, with its picture ready for the pane."""

    engine: str
    index: int
    output: np.ndarray
    picture: Pyramid
    shown_at: float | None = None  # when it was shown, on the player's clock


@dataclass(frozen=True, eq=False)
class _ReadyFrame:
    """A frame an engine took, made what it blurs (and sent to its device where it can)."""

    generation: int
    index: int
    engine: Engine
    image: np.ndarray
    spec: BlurSpec


@dataclass(frozen=True)
class PlayerState:
    """What the window shows of the playing at one moment."""

    shown: dict[str, ShownFrame]  # each engine's newest frame since the last look
    pane_words: dict[str, str]  # "24.1 frames/s · 3 dropped", each engine's
    headline: str
    frame: int  # the frame due now
    frame_words: str
    playing: bool
    finished: bool  # playing came past the last frame, and every engine is done
    problem: str | None  # why the clip stopped giving frames, in English
    problem_error: BaseException | None = None  # the error itself, for the window's words
    # Those of pane_words that are frames per second: not "starting…", nor why an engine failed.
    rates: dict[str, str] = field(default_factory=dict)


class ClipPlayer:
    """Plays `clip` through `engines` (each pane's), blurring as `spec` says (set_spec changes
    it while playing). Call close() when done: it stops the threads."""

    def __init__(
        self,
        clip: Clip,
        spec: BlurSpec,
        engines: tuple[str, ...],
        *,
        titles: Callable[[str], str] = str,
        translate: Translate = _english,
        clock: Callable[[], float] = time.perf_counter,
        view_sizes: Mapping[str, tuple[int, int]] | None = None,
    ) -> None:
        self.clip = clip
        # Each engine's pane's view (height, width in screen pixels; set_view_sizes): its
        # frames come fitted to it, drawn pixel for pixel, where the pane scaled a level at
        # every paint, on the window's thread, of every frame.
        self._view_sizes = dict(view_sizes or {})
        # A clip that gives its stored levels (a video's, a camera's) is played from them: an
        # engine that takes levels (LivePreview.takes_levels) is sent them as they are, a
        # quarter (8-bit) or half (16-bit) of float32's bytes, and the others get floats made
        # on their own threads.
        self._in_levels = clip.gives_levels
        self.timeline = ClipTimeline(clip.info, engines)
        self._spec, self._titles, self._translate, self._clock = spec, titles, translate, clock
        self._condition = threading.Condition()
        # The clip is read by one thread at a time: the reader, or a paused frame's job.
        self._reading = _reading(clip)
        # Bumped by every pause, seek and close: work begun before it is not shown.
        self._generation = 0
        # The frames read (index, frame: its levels where the clip is played from them), in
        # order: the newest due and those read ahead.
        self._frames: deque[tuple[int, np.ndarray]] = deque()
        # For each engine that sends ahead, the frames made ready for its blur, in order.
        self._ready: dict[str, deque[_ReadyFrame]] = {}
        self._looked_up: dict[str, Engine] = {}  # each engine, looked up by its threads
        # The last frame read (index, frame): paused on, it is the photo without reading it
        # again (a camera gives its next frame, a clip cut short may not give it at all).
        self._last_read: tuple[int, np.ndarray] | None = None
        self._shown: dict[str, ShownFrame] = {}
        self._closing = False
        self._problem_error: BaseException | None = None
        self._threads = [
            threading.Thread(target=self._read, name=f"{THREAD_NAME} reader", daemon=True)
        ]
        for engine in engines:
            if _sends_ahead(engine):
                self._ready[engine] = deque()
                stages = [(self._make_ready_ahead, "sending"), (self._blur_ready, "blurring")]
            else:
                stages = [(self._blur, "blurring")]
            self._threads += [
                threading.Thread(
                    target=stage, args=(engine,), name=f"{THREAD_NAME} {engine} {what}", daemon=True
                )
                for stage, what in stages
            ]
        with self._reading.lock:
            self._reading.readers += 1
        for thread in self._threads:
            _threads.add(thread)
            thread.start()

    # --- What the window does ---------------------------------------------------------------

    def play(self) -> None:
        with self._condition:
            self.timeline.play(self._clock())
            self._renew()

    def pause(self) -> int:
        """Stop playing; the frame paused on. A camera (a clip of no known length) pauses on
        the last frame it gave: asked for the frame due, it would give its next."""
        with self._condition:
            now = self._clock()
            position = self.timeline.pause(now)
            read = dict(self._frames)
            last = self._last_read
            if position in read:  # read ahead: the photo without reading it again
                self._last_read = (position, read[position])
            elif self.clip.info.frame_count is None and last is not None and last[0] < position:
                position = self.timeline.seek(last[0], now)
            self._renew()
            return position

    def seek(self, index: int) -> int:
        """Go to frame `index` (playing on from there if playing); the frame gone to."""
        with self._condition:
            position = self.timeline.seek(index, self._clock())
            self._renew()
            return position

    def step(self, frames: int) -> int:
        """Pause and go `frames` on from the frame due now; the frame gone to."""
        with self._condition:
            position = self.timeline.step(frames, self._clock())
            self._renew()
            return position

    def set_spec(self, spec: BlurSpec) -> None:
        """Blur the frames to come as `spec` says (an engine that failed tries again): none
        shown from now on is blurred otherwise, those taken already included."""
        with self._condition:
            if spec != self._spec:
                self.timeline.try_failed_again()
                self._condition.notify_all()
            self._spec = spec

    def set_view_sizes(self, view_sizes: Mapping[str, tuple[int, int]]) -> None:
        """Each engine's pane shows its pictures in these (height, width) screen pixels now:
        the frames blurred from now on come fitted to them."""
        with self._condition:
            self._view_sizes = dict(view_sizes)

    @property
    def playing(self) -> bool:
        return self.timeline.playing

    def read_frame(self, index: int) -> np.ndarray:
        """Frame `index` of the clip, read while nothing else reads it (for a paused frame).
        Raises BlurCancelled while playing: a paused frame is no longer wanted, and reading it
        would move the decoder the frames played come from."""
        reading = self._reading
        with reading.lock:
            with self._condition:
                if self.timeline.playing:
                    raise BlurCancelled()
                last = self._last_read
            if last is not None and last[0] == index:
                # Its floats made outside the condition: the window takes it for every look.
                return levels_as_floats(last[1]) if self._in_levels else last[1]
            reading.reads += 1
            return self.clip.frame(index)

    def _title(self, engine: str) -> str:
        """`engine`'s title, or its name when it is gone from the registry."""
        try:
            return self._titles(engine)
        except Exception:
            return engine

    def collect(self) -> PlayerState:
        """What there is to show now; each engine's frame is handed out once."""
        with self._condition:
            timeline, now = self.timeline, self._clock()
            shown, self._shown = self._shown, {}
            finished = timeline.finished(now)
            due = timeline.due(now)
            last = timeline.last_frame()
            frame = due if last is None else min(due, last)
            # Found by reading ahead, why the clip stops is told when playing gets there.
            told = timeline.end is None or due >= timeline.end or not timeline.playing
            pane_words = {
                engine: timeline.pane_words(engine, self._translate, now=now)
                for engine in timeline.engines
            }
            return PlayerState(
                shown=shown,
                pane_words=pane_words,
                headline=timeline.headline(self._title, self._translate, now=now),
                frame=frame,
                frame_words=timeline.frame_words(frame, self._translate),
                playing=timeline.playing,
                finished=finished,
                problem=timeline.problem if told else None,
                problem_error=self._problem_error if told else None,
                rates={
                    engine: words
                    for engine, words in pane_words.items()
                    if timeline.tracks[engine].error is None
                    and timeline.rate(engine, now) is not None
                },
            )

    def close(self, timeout: float | None = 2.0) -> bool:
        """Stop every thread, waiting up to `timeout` seconds in all (0: not at all, as the
        window's thread does); whether all ended. An engine inside one call that cannot be
        stopped ends on its own, and what it made is not shown. The clip stays open (see
        close_if_unread)."""
        with self._condition:
            self._closing = True
            self.timeline.pause(self._clock())
            self._generation += 1
            self._condition.notify_all()
        deadline = None if timeout is None else time.monotonic() + timeout
        for thread in self._threads:
            if thread is not threading.current_thread() and timeout != 0:
                thread.join(None if deadline is None else max(deadline - time.monotonic(), 0.0))
        return not any(thread.is_alive() for thread in self._threads)

    # --- The threads --------------------------------------------------------------------------

    def _renew(self) -> None:
        """Under the condition: what was read or begun before now is not shown."""
        self._generation += 1
        self._frames.clear()
        for ready in self._ready.values():
            ready.clear()
        self.timeline.forget_in_flight()
        self._shown.clear()
        self._condition.notify_all()

    def _read(self) -> None:
        # The clip's frames are read and let go of outside the condition: a file's decoder can
        # take a while, and the window's thread takes the condition for every look.
        frames: Iterator[np.ndarray] | None = None
        generation, index = -1, 0
        reading = self._reading
        reads = 0  # the clip's reads after this thread's last one
        try:
            while True:
                done_with: Iterator[np.ndarray] | None = None
                with self._condition:
                    while True:
                        if self._closing:
                            return
                        timeline = self.timeline
                        if generation != self._generation or not timeline.playing:
                            if frames is not None:
                                done_with, frames = frames, None
                                break
                            generation, index = self._generation, timeline.position
                        end = timeline.end
                        if not timeline.playing or (end is not None and index >= end):
                            self._condition.wait()
                            continue
                        now = self._clock()
                        self._let_go_of_passed(now)
                        ahead = [i for i, _ in self._frames if timeline.time_of(i) > now]
                        if len(ahead) < READ_AHEAD:
                            break
                        # Full: the next frame read ahead falling due makes room.
                        self._condition.wait(timeline.time_of(ahead[0]) - now)
                if done_with is not None:
                    self._let_go(done_with)
                    continue
                frame, problem, error_seen = None, None, None
                with reading.lock:
                    try:
                        if frames is not None and reading.reads != reads:
                            # Another read moved the decoder: read on from a new start.
                            self._close_frames(frames)
                            frames = None
                        if frames is None:
                            read = self.clip.levels if self._in_levels else self.clip.frames
                            frames = read(index)
                        reading.reads += 1
                        reads = reading.reads
                        frame = next(frames)
                    except StopIteration:
                        pass
                    except Exception as error:
                        if not is_foreseen(error):
                            log.exception("%s: reading frame %d failed", self.clip.info.name, index)
                        problem = failure_words(error, subject=self.clip.info.name)
                        error_seen = error
                with self._condition:
                    if generation == self._generation:
                        if frame is None:
                            self.timeline.clip_ended(index, problem)
                            self._problem_error = self._problem_error or error_seen
                        else:
                            self._frames.append((index, frame))
                            self._last_read = (index, frame)
                            index += 1
                        self._condition.notify_all()
                if frame is None:
                    self._let_go(frames)
                    frames = None
                del frame  # held by the frames read alone, which let it go as it passes
        finally:
            self._let_go(frames)
            with reading.lock:
                reading.readers -= 1

    def _let_go(self, frames: Iterator[np.ndarray] | None) -> None:
        """Close the frames being read: the file's decoder lets go."""
        if frames is not None:
            with self._reading.lock:
                self._reading.reads += 1
                self._close_frames(frames)

    @staticmethod
    def _close_frames(frames: Iterator[np.ndarray]) -> None:
        close: Any = getattr(frames, "close", None)
        if close is not None:
            close()

    def _let_go_of_passed(self, now: float) -> None:
        """Under the condition: let go of the frames read that a newer frame due passes over
        (no engine takes a frame older than the newest due)."""
        frames, time_of = self._frames, self.timeline.time_of
        while len(frames) > 1 and time_of(frames[1][0]) <= now:
            frames.popleft()

    def _take(self, engine: str, in_flight: int) -> tuple[int, int, np.ndarray, BlurSpec] | None:
        """Wait until `engine` has fewer than `in_flight` frames taken and not shown and there
        is a frame for it, and take it: the newest due, or, ahead of the clock, the next one
        read after the last it took. (generation, index, frame, spec); None once closing."""
        timeline = self.timeline
        with self._condition:
            while True:
                if self._closing:
                    return None
                if timeline.playing and timeline.tracks[engine].in_flight < in_flight:
                    self._let_go_of_passed(self._clock())
                    taken = timeline.tracks[engine].taken
                    after = [f for f in self._frames if taken is None or f[0] > taken]
                    if after and timeline.take(engine, after[0][0]) is not None:
                        index, frame = after[0]
                        return self._generation, index, frame, self._spec
                self._condition.wait()

    def _make_ready(
        self, engine_name: str, taken: tuple[int, int, np.ndarray, BlurSpec], *, send: bool
    ) -> _ReadyFrame | None:
        """The frame `taken` as `engine_name` blurs it (sent to its device when `send`); None
        when that failed (its pane says why)."""
        generation, index, frame, spec = taken
        try:
            # Looked up on the thread, inside the frame's try: an engine gone from the registry
            # (a plugin's) says so in its pane like any failure, and is looked up again next time.
            engine = self._looked_up.get(engine_name)
            if engine is None:
                # As the live preview calls it: a frame's picture made where it was blurred.
                engine = self._looked_up[engine_name] = get_engine(engine_name).for_display()
            if self._in_levels:
                image = levels_to_blur(frame, color=spec.color)
                if not engine.preview.takes_levels:
                    image = levels_as_floats(image)
            else:
                # A colour clip's grey: levels where its frames are.
                image = frame_to_blur(frame, color=spec.color, white=self.clip.info.levels_white)
            if send:
                engine.send(image)
        except Exception as error:
            self._failed(engine_name, generation, index, error)
            return None
        return _ReadyFrame(generation, index, engine, image, spec)

    def _same_blur(self, spec: BlurSpec) -> bool:
        """Whether `spec` blurs as the parameters asked for now do."""
        return spec.same_blur(self._spec, in_colour=self.clip.info.colour)

    def _blur_and_show(self, engine_name: str, ready: _ReadyFrame) -> bool:
        """Blur `ready` with the parameters asked for now and show it once its time has come;
        a frame grown stale meanwhile is let go unseen, and one whose parameters changed
        meanwhile is let go and counted dropped. Whether the engine blurred it to the end."""

        def stale() -> bool:
            return ready.generation != self._generation

        with self._condition:
            spec, view_size = self._spec, self._view_sizes.get(engine_name)
        # Taken before new parameters: the image made ready (and sent to its device) is blurred
        # with them, at no cost; only a colour clip's frame made for the other Colour setting
        # is not the image to blur, and is let go.
        if ready.spec.color != spec.color and self.clip.info.colour:
            self._let_go_outdated(engine_name, ready.generation)
            return False

        def outdated() -> bool:
            return stale() or not self._same_blur(spec)

        try:
            output = ready.engine.start(ready.image, spec.kernel, cancelled=outdated).output
            picture = output_pyramid(output, view_size)
        except BlurCancelled:
            if stale():
                return False
            if not self._same_blur(spec):
                self._let_go_outdated(engine_name, ready.generation)
                return False
            with self._condition:
                if not stale():
                    self.timeline.not_shown(engine_name)
                    self._condition.notify_all()
            return False
        except Exception as error:
            self._failed(engine_name, ready.generation, ready.index, error)
            return False
        with self._condition:
            while not stale():  # closing makes it stale too
                if not self._same_blur(spec):
                    # Blurred as the parameters were: blurring it again would make this pane
                    # late for the frames after it; the engine takes the newest frame instead.
                    self._let_go_outdated(engine_name, ready.generation)
                    return True
                now = self._clock()
                wait = self.timeline.time_of(ready.index) - now
                if wait <= 0:
                    self.timeline.shown(engine_name, ready.index, now)
                    self._shown[engine_name] = ShownFrame(
                        engine_name, ready.index, output, picture, shown_at=now
                    )
                    self._condition.notify_all()
                    return True
                self._condition.wait(wait)
        return True

    def _let_go_outdated(self, engine_name: str, generation: int) -> None:
        """`engine_name`'s frame was taken or blurred with parameters since changed: let go
        unseen, counted dropped (unless it is stale)."""
        with self._condition:
            if generation == self._generation:
                self.timeline.let_go_outdated(engine_name)
                self._condition.notify_all()

    def _failed(self, engine_name: str, generation: int, index: int, error: Exception) -> None:
        """`engine_name` failed on frame `index`: its pane says why (unless that is stale)."""
        if not is_foreseen(error):
            log.error("%s failed on frame %d", engine_name, index, exc_info=error)
        with self._condition:
            if generation == self._generation:
                self.timeline.failed(engine_name, failure_words(error))
                self._condition.notify_all()

    def _blur(self, engine_name: str) -> None:
        """An engine's one thread: take a frame, make it ready, blur it and show it. One that
        does not compile yields (YIELDING_NICENESS) once it has blurred a frame: a thread
        inherits the priority of the thread that starts it, and an engine's first call may
        start threads the whole program keeps (JAX without jit, the first to call JAX, starts
        XLA's, on which JAX-jit's pane and the photo's jobs then ran at the lowest priority)."""
        lower = _yields(engine_name)
        while (taken := self._take(engine_name, 1)) is not None:
            ready = self._make_ready(engine_name, taken, send=False)
            del taken
            if ready is not None and self._blur_and_show(engine_name, ready) and lower:
                _lower_this_threads_priority()
                lower = False
            del ready

    def _make_ready_ahead(self, engine_name: str) -> None:
        """An engine's first stage: the next frame made ready and sent to its device while
        the one before it blurs (its second stage, _blur_ready)."""
        while (taken := self._take(engine_name, FRAMES_IN_FLIGHT)) is not None:
            ready = self._make_ready(engine_name, taken, send=True)
            del taken
            if ready is not None:
                with self._condition:
                    if ready.generation == self._generation:
                        self._ready[engine_name].append(ready)
                        self._condition.notify_all()
            del ready

    def _blur_ready(self, engine_name: str) -> None:
        """An engine's second stage: blur and show the frames made ready, in order."""
        while True:
            with self._condition:
                while not self._ready[engine_name]:
                    if self._closing:
                        return
                    self._condition.wait()
                ready = self._ready[engine_name].popleft()
            self._blur_and_show(engine_name, ready)
            del ready


def _yields(engine_name: str) -> bool:
    """Whether `engine_name`'s thread gives way to the others' (YIELDING_NICENESS): an engine
    that does not compile; an engine not found does not blur at all."""
    try:
        return not get_engine(engine_name).compiles
    except Exception:
        return False


def _lower_this_threads_priority() -> None:
    """The calling thread at YIELDING_NICENESS, where the system sets a thread's own (Linux:
    setpriority takes a thread's id); elsewhere, or where it is refused, as it was."""
    if not sys.platform.startswith("linux"):
        return  # elsewhere the call takes a process's id: it would lower the whole program
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), YIELDING_NICENESS)
    except OSError:
        log.debug("a playing thread's priority could not be lowered", exc_info=True)


def _sends_ahead(engine_name: str) -> bool:
    """Whether `engine_name` can send a frame to its device ahead of its call (then it plays
    in two stages); an engine not found plays in one, and its pane says why."""
    try:
        return get_engine(engine_name).preview.send_ahead is not None
    except Exception:
        return False
