"""How wide the window's side panel (the controls above the figures) is, and how large the
speed-up is set in it, for the window's size: decided here in pixels, without Qt;
`blurapp/ui` measures the type and applies the answer.

The panel takes a share of the window, so that a large screen's room goes to the figures as well
as to the pictures and a figure's words do not wrap into a tall strip; its least width keeps the
controls' words whole, and its most keeps lines of the figures short enough to read. The
speed-up, the figure a demo is about, is the largest type on the screen: as large as a share of
the panel's width and of the window's height allow.
"""

from __future__ import annotations

import math

# The side panel's share of the window's width, and its least width in pixels: the controls'
# words ("NumPy, tutorial loop" beside "JAX without jit") and the chart's bar names fit it.
SIDE_PANEL_SHARE = 0.3
SIDE_PANEL_LEAST = 340
# Its most, in average characters of the panel's type: a figure's line stays short enough to
# read in one sweep of the eye (some 90 characters beside the figure's name).
SIDE_PANEL_MOST_CHARACTERS = 100
# The pictures keep at least this share of the window's width, however wide the type.
PANES_LEAST_SHARE = 0.5

# The speed-up's figure ("9.8×") takes at most this share of the panel's width, its line at
# most this share of the window's height (a short window keeps room for the chart), and its
# type is at least SPEEDUP_LEAST_SCALE times the panel's, at most SPEEDUP_MOST_SCALE times.
SPEEDUP_WIDTH_SHARE = 0.5
SPEEDUP_HEIGHT_SHARE = 0.075
SPEEDUP_LEAST_SCALE = 1.8
SPEEDUP_MOST_SCALE = 4.5
# The figure the speed-up's type is sized for, whatever this run's: the type keeps its size from
# one run to the next ("9.8×" and "12.0×" alike).
SPEEDUP_SAMPLE = "88.8×"


def side_panel_width(window_width: int, character_width: float) -> int:
    """The side panel's width in a window `window_width` pixels wide whose panel type's average
    character is `character_width` pixels wide."""
    most = min(SIDE_PANEL_MOST_CHARACTERS * character_width, (1 - PANES_LEAST_SHARE) * window_width)
    width = min(SIDE_PANEL_SHARE * window_width, most)
    return max(SIDE_PANEL_LEAST, math.floor(width))


def speedup_scale(
    panel_width: int, window_height: int, figure_width: float, line_height: float
) -> float:
    """The speed-up's type size as a multiple of the panel's, for a panel `panel_width` pixels
    wide in a window `window_height` pixels high, where SPEEDUP_SAMPLE in the panel's type is
    `figure_width` pixels wide and a line `line_height` pixels high."""
    if figure_width <= 0 or line_height <= 0:
        return SPEEDUP_LEAST_SCALE
    by_width = SPEEDUP_WIDTH_SHARE * panel_width / figure_width
    by_height = SPEEDUP_HEIGHT_SHARE * window_height / line_height
    scale = min(by_width, by_height, SPEEDUP_MOST_SCALE)
    # A tenth at a time: a window resized by a few pixels keeps its type.
    return max(SPEEDUP_LEAST_SCALE, math.floor(scale * 10) / 10)
