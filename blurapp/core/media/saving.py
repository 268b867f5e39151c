"""Writing results without ever leaving a damaged file behind."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import stat
import struct
import tempfile
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import BinaryIO, Literal

import numpy as np
from PIL import Image, PngImagePlugin

from blurapp.core.media.colour_profiles import srgb_profile
from blurapp.core.wording import QT_TRANSLATE_NOOP, FileProblem

_SIXTEEN_BIT_EXTENSIONS = {".png", ".tif", ".tiff"}
# What `blur -o` and Save Results write, by extension: Pillow's format name, None for NumPy's.
OUTPUT_FORMATS: dict[str, str | None] = {
    ".png": "PNG",
    ".tif": "TIFF",
    ".tiff": "TIFF",
    ".jpg": "JPEG",
    ".jpeg": "JPEG",
    ".bmp": "BMP",
    ".webp": "WEBP",
    ".npy": None,
}
# Temporary files are named `.blurapp-XXXXXXXX.part`: short, so a target name near the file
# system's limit still has room beside it, and recognisable, so stale ones can be swept.
TEMPORARY_PREFIX = ".blurapp-"
TEMPORARY_SUFFIX = ".part"
# A temporary file this old was left by a process that was killed outright (SIGKILL, power
# loss); a younger one may belong to a save still running in another BlurApp.
STALE_TEMPORARY_SECONDS = 24 * 3600


class OutputError(FileProblem):
    """A result that could not be written; the message names the file and the problem."""


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# Read once: os.umask can only be read by setting it, which is not safe once threads run.
_NEW_FILE_MODE = 0o666 & ~_current_umask()


def write_atomically(
    path: str | os.PathLike[str],
    write: Callable[[BinaryIO], object] | None,
    *,
    by_name: Callable[[Path], object] | None = None,
) -> None:
    """Write `path` through a temporary file in the same folder, then rename it into place:
    `write` is given the temporary file open, or, with `by_name`, that is given its path
    instead (for a writer such as FFmpeg that opens files itself: no Python code runs in
    its writes, where a Ctrl-C would be swallowed; write is then None).

    If anything fails, an existing file at `path` is left exactly as it was and no
    temporary file remains. Raises OutputError.
    """
    path = Path(path)
    folder = path.parent
    check_writable(path)
    try:
        mode = path.stat().st_mode & 0o7777 if path.exists() else _NEW_FILE_MODE
        handle, temporary = tempfile.mkstemp(
            dir=folder, prefix=TEMPORARY_PREFIX, suffix=TEMPORARY_SUFFIX
        )
    except OSError as error:
        raise OutputError(
            path,
            QT_TRANSLATE_NOOP("FileProblem", "cannot write in {folder}: {reason}"),
            folder=folder,
            reason=error.strerror or error,
        ) from error
    try:
        if by_name is not None:
            os.close(handle)
            by_name(Path(temporary))
            # Opened for writing: on Windows a flush to disk needs write access.
            written = os.open(temporary, os.O_RDWR)
            try:
                os.fsync(written)
            finally:
                os.close(written)
        else:
            assert write is not None, "write_atomically needs write or by_name"
            with os.fdopen(handle, "wb") as file:
                write(file)
                file.flush()
                os.fsync(file.fileno())
        os.chmod(temporary, mode)
        _check_not_special(path)  # again: one may have been made there meanwhile
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise OutputError(
                path,
                QT_TRANSLATE_NOOP("FileProblem", "the file could not be written: {reason}"),
                reason=error.strerror or error,
            ) from error
        raise
    _sweep_stale_temporaries(path)


# For each folder written in by this process: the temporary files of earlier versions found
# there, by the name of their target. Each folder is listed once a run: listing it at every
# write made a batch into a folder of 20,000 files ten times slower.
_earlier_leftovers: dict[str, dict[str, list[str]]] = {}
_leftovers_lock = threading.Lock()


def _sweep_stale_temporaries(path: Path) -> None:
    """Remove the temporary files that a killed process left beside `path`: BlurApp's own (at
    the first write in that folder), and those of earlier versions, which were named
    `.NAME.XXXXXXXX.part` after their target (when NAME is written)."""
    folder = os.path.abspath(path.parent)
    with _leftovers_lock:
        earlier = _earlier_leftovers.get(folder)
        if earlier is None:
            ours, earlier = _list_leftovers(folder)
            _earlier_leftovers[folder] = earlier
        else:
            ours = []
        ours += earlier.pop(path.name, [])
    too_old = time.time() - STALE_TEMPORARY_SECONDS
    for name in ours:
        leftover = Path(folder, name)
        with contextlib.suppress(OSError):
            if leftover.is_file() and leftover.stat().st_mtime < too_old:
                leftover.unlink()


def _list_leftovers(folder: str) -> tuple[list[str], dict[str, list[str]]]:
    """The names in `folder` of BlurApp's temporary files, and of earlier versions' by target."""
    ours: list[str] = []
    earlier: dict[str, list[str]] = {}
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            name = entry.name
            if not (name.startswith(".") and name.endswith(TEMPORARY_SUFFIX)):
                continue
            if name.startswith(TEMPORARY_PREFIX):
                ours.append(name)
                continue
            target, dot, _random = name[1 : -len(TEMPORARY_SUFFIX)].rpartition(".")
            if dot and target:
                earlier.setdefault(target, []).append(name)
    return ours, earlier


def to_8bit(image: np.ndarray) -> np.ndarray:
    """A [0, 1] float image as uint8, rounded to the nearest level."""
    return _to_levels(image, np.uint8)


def to_16bit(image: np.ndarray) -> np.ndarray:
    """A [0, 1] float image as uint16, rounded to the nearest level."""
    return _to_levels(image, np.uint16)


def levels_for_output(frame: np.ndarray, deep: bool) -> np.ndarray:
    """`frame` as the levels an output stores, uint16 when `deep`, else uint8: a [0, 1] float
    frame rounded (to_16bit, to_8bit); a frame already of those levels (a clip blurred as its
    stored levels) as it is, so that it is rounded once. Raises TypeError for levels of the
    other depth, which would be stored scaled wrong."""
    if frame.dtype.kind not in "biu":
        return to_16bit(frame) if deep else to_8bit(frame)
    wanted = np.dtype(np.uint16 if deep else np.uint8)
    if frame.dtype.kind != "u" or frame.dtype.itemsize != wanted.itemsize:
        raise TypeError(
            f"a frame of {frame.dtype} levels cannot be written where {wanted.itemsize * 8}-bit "
            "levels are stored: hand over floats, or levels of the output's depth"
        )
    return frame.astype(wanted, copy=False)  # a big-endian file's levels in this machine's order


# Converted this many values at a time: the block and its scratch stay in the CPU's cache,
# where the whole 24 MP image in one go made four trips through memory (120 ms and more against
# 18 ms), and few enough blocks that the worker seldom waits for Python's lock between them.
_LEVELS_BLOCK = 1 << 18


def _to_levels(image: np.ndarray, dtype: type[np.unsignedinteger]) -> np.ndarray:
    image = np.ascontiguousarray(image)
    levels = np.iinfo(dtype).max
    output = np.empty(image.shape, dtype)
    values, converted = image.reshape(-1), output.reshape(-1)
    scratch = np.empty(min(_LEVELS_BLOCK, values.size), np.result_type(image.dtype, np.float32))
    for start in range(0, values.size, _LEVELS_BLOCK):
        block = values[start : start + _LEVELS_BLOCK]
        work = scratch[: block.size]
        np.clip(block, 0, 1, out=work)
        np.multiply(work, levels, out=work)
        np.rint(work, out=work)
        converted[start : start + _LEVELS_BLOCK] = work
    return output


def check_writable(path: Path) -> None:
    """Raise OutputError unless `path` names a file that could be written in a folder that
    exists (a name too long for the file system included)."""
    try:
        is_folder = path.is_dir()
        folder_exists = path.parent.is_dir()
    except OSError as error:
        raise _name_problem(path, error) from error
    if is_folder:
        raise OutputError(
            path, QT_TRANSLATE_NOOP("FileProblem", "this is a folder; give a file name")
        )
    if not folder_exists:
        raise OutputError(
            path,
            QT_TRANSLATE_NOOP("FileProblem", "the folder {folder} does not exist"),
            folder=path.parent,
        )
    if len(os.fsencode(path.name)) > _longest_name(path.parent):
        raise _name_problem(path, OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG)))
    _check_not_special(path)


def _check_not_special(path: Path) -> None:
    """Refuse an existing `path` that is not a regular file (a FIFO, a device such as
    /dev/null, a socket): the write's rename would replace it, and writing into it instead
    could block or go anywhere. A symlink to a regular file is replaced by the file."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise _name_problem(path, error) from error
    if not stat.S_ISREG(mode):
        raise OutputError(
            path,
            QT_TRANSLATE_NOOP(
                "FileProblem",
                "this is not a regular file (a pipe, a device or a socket); give the name of a "
                "file to write",
            ),
        )


