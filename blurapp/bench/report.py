"""`blurapp bench`'s figures as text: the engines table and the other sections, line by line.

The command line prints these lines; `--json` prints the figures themselves instead; `--record`
writes them as typed rows with the command, machine, versions and date, and record_markdown
makes the tables of the performance page from such a record.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from blurapp.core.engines import REFERENCE_ENGINE, get_engine

if TYPE_CHECKING:
    from blurapp.core.engines import Engine
    from blurapp.core.sweep import SweepPoint


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
            "  longest stall while starting        "
            f"{_ms(figures['longest_stall_while_starting_seconds'])} (photo load, JAX import)"
        )
        lines.append(
            "  worker result → both panes painted  "
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
            )
    elif name == "memory":
        lines.append("memory (peak resident set):")
        lines.append(f"  blurapp compare on the large photo  {_mb(figures['compare_peak_bytes'])}")
        lines.append(
            f"  a {figures['big_megapixels']:g} MP comparison (core)      "
            f"{_mb(figures['big_peak_bytes'])}"
        )
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


def yardstick_lines(figures: dict) -> list[str]:
    """The yardsticks: a line per entry (median, then min–max of the rounds, and the largest
    difference from JAX-jit's blur), then the speed goals' ratios with each goal."""
    from blurapp.bench.yardsticks import ENTRIES, RATIOS
    from blurapp.core.figures import format_ms

    def bare(seconds: float) -> str:
        return format_ms(seconds).removesuffix(" ms")

    labels = dict(ENTRIES)
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
        "  diff: the largest difference from JAX-jit's grey blur by the same algorithm)",
    ]
    width = max(len(label) for label in labels.values())
    for key, label in ENTRIES:
        entry = figures["entries"][key]
        if entry is None:
            lines.append(f"  {label:<{width}}  — ({figures['missing'][key]})")
            continue
        spread = f"({bare(entry['min_seconds'])}–{bare(entry['max_seconds'])})"
        line = f"  {label:<{width}}  {format_ms(entry['median_seconds']):>11} {spread:<15}"
        if entry["max_abs_diff"] is not None:
            line += f"  diff {entry['max_abs_diff']:.1e}"
        lines.append(line.rstrip())
    ratio_width = max(len(ratio.label) for ratio in RATIOS)
    lines.append(f"  {'ratio (of the medians above)':<{ratio_width}}    now   goal  met")
    for ratio in RATIOS:
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


def header_lines(machine: dict) -> list[str]:
    return [f"machine: {machine['description']}", f"JAX device: {machine['jax_device']}"]


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


def _bench_columns(engines: Sequence[Engine]) -> list[_Column]:
    """The table's columns for `engines`: the size, then each engine's times (the reference
    first, the compiled engines last, a compiled one's first call before its steady time), then
    the jit engine's speed-ups and difference, when one of them is JAX-jit."""
    columns = [
        _Column("size", 11, _size),
        _Column("MP", 5, lambda row: f"{row['megapixels']:.1f}"),
        _Column("kernel", 7, lambda row: f"{row['kernel']['size']}×{row['kernel']['size']}"),
        _Column("algorithm", 9, lambda row: row["kernel"]["algorithm"]),
    ]
    reference = REFERENCE_ENGINE
    for engine in sorted(engines, key=lambda engine: (engine.name != reference, engine.compiles)):
        label, key = engine.column_label, engine.json_key
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
        heading = f"{engine.column_label} ×copy"
        columns.append(_Column(heading, len(heading) + 1, _multiple(engine.json_key)))
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


def _multiple(key: str) -> Callable[[dict], str]:
    def cell(row: dict) -> str:
        multiple = row.get(key, {}).get("floor_multiple")
        return "—" if multiple is None else f"{multiple:,.1f}×"

    return cell


def _size(row: dict) -> str:
    channels = f"×{row['channels']}" if row.get("channels", 1) > 1 else ""
    return f"{row['width']}×{row['height']}{channels}"


_FLOOR_WORDS = (
    "copy: one copy of the image on the reference's device, the least any blur can take",
    "×copy: an engine's time ÷ a copy on its device",
    "noisy: another program disturbed the timing (compare --json's noisy_reason says how)",
)


def column_lines(engines: Sequence[Engine]) -> list[str]:
    """The table's heading for `engines` (the reference first), and what its columns mean."""
    columns = _bench_columns(engines)
    named = [
        f"{engine.column_label}: {engine.title}"
        + (", one steady call" if engine.max_repeats is not None else "")
        for engine in engines
        if engine.column_label != engine.title or engine.max_repeats is not None
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
        f"  (ms: each engine's median steady call; speedup: {reference} ÷ the engine)",
    ]


def _sweep_columns(engines: Sequence[str], reference: str) -> list[tuple[str, int]]:
    columns = [("size", 11), ("MP", 6)]
    columns += [(f"{name} ms", max(9, len(name) + 3)) for name in engines]
    columns += [(f"{name} speedup", max(8, len(name) + 8)) for name in engines if name != reference]
    return columns


def sweep_column_line(engines: Sequence[str], reference: str = REFERENCE_ENGINE) -> str:
    return "  ".join(f"{name:>{width}}" for name, width in _sweep_columns(engines, reference))


def sweep_row_lines(point: SweepPoint, previous: SweepPoint | None = None) -> list[str]:
    """One size of the sweep, under sweep_column_line of the same engines; then why an engine
    has no time, unless the size before failed the same way."""
    from blurapp.core.figures import format_ms, format_speedup

    def ms(name: str) -> str:
        seconds = point.seconds.get(name)
        return "—" if seconds is None else format_ms(seconds).removesuffix(" ms")

    others = [name for name in point.engines if name != point.reference]
    cells = [f"{point.width}×{point.height}", f"{point.megapixels:.2f}"]
    cells += [ms(name) for name in point.engines]
    cells += [format_speedup(point.speedups.get(name)) for name in others]
    columns = _sweep_columns(point.engines, point.reference)
    lines = ["  ".join(f"{cell:>{width}}" for cell, (_, width) in zip(cells, columns, strict=True))]
    told = previous.errors if previous is not None else {}
    lines += [
        f"  {name}: {error}" for name, error in point.errors.items() if told.get(name) != error
    ]
    return lines


# --- `blurapp bench --record`: the figures as data, and the Markdown tables made from them ------

# What a record file holds, so that a reader can tell it from `--json`'s report.
RECORD_FORMAT = "blurapp-bench-record"
RECORD_FORMAT_VERSION = 1
# Figures keep this many significant digits: a median of a few timed calls says no more.
_DIGITS = 4


def _value(number: float | None, scale: float = 1.0) -> float | None:
    """`number` × `scale` to _DIGITS significant digits; None for none, or for NaN and
    infinity, which strict JSON cannot hold."""
    if number is None or not math.isfinite(number * scale):
        return None
    return float(f"{number * scale:.{_DIGITS}g}")


def _row(
    section: str,
    what: str,
    engine: str | None,
    value: float | None,
    unit: str,
    how: str,
    spread: tuple[float | None, float | None] | None = None,
) -> dict:
    """One typed figure; `spread` the (low, high) it came with, in the same unit."""
    low, high = spread if spread is not None else (None, None)
    if low == high:  # one timed call: no range to give
        low = high = None
    return {
        "section": section,
        "what": what,
        "engine": engine,
        "value": value,
        "unit": unit,
        "low": low,
        "high": high,
        "how": how,
    }


def _calls(figures: dict) -> str:
    count = len(figures.get("seconds_all") or [])
    per_sample = figures.get("calls_per_sample") or 1
    if count == 1:
        return "one call" if per_sample == 1 else f"one sample of {per_sample} calls"
    if per_sample > 1:
        return f"median of {count} samples of {per_sample} calls"
    return f"median of {count} calls"


def _engine_rows(results: list[dict], engines: Sequence[Engine]) -> list[dict]:
    rows = []
    reference = get_engine(REFERENCE_ENGINE)
    for result in results:
        kernel = result["kernel"]
        what = (
            f"{_size(result)} ({result['megapixels']:.2g} MP), "
            f"{kernel['size']}×{kernel['size']} {kernel['algorithm']}"
        )
        noisy = f"; flagged noisy: {result['noisy_reason']}" if result.get("noisy") else ""
        for engine in engines:
            figures = result.get(engine.json_key)
            if figures is None:
                continue
            if figures.get("error"):
                rows.append(_row("engines", what, engine.title, None, "ms", figures["error"]))
                continue
            if engine.compiles and figures.get("first_call_seconds") is not None:
                rows.append(
                    _row(
                        "engines",
                        f"{what}, first call",
                        engine.title,
                        _value(figures["first_call_seconds"], 1000),
                        "ms",
                        f"trace, compile and one run ({figures.get('compilation')})",
                    )
                )
            quartiles = figures.get("seconds_quartiles") or [None, None]
            rows.append(
                _row(
                    "engines",
                    what,
                    engine.title,
                    _value(figures["seconds"], 1000),
                    "ms",
                    f"{_calls(figures)}, interleaved with the other engines; "
                    f"range: the middle half{noisy}",
                    (_value(quartiles[0], 1000), _value(quartiles[1], 1000)),
                )
            )
            if engine.name != reference.name and figures.get("speedup") is not None:
                rows.append(
                    _row(
                        "engines",
                        f"{what}, speed-up",
                        engine.title,
                        _value(figures["speedup"]),
                        "×",
                        f"{reference.title}'s median ÷ this engine's",
                    )
                )
        if result.get("floor_seconds") is not None:
            rows.append(
                _row(
                    "engines",
                    f"{what}, one copy of the image",
                    reference.title,
                    _value(result["floor_seconds"], 1000),
                    "ms",
                    "the least any blur can take on this device (median of the copies)",
                )
            )
    return rows


def _yardstick_rows(figures: dict) -> list[dict]:
    from blurapp.bench.yardsticks import ENTRIES, RATIOS

    def library(key: str) -> str:
        if key.startswith("jax"):
            return "JAX-jit"
        if key.startswith("opencv"):
            return f"OpenCV {figures['opencv']}" if figures["opencv"] else "OpenCV"
        if key.startswith("scipy"):
            return f"SciPy {figures['scipy']}" if figures["scipy"] else "SciPy"
        return get_engine(REFERENCE_ENGINE).title

    image = (
        f"{figures['megapixels']:.3g} MP ({figures['width']}×{figures['height']}), "
        f"{figures['kernel_size']}×{figures['kernel_size']}, σ {figures['sigma']:g}"
    )
    how = f"median of {figures['rounds']} interleaved passes over every entry; range: min–max"
    rows = []
    for key, label in ENTRIES:
        entry = figures["entries"][key]
        if entry is None:
            rows.append(
                _row(
                    "yardsticks",
                    f"{label}, {image}",
                    library(key),
                    None,
                    "ms",
                    figures["missing"][key],
                )
            )
            continue
        rows.append(
            _row(
                "yardsticks",
                f"{label}, {image}",
                library(key),
                _value(entry["median_seconds"], 1000),
                "ms",
                how,
                (_value(entry["min_seconds"], 1000), _value(entry["max_seconds"], 1000)),
            )
        )
    for ratio in RATIOS:
        goal = "" if ratio.goal is None else f"; goal ≤ {ratio.goal:g}"
        rows.append(
            _row(
                "yardsticks",
                ratio.label,
                "JAX-jit",
                _value(figures["ratios"][ratio.key]),
                "×",
                f"ratio of the two medians above{goal}",
            )
        )
    return rows


def _first_call_rows(figures: dict) -> list[dict]:
    rows = []
    for key, label in (("sample", "bundled photo"), ("large", "large photo")):
        launch = figures[key]
        if "error" in launch:
            rows.append(_row("first-call", label, "JAX-jit", None, "ms", launch["error"]))
            continue
        how = "blurapp compare --json in a fresh process, JAX's compilation cache in a new folder"
        rows += [
            _row(
                "first-call",
                f"{label}, first launch's first call",
                "JAX-jit",
                _value(launch["first_launch_seconds"], 1000),
                "ms",
                f"{how} ({launch['first_launch']})",
            ),
            _row(
                "first-call",
                f"{label}, second launch's first call",
                "JAX-jit",
                _value(launch["second_launch_seconds"], 1000),
                "ms",
                f"the same again, the cache kept ({launch['second_launch']})",
            ),
            _row(
                "first-call",
                f"{label}, second ÷ first",
                "JAX-jit",
                _value(launch["ratio"], 100),
                "%",
                "ratio of the two first calls",
            ),
        ]
    return rows


def _startup_rows(figures: dict) -> list[dict]:
    if "error" in figures:
        return [_row("startup", "window shown", None, None, "ms", figures["error"])]
    how = (
        f"median of {figures['runs']} launches after an untimed one, with Python's compiled "
        "modules; offscreen"
    )
    rows = [
        _row(
            "startup",
            "window shown after launch",
            None,
            _value(figures["window_shown_seconds"], 1000),
            "ms",
            how,
        )
    ]
    for key, what in (
        ("bare_window_seconds", "a bare PySide6 window (the least a window takes here)"),
        ("bare_window_with_numpy_seconds", "a bare PySide6 window after importing NumPy"),
        ("version_seconds", "blurapp --version"),
    ):
        if figures.get(key) is not None:
            rows.append(_row("startup", what, None, _value(figures[key], 1000), "ms", how))
    return rows


def _window_rows(figures: dict) -> list[dict]:
    if "error" in figures:
        return [_row("window", "the window probe", None, None, "ms", str(figures["error"]))]
    how = f"a real window, offscreen, a {figures['megapixels']:.0f} MP photo, a 10 ms timer"
    rows = [
        _row("window", what, None, _value(figures[key], 1000), "ms", how)
        for key, what in (
            ("longest_stall_seconds", "longest stall of the event loop during a comparison"),
            ("longest_stall_while_starting_seconds", "longest stall while starting"),
            ("result_to_both_panes_painted_seconds", "worker's result → both panes painted"),
        )
    ]
    for key, what in (("fit", "fit"), ("100%", "at 100%"), ("panned", "after a pan")):
        rows.append(
            _row(
                "window",
                f"repaint both panes, {what}",
                None,
                _value(figures["repaint_both_panes_seconds"][key], 1000),
                "ms",
                how,
            )
        )
    return rows


def _live_rows(figures: dict) -> list[dict]:
    rows = []
    for case, live in figures.items():
        if "error" in live:
            rows.append(_row("live", case, "JAX-jit", None, "ms", live["error"]))
            continue
        what = f"{live['megapixels']:.1f} MP, {live['kernel']} {live['algorithm']}"
        how = (
            f"sigma moved a step each 0.1 s, {live['changes']} changes, change → JAX-jit pane "
            f"painted, JAX on {live['jax_device']}"
        )
        rows += [
            _row(
                "live",
                f"{what}, median",
                "JAX-jit",
                _value(live["latency_median_seconds"], 1000),
                "ms",
                how,
            ),
            _row(
                "live",
                f"{what}, longest",
                "JAX-jit",
                _value(live["latency_max_seconds"], 1000),
                "ms",
                how,
            ),
        ]
    return rows


def _memory_rows(figures: dict) -> list[dict]:
    how = "peak resident set (VmHWM) of the whole process"
    return [
        _row(
            "memory",
            "blurapp compare on the large photo",
            None,
            _value(figures["compare_peak_bytes"], 1e-6),
            "MB",
            how,
        ),
        _row(
            "memory",
            f"a {figures['big_megapixels']:g} MP comparison (core)",
            None,
            _value(figures["big_peak_bytes"], 1e-6),
            "MB",
            how,
        ),
    ]


def _scale_rows(figures: dict) -> list[dict]:
    rows = []
    for batch in figures["batch"]:
        rows.append(
            _row(
                "scale",
                f"blurapp batch, {batch['workers']} worker(s)",
                get_engine(batch["engine"]).title,
                _value(batch["megapixels_per_second"]),
                "MP/s",
                f"{batch['photos']} 1 MP colour JPEGs → PNG, 9×9, grey, "
                f"in {batch['seconds']:.1f} s",
            )
        )
    for giga in figures["gigapixel"]:
        what = (
            f"blur by blocks, {giga['pixels'] / 1e9:.2f} gigapixels 8-bit grey TIFF, "
            f"{giga['kernel_size']}×{giga['kernel_size']}, blocks of {giga['block']}"
        )
        engine = get_engine(giga["engine"]).title
        rows += [
            _row("scale", what, engine, _value(giga["seconds"]), "s", "one run, wall time"),
            _row(
                "scale",
                f"{what}, peak memory",
                engine,
                _value(giga["peak_rss_bytes"], 1e-6),
                "MB",
                "peak resident set of the process",
            ),
        ]
    return rows


def _sweep_rows(sweep: dict) -> list[dict]:
    kernel = sweep["kernel"]
    rows = []
    for point in sweep["points"]:
        what = (
            f"{point['width']}×{point['height']} ({point['megapixels']:.2f} MP), "
            f"{kernel['size']}×{kernel['size']} {kernel['algorithm']}"
        )
        for name, figures in point["engines"].items():
            how = f"median steady call; {sweep['photo']['path']} resampled"
            if figures.get("error"):
                how = figures["error"]
            rows.append(
                _row(
                    "sweep",
                    what,
                    get_engine(name).title,
                    _value(figures["seconds"], 1000),
                    "ms",
                    how,
                )
            )
    return rows


_SECTION_ROWS: dict[str, Callable[[dict], list[dict]]] = {
    "yardsticks": _yardstick_rows,
    "first-call": _first_call_rows,
    "startup": _startup_rows,
    "window": _window_rows,
    "live": _live_rows,
    "memory": _memory_rows,
    "scale": _scale_rows,
    "sweep": _sweep_rows,
}


def figure_rows(report: dict, engines: Sequence[Engine]) -> list[dict]:
    """Every figure of a `blurapp bench` report (what `--json` prints) as a typed row:
    section, what, engine, value, unit, the low and high it came with, how it was measured."""
    rows = _engine_rows(report["results"], engines) if "results" in report else []
    for section, rows_of in _SECTION_ROWS.items():
        if section in report:
            rows += rows_of(report[section])
    return rows


def bench_record(
    report: dict, engines: Sequence[Engine], command: str, date: str, note: str | None = None
) -> dict:
    """One run of `blurapp bench` as a record: the command line as typed, the machine, the
    versions, the date (ISO 8601, UTC), a note on the conditions (another load on the machine,
    say), and every figure as a typed row (figure_rows)."""
    from blurapp.bench import record_machine, record_versions

    return {
        "command": command,
        "date": date,
        "machine": record_machine(report["machine"]),
        "versions": record_versions(report["machine"], report),
        "note": note,
        "rows": figure_rows(report, engines),
    }


def record_document(records: Sequence[dict]) -> dict:
    return {
        "format": RECORD_FORMAT,
        "format_version": RECORD_FORMAT_VERSION,
        "records": list(records),
    }


def record_json(document: dict) -> str:
    """The document as strict JSON (no NaN or Infinity: ValueError if one slipped in)."""
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def read_record_document(text: str, name: str) -> dict:
    """A record document from its JSON text; ValueError naming `name` when it is not one."""

    def refuse(constant: str) -> None:
        raise ValueError(f"{name}: {constant} is not a number strict JSON allows")

    document = json.loads(text, parse_constant=refuse)
    if not isinstance(document, dict) or document.get("format") != RECORD_FORMAT:
        raise ValueError(f'{name}: not a record of `blurapp bench --record` (no "format")')
    return document


_SECTION_TITLES = {
    "engines": "Engines",
    "sweep": "Scaling sweep",
    "yardsticks": "Yardsticks",
    "first-call": "First call across launches",
    "startup": "Start-up",
    "window": "Window",
    "live": "Live preview",
    "memory": "Memory",
    "scale": "Batch and blur by blocks",
}

_VERSION_NAMES = {
    "blurapp": "BlurApp",
    "python": "Python",
    "numpy": "NumPy",
    "jax": "JAX",
    "jaxlib": "jaxlib",
    "scipy": "SciPy",
    "opencv": "OpenCV",
}


def _number(value: float, unit: str) -> str:
    if unit == "×" and abs(value) < 10:
        return f"{value:.2f}"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def _figure_cell(row: dict) -> str:
    if row["value"] is None:
        return "—"
    unit = row["unit"]
    text = _number(row["value"], unit)
    if row.get("low") is not None and row.get("high") is not None:
        text += f" ({_number(row['low'], unit)}–{_number(row['high'], unit)})"
    return f"{text}{unit}" if unit in ("×", "%") else f"{text} {unit}"


def _cell(text: str | None) -> str:
    return "" if text is None else str(text).replace("|", "\\|").replace("\n", " ")


def _machine_line(machine: dict) -> str:
    memory = machine.get("memory_bytes")
    parts = [machine.get("system"), machine.get("cpu"), f"{machine.get('cores')} cores"]
    if memory:
        parts.append(f"{memory / 2**30:.0f} GiB memory")
    text = ", ".join(str(part) for part in parts if part)
    return f"{text}; JAX device: {machine.get('device')}"


def record_markdown(record: dict) -> str:
    """A record as Markdown: the command, machine, versions and date, then a table per
    section (what, engine, figure with its range, how measured), in the rows' order."""
    versions = ", ".join(
        f"{_VERSION_NAMES.get(name, name)} {version}"
        for name, version in record["versions"].items()
        if version is not None
    )
    lines = [
        f"- **Command:** `{record['command']}`",
        f"- **Machine:** {_machine_line(record['machine'])}",
        f"- **Versions:** {versions}",
        f"- **Date:** {record['date']}",
    ]
    if record.get("note"):
        lines.append(f"- **Conditions:** {record['note']}")
    sections: dict[str, list[dict]] = {}
    for row in record["rows"]:
        sections.setdefault(row["section"], []).append(row)
    for section, rows in sections.items():
        lines += [
            "",
            f"**{_SECTION_TITLES.get(section, section)}**",
            "",
            "| what | engine | figure | how measured |",
            "| --- | --- | --- | --- |",
        ]
        lines += [
            f"| {_cell(row['what'])} | {_cell(row['engine'])} | {_cell(_figure_cell(row))} "
            f"| {_cell(row['how'])} |"
            for row in rows
        ]
    return "\n".join(lines) + "\n"


def document_markdown(document: dict) -> str:
    """Every record of a document as Markdown, one after the other, a rule between."""
    return "\n---\n\n".join(record_markdown(record) for record in document["records"])
