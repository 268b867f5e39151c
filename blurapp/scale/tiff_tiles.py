"""A region of a TIFF's first image, read straight from its tiles or strips.

tifffile decodes each segment (a tile or a strip: its compression, predictor and byte order);
this module finds the segments a region of rows and columns needs, reads them with `os.pread`
(safe from many threads at once) and puts their parts in place. Read through zarr instead (a
zarr store of tifffile's), every region made a round trip through zarr's event loop, several
times slower than these reads on one thread.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np

from blurapp.scale.segment_sizes import SegmentTooLarge, check_tiff_segment


class TiffTiles:
    """The samples of a TIFF's first image, as stored: `region(rows, columns)` is rows ×
    columns × samples, whether the samples are stored per pixel or as separate planes."""

    def __init__(self, path: Path) -> None:
        import tifffile

        self._tiff = tifffile.TiffFile(path)
        try:
            self._read_layout()
            self._file = os.open(path, os.O_RDONLY)
        except BaseException:
            self._tiff.close()
            raise

    def _read_layout(self) -> None:
        page = self._tiff.pages.first
        self._page = page
        self._decode = page.decode
        self._offsets, self._counts = page.dataoffsets, page.databytecounts
        self._planes = page.samplesperpixel if page.planarconfig == 2 else 1
        self._height, self._width = page.imagelength, page.imagewidth
        self._samples = page.samplesperpixel
        if page.is_tiled:
            self._segment_rows, self._segment_columns = page.tilelength, page.tilewidth
        else:
            self._segment_rows, self._segment_columns = page.rowsperstrip, self._width
        self._segment_rows = min(self._segment_rows, self._height)
        self._across = math.ceil(self._width / self._segment_columns)
        self._down = math.ceil(self._height / self._segment_rows)
        if len(self._offsets) < self._planes * self._down * self._across:
            raise ValueError(f"{len(self._offsets)} strips or tiles listed, fewer than the image's")
        self._dtype = np.dtype(page.dtype)
        self._fill = page.nodata or 0
        self._compression = int(page.compression)

    def close(self) -> None:
        os.close(self._file)
        self._tiff.close()

    def region(self, rows: slice, columns: slice) -> np.ndarray:
        """The samples at `rows` × `columns` (slices, any step), rows × columns × samples."""
        wanted_rows = range(*rows.indices(self._height))
        wanted_columns = range(*columns.indices(self._width))
        if wanted_rows.step == wanted_columns.step == 1:
            return self._box(
                wanted_rows.start, wanted_rows.stop, wanted_columns.start, wanted_columns.stop
            )
        if not wanted_rows or not wanted_columns:
            return np.full(
                (len(wanted_rows), len(wanted_columns), self._samples), self._fill, self._dtype
            )
        # Every step-th pixel: the box around them read, then picked from.
        top, left = min(wanted_rows), min(wanted_columns)
        box = self._box(top, max(wanted_rows) + 1, left, max(wanted_columns) + 1)
        return box[np.subtract(wanted_rows, top)][:, np.subtract(wanted_columns, left)]

    def _box(self, top: int, bottom: int, left: int, right: int) -> np.ndarray:
        out = np.full(
            (max(bottom - top, 0), max(right - left, 0), self._samples), self._fill, self._dtype
        )
        if out.size == 0:
            return out
        high, wide = self._segment_rows, self._segment_columns
        for plane in range(self._planes):
            for down in range(top // high, math.ceil(bottom / high)):
                for across in range(left // wide, math.ceil(right / wide)):
                    index = (plane * self._down + down) * self._across + across
                    segment = self._segment(index)
                    if segment is None:
                        continue
                    y, x = down * high, across * wide
                    y0, y1 = max(top, y), min(bottom, y + segment.shape[0])
                    x0, x1 = max(left, x), min(right, x + segment.shape[1])
                    if y1 <= y0 or x1 <= x0:
                        continue
                    part = segment[y0 - y : y1 - y, x0 - x : x1 - x]
                    target = slice(plane, plane + 1) if self._planes > 1 else slice(None)
                    out[y0 - top : y1 - top, x0 - left : x1 - left, target] = part
        return out

    def _segment(self, index: int) -> Any:
        """Segment `index` decoded, rows × columns × samples (None: not stored, left filled).
        Raises SegmentTooLarge, before decoding, for one that declares more pixels than its
        place in the image holds."""
        count, offset = int(self._counts[index]), int(self._offsets[index])
        # As tifffile: a segment at offset 0 (inside the file's header) or of no bytes is not
        # stored.
        data = self._read_bytes(offset, count) if count and offset else None
        page = self._page
        if data is not None:
            try:
                check_tiff_segment(
                    self._compression,
                    data,
                    page.jpegheader,
                    self._segment_rows,
                    self._segment_columns,
                )
            except SegmentTooLarge as error:
                raise SegmentTooLarge(f"{self._segment_name(index)} {error}") from None
        segment, _, _ = self._decode(
            data, index, jpegtables=page.jpegtables, jpegheader=page.jpegheader
        )
        if segment is None:
            return None
        return segment.reshape(segment.shape[-3:])

    def _segment_name(self, index: int) -> str:
        """How a person finds segment `index`: 'tile 5 (row 1, column 2)', 'strip 3'."""
        if not self._page.is_tiled:
            return f"its strip {index}"
        within = index % (self._down * self._across)
        down, across = divmod(within, self._across)
        return f"its tile {index} (row {down}, column {across})"

    def _read_bytes(self, offset: int, count: int) -> bytes:
        """`count` bytes at `offset`, or fewer where the file ends: one pread returns at most
        2 GiB on Linux, and an uncompressed image tifffile writes is one strip, however large."""
        parts = []
        while count > 0:
            part = os.pread(self._file, count, offset)
            if not part:
                break
            parts.append(part)
            offset, count = offset + len(part), count - len(part)
        return parts[0] if len(parts) == 1 else b"".join(parts)
