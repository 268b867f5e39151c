"""How a long command says where it is: tqdm's bar on stderr when stderr is a terminal; else (a
log file, a pipe, a job's output) a plain line at most every PLAIN_LINE_SECONDS, so that minutes
of work are never silent. The plain lines need nothing installed: tqdm comes with the `scale`
extra."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from blurapp.core.blurring.blur_file import StagedProgress

# The plain lines come at most this often when the work moves on.
PLAIN_LINE_SECONDS = 5.0
# A step that goes on this long without a line (a 40 MP photo's loading, a first call compiling,
# a PNG written) is said again, with how long it has taken, so that no stretch is silent.
QUIET_SECONDS = 5.0
# Set by the tests alone, to a fraction of a second, so that a step is long without waiting.
QUIET_SECONDS_VARIABLE = "BLURAPP_PROGRESS_EVERY_S"


def progress_bar(
    total: int | None, unit: str, description: str, *, estimate: bool = False, **bar_options: Any
) -> Any:
    """A bar counting `unit`s ("frame") to `total` (None: not known), headed by `description`,
    what is being done ("blurring clip.mp4"): tqdm's on a terminal, with `bar_options`
    (position, leave), else a PlainProgress, whose lines call `total` "about" where it is an
    `estimate` that moves as the work goes. Either is closed by close(), or as a context
    manager, and moved by update(n), set_postfix_str(text) and its `total`."""
    if _on_a_terminal():
        try:
            from tqdm import tqdm
        except ImportError:
            pass
        else:
            return tqdm(total=total, unit=unit, desc=description, dynamic_ncols=True, **bar_options)
    return PlainProgress(total, unit, description, estimate=estimate)


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
    PLAIN_LINE_SECONDS: 'blurring clip.mp4: 120 of 480 frames (25 %), 10 s'. A step that says
    nothing for QUIET_SECONDS is said again ('reading photo.jpg… 5 s') by a thread of its own,
    stopped by close(); finish() says that the work is done where its last line did not."""

    def __init__(
        self,
        total: int | None,
        unit: str,
        description: str,
        *,
        said: float | None = None,
        estimate: bool = False,
    ) -> None:
        self.total, self.n = total, 0
        self._unit, self._description = unit, description
        self._estimate = estimate
        self._postfix = ""
        self._start = time.monotonic()
        # When the last line was said; a bar that follows another (the next stage) goes on
        # from the other's, so a change of stage never makes the wait longer.
        self.said = self._start if said is None else said
        # The stream of the moment it began: the heartbeat thread writes where the command does.
        self._stream = sys.stderr
        # The lines are said from two threads: one at a time, and none once closed.
        self._lock = threading.Lock()
        self._last_line: tuple[int, int | None] | None = None  # (n, total) of its last line
        self._closed = threading.Event()
        self._heartbeat = threading.Thread(
            target=self._say_when_quiet, args=(_quiet_seconds(),), daemon=True,
            name=f"progress: {description}",
        )  # fmt: skip
        self._heartbeat.start()

    @property
    def format_dict(self) -> dict[str, float]:
        return {"elapsed": time.monotonic() - self._start}

    def set_postfix_str(self, text: str = "", refresh: bool = True) -> None:
        self._postfix = text

    def update(self, n: int = 1) -> None:
        self.n += n
        with self._lock:
            now = time.monotonic()
            if now - self.said >= PLAIN_LINE_SECONDS:
                self._say(self._line(now))

    def finish(self) -> None:
        """The work is done: said where a line was said of it but not of its end (a total that
        was an estimate, a count said last at 318 of 478), so that its last line says done."""
        with self._lock:
            if self._last_line is None or self._last_line == (self.n, self.total):
                return
            # One file written is said by "done" alone; 318 calls of about 478 by their count.
            count = f"{self.n:,} {self._units()}, " if self.n and self.total != 1 else ""
            self._say(f"{self._description}: {count}done, {self._elapsed():.0f} s")

    def _say_when_quiet(self, quiet: float) -> None:
        while True:
            with self._lock:
                wait = self.said + quiet - time.monotonic()
                if wait <= 0:
                    if self._closed.is_set():
                        return
                    self._say(self._quiet_line())
                    continue
            if self._closed.wait(wait):
                return

    def _quiet_line(self) -> str:
        """What a step that has not moved for a while is doing, and for how long."""
        if self.n:
            return self._line(time.monotonic())
        return f"{self._description}… {self._elapsed():.0f} s"

    def _say(self, line: str) -> None:
        if self._closed.is_set():
            return
        self.said = time.monotonic()
        self._last_line = (self.n, self.total)
        print(line, file=self._stream, flush=True)

    def _elapsed(self) -> float:
        return time.monotonic() - self._start

    def _units(self) -> str:
        return self._unit + ("es" if self._unit.endswith("s") else "s")

    def _line(self, now: float) -> str:
        units = self._units()
        if self.total:
            about = "about " if self._estimate else ""
            how_far = (
                f"{self.n:,} of {about}{self.total:,} {units} ({100 * self.n / self.total:.0f} %)"
            )
        else:
            how_far = f"{self.n:,} {units}"
        line = f"{self._description}: {how_far}, {now - self._start:.0f} s"
        return f"{line}, {self._postfix}" if self._postfix else line

    def close(self) -> None:
        """Stop saying lines, the heartbeat thread ended before this returns: the lines said
        stay, and the command's last line follows them."""
        with self._lock:
            self._closed.set()
        self._heartbeat.join()

    def __enter__(self) -> PlainProgress:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc_info: object) -> None:
        if exc_type is None:
            self.finish()
        self.close()


def _quiet_seconds() -> float:
    try:
        seconds = float(os.environ.get(QUIET_SECONDS_VARIABLE, QUIET_SECONDS))
    except ValueError:
        return QUIET_SECONDS
    return max(seconds, 0.01)  # never a thread that only prints


@contextmanager
def staged_progress(
    stages: Mapping[str, tuple[str, str]], *, estimated: Collection[str] = ()
) -> Iterator[StagedProgress]:
    """A `progress(stage, done, total)` for work in stages, each stage's own bar in turn:
    `stages` maps a stage to its description and unit ("frames": ("blurring 120 frames of
    clip.mp4", "frame")); a stage not in it is shown by its own name. The stages `estimated`
    have totals that move as the work goes ("about 478 calls")."""
    current: dict[str, Any] = {}

    def progress(stage: str, done: int, total: int) -> None:
        if current.get("stage") != stage:
            bar = current.get("bar")
            if bar is not None:
                _finish(bar)
                bar.close()
            description, unit = stages.get(stage, (stage, "step"))
            bar = progress_bar(total, unit, description, estimate=stage in estimated, leave=False)
            if isinstance(bar, PlainProgress) and isinstance(current.get("bar"), PlainProgress):
                bar.said = current["bar"].said
            current.update(stage=stage, bar=bar)
        bar = current["bar"]
        bar.total = total
        bar.update(done - bar.n)

    try:
        yield progress
        if current.get("bar") is not None:
            _finish(current["bar"])
    finally:
        if current.get("bar") is not None:
            current["bar"].close()


def _finish(bar: Any) -> None:
    """A stage's end said where its lines did not say it (tqdm's bar shows it already)."""
    if isinstance(bar, PlainProgress):
        bar.finish()
