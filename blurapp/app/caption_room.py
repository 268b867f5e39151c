"""How tall the panes' captions are: tall enough before a run for the caption a run brings, so
that the photos under them do not move down when it comes. In pixels, without Qt;
`blurapp/ui/image_pane.py` measures the text and applies the answer.

A caption grows after a Run (the steady time, the first call and how it was paid, the programs
compiled): a caption area as tall as the text of the moment would push both photos down then,
and pull them up at the next change of parameters. So the area keeps room for
RESERVED_CHARACTERS of text at the pane's width, and at one width it never gets shorter: the
photos move only when the window is resized.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# A JAX pane's caption after a Run with the live preview on, the longest a run usually gives:
# on an accelerator, a colour photo blurred in grey, the preview's program loaded from the
# compilation cache ("JAX-jit · tpu: TPU v5 lite · steady 0.200 ms · first call 1,234 ms, loaded
# from the compilation cache during the live preview; this Run's first call 0.682 ms (already
# compiled) · 9 × 9, σ 2.5, grey: Blur in colour is off", 220 characters), and a few digits
# more. 200, which counted "compiled" in place of "loaded from the compilation cache", moved
# the photos down 10 px at 800 × 600 when the cache had the preview's program.
RESERVED_CHARACTERS = 225
# Lines break between words, not characters: a line holds this much less than its width.
WRAP_LOSS = 1.15
LEAST_LINES = 2
MOST_RESERVED_LINES = 6  # a very narrow pane: no more than this kept empty


def reserved_lines(width: float, character_width: float) -> int:
    """The lines a caption area `width` pixels wide keeps, in type whose average character is
    `character_width` pixels wide."""
    if width <= 0:
        return LEAST_LINES
    lines = math.ceil(RESERVED_CHARACTERS * character_width * WRAP_LOSS / width)
    return min(MOST_RESERVED_LINES, max(LEAST_LINES, lines))


@dataclass
class CaptionRoom:
    """The captions' height, remembered at one width and type: never less than before there."""

    _at: tuple[float, float] = (-1, -1)
    _height: int = 0

    def height(self, at: tuple[float, float], needed: int, reserved: int) -> int:
        """The captions' height at `at` (their width, and their type's line height), where their
        text needs `needed` pixels and the reserved lines (reserved_lines) take `reserved`."""
        if at != self._at:
            self._at, self._height = at, 0
        self._height = max(self._height, needed, reserved)
        return self._height
