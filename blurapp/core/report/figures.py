"""The figures of a comparison in words, the same in the command line and the window.

Every phrase goes through `translate` (the window passes Qt's translation; the command line
keeps English). Phrases are marked with QT_TRANSLATE_NOOP so `pyside6-lupdate` finds them here,
without this module importing Qt.
"""

from __future__ import annotations

from dataclasses import dataclass

from blurapp.core.engines import REFERENCE_ENGINE, get_engine
from blurapp.core.engines.runs import CacheLookup, Compilation, EngineRun, PaidFirstCall, Payer
from blurapp.core.kernel import (
    Algorithm,
    auto_kernel_size,
    cuts_gaussian_short,
    kernel_reach,
    multiply_adds_per_pixel,
)
from blurapp.core.measuring.comparison import TOLERANCE, ComparisonResult, LedByJit
from blurapp.core.platforms import on_accelerator
from blurapp.core.spec import describe_kernel
from blurapp.core.wording import QT_TRANSLATE_NOOP, TranslateText, english

CONTEXT = "Figures"


_english = english


@dataclass(frozen=True)
class Figure:
    """One row of a comparison's figures, made once here for the window, the notebook and
    `blurapp compare`.

    `key` names the row for a program and never changes with the language or the engines'
    titles ("speedup", "numpy.steady", "jit.first_call", "engine.jax-eager"; the table is in
    the API docs). `label` is its English name (a phrase of ROW_NAMES, or an engine's title),
    which the window shows translated. `value` is the number the row is about in `unit`
    ("s", "×", "MP", "" for a plain number), or None when the row holds words or several
    numbers. `figure` is that number as a reader sees it first ("10.3 ms"), `measured` the
    words after it saying how it was measured or what it means ("(median of 23, middle half
    10.1–10.5 ms)"), and `text` the two together as `blurapp compare` prints them. `alarming`:
    the row says something is wrong (a difference outside the tolerance, times that cannot be
    trusted).
    """

    key: str
    label: str
    value: float | None
    unit: str
    figure: str
    measured: str = ""
    # Between the figure and `measured` in `text`: a space before words in brackets, ", " or
    # "; " before words that go on from the figure.
    separator: str = " "
    alarming: bool = False

    @property
    def text(self) -> str:
        """The row's value as printed, the figure and then how it was measured."""
        return f"{self.figure}{self.separator}{self.measured}" if self.measured else self.figure


def figure_of_words(key: str, label: str, text: str, *, alarming: bool = False) -> Figure:
    """A row of words, no number: the figure is the whole text."""
    return Figure(key, label, None, "", text, alarming=alarming)


def kernel_figure(
    size: int, sigma: float, algorithm: Algorithm, translate: TranslateText = _english
) -> Figure:
    """The "kernel" row: its size, sigma and algorithm in words."""
    return figure_of_words("kernel", "kernel", describe_kernel(size, sigma, algorithm, translate))


def unavailable_figure(
    key: str, label: str, reason: str, translate: TranslateText = _english
) -> Figure:
    """The row of an engine that did not run, saying why."""
    unavailable = translate(QT_TRANSLATE_NOOP("Figures", "unavailable: {reason}"))
    return figure_of_words(key, label, unavailable.format(reason=reason))


def speedup_figure(speedup: float | None, measured: str = "") -> Figure:
    """The "speedup" row: the reference's steady time ÷ the jit engine's."""
    return Figure("speedup", "speedup", speedup, "×", format_speedup(speedup), measured)


def end_to_end_speedup_figure(speedup: float | None, measured: str = "") -> Figure:
    """The "speedup_end_to_end" row: the speed-up with the copies to and from the device."""
    return Figure(
        "speedup_end_to_end", "end-to-end speedup", speedup, "×", format_speedup(speedup), measured
    )


