"""The figures of a comparison in words, the same in the command line and the window.

Every phrase goes through `translate` (the window passes Qt's translation; the command line
keeps English). Phrases are marked with QT_TRANSLATE_NOOP so `pyside6-lupdate` finds them here,
without this module importing Qt.
"""

from __future__ import annotations

from typing import NamedTuple

from blurapp.core.comparison import TOLERANCE, ComparisonResult, bandwidth_gb_s
from blurapp.core.engines import get_engine
from blurapp.core.kernel import auto_kernel_size, cuts_gaussian_short, kernel_reach
from blurapp.core.runs import Compilation, EngineRun, PaidFirstCall, Payer
from blurapp.core.spec import describe_kernel
from blurapp.core.wording import QT_TRANSLATE_NOOP, Translate, english

CONTEXT = "Figures"


_english = english


# The names of the rows, as keys and as English labels.
ROW_NAMES = (
    QT_TRANSLATE_NOOP("Figures", "image"),
    QT_TRANSLATE_NOOP("Figures", "kernel"),
    QT_TRANSLATE_NOOP("Figures", "NumPy"),
    QT_TRANSLATE_NOOP("Figures", "JAX first call"),
    QT_TRANSLATE_NOOP("Figures", "JAX steady"),
    QT_TRANSLATE_NOOP("Figures", "speedup"),
    QT_TRANSLATE_NOOP("Figures", "end-to-end speedup"),
    QT_TRANSLATE_NOOP("Figures", "transfers"),
    QT_TRANSLATE_NOOP("Figures", "max abs diff"),
    QT_TRANSLATE_NOOP("Figures", "device"),
    QT_TRANSLATE_NOOP("Figures", "JAX"),
    QT_TRANSLATE_NOOP("Figures", "warning"),
    QT_TRANSLATE_NOOP("Figures", "copy"),
    QT_TRANSLATE_NOOP("Figures", "vs copy"),
)


def steady_key(engine: str, result: ComparisonResult | None = None) -> str:
    """The row (and chart bar) that holds `engine`'s steady time: "JAX steady" for the jit
    engine of `result` (ComparisonResult.jit_engine; without a result, any engine JAX
    compiles), whose figures keep rows of their own as `blurapp compare` has always printed
    them; the engine's title otherwise."""
    if result is None:
        described = get_engine(engine)
        jit = described.jitted
    else:
        described, jit = result.engine(engine), engine == result.jit_engine
    return "JAX steady" if jit else described.title


def difference_key(result: ComparisonResult, engine: str) -> str:
    """The row that holds `engine`'s difference from the reference: the jit engine's "max abs
    diff", every other engine's one row, under its title."""
    return "max abs diff" if engine == result.jit_engine else result.engine(engine).title


FIRST_CALL_NOTES = {
    Compilation.COMPILED: QT_TRANSLATE_NOOP("Figures", "includes compilation"),
    Compilation.FROM_CACHE: QT_TRANSLATE_NOOP(
        "Figures", "program loaded from the compilation cache"
    ),
    Compilation.REUSED: QT_TRANSLATE_NOOP("Figures", "already compiled"),
}


# Where a program's first call was paid, when a later call found it compiled.
PAID_WORDS = {
    (Compilation.COMPILED, Payer.LIVE_PREVIEW): QT_TRANSLATE_NOOP(
        "Figures", "compiled during the live preview"
    ),
    (Compilation.COMPILED, Payer.RUN): QT_TRANSLATE_NOOP(
        "Figures", "compiled during an earlier Run"
    ),
    (Compilation.COMPILED, Payer.SWEEP): QT_TRANSLATE_NOOP("Figures", "compiled during the sweep"),
    (Compilation.FROM_CACHE, Payer.LIVE_PREVIEW): QT_TRANSLATE_NOOP(
        "Figures", "loaded from the compilation cache during the live preview"
    ),
    (Compilation.FROM_CACHE, Payer.RUN): QT_TRANSLATE_NOOP(
        "Figures", "loaded from the compilation cache during an earlier Run"
    ),
    (Compilation.FROM_CACHE, Payer.SWEEP): QT_TRANSLATE_NOOP(
        "Figures", "loaded from the compilation cache during the sweep"
    ),
}
# The chart's bar of a first call paid earlier, by who paid it.
PAID_BARS = {
    Payer.LIVE_PREVIEW: QT_TRANSLATE_NOOP("Figures", "JAX first call (live preview)"),
    Payer.RUN: QT_TRANSLATE_NOOP("Figures", "JAX first call (earlier Run)"),
    Payer.SWEEP: QT_TRANSLATE_NOOP("Figures", "JAX first call (sweep)"),
}
# A first call that found its program compiled, by nobody this session knows of.
UNPAID_BAR = QT_TRANSLATE_NOOP("Figures", "JAX first call (compiled before)")