def _longest_name(folder: Path) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        return 255


def _name_problem(path: Path, error: OSError) -> OutputError:
    if error.errno == errno.ENAMETOOLONG:
        return OutputError(
            path,
            QT_TRANSLATE_NOOP(
                "FileProblem", "the file name is too long for the file system; choose a shorter one"
            ),
        )
    return OutputError(
        path,
        QT_TRANSLATE_NOOP("FileProblem", "the file could not be written: {reason}"),
        reason=error.strerror or error,
    )


def check_output_path(
    path: str | os.PathLike[str],
    *,
    source: str | os.PathLike[str] | None = None,
    image: bool = True,
) -> None:
    """Raise OutputError now if `path` could not take a result: unknown format (for an
    `image`; any for another file, a CSV), no folder, a name too long, or the photo being
    blurred itself (`source`), which is never replaced."""
    path = Path(path)
    # What the name is first: /dev/null or a folder is refused as such, not for its extension.
    check_writable(path)
    if image:
        _image_format(path)
    if source is not None:
        check_not_source(path, Path(source))


# The refusal to write over what is being blurred, by what it is.
_BEING_BLURRED = {
    "photo": QT_TRANSLATE_NOOP(
        "FileProblem",
        "this is the photo being blurred; BlurApp never writes over it, choose another name",
    ),
    "clip": QT_TRANSLATE_NOOP(
        "FileProblem",
        "this is the clip being blurred; BlurApp never writes over it, choose another name",
    ),
}