def max_abs_diff_figure(
    difference: float | None, parts: tuple[str, str], *, alarming: bool
) -> Figure:
    """The "max_abs_diff" row: the jit engine's largest difference from the reference, in
    `parts` (difference_parts' number and words)."""
    return Figure("max_abs_diff", "max abs diff", difference, "", *parts, alarming=alarming)


# The names of the rows, as English labels.
ROW_NAMES = (
    QT_TRANSLATE_NOOP("Figures", "image"),
    QT_TRANSLATE_NOOP("Figures", "kernel"),
    QT_TRANSLATE_NOOP("Figures", "NumPy"),
    QT_TRANSLATE_NOOP("Figures", "JAX first call"),
    QT_TRANSLATE_NOOP("Figures", "first call parts"),
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
    QT_TRANSLATE_NOOP("Figures", "compute"),
    QT_TRANSLATE_NOOP("Figures", "vs compute"),
    QT_TRANSLATE_NOOP("Figures", "call"),
    QT_TRANSLATE_NOOP("Figures", "vs call"),
)


def steady_label(engine: str, result: ComparisonResult | None = None) -> str:
    """The English name of the row (and chart bar) that holds `engine`'s steady time: "JAX
    steady" for the jit engine of `result` (ComparisonResult.jit_engine; without a result, any
    engine JAX compiles), whose figures keep rows of their own as `blurapp compare` has always
    printed them; the engine's title otherwise."""
    if result is None:
        described = get_engine(engine)
        jit = described.jitted
    else:
        described, jit = result.engine(engine), engine == result.jit_engine
    return "JAX steady" if jit else described.title


def steady_key(engine: str, result: ComparisonResult | None = None) -> str:
    """The key of the row that holds `engine`'s steady time: "jit.steady" for the jit engine
    (as steady_label decides it), "numpy.steady" for the reference, "engine.NAME" for every
    other engine's one row."""
    if steady_label(engine, result) == "JAX steady":
        return "jit.steady"
    reference = REFERENCE_ENGINE if result is None else result.reference
    return f"{engine}.steady" if engine == reference else f"engine.{engine}"


def steady_figure(engine: str, seconds: float, note: str) -> Figure:
    """`engine`'s steady time under its row's key and label, with a `note` in brackets after
    it: a time the window keeps from an earlier run ('0.200 ms (earlier run, out of date)')."""
    label = steady_label(engine)
    return Figure(steady_key(engine), label, seconds, "s", format_ms(seconds), f"({note})")


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


def paid_words(paid: PaidFirstCall, translate: TranslateText = _english) -> str:
    """'1,234 ms, compiled during the live preview': a program's first call, as it was paid."""
    return f"{format_ms(paid.seconds)}, {translate(PAID_WORDS[paid.compilation, paid.paid_by])}"


def first_call_figure(
    run: EngineRun, paid: PaidFirstCall | None, translate: TranslateText = _english
) -> Figure:
    """A compiled engine's first call: its own, with how it got its program; or, when it found
    the program compiled, what that program's first call cost and where, then its own."""
    assert run.compilation is not None, "a first call of an engine that compiles"
    label = "JAX first call"
    own = f"{format_ms(run.first_call_seconds)} ({translate(FIRST_CALL_NOTES[run.compilation])})"
    if paid is None:
        note = f"({translate(FIRST_CALL_NOTES[run.compilation])})"
        figure = format_ms(run.first_call_seconds)
        return Figure("jit.first_call", label, run.first_call_seconds, "s", figure, note)
    this_call = translate(QT_TRANSLATE_NOOP("Figures", "this Run's first call {own}"))
    words = f"{translate(PAID_WORDS[paid.compilation, paid.paid_by])}; {this_call.format(own=own)}"
    figure = format_ms(paid.seconds)
    return Figure("jit.first_call", label, paid.seconds, "s", figure, words, separator=", ")


