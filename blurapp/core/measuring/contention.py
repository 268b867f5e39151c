"""Whether a comparison's figures can be trusted: was the machine busy while they were timed?

Three signs measured while the engines are timed (blurapp.core.engines.timing):
- a CPU engine's calls taking longer on the wall clock than on the CPU clock (its own thread's
  for an engine that computes in the calling thread, NumPy; else the process's): it was waiting
  for a core (a one-thread engine runs whenever it is not waiting);
- other programs' CPU use over the timing, from the system's CPU counters (psutil);
- the spread of an engine's calls: the middle half of them far apart;
and one more measured after them, while the compute floor's matrix products are timed: other
programs' CPU use then (PRODUCTS_OTHERS_SHARE). Other programs' use is counted on the cores
BlurApp may run on.
The load average is told beside them, as people know it, but does not decide: it averages the
last minute, not the seconds timed, and counts BlurApp's own threads.

The thresholds lie between what a quiet machine and a busy one gave (docs/timing.md, "Can the
figures be trusted?", has the figures). JAX-jit's calls on the CPU use several threads, so its
wall ÷ CPU time is below 1 when quiet and says less. A few calls of a large image vary more on
a quiet machine, hence the wider bound for few samples.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from blurapp.core.engines.runs import EngineRun
from blurapp.core.platforms import on_accelerator, platform_in_words
from blurapp.core.wording import QT_TRANSLATE_NOOP, TranslateText, english

# The wall clock at least this many times the CPU clock over a CPU engine's calls…
WALL_OVER_CPU = 1.3
# …timed over at least this long (a few milliseconds' clocks say little).
MIN_TIMED_SECONDS = 0.05
# Other programs using at least this share of the cores, and at least PRODUCTS_OTHERS_CORES
# cores, while the matrix products of the compute floor were timed, over at least
# MIN_TIMED_SECONDS. A product keeps every core busy with threads that wait for each other, so
# one core taken is enough to ruin it on a small machine (docs/timing.md: one other program
# made a product 90 times slower) while the engines' own timing (one thread each for NumPy)
# sees only half the cores used by others, below OTHERS_SHARE. A share on a large machine,
# where some background use is the rule.
PRODUCTS_OTHERS_SHARE = 0.25
PRODUCTS_OTHERS_CORES = 0.5
# Other programs using at least this share of the cores.
OTHERS_SHARE = 0.6
# An engine's middle half of calls at least this fraction of its median apart…
SPREAD = 0.5
# …over at least this many samples;
MIN_SAMPLES_FOR_SPREAD = 8
# …or, over fewer (a large image's slow calls are timed a few times only), at least this
# fraction over at least this many.
FEW_SAMPLES_SPREAD = 1.0
MIN_FEW_SAMPLES = 3


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _busy_seconds() -> float | None:
    """The CPU seconds the cores this process may run on (cores()) have been busy since the
    machine started (stolen time of a virtual machine included), or None where the system does
    not tell: other programs on cores BlurApp cannot use do not slow it."""
    import psutil  # imported when a comparison is timed, not with every command (about 20 ms)

    try:
        per_core = psutil.cpu_times(percpu=True)
    except (OSError, RuntimeError, psutil.Error):
        return None
    try:
        allowed = os.sched_getaffinity(0)
    except (AttributeError, OSError):
        allowed = None
    if allowed is not None and len(per_core) == os.cpu_count():  # numbered as the system does
        per_core = [times for number, times in enumerate(per_core) if number in allowed]
    if sys.platform == "win32":  # its system time already holds interrupts and DPCs
        return sum(times.user + times.system for times in per_core)
    # Linux counts a guest's time in user and nice already; macOS has only the first three.
    busy = ("user", "nice", "system", "irq", "softirq", "steal")
    return sum(getattr(times, name, 0.0) for times in per_core for name in busy)


def _load() -> float | None:
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


@dataclass(frozen=True)
class MachineUse:
    """The machine over a timing: how long it lasted, how much CPU other programs used."""

    seconds: float
    # Other programs' CPU use, in cores (None: not known here, the system's counters not told
    # or not counting processes).
    others_cores: float | None
    load: float | None  # the load average over the last minute, at the end
    cores: int


def watch_machine() -> Callable[[], MachineUse]:
    """Start watching the machine; the function returned stops and tells what it saw."""
    # This process's own CPU clock (every thread of it): finer than the system's counters.
    busy, own, start = _busy_seconds(), time.process_time(), time.perf_counter()

    def stop() -> MachineUse:
        seconds = max(time.perf_counter() - start, 1e-9)
        ours = time.process_time() - own
        # Read before the counters, which have then had the time to count it.
        ours_since_started = sum(os.times()[:2])
        now = _busy_seconds()
        others = None
        # Counters that have not counted even this process's own CPU time since it started
        # do not count other programs either (gVisor's sandbox gives zeros for every core, a
        # busy program or not): their use is not known there, rather than none.
        if busy is not None and now is not None and now >= ours_since_started:
            # The counters tick 100 times a second: a short timing's figure is rough, never < 0.
            others = max(0.0, (now - busy - ours) / seconds)
        return MachineUse(seconds, others, _load(), cores())

    return stop


@dataclass(frozen=True)
class Conditions:
    """What was measured of the machine while a comparison was timed: the decision's inputs."""

    machine: MachineUse | None = None
    # Each CPU engine timed long enough: the wall seconds of its calls ÷ their CPU seconds.
    wall_over_cpu: Mapping[str, float] = field(default_factory=dict)
    # Each engine timed in enough samples: its middle half ÷ its median…
    spread: Mapping[str, float] = field(default_factory=dict)
    # …and how many samples that is.
    samples: Mapping[str, int] = field(default_factory=dict)
    # Timed while the JAX profiler recorded a trace of the calls, which slows them.
    traced: bool = False
    # The machine while the compute floor's matrix products were timed, after the engines.
    products_machine: MachineUse | None = None


