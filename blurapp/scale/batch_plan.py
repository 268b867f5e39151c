"""A batch's plan, made before any photo is read: every photo and clip the inputs name or their
folders hold, its output at the same relative path in the output folder, what is done already,
and what cannot be blurred (missing inputs, outputs that would replace an input or each other).
Photos of one name and different extensions, a camera's IMG_0001.CR2 beside its IMG_0001.JPG,
are told apart by their extensions in their outputs' names (IMG_0001-cr2.png, IMG_0001-jpg.png).

A clip (a video, an animated GIF, WebP or PNG, a TIFF stack: blurapp.core.media.clip_files.is_clip)
is written as a clip: in its own format where BlurApp writes that format (a lossless FFV1
Matroska stays one), else as a lossless Matroska (.mkv). The batch's format applies to photos."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from PIL import Image, ImageFile

from blurapp.core.media.clip_files import VIDEO_EXTENSIONS, is_clip
from blurapp.core.media.clip_saving import clip_output_suffix
from blurapp.core.media.containers import HEIF_SUFFIXES, PHOTO_SUFFIXES_BEYOND_PILLOW
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.media.saving import OutputError
from blurapp.core.wording import QT_TRANSLATE_NOOP, display_path
from blurapp.scale.tiled_read import is_zarr_folder


def _photo_suffixes() -> frozenset[str]:
    """The extensions of every format Pillow can decode here. Stub formats (HDF5, GRIB, WMF
    outside Windows, …) are left out: Pillow names them but needs a handler to read them."""
    Image.init()
    readable = set()
    for format_name, (factory, _accept) in Image.OPEN.items():
        if isinstance(factory, type) and issubclass(factory, ImageFile.StubImageFile):
            continue
        readable.add(format_name)
    return frozenset(
        suffix
        for suffix, format_name in Image.registered_extensions().items()
        if format_name in readable
    )


# What a folder's walk picks up (lower case, with the dot): Pillow's, and those it lists only
# once a HEIC is read (or never: camera RAW). A file named on the command line is
# tried whatever its name, as `blurapp blur` would.
PHOTO_SUFFIXES: frozenset[str] = _photo_suffixes() | PHOTO_SUFFIXES_BEYOND_PILLOW
# The extensions whose files may be clips: videos always are; an animation, a TIFF, a HEIF or
# AVIF is one when its header says it has several frames or a movie (is_clip), else a photo.
CLIP_SUFFIXES: frozenset[str] = (
    VIDEO_EXTENSIONS
    | HEIF_SUFFIXES
    | {
        ".gif",
        ".webp",
        ".png",
        ".apng",
        ".tif",
        ".tiff",
    }
)


# The output formats of a batch, all lossless: an 8- or 16-bit image as the photo was, or the
# float32 array itself.
BATCH_FORMATS = ("png", "tif", "npy")


DEFAULT_BATCH_FORMAT = "png"


class BatchError(ValueError):
    """A batch that cannot start at all (as opposed to one photo that fails): a bad output
    folder, format or number of workers. The message is worded for the user."""


@dataclass(frozen=True)
class BatchJob:
    """One photo, or one clip (`clip`), to blur: read `source`, write `output` (`relative`, the
    source's path as the output folder mirrors it, with the output's extension). `named_apart`:
    the output's name keeps the source's extension too, as another photo of the same name
    would be written to the same output (plan_batch)."""

    source: Path
    output: Path
    relative: Path
    clip: bool = False
    named_apart: bool = False


@dataclass(frozen=True)
class Failure:
    """A photo, or a named input, that gave no output; `reason` names the file and the
    problem (a PhotoError's or OutputError's message)."""

    source: Path
    reason: str


@dataclass(frozen=True)
class BatchPlan:
    """What a batch will do: `jobs` to run, `skipped` ones whose output already exists, and
    inputs already known to fail (a missing file, an output that would replace an input)."""

    out_dir: Path
    jobs: tuple[BatchJob, ...]
    skipped: tuple[BatchJob, ...] = ()
    failed: tuple[Failure, ...] = ()

    @property
    def total(self) -> int:
        """Every photo the plan accounts for: to run, skipped and failed."""
        return len(self.jobs) + len(self.skipped) + len(self.failed)

    @property
    def named_apart(self) -> tuple[BatchJob, ...]:
        """The jobs, to run or skipped, whose outputs' names keep their photos' extensions."""
        return tuple(job for job in (*self.jobs, *self.skipped) if job.named_apart)


def output_suffix(output_format: str) -> str:
    """'png', '.PNG' → '.png'; raises BatchError for a format a batch does not write."""
    name = output_format.strip().lower().lstrip(".")
    if name == "tiff":
        name = "tif"
    if name not in BATCH_FORMATS:
        raise BatchError(f"a batch writes {', '.join(BATCH_FORMATS)}, not {output_format!r}")
    return f".{name}"


def _job(source: Path, relative: Path, out_dir: Path, suffix: str) -> BatchJob:
    """A photo's job, or a clip's when the file is one (its header read, never its frames)."""
    if source.suffix.lower() in CLIP_SUFFIXES and is_clip(source):
        output = out_dir / relative.with_suffix(clip_output_suffix(source))
        return BatchJob(source, output, relative, clip=True)
    return BatchJob(source, out_dir / relative.with_suffix(suffix), relative)


def plan_batch(
    inputs: Sequence[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str],
    *,
    output_format: str = DEFAULT_BATCH_FORMAT,
    overwrite: bool = False,
) -> BatchPlan:
    """Plan a batch of `inputs` (photos, clips and folders of them, walked recursively for
    PHOTO_SUFFIXES and CLIP_SUFFIXES) into `out_dir`. Reads no photo and writes nothing; a
    clip is told from a photo by its header.

    A photo given by name is written as out_dir/NAME.png; a folder's photos as
    out_dir/FOLDER/RELATIVE/PATH.png. A clip keeps a clip format (clip_output_suffix) whatever
    `output_format`. Photos of one name and different extensions that would be written to one
    output are written apart, each output's name keeping its photo's extension (IMG_0001.CR2 →
    IMG_0001-cr2.png). An output that exists is skipped unless `overwrite`.
    Never planned, but listed as failures: an input that does not exist, an output that would
    be one of the inputs, and an output that an earlier input already takes. The output folder,
    when it lies inside an input folder, is not walked: the photos in it that are not this
    batch's outputs are listed as failures, left out. Raises BatchError for an unusable
    `out_dir` (a file, a loop of links, under a file) or `output_format`.
    """
    suffix = output_suffix(output_format)
    # Absolute paths: a cluster's workers read and write them from working folders of their own.
    out_dir = Path(os.path.abspath(out_dir))
    out_resolved = _usable_out_dir(out_dir)

    candidates: list[BatchJob] = []
    failed: list[Failure] = []
    input_folders: list[Path] = []
    for given in (Path(os.path.abspath(path)) for path in inputs):
        if given.is_dir() and not is_zarr_folder(given):
            input_folders.append(given)
            top = given.resolve()
            # The output folder as an input, or above one: outputs would land among the inputs.
            if top == out_resolved or out_resolved / (top.name or "photos") == top:
                raise BatchError(
                    f"{display_path(given)}: the output folder cannot also be an input folder "
                    f"or hold it ({display_path(out_dir)})"
                )
            for source, relative in _walk_photos(given, out_resolved, failed):
                candidates.append(_job(source, relative, out_dir, suffix))
        elif given.exists() or given.is_symlink():
            candidates.append(_job(given, Path(given.name), out_dir, suffix))
        else:
            failed.append(
                _failure(PhotoError(given, QT_TRANSLATE_NOOP("FileProblem", "no such file")))
            )

    candidates = _name_apart(candidates)
    sources = {_resolved(job.source) for job in candidates}
    source_inodes = {inode for job in candidates if (inode := _inode(job.source)) is not None}
    jobs: list[BatchJob] = []
    skipped: list[BatchJob] = []
    taken: dict[Path, BatchJob] = {}
    for job in candidates:
        output = _resolved(job.output)
        earlier = taken.get(output)
        if earlier is not None:
            if _resolved(earlier.source) != _resolved(job.source):
                failed.append(Failure(job.source, str(_taken_output(job, earlier))))
            continue  # the same photo named twice (a folder and a file in it) is blurred once
        if output in sources or _inode(job.output) in source_inodes:
            failed.append(Failure(job.source, str(_replaces_input(job))))
            continue
        taken[output] = job
        if not overwrite and job.output.is_file():
            skipped.append(job)
        else:
            jobs.append(job)
    if any(_resolved(folder) in out_resolved.parents for folder in input_folders):
        failed += _left_in_out_dir(out_dir, set(taken))
    return BatchPlan(out_dir, tuple(jobs), tuple(skipped), tuple(failed))


def _name_apart(jobs: Sequence[BatchJob]) -> list[BatchJob]:
    """`jobs`, where photos of one name and different extensions would be written to one output
    (a camera's IMG_0001.CR2 and IMG_0001.JPG, both to IMG_0001.png), with each of those
    outputs' names keeping its photo's extension (IMG_0001-cr2.png, IMG_0001-jpg.png). Every
    other output keeps its name. Outputs meet as a case-insensitive file system sees them
    (IMG_0001.png and img_0001.png are one there), so a plan is the same on every system; and
    it is made from the names alone, so the same inputs always give the same outputs and a
    second run finds what the first wrote. Photos of one name and one extension (from two
    folders) still meet: plan_batch refuses the second."""
    extensions: dict[str, dict[Path, str]] = {}
    for job in jobs:
        meeting = extensions.setdefault(str(job.output).casefold(), {})
        meeting[_resolved(job.source)] = job.source.suffix.lower()
    named = []
    for job in jobs:
        extension = job.source.suffix.lower().lstrip(".")
        if extension and len(set(extensions[str(job.output).casefold()].values())) > 1:
            output = job.output.with_name(f"{job.output.stem}-{extension}{job.output.suffix}")
            job = replace(job, output=output, named_apart=True)
        named.append(job)
    return named


def _usable_out_dir(out_dir: Path) -> Path:
    """`out_dir` resolved, once it is known to be a folder or a path one could be made at;
    raises BatchError naming it and the problem (a file, a loop of links, a file above it)."""
    try:
        is_file = not stat.S_ISDIR(out_dir.stat().st_mode)
    except FileNotFoundError:
        is_file = False  # made when the batch runs
    except OSError as error:
        raise BatchError(
            f"{display_path(out_dir)}: this cannot be the output folder ({error.strerror or error})"
        ) from None
    if is_file:
        raise BatchError(f"{display_path(out_dir)}: the output folder is a file")
    return _resolved(out_dir)


def _left_in_out_dir(out_dir: Path, outputs: set[Path]) -> list[Failure]:
    """The photos already in an output folder that lies inside an input folder, other than
    this batch's own outputs: that folder is not walked, so each is said to be left out."""
    left = []
    for root, folders, files in os.walk(out_dir):
        here = Path(root)
        folders.sort()
        images = [name for name in folders if is_zarr_folder(here / name)]
        folders[:] = [name for name in folders if name not in images]
        photos = [name for name in files if _walked(name)]
        for name in sorted(images + photos):
            path = here / name
            if _resolved(path) not in outputs:
                reason = (
                    f"{display_path(path)}: not blurred: it is in the output folder "
                    f"({display_path(out_dir)}), which is not searched for photos; move it out "
                    "or choose another output folder"
                )
                left.append(Failure(path, reason))
    return left


def _walk_photos(
    folder: Path, out_resolved: Path, failed: list[Failure]
) -> Iterator[tuple[Path, Path]]:
    """(source, relative output path) for each photo under `folder`, in a stable order; the
    output folder and linked folders (which may loop) are not entered."""
    top = Path(folder.resolve().name or "photos")

    def unreadable(error: OSError) -> None:
        path = Path(error.filename) if error.filename else folder
        failed.append(
            Failure(
                path,
                f"{display_path(path)}: this folder could not be read ({error.strerror or error})",
            )
        )

    for root, folders, files in os.walk(folder, onerror=unreadable):
        here = Path(root)
        folders[:] = sorted(name for name in folders if (here / name).resolve() != out_resolved)
        # A zarr array is one image (blurred by blocks), not a folder of photos to enter.
        images = [name for name in folders if is_zarr_folder(here / name)]
        folders[:] = [name for name in folders if name not in images]
        photos = [name for name in files if _walked(name)]
        for name in sorted(images + photos):
            source = here / name
            yield source, top / source.relative_to(folder)


def _walked(name: str) -> bool:
    """Whether a folder's walk picks up the file `name`: a photo's or a clip's extension."""
    suffix = Path(name).suffix.lower()
    return suffix in PHOTO_SUFFIXES or suffix in CLIP_SUFFIXES


def _resolved(path: Path) -> Path:
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.resolve()
    except (OSError, RuntimeError):  # a loop of links: as it is, and loading it says why
        return absolute


def _inode(path: Path) -> tuple[int, int] | None:
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_dev, status.st_ino


def _replaces_input(job: BatchJob) -> OutputError:
    return OutputError(
        job.output,
        QT_TRANSLATE_NOOP(
            "FileProblem",
            "this is one of the photos being blurred ({source}); BlurApp never writes over "
            "an input, choose another output folder",
        ),
        source=display_path(job.source),
    )


def _taken_output(job: BatchJob, earlier: BatchJob) -> OutputError:
    return OutputError(
        job.output,
        QT_TRANSLATE_NOOP(
            "FileProblem",
            "{other} is written here already; {source} was not blurred (rename one of them)",
        ),
        other=display_path(earlier.source),
        source=display_path(job.source),
    )


def _failure(error: PhotoError | OutputError) -> Failure:
    return Failure(error.path, str(error))