def paid_words(paid: PaidFirstCall, translate: Translate = _english) -> str:
    """'1,234 ms, compiled during the live preview': a program's first call, as it was paid."""
    return f"{format_ms(paid.seconds)}, {translate(PAID_WORDS[paid.compilation, paid.paid_by])}"


def first_call_words(
    run: EngineRun, paid: PaidFirstCall | None, translate: Translate = _english
) -> str:
    """A compiled engine's first call: its own, with how it got its program; or, when it found
    the program compiled, what that program's first call cost and where, then its own."""
    assert run.compilation is not None, "a first call of an engine that compiles"
    own = f"{format_ms(run.first_call_seconds)} ({translate(FIRST_CALL_NOTES[run.compilation])})"
    if paid is None:
        return own
    this_call = translate(QT_TRANSLATE_NOOP("Figures", "this Run's first call {own}"))
    return f"{paid_words(paid, translate)}; {this_call.format(own=own)}"


def short_kernel_note(size: int, sigma: float, translate: Translate = _english) -> str | None:
    """A warning when a size × size kernel cuts the Gaussian of `sigma` short, else None."""
    if not cuts_gaussian_short(size, sigma):
        return None
    text = QT_TRANSLATE_NOOP(
        "Figures",
        "the {size} × {size} kernel reaches only {reach}σ from its centre, so sigma {sigma} is "
        "cut short and the blur looks boxy; {auto} × {auto} (auto) would reach 3σ",
    )
    return translate(text).format(
        size=size,
        reach=f"{kernel_reach(size, sigma):.2f}",
        sigma=f"{sigma:g}",
        auto=auto_kernel_size(sigma),
    )


def format_ms(seconds: float | None) -> str:
    """Seconds as milliseconds with about three significant digits: '1,532 ms', '4.21 ms';
    '—' for a time not measured."""
    if seconds is None:
        return "—"
    ms = seconds * 1000
    if ms >= 100:
        return f"{ms:,.0f} ms"
    if ms >= 10:
        return f"{ms:.1f} ms"
    if ms >= 1:
        return f"{ms:.2f} ms"
    return f"{ms:.3f} ms"


def format_timed(run: EngineRun, translate: Translate = _english) -> str:
    """An engine's steady time with how it was measured: '10.9 ms (median of 23,
    middle half 10.7–11.0 ms)'; a time measured once stands alone."""
    count = len(run.repeat_seconds)
    if count < 2:
        return format_ms(run.seconds)
    low, high = run.quartiles
    if run.calls_per_sample > 1:
        spread = translate(
            QT_TRANSLATE_NOOP(
                "Figures", "median of {count} samples of {number} calls, middle half {low}–{high}"
            )
        )
    else:
        spread = translate(
            QT_TRANSLATE_NOOP("Figures", "median of {count}, middle half {low}–{high}")
        )
    spread = spread.format(
        count=count, number=run.calls_per_sample, low=_ms_number(low), high=format_ms(high)
    )
    return f"{format_ms(run.seconds)} ({spread})"


def _ms_number(seconds: float) -> str:
    """format_ms without its unit, for the first figure of a range."""
    return format_ms(seconds).removesuffix(" ms")


def format_speedup(speedup: float | None) -> str:
    if speedup is None:
        return "—"
    return f"{speedup:,.0f}×" if speedup >= 100 else f"{speedup:.1f}×"


def format_difference(
    diff: float | None, translate: Translate = _english, *, bit_depth: int = 8
) -> str:
    """'2.4e-07 (6.1e-05 of 255 levels), within 1e-05': the levels are the photo's own
    (65,535 for a 16-bit photo)."""
    if diff is None:
        return "—"
    if diff <= TOLERANCE:
        text = QT_TRANSLATE_NOOP(
            "Figures", "{diff} ({levels} of {count} levels), within {tolerance}"
        )
    else:
        text = QT_TRANSLATE_NOOP(
            "Figures", "{diff} ({levels} of {count} levels), NOT within {tolerance}"
        )
    count = 2**bit_depth - 1
    return translate(text).format(
        diff=f"{diff:.2g}",
        levels=f"{diff * count:.2g}",
        count=f"{count:,}",
        tolerance=f"{TOLERANCE:g}",
    )


