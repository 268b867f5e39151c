"""How often each pane's live preview updates while the parameters move: the "updates/s" in
its caption."""

from __future__ import annotations

import time

# A pane's live updates per second count those of the last this many seconds: long enough to
# be steady while a slider moves, short enough to vanish soon after it stops.
LIVE_RATE_SECONDS = 2.0


class LiveRates:
    """When each engine's live results came, over the last LIVE_RATE_SECONDS."""

    def __init__(self) -> None:
        self._times: dict[str, list[float]] = {}

    def clear(self) -> None:
        self._times.clear()

    def record(self, engine: str) -> None:
        """A live result of `engine` came now, while the parameters moved."""
        now = time.monotonic()
        self._times[engine] = [*self._recent(engine, now), now]

    def rate(self, engine: str, now: float | None = None) -> float | None:
        """How many live results a second `engine`'s pane got; None once the parameters have
        been still LIVE_RATE_SECONDS, or with fewer than two updates to count between."""
        now = time.monotonic() if now is None else now
        times = self._recent(engine, now)
        if len(times) < 2:
            return None
        return (len(times) - 1) / max(times[-1] - times[0], 1e-6)

    def seconds_until_gone(self, now: float | None = None) -> float | None:
        """How long until no pane has a rate to show (the parameters staying still), or None
        when none has one now."""
        now = time.monotonic() if now is None else now
        # A rate goes when the update before the last leaves the window.
        ends = [
            times[-2] + LIVE_RATE_SECONDS - now
            for times in (self._recent(engine, now) for engine in self._times)
            if len(times) >= 2
        ]
        return max(ends) if ends else None

    def _recent(self, engine: str, now: float) -> list[float]:
        return [t for t in self._times.get(engine, []) if now - t < LIVE_RATE_SECONDS]
