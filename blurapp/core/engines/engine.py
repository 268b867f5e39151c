"""What an engine is: its name, its title and its first-call function, and beside them small
objects for what else it does (its computation's traits, its calls for blocks, frames, the live
preview and its device's floors) and for how the views show it (Shown), so that none of the
command line, the benchmark, the window or the jobs names an engine. Each engine module
declares its own Engine(s); the registry (blurapp.core.engines) gathers them and the plugins'.

This module imports no engine, so an engine module, built in or a plugin, can import it."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, cast

import numpy as np

from blurapp.core.engines.gemm import TimedGemm
from blurapp.core.engines.levels import floats_as_levels, levels_as_floats, levels_type
from blurapp.core.engines.on_device import OutputOnDevice
from blurapp.core.engines.runs import BlurredFrames, Call, Cancelled, EngineRun, FirstCall, Progress
from blurapp.core.engines.timing import time_engines


class FirstCallFunction(Protocol):
    """An engine's first call: blur `image` (float32, height × width or height × width ×
    channels; a photo's are read-only, so never written to) with `kernel` (k×k, or k weights
    applied along rows then columns), edges repeating their border pixels, and return the
    output with a way to call again (timed alike by blurapp.core.engines.timing). `platform` is the
    device a JAX-like engine runs on (None: its default); `progress(done, total)` may report
    taps of this call; `cancelled()` turning True should raise
    blurapp.core.engines.runs.BlurCancelled at the next chance."""

    def __call__(
        self,
        image: np.ndarray,
        kernel: np.ndarray,
        *,
        platform: str | None,
        progress: Progress | None,
        cancelled: Cancelled | None,
    ) -> FirstCall: ...


class LevelsCall(Protocol):
    """An engine's way to blur a block of a large image straight from its stored levels:
    `levels` (uint8 or uint16; rows × columns, or rows × columns × 3 colour) carries the
    kernel's radius of its neighbours' rows and columns on every side (the image's own edges
    repeated past its border); the result is those levels blurred, in the same type, without
    that halo. The same levels as making the block floats (level ÷ the type's largest), the
    first call's blur, and saving's rounding to the nearest level, without the floats
    crossing to the host and back. `platform` as for FirstCallFunction."""

    def __call__(
        self, levels: np.ndarray, kernel: np.ndarray, *, platform: str | None
    ) -> np.ndarray: ...


class FramesCall(Protocol):
    """An engine's way to blur a batch of frames in one call: `frames` (float32, frames ×
    height × width, or × 3 in colour) each blurred as FirstCallFunction blurs an image, the
    outputs handed back together with the call's times. `platform` as for FirstCallFunction.
    A compiled engine compiles once per batch shape and kernel shape."""

    def __call__(
        self, frames: np.ndarray, kernel: np.ndarray, *, platform: str | None
    ) -> BlurredFrames: ...


class FramesOverlapped(Protocol):
    """An engine's way to blur a stream of batches of frames (as FramesCall takes them, stored
    levels too) with each batch's copy to its device, blur and copy back started before the
    batches before it are waited for, so the copies overlap the blur: the outputs in order, as
    FramesCall gives them, and no time of its own (the pass is timed whole). None where its
    platform gains nothing by it (a CPU)."""

    def __call__(
        self, batches: Iterable[np.ndarray], kernel: np.ndarray, *, platform: str | None
    ) -> Iterator[np.ndarray] | None: ...


@dataclass(frozen=True)
class Caveat:
    """What a user should know of an engine on this machine before ticking it: a few `words`
    after its title ("interpreted: slow here") and `why`, a sentence; both English, marked
    for translation in the "Engines" context."""

    words: str
    why: str


ProgramReady = Callable[[tuple[int, ...], tuple[int, ...], str | None], bool]


@dataclass(frozen=True)
class Computation:
    """How an engine computes, as the command line, the timing and the window ask it."""

    # It needs JAX, and runs on a platform chosen by --device or @platform (jax@gpu).
    uses_jax: bool = False
    # It runs one compiled program: fast once compiled (its first call is shown apart).
    compiles: bool = False
    # A variant's own platform (jax@gpu); None: --device decides.
    platform: str | None = None
    # A slow engine's steady calls are timed at most this many times; None: as the timing chooses.
    max_repeats: int | None = None
    # Whether it holds its compiled program for an image of this shape and a kernel of this
    # shape on a platform (None: its default) in this process, so a call would not compile (or
    # load) it; None: it cannot tell.
    program_ready: ProgramReady | None = None


@dataclass(frozen=True)
class Blocks:
    """How an engine blurs a large image by blocks (blurapp.scale.tiled)."""

    # It is fastest on strips of this many rows of a block; None: the whole block at once.
    strip_rows: int | None = None
    # One call from a block's stored levels (8 or 16 bits) to blurred ones (see LevelsCall);
    # None: each block is made floats on the host, blurred by first_call and rounded there.
    levels_call: LevelsCall | None = None


@dataclass(frozen=True)
class Frames:
    """How an engine blurs the frames of a clip a batch at a time; an engine without one blurs
    them frame by frame, each by its first call."""

    # A batch in one call (see FramesCall).
    call: FramesCall
    # Whether `call` also takes a batch of stored levels (uint8, uint16; Clip.levels) and
    # gives levels of their type back, making the floats on its device (JAX-jit); False: a
    # batch of levels is made floats on the host and its outputs rounded there.
    takes_levels: bool = False
    # A clip end to end with the copies overlapping the blur (see FramesOverlapped); None:
    # batch after batch, by `call`.
    overlapped: FramesOverlapped | None = None


@dataclass(frozen=True)
class LivePreview:
    """What an engine does differently for a picture shown at once (a live preview, a clip
    playing): see Engine.for_display."""

    # Its first call there, where it can be quicker than first_call (JAX-jit keeps the photo
    # on its device between changes); None: first_call.
    first_call: FirstCallFunction | None = None
    # Lets go of what `first_call` keeps between changes (JAX-jit: the photo on its device),
    # once nothing previews with it: the live preview switched off, or a job of the window
    # that does not preview with this engine; None: it keeps nothing.
    stop: Callable[[], None] | None = None
    # Starts the copy of an image to its device ahead of a display call on it, given the
    # platform as first_call is: that call then finds the copy there and copies nothing
    # (JAX-jit: a clip's next frame crosses while the frame before it blurs). The caller
    # writes nothing to the image meanwhile. None: the display call copies it itself.
    send_ahead: Callable[[np.ndarray, str | None], None] | None = None
    # Whether its first call there (and send_ahead) also takes a clip's frame as its stored
    # levels (uint8, uint16; Clip.levels), making the floats on its device (JAX-jit): a
    # quarter of the bytes cross, and the host makes no floats. False: a frame's levels are
    # made floats on the host first.
    takes_levels: bool = False


@dataclass(frozen=True)
class Floors:
    """The floors of an engine's device that the figures set beside its blur
    (blurapp.core.measuring.floors); each None where none is measured."""

    # Any blur's: one copy of the image there (read once, written once), made and timed as a
    # first call is.
    copy: FirstCallFunction | None = None
    # The compute floor: a float32 matrix product there, sized to saturate it
    # (blurapp.core.engines.gemm), given the platform as first_call is.
    gemm: Callable[[str | None], TimedGemm] | None = None
    # A call's: an empty call of its kind on a tiny array, waited for (JAX-jit: a jitted
    # program that hands its input back), given the platform and timed as a first call is.
    empty_call: Callable[[str | None], FirstCall] | None = None


@dataclass(frozen=True)
class Shown:
    """How the views show an engine, beside its title: none of them names an engine."""

    # Its steady bar and sweep line in the charts ('#55a868'); None: a colour by its name
    # (blurapp.core.report.chart_bars.chart_colour). An engine on a platform of its own
    # (jax@gpu) has none, so that it is told apart from the same engine on its default one.
    colour: str | None = None
    # The bar of a compiled engine's first call, on whichever platform it runs; None: a
    # colour by its name.
    first_call_colour: str | None = None
    # Its heading in `blurapp bench`'s table ("NumPy" makes "NumPy ms"); None: its name.
    column: str | None = None
    # Whether the window offers it on this machine, told without starting its device (the
    # window's start imports no JAX); None: everywhere. It stays available by name
    # (`--engines`, the API) where the window does not offer it.
    offered: Callable[[], bool] | None = None
    # Words the window puts after its title where it offers it, when this machine runs it far
    # from what its figures mean elsewhere (JAX Pallas with no TPU: its interpreter), told
    # without starting its device; None: nothing to say here.
    caveat: Callable[[], Caveat | None] | None = None


# Engine's keywords of BlurApp 0.1, each now given in one of the small objects beside it.
_MOVED_FIELDS = {
    **{
        key: f"computation=Computation({key}=…)"
        for key in ("uses_jax", "max_repeats", "platform", "compiles", "program_ready")
    },
    **{key: f"shown=Shown({key}=…)" for key in ("colour", "column", "offered", "caveat")},
    **{key: f"blocks=Blocks({key}=…)" for key in ("strip_rows", "levels_call")},
    "copy_call": "floors=Floors(copy=…)",
    "gemm_call": "floors=Floors(gemm=…)",
    "empty_call": "floors=Floors(empty_call=…)",
    "preview_call": "preview=LivePreview(first_call=…)",
    "stop_preview": "preview=LivePreview(stop=…)",
    "send_ahead": "preview=LivePreview(send_ahead=…)",
    "frames_call": "frames=Frames(call)",
    "frames_take_levels": "frames=Frames(call, takes_levels=…)",
    "frames_overlapped": "frames=Frames(call, overlapped=…)",
}


@dataclass(frozen=True)
class Engine:
    """One way to blur: its name, its title, its first call, and what else it can do, each a
    small object of its own. `name` is the one identifier of the engine: on the command line,
    in `compare --json` (its key made by blurapp.core.measuring.comparison.json_key), in file
    names and settings; `title` is what people read (marked for translation in the "Engines"
    context where it is written); `shown`, how the views show it besides.

    What blurs is `first_call` and, where an engine has them, the calls of `blocks`, `frames`,
    `preview` and `floors`; the methods below make those calls and check what they give."""

    name: str
    title: str
    first_call: FirstCallFunction
    computation: Computation = Computation()
    blocks: Blocks = Blocks()
    frames: Frames | None = None
    preview: LivePreview = LivePreview()
    floors: Floors = Floors()
    shown: Shown = Shown()
    # The distribution a plugin's engine comes from ("blurapp-scipy 0.1"); None: BlurApp's own.
    package: str | None = None

    def __new__(cls, *args: Any, **fields: Any) -> Engine:
        # A plugin written for BlurApp 0.1 gives what else its engine does as Engine's own
        # keywords: it is told where each went, not only that Engine does not take it.
        moved = [f"{key}= goes in {_MOVED_FIELDS[key]}" for key in fields if key in _MOVED_FIELDS]
        if moved:
            raise TypeError(
                "Engine() no longer takes these keywords: "
                + "; ".join(moved)
                + " (docs/plugins.md says what each small object holds)"
            )
        return super().__new__(cls)

    @property
    def uses_jax(self) -> bool:
        return self.computation.uses_jax

    @property
    def compiles(self) -> bool:
        return self.computation.compiles

    @property
    def platform(self) -> str | None:
        return self.computation.platform

    @property
    def max_repeats(self) -> int | None:
        return self.computation.max_repeats

    @property
    def jitted(self) -> bool:
        """Whether JAX compiles it (JAX-jit and its platforms). The figures give the first such
        engine of a comparison JAX-jit's rows of old (first call, steady, speedup, transfers)."""
        return self.compiles and self.uses_jax

    def platform_for(self, device: str = "auto") -> str | None:
        """The platform its calls get for `device` ("auto", "cpu", "gpu", "tpu"): its own,
        else `device` for a JAX engine; None for JAX's default device, or an engine without JAX."""
        platform = self.platform or (device if self.uses_jax else None)
        return None if platform == "auto" else platform

    def holds_program(
        self, shape: tuple[int, ...], kernel_shape: tuple[int, ...], *, device: str = "auto"
    ) -> bool:
        """Whether a compiled engine holds its program for an image of `shape` and a kernel of
        `kernel_shape` (Computation.program_ready); True where it compiles nothing or cannot
        tell, as a call would then compile nothing that can be told in advance."""
        ready = self.computation.program_ready
        if not self.compiles or ready is None:
            return True
        return ready(shape, kernel_shape, self.platform_for(device))

    def for_display(self) -> Engine:
        """This engine as the window calls it for a picture to show at once (a live preview, a
        clip playing): its live preview's first call as its first call where it has one."""
        if self.preview.first_call is None:
            return self
        return dataclasses.replace(self, first_call=self.preview.first_call)

    def start(
        self,
        image: np.ndarray,
        kernel: np.ndarray,
        *,
        device: str = "auto",
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> FirstCall:
        """Make this engine's first call on `image`. `device` is the platform for a JAX engine
        that has none of its own ("auto": JAX's default, the accelerator when there is one)."""
        try:
            first = self.first_call(
                image,
                kernel,
                platform=self.platform_for(device),
                progress=progress,
                cancelled=cancelled,
            )
        except SystemExit as exit:  # a plugin's; it must not end BlurApp
            raise EngineOutputError(f"{_who(self)} called sys.exit({exit.code!r})") from None
        check_output(self, first.output, image.shape)
        return first

    def levels(self, levels: np.ndarray, kernel: np.ndarray, *, device: str = "auto") -> np.ndarray:
        """Its blocks' levels_call on `levels` (see LevelsCall), the output checked."""
        levels_call = self.blocks.levels_call
        assert levels_call is not None, "only engines with a levels call blur levels"
        radius = kernel.shape[0] // 2
        try:
            output = levels_call(levels, kernel, platform=self.platform_for(device))
        except SystemExit as exit:
            raise EngineOutputError(f"{_who(self)} called sys.exit({exit.code!r})") from None
        shape = (levels.shape[0] - 2 * radius, levels.shape[1] - 2 * radius, *levels.shape[2:])
        return check_output(self, output, shape, dtype=levels.dtype)

    def blur_frames(
        self, frames: np.ndarray, kernel: np.ndarray, *, device: str = "auto"
    ) -> BlurredFrames:
        """Blur a batch of `frames` (frames × height × width, × 3 in colour) by its
        frames' call, or frame by frame by its first call; the outputs checked. Frames of
        stored levels (uint8, uint16; Clip.levels) give blurred levels of their type, rounded
        as saving rounds them; any others float32."""
        frames = np.asarray(frames)
        stored = levels_type(frames)
        levels = stored is not None
        frames = np.asarray(frames, dtype=stored or np.float32)
        if frames.ndim not in (3, 4) or len(frames) == 0:
            raise ValueError(
                "expected frames × height × width (× channels) with at least one frame, "
                f"not an array of shape {frames.shape}"
            )
        platform = self.platform_for(device)
        # Made floats here unless its frames' call takes them (first_call never does).
        on_host = levels and not (self.frames is not None and self.frames.takes_levels)
        began = time.perf_counter()
        floats = levels_as_floats(frames) if on_host else frames
        converting = time.perf_counter() - began
        try:
            if self.frames is not None:
                blurred = self.frames.call(floats, kernel, platform=platform)
            else:
                blurred = self._frames_one_by_one(floats, kernel, platform)
        except SystemExit as exit:
            raise EngineOutputError(f"{_who(self)} called sys.exit({exit.code!r})") from None
        if floats is not frames:
            check_output(self, blurred.output, frames.shape)
            began = time.perf_counter()
            output = floats_as_levels(blurred.output, frames.dtype)
            converting += time.perf_counter() - began
            # Counted in the call, as an engine that makes them on its device counts them: a
            # batch of levels' blur alone is levels to levels for every engine.
            call = blurred.call._replace(seconds=blurred.call.seconds + converting)
            blurred = blurred._replace(output=output, call=call)
        check_output(self, blurred.output, frames.shape, dtype=frames.dtype if levels else None)
        return blurred

    def _frames_one_by_one(
        self, frames: np.ndarray, kernel: np.ndarray, platform: str | None
    ) -> BlurredFrames:
        output = np.empty(frames.shape, np.float32)
        firsts = []
        for index, frame in enumerate(frames):
            first = self.first_call(frame, kernel, platform=platform, progress=None, cancelled=None)
            output[index] = check_output(self, first.output, frame.shape)
            firsts.append(first)

        def total(times: list[float | None]) -> float | None:
            known = [time for time in times if time is not None]
            return sum(known) if known else None

        call = Call(
            sum(first.seconds for first in firsts),
            total([first.to_device_seconds for first in firsts]),
            total([first.from_device_seconds for first in firsts]),
        )
        return BlurredFrames(output, call, firsts[0].device, firsts[0].compilation)

    def send(self, image: np.ndarray, *, device: str = "auto") -> None:
        """Start the copy of `image` to this engine's device ahead of its display call on it
        (LivePreview.send_ahead); nothing for an engine that cannot."""
        if self.preview.send_ahead is not None:
            self.preview.send_ahead(image, self.platform_for(device))

    def start_copy(self, image: np.ndarray, *, device: str = "auto") -> FirstCall | None:
        """The first of this engine's copies of `image` on its device (Floors.copy), or
        None when it has no way to copy."""
        if self.floors.copy is None:
            return None
        return self.floors.copy(
            image,
            np.zeros((1, 1), np.float32),
            platform=self.platform_for(device),
            progress=None,
            cancelled=None,
        )

    def start_gemm(self, *, device: str = "auto") -> TimedGemm | None:
        """The first of this engine's matrix products on its device (Floors.gemm), or None
        when it has none."""
        gemm = self.floors.gemm
        return None if gemm is None else gemm(self.platform_for(device))

    def start_empty_call(self, *, device: str = "auto") -> FirstCall | None:
        """The first of this engine's empty calls on its device (Floors.empty_call), or None
        when it has none."""
        empty_call = self.floors.empty_call
        return None if empty_call is None else empty_call(self.platform_for(device))

    def blur(
        self,
        image: np.ndarray,
        kernel: np.ndarray,
        *,
        repeats: int | None = None,
        device: str = "auto",
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> EngineRun:
        """Run this engine alone on `image` and time it (see blurapp.core.engines.timing; `repeats`
        None chooses the number of steady calls). `repeats=0` blurs once (the first call)
        and times no steady call: for when only the output counts."""
        first = self.start(image, kernel, device=device, progress=progress, cancelled=cancelled)
        return time_engines(
            {self.name: first},
            repeats=repeats,
            max_repeats={self.name: self.max_repeats},
            cancelled=cancelled,
        )[self.name]


class EngineOutputError(RuntimeError):
    """An engine gave an output BlurApp cannot use, or tried to end the program: that engine's
    failure, not BlurApp's."""


def _who(engine: Engine) -> str:
    """'the scipy engine (from blurapp-scipy 0.1)': an engine, named with its package."""
    return f"the {engine.name} engine" + (f" (from {engine.package})" if engine.package else "")


def check_output(
    engine: Engine, output: object, shape: tuple[int, ...], *, dtype: np.dtype | None = None
) -> np.ndarray:
    """`output` when it is what `engine` must give for an image of `shape`: a NumPy array of
    that shape, of floats (or of `dtype`), every value finite. Raises EngineOutputError naming
    the engine and, for a plugin's, its package."""
    who = _who(engine)
    if isinstance(output, OutputOnDevice) and output.shape == shape:
        # A live preview's output left on its device by BlurApp's own program: checking its
        # values would fetch them, which is what leaving it there saves.
        return cast(np.ndarray, output)
    if not isinstance(output, np.ndarray):
        raise EngineOutputError(f"{who} gave {type(output).__name__}, not a NumPy array")
    if output.shape != shape:
        raise EngineOutputError(
            f"{who} gave an output of {' × '.join(map(str, output.shape))} for an image of "
            f"{' × '.join(map(str, shape))}"
        )
    if dtype is not None and output.dtype != dtype:
        raise EngineOutputError(f"{who} gave {output.dtype} values, not {np.dtype(dtype)}")
    if dtype is None:
        if output.dtype.kind != "f":
            raise EngineOutputError(f"{who} gave {output.dtype} values, not floats")
        values = np.asarray(output)  # a masked array's hidden values too
        # For float32 and narrower, one pass without a copy: their sum in float64 is finite
        # exactly when every value is (it cannot overflow). Wider floats can.
        if values.dtype.itemsize <= 4:
            finite = np.isfinite(values.sum(dtype=np.float64))
        else:
            finite = np.isfinite(values).all()
        if not finite:
            bad = "NaN" if np.isnan(values).any() else "infinity"
            raise EngineOutputError(f"{who} gave an output holding {bad}")
    return output
