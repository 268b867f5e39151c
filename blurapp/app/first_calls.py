"""What each compiled program's first call cost, and who paid it, without Qt.

A compiled engine (JAX-jit) keeps one program per image shape, kernel and device for the whole
process: whoever calls first pays its compilation (or its load from the cache), and every
later call finds it compiled. The live preview usually pays before the user presses Run; the
Run's first call is then just another call, shorter than its steady time even. The session
keeps the price here, so the figures show it with where it was paid.
"""

from __future__ import annotations

from dataclasses import dataclass

from blurapp.core.engines.runs import Compilation, EngineRun, PaidFirstCall, Payer
from blurapp.core.media.photo import Photo
from blurapp.core.spec import BlurSpec


@dataclass(frozen=True)
class Program:
    """What one compiled program is for: the engine, the shape of the image it blurs (its
    channels when in colour), the kernel size and algorithm, and the device (as runs name it):
    what JAX compiles a program for, the number type aside (the window always blurs float32)."""

    engine: str
    shape: tuple[int, ...]
    kernel_size: int
    algorithm: str
    device: str


def blurred_shape(photo: Photo, color: bool) -> tuple[int, ...]:
    """The shape of what the engines blur of `photo` (see Photo.to_blur)."""
    if color and photo.channels > 1:
        return (photo.height, photo.width, photo.channels)
    return (photo.height, photo.width)


def program_of(
    engine: str, photo: Photo, parameters: BlurSpec, run: EngineRun, size: int | None = None
) -> Program:
    """The program `engine` ran for `run`, of `photo` with `parameters` (with a kernel of
    `size`, when not the parameters' own)."""
    shape = blurred_shape(photo, parameters.color)
    kernel_size = size or parameters.size
    return Program(engine, shape, kernel_size, parameters.algorithm, run.device)


class FirstCalls:
    """Each program's first call, as it was paid, for as long as the session lasts."""

    def __init__(self) -> None:
        self._paid: dict[Program, PaidFirstCall] = {}

    def record(
        self,
        program: Program,
        seconds: float | None,
        compilation: Compilation | None,
        paid_by: Payer,
    ) -> None:
        """Keep a first call of `seconds` as `program`'s price when that call got the program
        (compiled it, or loaded it); a call that found it compiled changes nothing."""
        if compilation is None or compilation is Compilation.REUSED or seconds is None:
            return
        self._paid[program] = PaidFirstCall(seconds, compilation, paid_by)

    def paid(self, program: Program) -> PaidFirstCall | None:
        """What `program`'s first call cost and who paid, if it was paid in this session."""
        return self._paid.get(program)

    def for_call(self, program: Program, compilation: Compilation | None) -> PaidFirstCall | None:
        """The price to show beside a first call that got its program as `compilation` says:
        the one paid earlier, when it found the program compiled; None when it paid itself,
        or nobody known did."""
        if compilation is not Compilation.REUSED:
            return None
        return self.paid(program)
