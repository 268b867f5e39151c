"""Where a chart of times puts its bars, ticks and printed times across a width in pixels, the
text measured by the caller: the window's chart draws what this decides.

The speed-up is the reference's steady time over the jit engine's: those two bars (the
headline) are what the eye must meet, so the axis is made for them and a bar far longer (a
first call with its compile) is drawn broken, its time printed beside it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection
from dataclasses import dataclass

from blurapp.core.report.figures import format_ms

# A bar more than this many times the next longest is drawn broken: to scale, the others would
# get under a twentieth of the axis, too short to compare with each other.
BREAK_RATIO = 20
# With a headline pair, a bar up to this many times the pair's longer one is still drawn to
# scale; a longer one is broken, so that the pair keeps a readable share of the axis.
HEADLINE_ROOM = 4
BREAK_ZONE = 30  # px past the axis's end where a broken bar shows its break
TICK_GAP = 12  # px at least between two tick labels
MIN_BAR = 2  # px: a bar of a few microseconds is still there to see
NAME_SHARE = 0.4  # of the width at most for the bars' names, the rest for the bars
NAME_GAP = 8  # px between a name and its bar
NAME_LINES = 2  # a name too long for its column wraps to this many lines, then is cut with "…"


@dataclass(frozen=True)
class Tick:
    x: float  # where its mark is on the axis
    label: str  # milliseconds
    label_left: float  # where its label starts


@dataclass(frozen=True)
class BarLayout:
    name: str
    value: str  # the bar's real time, as printed beside it
    end: float  # x where the bar ends
    broken: bool  # too long to draw to scale: drawn past the axis with a break
    value_left: float  # where the printed time starts, right of the bar
    # The name as drawn, a line each: whole, or wrapped at spaces where its column is too
    # narrow ("JAX first call" over "(live preview)"); a last line still too long ends in "…".
    name_lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class ChartLayout:
    name_width: float  # the column of bar names, left of the bars
    bar_left: float  # x of zero
    axis_end: float  # x of the last tick
    break_x: float | None  # x of the break mark, when a bar is broken
    bars: list[BarLayout]
    ticks: list[Tick]

    @property
    def name_lines(self) -> int:
        """The most lines a bar's name takes: every bar's row is that many lines high."""
        return max((len(bar.name_lines) for bar in self.bars), default=1)


def _wrapped(name: str, room: float, text_width: Callable[[str], float]) -> tuple[str, ...]:
    """`name` in lines at most `room` wide, broken at spaces, NAME_LINES at most: the last line
    keeps the rest of the words, cut with "…" if they still do not fit."""
    if text_width(name) <= room:
        return (name,)
    # Words in brackets keep together on a line of their own where both lines fit.
    head, bracket, tail = name.partition(" (")
    if bracket and text_width(head) <= room and text_width(f"({tail}") <= room:
        return (head, f"({tail}")
    lines: list[str] = []
    words = name.split(" ")
    while words and len(lines) < NAME_LINES - 1:
        line = words.pop(0)
        while words and text_width(f"{line} {words[0]}") <= room:
            line = f"{line} {words.pop(0)}"
        lines.append(line)
    if words:
        last = " ".join(words)
        while len(last) > 1 and text_width(last) > room:
            last = last[:-2].rstrip() + "…"
        lines.append(last)
    return tuple(lines)


def _nice_steps(largest: float):
    """1, 2, 5 × 10ⁿ from about a twentieth of `largest` up to the first that is ≥ `largest`."""
    exponent = math.floor(math.log10(largest / 20))
    while True:
        for mantissa in (1, 2, 5):
            step = mantissa * 10.0**exponent
            yield step
            if step >= largest:
                return
        exponent += 1


def _tick_text(ms: float, step: float) -> str:
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    return "0" if ms == 0 else f"{ms:,.{decimals}f}"


def chart_layout(
    bars: list[tuple[str, float]],
    width: int,
    text_width: Callable[[str], float],
    headline: Collection[str] = (),
) -> ChartLayout:
    """Where TimingChart draws `bars` (name, seconds) across `width` px, on a linear axis from zero.

    Bar lengths are proportional to time, but for bars too long to draw to scale, drawn broken
    past the axis's end with their time beside them: with `headline` (the names of the bars the
    speed-up divides), every bar over HEADLINE_ROOM times the longer of those, so that the two
    are what the eye meets; without, one bar over BREAK_RATIO times the next longest. Ticks are
    1, 2 or 5 × 10ⁿ ms, as many as fit without their labels touching; `text_width` measures a
    string in the chart's font.
    """
    values = [format_ms(seconds) for _, seconds in bars]
    # The names' column: as wide as the widest name, at most NAME_SHARE of the width; a name
    # wider wraps, so that it is read whole rather than cut ("JAX first call (live pre…").
    room = NAME_SHARE * width - NAME_GAP
    names = [_wrapped(name, room, text_width) for name, _ in bars]
    name_width = min(
        max(text_width(line) for lines in names for line in lines) + NAME_GAP,
        NAME_SHARE * width,
    )
    bar_left = name_width
    plot_right = max(bar_left + 20, width - max(text_width(v) for v in values) - 8)
    ms = [seconds * 1000 for _, seconds in bars]
    ordered = sorted(ms, reverse=True)
    broken: set[int] = set()
    pair = [ms[index] for index, (name, _) in enumerate(bars) if name in headline]
    if pair:
        room = HEADLINE_ROOM * max(pair)
        broken = {index for index, time in enumerate(ms) if time > room}
    elif len(ms) >= 2 and ordered[0] > BREAK_RATIO * ordered[1]:
        broken = {ms.index(ordered[0])}
    largest = max(time for index, time in enumerate(ms) if index not in broken)
    axis_end = plot_right - BREAK_ZONE if broken else plot_right
    axis_end = max(axis_end, bar_left + 10)

    def ticks_for(step: float) -> tuple[float, list[Tick]]:
        count = math.ceil(largest / step - 1e-9)
        top = count * step
        ticks = []
        for k in range(count + 1):
            x = bar_left + (axis_end - bar_left) * k / count
            label = _tick_text(k * step, step)
            label_width = text_width(label)
            # Centred under its mark, but kept inside the widget.
            left = min(max(x - label_width / 2, 0), width - label_width)
            ticks.append(Tick(x, label, left))
        return top, ticks

    def apart(ticks: list[Tick]) -> bool:
        return all(
            a.label_left + text_width(a.label) + TICK_GAP <= b.label_left
            for a, b in itertools.pairwise(ticks)
        )

    for step in _nice_steps(largest):
        top, ticks = ticks_for(step)
        if apart(ticks):
            break
    else:
        ticks = ticks[-1:]  # too narrow for two labels: the top one still gives the scale

    laid_out = []
    for index, (name, _) in enumerate(bars):
        if index in broken:
            end = plot_right
        else:
            end = max(bar_left + (axis_end - bar_left) * ms[index] / top, bar_left + MIN_BAR)
        laid_out.append(BarLayout(name, values[index], end, index in broken, end + 4, names[index]))
    break_x = (axis_end + plot_right) / 2 if broken else None
    return ChartLayout(name_width, bar_left, axis_end, break_x, laid_out, ticks)