def conditions_of(
    runs: Mapping[str, EngineRun],
    machine: MachineUse | None,
    traced: bool = False,
    products_machine: MachineUse | None = None,
) -> Conditions:
    """The conditions of a timing from its engines' runs and the machine's use over it
    (`traced`: while the profiler recorded a trace; `products_machine`: the machine while the
    compute floor's products were timed)."""
    wall_over_cpu = {
        name: run.calls_wall_seconds / run.calls_cpu_seconds
        for name, run in runs.items()
        if not on_accelerator(platform_in_words(run.device))
        and run.calls_wall_seconds >= MIN_TIMED_SECONDS
        and run.calls_cpu_seconds > 0
    }
    spread = {
        name: run.spread
        for name, run in runs.items()
        if run.spread is not None and len(run.repeat_seconds) >= MIN_FEW_SAMPLES
    }
    samples = {name: len(runs[name].repeat_seconds) for name in spread}
    return Conditions(machine, wall_over_cpu, spread, samples, traced, products_machine)


def spread_bound(samples: int) -> float:
    """How far apart an engine's middle half of `samples` calls may be, as a fraction of their
    median, on a machine nothing else is using."""
    return SPREAD if samples >= MIN_SAMPLES_FOR_SPREAD else FEW_SAMPLES_SPREAD


