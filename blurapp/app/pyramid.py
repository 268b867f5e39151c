"""Pictures at several resolutions, so a zoomed-out 24 MP photo is drawn from a small copy.

Made by the jobs (blurapp.app.jobs) off the window's thread, with Pillow (NumPy for other than 1
or 3 channels); the panes only pick a level and draw part of it. Asked for the size of the pane
that shows it, a pyramid also holds the picture reduced to fit that pane (`fitted`): a pane at
its fitted zoom draws it as it is, pixel for pixel, where it would scale a level at each paint.
An output left on its device (a live preview's: blurapp.core.engines.on_device) is halved there
instead: only the levels a pane draws at its usual zoom cross at once (`PictureOnDevice`), a
more detailed level or a part of the picture at full size when a pane asks for it.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, overload

import numpy as np
from PIL import Image

from blurapp.core.engines.on_device import OutputOnDevice
from blurapp.core.media.saving import to_8bit

# Levels stop once the picture fits in this many pixels on its longer side.
SMALLEST_LEVEL = 512
# A picture left on its device crosses at once from its first level this long or shorter on
# its longer side: what a pane on a large screen draws of it at its fitted zoom.
SHOWN_SIDE = 2048

# A picture as the panes take it: its levels, the full size first (a tuple, a Levels, or a
# PictureOnDevice, whose levels cross when first read).
Pyramid = Sequence[np.ndarray]


class Levels(tuple[np.ndarray, ...]):
    """A pyramid made here, with the picture reduced to fit the pane it is for (`fitted`), or
    None where no pane's size was given."""

    fitted: np.ndarray | None = None


def build_pyramid(picture: np.ndarray) -> tuple[np.ndarray, ...]:
    """`picture` (uint8, height × width, or height × width × channels) and successive halvings,
    each pixel the mean of 2×2."""
    picture = np.ascontiguousarray(picture, dtype=np.uint8)
    levels = [picture]
    for _ in level_sizes(*picture.shape[:2])[1:]:
        levels.append(_halve(levels[-1]))
    return tuple(levels)


