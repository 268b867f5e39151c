"""A picture's bytes between the host and a JAX device, in the layout the link moves fastest.

An accelerator takes a 2-D array (a photo's rows, a batch of frames) in its own tiled layout,
and a single copy of one is laid out on the way, at a fraction of what the host's link to the
device moves. Two ways round it, one a platform's (blurapp.core.platforms.Platform.link):

- "words": a picture of 8-bit levels, each row a whole number of 32-bit words, crosses as
  those words (the picture's rows, a quarter as many values: word_shape), which the link moves
  at about twice the speed of the same bytes as a uint8 array; the host sees the picture as
  its words, and the words it fetches as the picture, without a copy. The blur's own compiled
  program takes the words (in_words, WordsProgram): two small Pallas kernels
  (blurapp.core.engines.word_kernels) make them floats on the device before its blur and its
  rounded levels words again after it, so no program runs for the crossing alone. Anything
  else (16-bit levels, floats, rows of odd bytes) and a program that takes the picture itself
  crosses as "pieces".
- "pieces": LINK_PIECES pieces of the flat bytes, every piece put before any is waited for,
  joined and shaped on the device by a small compiled program of its own; back the other way:
  cut on the device, every piece's copy started, gathered into one host array.

On a CPU the device is the host's own memory ("as it is"): an array crosses as it is, in one
copy that JAX may even skip (the live preview's kept photo relies on that,
on_device._KeptPhoto). forced_layout switches the layout for every device, for the probe
(docs/performance/host_link.py, which measures each way of crossing) and the tests.

jax is imported by the engines, which hand it to these functions with the device.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from blurapp.core.engines import word_kernels
from blurapp.core.engines.jax_program import floats_to_levels, levels_to_floats
from blurapp.core.engines.programs import compiled_programs
from blurapp.core.engines.runs import Compilation
from blurapp.core.platforms import platform_traits

# The pieces an accelerator's copy of a picture is cut into: the link moves several pieces at
# once where one array crosses alone, and each piece's call costs a little, so past some count
# more only add calls. Measured for each count by docs/performance/host_link.py.
LINK_PIECES = 16
# A piece holds at least this many bytes: a picture of a few pieces' bytes crosses in fewer
# pieces, whose calls would cost more than the link's speed gains on so few bytes.
MIN_PIECE_BYTES = 1 << 20
# A picture of fewer bytes crosses whole: joining and cutting it on the device costs more than
# the pieces gain (the probe's 2 MP photo crossed back slower in pieces than whole).
WHOLE_BELOW_BYTES = 4 << 20
# Pieces start on whole blocks of this many of the picture's bytes: a value never straddles
# two pieces, and each piece's start lies as the whole array's does in the host's memory.
ALIGN_BYTES = 512
# The number type of the words a picture crosses in: the chip's 32-bit integer (what the host
# sees them as does not matter, the bytes are the picture's).
WORD = np.dtype(np.int32)

# The ways a picture crosses the link (see the module's docstring), as Platform.link names them.
AS_IT_IS, PIECES, WORDS = "as it is", "pieces", "words"
LAYOUTS = (AS_IT_IS, PIECES, WORDS)
_forced: str | None = None


def layout_for(device: Any) -> str:
    """How a picture crosses to and from `device`: its platform's Platform.link, unless a
    layout is forced (forced_layout)."""
    return _forced if _forced is not None else platform_traits(device).link


@contextlib.contextmanager
def forced_layout(layout: str | None) -> Iterator[None]:
    """Every device's pictures crossing in `layout` (one of LAYOUTS; None: each platform's
    own) inside the block: the probe's switch between layouts, and the tests' way to run an
    accelerator's crossing on the CPU. Programs compiled meanwhile stay compiled for it."""
    if layout is not None and layout not in LAYOUTS:
        raise ValueError(f"a layout is one of {', '.join(LAYOUTS)}, not {layout!r}")
    global _forced
    before, _forced = _forced, layout
    try:
        yield
    finally:
        _forced = before