CACHE_WORDS = {
    CacheLookup.HIT: QT_TRANSLATE_NOOP("Figures", "cache hit"),
    CacheLookup.MISS: QT_TRANSLATE_NOOP("Figures", "cache miss"),
    CacheLookup.OFF: QT_TRANSLATE_NOOP("Figures", "cache off"),
}


def first_call_parts_figure(run: EngineRun, translate: TranslateText = _english) -> Figure | None:
    """A compiled engine's first call taken apart: '412 ms = trace 18.0 + lower 88.5 + compile
    289 (cache miss) + run 15.0 + other 1.20 ms; copies 0.400 ms besides'; None when it found
    its program compiled (it has no parts then)."""
    parts = run.first_call_parts
    if parts is None:
        return None
    words = translate(
        QT_TRANSLATE_NOOP(
            "Figures",
            "= trace {tracing} + lower {lowering} + compile {compiling} ({cache}) + run {run} + "
            "other {other}; copies to and from the device {copies} besides",
        )
    ).format(
        tracing=_ms_number(parts.tracing_seconds),
        lowering=_ms_number(parts.lowering_seconds),
        compiling=_ms_number(parts.compiling_seconds),
        cache=translate(CACHE_WORDS[parts.cache]),
        run=_ms_number(parts.first_run_seconds),
        other=format_ms(parts.other_seconds),
        copies=format_ms(parts.copies_seconds),
    )
    seconds = run.first_call_seconds  # what the parts add up to
    return Figure(
        "jit.first_call_parts", "first call parts", seconds, "s", format_ms(seconds), words
    )


def first_call_words(
    run: EngineRun, paid: PaidFirstCall | None, translate: TranslateText = _english
) -> str:
    """first_call_figure's words: '1,234 ms (includes compilation)'."""
    return first_call_figure(run, paid, translate).text


def short_kernel_note(size: int, sigma: float, translate: TranslateText = _english) -> str | None:
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


def format_timed(run: EngineRun, translate: TranslateText = _english) -> str:
    """An engine's steady time with how it was measured: '10.9 ms (median of 23,
    middle half 10.7–11.0 ms)', '2,410 ms (one call)'."""
    figure, measured = _timed(run, translate)
    return f"{figure} {measured}" if measured else figure


def _timed(run: EngineRun, translate: TranslateText) -> tuple[str, str]:
    """format_timed's time, and the words in brackets after it saying how it was measured."""
    count = len(run.repeat_seconds)
    # A call slower than the timing's budget is timed once (a 40 MP photo's NumPy blur): said
    # so, as a median is, rather than left for the reader to guess.
    if count == 0:
        once = translate(QT_TRANSLATE_NOOP("Figures", "first call only"))
        return format_ms(run.seconds), f"({once})"
    if count == 1:
        if run.calls_per_sample > 1:
            once = translate(QT_TRANSLATE_NOOP("Figures", "one sample of {number} calls"))
        else:
            once = translate(QT_TRANSLATE_NOOP("Figures", "one call"))
        return format_ms(run.seconds), f"({once.format(number=run.calls_per_sample)})"
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
    return format_ms(run.seconds), f"({spread})"


def _ms_number(seconds: float) -> str:
    """format_ms without its unit, for the first figure of a range."""
    return format_ms(seconds).removesuffix(" ms")


def format_speedup(speedup: float | None) -> str:
    if speedup is None:
        return "—"
    return f"{speedup:,.0f}×" if speedup >= 100 else f"{speedup:.1f}×"


def format_difference(
    diff: float | None, translate: TranslateText = _english, *, bit_depth: int = 8
) -> str:
    """'2.4e-07 (6.1e-05 of 255 levels), within 1e-05': the levels are the photo's own
    (65,535 for a 16-bit photo)."""
    figure, measured = difference_parts(diff, translate, bit_depth)
    return f"{figure} {measured}" if measured else figure


