"""When the panes' captions are drawn after a change of the parameters the live preview follows.

Such a change leaves the captions as they are, saying what the pictures shown are, until the
preview's first result draws them all again, or LIVE_CAPTIONS_WAIT_SECONDS at most (then they
say what is out of date): their layout would hold up the blur, and a pane that keeps up never
flickers "out of date". The window's timer only calls back at the time named here.
"""

from __future__ import annotations

import time
from collections.abc import Callable

LIVE_CAPTIONS_WAIT_SECONDS = 0.150


class CaptionsWait:
    """The wait of the captions for a live preview's result; `follows` says whether the live
    preview follows a change of the parameters now (a photo shown, nothing playing). Times are
    seconds on `clock` (each method takes `now` too, for the tests)."""

    def __init__(
        self, follows: Callable[[], bool], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._follows, self._clock = follows, clock
        self.until: float | None = None  # when the captions are due, while they wait

    def parameters_changed(self, now: float | None = None) -> float | None:
        """The parameters changed: None when the captions are drawn now, else the seconds until
        they are due. A slider dragged waits from its first step: every step after it keeps
        the same end."""
        now = self._clock() if now is None else now
        if not self._follows() or (self.until is not None and now >= self.until):
            self.until = None
            return None
        if self.until is None:
            self.until = now + LIVE_CAPTIONS_WAIT_SECONDS
        return self.until - now

    def due(self, now: float | None = None) -> float | None:
        """The window's timer called back: None when the captions are due now (drawn as the
        session has them: what is out of date says so), else the seconds left (a timer that
        came early)."""
        now = self._clock() if now is None else now
        if self.until is None or now >= self.until:
            return None
        return self.until - now

    def waiting(self, now: float | None = None) -> bool:
        """Whether the captions wait for the live preview's result now."""
        return self.due(now) is not None

    def rates_expired(self, now: float | None = None) -> bool:
        """A live preview's updates per second went from the captions (the parameters stayed
        still): whether to draw them now. Not while they wait: the wait's end draws them, the
        rate gone with it."""
        return not self.waiting(now)

    def drawn(self) -> None:
        """The captions were drawn (a result came, or the wait ended): no wait is left."""
        self.until = None
