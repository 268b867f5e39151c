"""What a compressed tile, strip or chunk says it will decode to, read before it is decoded.

A few hundred bytes can declare gigabytes: a JPEG tile whose header claims 30,000 × 30,000 pixels
in a 16 × 16 image, a zlib chunk that inflates a thousandfold. Image codecs allocate what their
header declares, and general-purpose ones inflate until the data ends; so before a segment is
decoded its declared size is checked against what its place in the image holds, and the file
refused, naming the segment, when it declares more.
"""

from __future__ import annotations

import bz2
import lzma
import os
import zlib
from collections.abc import Callable
from pathlib import Path

from blurapp.core.media.photo_checks import PhotoError, available_memory
from blurapp.core.wording import QT_TRANSLATE_NOOP

# TIFF compressions decoded by an image codec that sizes its output from its own header
# (tifffile's TIFF.IMAGE_COMPRESSIONS). The others are decoded into a buffer of the segment's
# size, or need the segment's size to decode at all (CCITT).
JPEG_COMPRESSIONS = {6, 7, 33007, 34892}
PNG_COMPRESSIONS = {34933}
WEBP_COMPRESSIONS = {50001}
JPEG2000_COMPRESSIONS = {33003, 33004, 33005, 34712}
# Codecs whose header BlurApp does not read, which size their output from it: JPEG XR, JPEG XL,
# Jetraw, EER, and LERC (decoded to the size its blob declares, whatever buffer it is given).
UNCHECKED_IMAGE_COMPRESSIONS = {22610, 34934, 48124, 50002, 52546, 65000, 65001, 65002, 34887}

_JPEG_FRAME_MARKERS = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


class SegmentTooLarge(ValueError):
    """A segment declares more than its place in the image can hold."""


def segment_too_large(path: Path, error: SegmentTooLarge) -> PhotoError:
    """The error a person reads for a file with such a segment."""
    return PhotoError(
        path,
        QT_TRANSLATE_NOOP("FileProblem", "the file is damaged or not a valid image: {reason}"),
        reason=error,
    )


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(rows, columns) of a JPEG stream's frame header, None when it has none."""
    at = 0
    while at + 1 < len(data):
        if data[at] != 0xFF:
            at += 1
            continue
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0x00, 0x01, 0xD8) or 0xD0 <= marker <= 0xD7:  # no length follows
            at += 2
            continue
        if marker in (0xD9, 0xDA):  # end of image, start of scan: no frame header before
            return None
        if at + 4 > len(data):
            return None
        length = int.from_bytes(data[at + 2 : at + 4], "big")
        if marker in _JPEG_FRAME_MARKERS and at + 9 <= len(data):
            rows = int.from_bytes(data[at + 5 : at + 7], "big")
            columns = int.from_bytes(data[at + 7 : at + 9], "big")
            return rows, columns
        at += 2 + length
    return None


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR" or len(data) < 24:
        return None
    return int.from_bytes(data[20:24], "big"), int.from_bytes(data[16:20], "big")


def _webp_size(data: bytes) -> tuple[int, int] | None:
    if data[:4] != b"RIFF" or data[8:12] != b"WEBP" or len(data) < 30:
        return None
    kind, body = data[12:16], data[20:]
    if kind == b"VP8X":
        columns = int.from_bytes(body[4:7], "little") + 1
        return int.from_bytes(body[7:10], "little") + 1, columns
    if kind == b"VP8L" and body[:1] == b"\x2f":
        bits = int.from_bytes(body[1:5], "little")
        return ((bits >> 14) & 0x3FFF) + 1, (bits & 0x3FFF) + 1
    if kind == b"VP8 " and body[3:6] == b"\x9d\x01\x2a":
        columns = int.from_bytes(body[6:8], "little") & 0x3FFF
        return int.from_bytes(body[8:10], "little") & 0x3FFF, columns
    return None


def _jpeg2000_size(data: bytes) -> tuple[int, int] | None:
    """From the SIZ segment at the start of the codestream: a bare one, or the one in a JP2
    file's contiguous-codestream box (another box may hold any bytes, a decoy SIZ among them)."""
    if data[:4] != b"\xff\x4f\xff\x51":
        at = 0
        while True:  # the JP2 boxes: length (1: a 64-bit one follows; 0: to the end), type
            if at + 8 > len(data):
                return None
            length, kind = int.from_bytes(data[at : at + 4], "big"), data[at + 4 : at + 8]
            header = 8
            if length == 1:
                length, header = int.from_bytes(data[at + 8 : at + 16], "big"), 16
            if kind == b"jp2c":
                data = data[at + header :]
                break
            if length < header:
                return None
            at += length
        if data[:4] != b"\xff\x4f\xff\x51":
            return None
    if len(data) < 24:
        return None
    siz = data[6:]
    width, height = int.from_bytes(siz[2:6], "big"), int.from_bytes(siz[6:10], "big")
    left, top = int.from_bytes(siz[10:14], "big"), int.from_bytes(siz[14:18], "big")
    return max(height - top, 0), max(width - left, 0)


_READERS: dict[int, Callable[[bytes], tuple[int, int] | None]] = {
    **dict.fromkeys(JPEG_COMPRESSIONS, _jpeg_size),
    **dict.fromkeys(PNG_COMPRESSIONS, _png_size),
    **dict.fromkeys(WEBP_COMPRESSIONS, _webp_size),
    **dict.fromkeys(JPEG2000_COMPRESSIONS, _jpeg2000_size),
}


