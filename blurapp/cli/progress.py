"""How a long command says where it is: tqdm's bar on stderr when stderr is a terminal; else (a
log file, a pipe, a job's output) a plain line at most every PLAIN_LINE_SECONDS, so that minutes
of work are never silent. The plain lines need nothing installed: tqdm comes with the `scale`
extra."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

# The plain lines come at most this often; a line is said when the work moves on, never between.
PLAIN_LINE_SECONDS = 5.0


def progress_bar(total: int | None, unit: str, description: str, **bar_options: Any) -> Any:
    """A bar counting `unit`s ("frame") to `total` (None: not known), headed by `description`,
    what is being done ("blurring clip.mp4"): tqdm's on a terminal, with `bar_options`
    (position, leave), else a PlainProgress. Either is closed by close(), or as a context
    manager, and moved by update(n), set_postfix_str(text) and its `total`."""
    if _on_a_terminal():
        try:
            from tqdm import tqdm
        except ImportError:
            pass
        else:
            return tqdm(total=total, unit=unit, desc=description, dynamic_ncols=True, **bar_options)
    return PlainProgress(total, unit, description)


def _on_a_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # no stderr, or a closed one
        return False


def show_progress(bar: Any, done: int, total: int, megapixels: float) -> None:
    """Move a progress_bar to `done` of `total`, the megapixels written so far beside it as a
    rate: a batch's photos and a blur's rows of blocks report alike."""
    bar.total = total
    seconds = bar.format_dict["elapsed"] or 1e-9
    bar.set_postfix_str(f"{megapixels / seconds:,.1f} MP/s", refresh=False)
    bar.update(done - bar.n)


class PlainProgress:
    """What a progress_bar is where none can be drawn: tqdm's count (n, total, update,
    set_postfix_str, format_dict's elapsed, close), said as a line on stderr at most every
    PLAIN_LINE_SECONDS: 'blurring clip.mp4: 120 of 480 frames (25 %), 10 s'."""

    def __init__(
        self, total: int | None, unit: str, description: str, *, said: float | None = None
    ) -> None:
        self.total, self.n = total, 0
        self._unit, self._description = unit, description
        self._postfix = ""
        self._start = time.monotonic()
        # When the last line was said; a bar that follows another (the next stage) goes on
        # from the other's, so a change of stage never makes the wait longer.
        self.said = self._start if said is None else said

    @property
    def format_dict(self) -> dict[str, float]:
        return {"elapsed": time.monotonic() - self._start}

    def set_postfix_str(self, text: str = "", refresh: bool = True) -> None:
        self._postfix = text

    def update(self, n: int = 1) -> None:
        self.n += n
        now = time.monotonic()
        if now - self.said >= PLAIN_LINE_SECONDS:
            self.said = now
            print(self._line(now), file=sys.stderr, flush=True)

    def _line(self, now: float) -> str:
        units = self._unit + ("es" if self._unit.endswith("s") else "s")
        if self.total:
            how_far = f"{self.n:,} of {self.total:,} {units} ({100 * self.n / self.total:.0f} %)"
        else:
            how_far = f"{self.n:,} {units}"
        line = f"{self._description}: {how_far}, {now - self._start:.0f} s"
        return f"{line}, {self._postfix}" if self._postfix else line

    def close(self) -> None:
        """Nothing to clear: the lines said stay, and the command's last line follows them."""

    def __enter__(self) -> PlainProgress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


# What staged_progress gives: progress(stage, done, total).
Progress = Callable[[str, int, int], None]


@contextmanager
def staged_progress(stages: Mapping[str, tuple[str, str]]) -> Iterator[Progress]:
    """A `progress(stage, done, total)` for work in stages, each stage's own bar in turn:
    `stages` maps a stage to its description and unit ("frames": ("blurring 120 frames of
    clip.mp4", "frame")); a stage not in it is shown by its own name."""
    current: dict[str, Any] = {}

    def progress(stage: str, done: int, total: int) -> None:
        if current.get("stage") != stage:
            bar = current.get("bar")
            if bar is not None:
                bar.close()
            description, unit = stages.get(stage, (stage, "step"))
            bar = progress_bar(total, unit, description, leave=False)
            if isinstance(bar, PlainProgress) and isinstance(current.get("bar"), PlainProgress):
                bar.said = current["bar"].said
            current.update(stage=stage, bar=bar)
        bar = current["bar"]
        bar.total = total
        bar.update(done - bar.n)

    try:
        yield progress
    finally:
        if current.get("bar") is not None:
            current["bar"].close()