def level_sizes(height: int, width: int) -> list[tuple[int, int]]:
    """The (height, width) of each level of a picture of this size: halvings until it fits in
    SMALLEST_LEVEL on its longer side (or is a pixel high or wide)."""
    sizes = [(height, width)]
    while max(sizes[-1]) > SMALLEST_LEVEL and min(sizes[-1]) >= 2:
        sizes.append((sizes[-1][0] // 2, sizes[-1][1] // 2))
    return sizes


def output_pyramid(output: np.ndarray, view_size: tuple[int, int] | None = None) -> Pyramid:
    """An engine's float output ([0, 1]) as the 8-bit pyramid a pane draws: made on its device
    when it was left there (a PictureOnDevice), else here; with `view_size`, the (height, width)
    in screen pixels of the pane that shows it, holding the picture fitted to it too."""
    picture: Levels | PictureOnDevice
    if isinstance(output, OutputOnDevice):
        picture = PictureOnDevice(output)
    else:
        picture = Levels(build_pyramid(to_8bit(output)))
    if view_size is not None:
        picture.fitted = fit_picture(picture, view_size)
    return picture


def fitted_size(size: tuple[int, int], view_size: tuple[int, int]) -> tuple[int, int]:
    """The (height, width) a picture of `size` takes in a view of `view_size` (both height,
    width) at the zoom that fits it whole: the view's zoom to fit (blurapp.ui.image_view)."""
    (height, width), (view_height, view_width) = size, view_size
    zoom = min(view_width / width, view_height / height)
    return max(1, round(height * zoom)), max(1, round(width * zoom))


def fit_picture(picture: Pyramid, view_size: tuple[int, int]) -> np.ndarray | None:
    """`picture` reduced to fit a view of `view_size` (height, width) from the smallest level
    at least that detailed (the level a pane would draw at that zoom), each pixel the mean of
    the level's pixels whose centres fall within it (Pillow's box filter). None for a picture
    that fits unreduced (the view magnifies it), and for one left on its device whose level
    has not crossed."""
    size = full_size(picture)
    height, width = fitted_size(size, view_size)
    if height >= size[0] or width >= size[1]:
        return None
    sizes = level_sizes(*size)
    level = 0
    while (
        level + 1 < len(sizes)
        and min(sizes[level + 1][0] - height, sizes[level + 1][1] - width) >= 0
    ):
        level += 1
    if isinstance(picture, PictureOnDevice) and not picture.fetched(level):
        return None  # only the levels a pane draws at its usual zoom have crossed
    source = np.ascontiguousarray(picture[level])
    if source.ndim == 2 or source.shape[2] == 3:
        reduced = Image.fromarray(source).resize((width, height), Image.Resampling.BOX)
        return np.asarray(reduced)
    return _box_reduce(source, height, width)


def full_size(picture: Pyramid) -> tuple[int, int]:
    """A pyramid's (height, width) at full size, without reading its full-size level."""
    if isinstance(picture, PictureOnDevice):
        return picture.size
    height, width = picture[0].shape[:2]
    return height, width


def picture_region(picture: Pyramid, top: int, left: int, height: int, width: int) -> np.ndarray:
    """Part of a pyramid's full-size level (clipped to it); only that part crosses from a
    device."""
    full_height, full_width = full_size(picture)
    top, left = max(0, min(top, full_height)), max(0, min(left, full_width))
    height, width = min(height, full_height - top), min(width, full_width - left)
    if isinstance(picture, PictureOnDevice):
        return picture.region(top, left, height, width)
    return picture[0][top : top + height, left : left + width]


class PictureOnDevice(Sequence[np.ndarray]):
    """The 8-bit pyramid of an output left on its device: the levels of SHOWN_SIDE or less
    fetched at once (halved there), with the parts of the full-size picture last asked of a
    picture this size (the 100% inset's); each more detailed level fetched when first read, and
    any other part of the full-size picture fetched alone (`region`)."""

    def __init__(self, output: OutputOnDevice) -> None:
        self.output = output
        height, width = output.shape[:2]
        self.size = (height, width)
        sizes = level_sizes(height, width)
        shown = next(
            (level for level, size in enumerate(sizes) if max(size) <= SHOWN_SIDE),
            len(sizes) - 1,
        )
        self._levels: list[np.ndarray | None] = [None] * len(sizes)
        self._levels[shown:] = output.picture_levels(shown, len(sizes) - shown)
        if shown > 0:
            # The 100% inset's part too, on this thread (the window's paint would wait for it).
            output.fetch_wanted_parts()
        self._lock = threading.Lock()
        self.fitted: np.ndarray | None = None  # as in Levels

    def __len__(self) -> int:
        return len(self._levels)

    @overload
    def __getitem__(self, index: int) -> np.ndarray: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[np.ndarray]: ...

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[level] for level in range(len(self))[index]]
        level = range(len(self))[index]
        with self._lock:
            picture = self._levels[level]
            if picture is None:
                picture = self._levels[level] = self.output.picture_levels(level, 1)[0]
            return picture

    def fetched(self, level: int) -> bool:
        """Whether `level` has crossed from the device."""
        return self._levels[level] is not None

    def region(self, top: int, left: int, height: int, width: int) -> np.ndarray:
        """Part of the full-size level: read from it when it has crossed, else that part alone."""
        full = self._levels[0]
        if full is not None:
            return full[top : top + height, left : left + width]
        return self.output.picture_region(top, left, height, width)


def fitted(picture: Pyramid) -> np.ndarray | None:
    """The picture fitted to its pane (see output_pyramid), where it holds one."""
    return picture.fitted if isinstance(picture, (Levels, PictureOnDevice)) else None


def _box_reduce(picture: np.ndarray, height: int, width: int) -> np.ndarray:
    """Each channel as Pillow's BOX resize gives it, for the channel counts Pillow does not
    take as colour."""
    channels = [
        np.asarray(Image.fromarray(picture[..., c]).resize((width, height), Image.Resampling.BOX))
        for c in range(picture.shape[2])
    ]
    return np.stack(channels, axis=-1)


def _halve(picture: np.ndarray) -> np.ndarray:
    """Each 2×2 block's mean, rounded half up; an odd last row or column is left out."""
    height, width = picture.shape[0] // 2 * 2, picture.shape[1] // 2 * 2
    if picture.ndim == 2 or picture.shape[2] == 3:
        # Pillow's reduce: one pass in C, the same levels, quicker than the slices below, which
        # walk an RGB picture's channels one value at a time. (Pillow averages 2 or 4 channels
        # as grey and alpha, so those take the slices.)
        return np.array(Image.fromarray(picture).reduce(2, box=(0, 0, width, height)))
    # The four pixels of each 2×2 added as four strided slices, in place: several times
    # quicker than a sum over a 4-D reshape. uint16 cannot overflow (4 × 255).
    total = picture[0:height:2, 0:width:2].astype(np.uint16)
    total += picture[1:height:2, 0:width:2]
    total += picture[0:height:2, 1:width:2]
    total += picture[1:height:2, 1:width:2]
    total += 2  # rounds to nearest
    total >>= 2
    return total.astype(np.uint8)