def check_not_source(path: Path, source: Path, *, what: Literal["photo", "clip"] = "photo") -> None:
    """Raise OutputError if `path` is `source`, the photo (or, `what`, the clip) being
    blurred, through a link or another name: it is never replaced."""
    if same_file(path, source):
        raise OutputError(path, _BEING_BLURRED[what])


def same_file(a: Path, b: Path) -> bool:
    """Whether `a` exists and is the file `b` (through a link or another name)."""
    try:
        return a.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def unknown_format(path: Path, accepted: Iterable[str]) -> OutputError:
    """The error for `path`, whose extension is none of `accepted` (an image's, a clip's)."""
    return OutputError(
        path,
        QT_TRANSLATE_NOOP("FileProblem", "unknown output format {extension}; use {accepted}"),
        extension=repr(path.suffix.lower() or "(none)"),
        accepted=", ".join(accepted),
    )


def _image_format(path: Path) -> str | None:
    """Pillow's format name for `path`'s extension; None for .npy. Raises OutputError."""
    extension = path.suffix.lower()
    if extension not in OUTPUT_FORMATS:
        raise unknown_format(path, OUTPUT_FORMATS)
    return OUTPUT_FORMATS[extension]


def save_output(
    path: str | os.PathLike[str],
    image: np.ndarray,
    *,
    bit_depth: int = 8,
    description: Mapping[str, str] | None = None,
) -> None:
    """Save a blurred image atomically; the format follows the file's extension.

    `image` is H×W grayscale or H×W×3 colour (R, G, B), float in [0, 1]. `.npy` keeps the
    float32 array exactly, shape included; an image extension gives 8-bit grayscale or RGB,
    or 16 bits a channel for PNG and TIFF when `bit_depth` is 16 (other formats fall back to
    8). `description` (what made the image: engine, kernel size, sigma, …) goes into a PNG's
    iTXt chunks, one per key, and into a TIFF's ImageDescription as JSON. Raises OutputError;
    ValueError for an array that is neither H×W nor H×W×3.
    """
    path = Path(path)
    image_format = _image_format(path)
    if image_format is None:
        array = np.asarray(image, dtype=np.float32)
        write_atomically(path, lambda file: np.save(file, array, allow_pickle=False))
        return
    colour = _is_colour(image)
    sixteen_bit = bit_depth == 16 and path.suffix.lower() in _SIXTEEN_BIT_EXTENSIONS
    # Encode in memory first, so an encoder error cannot leave a half-written temporary file.
    if sixteen_bit and colour:
        # Pillow writes colour at 8 bits a channel only.
        encoded = _encode_16bit_colour(path, to_16bit(image), image_format, description)
    else:
        # uint8 gives mode "L" for H×W and "RGB" for H×W×3; uint16 H×W gives "I;16".
        levels = to_16bit(image) if sixteen_bit else to_8bit(image)
        encoded = _encode_with_pillow(path, Image.fromarray(levels), image_format, description)
    write_atomically(path, lambda file: file.write(encoded))


