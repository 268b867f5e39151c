"""How fast a picture's bytes cross between the host and JAX's device in each layout, both
ways: the 2-D array as the engines moved it before blurapp.core.engines.host_link, the flat
bytes whole, the flat bytes in 4, 8, 16 and 32 pieces (every piece's copy started before any is
waited for), the same bytes as uint32 words (in the picture's rows, in rows of 1,024, in rows
of whole lane groups, as one row, in 4 and 8 pieces, three pictures in flight),
and host_link's pieces (joined and shaped on the device going, flattened and cut there coming
back) at each count and at its own. Pictures as the engines move them: rows of 8-bit values (a
24 MP grey photo, a 24 MP colour one, a 4K colour frame in a batch of one) and a 2 MP grey
photo, where a piece's call costs most. Medians of 7, in ms and GB/s; each copy back is of an
array made afresh on the device (JAX keeps what it fetched once, and would hand it back again at
no cost).

Then, for each picture, "bytes → blurred levels → bytes" through a stand-in blur (a jitted
program halving every level, rounded) in each layout the engine may use: the 2-D array,
host_link's pieces with their joining and cutting programs, and uint32 words in each shape (and
in pieces) that the stand-in's own program takes and hands back, bitcast inside it, so no
program runs for the crossing alone: to the device, the program, back, and the three chained
without waiting between (end to end), one picture alone and three in flight. (These words are
the probe's own, bitcast by XLA: BlurApp's engines once took them the same way, measured slower
end to end on a TPU; its "words" layout now has the word kernels make them floats instead.)

Last, the engines themselves (`--sections engine`): JAX-jit and JAX Pallas in each layout
host_link can be forced to (host_link.forced_layout: "words", a TPU's, 8-bit levels as 32-bit
words that the blur's own program takes, made floats and rounded back by the word kernels;
"pieces"; "as it is", the photo's rows in one copy each way): a first call, then steady calls
on a 24 MP grey and colour photo of 8-bit levels (to the device, the blur, back, end to end,
and end to end in bands), and a 4K clip's frames blurred with their batches' copies
overlapping the blur (frames/s, grey and colour, batches of 1, 2 and 4).

    python docs/performance/host_link.py           # writes $OUT/host_link.json (or /tmp)
    python docs/performance/host_link.py --small   # small pictures: a quick check on any machine
    python docs/performance/host_link.py --sections engine   # $OUT/host_link-engine.json

It prints the piece count that was quickest each way over the three large pictures, from which
host_link.LINK_PIECES is set, and the layout quickest end to end.
"""

import argparse
import functools
import itertools
import json
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from blurapp.core.engines import get_engine, host_link
from blurapp.core.engines.frame_batches import overlapped_batches
from blurapp.core.kernel import gaussian_kernel

PICTURES = {
    "grey24": (4000, 6000),
    "colour24": (4000, 6000 * 3),
    "frame4k": (1, 2160, 3840 * 3),
    "grey2": (1080, 1920),
}
SMALL_PICTURES = {
    "grey24": (40, 60),
    "colour24": (40, 60 * 3),
    "frame4k": (1, 22, 38 * 3),
    "grey2": (11, 19),
}
# The pictures whose sum picks the quickest piece count: the large ones.
CHOOSING = ("grey24", "colour24", "frame4k")
PIECE_COUNTS = (4, 8, 16, 32)
WORD_PIECE_COUNTS = (4, 8)
IN_FLIGHT = 3  # pictures whose copies are started before any is waited for
TIMES = 7
SECTIONS = ("links", "fused", "engine")
# The engine's photos (height × width [× 3], 8-bit levels), its clip's frames and its batches.
PHOTOS = {"grey24": (4000, 6000), "colour24": (4000, 6000, 3)}
SMALL_PHOTOS = {"grey24": (40, 60), "colour24": (40, 60, 3)}
CLIP = {"grey4k": (2160, 3840), "colour4k": (2160, 3840, 3)}
SMALL_CLIP = {"grey4k": (22, 38), "colour4k": (22, 38, 3)}
CLIP_FRAMES, SMALL_CLIP_FRAMES = 48, 8
BATCH_SIZES = (1, 2, 4)
ENGINE_LAYOUTS = (host_link.WORDS, host_link.PIECES, host_link.AS_IT_IS)
ENGINES = {"jax": "JAX-jit", "pallas": "JAX Pallas"}
# The most uint32 words a row of the probe's "rows of lane groups" holds: whole groups of the
# 128 lanes an accelerator lays an array's last axis across.
WORDS_A_ROW = 1024
LANES = 128
LANE_ROWS = "words, rows of lane groups"


