"""The times a chart of a comparison shows, as bars: the same in the window and the notebook.

Bar names are English and marked with QT_TRANSLATE_NOOP in the "Figures" context, as the rows
of blurapp.core.report.figures are; the window shows them translated.
"""

from __future__ import annotations

import zlib
from typing import NamedTuple

from blurapp.core.engines import Engine
from blurapp.core.engines.runs import Compilation, PaidFirstCall, Payer
from blurapp.core.measuring.comparison import ComparisonResult
from blurapp.core.report.figures import steady_label
from blurapp.core.wording import QT_TRANSLATE_NOOP

# The colours of engines that ask for none (Shown.colour, Shown.first_call_colour: a plugin's
# that asks for none, an engine on a platform of its own), each engine's by its name's hash: the
# same in every run and on every machine, whatever else is installed.
FALLBACK_COLOURS = ("#8172b3", "#937860", "#8c8c8c", "#64b5cd", "#ccb974", "#c44e52")


def chart_colour(engine: Engine) -> str:
    """The colour of `engine`'s steady bar and sweep line ('#55a868'): the one it asks for
    (Shown.colour), else one of FALLBACK_COLOURS by its name. An engine on a platform of its
    own (jax@gpu) asks for none: it is told apart from the same engine on its default one."""
    return engine.shown.colour or _by_name(engine.name)


def first_call_colour(engine: Engine) -> str:
    """The colour of a compiled engine's first-call bar, the same on every platform."""
    return engine.shown.first_call_colour or _by_name(f"{engine.name} first call")


def _by_name(name: str) -> str:
    return FALLBACK_COLOURS[zlib.crc32(name.encode()) % len(FALLBACK_COLOURS)]


# The chart's bar of a first call paid earlier, by who paid it.
PAID_BARS = {
    Payer.LIVE_PREVIEW: QT_TRANSLATE_NOOP("Figures", "JAX first call (live preview)"),
    Payer.RUN: QT_TRANSLATE_NOOP("Figures", "JAX first call (earlier Run)"),
    Payer.SWEEP: QT_TRANSLATE_NOOP("Figures", "JAX first call (sweep)"),
}
# A first call that found its program compiled, by nobody this session knows of.
UNPAID_BAR = QT_TRANSLATE_NOOP("Figures", "JAX first call (compiled before)")


class TimingBar(NamedTuple):
    label: str  # its English name: the label of the row that holds the time, or a first call's
    seconds: float
    colour: str  # the engine's chart colour, '#55a868'
    # One of the two steady times the speed-up divides (the reference's, the jit engine's):
    # the chart is drawn for them (blurapp.core.report.chart_layout).
    headline: bool = False


def timing_bars(
    result: ComparisonResult, paid: dict[str, PaidFirstCall] | None = None
) -> list[TimingBar]:
    """Every time a chart of `result` shows, in the tutorial's order: the reference, the
    engines that compile nothing, then the compiled ones (the jit engine's first call before
    its steady time), each in its engine's colour. A first call that found its program
    compiled shows what that program's first call cost, named by who paid it (`paid`, as in
    comparison_figures), or is named as compiled before: never a bare "first call" that is
    only another call. The reference's and the jit engine's steady bars are the headline, when
    both are there."""

    def order(name: str) -> int:
        if name == result.reference:
            return 0
        return 2 if result.runs[name].compilation is not None else 1

    bars = []
    for name in sorted(result.runs, key=order):
        run, engine = result.runs[name], result.engine(name)
        if name == result.jit_engine and run.first_call_seconds is not None:
            colour = first_call_colour(engine)
            price = (paid or {}).get(name)
            if price is not None:
                bars.append(TimingBar(PAID_BARS[price.paid_by], price.seconds, colour))
            elif run.compilation is Compilation.REUSED and paid is not None:
                bars.append(TimingBar(UNPAID_BAR, run.first_call_seconds, colour))
            else:
                bars.append(TimingBar("JAX first call", run.first_call_seconds, colour))
        bars.append(TimingBar(steady_label(name, result), run.seconds, chart_colour(engine)))
    jit = result.jit_engine
    if jit is not None and {result.reference, jit} <= set(result.runs):
        pair = {steady_label(result.reference, result), steady_label(jit, result)}
        bars = [bar._replace(headline=bar.label in pair) for bar in bars]
    return bars
