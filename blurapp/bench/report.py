"""`blurapp bench`'s figures as text: the engines table and the other sections, line by line.

The command line prints these lines; `--json` prints the figures themselves instead; `--record`
writes them as typed rows (blurapp.bench.record).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from blurapp.bench.clips import clip_file_lines, playing_lines
from blurapp.bench.video import video_lines
from blurapp.bench.yardsticks import ENTRIES, FLOORS, RATIOS
from blurapp.core.engines import REFERENCE_ENGINE, get_engine
from blurapp.core.measuring.comparison import json_key
from blurapp.core.measuring.sweep import sweep_break_even_words
from blurapp.core.report.figures import format_ms, format_speedup

if TYPE_CHECKING:
    from blurapp.core.engines import Engine
    from blurapp.core.measuring.sweep import SweepBreakEven, SweepPoint


def _ms(seconds: float | None) -> str:
    return "—" if seconds is None else f"{seconds * 1000:,.1f} ms"


def _mb(size: int | None) -> str:
    return "— (failed)" if size is None else f"{size / 1e6:,.0f} MB"


def section_lines(name: str, figures: dict) -> list[str]:
    """A section of `blurapp bench` (other than the engines table) as lines of text."""
    lines = [""]
    if name == "yardsticks":
        lines += yardstick_lines(figures)
    elif name == "first-call":
        lines.append("first call across launches (JAX's persistent compilation cache):")
        for label, launch in (
            ("bundled photo", figures["sample"]),
            ("large photo", figures["large"]),
        ):
            if "error" in launch:
                lines.append(f"  {label:<14} — (JAX unavailable: {launch['error']})")
                continue
            lines.append(
                f"  {label:<14} first launch {_ms(launch['first_launch_seconds'])} "
                f"({launch['first_launch']}), second {_ms(launch['second_launch_seconds'])} "
                f"({launch['second_launch']}): {launch['ratio']:.0%}"
            )
    elif name == "startup":
        if "error" in figures:
            lines.append(f"start-up: {figures['error']}")
            return lines
        lines.append(
            f"start-up (median of {figures['runs']} launches after an untimed one, "
            "with Python's compiled modules):"
        )
        lines.append(
            f"  window shown          {_ms(figures['window_shown_seconds'])} after launch "
            f"(jax imported before: {'yes' if figures['jax_imported_before_shown'] else 'no'})"
        )
        if figures.get("bare_window_seconds") is not None:
            lines.append(
                f"  a bare Qt window      {_ms(figures['bare_window_seconds'])} "
                "(PySide6 and an empty main window: the least a window takes here)"
            )
        if figures.get("bare_window_with_numpy_seconds") is not None:
            lines.append(
                f"  the same with NumPy   {_ms(figures['bare_window_with_numpy_seconds'])}"
            )
        lines.append(f"  blurapp --version     {_ms(figures['version_seconds'])}")
        if "longest_stall_after_shown_seconds" in figures:
            stall = figures["longest_stall_after_shown_seconds"]
            lines.append(
                f"  longest stall         {_ms(stall)} after shown (the longest of "
                f"{figures['runs']} windows, until the photo is shown and JAX has started)"
            )
    elif name == "window":
        if "error" in figures:
            lines.append(f"window: the probe failed: {figures['error']}")
            return lines
        repaint = figures["repaint_both_panes_seconds"]
        lines.append(f"window ({figures['megapixels']:.0f} MP photo, offscreen, 10 ms timer):")
        lines.append(
            f"  longest stall during a comparison   {_ms(figures['longest_stall_seconds'])}"
        )
        lines.append(
            "  longest stall after shown           "
            f"{_ms(figures['longest_stall_after_shown_seconds'])} (photo load, JAX start)"
        )
        lines.append(
            "  results shown → both panes painted  "
            f"{_ms(figures['result_to_both_panes_painted_seconds'])}"
        )
        lines.append(
            f"  repaint both panes                  fit {_ms(repaint['fit'])}, "
            f"100% {_ms(repaint['100%'])}, after a pan {_ms(repaint['panned'])}"
        )
    elif name == "live":
        lines.append("live preview (sigma moved a step each 0.1 s; change → JAX pane painted):")
        for case, live in figures.items():
            if "error" in live:
                lines.append(f"  {case}  — ({live['error']})")
                continue
            lines.append(
                f"  {live['megapixels']:>4.1f} MP, {live['kernel']} {live['algorithm']:<9}: "
                f"median {_ms(live['latency_median_seconds'])}, longest "
                f"{_ms(live['latency_max_seconds'])} ({live['changes']} changes, "
                f"JAX on {live['jax_device']})"
                + (
                    f"; the engine end to end {_ms(live['engine_end_to_end_median_seconds'])}, "
                    f"window ÷ engine {live['window_over_engine']:.1f}×"
                    if live.get("window_over_engine") is not None
                    else ""
                )
            )
    elif name == "memory":
        lines.append("memory (peak resident set):")
        for what, size in (
            ("JAX alone, its device opened", figures["jax_alone_peak_bytes"]),
            ("blurapp compare on the large photo", figures["compare_peak_bytes"]),
            (f"a {figures['big_megapixels']:g} MP comparison (core)", figures["big_peak_bytes"]),
        ):
            lines.append(f"  {what:<36}{_mb(size):>10}")
    elif name == "video":
        lines += video_lines(figures)
    elif name == "playing":
        lines += playing_lines(figures)
    elif name == "clip-file":
        lines += clip_file_lines(figures)
    elif name == "scale":
        lines.append("blurapp batch (1 MP colour JPEGs → PNG, 9×9, grey):")
        for row in figures["batch"]:
            lines.append(
                f"  {row['engine']:<6} {row['workers']} worker(s): "
                f"{row['photos_per_second']:.2f} photos/s, {row['megapixels_per_second']:.2f} MP/s "
                f"({row['photos']} photos in {row['seconds']:.1f} s)"
            )
        for giga in figures["gigapixel"]:
            lines.append(
                f"gigapixel blur by blocks ({giga['pixels'] / 1e9:.2f} gigapixels, 8-bit grey "
                f"TIFF, {giga['kernel_size']}×{giga['kernel_size']}, {giga['engine']}, blocks of "
                f"{giga['block']}): {giga['seconds']:.0f} s, "
                f"{giga['pixels'] / 1e6 / giga['seconds']:,.0f} MP/s, "
                f"peak {_mb(giga['peak_rss_bytes'])}"
            )
    return lines


def floor_rate_words(multiply_adds_per_second: float) -> str:
    """A compute floor's rate in words: float32 multiply-adds a second, and GFLOP/s (a
    multiply-add two FLOPs)."""
    rate = multiply_adds_per_second
    return f"{rate:.3g} float32 multiply-adds/s = {2 * rate / 1e9:,.0f} GFLOP/s (quickest round)"


def yardstick_lines(figures: dict) -> list[str]:
    """The yardsticks: a line per entry (median, then min–max of the rounds, and the largest
    difference from JAX-jit's blur), then the speed goals' ratios with each goal."""

    def bare(seconds: float) -> str:
        return format_ms(seconds).removesuffix(" ms")

    used = [f"JAX-jit on {figures['jax_device']}"] if figures["jax_device"] else []
    used += [f"OpenCV {figures['opencv']}"] if figures["opencv"] else []
    used += [f"SciPy {figures['scipy']}"] if figures["scipy"] else []
    lines = [
        f"yardsticks ({figures['megapixels']:.3g} MP, {figures['width']}×{figures['height']}, "
        f"{figures['kernel_size']}×{figures['kernel_size']}, σ {figures['sigma']:g}"
        + "".join(f"; {library}" for library in used)
        + "):",
        f"  (median of {figures['rounds']} interleaved rounds, min–max in brackets; "
        "edges repeated;",
        "  kernel: ms of the call's CPU time spent in the kernel, mostly page faults of memory",
        "  new to the process; diff: the largest difference from JAX-jit's grey blur by the same",
        "  algorithm)",
    ]
    # The entries of this run: one left out here (JAX Pallas's, off a TPU) is not shown.
    shown = [(key, label) for key, label in ENTRIES if key in figures["entries"]]
    width = max(len(label) for _, label in shown)
    for key, label in shown:
        entry = figures["entries"][key]
        if entry is None:
            lines.append(f"  {label:<{width}}  — ({figures['missing'][key]})")
            continue
        spread = f"({bare(entry['min_seconds'])}–{bare(entry['max_seconds'])})"
        line = f"  {label:<{width}}  {format_ms(entry['median_seconds']):>11} {spread:<15}"
        if entry.get("median_kernel_seconds") is not None:
            line += f"  kernel {bare(entry['median_kernel_seconds']):>5}"
        if entry["max_abs_diff"] is not None:
            line += f"  diff {entry['max_abs_diff']:.1e}"
        lines.append(line.rstrip())
    # Each compute floor's rate (a record before them has none).
    for key, rate in figures.get("floor_rates", {}).items():
        lines.append(f"  {FLOORS[key]}: {floor_rate_words(rate)}")
    ratios = [ratio for ratio in RATIOS if ratio.key in figures["ratios"]]
    ratio_width = max(len(ratio.label) for ratio in ratios)
    lines.append(f"  {'ratio (of the medians above)':<{ratio_width}}    now   goal  met")
    for ratio in ratios:
        value = figures["ratios"][ratio.key]
        now = "—" if value is None else f"{value:.2f}"
        goal = "" if ratio.goal is None else f"≤ {ratio.goal:.1f}"
        # Judged as shown: 1.004 reads "1.00", and a "no" beside it would contradict the goal.
        met = (
            ""
            if ratio.goal is None or value is None
            else "yes"
            if float(now) <= ratio.goal
            else "no"
        )
        lines.append(f"  {ratio.label:<{ratio_width}}  {now:>5}  {goal:>5}  {met:>3}".rstrip())
    return lines


def machine_line(machine: dict) -> str:
    return f"machine: {machine['description']}"


def device_line(machine: dict) -> str:
    return f"JAX device: {machine['jax_device']}"


@dataclass(frozen=True)
class _Column:
    heading: str
    width: int
    cell: Callable[[dict], str]


def _figure(key: str, figure: str, quartiles: bool = False) -> Callable[[dict], str]:
    """A cell of one engine's figure in ms (with its quartiles, when asked and there are some)."""

    def cell(row: dict) -> str:
        figures = row.get(key, {})
        seconds = figures.get(figure)
        text = "—" if seconds is None else f"{seconds * 1000:,.1f}"
        if quartiles and seconds is not None and figures.get("seconds_quartiles"):
            low, high = (f"{value * 1000:,.1f}" for value in figures["seconds_quartiles"])
            text += f" ({low}–{high})"
        return text

    return cell


def _ratio(key: str) -> Callable[[dict], str]:
    return lambda row: "—" if row.get(key) is None else f"{row[key]:.1f}×"


def column_label(engine: Engine) -> str:
    """`engine`'s name in the table's headings ("NumPy ms", "JAX 1st ms"), on whichever
    platform it runs: the one it asks for (Shown.column), else its name."""
    return engine.shown.column or engine.name


def _bench_columns(engines: Sequence[Engine]) -> list[_Column]:
    """The table's columns for `engines`: the size, then each engine's times (the reference
    first, the compiled engines last, a compiled one's first call before its steady time), then
    the jit engine's speed-ups and difference, when one of them is JAX-jit."""
    columns = [
        _Column("size", 11, image_size),
        _Column("MP", 5, lambda row: f"{row['megapixels']:.1f}"),
        _Column("kernel", 7, lambda row: f"{row['kernel']['size']}×{row['kernel']['size']}"),
        _Column("algorithm", 9, lambda row: row["kernel"]["algorithm"]),
    ]
    reference = REFERENCE_ENGINE
    for engine in sorted(engines, key=lambda engine: (engine.name != reference, engine.compiles)):
        label, key = column_label(engine), json_key(engine.name)
        if engine.compiles:
            heading = f"{label} 1st ms"
            columns.append(
                _Column(heading, max(11, len(heading) + 1), _figure(key, "first_call_seconds"))
            )
        if engine.max_repeats is None:  # timed often enough for its quartiles to mean something
            heading = f"{label} ms (IQR)"
            width = max(22 if engine.name == reference else 20, len(heading) + 2)
            columns.append(_Column(heading, width, _figure(key, "seconds", quartiles=True)))
        else:
            heading = f"{label} ms"
            columns.append(_Column(heading, max(10, len(heading) + 2), _figure(key, "seconds")))
    # The floor: one copy of the image, and every engine's time as a multiple of its device's.
    columns.append(_Column("copy ms", 9, _seconds_cell("floor_seconds")))
    for engine in sorted(engines, key=lambda engine: (engine.name != reference, engine.compiles)):
        heading = f"{column_label(engine)} ×copy"
        columns.append(_Column(heading, len(heading) + 1, _multiple(json_key(engine.name))))
    # The compute floor: the blur's multiply-adds at a matrix product's rate, and every
    # engine's time as a multiple of its device's.
    columns.append(_Column("compute ms", 10, _seconds_cell("compute_floor_seconds")))
    for engine in sorted(engines, key=lambda engine: (engine.name != reference, engine.compiles)):
        heading = f"{column_label(engine)} ×compute"
        columns.append(
            _Column(
                heading,
                len(heading) + 1,
                _multiple(json_key(engine.name), "compute_floor_multiple"),
            )
        )
    if any(engine.jitted for engine in engines):
        columns += [
            _Column("speedup", 8, _ratio("speedup")),
            _Column("end-to-end", 10, _ratio("speedup_end_to_end")),
            _Column(
                "max abs diff",
                12,
                lambda row: "—" if row["max_abs_diff"] is None else f"{row['max_abs_diff']:.1e}",
            ),
        ]
    columns.append(_Column("noisy", 5, lambda row: "yes" if row.get("noisy") else "no"))
    return columns


def _seconds_cell(key: str) -> Callable[[dict], str]:
    return lambda row: "—" if row.get(key) is None else f"{row[key] * 1000:,.2f}"


def _multiple(key: str, figure: str = "floor_multiple") -> Callable[[dict], str]:
    def cell(row: dict) -> str:
        multiple = row.get(key, {}).get(figure)
        if multiple is None:
            return "—"
        # Under 1×, the floor as timed was no bound (BEATEN_MARK's words say why).
        return f"{multiple:,.1f}×{BEATEN_MARK if multiple < 1 else ''}"

    return cell


def image_size(row: dict) -> str:
    channels = f"×{row['channels']}" if row.get("channels", 1) > 1 else ""
    return f"{row['width']}×{row['height']}{channels}"


BEATEN_MARK = "!"

_FLOOR_WORDS = (
    "copy: one copy of the image on the reference's device, the least any blur can take",
    "×copy: an engine's time ÷ a copy on its device",
    "compute: the blur's multiply-adds at the float32 rate of a matrix product on the"
    " reference's device",
    "×compute: an engine's time ÷ that on its device (compare --json also gives GFLOP/s and GB/s)",
    f"{BEATEN_MARK}: quicker than the floor as it was timed, so no bound this time (a copy or a"
    " product caught by another program, a photo that stays in the cache, a product too small"
    " for the device's peak)",
    "noisy: another program disturbed the timing (compare --json's noisy_reason says how)",
)


def column_lines(engines: Sequence[Engine]) -> list[str]:
    """The table's heading for `engines` (the reference first), and what its columns mean."""
    columns = _bench_columns(engines)
    named = [
        f"{column_label(engine)}: {engine.title}"
        + (", one steady call" if engine.max_repeats is not None else "")
        for engine in engines
        if column_label(engine) != engine.title or engine.max_repeats is not None
    ]
    lines = [
        "  ".join(f"{column.heading:>{column.width}}" for column in columns),
        "  (medians of interleaved steady calls, with the quartiles between which the middle half"
        f" of the calls lie; {'; '.join([*named, '1st: the first call', *_FLOOR_WORDS])};",
    ]
    jit = next((engine for engine in engines if engine.jitted), None)
    if jit is not None:
        lines.append(
            f"  speedup: {get_engine(REFERENCE_ENGINE).title} ÷ {jit.title}; end-to-end: the same"
            f" with {jit.title}'s copies to and from its device counted)"
        )
    else:
        lines[-1] = lines[-1].removesuffix(";") + ")"
    return lines


def row_line(row: dict, engines: Sequence[Engine]) -> str:
    """One row of the engines table, under column_lines of the same engines."""
    return "  ".join(f"{column.cell(row):>{column.width}}" for column in _bench_columns(engines))


# --- `blurapp bench --sweep`: one line per size as it finishes --------------------------------


def sweep_header_lines(
    photo: str, width: int, height: int, kernel: str, reference: str = REFERENCE_ENGINE
) -> list[str]:
    return [
        f"scaling sweep of {photo} ({width}×{height}), resampled to each size; kernel {kernel}",
        f"  (ms: each engine's median steady call; speedup: {reference} ÷ the engine;"
        " end-to-end: the same with the copies to and from the device counted, made in bands"
        " on an accelerator where the photo is large enough, as a Run makes them)",
    ]


def _sweep_columns(engines: Sequence[str], reference: str) -> list[tuple[str, int]]:
    columns = [("size", 11), ("MP", 6)]
    columns += [(f"{name} ms", max(9, len(name) + 3)) for name in engines]
    others = [name for name in engines if name != reference]
    columns += [(f"{name} speedup", max(8, len(name) + 8)) for name in others]
    columns += [(f"{name} end-to-end", len(name) + 11) for name in others]
    return columns


def sweep_column_line(engines: Sequence[str], reference: str = REFERENCE_ENGINE) -> str:
    return "  ".join(f"{name:>{width}}" for name, width in _sweep_columns(engines, reference))


def sweep_row_lines(point: SweepPoint, previous: SweepPoint | None = None) -> list[str]:
    """One size of the sweep, under sweep_column_line of the same engines; then why an engine
    has no time, unless the size before failed the same way."""

    def ms(name: str) -> str:
        seconds = point.seconds.get(name)
        return "—" if seconds is None else format_ms(seconds).removesuffix(" ms")

    others = [name for name in point.engines if name != point.reference]
    cells = [f"{point.width}×{point.height}", f"{point.megapixels:.2f}"]
    cells += [ms(name) for name in point.engines]
    cells += [format_speedup(point.speedups.get(name)) for name in others]
    cells += [format_speedup(point.end_to_end_speedups.get(name)) for name in others]
    columns = _sweep_columns(point.engines, point.reference)
    lines = ["  ".join(f"{cell:>{width}}" for cell, (_, width) in zip(cells, columns, strict=True))]
    told = previous.errors if previous is not None else {}
    lines += [
        f"  {name}: {error}" for name, error in point.errors.items() if told.get(name) != error
    ]
    return lines


def sweep_break_even_lines(found: SweepBreakEven) -> list[str]:
    """From which size one engine beats another (JAX-jit NumPy, or the accelerator the CPU),
    under the sweep's sizes."""
    return [sweep_break_even_words(found, lambda name: get_engine(name).title)]


# --- `blurapp bench --record`: the figures as data, and the Markdown tables made from them ------
