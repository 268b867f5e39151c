"""`blurapp bench --record`: the figures as typed rows (section, what, engine, value, unit,
range, how measured) with the command, machine, versions and date, as strict JSON. The
performance page's tables are made from such records (blurapp.bench.record_markdown)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from blurapp.bench import FIRST_CALL_COMPARE, record_machine, record_versions
from blurapp.bench.clips import clip_file_rows, playing_rows
from blurapp.bench.report import image_size
from blurapp.bench.video import video_rows
from blurapp.bench.yardsticks import ENTRIES, FLOORS, RATIOS
from blurapp.core.engines import REFERENCE_ENGINE, get_engine
from blurapp.core.measuring.comparison import json_key

if TYPE_CHECKING:
    from blurapp.core.engines import Engine


# What a record file holds, so that a reader can tell it from `--json`'s report.
RECORD_FORMAT = "blurapp-bench-record"
RECORD_FORMAT_VERSION = 1
# The engines section's rows of one image and kernel are told apart by these endings of their
# "what" ("670×447 (0.3 MP), 9×9 2d, first call"); the README's headline table reads them back.
FIRST_CALL = "first call"
SPEED_UP = "speed-up"
END_TO_END = "end to end"
ONE_COPY = "one copy of the image"
COMPUTE_FLOOR = "compute floor"
# Each engine's distance to the two floors, and the rates it reached.
TIMES_COPY = "× one copy"
TIMES_COMPUTE = "× the compute floor"
GFLOP_S = "GFLOP/s"
GB_S = "GB/s"
# The engines rows' kinds that are not an engine's own time, first call or speed-up.
FLOOR_KINDS = (ONE_COPY, COMPUTE_FLOOR, TIMES_COPY, TIMES_COMPUTE, GFLOP_S, GB_S)
# Figures keep this many significant digits: a median of a few timed calls says no more.
_DIGITS = 4


def _value(number: float | None, scale: float = 1.0) -> float | None:
    """`number` × `scale` to _DIGITS significant digits; None for none, or for NaN and
    infinity, which strict JSON cannot hold."""
    if number is None or not math.isfinite(number * scale):
        return None
    return float(f"{number * scale:.{_DIGITS}g}")


def _page_faults(entry: dict) -> str:
    """A yardstick's median page faults in words: "not counted on this system" where it does
    not count them (blurapp.bench.yardsticks.counts_page_faults)."""
    faults = entry.get("median_page_faults")
    return "not counted on this system" if faults is None else f"{faults:.0f}"


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
            f"{image_size(result)} ({result['megapixels']:.2g} MP), "
            f"{kernel['size']}×{kernel['size']} {kernel['algorithm']}"
        )
        noisy = f"; flagged noisy: {result['noisy_reason']}" if result.get("noisy") else ""
        for engine in engines:
            figures = result.get(json_key(engine.name))
            if figures is None:
                continue
            if figures.get("error"):
                rows.append(_row("engines", what, engine.title, None, "ms", figures["error"]))
                continue
            if engine.compiles and figures.get("first_call_seconds") is not None:
                rows.append(
                    _row(
                        "engines",
                        f"{what}, {FIRST_CALL}",
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
            rows += _floor_rows(what, engine, figures, result)
            if engine.name != reference.name and figures.get("speedup") is not None:
                spread = figures.get("speedup_spread")
                rows.append(
                    _row(
                        "engines",
                        f"{what}, {SPEED_UP}",
                        engine.title,
                        _value(figures["speedup"]),
                        "×",
                        f"{reference.title} ÷ this engine in each round, the median; "
                        "range: the middle half"
                        if spread is not None
                        else f"{reference.title}'s median ÷ this engine's",
                        (_value(spread[0]), _value(spread[1])) if spread is not None else None,
                    )
                )
            if figures.get("to_device_seconds") is not None and figures.get("speedup_end_to_end"):
                bands = figures.get("end_to_end_bands") or 1
                how = (
                    f"in {bands} bands, their copies overlapping the blur"
                    if bands > 1
                    else "one copy each way, waited for in turn"
                )
                rows.append(
                    _row(
                        "engines",
                        f"{what}, {SPEED_UP} {END_TO_END}",
                        engine.title,
                        _value(figures["speedup_end_to_end"]),
                        "×",
                        f"{reference.title}'s median ÷ this engine's median steady call with "
                        f"its copies to and from the device ({how})",
                    )
                )
        if result.get("floor_seconds") is not None:
            rows.append(
                _row(
                    "engines",
                    f"{what}, {ONE_COPY}",
                    reference.title,
                    _value(result["floor_seconds"], 1000),
                    "ms",
                    "the least any blur can take on this device (median of the copies)",
                )
            )
        rows += _compute_floor_rows(what, result)
    return rows


def _compute_floor_rows(what: str, result: dict) -> list[dict]:
    """The compute floor of the reference's device (of the first engine's, when it did not
    run): the blur's multiply-adds at the rate of a matrix product there."""
    seconds, floors = result.get("compute_floor_seconds"), result.get("compute_floors") or {}
    if seconds is None or not floors:
        return []
    floor = next(iter(floors.values()))
    count = result["kernel"].get("multiply_adds_per_pixel")
    how = (
        f"{count} multiply-adds a pixel at the quickest of {floor['products_timed']} float32 "
        f"{floor['matrix_size']}×{floor['matrix_size']} matrix products on this device "
        f"({_value(floor['gflop_s'])} GFLOP/s), timed after the engines' rounds in the same "
        "comparison: the least its arithmetic can take"
    )
    return [_row("engines", f"{what}, {COMPUTE_FLOOR}", None, _value(seconds, 1000), "ms", how)]


