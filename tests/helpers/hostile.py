"""Damaged and hostile image files, made in memory from real files of each format."""

import io
import struct

import numpy as np
from PIL import Image

FORMATS = ["PNG", "JPEG", "TIFF", "GIF", "WEBP", "BMP"]


def real_file(fmt):
    rng = np.random.default_rng(len(fmt))
    pixels = rng.integers(0, 256, (48, 64, 3), dtype=np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format=fmt)
    return buffer.getvalue()


def flipped(data, count, seed):
    rng = np.random.default_rng(seed)
    damaged = bytearray(data)
    for position in rng.integers(0, len(damaged), count):
        damaged[position] ^= 0xFF
    return bytes(damaged)


def with_absurd_size(fmt, data):
    """The same file declaring an enormous width and height in its header."""
    damaged = bytearray(data)
    if fmt == "PNG":  # IHDR: width and height right after the chunk type
        damaged[16:24] = struct.pack(">II", 2_000_000_000, 2_000_000_000)
    elif fmt == "BMP":  # BITMAPINFOHEADER width, height
        damaged[18:26] = struct.pack("<ii", 1_000_000_000, 1_000_000_000)
    elif fmt == "GIF":  # logical screen and first image descriptor
        damaged[6:10] = struct.pack("<HH", 65535, 65535)
        start = damaged.index(b",")
        damaged[start + 5 : start + 9] = struct.pack("<HH", 65535, 65535)
    elif fmt == "JPEG":  # the start-of-frame marker's height and width
        start = damaged.index(b"\xff\xc0")
        damaged[start + 5 : start + 9] = struct.pack(">HH", 65500, 65500)
    elif fmt == "WEBP":  # the canvas size of a lossy VP8 frame
        start = damaged.index(b"\x9d\x01\x2a")
        damaged[start + 3 : start + 7] = struct.pack("<HH", 16383, 16383)
    elif fmt == "TIFF":  # ImageWidth and ImageLength tags, wherever the IFD puts them
        for tag in (256, 257):
            for kind in (3, 4):
                entry = struct.pack("<HH", tag, kind)
                at = damaged.find(entry)
                if at >= 0:
                    damaged[at + 2 : at + 12] = struct.pack("<HII", 4, 1, 3_000_000_000)
    return bytes(damaged)


def hostile_files():
    """(name, bytes) for every kind of damage, from a real file of each format."""
    for fmt in FORMATS:
        data = real_file(fmt)
        suffix = {"JPEG": "jpg", "TIFF": "tif"}.get(fmt, fmt.lower())
        for seed, count in enumerate((1, 3, 10, 40)):
            yield f"{fmt}-flipped-{count}.{suffix}", flipped(data, count, seed)
        for fraction in (0.05, 0.2, 0.5, 0.8, 0.95, 0.99):
            yield f"{fmt}-cut-{fraction}.{suffix}", data[: max(1, int(len(data) * fraction))]
        header = bytearray(data)
        header[4:24] = bytes(range(20))
        yield f"{fmt}-bad-header.{suffix}", bytes(header)
        yield f"{fmt}-absurd-size.{suffix}", with_absurd_size(fmt, data)


HOSTILE = list(hostile_files())


def mappable_tiff():
    """(bytes, pixels) of an uncompressed single-strip TIFF: the kind Pillow memory-maps when it
    is given the file's name, so that a file cut short under it ends the process with SIGBUS."""
    # 50 KB: one strip (Pillow writes strips of up to 64 KB) over a dozen memory pages.
    pixels = np.random.default_rng(7).integers(0, 256, (200, 256), dtype=np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="TIFF")
    return buffer.getvalue(), pixels


def claiming_more_than_it_holds(path, width=8000, height=5000):
    """The TIFF (or DNG) at `path` made to say in its header that it is `width` × `height`, its
    strips left as they were: far fewer strip bytes than such an image needs."""
    import tifffile

    with tifffile.TiffFile(path, mode="r+b") as tiff:
        tags = tiff.pages.first.tags
        tags["ImageWidth"].overwrite(width)
        tags["ImageLength"].overwrite(height)
    return path