def difference_parts(
    diff: float | None, translate: TranslateText, bit_depth: int
) -> tuple[str, str]:
    """format_difference's number, and the words after it."""
    if diff is None:
        return "—", ""
    if diff <= TOLERANCE:
        text = QT_TRANSLATE_NOOP("Figures", "({levels} of {count} levels), within {tolerance}")
    else:
        text = QT_TRANSLATE_NOOP("Figures", "({levels} of {count} levels), NOT within {tolerance}")
    count = 2**bit_depth - 1
    words = translate(text).format(
        levels=f"{diff * count:.2g}", count=f"{count:,}", tolerance=f"{TOLERANCE:g}"
    )
    return f"{diff:.2g}", words


def format_bandwidth(gb_s: float | None) -> str:
    """'12.9 GB/s', '0.088 GB/s', '2,310 GB/s'; '—' when unknown."""
    return _format_rate(gb_s, "GB/s")


def format_gflop_s(gflop_s: float | None) -> str:
    """'39.4 GFLOP/s', '0.088 GFLOP/s', '51,200 GFLOP/s'; '—' when unknown."""
    return _format_rate(gflop_s, "GFLOP/s")


def _format_rate(rate: float | None, unit: str) -> str:
    if rate is None:
        return "—"
    if rate >= 100:
        return f"{rate:,.0f} {unit}"
    return f"{rate:.1f} {unit}" if rate >= 1 else f"{rate:.2g} {unit}"


def format_multiple(multiple: float | None) -> str:
    """'146×', '3.1×'; '—' when unknown."""
    if multiple is None:
        return "—"
    if multiple < 1:  # quicker than a floor: a floor measured on a busy machine
        return f"{multiple:.2g}×"
    return f"{multiple:,.0f}×" if multiple >= 10 else f"{multiple:.1f}×"


def noisy_figure(result: LedByJit, translate: TranslateText = _english) -> Figure | None:
    """The warning that the times of a photo's or a clip's comparison cannot be trusted, and
    why; None when they can."""
    verdict = result.verdict
    if verdict is None or not verdict.noisy:
        return None
    words = translate(QT_TRANSLATE_NOOP("Figures", "these times cannot be trusted"))
    reason = verdict.reason(translate, lambda name: result.engine(name).title)
    return Figure("warning", "warning", None, "", words, f"({reason})", alarming=True)


def floor_figures(result: ComparisonResult, translate: TranslateText = _english) -> list[Figure]:
    """The floor rows: each device's copy of the photo (the least any blur there takes), and
    every engine's time as a multiple of its device's copy, with its effective bandwidth; then
    the call floor's (call_floor_figures) and the compute floor's (compute_floor_figures)."""
    if not result.floors:
        return call_floor_figures(result, translate) + compute_floor_figures(result, translate)
    on = translate(QT_TRANSLATE_NOOP("Figures", "{time} on {device}, {bandwidth}"))
    copies = ", ".join(
        on.format(
            time=format_ms(floor.seconds),
            device=floor.device,
            bandwidth=format_bandwidth(floor.bandwidth_gb_s),
        )
        for floor in result.floors
    )
    meaning = translate(
        QT_TRANSLATE_NOOP(
            "Figures", "the image read once and written once: the least any blur can take"
        )
    )
    multiples, beaten = [], False
    for name in result.runs:
        multiple = result.floor_multiple_of(name)
        if multiple is not None:
            beaten = beaten or multiple < 1
            multiples.append(
                f"{result.engine(name).title} {format_multiple(multiple)} "
                f"({format_bandwidth(result.bandwidth_of(name))})"
            )
    times = translate(QT_TRANSLATE_NOOP("Figures", "{engines}: the time of one copy of the image"))
    vs_copy = times.format(engines=", ".join(multiples))
    if beaten:
        vs_copy += "; " + translate(
            QT_TRANSLATE_NOOP(
                "Figures",
                "under 1×: quicker than the copy as it was timed, so no bound this time "
                "(a copy caught by another program, or a photo small enough to stay in the "
                "cache between calls)",
            )
        )
    return [
        Figure("copy", "copy", result.floor_seconds, "s", copies, f"({meaning})"),
        figure_of_words("vs_copy", "vs copy", vs_copy),
        *call_floor_figures(result, translate),
        *compute_floor_figures(result, translate),
    ]