def _floor_rows(what: str, engine: Engine, figures: dict, result: dict) -> list[dict]:
    """`engine`'s median as a multiple of each floor of its device, and the rates it reached."""
    count = result["kernel"].get("multiply_adds_per_pixel")
    rows = []
    for kind, key, unit, how in (
        (TIMES_COPY, "floor_multiple", "×", "its median ÷ one copy of the image on its device"),
        (
            TIMES_COMPUTE,
            "compute_floor_multiple",
            "×",
            "its median ÷ the compute floor of its device",
        ),
        (
            GFLOP_S,
            "gflop_s",
            "GFLOP/s",
            f"{count} multiply-adds a pixel (2 FLOP each) ÷ its median",
        ),
        (GB_S, "bandwidth_gb_s", "GB/s", "the image read once and written once ÷ its median"),
    ):
        if figures.get(key) is not None:
            rows.append(
                _row("engines", f"{what}, {kind}", engine.title, _value(figures[key]), unit, how)
            )
    return rows


def _yardstick_rows(figures: dict) -> list[dict]:
    def library(key: str) -> str:
        if key.startswith("jax"):
            return "JAX-jit"
        if key.startswith(("pallas", "vector")):
            return "JAX Pallas"
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
        if key not in figures["entries"]:  # left out here (JAX Pallas's, off a TPU)
            continue
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
        if entry.get("median_kernel_seconds") is not None:
            rows.append(
                _row(
                    "yardsticks",
                    f"{label}, {image}, in the kernel",
                    library(key),
                    _value(entry["median_kernel_seconds"], 1000),
                    "ms",
                    "the median over the rounds of its call's CPU time in the kernel (all "
                    f"threads), and of its page faults: {_page_faults(entry)}",
                )
            )
    for key, rate in figures.get("floor_rates", {}).items():
        rows.append(
            _row(
                "yardsticks",
                f"{FLOORS[key]}, float32 multiply-adds a second",
                library(key),
                _value(rate / 1e9),
                "G multiply-adds/s",
                "its multiply-adds ÷ its quickest round",
            )
        )
        rows.append(
            _row(
                "yardsticks",
                f"{FLOORS[key]}, float32",
                library(key),
                _value(2 * rate / 1e9),
                GFLOP_S,
                "two FLOPs a multiply-add, ÷ its quickest round",
            )
        )
    for ratio in RATIOS:
        if ratio.key not in figures["ratios"]:  # its entries left out here
            continue
        goal = "" if ratio.goal is None else f"; goal ≤ {ratio.goal:g}"
        # The floor divided by: the matrix product, or the vector unit's chains.
        floor = "the product" if ratio.denominator == "jax_gemm" else FLOORS.get(ratio.denominator)
        rows.append(
            _row(
                "yardsticks",
                ratio.label,
                "JAX Pallas" if ratio.numerator.startswith("pallas") else "JAX-jit",
                _value(figures["ratios"][ratio.key]),
                "×",
                (
                    f"each one's time for a multiply-add: the blur's median, {floor}'s"
                    f" quickest{goal}"
                    if ratio.per_multiply_add
                    else f"ratio of the two medians above{goal}"
                ),
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
        how = (
            f"blurapp compare {' '.join(FIRST_CALL_COMPARE)} in a fresh process, JAX's"
            " compilation cache in a new folder"
        )
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
    if "longest_stall_after_shown_seconds" in figures:
        rows.append(
            _row(
                "startup",
                "longest stall after shown",
                None,
                _value(figures["longest_stall_after_shown_seconds"], 1000),
                "ms",
                f"the longest of {figures['runs']} windows opening on the bundled photo, from "
                "their first paint until the photo was shown and JAX had started; a 10 ms timer",
            )
        )
    return rows


def _window_rows(figures: dict) -> list[dict]:
    if "error" in figures:
        return [_row("window", "the window probe", None, None, "ms", str(figures["error"]))]
    how = f"a real window, offscreen, a {figures['megapixels']:.0f} MP photo, a 10 ms timer"
    rows = [
        _row("window", what, None, _value(figures[key], 1000), "ms", how)
        for key, what in (
            ("longest_stall_seconds", "longest stall of the event loop during a comparison"),
            ("longest_stall_after_shown_seconds", "longest stall after shown"),
            ("result_to_both_panes_painted_seconds", "results shown → both panes painted"),
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
        if live.get("engine_end_to_end_median_seconds") is not None:
            engine_how = (
                "JAX-jit alone in the same process, the median of steady calls with their "
                "copies (as compare times end to end)"
            )
            rows += [
                _row(
                    "live",
                    f"{what}, engine end to end",
                    "JAX-jit",
                    _value(live["engine_end_to_end_median_seconds"], 1000),
                    "ms",
                    engine_how,
                ),
                _row(
                    "live",
                    f"{what}, window ÷ engine",
                    "JAX-jit",
                    _value(live["window_over_engine"], 1),
                    "×",
                    "the live preview's median ÷ the engine's end to end, in one run",
                ),
            ]
    return rows


def _memory_rows(figures: dict) -> list[dict]:
    how = "peak resident set of the whole process"
    return [
        _row(
            "memory",
            "JAX alone, its device opened (the floor)",
            None,
            _value(figures["jax_alone_peak_bytes"], 1e-6),
            "MB",
            f"{how}: JAX loaded as BlurApp loads it, one small jitted call on its device",
        ),
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
    # gpu_break_even: the accelerator's break-even in records made before any accelerator
    # but a GPU was named.
    for key in ("break_even", "accelerator_break_even", "gpu_break_even"):
        if sweep.get(key):
            rows += _break_even_rows(sweep[key])
    return rows


def _break_even_rows(found: dict) -> list[dict]:
    """The size from which the sweep's engine beats its reference, steady and end to end."""
    engine, reference = get_engine(found["engine"]).title, get_engine(found["reference"]).title
    if found.get("engine_platform"):  # JAX's default device, an accelerator
        engine = f"{engine} ({found['engine_platform'].upper()})"
    rows = []
    for calls in ("steady", "end_to_end"):
        crossing = found.get(calls)
        if crossing is None:
            continue
        how = {
            "between": "where the speed-up crosses 1× on log–log axes, between {0:g} and {1:g} MP",
            "smallest": "faster at every size measured: the smallest one",
            "never": "not faster at the largest size measured",
        }[crossing["crossing"]].format(*(crossing.get("between") or ()))
        words = "steady calls" if calls == "steady" else "end to end"
        what = f"break-even size against {reference}, {words}"
        rows.append(_row("sweep", what, engine, _value(crossing["megapixels"]), "MP", how))
    return rows


def _video_rows(figures: dict) -> list[dict]:
    return video_rows(figures, _row, _value)


def _playing_rows(figures: dict) -> list[dict]:
    return playing_rows(figures, _row, _value)


def _clip_file_rows(figures: dict) -> list[dict]:
    return clip_file_rows(figures, _row, _value)


_SECTION_ROWS: dict[str, Callable[[dict], list[dict]]] = {
    "yardsticks": _yardstick_rows,
    "first-call": _first_call_rows,
    "startup": _startup_rows,
    "window": _window_rows,
    "live": _live_rows,
    "memory": _memory_rows,
    "scale": _scale_rows,
    "video": _video_rows,
    "playing": _playing_rows,
    "clip-file": _clip_file_rows,
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
    """The document as strict JSON (no NaN or Infinity: ValueError if one slipped in), UTF-8
    text: a file name that is not UTF-8 (in the command, a photo's path) has U+FFFD for each
    byte that is not, as the command line prints it."""
    text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate no file name's byte was read as
        return text.encode("utf-8", "replace").decode("utf-8")


def read_record_document(text: str, name: str) -> dict:
    """A record document from its JSON text; ValueError naming `name` when it is not one."""

    def refuse(constant: str) -> None:
        raise ValueError(f"{name}: {constant} is not a number strict JSON allows")

    document = json.loads(text, parse_constant=refuse)
    if not isinstance(document, dict) or document.get("format") != RECORD_FORMAT:
        raise ValueError(f'{name}: not a record of `blurapp bench --record` (no "format")')
    return document
