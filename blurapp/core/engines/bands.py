"""A photo blurred on an accelerator in bands of rows, each band's copy to the device, blur and
copy back started without waiting for the band before: the copies of one band overlap the blur
of another, where one copy of the whole photo, its blur and one copy back wait for each other.
What a user waits for end to end (blurapp.core.engines.jax_calls.first_call_on_device times
each steady call both ways).

BANDS is the count that was quickest end to end on a TPU, against 2 and 8 bands and one copy
each way (docs/performance/accelerator_copies.py; the figures on the performance page, "Where a
copy's time goes on that machine"). A photo of less than MIN_BAND_BYTES a band crosses whole:
its time is mostly the calls themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from blurapp.core.engines import host_link

BANDS = 4
MIN_BAND_BYTES = 2_000_000


class Band(NamedTuple):
    """One band: the rows of the photo it takes (`first_row`, and every band takes the same
    number of rows, `Bands.rows`) and the rows of the blurred photo it gives: `height` rows
    from `first_output` on, found `skip` rows into its own blurred rows."""

    first_row: int
    first_output: int
    height: int

    @property
    def skip(self) -> int:
        return self.first_output - self.first_row


class Bands(NamedTuple):
    rows: int  # the rows each band takes, its halo included
    bands: tuple[Band, ...]


def bands_for(height: int, radius: int, row_bytes: int, bands: int = BANDS) -> Bands | None:
    """How a photo of `height` rows of `row_bytes` bytes each is cut into `bands` bands of the
    same number of rows, so that one compiled program blurs each; None where it is not worth
    it (bands of less than MIN_BAND_BYTES, or too few rows for a band to hold its halo).

    A band takes its output rows and `radius` rows either side; the first and last bands take
    their halo on the inside alone, so that every band is as tall as the middle ones. A band's
    program pads its own edges, which is right where the band's edge is the photo's (top of the
    first band, bottom of the last) and, elsewhere, falls on rows that are cut away.
    """
    outputs = -(-height // bands)
    rows = outputs + 2 * radius
    if bands < 2 or rows * row_bytes < MIN_BAND_BYTES or rows > height or outputs <= radius:
        return None
    cut: list[Band] = []
    for index in range(bands):
        first_output = index * outputs
        heights = min(outputs, height - first_output)
        if heights <= 0:
            break
        first_row = min(max(0, first_output - radius), height - rows)
        cut.append(Band(first_row, first_output, heights))
    return Bands(rows, tuple(cut))


def blur_in_bands(
    jax: Any,
    rows: np.ndarray,
    bands: Bands,
    program: Callable[[Any, Any], Any],
    kernel_on_device: Any,
    device: Any,
) -> np.ndarray:
    """`rows` (a photo as it crosses to `device`: rows of values, see
    jax_program.blur_on_accelerator) blurred band by band by `program` (compiled for a band's
    rows), every band's work started before any is waited for, each band's result copied back
    as soon as it is made; the result's rows of values gathered on the host. A program that
    hands back (levels, floats) gives the levels, which alone cross back.

    Each band crosses whole, not in host_link's pieces: the bands already keep the link busy
    while the chip blurs, and pieces would add a program joining them and one cutting them
    to each band's blur, which made the whole end to end slower on a TPU; nor in words (the
    engines' band programs take the band as it is: see jax_calls)."""
    started = []
    for band in bands.bands:
        taken = rows[band.first_row : band.first_row + bands.rows]
        sent = host_link.send(jax, taken, device, pieces=0)
        blurred = program(sent, kernel_on_device)
        blurred = blurred[0] if isinstance(blurred, tuple) else blurred
        started.append(
            (host_link.start_fetch(jax, blurred, pieces=0), blurred.dtype, blurred.shape[-1])
        )
    output: np.ndarray | None = None
    for band, (fetching, dtype, row_values) in zip(bands.bands, started, strict=True):
        if output is None:
            output = np.empty((rows.shape[0], row_values), dtype)
        # The band's output rows alone, gathered straight into the photo's.
        fetching.into(
            output[band.first_output : band.first_output + band.height],
            first=band.skip * row_values,
        )
    assert output is not None
    return output
