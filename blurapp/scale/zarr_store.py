"""A zarr array's folder, read safely: every chunk and metadata file a regular file, and every
chunk checked against what its place in the array holds before zarr decodes it."""

from __future__ import annotations

import math
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from blurapp.core.media.photo_checks import PhotoError, os_problem
from blurapp.core.wording import QT_TRANSLATE_NOOP
from blurapp.scale.scheduler import missing_extra
from blurapp.scale.segment_sizes import (
    CHUNK_SIZES,
    SegmentTooLarge,
    check_chunk,
    segment_too_large,
)

# numcodecs filters that give back as many bytes as they are given (Delta: without `astype`).
_SIZE_KEEPING_FILTERS = ("delta", "shuffle", "bitround")


class UnsupportedChunks(ValueError):
    """A zarr array whose chunks are encoded in a way BlurApp does not check."""


def zarr_module() -> Any:
    """zarr, or MissingExtraError saying it is needed for reading an image in tiles."""
    try:
        import zarr
    except ImportError as error:
        raise missing_extra("reading an image in tiles", ["zarr"]) from error
    return zarr


def open_zarr(path: Path) -> Any:
    """The zarr array in the folder `path`, read only from regular files."""
    zarr = zarr_module()
    from zarr.storage import LocalStore

    class RegularFilesStore(LocalStore):
        # zarr's own store opens each chunk by name: a FIFO put in a chunk's place would
        # block that read (and the program) until something writes to it. Each chunk's
        # bytes are checked against what its place holds before zarr decodes them.
        chunks: _ChunkCheck | None = None

        def get_sync(self, key: str, *, prototype: Any = None, byte_range: Any = None) -> Any:
            check_regular(self.root / key, self.chunks, key)
            stored = super().get_sync(key, prototype=prototype, byte_range=byte_range)
            return self._checked(key, stored)

        async def get(self, key: str, prototype: Any = None, byte_range: Any = None) -> Any:
            check_regular(self.root / key, self.chunks, key)
            stored = await super().get(key, prototype=prototype, byte_range=byte_range)
            return self._checked(key, stored)

        def _checked(self, key: str, stored: Any) -> Any:
            if stored is not None and self.chunks is not None and self.chunks.is_chunk(key):
                self.chunks.check(self.root / key, stored.to_bytes())
            return stored

    store = RegularFilesStore(path, read_only=True)
    array = zarr.open_array(store, mode="r")
    store.chunks = _ChunkCheck.of(path, array)
    return array


@dataclass(frozen=True)
class _ChunkCheck:
    """How to tell a zarr array's chunk that decodes to more than its place holds."""

    compressor: str | None  # a name in CHUNK_SIZES; None: stored as it is
    checksum_bytes: int  # a crc32c codec's trailer, after the compressed bytes
    expected: int  # bytes a chunk decodes to

    @staticmethod
    def of(path: Path, array: Any) -> _ChunkCheck:
        metadata = array.metadata
        expected = math.prod(array.chunks) * np.dtype(array.dtype).itemsize
        if metadata.zarr_format == 2:
            compressor = metadata.compressor
            names = [compressor.codec_id] if compressor is not None else []
            # Filters run on the decompressed bytes: only those that keep their size are
            # read, so what the compressor makes is still the chunk's size (a compressor
            # used as a filter would decode unchecked).
            for codec in metadata.filters or ():
                config = codec.get_config()
                same_size = config.get("astype") in (None, config.get("dtype"))
                if config.get("id") not in _SIZE_KEEPING_FILTERS or not same_size:
                    raise UnsupportedChunks(
                        f"its chunks are filtered with {config.get('id')}; BlurApp reads zarr "
                        f"chunks filtered only with {', '.join(_SIZE_KEEPING_FILTERS)}, which "
                        "keep the size of what they filter"
                    )
        else:
            names = [codec.to_dict()["name"] for codec in metadata.codecs]
            names = [name for name in names if name not in ("bytes", "transpose")]
        checksum = 0
        if names and names[-1] == "crc32c":
            names, checksum = names[:-1], 4
        if len(names) > 1 or (names and names[0] not in CHUNK_SIZES):
            raise UnsupportedChunks(
                f"its chunks are encoded with {' + '.join(names)}; BlurApp reads zarr chunks "
                f"stored as they are or compressed with one of {', '.join(CHUNK_SIZES)}"
            )
        return _ChunkCheck(names[0] if names else None, checksum, expected)

    @staticmethod
    def is_chunk(key: str) -> bool:
        return key.rsplit("/", 1)[-1] not in ("zarr.json", ".zarray", ".zattrs", ".zgroup")

    def largest_file(self) -> int:
        """The most bytes a chunk's file may take: its data stored as it is, or compressed
        data that did not shrink, with a codec's headers."""
        return self.expected + self.expected // 8 + 4096 + self.checksum_bytes

    def check(self, path: Path, data: bytes) -> None:
        if self.checksum_bytes:
            data = data[: -self.checksum_bytes]
        try:
            check_chunk(self.compressor, data, self.expected)
        except SegmentTooLarge as error:
            message = f"its chunk {path.name} {error}"
            raise segment_too_large(path.parent, SegmentTooLarge(message)) from error


def check_regular(path: Path, chunks: _ChunkCheck | None = None, key: str = "") -> None:
    """Refuse a chunk or metadata file of a zarr array that is not a regular file, or a chunk
    file larger than its chunk could take; a missing one is left to zarr (an absent chunk
    holds the fill value)."""
    try:
        details = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return
    except OSError as error:
        raise os_problem(path, error) from error
    if not stat.S_ISREG(details.st_mode) and not stat.S_ISDIR(details.st_mode):
        raise PhotoError(path, QT_TRANSLATE_NOOP("FileProblem", "this is not a regular file"))
    if chunks is not None and chunks.is_chunk(key) and details.st_size > chunks.largest_file():
        message = f"its chunk {key} takes {details.st_size:,} bytes, where it holds "
        raise segment_too_large(
            path.parent, SegmentTooLarge(message + f"{chunks.expected:,} bytes decoded")
        )
