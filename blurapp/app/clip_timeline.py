"""A clip playing through the engines, as plain state without Qt or threads: which frame is due
by the clip's clock, which frame each engine's pane is handed, the frames it drops because it
was still busy when they were due, its frames per second, and the words the window shows.

An engine still blurring when the next frame is due is not given a queue of frames: when it
is done it takes the newest frame there is, and the frames it passed over count as dropped.
Both panes so stay in time with the clip, the slower one showing fewer of its frames.
blurapp.app.clip_player runs this on threads; the tests drive it with a clock of their own.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from blurapp.app.captions import Translate
from blurapp.core.media.clip import ClipInfo
from blurapp.core.wording import QT_TRANSLATE_NOOP

CONTEXT = "ClipTimeline"

# An engine's frames per second are counted over the last this many frames it showed.
RATE_WINDOW_FRAMES = 20


def _english(context: str, text: str) -> str:
    return text


@dataclass
class PaneTrack:
    """One engine's part in the playing: the frames it took, showed and dropped."""

    engine: str
    taken: int | None = None  # the last frame handed to it
    shown: int | None = None  # the last frame it blurred and showed
    busy: bool = False  # a frame it took is not shown yet
    in_flight: int = 0  # the frames it took and has not shown yet (a pipelined engine's few)
    dropped: int = 0
    counting: bool = False  # the frame in hand was taken after its first was shown
    error: str | None = None  # why it stopped blurring, in words
    frames_shown: int = 0
    first_shown_at: float | None = None  # when it showed its first frame (its first call's end)
    # When it showed each of its last frames (seconds on the timeline's clock).
    shown_at: deque[float] = field(default_factory=lambda: deque(maxlen=RATE_WINDOW_FRAMES))

    def average_frames_per_second(self) -> float | None:
        """Frames shown per second from its first frame to its last (its first call apart):
        the pace it kept over the whole playing; None before two are shown."""
        if self.first_shown_at is None or self.frames_shown < 2:
            return None
        seconds = self.shown_at[-1] - self.first_shown_at
        return (self.frames_shown - 1) / seconds if seconds > 0 else None

    def frames_per_second(self, clip_rate: float, now: float | None = None) -> float | None:
        """Frames shown per second over its last frames; None before two are shown.

        No more than `clip_rate`: frames that came close together (a backlog of reading after
        a compile) are not a pace it keeps. Given `now`, a wait since the last frame longer
        than the usual one counts, so a stalled pane's figure falls instead of staying."""
        count = len(self.shown_at) - 1
        if count < 1:
            return None
        span = max(self.shown_at[-1] - self.shown_at[0], count / clip_rate)
        if now is not None:
            span = max(span, now - self.shown_at[0] - span / count)
        return count / span

    def restart(self) -> None:
        """Forget the counts, and a failure: a new start of playing, from another frame
        perhaps, tries a failed engine again."""
        self.taken, self.busy, self.dropped, self.counting = None, False, 0, False
        self.in_flight, self.error = 0, None
        self.shown_at.clear()


