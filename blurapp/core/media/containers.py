"""What a file's container says it holds, read from its boxes without decoding anything: a
HEIF or AVIF still photo, or a video (an ISO-BMFF file with a movie, `moov`, whose tracks have
timing); and the readers a photo needs that Pillow does not bring itself (pillow-heif for
HEIC), registered the first time a file needs them, so that starting BlurApp imports none.
"""

from __future__ import annotations

import os
import struct
import threading
from pathlib import Path
from typing import IO, Literal

from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.wording import QT_TRANSLATE_NOOP

# The `ftyp` brands of a HEIF or AVIF still image (ISO/IEC 23008-12, 23000-22; AV1 Image File
# Format): the image items are in a `meta` box. A sequence (`msf1`, `hevc`, `avis`) has a
# movie (`moov`) besides, which is what makes it a clip.
_STILL_BRANDS = frozenset({b"mif1", b"mif2", b"heic", b"heix", b"heim", b"heis", b"avif"})
_AVIF_BRANDS = frozenset({b"avif", b"avis"})
# The top-level boxes looked at before giving up: a photo or video has a handful.
_BOXES_READ = 64
# The part of an `ftyp` box read for its brands (a real one lists a few).
_FTYP_READ = 256
HEIF_SUFFIXES = frozenset({".heic", ".heif", ".hif", ".avif", ".avifs"})
# Camera RAW files, developed through rawpy (blurapp.core.media.camera_raw). Told by their
# name, as photo editors tell them: most are TIFFs inside, whose first page Pillow would show
# (a thumbnail, or the undeveloped mosaic).
RAW_SUFFIXES = frozenset(
    {
        *(".dng", ".cr2", ".cr3", ".crw", ".nef", ".nrw", ".arw", ".srf", ".sr2", ".raf"),
        *(".orf", ".rw2", ".rwl", ".pef", ".srw", ".3fr", ".fff", ".iiq", ".erf", ".kdc"),
        *(".dcr", ".mrw", ".mos", ".x3f"),
    }
)
# The photos' extensions Pillow does not list until a reader is registered with it (HEIC's)
# or never (camera RAW's): for the file dialog's filter and a folder's walk.
PHOTO_SUFFIXES_BEYOND_PILLOW = HEIF_SUFFIXES | RAW_SUFFIXES


def is_camera_raw(path: str | os.PathLike[str]) -> bool:
    """Whether the file at `path` is a camera RAW file, told from its name."""
    return Path(path).suffix.lower() in RAW_SUFFIXES


# What to install for a HEIC or HEIF photo, said where pillow-heif is missing.
HEIF_INSTALL = "pip install pillow-heif"

IsoKind = Literal["heif", "avif", "video"]


def iso_bmff_kind(file: IO[bytes]) -> IsoKind | None:
    """What the ISO-BMFF file open in `file` holds (its top-level boxes read, from the start):
    "video" for a movie (a `moov` box: MP4, MOV, a HEIF or AVIF sequence), "heif" or "avif"
    for a still image (an image brand and no movie), None for a file that is not ISO-BMFF.
    The file's position is left where the reading stopped."""
    file.seek(0, os.SEEK_END)
    size = file.tell()
    position = 0
    brands: set[bytes] = set()
    first = True
    for _ in range(_BOXES_READ):
        file.seek(position)
        header = file.read(8)
        if len(header) < 8:
            break
        box_size, kind = struct.unpack(">I4s", header)
        header_size = 8
        if box_size == 1:  # a 64-bit size follows the type
            large = file.read(8)
            if len(large) < 8:
                break
            (box_size,) = struct.unpack(">Q", large)
            header_size = 16
        elif box_size == 0:  # the box runs to the end of the file
            box_size = size - position
        if first:
            if kind != b"ftyp" or box_size < 16:
                return None
            data = file.read(min(box_size - header_size, _FTYP_READ))
            # The major brand, a minor version, then the compatible brands.
            brands.add(data[:4])
            brands.update(data[at : at + 4] for at in range(8, len(data) - 3, 4))
            first = False
        elif kind == b"moov":
            return "video"
        if box_size < header_size:
            break  # a damaged box: what is known so far decides
        position += box_size
        if position >= size:
            break
    if first:
        return None
    if brands & _STILL_BRANDS:
        return "avif" if brands & _AVIF_BRANDS else "heif"
    return "video"


def iso_bmff_kind_of(path: str | os.PathLike[str]) -> IsoKind | None:
    """iso_bmff_kind of the file at `path`; None for one that cannot be read."""
    try:
        with open(path, "rb") as file:
            return iso_bmff_kind(file)
    except OSError:
        return None


_registered: set[str] = set()
_registering = threading.Lock()


def prepare_readers(path: Path, file: IO[bytes]) -> None:
    """Make Pillow able to open the photo open in `file` (at `path`) when it needs a reader
    Pillow does not bring: pillow-heif for a HEIC or HEIF, registered once, on the first
    such photo. Raises PhotoError naming what to install where the reader is missing. The
    file is left at its start."""
    if "heif" in _registered:
        return
    try:
        head = file.read(12)
        kind = iso_bmff_kind(file) if head[4:8] == b"ftyp" else None
    finally:
        file.seek(0)
    if kind == "heif":
        register_heif(path)


def register_heif(path: Path | None = None) -> None:
    """Register pillow-heif's HEIF reader with Pillow (once). Raises PhotoError for `path`
    when pillow-heif is not installed."""
    with _registering:
        if "heif" in _registered:
            return
        try:
            # pillow-heif (libheif): imported for the first HEIC, never at start-up.
            import pillow_heif
        except ImportError as error:
            if path is None:
                raise
            raise heif_missing(path) from error
        pillow_heif.register_heif_opener()
        _registered.add("heif")


def heif_missing(path: Path) -> PhotoError:
    """The error for a HEIC or HEIF photo at `path` where pillow-heif is not installed."""
    return PhotoError(
        path,
        QT_TRANSLATE_NOOP(
            "FileProblem",
            "reading HEIC and HEIF photos needs pillow-heif, which is not installed: {how}",
        ),
        how=HEIF_INSTALL,
    )
