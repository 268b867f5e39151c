"""Where a pane draws its "Detail at 100%" inset: where the picture is not, so that it never
hides the photo it details. In a view's pixels, without Qt; `blurapp/ui/image_view.py` draws
it there.

A picture reduced to fit its pane leaves bands of the pane's background above and below it (or
left and right): the inset goes into the widest band, the largest square that fits there. A
picture wholly in view whose bands have no room for a useful inset gets none: every pixel of it is
what the user opened the photo to see (the inset comes back as they zoom in). Zoomed in past the
pane's edges, the user sees a part of the picture anyway: the inset goes into the corner farthest
from the pixels it shows, so that those at least stay in view; from the bottom corners first, as a
photo's subject is seldom at its foot.
"""

from __future__ import annotations

from dataclasses import dataclass

MARGIN = 8  # between the inset and the pane's edges, and the picture's
# An inset smaller than this in a band shows too little to be worth drawing there.
LEAST_IN_A_BAND = 96
LEAST = 16  # smaller than this, no inset at all


@dataclass(frozen=True)
class Box:
    """A rectangle in a view's pixels: its top-left corner, its width and height."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height

    def contains(self, other: Box, slack: float = 0.0) -> bool:
        """Whether `other` lies inside this box, or past its edges by at most `slack`."""
        return (
            self.x - slack <= other.x
            and self.y - slack <= other.y
            and other.right <= self.right + slack
            and other.bottom <= self.bottom + slack
        )

    def overlaps(self, other: Box) -> bool:
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )


def _in_bands(view: Box, picture: Box, largest: float) -> Box | None:
    """The largest square of at most `largest` in a band of `view` that `picture` leaves."""
    top = max(0.0, picture.y - view.y)
    bottom = max(0.0, view.bottom - picture.bottom)
    left = max(0.0, picture.x - view.x)
    right = max(0.0, view.right - picture.right)
    length_across, length_down = view.width - 2 * MARGIN, view.height - 2 * MARGIN
    # Each band: its thickness, the length it runs, and where a square of side s sits in it
    # (at the band's right or bottom end, its centre across the band).
    bands = [
        (top, length_across, lambda s: (view.right - MARGIN - s, view.y + (top - s) / 2)),
        (
            bottom,
            length_across,
            lambda s: (view.right - MARGIN - s, view.bottom - (bottom + s) / 2),
        ),
        (right, length_down, lambda s: (view.right - (right + s) / 2, view.bottom - MARGIN - s)),
        (left, length_down, lambda s: (view.x + (left - s) / 2, view.bottom - MARGIN - s)),
    ]
    best: Box | None = None
    for thickness, length, place in bands:
        side = min(largest, thickness - 2 * MARGIN, length)
        if side >= LEAST_IN_A_BAND and (best is None or side > best.width):
            x, y = place(side)
            best = Box(x, y, side, side)
    return best


def detail_inset_place(view: Box, picture: Box, shown: Box | None, largest: float) -> Box | None:
    """Where the inset goes in `view` (the pane's picture area) with `picture` drawn at `picture`
    (both in the view's pixels; the picture may reach past the view), its square at most
    `largest` on a side; `shown`: the pixels it shows, where they are drawn in the view. None
    when the view has no room for one, or only over a picture wholly in view."""
    in_band = _in_bands(view, picture, largest)
    # A fitted picture's edges land on the view's within a pixel's rounding.
    if in_band is not None or view.contains(picture, slack=1.0):
        return in_band
    side = min(largest, view.width / 2, view.height / 2)
    if side < LEAST:
        return None
    corners = [
        Box(view.right - MARGIN - side, view.bottom - MARGIN - side, side, side),
        Box(view.x + MARGIN, view.bottom - MARGIN - side, side, side),
        Box(view.right - MARGIN - side, view.y + MARGIN, side, side),
        Box(view.x + MARGIN, view.y + MARGIN, side, side),
    ]
    if shown is None:
        return corners[0]
    clear = [corner for corner in corners if not corner.overlaps(shown)]
    if clear:
        return clear[0]
    centre = (shown.x + shown.width / 2, shown.y + shown.height / 2)

    def distance(corner: Box) -> float:
        x, y = corner.x + side / 2, corner.y + side / 2
        return (x - centre[0]) ** 2 + (y - centre[1]) ** 2

    return max(corners, key=distance)  # the first of the farthest, in the corners' order
