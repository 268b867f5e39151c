"""Every program a compiled engine got in the session, why it needed a new one and what that
cost, without Qt: the live preview's caption and the figures count them.

JAX-jit compiles one program per image shape, kernel shape, number type and device
(blurapp.core.engines.jax_engine keeps them by that key). The live preview and a photo's Run
always blur float32 (a Run on a clip, which may blur its levels, is not counted here), so of
those only the shape, the kernel and the device change between its programs. A change that
alters none of them (a new sigma) reuses the program; one that alters any compiles, or loads
from the persistent cache, a program of its own. Each such program is kept here with the
program the engine ran before it, so the window can say what changed: "kernel 9 × 9 → 11 × 11",
"grey → colour". The programs the scaling sweep gets (one at each size it resamples the photo
to) count too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from blurapp.app.first_calls import Program
from blurapp.core.engines.runs import Compilation, EngineRun, FirstCallParts, Payer


class Changed(StrEnum):
    """What of a program differs from the one its engine ran before."""

    FIRST = "first"  # the engine's first program of the session: nothing ran before it
    KERNEL = "kernel"
    ALGORITHM = "algorithm"
    IMAGE = "image"  # the image's width and height
    COLOUR = "colour"  # grey to colour, or back
    DEVICE = "device"
    NOTHING = "nothing"  # the same program got again (the engine let go of its programs)


@dataclass(frozen=True)
class Reason:
    """One difference between a program and the one before it: what, from `old` to `new`
    (as plain values: sizes as (width, height) or a kernel's taps a side, colour as bool)."""

    changed: Changed
    old: object = None
    new: object = None


@dataclass(frozen=True)
class ProgramGot:
    """A program a compiled engine got (compiled, or loaded from the persistent cache)."""

    program: Program
    previous: Program | None  # the program its engine ran before, in this session
    # Getting it: tracing, lowering and compiling (or loading) as JAX's stages timed them; the
    # whole first call when they were not timed apart.
    seconds: float
    compilation: Compilation  # COMPILED or FROM_CACHE
    paid_by: Payer

    @property
    def reasons(self) -> tuple[Reason, ...]:
        return reasons(self.previous, self.program)


def reasons(previous: Program | None, program: Program) -> tuple[Reason, ...]:
    """Why `program` is not `previous`: each of what JAX compiles a program for that differs."""
    if previous is None:
        return (Reason(Changed.FIRST),)
    found = []
    if previous.kernel_size != program.kernel_size:
        found.append(Reason(Changed.KERNEL, previous.kernel_size, program.kernel_size))
    if previous.algorithm != program.algorithm:
        found.append(Reason(Changed.ALGORITHM, previous.algorithm, program.algorithm))
    old_size, new_size = previous.shape[1::-1], program.shape[1::-1]  # (width, height)
    if old_size != new_size:
        found.append(Reason(Changed.IMAGE, old_size, new_size))
    old_colour, new_colour = len(previous.shape) > 2, len(program.shape) > 2
    if old_colour != new_colour:
        found.append(Reason(Changed.COLOUR, old_colour, new_colour))
    if previous.device != program.device:
        found.append(Reason(Changed.DEVICE, previous.device, program.device))
    return tuple(found) or (Reason(Changed.NOTHING),)


def getting_seconds(parts: FirstCallParts | None, first_call_seconds: float | None) -> float:
    """What getting a program cost: tracing, lowering and compiling (or loading) as the first
    call's parts timed them; the whole first call when they were not timed apart."""
    if parts is not None:
        return parts.tracing_seconds + parts.lowering_seconds + parts.compiling_seconds
    return first_call_seconds or 0.0


class Recompiles:
    """The programs the compiled engines got in this session, in order, for as long as the
    session lasts (a new photo keeps them: its first program says the image changed), whoever
    made the call that got them: the live preview, a Run or the scaling sweep."""

    def __init__(self) -> None:
        self._got: list[ProgramGot] = []
        self._last: dict[str, Program] = {}  # engine → the program it ran last
        self._calls: dict[str, int] = {}  # engine → the last call recorded (its run's number)
        self._listeners: list[Callable[[ProgramGot], None]] = []

    def subscribe(self, listener: Callable[[ProgramGot], None]) -> None:
        """Tell `listener` of each program got from now on, once it is counted."""
        self._listeners.append(listener)

    def record(
        self, program: Program, run: EngineRun, paid_by: Payer, call: int
    ) -> ProgramGot | None:
        """`program.engine` ran `program` for `run`, call number `call` (a run's serial: a
        timed run's first call is told twice, its output first, and counts once); the program
        it got, when that call compiled or loaded one."""
        engine = program.engine
        if self._calls.get(engine) == call:
            return None
        self._calls[engine] = call
        seconds = getting_seconds(run.first_call_parts, run.first_call_seconds)
        return self.record_first_call(program, run.compilation, seconds, paid_by)

    def record_first_call(
        self,
        program: Program,
        compilation: Compilation | None,
        seconds: float,
        paid_by: Payer,
    ) -> ProgramGot | None:
        """`program.engine` made a first call that ran `program`, got as `compilation` says,
        getting it costing `seconds` (getting_seconds); the program it got, when that call
        compiled or loaded one (None when it found it compiled). Each call is told once."""
        engine = program.engine
        previous = self._last.get(engine)
        self._last[engine] = program
        if compilation is None or compilation is Compilation.REUSED:
            return None
        got = ProgramGot(program, previous, seconds, compilation, paid_by)
        self._got.append(got)
        for listener in list(self._listeners):
            listener(got)
        return got

    def count(self, engine: str) -> int:
        """How many programs `engine` got in this session."""
        return sum(got.program.engine == engine for got in self._got)

    def last(self, engine: str) -> ProgramGot | None:
        """The last program `engine` got, if any."""
        return next((got for got in reversed(self._got) if got.program.engine == engine), None)

    def all(self) -> tuple[ProgramGot, ...]:
        return tuple(self._got)