def device_name(device: str, translate: TranslateText = _english) -> str:
    """A device as a sentence names it: 'the TPU v5 lite', 'the NVIDIA H200' (an engine's
    run's 'tpu: TPU v5 lite'), 'the CPU'."""
    platform, _, name = device.partition(":")
    if not name.strip():
        if on_accelerator(platform):
            return device
        return translate(QT_TRANSLATE_NOOP("Figures", "the CPU"))
    return translate(QT_TRANSLATE_NOOP("Figures", "the {device}")).format(device=name.strip())


def call_floor_figures(
    result: ComparisonResult, translate: TranslateText = _english
) -> list[Figure]:
    """The call floor's rows: an empty call on each device that has one (the least any call
    there takes), and each engine's time as a multiple of it; where an engine's time is
    mostly the call (floors.MOSTLY_THE_CALL), that the photo is too small for its device to
    matter."""
    if not result.call_floors:
        return []
    on = translate(QT_TRANSLATE_NOOP("Figures", "{time} on {device}"))
    calls = ", ".join(
        on.format(time=format_ms(floor.seconds), device=floor.device)
        for floor in result.call_floors
    )
    meaning = translate(
        QT_TRANSLATE_NOOP(
            "Figures", "an empty jitted call on one number, waited for: the least a call takes"
        )
    )
    multiples, too_small = [], []
    for name in result.runs:
        multiple = result.call_floor_multiple_of(name)
        if multiple is not None:
            multiples.append(f"{result.engine(name).title} {format_multiple(multiple)}")
        if result.mostly_the_call(name):
            too_small.append(device_name(result.runs[name].device, translate))
    times = translate(QT_TRANSLATE_NOOP("Figures", "{engines}: the time of an empty call"))
    vs_call = figure_of_words("vs_call", "vs call", times.format(engines=", ".join(multiples)))
    if too_small:
        said = translate(
            QT_TRANSLATE_NOOP(
                "Figures",
                "this photo is too small for {device} to matter: the time is the call itself",
            )
        ).format(device=" / ".join(dict.fromkeys(too_small)))
        vs_call = Figure("vs_call", "vs call", None, "", vs_call.figure, f"({said})")
    first = result.call_floors[0].seconds
    return [Figure("call", "call", first, "s", calls, f"({meaning})"), vs_call]


def compute_floor_figures(
    result: ComparisonResult, translate: TranslateText = _english
) -> list[Figure]:
    """The compute floor's rows: this blur's multiply-adds at each device's float32 rate (a
    matrix product's there: the least its arithmetic can take), and every engine's time as a
    multiple of its device's, with the GFLOP/s it reached."""
    if not result.compute_floors:
        return []
    on = translate(
        QT_TRANSLATE_NOOP(
            "Figures", "{time} on {device}, {rate} in a {size} × {size} matrix product"
        )
    )
    # A rate of a unit the blur never uses (ComputeFloor.on_a_matrix_unit) says so.
    other_unit = translate(
        QT_TRANSLATE_NOOP("Figures", "on its matrix unit; the blur runs on its vector unit")
    )
    devices = []
    for floor in result.compute_floors:
        seconds = floor.seconds_for(result.multiply_adds)
        words = on.format(
            time=format_ms(seconds),
            device=floor.device,
            rate=format_gflop_s(floor.gflop_s),
            size=floor.size,
        )
        devices.append(f"{words} {other_unit}" if floor.on_a_matrix_unit else words)
    meaning = translate(
        QT_TRANSLATE_NOOP(
            "Figures",
            "{count} multiply-adds a pixel at the device's float32 rate: the least they can take",
        )
    ).format(count=multiply_adds_per_pixel(result.kernel_size, result.algorithm))
    multiples, beaten = [], False
    for name in result.runs:
        multiple = result.compute_multiple_of(name)
        if multiple is not None:
            beaten = beaten or multiple < 1
            multiples.append(
                f"{result.engine(name).title} {format_multiple(multiple)} "
                f"({format_gflop_s(result.gflop_s_of(name))})"
            )
    times = translate(
        QT_TRANSLATE_NOOP("Figures", "{engines}: the time of the blur's multiply-adds at that rate")
    )
    vs_compute = times.format(engines=", ".join(multiples))
    if beaten:
        vs_compute += "; " + translate(
            QT_TRANSLATE_NOOP(
                "Figures",
                "under 1×: quicker than the matrix product's rate as it was timed, so no bound "
                "this time (a product caught by another program, or one too small for the "
                "device's peak)",
            )
        )
    return [
        Figure(
            "compute",
            "compute",
            result.compute_floor_seconds,
            "s",
            ", ".join(devices),
            f"({meaning})",
        ),
        figure_of_words("vs_compute", "vs compute", vs_compute),
    ]


