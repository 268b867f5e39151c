"""The times a chart of a comparison shows, as bars: the same in the window and the notebook.

Bar names are English and marked with QT_TRANSLATE_NOOP in the "Figures" context, as the rows
of blurapp.core.figures are; the window shows them translated.
"""

from __future__ import annotations

from typing import NamedTuple

from blurapp.core.comparison import ComparisonResult
from blurapp.core.figures import steady_label
from blurapp.core.runs import Compilation, PaidFirstCall, Payer
from blurapp.core.wording import QT_TRANSLATE_NOOP

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


def timing_bars(
    result: ComparisonResult, paid: dict[str, PaidFirstCall] | None = None
) -> list[TimingBar]:
    """Every time a chart of `result` shows, in the tutorial's order: the reference, the
    engines that compile nothing, then the compiled ones (the jit engine's first call before
    its steady time), each in its engine's colour. A first call that found its program
    compiled shows what that program's first call cost, named by who paid it (`paid`, as in
    comparison_figures), or is named as compiled before: never a bare "first call" that is
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
        bars.append(TimingBar(steady_label(name, result), run.seconds, engine.chart_colour))
    return bars