def format_bandwidth(gb_s: float | None) -> str:
    """'12.9 GB/s', '0.088 GB/s', '2,310 GB/s'; '—' when unknown."""
    if gb_s is None:
        return "—"
    if gb_s >= 100:
        return f"{gb_s:,.0f} GB/s"
    return f"{gb_s:.1f} GB/s" if gb_s >= 1 else f"{gb_s:.2g} GB/s"


def format_multiple(multiple: float | None) -> str:
    """'146×', '3.1×'; '—' when unknown."""
    if multiple is None:
        return "—"
    return f"{multiple:,.0f}×" if multiple >= 10 else f"{multiple:.1f}×"


def noisy_line(result: ComparisonResult, translate: Translate = _english) -> str | None:
    """The warning that the times cannot be trusted, and why; None when they can."""
    verdict = result.verdict
    if verdict is None or not verdict.noisy:
        return None
    text = translate(QT_TRANSLATE_NOOP("Figures", "these times cannot be trusted ({reason})"))
    return text.format(reason=verdict.reason(translate, lambda name: result.engine(name).title))


def floor_lines(result: ComparisonResult, translate: Translate = _english) -> list[tuple[str, str]]:
    """The floor rows: each device's copy of the photo (the least any blur there takes), and
    every engine's time as a multiple of its device's copy, with its effective bandwidth."""
    if not result.floors:
        return []
    on = translate(QT_TRANSLATE_NOOP("Figures", "{time} on {device}, {bandwidth}"))
    copies = ", ".join(
        on.format(
            time=format_ms(floor.seconds),
            device=device,
            bandwidth=format_bandwidth(bandwidth_gb_s(floor.output.nbytes, floor.seconds)),
        )
        for device, floor in result.floors.items()
    )
    meaning = translate(
        QT_TRANSLATE_NOOP(
            "Figures", "the image read once and written once: the least any blur can take"
        )
    )
    multiples = []
    for name in result.runs:
        multiple = result.floor_multiple_of(name)
        if multiple is not None:
            multiples.append(
                f"{result.engine(name).title} {format_multiple(multiple)} "
                f"({format_bandwidth(result.bandwidth_of(name))})"
            )
    times = translate(QT_TRANSLATE_NOOP("Figures", "{engines}: the time of one copy of the image"))
    return [
        ("copy", f"{copies} ({meaning})"),
        ("vs copy", times.format(engines=", ".join(multiples))),
    ]


def format_megapixels(width: int, height: int) -> str:
    """'4000 × 3000 (12.00 MP)'; below 0.01 MP the pixel count itself, '3 × 5 (15 pixels)'."""
    pixels = width * height
    if pixels < 10_000:
        return f"{width} × {height} ({pixels:,} pixels)"
    return f"{width} × {height} ({pixels / 1e6:.2f} MP)"