def pieces_for(nbytes: int, device: Any) -> int:
    """How many pieces an array of `nbytes` bytes crosses to or from `device` in, when it
    crosses as the array (not in words): 0 (as it is) on a CPU (see the module's docstring) or
    below WHOLE_BELOW_BYTES, else LINK_PIECES, fewer for one of few MIN_PIECE_BYTES."""
    if layout_for(device) == AS_IT_IS or nbytes < WHOLE_BELOW_BYTES:
        return 0
    return max(1, min(LINK_PIECES, nbytes // MIN_PIECE_BYTES))


def piece_edges(size: int, itemsize: int, pieces: int) -> tuple[int, ...]:
    """Where each piece of a flat array of `size` values of `itemsize` bytes starts, and the
    last one ends: `pieces` pieces (as many as it has blocks of ALIGN_BYTES, if fewer), of
    whole blocks each as even as whole blocks allow, the last one taking what is left."""
    align = max(1, ALIGN_BYTES // itemsize)
    blocks = -(-size // align)
    count = max(1, min(pieces, blocks))
    return (*(align * (blocks * index // count) for index in range(count)), size)


def _chosen(pieces: int | None, nbytes: int, device: Any) -> int:
    return pieces_for(nbytes, device) if pieces is None else pieces


def word_shape(shape: tuple[int, ...], dtype: Any) -> tuple[int, ...] | None:
    """The words an array of `shape` and `dtype` crosses as (WORD): its rows of 8-bit levels
    with four levels a word, the last axis a quarter as long; None where it is not levels of 8
    bits, or its rows are no whole number of words (it crosses as the array)."""
    if np.dtype(dtype) != np.uint8 or not shape or 0 in shape or shape[-1] % 4:
        return None
    return (*shape[:-1], shape[-1] // 4)


def words_for(shape: tuple[int, ...], dtype: Any, device: Any) -> tuple[int, ...] | None:
    """The words (word_shape) an array of `shape` and `dtype` crosses to and from `device` in,
    to or from a program that takes words (WordsProgram); None where it crosses as the array
    (a layout other than words, or bytes that are no whole number of words)."""
    return word_shape(shape, dtype) if layout_for(device) == WORDS else None


class Packed:
    """An array of `shape` and `dtype` on a device as the words it crosses in (`words`,
    word_shape): what send(words=True) makes and a WordsProgram takes and hands back. Waited
    for as a JAX array is (jax.block_until_ready), fetched by fetch and start_fetch."""

    def __init__(self, words: Any, shape: tuple[int, ...], dtype: Any) -> None:
        self.words, self.shape, self.dtype = words, tuple(shape), np.dtype(dtype)

    def block_until_ready(self) -> Packed:
        self.words.block_until_ready()
        return self


def send(
    jax: Any, host: np.ndarray, device: Any, *, pieces: int | None = None, words: bool = False
) -> Any:
    """`host`'s copy on `device`, of its shape and number type (not waited for: wait for the
    array, as for jax.device_put's, and the whole copy is done). `pieces`: how many 1-D pieces
    it crosses in (0: as it is; None: pieces_for decides by the device). `words`: for a
    program that takes words (WordsProgram), a Packed copy where words_for says so."""
    if words:
        shape = words_for(host.shape, host.dtype, device)
        if shape is not None:
            # A view of the host's bytes, no copy: the words are the picture's own levels.
            packed = jax.device_put(np.ascontiguousarray(host).view(WORD), device)
            return Packed(packed, host.shape, host.dtype)
    pieces = _chosen(pieces, host.nbytes, device)
    if pieces == 0 or host.size == 0:
        return jax.device_put(host, device)
    # In the number type the device holds it in, as jax.device_put would make it (float64 is
    # float32 unless JAX is asked for 64 bits).
    dtype = np.dtype(jax.dtypes.canonicalize_dtype(host.dtype))
    flat = np.ascontiguousarray(host, dtype=dtype).reshape(-1)
    edges = piece_edges(flat.size, flat.itemsize, pieces)
    # Every piece's copy started before the program that joins them waits for them all.
    parts = [jax.device_put(flat[start:end], device) for start, end in itertools.pairwise(edges)]
    return _joining(jax, tuple(host.shape), flat.dtype, edges, device)(*parts)


class Fetching:
    """A device array on its way to the host, its copies started (start_fetch): in pieces
    cut at `edges` of its flat values, or whole (`edges` None)."""

    def __init__(
        self,
        jax: Any,
        parts: list[Any],
        edges: tuple[int, ...] | None,
        shape: tuple[int, ...],
        dtype: np.dtype,
        *,
        in_words: bool = False,
    ) -> None:
        self._jax, self._parts, self._edges = jax, parts, edges
        self.shape, self.dtype = shape, dtype
        self._in_words = in_words

    @property
    def whole(self) -> bool:
        """Whether the array crosses whole, not in pieces."""
        return self._edges is None

    def array(self) -> np.ndarray:
        """The whole array on the host, waited for. Crossed whole (a CPU's), it may be JAX's
        own read-only buffer; gathered from pieces, a fresh array."""
        if self._edges is None:
            host = np.asarray(self._jax.device_get(self._parts[0]))
            # Words seen as the values they carry: a view, no copy.
            return host.reshape(-1).view(self.dtype).reshape(self.shape) if self._in_words else host
        host = np.empty(self.shape, self.dtype)
        self.into(host)
        return host

    def into(self, out: np.ndarray, first: int = 0) -> None:
        """The array's values from `first` on, in its flat order (row after row), written into
        `out` (contiguous, any shape) until it is full: a band's rows gathered straight into
        the photo's, say."""
        if not out.flags.c_contiguous:
            raise ValueError("the array to gather into must be contiguous")
        flat, last = out.reshape(-1), first + out.size
        if self._edges is None:
            flat[:] = self.array().reshape(-1)[first:last]
            return
        for part, (start, end) in zip(self._parts, itertools.pairwise(self._edges), strict=True):
            low, high = max(start, first), min(end, last)
            if low < high:
                flat[low - first : high - first] = np.asarray(part)[low - start : high - start]


def start_fetch(jax: Any, on_device: Any, *, pieces: int | None = None) -> Fetching:
    """`on_device`'s copy to the host started (in `pieces` pieces, as send's; a Packed array
    in its words), to be waited for with Fetching.array() or .into()."""
    if isinstance(on_device, Packed):
        on_device.words.copy_to_host_async()
        return Fetching(
            jax, [on_device.words], None, on_device.shape, on_device.dtype, in_words=True
        )
    device = next(iter(on_device.devices()))
    nbytes = on_device.size * on_device.dtype.itemsize
    pieces = _chosen(pieces, nbytes, device)
    shape, dtype = tuple(on_device.shape), np.dtype(on_device.dtype)
    if pieces == 0 or on_device.size == 0:
        on_device.copy_to_host_async()
        return Fetching(jax, [on_device], None, shape, dtype)
    edges = piece_edges(on_device.size, dtype.itemsize, pieces)
    parts = list(_cutting(jax, shape, dtype, edges, device)(on_device))
    for part in parts:
        part.copy_to_host_async()
    return Fetching(jax, parts, edges, shape, dtype)


def fetch(jax: Any, on_device: Any, *, pieces: int | None = None, own: bool = False) -> np.ndarray:
    """`on_device` on the host, waited for (Fetching.array); with `own`, always an array of
    its own that the caller may write to."""
    fetching = start_fetch(jax, on_device, pieces=pieces)
    host = fetching.array()
    return host.copy() if own and fetching.whole else host


def prepare_send(
    jax: Any,
    shape: tuple[int, ...],
    dtype: Any,
    device: Any,
    *,
    pieces: int | None = None,
    words: bool = False,
) -> None:
    """The program that joins the pieces of an array of `shape` and `dtype` on `device`
    compiled now (or loaded), so that the copies that use it (send) are not timed compiling;
    none where it crosses in words (send's `words`: the blur's program takes them)."""
    if words and words_for(shape, dtype, device) is not None:
        return
    crossing = _crossing(jax, shape, dtype, device, pieces)
    if crossing is not None:
        _joining(jax, *crossing, device)


def prepare_fetch(
    jax: Any, shape: tuple[int, ...], dtype: Any, device: Any, *, pieces: int | None = None
) -> None:
    """The program that cuts an array of `shape` and `dtype` on `device` into pieces compiled
    now (or loaded), so that the copies that use it (start_fetch) are not timed compiling."""
    crossing = _crossing(jax, shape, dtype, device, pieces)
    if crossing is not None:
        _cutting(jax, *crossing, device)


def prepare_fetch_of(jax: Any, on_device: Any) -> None:
    """prepare_fetch for the array `on_device` (none for a Packed one: its words cross as
    they are)."""
    if not isinstance(on_device, Packed):
        device = next(iter(on_device.devices()))
        prepare_fetch(jax, tuple(on_device.shape), on_device.dtype, device)


def _crossing(
    jax: Any, shape: tuple[int, ...], dtype: Any, device: Any, pieces: int | None
) -> tuple[tuple[int, ...], np.dtype, tuple[int, ...]] | None:
    """The shape, number type and piece edges an array crosses `device`'s link in, as send and
    start_fetch cut it; None where it crosses whole."""
    dtype = np.dtype(jax.dtypes.canonicalize_dtype(dtype))
    size = int(np.prod(shape))
    pieces = _chosen(pieces, size * dtype.itemsize, device)
    if pieces == 0 or size == 0:
        return None
    return tuple(shape), dtype, piece_edges(size, dtype.itemsize, pieces)


def _compiled(
    jax: Any,
    what: str,
    shape: tuple[int, ...],
    dtype: np.dtype,
    edges: tuple[int, ...],
    device: Any,
) -> Any:
    """The program joining ("join") or cutting ("cut") a picture's pieces, compiled once in
    the JAX engines' one cache (programs.compiled_programs), under the family "host link"."""
    key = ("host link", what, shape, dtype.str, edges, str(device.platform), int(device.id))

    def compile_program() -> tuple[Any, Compilation, None]:
        sharding = jax.sharding.SingleDeviceSharding(device)
        if what == "join":
            specs = [
                jax.ShapeDtypeStruct((end - start,), dtype, sharding=sharding)
                for start, end in itertools.pairwise(edges)
            ]
            jitted = jax.jit(functools.partial(_join, shape=shape))
        else:
            specs = [jax.ShapeDtypeStruct(shape, dtype, sharding=sharding)]
            jitted = jax.jit(functools.partial(_cut, edges=edges))
        return jitted.lower(*specs).compile(), Compilation.COMPILED, None

    program, _, _ = compiled_programs.get(key, compile_program)
    return program


def _joining(jax: Any, shape: Any, dtype: np.dtype, edges: Any, device: Any) -> Any:
    return _compiled(jax, "join", shape, dtype, edges, device)


def _cutting(jax: Any, shape: Any, dtype: np.dtype, edges: Any, device: Any) -> Any:
    return _compiled(jax, "cut", shape, dtype, edges, device)


def _join(*parts: Any, shape: tuple[int, ...]) -> Any:
    import jax.numpy as jnp

    return jnp.concatenate(parts).reshape(shape)


def _cut(values: Any, edges: tuple[int, ...]) -> tuple[Any, ...]:
    flat = values.reshape(-1)
    return tuple(flat[start:end] for start, end in itertools.pairwise(edges))


# The words' static arguments to in_words, beside the program's own.
WORD_ARGUMENTS = ("link_program", "link_shape", "link_kernels")


def in_words(
    words: Any,
    weights: Any,
    *,
    link_program: Callable[..., Any],
    link_shape: tuple[int, ...],
    link_kernels: bool = True,
    **static: Any,
) -> Any:
    """`link_program(values, weights, **static)`, a blur of 8-bit levels of `link_shape` (rows
    of values, or frames of them) that hands back its levels (or a pair, its levels and its
    floats), taking the levels as the `words` they crossed in and handing them back in words
    of the same shape: the program is given the floats the levels stand for, made on the device
    by word_kernels.unpacked_floats, and its floats are rounded into levels and packed into
    words by word_kernels.packed_levels, its floats after them where it hands back a pair.
    `link_kernels` False (a CPU standing in for a TPU in the tests): XLA's bitcasts do what the
    kernels do, which Mosaic compiles for a TPU alone (Pallas's interpreter, fused with a batch
    of frames' blur, stopped XLA's CPU compiler: "Failed to translate module")."""
    import jax

    as_levels = jax.ShapeDtypeStruct(tuple(link_shape), np.uint8)
    as_weights = jax.ShapeDtypeStruct(weights.shape, weights.dtype)
    gives = jax.eval_shape(functools.partial(link_program, **static), as_levels, as_weights)
    crossing = gives[0] if isinstance(gives, tuple) else gives
    if tuple(crossing.shape) != tuple(link_shape) or crossing.dtype != np.uint8:
        raise ValueError(
            f"a program taking words hands back levels of the shape it took ({link_shape}), "
            f"not {tuple(crossing.shape)} {crossing.dtype}"
        )
    stacked = (-1, *words.shape[-2:])
    if link_kernels:
        floats = word_kernels.unpacked_floats(words.reshape(stacked), link_shape[-1])
    else:
        floats = levels_to_floats(jax.lax.bitcast_convert_type(words, np.uint8))
    blurred = link_program(floats.reshape(link_shape), weights, **static)
    if link_kernels:
        packed = word_kernels.packed_levels(blurred.reshape(-1, *blurred.shape[-2:]))
    else:
        levels = floats_to_levels(blurred, np.uint8).reshape(*words.shape, 4)
        packed = jax.lax.bitcast_convert_type(levels, WORD)
    packed = packed.reshape(words.shape)
    return (packed, blurred) if isinstance(gives, tuple) else packed


class WordsProgram:
    """A compiled in_words program as the engines call it: given the Packed values it takes
    (send(words=True)) and the weights, it hands back Packed values of the same shape and type
    (and a pair's floats as they are)."""

    def __init__(self, compiled: Any, shape: tuple[int, ...], dtype: Any) -> None:
        self._compiled, self.shape, self.dtype = compiled, tuple(shape), np.dtype(dtype)

    def __call__(self, values: Any, weights: Any) -> Any:
        if not isinstance(values, Packed) or (values.shape, values.dtype) != (
            self.shape,
            self.dtype,
        ):
            raise TypeError(
                f"this program takes {self.shape} {self.dtype} in words (send(words=True)), "
                f"not {type(values).__name__} {getattr(values, 'shape', '')}"
            )
        output = self._compiled(values.words, weights)
        if isinstance(output, tuple):
            return (Packed(output[0], self.shape, self.dtype), *output[1:])
        return Packed(output, self.shape, self.dtype)


def takes_words(program: Any) -> bool:
    """Whether `program` takes its values in words (a WordsProgram): what it is sent in."""
    return isinstance(program, WordsProgram)
