"""The figures of a clip comparison as rows (blurapp.core.report.figures.Figure), the same for
`blurapp compare CLIP`, the notebook and the window: frames per second and milliseconds a
frame for each engine, the blur alone and end to end, the batch size it blurs in, the speed-up,
the largest difference from NumPy and whether the times can be trusted.

Phrases go through `translate` as the photo figures' do; labels stay English (see ROW_NAMES).
"""

from __future__ import annotations

from blurapp.core.measuring.clip_comparison import ClipComparisonResult
from blurapp.core.report.figures import (
    Figure,
    difference_parts,
    end_to_end_speedup_figure,
    figure_of_words,
    format_ms,
    kernel_figure,
    max_abs_diff_figure,
    noisy_figure,
    speedup_figure,
    unavailable_figure,
)
from blurapp.core.wording import QT_TRANSLATE_NOOP, TranslateText, english

# The names of the rows a clip adds to the photo figures' (blurapp.core.report.figures.ROW_NAMES).
CLIP_ROW_NAMES = (
    QT_TRANSLATE_NOOP("Figures", "clip"),
    QT_TRANSLATE_NOOP("Figures", "end to end"),
    QT_TRANSLATE_NOOP("Figures", "batch size"),
)


def format_frames_per_second(frames_per_second: float | None) -> str:
    """'24.3 frames/s', '1,250 frames/s'; '—' when unknown."""
    if frames_per_second is None:
        return "—"
    if frames_per_second >= 100:
        return f"{frames_per_second:,.0f} frames/s"
    return f"{frames_per_second:.1f} frames/s"


def clip_figures(result: ClipComparisonResult, translate: TranslateText = english) -> list[Figure]:
    """The rows of a clip comparison, in the order `blurapp compare CLIP` prints them: the clip
    and the span, the kernel; per engine its frames a second (the blur alone), end to end and
    its batch size (or why it did not run); the speed-ups of JAX-jit, its largest difference
    from the reference engine and its device; then any warning (times disturbed, a clip that
    stopped part way)."""
    spec = result.spec
    rows = [
        _clip_row(result, translate),
        kernel_figure(spec.size, spec.sigma, spec.algorithm, translate),
    ]
    for name in [*result.runs, *result.errors]:
        rows.extend(_engine_rows(result, name, translate))
    jit = result.jit_engine
    if jit is not None and jit in result.runs and result.reference in result.runs:
        rows.extend(_jit_rows(result, jit, translate))
    noisy = noisy_figure(result, translate)
    if noisy is not None:
        rows.append(noisy)
    if result.clip_problem is not None:
        stopped = translate(
            QT_TRANSLATE_NOOP("Figures", "timed over the {frames} frames that decoded: {problem}")
        ).format(frames=result.frames, problem=result.clip_problem)
        rows.append(figure_of_words("clip.stopped", "warning", stopped, alarming=True))
    return rows


def _clip_row(result: ClipComparisonResult, translate: TranslateText) -> Figure:
    info = result.clip
    kind = (
        translate(QT_TRANSLATE_NOOP("Figures", "colour (R, G, B)"))
        if info.colour
        else translate(QT_TRANSLATE_NOOP("Figures", "grey"))
    )
    span = (
        QT_TRANSLATE_NOOP("Figures", "1 frame from frame {start}, {rate} frames/s")
        if result.frames == 1
        else QT_TRANSLATE_NOOP("Figures", "{frames} frames from frame {start}, {rate} frames/s")
    )
    span = translate(span).format(
        frames=result.frames, start=result.start, rate=f"{info.frames_per_second:g}"
    )
    text = f"{info.name}, {info.width} × {info.height}, {kind}, {span}"
    return Figure("clip", "clip", float(result.frames), "frames", text)


def _engine_rows(result: ClipComparisonResult, name: str, translate: TranslateText) -> list[Figure]:
    """`name`'s frames a second with how they were measured, end to end, and its batch size."""
    title = result.engine(name).title
    run = result.runs.get(name)
    if run is None:
        return [unavailable_figure(f"engine.{name}", title, result.errors[name], translate)]
    rate = result.frames_per_second(name)
    per_frame = format_ms(result.seconds_per_frame(name))
    a_frame = translate(QT_TRANSLATE_NOOP("Figures", "{time} a frame")).format(time=per_frame)
    if len(run.repeat_seconds) >= 2 and result.frames:
        low, high = (result.frames / seconds for seconds in reversed(run.quartiles))
        spread = translate(
            QT_TRANSLATE_NOOP("Figures", "median of {count} passes, middle half {low}–{high}")
        ).format(
            count=len(run.repeat_seconds),
            low=format_frames_per_second(low).removesuffix(" frames/s"),
            high=format_frames_per_second(high),
        )
        measured = f"({a_frame}; {spread})"
    else:
        measured = f"({a_frame})"
    rows = [
        Figure(
            f"{name}.frames_per_second",
            title,
            rate,
            "frames/s",
            format_frames_per_second(rate),
            measured,
        )
    ]
    end_to_end = result.end_to_end_frames_per_second(name)
    if end_to_end is not None:
        if name in result.overlapped:
            words = QT_TRANSLATE_NOOP(
                "Figures",
                "({time} a frame, reading the clip and copies counted, the copies overlapping "
                "the blur)",
            )
        else:
            words = QT_TRANSLATE_NOOP(
                "Figures", "({time} a frame, reading the clip and copies counted)"
            )
        words = translate(words).format(time=format_ms(result.end_to_end_seconds_per_frame(name)))
        rows.append(
            Figure(
                f"{name}.end_to_end",
                "end to end",
                end_to_end,
                "frames/s",
                format_frames_per_second(end_to_end),
                words,
            )
        )
    rows.append(_batch_row(result, name, translate))
    return rows


def _batch_row(result: ClipComparisonResult, name: str, translate: TranslateText) -> Figure:
    size = result.batch_size(name)
    choice = result.batches.get(name)
    if size == 1:
        figure = translate(QT_TRANSLATE_NOOP("Figures", "one frame a call"))
    else:
        figure = translate(QT_TRANSLATE_NOOP("Figures", "{size} frames a call")).format(size=size)
    if choice is None or not choice.measured:
        return Figure(f"{name}.batch_size", "batch size", float(size), "frames", figure)
    tried = ", ".join(
        f"{tried}: {format_frames_per_second(1 / seconds).removesuffix(' frames/s')}"
        for tried, seconds in sorted(choice.seconds_per_frame.items())
    )
    measured = translate(QT_TRANSLATE_NOOP("Figures", "(tried {sizes} frames/s)")).format(
        sizes=tried
    )
    return Figure(f"{name}.batch_size", "batch size", float(size), "frames", figure, measured)


def _jit_rows(result: ClipComparisonResult, jit: str, translate: TranslateText) -> list[Figure]:
    """The speed-ups of the jit engine over the reference, its difference and its device."""
    rows = []
    speedup = result.speedup
    if speedup is not None:
        alone = translate(QT_TRANSLATE_NOOP("Figures", "(the blur alone)"))
        rows.append(speedup_figure(speedup, alone))
    end_to_end = result.end_to_end_speedup
    if end_to_end is not None:
        rows.append(end_to_end_speedup_figure(end_to_end))
    difference = result.differences.get(jit)
    if difference is not None:
        parts = difference_parts(difference, translate, result.clip.bit_depth)
        rows.append(max_abs_diff_figure(difference, parts, alarming=not result.agrees(jit)))
    device = result.runs[jit].device
    if device:
        rows.append(figure_of_words("jit.device", "device", device))
    return rows