class ClipTimeline:
    """The clock of a clip and each engine's track on it.

    Playing, frame `due(now)` is the one the clip shows at `now`: the frame it started from,
    plus the clip's frames per second times the seconds since. Paused, it is `position`.
    """

    def __init__(self, info: ClipInfo, engines: tuple[str, ...]) -> None:
        if not engines:
            raise ValueError("a clip plays through at least one engine")
        self.info = info
        self.tracks = {engine: PaneTrack(engine) for engine in engines}
        self.position = 0
        self.playing = False
        self._started_at = 0.0
        self._started_from = 0
        # The frame after the clip's last, once reading it found its end (a clip whose count is
        # not known, or one cut short); None while not found.
        self.end: int | None = None
        self.problem: str | None = None  # why the clip stopped giving frames, in words

    @property
    def engines(self) -> tuple[str, ...]:
        return tuple(self.tracks)

    def last_frame(self) -> int | None:
        """The index of the clip's last frame, when it is known."""
        ends = [end for end in (self.end, self.info.frame_count) if end is not None]
        return max(min(ends) - 1, 0) if ends else None

    # --- What the user does -------------------------------------------------------------------

    def play(self, now: float) -> None:
        """Play from `position`; from the start again when it is at the last frame."""
        if self.playing:
            return
        last = self.last_frame()
        if last is not None and self.position >= last:
            self.position = 0
        self.playing = True
        self._restart(now)

    def pause(self, now: float) -> int:
        """Stop at the frame due now (the last frame, past the end); the frame paused on."""
        if self.playing:
            self.position = self._clamped(self.due(now))
            self.playing = False
        for track in self.tracks.values():
            track.busy, track.in_flight = False, 0
        return self.position

    def seek(self, index: int, now: float) -> int:
        """Go to frame `index` (kept within the clip), playing on from there if playing."""
        self.position = self._clamped(index)
        if self.playing:
            self._restart(now)
        return self.position

    def step(self, frames: int, now: float) -> int:
        """Pause, and go `frames` on (back when negative) from the frame shown: the frame."""
        return self.seek(self.pause(now) + frames, now)

    # --- The clock ----------------------------------------------------------------------------

    def due(self, now: float) -> int:
        """The frame the clip shows at `now`."""
        if not self.playing:
            return self.position
        elapsed = max(now - self._started_at, 0.0)
        return self._started_from + math.floor(elapsed * self.info.frames_per_second)

    def time_of(self, index: int) -> float:
        """When frame `index` is due, on the clock playing started by."""
        return self._started_at + (index - self._started_from) / self.info.frames_per_second

    def finished(self, now: float) -> bool:
        """Whether playing has come past the last frame and every engine is done with it."""
        last = self.last_frame()
        if not self.playing or last is None or self.due(now) <= last:
            return False
        # An engine between frames is not busy, yet may still take the last one: done only
        # once it has (or has failed).
        return not any(
            track.busy or (track.error is None and (track.taken is None or track.taken < last))
            for track in self.tracks.values()
        )

    # --- The engines' tracks -----------------------------------------------------------------

    def take(self, engine: str, newest: int) -> int | None:
        """`engine` is free, and frame `newest` is the newest one read: the frame to blur next,
        or None when it has had that one. The frames since the one it last took, which it
        passed over while busy, are counted dropped."""
        track = self.tracks[engine]
        if track.error is not None or (track.taken is not None and newest <= track.taken):
            return None
        if track.taken is not None and track.counting:
            track.dropped += newest - track.taken - 1
        # Dropped frames count from the frame after its first: its first call (a compile,
        # say) is apart, as it is in a timed run.
        track.counting = bool(track.shown_at)
        track.taken, track.busy = newest, True
        track.in_flight += 1
        return newest

    def shown(self, engine: str, index: int, now: float) -> None:
        """`engine` has blurred frame `index`, and its pane shows it."""
        track = self.tracks[engine]
        track.shown = index
        self.not_shown(engine)
        track.shown_at.append(now)
        track.frames_shown += 1
        if track.first_shown_at is None:
            track.first_shown_at = now

    def not_shown(self, engine: str) -> None:
        """`engine` is done with a frame it took (shown, or let go unseen)."""
        track = self.tracks[engine]
        track.in_flight = max(track.in_flight - 1, 0)
        track.busy = track.in_flight > 0

    def let_go_outdated(self, engine: str) -> None:
        """`engine` lets go of a frame it took, blurred with parameters since changed: unseen,
        and counted dropped once it has shown a frame (as the frames it passes over are)."""
        track = self.tracks[engine]
        self.not_shown(engine)
        if track.shown_at:
            track.dropped += 1

    def forget_in_flight(self) -> None:
        """What every engine has taken will not be shown (a pause, a seek, a new start)."""
        for track in self.tracks.values():
            track.busy, track.in_flight = False, 0

    def failed(self, engine: str, words: str) -> None:
        """`engine` failed on a frame: it blurs no more of this playing."""
        track = self.tracks[engine]
        track.busy, track.in_flight, track.error = False, 0, words

    def try_failed_again(self) -> None:
        """New parameters: the engines that failed blur the frames to come again."""
        for track in self.tracks.values():
            if track.error is not None:
                track.error, track.taken = None, None

    def clip_ended(self, end: int, problem: str | None = None) -> None:
        """Reading found no frame `end` (the clip's end, or where it stopped: `problem`)."""
        self.end = end if self.end is None else min(self.end, end)
        if problem is not None:
            self.problem = problem

    # --- The words ---------------------------------------------------------------------------

    def rate(self, engine: str, now: float | None = None) -> float | None:
        """`engine`'s frames per second (see PaneTrack.frames_per_second); `now` while playing."""
        track = self.tracks[engine]
        return track.frames_per_second(self.info.frames_per_second, now if self.playing else None)

    def pane_words(
        self, engine: str, translate: Translate = _english, *, now: float | None = None
    ) -> str:
        """A pane's figures: "24.1 frames/s · 3 dropped"."""
        track = self.tracks[engine]
        if track.error is not None:
            return track.error
        rate = self.rate(engine, now)
        tr = _translator(translate)
        if rate is None:
            if self.playing:
                return tr(QT_TRANSLATE_NOOP("ClipTimeline", "starting…"))
            return ""
        return tr(QT_TRANSLATE_NOOP("ClipTimeline", "{rate} frames/s · {dropped} dropped")).format(
            rate=f"{rate:.1f}", dropped=track.dropped
        )

    def headline(
        self,
        titles: Callable[[str], str],
        translate: Translate = _english,
        *,
        now: float | None = None,
    ) -> str:
        """While playing: each engine's frames per second, and how many times the first's the
        second's is ("NumPy 9.8 frames/s · JAX-jit 29.4 frames/s · JAX-jit 3.0× NumPy")."""
        tr = _translator(translate)
        parts: list[str] = []
        rates: list[float | None] = []
        for engine in self.tracks:
            rate = self.rate(engine, now)
            rates.append(rate)
            figure = "–" if rate is None else f"{rate:.1f}"
            parts.append(
                tr(QT_TRANSLATE_NOOP("ClipTimeline", "{engine} {rate} frames/s")).format(
                    engine=titles(engine), rate=figure
                )
            )
        known = [rate for rate in rates if rate is not None and rate > 0]
        if len(rates) == 2 and len(known) == 2:
            (first, second), (a, b) = self.engines, known
            faster, slower, ratio = (second, first, b / a) if b >= a else (first, second, a / b)
            parts.append(
                tr(QT_TRANSLATE_NOOP("ClipTimeline", "{faster} {ratio}× {slower}")).format(
                    faster=titles(faster), ratio=f"{ratio:.1f}", slower=titles(slower)
                )
            )
        return " · ".join(parts)

    def frame_words(self, index: int | None = None, translate: Translate = _english) -> str:
        """Where the clip is, at frame `index` (None: `position`): "frame 12 of 300" (counting
        from 1), or "frame 12" when the clip's length is not known."""
        tr = _translator(translate)
        number = (self.position if index is None else index) + 1
        last = self.last_frame()
        if last is None:
            return tr(QT_TRANSLATE_NOOP("ClipTimeline", "frame {number}")).format(number=number)
        return tr(QT_TRANSLATE_NOOP("ClipTimeline", "frame {number} of {count}")).format(
            number=number, count=last + 1
        )

    # --- Within -------------------------------------------------------------------------------

    def _clamped(self, index: int) -> int:
        last = self.last_frame()
        return max(0, index if last is None else min(index, last))

    def _restart(self, now: float) -> None:
        self._started_at, self._started_from = now, self.position
        for track in self.tracks.values():
            track.restart()


def _translator(translate: Translate) -> Callable[[str], str]:
    return lambda text: translate(CONTEXT, text)
