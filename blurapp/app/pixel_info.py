"""The value under the cursor, as image tools show it in their status bar: the pixel's
coordinates and its value in the picture the pane draws there (grey, or R G B), and in the
Difference view the difference itself, from the results' outputs rather than the stretched
picture."""

from __future__ import annotations

import numpy as np

from blurapp.app.captions import RIGHT, SHOW_LABELS, Captions
from blurapp.app.pyramid import full_size, picture_region
from blurapp.core.engines import REFERENCE_ENGINE
from blurapp.core.wording import QT_TRANSLATE_NOOP


def _channels(values: np.ndarray, number: str) -> str:
    """'128' for a grey pixel; 'R 200 G 150 B 100' for a colour one."""
    if values.ndim == 0:
        return format(values.item(), number)
    return " ".join(
        f"{name} {format(value, number)}"
        for name, value in zip("RGB", values.tolist(), strict=True)
    )


def pixel_words(view: Captions, pane: int, x: int, y: int, *, before: bool = False) -> str:
    """What the status bar says of pixel (x, y) of `pane` (`before`: left of the before/after
    divider); '' where the pane draws no picture or (x, y) is outside it."""
    tr = view.tr
    picture = view.picture_before(pane) if before else view.picture(pane)
    if picture is None:
        return ""
    height, width = full_size(picture)
    if not (0 <= x < width and 0 <= y < height):
        return ""
    engine = view.session.pane_engines[pane]
    outcome = view.session.outcome
    if view.session.show == "difference" and pane == RIGHT and outcome is not None:
        runs = outcome.result.runs
        reference, output = runs[REFERENCE_ENGINE].output, runs[engine].output
        values = np.abs(reference[y, x].astype(np.float64) - output[y, x])
        what = f"|{view.title(REFERENCE_ENGINE)} − {view.title(engine)}|"
        value = _channels(values, ".2g")
    else:
        if view.session.show == "original":
            what = tr(SHOW_LABELS["original"])
        elif before:
            what = tr(QT_TRANSLATE_NOOP("Session", "original"))
        else:
            what = view.title(engine)
        # Only this pixel crosses from a device (blurapp.app.pyramid.PictureOnDevice).
        value = _channels(picture_region(picture, y, x, 1, 1)[0, 0], "d")
    return tr(QT_TRANSLATE_NOOP("Session", "{what} at x {x}, y {y}: {value}")).format(
        what=what, x=x, y=y, value=value
    )