def format_megapixels(width: int, height: int) -> str:
    """'4000 × 3000 (12.00 MP)'; below 0.01 MP the pixel count itself, '3 × 5 (15 pixels)'."""
    pixels = width * height
    if pixels < 10_000:
        return f"{width} × {height} ({pixels:,} pixels)"
    return f"{width} × {height} ({pixels / 1e6:.2f} MP)"


def image_figure(
    image_label: str,
    width: int,
    height: int,
    channels: int = 1,
    translate: TranslateText = _english,
    *,
    note: str | None = None,
) -> Figure:
    """The "image" row: 'street.png, 600 × 400 (0.24 MP)', its value in megapixels; `note`
    (a colour photo blurred in grey: wording.in_grey) is added after it."""
    text = f"{image_label}, {format_megapixels(width, height)}"
    if channels > 1:
        text += ", " + translate(QT_TRANSLATE_NOOP("Figures", "colour (R, G, B)"))
    if note:
        text += f", {note}"
    return Figure("image", "image", width * height / 1e6, "MP", text)


def comparison_figures(
    result: ComparisonResult,
    image_label: str,
    width: int,
    height: int,
    translate: TranslateText = _english,
    *,
    bit_depth: int = 8,
    paid: dict[str, PaidFirstCall] | None = None,
    image_note: str | None = None,
) -> list[Figure]:
    """The figures of a comparison, in the order a reader wants them.

    `image_note`: said after the photo's size (see image_figure).

    `paid`: for an engine whose first call found its program compiled, what that program's
    first call cost and who paid it (the window's live preview, an earlier Run, the sweep).

    The reference engine gets its time; the jit engine (ComparisonResult.jit_engine: JAX-jit)
    its rows of old (first call, steady, speedup, transfers, max abs diff, device); every other
    engine one row under its title. Labels stay English (see ROW_NAMES to show them; engine
    titles are in the "Engines" context); the rest is translated.
    """
    rows = [
        image_figure(image_label, width, height, result.channels, translate, note=image_note),
        kernel_figure(result.kernel_size, result.sigma, result.algorithm, translate),
    ]
    reference = result.runs.get(result.reference)
    jit = result.jit_engine
    if reference is not None:
        title = result.engine(result.reference).title
        figure, measured = _timed(reference, translate)
        key = steady_key(result.reference, result)
        rows.append(Figure(key, title, reference.seconds, "s", figure, measured))
    noisy = noisy_figure(result, translate)
    warning = [noisy] if noisy else []
    for name in [*result.runs, *result.errors]:
        if name == result.reference:
            continue
        engine = result.engine(name)
        run = result.runs.get(name)
        if run is None:
            key, label = ("jit.error", "JAX") if name == jit else (f"engine.{name}", engine.title)
            rows.append(unavailable_figure(key, label, result.errors[name], translate))
            continue
        difference = difference_parts(result.differences.get(name), translate, bit_depth)
        if result.channels > 1 and name in result.differences:
            largest = QT_TRANSLATE_NOOP("Figures", "(the largest over the {channels} channels)")
            largest = translate(largest).format(channels=result.channels)
            difference = (difference[0], f"{difference[1]} {largest}")
        if name != jit or run.compilation is None:
            rows.append(_one_row(result, name, run, difference, translate))
            continue
        alarming = result.agrees(name) is False
        speedup, end_to_end = result.speedup_of(name), result.end_to_end_speedup_of(name)
        ratio = translate(QT_TRANSLATE_NOOP("Figures", "NumPy ÷ JAX steady"))
        spread = result.speedup_spread_of(name)
        if spread is not None:
            # The speed-up moves from one run to the next (docs/timing.md): said beside the
            # figure so that it is quoted with how far it moves.
            rounds = QT_TRANSLATE_NOOP("Figures", "median of {count} rounds, middle half {range}")
            low, high = (format_speedup(value) for value in spread)
            ratio += "; " + translate(rounds).format(
                count=len(result.round_speedups_of(name)),
                range=f"{low.removesuffix('×')}–{high}",
            )
        with_copies = translate(
            QT_TRANSLATE_NOOP("Figures", "copies to and from the device ({device}) included")
        ).format(device=run.device)
        if run.bands > 1:
            in_bands = QT_TRANSLATE_NOOP(
                "Figures", "the photo in {bands} bands, their copies overlapping the blur"
            )
            with_copies += "; " + translate(in_bands).format(bands=run.bands)
        transfers = translate(
            QT_TRANSLATE_NOOP("Figures", "to device {to}, from device {back}")
        ).format(to=format_ms(run.to_device_seconds), back=format_ms(run.from_device_seconds))
        parts = first_call_parts_figure(run, translate)
        rows += [
            first_call_figure(run, (paid or {}).get(name), translate),
            *([parts] if parts else []),
            Figure("jit.steady", "JAX steady", run.seconds, "s", *_timed(run, translate)),
            speedup_figure(speedup, f"({ratio})"),
            *warning,
            end_to_end_speedup_figure(end_to_end, f"({with_copies})"),
            figure_of_words("jit.transfers", "transfers", transfers),
            max_abs_diff_figure(result.differences.get(name), difference, alarming=alarming),
            figure_of_words("jit.device", "device", run.device),
        ]
        warning = []  # said beside the speed-up
    return rows + warning + floor_figures(result, translate)


def _one_row(
    result: ComparisonResult,
    name: str,
    run: EngineRun,
    difference: tuple[str, str],
    translate: TranslateText,
) -> Figure:
    """An engine beyond the tutorial's pair in one row: steady time, first call, speed-up
    against the reference, difference from it, device."""
    figure, spread = _timed(run, translate)
    parts = [spread] if spread else []
    if run.first_call_seconds is not None:
        first = translate(QT_TRANSLATE_NOOP("Figures", "first call {time}"))
        parts.append(first.format(time=format_ms(run.first_call_seconds)))
    speedup = translate(QT_TRANSLATE_NOOP("Figures", "{speedup} NumPy's speed"))
    parts.append(speedup.format(speedup=format_speedup(result.speedup_of(name))))
    words = " ".join(part for part in difference if part)
    parts.append(
        translate(QT_TRANSLATE_NOOP("Figures", "max abs diff {difference}")).format(
            difference=words
        )
    )
    parts.append(run.device)
    return Figure(
        f"engine.{name}",
        result.engine(name).title,
        run.seconds,
        "s",
        figure,
        "; ".join(parts),
        separator=" " if spread else "; ",
        alarming=result.agrees(name) is False,
    )