def comparison_lines(
    result: ComparisonResult,
    image_label: str,
    width: int,
    height: int,
    translate: Translate = _english,
    *,
    bit_depth: int = 8,
    paid: dict[str, PaidFirstCall] | None = None,
) -> list[tuple[str, str]]:
    """(name, value) rows describing a comparison, in the order a reader wants them.

    `paid`: for an engine whose first call found its program compiled, what that program's
    first call cost and who paid it (the window's live preview, an earlier Run, the sweep).

    The reference engine gets its time; the jit engine (ComparisonResult.jit_engine: JAX-jit)
    its rows of old (first call, steady, speedup, transfers, max abs diff, device); every other
    engine one row under its title. Names stay
    English (they are keys; see ROW_NAMES to show them, engine titles are in the "Engines"
    context); values are translated.
    """
    image = f"{image_label}, {format_megapixels(width, height)}"
    if result.channels > 1:
        image += ", " + translate(QT_TRANSLATE_NOOP("Figures", "colour (R, G, B)"))
    rows = [
        ("image", image),
        ("kernel", describe_kernel(result.kernel_size, result.sigma, result.algorithm, translate)),
    ]
    reference = result.runs.get(result.reference)
    jit = result.jit_engine
    if reference is not None:
        rows.append((result.engine(result.reference).title, format_timed(reference, translate)))
    for name in [*result.runs, *result.errors]:
        if name == result.reference:
            continue
        engine = result.engine(name)
        run = result.runs.get(name)
        if run is None:
            unavailable = translate(QT_TRANSLATE_NOOP("Figures", "unavailable: {reason}"))
            key = "JAX" if name == jit else engine.title
            rows.append((key, unavailable.format(reason=result.errors[name])))
            continue
        steady = format_timed(run, translate)
        difference = format_difference(result.differences.get(name), translate, bit_depth=bit_depth)
        if result.channels > 1 and name in result.differences:
            difference += " " + translate(
                QT_TRANSLATE_NOOP("Figures", "(the largest over the {channels} channels)")
            ).format(channels=result.channels)
        if name != jit or run.compilation is None:
            rows.append((engine.title, _one_row(result, name, run, steady, difference, translate)))
            continue
        first = first_call_words(run, (paid or {}).get(name), translate)
        speedup = translate(QT_TRANSLATE_NOOP("Figures", "NumPy ÷ JAX steady"))
        with_copies = translate(
            QT_TRANSLATE_NOOP("Figures", "copies to and from the device ({device}) included")
        )
        end_to_end = format_speedup(result.end_to_end_speedup_of(name))
        transfers = translate(QT_TRANSLATE_NOOP("Figures", "to device {to}, from device {back}"))
        rows += [
            ("JAX first call", first),
            ("JAX steady", steady),
            ("speedup", f"{format_speedup(result.speedup_of(name))} ({speedup})"),
            *([("warning", noisy)] if (noisy := noisy_line(result, translate)) else []),
            ("end-to-end speedup", f"{end_to_end} ({with_copies.format(device=run.device)})"),
            (
                "transfers",
                transfers.format(
                    to=format_ms(run.to_device_seconds), back=format_ms(run.from_device_seconds)
                ),
            ),
            ("max abs diff", difference),
            ("device", run.device),
        ]
    if "warning" not in dict(rows) and (noisy := noisy_line(result, translate)):
        rows.append(("warning", noisy))  # no speed-up of JAX-jit to stand beside
    return rows + floor_lines(result, translate)


def _one_row(
    result: ComparisonResult,
    name: str,
    run: EngineRun,
    steady: str,
    difference: str,
    translate: Translate,
) -> str:
    """An engine beyond the tutorial's pair in one line: steady time, first call, speed-up
    against the reference, difference from it, device."""
    parts = [steady]
    if run.first_call_seconds is not None:
        first = translate(QT_TRANSLATE_NOOP("Figures", "first call {time}"))
        parts.append(first.format(time=format_ms(run.first_call_seconds)))
    speedup = translate(QT_TRANSLATE_NOOP("Figures", "{speedup} NumPy's speed"))
    parts.append(speedup.format(speedup=format_speedup(result.speedup_of(name))))
    parts.append(
        translate(QT_TRANSLATE_NOOP("Figures", "max abs diff {difference}")).format(
            difference=difference
        )
    )
    parts.append(run.device)
    return "; ".join(parts)


class TimingBar(NamedTuple):
    key: str  # the row that holds the time (steady_key, or "JAX first call")
    seconds: float
    colour: str  # the engine's chart colour, '#55a868'


def timing_bars(
    result: ComparisonResult, paid: dict[str, PaidFirstCall] | None = None
) -> list[TimingBar]:
    """Every time a chart of `result` shows, in the tutorial's order: the reference, the
    engines that compile nothing, then the compiled ones (the jit engine's first call before
    its steady time), each in its engine's colour. A first call that found its program
    compiled shows what that program's first call cost, named by who paid it (`paid`, as in
    comparison_lines), or is named as compiled before: never a bare "first call" that is
    only another call."""

    def order(name: str) -> int:
        if name == result.reference:
            return 0
        return 2 if result.runs[name].compilation is not None else 1

    bars = []
    for name in sorted(result.runs, key=order):
        run, engine = result.runs[name], result.engine(name)
        if name == result.jit_engine and run.first_call_seconds is not None:
            colour = engine.first_call_chart_colour
            price = (paid or {}).get(name)
            if price is not None:
                bars.append(TimingBar(PAID_BARS[price.paid_by], price.seconds, colour))
            elif run.compilation is Compilation.REUSED and paid is not None:
                bars.append(TimingBar(UNPAID_BAR, run.first_call_seconds, colour))
            else:
                bars.append(TimingBar("JAX first call", run.first_call_seconds, colour))
        bars.append(TimingBar(steady_key(name, result), run.seconds, engine.chart_colour))
    return bars