def _is_colour(image: np.ndarray) -> bool:
    """True for H×W×3, False for H×W; ValueError for any other shape."""
    shape = np.shape(image)
    if len(shape) == 2:
        return False
    if len(shape) == 3 and shape[2] == 3:
        return True
    raise ValueError(f"an image to save must be H×W or H×W×3 (R, G, B), not {shape}")


# An encoder's refusal, by what it was given to store.
_CANNOT_STORE = {
    "image": QT_TRANSLATE_NOOP("FileProblem", "{format} cannot store this image: {reason}"),
    "clip": QT_TRANSLATE_NOOP("FileProblem", "{format} cannot store this clip: {reason}"),
}


def cannot_store(
    path: Path, file_format: str, reason: object, *, what: Literal["image", "clip"] = "image"
) -> OutputError:
    """The error for `path`, whose encoder (`file_format`: a format, a codec) refused the image
    (or, `what`, the clip) for `reason`."""
    return OutputError(path, _CANNOT_STORE[what], format=file_format, reason=reason)


# A PNG's sRGB chunk (its rendering intent, perceptual): the file's colours, or its grey
# levels, are sRGB's, as BlurApp reads and blurs them (see colour_profiles).
_SRGB_CHUNK = (b"sRGB", b"\x00")


def _encode_with_pillow(
    path: Path,
    picture: Image.Image,
    image_format: str,
    description: Mapping[str, str] | None,
) -> bytes:
    buffer = io.BytesIO()
    options: dict[str, object] = {}
    if image_format == "PNG":
        chunks = PngImagePlugin.PngInfo()
        chunks.add(*_SRGB_CHUNK)
        for key, value in (description or {}).items():
            chunks.add_itxt(key, str(value))  # iTXt: UTF-8, so any value survives
        options["pnginfo"] = chunks
    elif description and image_format == "TIFF":
        options["tiffinfo"] = {270: json.dumps(dict(description), ensure_ascii=False)}
    if picture.mode == "RGB" and image_format in {"JPEG", "TIFF", "WEBP"}:
        # Colours say their space: the sRGB profile, embedded. (An RGB profile cannot
        # describe a grey file; BMP has no place for one.)
        options["icc_profile"] = srgb_profile()
    try:
        picture.save(buffer, format=image_format, **options)
    except (OSError, ValueError, KeyError) as error:
        raise cannot_store(path, image_format, error) from error
    return buffer.getvalue()


def _encode_16bit_colour(
    path: Path,
    levels: np.ndarray,
    image_format: str,
    description: Mapping[str, str] | None,
) -> bytes:
    """A uint16 H×W×3 array as a PNG (libpng, through imagecodecs) or TIFF (tifffile)."""
    import imagecodecs
    import tifffile

    try:
        if image_format == "PNG":
            # Bytes when no out= is given; the stub's one signature says bytes | bytearray.
            encoded: bytes = imagecodecs.png_encode(levels)  # type: ignore[assignment]
            return _with_png_chunks(encoded, description or {})
        buffer = io.BytesIO()
        tifffile.imwrite(
            buffer,
            levels,
            photometric="rgb",
            # TIFF strings are 7-bit ASCII: escaped JSON keeps every character of the text.
            description=json.dumps(dict(description), ensure_ascii=True) if description else None,
            metadata=None,  # no second ImageDescription with tifffile's own shape JSON
            software=False,
            iccprofile=srgb_profile(),
        )
        return buffer.getvalue()
    except (OSError, ValueError, KeyError, imagecodecs.PngError) as error:
        raise cannot_store(path, image_format, error) from error


def _with_png_chunks(png: bytes, description: Mapping[str, str]) -> bytes:
    """`png` with the sRGB chunk and one uncompressed iTXt chunk per key of `description`
    inserted after IHDR, as Pillow writes them in the 8-bit path."""
    (header_length,) = struct.unpack(">I", png[8:12])
    if png[12:16] != b"IHDR":
        raise ValueError("the PNG encoder's output does not start with IHDR")
    after_header = 8 + 4 + 4 + header_length + 4  # signature, length, type, data, CRC
    chunks = [_png_chunk(*_SRGB_CHUNK)]
    for key, value in description.items():
        # Keyword (Latin-1), null, compression flag and method 0, empty language tag and
        # translated keyword each ended by a null, then the UTF-8 text.
        data = key.encode("latin-1") + b"\0" + b"\0\0" + b"\0" + b"\0" + str(value).encode("utf-8")
        chunks.append(_png_chunk(b"iTXt", data))
    return png[:after_header] + b"".join(chunks) + png[after_header:]


def _png_chunk(chunk_type: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(chunk_type + data)
    return struct.pack(">I", len(data)) + chunk_type + data + struct.pack(">I", crc)
