"""The Python API for clips: open one, and compare engines on a span of its frames.

`import blurapp` gives `open_clip`, `compare_clip` and `ClipComparison` (see
blurapp/__init__.py); the comparison draws itself in Jupyter (its HTML is made by
blurapp.notebook).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np

from blurapp._arguments import checked_engines, checked_spec
from blurapp.core.engines import DEFAULT_ENGINES, Engine
from blurapp.core.measuring.clip_comparison import (
    DEFAULT_CLIP_FRAMES,
    ClipComparisonResult,
    compare_engines_on_clip,
)
from blurapp.core.media.clip import Clip
from blurapp.core.media.clip_files import open_clip_file
from blurapp.core.report.clip_figures import clip_figures, format_frames_per_second
from blurapp.core.report.figures import Figure, format_speedup
from blurapp.core.spec import BlurSpec
from blurapp.core.wording import frames_words
from blurapp.notebook import clip_comparison_html

__all__ = ["ClipComparison", "ClipLike", "compare_clip", "open_clip"]

ClipLike: TypeAlias = str | os.PathLike[str] | Clip
"""What `compare_clip` takes as a clip: a path, or a Clip from `open_clip`."""


def open_clip(path: str | os.PathLike[str], *, color: bool = False) -> Clip:
    """Open a clip file, its frames read as they are asked for.

    Parameters
    ----------
    path : str or os.PathLike
        A multi-page TIFF stack, an animated GIF, WebP or PNG, or a video (MP4, MOV, MKV,
        WebM, AVI, a HEIF or AVIF sequence; through PyAV, the ``video`` extra).
    color : bool, default False
        Keep a colour clip's red, green and blue; False gives its grey, as for photos.

    Returns
    -------
    Clip
        ``info`` (name, width, height, frame_count, frames_per_second, colour, bit_depth, and
        frame_count_estimated: the count is worked out from the duration, not declared);
        ``frames(start, stop)`` iterates float32 frames in [0, 1] (height × width, × 3 in
        colour), ``frame(i)`` reads one. Close it, or use it in a ``with`` block.

    Raises
    ------
    ClipError
        The file cannot be read as a clip; the message names the file and the problem.
    """
    return open_clip_file(path, color=color)


def compare_clip(
    clip: ClipLike,
    spec: BlurSpec | None = None,
    *,
    engines: str | Collection[str | Engine] = DEFAULT_ENGINES,
    frames: int = DEFAULT_CLIP_FRAMES,
    start: int = 0,
    repeats: int | None = None,
    device: str = "auto",
) -> ClipComparison:
    """Blur a span of a clip's frames with several engines, time each alike, compare them.

    Parameters
    ----------
    clip : str, os.PathLike or Clip
        A path (opened in colour when ``spec.color``, and closed after) or a Clip from
        `open_clip`, blurred as it was opened.
    spec : BlurSpec, optional
        The kernel; ``BlurSpec()`` (9 × 9, sigma 2.5) when omitted.
    engines : str or collection of str or Engine, default ("numpy", "jax")
        As for `compare`: every other engine is compared with ``"numpy"``.
    frames : int, default 48
        The frames timed, from `start` on (fewer when the clip ends sooner).
    start : int, default 0
        The first frame timed, counted from 0.
    repeats : int, optional
        Timed passes over the span per engine; None: as many as each needs.
    device : {"auto", "cpu", "gpu", "tpu"}, default "auto"
        Where JAX engines without a platform of their own run.

    Returns
    -------
    ClipComparison
        Frames a second per engine (the blur alone and end to end, reading the clip
        counted), the batch size each blurred in, the speed-up and the largest difference
        from NumPy. In Jupyter it shows each engine's first blurred frame and the figures.

    Raises
    ------
    ClipError
        The clip gives no frame of the span (a clip that stops part way is timed over the
        frames that decoded, and says where it stopped in ``clip_problem``).
    IndexError
        `start` is past the clip's end.
    """
    spec = checked_spec(spec)
    chosen = checked_engines(engines)
    with contextlib.ExitStack() as stack:
        if isinstance(clip, str | os.PathLike):
            clip = stack.enter_context(open_clip_file(clip, color=spec.color))
        if not isinstance(clip, Clip):
            raise TypeError(f"clip must be a path or a blurapp Clip, not {type(clip).__name__}")
        result = compare_engines_on_clip(
            clip,
            spec,
            engines=chosen,
            frames=frames,
            start=start,
            device=device,
            repeats=repeats,
        )
    return ClipComparison(result)


@dataclass(frozen=True, eq=False)
class ClipComparison:
    """The outcome of `compare_clip`; `print` gives the figures as ``blurapp compare CLIP``
    prints them, Jupyter shows each engine's first blurred frame and the figures.

    Attributes
    ----------
    result : blurapp.core.measuring.clip_comparison.ClipComparisonResult
        Every figure measured: each engine's run over the span, its end-to-end passes, its
        batch-size measurements, the machine's conditions.
    """

    result: ClipComparisonResult

    @property
    def frames(self) -> int:
        """The frames timed (fewer than asked when the clip ended sooner)."""
        return self.result.frames

    @property
    def frames_per_second(self) -> Mapping[str, float]:
        """engine → frames a second, the blur alone, for the engines that ran."""
        return _known({name: self.result.frames_per_second(name) for name in self.result.runs})

    @property
    def end_to_end_frames_per_second(self) -> Mapping[str, float]:
        """engine → frames a second with the clip's frames read and the copies counted."""
        result = self.result
        return _known({name: result.end_to_end_frames_per_second(name) for name in result.runs})

    @property
    def batch_sizes(self) -> Mapping[str, int]:
        """engine → the frames it blurred in one call."""
        return {name: self.result.batch_size(name) for name in self.result.runs}

    @property
    def speedup(self) -> float | None:
        """JAX-jit's frames a second ÷ NumPy's, the blur alone; None unless both ran."""
        return self.result.speedup

    @property
    def end_to_end_speedup(self) -> float | None:
        return self.result.end_to_end_speedup

    @property
    def max_abs_diff(self) -> float | None:
        """JAX-jit's largest difference from NumPy over every frame of the span."""
        jit = self.result.jit_engine
        return None if jit is None else self.result.differences.get(jit)

    @property
    def first_frames(self) -> Mapping[str, np.ndarray]:
        """engine → its blurred first frame of the span (float32)."""
        return {name: run.output for name, run in self.result.runs.items()}

    @property
    def errors(self) -> Mapping[str, str]:
        """engine → why it did not run."""
        return self.result.errors

    @property
    def clip_problem(self) -> str | None:
        """Where the clip stopped short of the span, in words; None when it did not."""
        return self.result.clip_problem

    def figures(self) -> list[Figure]:
        """The figures as rows (keys such as ``"numpy.frames_per_second"``,
        ``"jax.end_to_end"``, ``"jax.batch_size"``, ``"speedup"``), as printed."""
        return clip_figures(self.result)

    def __str__(self) -> str:
        rows = self.figures()
        width = max(len(row.label) for row in rows)
        return "\n".join(f"{row.label:<{width}}  {row.text}" for row in rows)

    def __repr__(self) -> str:
        result = self.result
        parts = [
            f"{name} {format_frames_per_second(result.frames_per_second(name))}"
            for name in result.runs
        ]
        parts += [f"{name} failed" for name in result.errors]
        if self.speedup is not None:
            parts.append(f"speedup {format_speedup(self.speedup)}")
        return (
            f"<ClipComparison of {result.clip.name} ({result.clip.width} × "
            f"{result.clip.height}, {frames_words(self.frames)}), {result.spec.words()}: "
            f"{', '.join(parts)}>"
        )

    def _repr_html_(self) -> str:
        return clip_comparison_html(self.result, figures=self.figures())


def _known(values: Mapping[str, float | None]) -> dict[str, float]:
    return {name: value for name, value in values.items() if value is not None}
