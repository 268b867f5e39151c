"""A comparison drawn as HTML for Jupyter: the outputs side by side as inline PNG images, the
figures, whether the timing was disturbed, and a chart of the times as inline SVG; a clip
comparison as each engine's first blurred frame and the figures.

Self-contained (data URIs, no script, no stylesheet) so that a notebook saved with its outputs
shows the same anywhere; every text is escaped.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Iterable, Sequence
from html import escape

import numpy as np
from PIL import Image

from blurapp.core.measuring.clip_comparison import ClipComparisonResult
from blurapp.core.measuring.comparison import ComparisonResult
from blurapp.core.media.saving import to_8bit
from blurapp.core.report.chart_bars import timing_bars
from blurapp.core.report.clip_figures import format_frames_per_second
from blurapp.core.report.figures import Figure, format_ms
from blurapp.core.wording import frames_words

# The longest side of an output as shown: two fit side by side in a notebook's column.
SHOWN_SIDE = 420
# The chart's layout, in pixels.
_LABEL_WIDTH, _BAR_WIDTH, _VALUE_WIDTH, _ROW_HEIGHT = 190, 300, 90, 24

_FLAG_STYLES = {
    "noisy": "background:#fff3cd;border:1px solid #e0b200",
    "quiet": "background:#e8f5e9;border:1px solid #81c784",
    "untimed": "background:#f0f0f0;border:1px solid #bbb",
}


def comparison_html(result: ComparisonResult, *, heading: str, figures: Sequence[Figure]) -> str:
    """A photo's comparison as one self-contained block of HTML: `heading` (what was blurred,
    how), each engine's output with its time, whether the times can be trusted, `figures` and
    the chart."""
    return "\n".join(
        [
            '<div class="blurapp-comparison" style="font-family:sans-serif;font-size:13px">',
            f"<p><strong>{escape('BlurApp: ' + heading)}</strong></p>",
            _pictures(result),
            _contention_flag(result),
            # The warning is shown above the table, as the contention flag.
            _figures_table(row for row in figures if row.key != "warning"),
            timing_chart_svg(result),
            "</div>",
        ]
    )


def png_data_uri(pixels: np.ndarray, side: int = SHOWN_SIDE) -> str:
    """`pixels` (floats in [0, 1], grey or RGB) as a PNG data URI, shrunk so that its longest
    side is at most `side` pixels."""
    picture = Image.fromarray(to_8bit(pixels), "RGB" if pixels.ndim == 3 else "L")
    # reducing_gap: a box reduction first, then Lanczos; quick even from 24 MP.
    picture.thumbnail((side, side), Image.Resampling.LANCZOS, reducing_gap=2.0)
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG", optimize=False)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _pictures(result: ComparisonResult) -> str:
    figures = []
    for name in result.engines:
        title = escape(result.engine(name).title)
        run = result.runs.get(name)
        if run is None:
            reason = escape(result.errors.get(name, "no output"))
            figures.append(
                f'<figure style="margin:0;max-width:{SHOWN_SIDE}px">'
                f'<div style="padding:8px;border:1px solid #c00">{title} did not run: {reason}'
                "</div></figure>"
            )
            continue
        caption = f"{title}: {escape(format_ms(run.seconds))}"
        figures.append(
            '<figure style="margin:0">'
            f'<img src="{png_data_uri(run.output)}" alt="{title} output" '
            'style="display:block;image-rendering:auto">'
            f'<figcaption style="text-align:center">{caption}</figcaption></figure>'
        )
    return '<div style="display:flex;flex-wrap:wrap;gap:12px">' + "".join(figures) + "</div>"


def _contention_flag(result: ComparisonResult) -> str:
    """Whether the times can be trusted: the flag the command line prints as a warning."""
    verdict = result.verdict
    if verdict is None:
        kind, text = "untimed", "Nothing was timed (repeats=0): the outputs only."
    elif verdict.noisy:
        kind, text = "noisy", f"⚠ These times cannot be trusted: {result.noisy_reason}."
    else:
        kind, text = "quiet", "The machine was quiet while the engines were timed."
    return (
        f'<p class="blurapp-contention blurapp-{kind}" '
        f'style="padding:4px 8px;{_FLAG_STYLES[kind]}">{escape(text)}</p>'
    )


def _figures_table(figures: Iterable[Figure]) -> str:
    rows = [
        f'<tr data-key="{escape(row.key)}">'
        f'<th style="text-align:left;padding-right:12px">{escape(row.label)}</th>'
        f'<td style="text-align:left">{escape(row.text)}</td></tr>'
        for row in figures
    ]
    return '<table class="blurapp-figures">' + "".join(rows) + "</table>"


def timing_chart_svg(result: ComparisonResult) -> str:
    """The comparison's times as horizontal bars in each engine's colour, on one linear scale
    (the first call of JAX-jit, compilation included, beside the steady calls)."""
    bars = timing_bars(result)
    if not bars:
        return ""
    longest = max(bar.seconds for bar in bars) or 1.0
    width = _LABEL_WIDTH + _BAR_WIDTH + _VALUE_WIDTH
    height = _ROW_HEIGHT * len(bars) + 4
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'role="img" aria-label="time of each engine" style="font:12px sans-serif">'
    ]
    for row, bar in enumerate(bars):
        top = row * _ROW_HEIGHT
        length = max(1.0, _BAR_WIDTH * bar.seconds / longest)
        label, value = escape(bar.label), escape(format_ms(bar.seconds))
        parts.append(
            f'<text x="{_LABEL_WIDTH - 6}" y="{top + 16}" text-anchor="end">{label}</text>'
            f'<rect x="{_LABEL_WIDTH}" y="{top + 4}" width="{length:.1f}" height="16" '
            f'fill="{escape(bar.colour)}"><title>{label}: {value}</title></rect>'
            f'<text x="{_LABEL_WIDTH + length + 6:.1f}" y="{top + 16}">{value}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def clip_comparison_html(result: ClipComparisonResult, *, figures: Sequence[Figure]) -> str:
    """A clip comparison as one block of HTML: each engine's first blurred frame with its
    frames a second, then `figures`."""
    info = result.clip
    heading = (
        f"BlurApp: {info.name}, {info.width} × {info.height}, {frames_words(result.frames)}, "
        f"{result.spec.words()}"
    )
    pictures = []
    for name, run in result.runs.items():
        title = escape(result.engine(name).title)
        rate = escape(format_frames_per_second(result.frames_per_second(name)))
        pictures.append(
            '<figure style="margin:0">'
            f'<img src="{png_data_uri(run.output)}" alt="{title} first frame" '
            'style="display:block">'
            f'<figcaption style="text-align:center">{title}: {rate}</figcaption></figure>'
        )
    return "\n".join(
        [
            '<div class="blurapp-clip-comparison" style="font-family:sans-serif;font-size:13px">',
            f"<p><strong>{escape(heading)}</strong></p>",
            '<div style="display:flex;flex-wrap:wrap;gap:12px">' + "".join(pictures) + "</div>",
            _figures_table(figures),
            "</div>",
        ]
    )
