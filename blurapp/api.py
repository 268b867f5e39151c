"""The Python API for scripts and notebooks: open a photo, compare engines on it, blur with one.

`import blurapp` gives these names (see blurapp/__init__.py); this module holds the ones that
are more than the core's own: the photo a caller passes in any of three forms, and the
comparison that draws itself in Jupyter (its HTML is made by blurapp.notebook).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeAlias

import numpy as np

from blurapp._arguments import checked_engine, checked_engines, checked_spec
from blurapp.core.engines import DEFAULT_ENGINE, DEFAULT_ENGINES, Engine
from blurapp.core.measuring.comparison import ComparisonResult, compare_engines
from blurapp.core.media.photo import Photo, has_colour, load_photo
from blurapp.core.media.pixels import UNASSOCIATED_ALPHA, luma, samples_to_float
from blurapp.core.report.figures import Figure, comparison_figures, format_ms, format_speedup
from blurapp.core.spec import BlurSpec
from blurapp.core.wording import in_grey
from blurapp.notebook import comparison_html

__all__ = ["Comparison", "PhotoLike", "SupportsArray", "blur", "compare", "open_photo"]


class SupportsArray(Protocol):
    """An array of another library that NumPy reads through ``__array__`` (a jax.Array, …)."""

    def __array__(self) -> np.ndarray: ...


PhotoLike: TypeAlias = str | os.PathLike[str] | Photo | np.ndarray | SupportsArray
"""What `compare` and `blur` take as a photo: a path, a loaded Photo, or an array (NumPy's,
or any NumPy reads through ``__array__``, such as a jax.Array)."""

# The name a photo given as an array goes by in the figures.
_ARRAY_LABEL = "array"
# Integer arrays are taken as a photo's stored levels: white is the type's largest value.
_LEVELS = {np.dtype(np.uint8): 8, np.dtype(np.uint16): 16}
# An array's last axis: grey, grey and alpha, red green and blue, and those with alpha.
_CHANNELS = (2, 3, 4)
_WITH_ALPHA = (2, 4)


def open_photo(path: str | os.PathLike[str], *, color: bool = False) -> Photo:
    """Read a photo file as the engines see it.

    Parameters
    ----------
    path : str or os.PathLike
        A PNG, JPEG, TIFF, WebP, BMP or any other format Pillow reads (16-bit PNG and TIFF
        keep their 16 bits).
    color : bool, default False
        Keep a colour photo's red, green and blue. False gives its grey (ITU-R 601-2 luma,
        rounded to the file's 8- or 16-bit levels), the tutorial's comparison; a grey photo
        stays grey either way.

    Returns
    -------
    Photo
        ``pixels`` as float32 in [0, 1]: height × width, or height × width × 3 in colour;
        ``width``, ``height``, ``channels`` and ``bit_depth`` (8 or 16) of the file.

    Raises
    ------
    PhotoError
        The file cannot be read as a photo: missing, unreadable, damaged, not an image, too
        large. The message names the file and the problem.

    Notes
    -----
    EXIF orientation is applied, transparency is composited over white and only the first
    frame of an animation is read.
    """
    return load_photo(path, color=color)


def compare(
    photo: PhotoLike,
    spec: BlurSpec | None = None,
    *,
    engines: str | Collection[str | Engine] = DEFAULT_ENGINES,
    repeats: int | None = None,
    device: str = "auto",
) -> Comparison:
    """Blur a photo with several engines, time each alike and compare their outputs.

    Parameters
    ----------
    photo : str, os.PathLike, Photo, numpy.ndarray or array-like
        A path (opened in colour when ``spec.color``), a Photo from `open_photo`, or the
        pixels themselves: height × width (grey) or height × width × 3 (red, green, blue),
        either perhaps with alpha last (× 2, × 4: composited over white, as a photo file's
        transparency is), floats in [0, 1], or uint8 / uint16 levels in either byte order,
        read as a file's levels are (a level × 1/255 or 1/65535, the grey of colour rounded
        to levels). Any array NumPy reads through ``__array__`` (a
        jax.Array, an array of another library) is read as its NumPy copy.
    spec : BlurSpec, optional
        The kernel size, sigma, algorithm and colour; ``BlurSpec()`` (9 × 9, sigma 2.5,
        2-D, grey) when omitted. A colour photo or array is blurred in grey unless
        ``spec.color``.
    engines : str or collection of str or Engine, default ("numpy", "jax")
        The engines, by name (see `engine_names`; ``"jax@cpu"``, ``"jax@gpu"`` or
        ``"jax@tpu"`` for a platform) or as Engine objects, NumPy's first: every other
        engine is compared with the reference engine, ``"numpy"``. A string may list
        several, ``"numpy,jax-eager"``, or say ``"all"``.
    repeats : int, optional
        Steady calls timed per engine after its first call. None lets each engine be timed
        as often as it needs for a stable median; 0 times nothing (outputs only).
    device : {"auto", "cpu", "gpu", "tpu"}, default "auto"
        Where JAX engines without a platform of their own run; "auto" is JAX's default (the
        accelerator when there is one).

    Returns
    -------
    Comparison
        Each engine's output and figures. In Jupyter it shows the outputs side by side, the
        figures and a chart of the times.

    Raises
    ------
    TypeError, ValueError
        `photo` or `spec` is of a kind or shape that cannot be blurred; the message says
        what was expected.
    PhotoError
        `photo` is a path that cannot be read as a photo.
    UnknownEngineError
        An engine name that is not registered.

    Notes
    -----
    An engine that fails (JAX not installed, out of device memory) does not stop the others:
    its reason is in `Comparison.errors`. Each engine's first call (with JAX-jit's
    compilation) is timed apart from its steady calls; the steady calls of all engines are
    interleaved so that a change in the machine's load touches them alike.

    Examples
    --------
    >>> import blurapp
    >>> spec = blurapp.BlurSpec(kernel_size=9, sigma=2.5)
    >>> comparison = blurapp.compare(blurapp.sample_photo_path(), spec)  # doctest: +SKIP
    >>> comparison.speedup  # doctest: +SKIP
    12.3
    """
    spec = checked_spec(spec)
    chosen = checked_engines(engines)
    pixels, label, bit_depth, colour = _pixels(photo, spec)
    result = compare_engines(pixels, spec, repeats=repeats, engines=chosen, device=device)
    return Comparison(
        result=result,
        spec=spec,
        source=label,
        shape=pixels.shape,
        bit_depth=bit_depth,
        source_colour=colour,
    )


def blur(
    photo: PhotoLike,
    spec: BlurSpec | None = None,
    *,
    engine: str | Engine = DEFAULT_ENGINE,
    device: str = "auto",
) -> np.ndarray:
    """Blur a photo with one engine, untimed.

    Parameters
    ----------
    photo : str, os.PathLike, Photo, numpy.ndarray or array-like
        As for `compare`.
    spec : BlurSpec, optional
        As for `compare`; ``BlurSpec()`` when omitted.
    engine : str or Engine, default "numpy"
        The engine's name (see `engine_names`) or the Engine itself; NumPy's, as for
        ``blurapp blur``, gives its output with no compilation, ``"jax"`` once compiled
        blurs faster (see `compare`).
    device : {"auto", "cpu", "gpu", "tpu"}, default "auto"
        As for `compare`.

    Returns
    -------
    numpy.ndarray
        float32, height × width for grey or height × width × 3 for colour, each pixel the
        kernel's weighted sum of its neighbours, the photo's edges repeated beyond its border.

    Raises
    ------
    TypeError, ValueError, PhotoError, UnknownEngineError
        As for `compare`.
    JaxUnavailableError
        A JAX engine was asked for where JAX cannot run (or on a platform it does not have).
    """
    spec = checked_spec(spec)
    chosen = checked_engine(engine)
    pixels, _, _, _ = _pixels(photo, spec)
    return chosen.blur(pixels, spec.kernel, repeats=0, device=device).output


@dataclass(frozen=True, eq=False)
class Comparison:
    """The outcome of `compare`: each engine's output and timings, and how they differ.

    Shown in Jupyter, it draws the outputs side by side, the figures and a chart of the
    times; `print` gives the figures as ``blurapp compare`` prints them.

    Attributes
    ----------
    result : ComparisonResult
        Every figure measured (``blurapp.core.measuring.comparison.ComparisonResult``): each
        engine's run with its samples, its first call and device copies, the machine's
        conditions.
    spec : BlurSpec
        The blur that was asked for.
    source : str
        The photo's file name, or ``"array"`` for pixels passed in.
    shape : tuple of int
        The shape of what was blurred (height, width[, 3]).
    bit_depth : int
        8 or 16: the precision the photo's levels had (8 for float pixels).
    source_colour : bool
        Whether the photo has colour, whether or not it was blurred in colour: one that has,
        blurred in grey (``spec.color`` False), says so in its figures and repr.
    """

    result: ComparisonResult
    spec: BlurSpec
    source: str = _ARRAY_LABEL
    shape: tuple[int, ...] = field(default=())
    bit_depth: int = 8
    source_colour: bool = False

    @property
    def width(self) -> int:
        return self.shape[1] if len(self.shape) > 1 else 0

    @property
    def height(self) -> int:
        return self.shape[0] if self.shape else 0

    @property
    def engines(self) -> tuple[str, ...]:
        """Every engine compared, by name, in the order they ran (failed ones included)."""
        return tuple(self.result.engines)

    @property
    def outputs(self) -> Mapping[str, np.ndarray]:
        """engine → its blurred photo (float32), for the engines that ran."""
        return {name: run.output for name, run in self.result.runs.items()}

    @property
    def seconds(self) -> Mapping[str, float]:
        """engine → its median steady call in seconds (its first call's when none was timed)."""
        return {name: run.seconds for name, run in self.result.runs.items()}

    @property
    def first_call_seconds(self) -> Mapping[str, float]:
        """engine → its first call in seconds; with compilation for JAX-jit."""
        return {
            name: run.first_call_seconds
            for name, run in self.result.runs.items()
            if run.first_call_seconds is not None
        }

    @property
    def errors(self) -> Mapping[str, str]:
        """engine → why it did not run, for the engines that failed."""
        return self.result.errors

    @property
    def reference(self) -> str:
        """The engine every other is compared with (``"numpy"``)."""
        return self.result.reference

    @property
    def speedups(self) -> Mapping[str, float]:
        """engine → how many times quicker its steady call is than the reference engine's, for
        each other engine that ran: the median of the speed-ups of the timing rounds both
        shared (a busy moment falls on both alike), or, with too few rounds, the reference's
        median steady time ÷ its own."""
        speedups = {}
        for name in self.result.runs:
            speedup = self.result.speedup_of(name)
            if name != self.reference and speedup is not None:
                speedups[name] = speedup
        return speedups

    @property
    def speedup(self) -> float | None:
        """How many times quicker JAX-jit's steady call (the first compiled JAX engine
        compared) is than NumPy's, taken as `speedups` takes it; None when either did not
        run."""
        return self.result.speedup

    @property
    def differences(self) -> Mapping[str, float]:
        """engine → the largest absolute difference of its output from the reference's."""
        return self.result.differences

    @property
    def max_abs_diff(self) -> float | None:
        """JAX-jit's largest absolute difference from NumPy's output, or None when the two
        were not both run."""
        return self.result.max_abs_diff

    @property
    def noisy(self) -> bool:
        """Whether something else on the machine (another program, a busy CPU) disturbed the
        timing enough that the times cannot be trusted."""
        return self.result.noisy

    @property
    def noisy_reason(self) -> str | None:
        """Why the times cannot be trusted, in words; None when they can or nothing was timed."""
        return self.result.noisy_reason

    def figures(self) -> list[Figure]:
        """The figures as rows, in English, in the order ``blurapp compare`` prints them.

        Each row is a :class:`Figure`: a ``key`` that names it for a program (``"speedup"``,
        ``"numpy.steady"``, ``"jit.steady"``, …; see the table in the API docs), its
        ``label`` and ``text`` as printed, and its number: ``value`` in ``unit``.
        ``{figure.key: figure.value for figure in comparison.figures()}`` gives every number.
        """
        return comparison_figures(
            self.result,
            self.source,
            self.width,
            self.height,
            bit_depth=self.bit_depth,
            image_note=self._grey_note(),
        )

    def _grey_note(self) -> str | None:
        """'in grey (BlurSpec(color=True) keeps the colour)' for a colour photo blurred in grey."""
        if not self.source_colour or self.spec.color:
            return None
        return in_grey("BlurSpec(color=True)")

    def __str__(self) -> str:
        rows = self.figures()
        width = max(len(row.label) for row in rows)
        return "\n".join(f"{row.label:<{width}}  {row.text}" for row in rows)

    def __repr__(self) -> str:
        parts = []
        for name in self.engines:
            run = self.result.runs.get(name)
            parts.append(f"{name} {format_ms(run.seconds) if run else 'failed'}")
        if self.speedup is not None:
            parts.append(f"speedup {format_speedup(self.speedup)}")
        if self.max_abs_diff is not None:
            parts.append(f"max abs diff {self.max_abs_diff:.2g}")
        if self.noisy:
            parts.append("times disturbed")
        colour = ", colour" if len(self.shape) == 3 else ""
        grey = self._grey_note()
        if grey:
            colour = f", {grey}"
        return (
            f"<Comparison of {self.source} ({self.width} × {self.height}{colour}), "
            f"{self.spec.words()}: "
            f"{', '.join(parts)}>"
        )

    def _repr_html_(self) -> str:
        colour = ", colour" if len(self.shape) == 3 else ""
        if grey := self._grey_note():
            colour = f", {grey}"
        heading = f"{self.source}, {self.width} × {self.height}{colour}, {self.spec.words()}"
        return comparison_html(self.result, heading=heading, figures=self.figures())


def _pixels(photo: object, spec: BlurSpec) -> tuple[np.ndarray, str, int, bool]:
    """What the engines blur for `photo` and `spec`, the photo's name in the figures, the
    bit depth of its levels and whether it has colour (blurred in colour or not)."""
    if isinstance(photo, str | os.PathLike):
        photo = load_photo(photo, color=spec.color)
    if isinstance(photo, Photo):
        # A Photo opened in grey has forgotten its colour; its file's header still tells.
        colour = photo.channels == 3 or has_colour(photo.path)
        return photo.to_blur(color=spec.color), Path(photo.path).name, photo.bit_depth, colour
    if not isinstance(photo, np.ndarray) and hasattr(photo, "__array__"):
        # A jax.Array, a PyTorch tensor, an xarray DataArray: NumPy's protocol gives its values
        # here, on the host, without this module knowing (or importing) any of them.
        photo = _as_numpy(photo)
    if isinstance(photo, np.ndarray):
        pixels, bit_depth = _checked_array(photo, color=spec.color)
        colour = photo.ndim == 3 and photo.shape[2] in (3, 4)
        return pixels, _ARRAY_LABEL, bit_depth, colour
    raise TypeError(
        f"photo must be a path, a blurapp.Photo or an array (NumPy's, or one NumPy can take, "
        f"such as a jax.Array), not {type(photo).__name__}"
    )


def _as_numpy(photo: object) -> np.ndarray:
    try:
        return np.asarray(photo)
    except Exception as error:  # each array library fails its own way (a tensor on a GPU)
        raise TypeError(
            f"photo: a {type(photo).__name__} could not be read as a NumPy array ({error})"
        ) from error


def _is_float_type(dtype: np.dtype) -> bool:
    """Whether `dtype` holds floats: NumPy's, or those JAX and ml_dtypes add (bfloat16, the
    float8 types), which NumPy knows only as kind "V"."""
    if dtype.kind == "f":
        return True
    if dtype.kind != "V" or dtype.fields is not None:
        return False
    try:
        import ml_dtypes  # JAX's own dependency; only for a type NumPy does not know

        ml_dtypes.finfo(dtype)  # ValueError for its integer types (int4, …)
    except (ImportError, ValueError, TypeError):
        return False
    return True


def _checked_array(array: np.ndarray, *, color: bool) -> tuple[np.ndarray, int]:
    """What the engines blur for `array` (float32 in [0, 1]: its grey, or its red, green and
    blue when `color`, over white where it has alpha) and its bit depth, or a ValueError
    saying why it cannot be a photo."""
    if array.ndim not in (2, 3) or (array.ndim == 3 and array.shape[2] not in _CHANNELS):
        raise ValueError(
            f"photo: an array must be height × width (grey), height × width × 3 (red, green, "
            f"blue), or either with an alpha channel last (× 2, × 4), not of shape {array.shape}"
        )
    if array.size == 0:
        raise ValueError(f"photo: the array has no pixels (shape {array.shape})")
    if not array.dtype.isnative:
        # Big-endian levels (read from a file's raw bytes, a FITS image) are the same levels.
        array = array.astype(array.dtype.newbyteorder("="))
    if array.dtype in _LEVELS:
        bits = _LEVELS[array.dtype]
        white = float(2**bits - 1)
    elif _is_float_type(array.dtype):
        bits, white = 8, 1.0
        array = np.ascontiguousarray(array, dtype=np.float32)
        if not np.isfinite(array).all():
            raise ValueError("photo: the array holds NaN or infinite values")
        low, high = float(array.min()), float(array.max())
        if low < 0 or high > 1:
            raise ValueError(
                f"photo: float pixels must lie in [0, 1]; these run from {low:g} to {high:g}"
            )
    else:
        raise ValueError(
            f"photo: an array of {array.dtype} cannot be a photo; pass floats in [0, 1] "
            f"or uint8 / uint16 levels"
        )
    with_alpha = array.ndim == 3 and array.shape[2] in _WITH_ALPHA
    if with_alpha or white != 1:
        # As a photo file is loaded (blurapp.core.media.photo), by the one rule every photo and
        # clip goes through: a level × 1/white in float32, the grey of colour rounded to levels,
        # alpha over white. So an array Pillow gives of a file blurs as the file does, and its
        # levels cross to an accelerator as levels.
        pixels = samples_to_float(
            array,
            white=white,
            colour=array.ndim == 3 and array.shape[2] >= 3,
            alpha=UNASSOCIATED_ALPHA if with_alpha else None,
            in_colour=color,
        )
        return pixels, bits
    return (luma(array) if array.ndim == 3 and not color else array), bits
