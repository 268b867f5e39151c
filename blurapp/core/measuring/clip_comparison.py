"""A clip through several engines: a fixed span of its frames blurred by each, timed as photos
are (blurapp.core.engines.timing: the first call apart, interleaved rounds, the median and its
spread, the machine's contention), and stated in frames per second and milliseconds a frame.

Each engine blurs the frames in batches of the size measured fastest for it
(blurapp.core.engines.frame_batches). Two figures per engine: the blur alone, and end to end, which
also counts reading the clip's frames (decoding a file's), gathering them into batches and the
copies to and from a device. Works on any Clip, a frame at a time: memory stays a few batches
deep whatever the span.
"""

from __future__ import annotations

import functools
import logging
import statistics
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np

from blurapp.core.engines import DEFAULT_ENGINES, REFERENCE_ENGINE, Engine, get_engine
from blurapp.core.engines.frame_batches import (
    BATCH_SIZES,
    BatchChoice,
    blur_batches,
    choose_batch_size,
    frame_batches,
    overlapped_batches,
)
from blurapp.core.engines.runs import (
    BlurCancelled,
    BlurredFrames,
    Call,
    Cancelled,
    Compilation,
    EngineRun,
    FirstCall,
)
from blurapp.core.engines.timing import time_engines
from blurapp.core.measuring.comparison import (
    LedByJit,
    against_reference_dict,
    describe_failure,
    headline_dict,
    json_key,
    kernel_dict,
    max_abs_difference,
)
from blurapp.core.measuring.contention import Conditions, conditions_of, watch_machine
from blurapp.core.media.clip import Clip, ClipError, ClipInfo
from blurapp.core.spec import BlurSpec

log = logging.getLogger(__name__)

# The frames timed when the caller names no span: a few seconds of a clip.
DEFAULT_CLIP_FRAMES = 48


@dataclass(frozen=True, eq=False)
class ClipComparisonResult(LedByJit):
    """Each engine's run over a span of a clip's frames, or why it has none.

    A run's steady samples are passes over the whole span, the blur alone (its copies to and
    from a device timed apart, as for photos); `end_to_end_seconds` holds each pass's wall
    time with the clip's frames read, batched and copied: for an engine in `overlapped`, a pass
    of its own made after each timed one, the batches' copies overlapping their blur
    (Frames.overlapped), as an accelerator plays a clip best."""

    clip: ClipInfo
    spec: BlurSpec
    start: int  # the span's first frame
    frames: int  # the frames in the span (fewer than asked for when the clip ends sooner)
    runs: Mapping[str, EngineRun] = field(default_factory=dict)
    end_to_end_seconds: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    batches: Mapping[str, BatchChoice] = field(default_factory=dict)
    # engine → max |its frames − the reference's| over every frame of the span.
    differences: Mapping[str, float] = field(default_factory=dict)
    errors: Mapping[str, str] = field(default_factory=dict)
    engines: Mapping[str, Engine] = field(default_factory=dict)
    reference: str = REFERENCE_ENGINE
    conditions: Conditions | None = None
    # Where reading the clip stopped short of the span, in a user's words (None: it did not).
    clip_problem: str | None = None
    # The engines whose end to end was timed with the copies overlapping the blur.
    overlapped: frozenset[str] = frozenset()

    def seconds_per_frame(self, name: str) -> float | None:
        """`name`'s median pass over the span ÷ its frames, the blur alone; None when no pass
        was timed (repeats=0: a first call is one batch, compiling, not a pass)."""
        run = self.runs.get(name)
        if run is None or not self.end_to_end_seconds.get(name) or not self.frames:
            return None
        return run.seconds / self.frames

    def frames_per_second(self, name: str) -> float | None:
        seconds = self.seconds_per_frame(name)
        return 1 / seconds if seconds else None

    def end_to_end_seconds_per_frame(self, name: str) -> float | None:
        """`name`'s median pass with the frames read, batched and copied, ÷ its frames."""
        passes = self.end_to_end_seconds.get(name)
        if not passes or not self.frames:
            return None
        return statistics.median(passes) / self.frames

    def end_to_end_frames_per_second(self, name: str) -> float | None:
        seconds = self.end_to_end_seconds_per_frame(name)
        return 1 / seconds if seconds else None

    def speedup_of(self, name: str) -> float | None:
        """The reference's seconds a frame ÷ `name`'s, the blur alone."""
        return _ratio(self.seconds_per_frame(self.reference), self.seconds_per_frame(name))

    def end_to_end_speedup_of(self, name: str) -> float | None:
        return _ratio(
            self.end_to_end_seconds_per_frame(self.reference),
            self.end_to_end_seconds_per_frame(name),
        )

    def batch_size(self, name: str) -> int:
        choice = self.batches.get(name)
        return choice.size if choice is not None else 1