def check_tiff_segment(
    compression: int, data: bytes, header: bytes | None, rows: int, columns: int
) -> None:
    """Raise SegmentTooLarge when a TIFF segment compressed with `compression` declares more
    than `rows` × `columns` pixels (its place in the image). `header` is an old-style JPEG's
    frame header, kept apart from its segments."""
    read = _READERS.get(compression)
    if read is None:
        return
    declared = read(data)
    if declared is None and header:
        declared = read(header)
    if declared is None:
        raise SegmentTooLarge("does not say its size where it must, before its pixels")
    if declared[0] > rows or declared[1] > columns:
        raise SegmentTooLarge(
            f"declares {declared[1]:,} × {declared[0]:,} pixels, where it holds "
            f"{columns:,} × {rows:,}"
        )


def check_segment_fits(
    path: Path, what: str, segment: tuple[int, int], bytes_per_pixel: int
) -> None:
    """Refuse, before any is read, segments (tiles, strips, chunks) so large that those the
    blur's threads decode at once would not fit in memory: each is decoded whole."""
    rows, columns = segment
    needed = rows * columns * bytes_per_pixel * (os.cpu_count() or 1)
    available = available_memory()
    if available is not None and needed > available:
        raise PhotoError(
            path,
            QT_TRANSLATE_NOOP(
                "FileProblem",
                "its {segment}s are {width} × {height} pixels, each decoded whole: one for "
                "each of this machine's {threads} threads needs about {needed} GB, and only "
                "{available} GB of memory is available",
            ),
            segment=what,
            width=f"{columns:,}",
            height=f"{rows:,}",
            threads=os.cpu_count() or 1,
            needed=f"{needed / 1e9:,.1f}",
            available=f"{available / 1e9:,.1f}",
        )


# --- zarr chunks -----------------------------------------------------------------------------


def _inflated_size(make: Callable[[], object], data: bytes, limit: int) -> int:
    """How many bytes the decompressors `make()` makes make of `data`, every stream of it in
    turn (numcodecs' gzip, bz2 and lzma read them all), counting no further than `limit` + 1:
    never more than that in memory."""
    size = 0
    while data and size <= limit:
        decompressor = make()
        size += len(decompressor.decompress(data, limit + 1 - size))  # type: ignore[attr-defined]
        if not decompressor.eof:  # type: ignore[attr-defined]
            break  # cut short, or the limit reached: either way no further
        data = decompressor.unused_data  # type: ignore[attr-defined]
    return size


_ZSTD_MAGIC = 0xFD2FB528


def _zstd_size(data: bytes) -> int | None:
    """The content size the Zstandard frames of `data` declare, all together (numcodecs
    decodes every frame); None when a frame does not say its size or cannot be walked."""
    at, total = 0, 0
    while at < len(data):
        if at + 4 > len(data):
            return None
        magic = int.from_bytes(data[at : at + 4], "little")
        if magic & 0xFFFFFFF0 == 0x184D2A50:  # a skippable frame: its length follows
            at += 8 + int.from_bytes(data[at + 4 : at + 8], "little")
            continue
        if magic != _ZSTD_MAGIC or at + 5 > len(data):
            return None
        descriptor = data[at + 4]
        single_segment = descriptor >> 5 & 1
        size_bytes = (1 if single_segment else 0, 2, 4, 8)[descriptor >> 6]
        dictionary_bytes = (0, 1, 2, 4)[descriptor & 3]
        field = at + 5 + (0 if single_segment else 1) + dictionary_bytes
        if size_bytes == 0 or field + size_bytes > len(data):
            return None
        size = int.from_bytes(data[field : field + size_bytes], "little")
        total += size + 256 if size_bytes == 2 else size
        at = field + size_bytes
        while True:  # the frame's blocks, to find where the next frame starts
            if at + 3 > len(data):
                return None
            header = int.from_bytes(data[at : at + 3], "little")
            last, kind, block_size = header & 1, header >> 1 & 3, header >> 3
            at += 3 + (1 if kind == 1 else block_size)  # an RLE block stores one byte
            if kind == 3:
                return None  # reserved: not a valid frame
            if last:
                break
        at += 4 if descriptor >> 2 & 1 else 0  # the content checksum
    return total if at == len(data) else None


def _zstd_checked(data: bytes, limit: int) -> int:
    size = _zstd_size(data)
    if size is None:
        raise SegmentTooLarge("is compressed with Zstandard without saying its size")
    return size


# Compressors of zarr chunks, by name: the decoded size, found without holding more than the
# chunk's expected size.
CHUNK_SIZES: dict[str, Callable[[bytes, int], int]] = {
    "zlib": lambda data, limit: _inflated_size(zlib.decompressobj, data, limit),
    "gzip": lambda data, limit: _inflated_size(lambda: zlib.decompressobj(wbits=47), data, limit),
    "bz2": lambda data, limit: _inflated_size(bz2.BZ2Decompressor, data, limit),
    "lzma": lambda data, limit: _inflated_size(lzma.LZMADecompressor, data, limit),
    "zstd": _zstd_checked,
    # c-blosc's header: the decoded size at bytes 4–8; numcodecs' LZ4: at bytes 0–4.
    "blosc": lambda data, limit: int.from_bytes(data[4:8], "little"),
    "lz4": lambda data, limit: int.from_bytes(data[0:4], "little"),
}


def check_chunk(compressor: str | None, data: bytes, expected: int) -> None:
    """Raise SegmentTooLarge when a zarr chunk compressed with `compressor` (None: stored as
    it is) would decode to more than `expected` bytes."""
    size = len(data) if compressor is None else CHUNK_SIZES[compressor](data, expected)
    if size > expected:
        # A stream inflated only up to the limit says "more than", not how much more.
        streamed = compressor in ("zlib", "gzip", "bz2", "lzma")
        words = f"more than {expected:,}" if streamed else f"{size:,}"
        raise SegmentTooLarge(f"decodes to {words} bytes, where it holds {expected:,}")