def milliseconds(
    step: Callable[[object], object], setup: Callable[[], object], count: int = 1
) -> float:
    """The median of TIMES runs of `step(setup())`, `setup` untimed, in milliseconds, divided
    by `count` (the pictures one step moves)."""
    seconds = []
    for _ in range(TIMES):
        made = setup()
        start = time.perf_counter()
        step(made)
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds) * 1000 / count


def pieces_of(flat: np.ndarray, count: int) -> list[np.ndarray]:
    edges = host_link.piece_edges(flat.size, flat.itemsize, count)
    return [flat[start:end] for start, end in itertools.pairwise(edges)]


def put_all(parts: list[np.ndarray], device) -> list:
    """Every part's copy started, then all waited for."""
    return jax.block_until_ready([jax.device_put(part, device) for part in parts])


def gather(parts_on_device: list, size: int, dtype) -> np.ndarray:
    """Every part's copy back started, then each gathered into one host array."""
    for part in parts_on_device:
        part.copy_to_host_async()
    host = np.empty(size, dtype)
    start = 0
    for part in parts_on_device:
        values = np.asarray(part).reshape(-1)
        host[start : start + values.size] = values
        start += values.size
    return host


def lane_rows(words: int) -> tuple[int, ...]:
    """`words` uint32 words as rows of the widest whole groups of LANES words, up to
    WORDS_A_ROW, that divide them, else one row."""
    for width in range(WORDS_A_ROW - WORDS_A_ROW % LANES, 0, -LANES):
        if words % width == 0:
            return (words // width, width)
    return (words,)


def word_shapes(host: np.ndarray) -> dict[str, tuple[int, ...]]:
    """The uint32 word shapes tried for `host`'s bytes, by name: rows of whole lane groups
    (lane_rows), rows of 1,024, the picture's own rows, one row; none where its bytes are no
    whole number of words."""
    if host.nbytes == 0 or host.nbytes % 4:
        return {}
    words = host.nbytes // 4
    shapes = {LANE_ROWS: lane_rows(words)}
    if words % 1024 == 0:
        shapes["words, rows of 1024"] = (words // 1024, 1024)
    row_bytes = host.shape[-1] * host.itemsize
    if row_bytes % 4 == 0:
        shapes["words, the picture's rows"] = (host.nbytes // row_bytes, row_bytes // 4)
    shapes["words, one row"] = (words,)
    return {name: shape for name, shape in shapes.items() if shape is not None}


def word_pieces(words: np.ndarray, count: int) -> list[np.ndarray]:
    """`words` cut into `count` pieces: blocks of whole rows (of a 2-D array), or 1-D pieces."""
    if words.ndim == 2:
        edges = np.linspace(0, words.shape[0], min(count, words.shape[0]) + 1).astype(int)
        return [words[start:end] for start, end in itertools.pairwise(edges)]
    return pieces_of(words, count)


def ways(host: np.ndarray, device) -> dict[str, tuple]:
    """Each way of crossing: (to the device, what it is given, back to the host, what it is
    given: a fresh array on the device, and how many pictures a step moves)."""
    flat = host.reshape(-1)

    def fresh(values):
        return lambda: jax.block_until_ready(jax.device_put(values, device))

    def none():
        return None

    def whole(values):
        return (
            lambda _: jax.block_until_ready(jax.device_put(values, device)),
            none,
            lambda on_device: np.asarray(jax.device_get(on_device)),
            fresh(values),
            1,
        )

    found = {"2-D as the engines did": whole(host), "1-D whole": whole(flat)}
    for count in PIECE_COUNTS:
        parts = pieces_of(flat, count)
        found[f"1-D in {count} pieces"] = (
            lambda _, parts=parts: put_all(parts, device),
            none,
            lambda on_device: gather(on_device, flat.size, flat.dtype),
            lambda parts=parts: put_all(parts, device),
            1,
        )
    if host.shape[-1] % 4 == 0 and host.dtype == np.uint8:
        found["2-D as uint32"] = whole(host.view(np.uint32))
    for name, shape in word_shapes(host).items():
        words = flat.view(np.uint32).reshape(shape)
        found[name] = whole(words)
        if name == LANE_ROWS:
            for count in WORD_PIECE_COUNTS:
                parts = word_pieces(words, count)
                found[f"words in {count} pieces"] = (
                    lambda _, parts=parts: put_all(parts, device),
                    none,
                    lambda on_device, words=words: gather(on_device, words.size, words.dtype),
                    lambda parts=parts: put_all(parts, device),
                    1,
                )
            many = [words] * IN_FLIGHT
            found[f"words, {IN_FLIGHT} in flight"] = (
                lambda _, many=many: put_all(many, device),
                none,
                lambda on_device: [np.asarray(part) for part in _started(on_device)],
                lambda many=many: put_all(many, device),
                IN_FLIGHT,
            )
    for count in (1, *PIECE_COUNTS, None):
        name = "host_link pieces" if count is None else f"host_link in {count}"
        with host_link.forced_layout(host_link.PIECES):
            host_link.prepare_send(jax, host.shape, host.dtype, device, pieces=count)
            host_link.prepare_fetch(jax, host.shape, host.dtype, device, pieces=count)
        found[name] = (
            lambda _, count=count: jax.block_until_ready(
                _in_layout(host_link.PIECES, host_link.send, jax, host, device, pieces=count)
            ),
            none,
            lambda on_device, count=count: _in_layout(
                host_link.PIECES, host_link.fetch, jax, on_device, pieces=count
            ),
            fresh(host),
            1,
        )
    return found


def _started(parts: list) -> list:
    for part in parts:
        part.copy_to_host_async()
    return parts


def halved(values):
    """The stand-in blur: every level halved, rounded, in its own number type."""
    return jnp.round(values.astype(jnp.float32) * 0.5).astype(values.dtype)


def halved_in_words(words, shape, dtype):
    """The stand-in blur taking the picture (of `shape` and `dtype`) as the uint32 `words` its
    bytes are, and handing its output back as words of the same shape: the bitcasts are its
    own first and last steps."""
    values = lax.bitcast_convert_type(words, np.dtype(dtype)).reshape(shape)
    output = halved(values)
    # Each word of the values' bytes, in the order they lie (a bitcast to a wider type takes
    # the last axis's values as one word's).
    ratio = 4 // np.dtype(dtype).itemsize
    grouped = output.reshape(*words.shape, ratio) if ratio > 1 else output.reshape(words.shape)
    return lax.bitcast_convert_type(grouped, np.uint32)


def halved_in_word_pieces(*pieces, shape, dtype, cuts):
    """The stand-in blur taking the picture as uint32 word pieces (blocks of rows) and handing
    it back as pieces cut at the same rows: the joining and cutting are its own steps."""
    packed = halved_in_words(jnp.concatenate(pieces), shape, dtype)
    return tuple(packed[start:end] for start, end in itertools.pairwise(cuts))


def fused_ways(host: np.ndarray, device) -> dict[str, tuple]:
    """Each layout "bytes → halved levels → bytes" takes: (send, program, fetch), each given
    what the one before handed over; the programs compiled here, outside any timing."""
    found = {}
    plain = jax.jit(halved).lower(jax.ShapeDtypeStruct(host.shape, host.dtype)).compile()
    found["2-D array"] = (
        lambda: jax.device_put(host, device),
        plain,
        lambda output: np.asarray(jax.device_get(output)),
    )
    with host_link.forced_layout(host_link.PIECES):
        host_link.prepare_send(jax, host.shape, host.dtype, device)
        host_link.prepare_fetch(jax, host.shape, host.dtype, device)
    found["host_link pieces + programs"] = (
        lambda: _in_layout(host_link.PIECES, host_link.send, jax, host, device),
        plain,
        lambda output: _in_layout(host_link.PIECES, host_link.fetch, jax, output),
    )
    jitted = jax.jit(functools.partial(halved_in_words, shape=host.shape, dtype=host.dtype.str))
    flat = host.reshape(-1)
    for name, shape in word_shapes(host).items():
        words = flat.view(np.uint32).reshape(shape)
        compiled = jitted.lower(jax.ShapeDtypeStruct(shape, np.uint32)).compile()
        found[f"fused {name}"] = (
            lambda words=words: jax.device_put(words, device),
            compiled,
            # The words fetched, seen as the picture's levels: a view, no copy.
            lambda output: (
                np.asarray(jax.device_get(output)).reshape(-1).view(host.dtype).reshape(host.shape)
            ),
        )
        if name != LANE_ROWS:
            continue
        for count in WORD_PIECE_COUNTS:
            parts = word_pieces(words, count)
            cuts = tuple(itertools.accumulate((len(part) for part in parts), initial=0))
            specs = [jax.ShapeDtypeStruct(part.shape, np.uint32) for part in parts]
            in_pieces = jax.jit(
                functools.partial(
                    halved_in_word_pieces, shape=host.shape, dtype=host.dtype.str, cuts=cuts
                )
            )
            compiled = in_pieces.lower(*specs).compile()
            found[f"fused words in {count} pieces"] = (
                lambda parts=parts: [jax.device_put(part, device) for part in parts],
                lambda sent, compiled=compiled: compiled(*sent),
                lambda output, size=words.size: (
                    gather(_started(list(output)), size, np.uint32)
                    .view(host.dtype)
                    .reshape(host.shape)
                ),
            )
    return found


def _in_layout(layout: str, function: Callable, *args, **named):
    with host_link.forced_layout(layout):
        return function(*args, **named)


def fused_figures(host: np.ndarray, device) -> dict:
    """For each fused way: to the device, the program, back (each waited for), and end to end
    (the three chained, waited for once at the end), one picture and IN_FLIGHT in flight."""
    expected = np.round(host.astype(np.float32) * 0.5).astype(host.dtype)
    figures = {}
    for name, (send, program, fetch) in fused_ways(host, device).items():
        assert np.array_equal(fetch(program(send())), expected), f"{name} changed the picture"

        def chained(count: int, send=send, program=program, fetch=fetch) -> None:
            outputs = [program(send()) for _ in range(count)]
            for output in outputs:
                fetch(output)

        to_ms = milliseconds(lambda _, send=send: jax.block_until_ready(send()), lambda: None)
        program_ms = milliseconds(
            lambda sent, program=program: jax.block_until_ready(program(sent)),
            lambda send=send: jax.block_until_ready(send()),
        )
        back_ms = milliseconds(
            fetch, lambda send=send, program=program: jax.block_until_ready(program(send()))
        )
        figures[name] = {
            "to_ms": round(to_ms, 3),
            "program_ms": round(program_ms, 3),
            "back_ms": round(back_ms, 3),
            "end_to_end_ms": round(milliseconds(lambda _: chained(1), lambda: None), 3),
            "in_flight_ms": round(
                milliseconds(lambda _: chained(IN_FLIGHT), lambda: None, IN_FLIGHT), 3
            ),
        }
    return figures


def picture_figures(shape: tuple[int, ...], device, rng) -> dict:
    host = rng.integers(0, 256, shape, dtype=np.uint8)
    # host_link's own pieces, both ways, give the picture back as it was.
    with host_link.forced_layout(host_link.PIECES):
        there = jax.block_until_ready(host_link.send(jax, host, device))
        assert np.array_equal(host_link.fetch(jax, there), host), "host_link changed the picture"
    figures = {
        "shape": list(shape),
        "bytes": host.nbytes,
        "host_link_pieces": host_link.pieces_for(host.nbytes, device),
        "lane_rows": word_shapes(host).get(LANE_ROWS),
    }
    for name, (to, to_setup, back, back_setup, count) in ways(host, device).items():
        to_ms = milliseconds(to, to_setup, count)
        back_ms = milliseconds(back, back_setup, count)
        figures[name] = {
            "to_ms": round(to_ms, 3),
            "to_gb_s": round(host.nbytes / to_ms / 1e6, 2),
            "back_ms": round(back_ms, 3),
            "back_gb_s": round(host.nbytes / back_ms / 1e6, 2),
        }
    return figures


def quickest_counts(found: dict) -> dict[str, int]:
    """The piece count host_link was quickest at each way, its times summed over CHOOSING."""
    quickest = {}
    for way in ("to_ms", "back_ms"):
        totals = {
            count: sum(found[label][f"host_link in {count}"][way] for label in CHOOSING)
            for count in (1, *PIECE_COUNTS)
        }
        quickest[way.removesuffix("_ms")] = min(totals, key=totals.__getitem__)
    return quickest


def quickest_fused(fused: dict) -> str:
    """The fused way quickest end to end, summed over the CHOOSING pictures that have it."""
    totals: dict[str, float] = {}
    for label in CHOOSING:
        for name, figures in fused.get(label, {}).items():
            totals[name] = totals.get(name, 0.0) + figures["end_to_end_ms"]
    counts = {name: sum(name in fused.get(label, {}) for label in CHOOSING) for name in totals}
    complete = {
        name: total for name, total in totals.items() if counts[name] == max(counts.values())
    }
    return min(complete, key=complete.__getitem__) if complete else ""


def median_ms(values: list[float]) -> float:
    return round(statistics.median(values) * 1000, 3)


def engine_photo_figures(shape: tuple[int, ...], rng, name: str = "jax") -> dict:
    """An engine's (JAX-jit's unless `name` says) first call and TIMES steady calls on a photo
    of 8-bit levels, in each of ENGINE_LAYOUTS: to the device, the blur, back, end to end, and
    in bands."""
    engine = get_engine(name)
    levels = rng.integers(0, 256, shape, dtype=np.uint8)
    image = levels.astype(np.float32) * np.float32(1 / 255)
    kernel = np.asarray(gaussian_kernel(9, 2.5), np.float32)
    figures: dict = {"shape": list(shape)}
    outputs = {}
    for layout in ENGINE_LAYOUTS:
        with host_link.forced_layout(layout):
            first = engine.first_call(image, kernel)
            calls = [first.again() for _ in range(TIMES)]
        outputs[layout] = np.asarray(first.output)
        ends = [call.to_device_seconds + call.seconds + call.from_device_seconds for call in calls]
        banded = [call.in_bands_seconds for call in calls if call.in_bands_seconds is not None]
        figures[layout] = {
            "device": first.device,
            "first_call_ms": round(first.seconds * 1000, 3),
            "to_ms": median_ms([call.to_device_seconds for call in calls]),
            "blur_ms": median_ms([call.seconds for call in calls]),
            "back_ms": median_ms([call.from_device_seconds for call in calls]),
            "end_to_end_ms": median_ms(ends),
            "in_bands_ms": median_ms(banded) if banded else None,
            "bands": calls[-1].bands,
        }
    first_layout, *others = ENGINE_LAYOUTS
    figures["max_difference_between_layouts"] = max(
        float(np.max(np.abs(outputs[other] - outputs[first_layout]))) for other in others
    )
    return figures


def engine_clip_figures(shape: tuple[int, ...], frames: int, rng, name: str = "jax") -> dict:
    """A clip of `frames` frames of 8-bit levels blurred by an engine (JAX-jit's unless `name`
    says) with its batches' copies overlapping the blur (frame_batches.overlapped_batches), in
    each of ENGINE_LAYOUTS and BATCH_SIZES: frames a second, decoding excluded (the frames are
    made beforehand)."""
    engine = get_engine(name)
    distinct = [rng.integers(0, 256, shape, dtype=np.uint8) for _ in range(4)]
    clip = [distinct[index % len(distinct)] for index in range(frames)]
    kernel = np.asarray(gaussian_kernel(9, 2.5), np.float32)
    figures: dict = {"shape": list(shape), "frames": frames}
    for layout in ENGINE_LAYOUTS:
        figures[layout] = {}
        with host_link.forced_layout(layout):
            for batch_size in BATCH_SIZES:
                passes = []
                for attempt in range(4):  # the first compiles, untimed
                    start = time.perf_counter()
                    stream = overlapped_batches(engine, iter(clip), kernel, batch_size=batch_size)
                    if stream is None:
                        break
                    blurred = sum(len(batch) for batch in stream)
                    assert blurred == frames, "the clip came back short"
                    if attempt:
                        passes.append(time.perf_counter() - start)
                if passes:
                    figures[layout][f"batches of {batch_size}"] = round(frames / min(passes), 1)
    return figures


def engine_figures(small: bool, rng) -> dict:
    photos, clip = (SMALL_PHOTOS, SMALL_CLIP) if small else (PHOTOS, CLIP)
    frames = SMALL_CLIP_FRAMES if small else CLIP_FRAMES
    found: dict = {"photos": {}, "clip": {}}
    for name, words in ENGINES.items():
        for label, shape in photos.items():
            found["photos"][f"{name} {label}"] = figures = engine_photo_figures(shape, rng, name)
            device = figures[ENGINE_LAYOUTS[0]]["device"]
            print(f"\nengine: {label} {shape} 8-bit, {words} on {device}")
            print(
                f"  {'':9} {'to ms':>8} {'blur ms':>8} {'back ms':>8} {'end ms':>8} {'bands ms':>8}"
            )
            for layout in ENGINE_LAYOUTS:
                row = figures[layout]
                bands = "" if row["in_bands_ms"] is None else f"{row['in_bands_ms']:8.3f}"
                print(
                    f"  {layout:9} {row['to_ms']:8.3f} {row['blur_ms']:8.3f} {row['back_ms']:8.3f}"
                    f" {row['end_to_end_ms']:8.3f} {bands:>8}",
                    flush=True,
                )
            difference = figures["max_difference_between_layouts"]
            print(f"  max difference between layouts {difference:.2e}")
        for label, shape in clip.items():
            found["clip"][f"{name} {label}"] = figures = engine_clip_figures(
                shape, frames, rng, name
            )
            print(f"\nengine: clip {label} {shape}, {frames} frames, {words}, frames/s overlapped")
            for layout in ENGINE_LAYOUTS:
                rates = ", ".join(f"{batch} {rate}" for batch, rate in figures[layout].items())
                print(f"  {layout:9} {rates or 'no overlapped batches on this device'}", flush=True)
    return found


def print_links(label: str, figures: dict) -> None:
    print(f"\n{label} {tuple(figures['shape'])} uint8, {figures['bytes'] / 1e6:.1f} MB")
    print(f"  {'':28} {'to ms':>8} {'GB/s':>6} {'back ms':>8} {'GB/s':>6}")
    for name, row in figures.items():
        if isinstance(row, dict):
            print(
                f"  {name:28} {row['to_ms']:8.3f} {row['to_gb_s']:6.2f}"
                f" {row['back_ms']:8.3f} {row['back_gb_s']:6.2f}",
                flush=True,
            )


def print_fused(label: str, figures: dict) -> None:
    print(f"\n{label}: bytes → halved levels → bytes, ms")
    print(f"  {'':36} {'to':>7} {'program':>7} {'back':>7} {'end':>7} {f'{IN_FLIGHT} fly':>7}")
    for name, row in figures.items():
        print(
            f"  {name:36} {row['to_ms']:7.3f} {row['program_ms']:7.3f} {row['back_ms']:7.3f}"
            f" {row['end_to_end_ms']:7.3f} {row['in_flight_ms']:7.3f}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", action="store_true", help="small pictures, a quick check")
    parser.add_argument(
        "--sections", nargs="+", choices=SECTIONS, default=list(SECTIONS), help="what to measure"
    )
    arguments = parser.parse_args()
    device = jax.devices()[0]
    print("jax", jax.__version__, "device", device.platform, device.device_kind, flush=True)
    rng = np.random.default_rng(0)
    pictures = SMALL_PICTURES if arguments.small else PICTURES
    found: dict = {
        "jax": jax.__version__,
        "device": f"{device.platform}: {device.device_kind}",
        "small": arguments.small,
        "times": TIMES,
        "sections": arguments.sections,
        "link_pieces": host_link.LINK_PIECES,
        "min_piece_bytes": host_link.MIN_PIECE_BYTES,
        "words_a_row": WORDS_A_ROW,
        "layout": host_link.layout_for(device),
    }
    if "links" in arguments.sections:
        for label, shape in pictures.items():
            found[label] = picture_figures(shape, device, rng)
            print_links(label, found[label])
        found["quickest_pieces"] = quickest_counts(found)
        print(
            f"\nhost_link quickest (pieces, summed over {', '.join(CHOOSING)}): "
            f"to the device {found['quickest_pieces']['to']}, "
            f"back {found['quickest_pieces']['back']}; LINK_PIECES is {host_link.LINK_PIECES}"
        )
    if "fused" in arguments.sections:
        found["fused"] = {}
        for label, shape in pictures.items():
            host = rng.integers(0, 256, shape, dtype=np.uint8)
            found["fused"][label] = fused_figures(host, device)
            print_fused(label, found["fused"][label])
        found["quickest_fused"] = quickest_fused(found["fused"])
        print(
            f"\nquickest end to end (summed over {', '.join(CHOOSING)}): {found['quickest_fused']}"
        )
    if "engine" in arguments.sections:
        found["engine"] = engine_figures(arguments.small, rng)
    # All sections: host_link.json; some: named for them, so that runs of parts keep apart.
    some = "" if set(arguments.sections) == set(SECTIONS) else "-" + "-".join(arguments.sections)
    out = Path(os.environ.get("OUT", "/tmp")) / f"host_link{some}.json"
    out.write_text(json.dumps(found, indent=1), encoding="utf-8")
    print("written", out)


if __name__ == "__main__":
    main()
