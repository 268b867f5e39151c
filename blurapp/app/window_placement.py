"""Where the window opens: inside the available area of the screen it opens on.

A window manager usually keeps a window on its screen, but not always (a kiosk, a remote
session, a virtual screen) and never for a size saved on a larger screen. So the window decides
itself: a saved place is kept only where it fits, and a fresh window takes the room the screen
has. Plain rectangles in screen pixels, no Qt: `blurapp/ui` reads the screens and applies the
answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# A fresh window asks for this much; a screen with less room gives it all it has.
PREFERRED_SIZE = (1360, 820)
# On a screen with more room than PREFERRED_SIZE, the share of the available area a fresh window
# takes, centred: the room is used, and the desktop still shows around it.
FRESH_SHARE = 0.9


@dataclass(frozen=True)
class Rect:
    """A rectangle in screen pixels: its top-left corner, its width and height."""

    x: int
    y: int
    width: int
    height: int

    @property
    def right(self) -> int:
        """The first column past the rectangle."""
        return self.x + self.width

    @property
    def bottom(self) -> int:
        """The first row past the rectangle."""
        return self.y + self.height

    def contains(self, other: Rect) -> bool:
        return (
            self.x <= other.x
            and self.y <= other.y
            and other.right <= self.right
            and other.bottom <= self.bottom
        )

    def overlap(self, other: Rect) -> int:
        """The area the two rectangles share, in pixels."""
        width = min(self.right, other.right) - max(self.x, other.x)
        height = min(self.bottom, other.bottom) - max(self.y, other.y)
        return max(width, 0) * max(height, 0)


@dataclass(frozen=True)
class Frame:
    """What a window manager draws around the window: the title bar above, the borders."""

    left: int = 0
    top: int = 0
    right: int = 0
    bottom: int = 0


def screen_for(screens: Sequence[Rect], saved: Rect | None) -> Rect:
    """The available area of the screen a window saved at `saved` opens on: the one holding most
    of it, else the first (the primary screen) when it is on none of them or there is none."""
    if not screens:
        raise ValueError("no screen to open the window on")
    if saved is not None:
        best = max(screens, key=saved.overlap)
        if saved.overlap(best) > 0:
            return best
    return screens[0]


def window_rect(
    screens: Sequence[Rect],
    saved: Rect | None,
    *,
    minimum: tuple[int, int] = (0, 0),
    frame: Frame = Frame(),
) -> Rect:
    """The window's rectangle (inside its frame) for opening on `screens` (each one's available
    area, the primary screen first), given where it was last (`saved`, inside its frame; None
    for fresh settings).

    The whole window, frame included, lies inside one screen's available area. A saved size is
    kept where it fits, else cut to the room there is; a saved place is kept where the window
    fits there, else moved the least distance that brings it inside. A fresh window takes
    PREFERRED_SIZE, more on a large screen (FRESH_SHARE of it), all the room on a small one,
    centred. `minimum` is the window's own least size: kept while the screen has the room.
    """
    available = screen_for(screens, saved)
    room_width = max(available.width - frame.left - frame.right, 1)
    room_height = max(available.height - frame.top - frame.bottom, 1)
    if saved is None or saved.width <= 0 or saved.height <= 0:
        width = max(PREFERRED_SIZE[0], round(FRESH_SHARE * available.width))
        height = max(PREFERRED_SIZE[1], round(FRESH_SHARE * available.height))
    else:
        width, height = saved.width, saved.height
    width = min(max(width, minimum[0]), room_width)
    height = min(max(height, minimum[1]), room_height)
    # The frame's outer corner, within the available area.
    if saved is None or saved.width <= 0 or saved.height <= 0:
        left = available.x + (available.width - width - frame.left - frame.right) // 2
        top = available.y + (available.height - height - frame.top - frame.bottom) // 2
    else:
        left = saved.x - frame.left
        top = saved.y - frame.top
    outer_width = width + frame.left + frame.right
    outer_height = height + frame.top + frame.bottom
    left = min(max(left, available.x), available.right - outer_width)
    top = min(max(top, available.y), available.bottom - outer_height)
    return Rect(left + frame.left, top + frame.top, width, height)