def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or not denominator:
        return None
    return numerator / denominator


def compare_engines_on_clip(
    clip: Clip,
    spec: BlurSpec | None = None,
    *,
    engines: Collection[str | Engine] = DEFAULT_ENGINES,
    frames: int = DEFAULT_CLIP_FRAMES,
    start: int = 0,
    device: str = "auto",
    repeats: int | None = None,
    batch_sizes: Mapping[str, int] | None = None,
    cancelled: Cancelled | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> ClipComparisonResult:
    """Blur `frames` frames of `clip` from `start` with each of `engines` and time them alike.

    The frames are blurred as the clip gives them (grey, or colour when it was opened in
    colour), with `spec`'s kernel. Each engine's batch size is `batch_sizes[name]`, or chosen
    by measuring (choose_batch_size). A first pass over the span blurs every frame with every
    engine, batch by batch, and compares each engine's frames with the reference engine's; each
    engine's first batch is its first call (with compilation, unless choosing the batch size
    compiled it). Then passes over the span are timed in interleaved rounds (`repeats` of each,
    or as many as each needs when None). An engine that fails is left out with its reason in
    `errors`. A clip that stops part way is timed over the frames that decoded, and says
    where it stopped in `clip_problem`; one that gives no frame raises its ClipError (a span
    past a clip's end, IndexError).
    `progress(stage, done, total)` reports "batch size" (engines), "frames" (the first pass)
    and "timing" (timed passes).
    """
    if frames < 1:
        raise ValueError(f"time at least one frame, not {frames}")
    spec = BlurSpec() if spec is None else spec
    kernel = spec.kernel
    chosen = {
        engine.name: engine
        for engine in (get_engine(e) if isinstance(e, str) else e for e in engines)
    }
    if clip.info.known_frame_count is not None:
        frames = max(0, min(frames, clip.info.known_frame_count - start))
    stop_watching = watch_machine()
    errors: dict[str, str] = {}
    choices: dict[str, BatchChoice] = {}
    for done, (name, engine) in enumerate(chosen.items()):
        if progress is not None:
            progress("batch size", done, len(chosen))
        try:
            choices[name] = _batch_choice(
                engine, clip, kernel, device, batch_sizes, cancelled, max(frames, 1)
            )
        except BlurCancelled:
            raise
        except Exception as error:
            _failed(engine, error, errors)
    first = _first_pass(
        clip, start, frames, kernel, chosen, choices, device, errors, cancelled, progress
    )
    if first.frames < frames:  # fewer decoded than asked for: the sizes chosen again for them
        for name in first.first_seconds:
            again = choices[name].for_span(first.frames, filled=chosen[name].compiles)
            if again.size != choices[name].size:
                choices[name] = again
                first.first_seconds[name] = again.first_call_seconds[again.size]
                first.compilations[name] = again.compilation[again.size]
    frames, differences, problem = first.frames, first.differences, first.problem
    passes: dict[str, list[float]] = {name: [] for name in first.calls}
    overlapped: set[str] = set()

    def timed_pass(name: str) -> Callable[[], Call]:
        return functools.partial(
            _timed_pass,
            chosen[name],
            clip,
            start,
            frames,
            kernel,
            choices[name].size,
            device,
            passes[name],
            overlapped,
        )

    first_calls = {
        name: FirstCall(
            output=first.outputs[name],
            again=timed_pass(name),
            seconds=call_seconds,
            device=first.devices[name],
            compilation=first.compilations[name],
            to_device_seconds=first.calls[name].to_device_seconds,
            from_device_seconds=first.calls[name].from_device_seconds,
        )
        for name, call_seconds in first.first_seconds.items()
    }

    def failed(name: str, error: Exception) -> None:
        _failed(chosen[name], error, errors)

    runs = time_engines(
        first_calls,
        repeats=repeats,
        max_repeats={name: engine.max_repeats for name, engine in chosen.items()},
        cancelled=cancelled,
        failed=failed,
        progress=None if progress is None else lambda d, t: progress("timing", d, t),
    )
    machine = stop_watching()
    # The passes of the timed samples only: the warm-up passes before them are left out.
    end_to_end = {
        name: tuple(passes[name][max(0, len(passes[name]) - timed) :])
        for name, run in runs.items()
        if (timed := len(run.repeat_seconds) * run.calls_per_sample)
    }
    return ClipComparisonResult(
        clip=clip.info,
        spec=spec,
        start=start,
        frames=frames,
        runs={name: runs[name] for name in chosen if name in runs},
        end_to_end_seconds={name: end_to_end[name] for name in chosen if name in end_to_end},
        batches={name: choices[name] for name in chosen if name in choices},
        differences={name: d for name, d in differences.items() if name in runs},
        errors={name: errors[name] for name in chosen if name in errors},
        engines=chosen,
        conditions=None if repeats == 0 else conditions_of(runs, machine),
        clip_problem=problem,
        overlapped=frozenset(name for name in overlapped if name in end_to_end),
    )


def _failed(engine: Engine, error: Exception, errors: dict[str, str]) -> None:
    log.warning("the %s engine failed on a clip", engine.title, exc_info=error)
    errors[engine.name] = describe_failure(engine, error)


def _batch_choice(
    engine: Engine,
    clip: Clip,
    kernel: np.ndarray,
    device: str,
    batch_sizes: Mapping[str, int] | None,
    cancelled: Cancelled | None,
    frames: int,
) -> BatchChoice:
    """The batch size asked for, or the measured one quickest for the span (BatchChoice.for_span:
    a batch filled up with frames the span has not costs its whole time)."""
    if batch_sizes is not None and engine.name in batch_sizes:
        size = batch_sizes[engine.name]
        if size < 1:
            raise ValueError(f"a batch holds at least one frame, not {size}")
        timed = _timed_type(clip)
        if not engine.compiles or engine.frames is None or timed == np.float32:
            return BatchChoice(size, {}, {}, {}, {})
        # The program the timed passes run (of the clip's levels) got now, and its first call
        # the one reported: the pass compared with NumPy reads floats, another program.
        made = np.zeros((size, *clip.info.frame_shape), timed)
        first = engine.blur_frames(made, kernel, device=device)
        return BatchChoice(size, {}, {}, {size: first.call.seconds}, {size: first.compilation})
    sizes = [size for size in BATCH_SIZES if size <= frames]
    return choose_batch_size(
        engine,
        clip.info.frame_shape,
        kernel,
        device=device,
        sizes=sizes,
        cancelled=cancelled,
        dtype=_timed_type(clip),
    ).for_span(frames, filled=engine.compiles)


def _timed_type(clip: Clip) -> np.dtype:
    """The number type of the frames a timed pass reads: the stored levels a clip gives (a
    quarter of the floats' bytes to read, batch and copy), else float32."""
    if not clip.gives_levels:
        return np.dtype(np.float32)
    return clip.info.levels_type


@dataclass
class _FirstPass:
    frames: int
    first_seconds: dict[str, float] = field(default_factory=dict)
    calls: dict[str, Call] = field(default_factory=dict)
    outputs: dict[str, np.ndarray] = field(default_factory=dict)
    devices: dict[str, str] = field(default_factory=dict)
    compilations: dict[str, Compilation | None] = field(default_factory=dict)
    differences: dict[str, float] = field(default_factory=dict)
    problem: str | None = None
    error: ClipError | None = None


def _first_pass(
    clip: Clip,
    start: int,
    frames: int,
    kernel: np.ndarray,
    engines: Mapping[str, Engine],
    choices: Mapping[str, BatchChoice],
    device: str,
    errors: dict[str, str],
    cancelled: Cancelled | None,
    progress: Callable[[str, int, int], None] | None,
) -> _FirstPass:
    """Every frame of the span through every engine that has a batch size, the span read once
    in chunks of the largest batch; each engine's outputs compared with the reference's."""
    alive = [name for name in engines if name in choices]
    result = _FirstPass(frames=0)
    chunk = max((choices[name].size for name in alive), default=1)
    read = _frames_until_problem(clip, start, frames, result)
    for batch in frame_batches(read, chunk):
        reference_output = None
        for name in sorted(alive, key=lambda n: n != REFERENCE_ENGINE):
            engine, choice = engines[name], choices[name]
            try:
                outputs = []
                for blurred in blur_batches(
                    engine, batch, kernel, batch_size=choice.size, device=device
                ):
                    _first_call_figures(result, name, blurred, choice)
                    outputs.append(blurred.output)
            except BlurCancelled:
                raise
            except Exception as error:
                _failed(engine, error, errors)
                alive.remove(name)
                continue
            output = np.concatenate(outputs)
            if name == REFERENCE_ENGINE:
                reference_output = output
            elif reference_output is not None:
                difference = max_abs_difference(reference_output, output)
                result.differences[name] = max(result.differences.get(name, 0.0), difference)
        result.frames += len(batch)
        if cancelled is not None and cancelled():
            raise BlurCancelled
        if progress is not None:
            progress("frames", result.frames, frames)
    if result.frames == 0:
        if result.error is not None:
            raise result.error
        raise IndexError(f"{clip.info.name} has no frame {start}")
    for name in list(result.first_seconds):
        if name not in alive:
            del result.first_seconds[name]
    return result


def _frames_until_problem(
    clip: Clip, start: int, frames: int, result: _FirstPass
) -> Iterator[np.ndarray]:
    """The span's frames as they decode; a clip that stops part way ends the span there, its
    reason kept in `result.problem`."""
    try:
        yield from clip.frames(start, start + frames)
    except ClipError as error:
        result.problem, result.error = str(error), error


def _first_call_figures(
    result: _FirstPass, name: str, blurred: BlurredFrames, choice: BatchChoice
) -> None:
    """The first batch's figures as the engine's first call; a batch size chosen by measuring
    made the first call of that program already, and that is the one reported."""
    if name in result.first_seconds:
        return
    call = blurred.call
    result.first_seconds[name] = choice.first_call_seconds.get(choice.size, call.seconds)
    result.calls[name] = call
    result.outputs[name] = blurred.output[0]
    result.devices[name] = blurred.device
    result.compilations[name] = choice.compilation.get(choice.size, blurred.compilation)


def _timed_pass(
    engine: Engine,
    clip: Clip,
    start: int,
    frames: int,
    kernel: np.ndarray,
    batch_size: int,
    device: str,
    passes: list[float],
    overlapped: set[str],
) -> Call:
    """One pass over the span, its blur and copies summed into a Call; its wall time with the
    clip's frames read and batched appended to `passes`. The frames are read as the levels
    they are stored in where the clip gives them, coming back as levels (Clip.levels): a
    quarter of the floats' bytes for 8-bit levels, half for 16-bit, made, copied and sent.

    They are read in the pass's own thread: read ahead on another, the reading took cores from
    the blur alone of a CPU's engines (NumPy's a fifth slower on a small CPU) and gained
    nothing end to end. Where the engine can overlap its copies with its blur on its device (an
    accelerator), a second pass does so, and its wall time is the end to end instead (the
    engine's name is added to `overlapped`). That pass reads in its own thread too: a
    batch's copy to the device is started, not waited for, so reading the next overlaps it;
    read ahead on another thread, a 4K clip's frames crossed slower on a TPU, in colour about
    half as fast in batches of 1 (docs/performance.md, "What the code's settings rest on")."""
    began = time.perf_counter()
    seconds, to_device, from_device = 0.0, None, None
    read = clip.levels if clip.gives_levels else clip.frames
    for blurred in blur_batches(
        engine, read(start, start + frames), kernel, batch_size=batch_size, device=device
    ):
        call = blurred.call
        seconds += call.seconds
        if call.to_device_seconds is not None:
            to_device = (to_device or 0.0) + call.to_device_seconds
        if call.from_device_seconds is not None:
            from_device = (from_device or 0.0) + call.from_device_seconds
    end_to_end = time.perf_counter() - began
    began = time.perf_counter()
    stream = overlapped_batches(
        engine, read(start, start + frames), kernel, batch_size=batch_size, device=device
    )
    if stream is not None:
        for _ in stream:
            pass
        end_to_end = time.perf_counter() - began
        overlapped.add(engine.name)
    passes.append(end_to_end)
    return Call(seconds, to_device, from_device)


def clip_comparison_dict(result: ClipComparisonResult) -> dict:
    """The comparison as plain data: what `compare CLIP --json` prints. The clip, the kernel,
    the span, one object per engine under its JSON key, and the jit engine's speed-ups."""
    info = result.clip
    data: dict = {
        "clip": {
            "name": info.name,
            "width": info.width,
            "height": info.height,
            "frame_count": info.frame_count,
            "frame_count_estimated": info.frame_count_estimated,
            "frames_per_second": info.frames_per_second,
            "colour": info.colour,
        },
        "kernel": kernel_dict(result.spec.size, result.spec.sigma, result.spec.algorithm),
        "start": result.start,
        "frames": result.frames,
    }
    for name in [*result.runs, *result.errors]:
        data[json_key(name)] = _engine_dict(result, name)
    data.update(headline_dict(result), clip_problem=result.clip_problem)
    return data


def _engine_dict(result: ClipComparisonResult, name: str) -> dict:
    run = result.runs.get(name)
    choice = result.batches.get(name)
    per_frame = result.seconds_per_frame(name)
    end_to_end = result.end_to_end_seconds_per_frame(name)
    return {
        "frames_per_second": result.frames_per_second(name),
        "ms_per_frame": None if per_frame is None else per_frame * 1000,
        "frames_per_second_end_to_end": result.end_to_end_frames_per_second(name),
        "ms_per_frame_end_to_end": None if end_to_end is None else end_to_end * 1000,
        "span_seconds": None if per_frame is None else per_frame * result.frames,
        "span_seconds_quartiles": list(run.quartiles) if run else None,
        "span_seconds_all": list(run.repeat_seconds) if run else None,
        "first_call_seconds": run.first_call_seconds if run else None,
        "compilation": str(run.compilation) if run and run.compilation else None,
        "device": run.device if run else None,
        "batch_size": choice.size if choice else None,
        # The end to end timed with the batches' copies overlapping their blur.
        "end_to_end_overlapped": name in result.overlapped,
        # batch size → frames a second, copies counted, as measured to choose it.
        "batch_sizes_tried": {
            str(size): 1 / seconds for size, seconds in choice.seconds_per_frame.items()
        }
        if choice
        else {},
        **against_reference_dict(result, name),
    }