@dataclass(frozen=True)
class Verdict:
    """Which signs of a busy machine the conditions show (none: the figures can be trusted)."""

    conditions: Conditions
    waited: tuple[tuple[str, float], ...] = ()  # (engine, its wall ÷ CPU time)
    others_cores: float | None = None  # other programs' use, when it is too much
    spread: tuple[tuple[str, float], ...] = ()  # (engine, middle half ÷ median)
    # Other programs' use while the matrix products were timed, when it is too much.
    products_others_cores: float | None = None

    @property
    def _busy(self) -> bool:
        return bool(
            self.waited
            or self.others_cores is not None
            or self.products_others_cores is not None
            or self.spread
        )

    @property
    def noisy(self) -> bool:
        return self._busy or self.conditions.traced

    def reason(
        self, translate: TranslateText = english, title: Callable[[str], str] = str
    ) -> str | None:
        """Why the figures cannot be trusted, in words; None when they can. `title(engine)`
        names an engine."""
        if not self.noisy:
            return None
        machine = self.conditions.machine
        busy = self._busy
        others = self.others_cores is not None or self.products_others_cores is not None
        if self.conditions.traced and not busy:
            return translate(
                QT_TRANSLATE_NOOP(
                    "Figures",
                    "the profiler recorded a trace while the calls were timed, which slows them: "
                    "time them again without it",
                )
            )
        if (self.waited or others) and self.conditions.traced:
            lead = translate(
                QT_TRANSLATE_NOOP(
                    "Figures",
                    "timed while the profiler recorded, and another program was using the CPU",
                )
            )
        elif self.waited or others:
            lead = translate(QT_TRANSLATE_NOOP("Figures", "another program was using the CPU"))
        elif self.conditions.traced:
            lead = translate(QT_TRANSLATE_NOOP("Figures", "timed while the profiler recorded"))
        else:
            lead = translate(QT_TRANSLATE_NOOP("Figures", "the times of the calls varied widely"))
        details = []
        if self.waited:  # the engine that waited most tells it
            engine, ratio = max(self.waited, key=lambda waited: waited[1])
            text = translate(
                QT_TRANSLATE_NOOP("Figures", "{engine}'s calls took {ratio}× their CPU time")
            )
            details.append(text.format(engine=title(engine), ratio=f"{ratio:.1f}"))
        if self.others_cores is not None and machine is not None:
            text = translate(
                QT_TRANSLATE_NOOP("Figures", "other programs kept {used} of the {cores} cores busy")
            )
            details.append(text.format(used=f"{self.others_cores:.1f}", cores=machine.cores))
        products = self.conditions.products_machine
        if self.products_others_cores is not None and products is not None:
            text = translate(
                QT_TRANSLATE_NOOP(
                    "Figures",
                    "other programs kept {used} of the {cores} cores busy while the matrix "
                    "product was timed",
                )
            )
            details.append(
                text.format(used=f"{self.products_others_cores:.1f}", cores=products.cores)
            )
        if self.spread:
            engine, spread = max(self.spread, key=lambda spread: spread[1])
            text = translate(
                QT_TRANSLATE_NOOP(
                    "Figures", "the middle half of {engine}'s calls spans {spread} of their median"
                )
            )
            details.append(text.format(engine=title(engine), spread=f"{spread:.0%}"))
        if machine is not None and machine.load is not None:
            text = translate(QT_TRANSLATE_NOOP("Figures", "load {load} on {cores} cores"))
            details.append(text.format(load=f"{machine.load:.1f}", cores=machine.cores))
        return f"{lead}: {'; '.join(details)}"


def judge(conditions: Conditions) -> Verdict:
    """The signs of a busy machine in `conditions`, by the thresholds above."""
    machine = conditions.machine
    others = machine.others_cores if machine is not None else None
    if others is not None and machine is not None and others < OTHERS_SHARE * machine.cores:
        others = None
    products = conditions.products_machine
    products_others = None
    if (
        products is not None
        and products.others_cores is not None
        and products.seconds >= MIN_TIMED_SECONDS
        and products.others_cores
        >= max(PRODUCTS_OTHERS_CORES, PRODUCTS_OTHERS_SHARE * products.cores)
    ):
        products_others = products.others_cores
    return Verdict(
        conditions,
        waited=tuple(
            (name, ratio)
            for name, ratio in conditions.wall_over_cpu.items()
            if ratio >= WALL_OVER_CPU
        ),
        others_cores=others,
        spread=tuple(
            (name, spread)
            for name, spread in conditions.spread.items()
            if spread >= spread_bound(conditions.samples.get(name, MIN_SAMPLES_FOR_SPREAD))
        ),
        products_others_cores=products_others,
    )
