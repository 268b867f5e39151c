"""How tall the panes' captions are: tall enough before a run for the caption a run brings, so
that the photos under them do not move down when it comes. In pixels, without Qt;
`blurapp/ui/image_pane.py` lays out the text and applies the answer.

A caption grows after a Run (the steady time, the first call and how it was paid, the programs
compiled): a caption area as tall as the text of the moment would push both photos down then,
and pull them up at the next change of parameters. So the area keeps room for
LONGEST_RUN_CAPTION laid out at the pane's width, and at one width it never gets shorter: the
photos move only when the window is resized.
"""

from __future__ import annotations

from dataclasses import dataclass

from blurapp.app.captions import Caption

# A JAX pane's caption after a Run with the live preview on, the longest a run usually gives:
# on an accelerator, a colour photo blurred in grey, the preview's program loaded from the
# compilation cache, with a digit more in every figure. Laid out as the captions are, with their
# unbreakable phrases ("0.682 ms", "9 × 9"), so that it wraps as they do: a count of characters
# at the type's average width, 225 of them with 15 % lost to wrapping, kept one line too few at
# 800 × 600, where a narrow pane loses more to its line ends.
LONGEST_RUN_CAPTION = Caption(
    heading="JAX-jit",
    details=(
        "tpu: TPU v5 lite",
        "steady 10.200 ms",
        "first call 11,234 ms, loaded from the compilation cache during the live preview; this"
        " Run's first call 10.682 ms (already compiled)",
        "15 × 15, σ 12.5, grey: Blur in colour is off",
    ),
)
LEAST_LINES = 2
# A very narrow pane keeps no more than this empty: the longest caption takes 7 lines in a pane
# of a window 800 × 600 (228 px) and 8 at 200 px.
MOST_RESERVED_LINES = 8


def reserved_height(text_height: int, line_height: int) -> int:
    """The height a caption area keeps, where LONGEST_RUN_CAPTION laid out at its width takes
    `text_height` pixels in lines `line_height` pixels apart: that, between LEAST_LINES and
    MOST_RESERVED_LINES lines."""
    return min(MOST_RESERVED_LINES * line_height, max(LEAST_LINES * line_height, text_height))


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
