"""What stays on a JAX device between calls for a live preview: the photo it blurs (kept_photo),
the kernels it blurs with (kept_kernels), the frames sent ahead of their calls (sent_ahead)
and the outputs it leaves there (OutputOnDevice).

A pane shows a few hundred thousand screen pixels of a photo of millions: the picture it draws
is made 8-bit and halved on the device (`picture_levels`), so what crosses to the host is what
is seen; a part at full size (`picture_region`: the 100% inset, the value under the cursor)
crosses alone, and with the next picture of its size while a pane still asks for it
(`fetch_wanted_parts`). The float output itself crosses only when a caller reads it (saving, the
difference): `OutputOnDevice` reads as the float32 array it stands for (`np.asarray`, its
shape, indexing, any array method), fetched once and kept.

jax is imported by the engine that made the output; this module only uses what it is given.
"""

from __future__ import annotations

import functools
import threading
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from blurapp.core.engines import host_link
from blurapp.core.engines.levels import cannot_change
from blurapp.core.platforms import on_accelerator, platform_traits

# A block of the picture: its top, left, height and width (pixels).
Place = tuple[int, int, int, int]

# A part of the picture crosses as a block of whole steps of this many pixels a side, and at
# least REGION_BLOCK, kept: the inset's part (at most 220 pixels a side) and the pixel under the
# cursor are blocks of one size, one program for a picture's shape, and the next paint of the
# inset, or a pixel under the cursor inside it, reads the block that crossed.
REGION_STEP = 128
REGION_BLOCK = 2 * REGION_STEP
# The blocks last asked of a picture of each shape that the next output of that shape brings
# with its picture (fetch_wanted_parts): the inset's, and the one under the cursor; each while
# a pane still paints it: asked within WANTED_SECONDS, or since the last picture of that shape
# was made, where they come slower (a playing clip's every frame, a live preview's changes).
# An inset hidden then costs the engine's thread nothing a picture.
WANTED_BLOCKS = 2
WANTED_SECONDS = 2.0


class OutputOnDevice:
    """An image's blurred float32 pixels (height × width, or × channels), kept on `device` as
    rows of values (height × width·channels) until read."""

    def __init__(self, jax: Any, values: Any, shape: tuple[int, ...]) -> None:
        self._jax, self._values = jax, values
        self.shape = tuple(shape)
        self.dtype = np.dtype(np.float32)
        self.ndim = len(self.shape)
        self.size = int(np.prod(self.shape))
        self._lock = threading.Lock()
        self._fetched: np.ndarray | None = None
        # The blocks that crossed (their place: top, left, height, width; the block), the
        # latest last.
        self._blocks: deque[tuple[Place, np.ndarray]] = deque(maxlen=WANTED_BLOCKS)
        with _living_lock:
            _living.add(self)

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    def settle(self) -> None:
        """Fetch the floats, and let go of the device's memory: what is made of them from
        now on (a more detailed level, a part) is made on the host's CPU."""
        jax = self._jax
        pixels = self.fetch()
        with self._lock:
            if not any(on_accelerator(device) for device in self._values.devices()):
                return
            cpu = jax.devices("cpu")[0]
            self._values = jax.device_put(pixels.reshape(self.shape[0], -1), cpu)

    @property
    def fetched(self) -> bool:
        """Whether the floats have crossed to the host (read by some caller)."""
        return self._fetched is not None

    def fetch(self) -> np.ndarray:
        """The float32 pixels on the host, read-only, fetched on the first call."""
        with self._lock:
            if self._fetched is None:
                host = np.asarray(host_link.fetch(self._jax, self._values), dtype=np.float32)
                host = host.reshape(self.shape)
                host.flags.writeable = False
                self._fetched = host
            return self._fetched

    # Read as the array it stands for.
    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        pixels = self.fetch()
        if dtype is not None and np.dtype(dtype) != pixels.dtype:
            return pixels.astype(dtype)
        return pixels.copy() if copy else pixels

    def __getitem__(self, key: Any) -> Any:
        return self.fetch()[key]

    def __len__(self) -> int:
        return self.shape[0]

    def __getattr__(self, name: str) -> Any:
        # Called only for what this class lacks: the array's own methods (astype, reshape, …).
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.fetch(), name)

    # The picture a pane draws, made on the device.
    @property
    def channels(self) -> int:
        return self.shape[2] if self.ndim == 3 else 1

    def picture_levels(self, first: int, count: int) -> list[np.ndarray]:
        """The 8-bit picture (each float clipped to [0, 1], times 255, rounded half to even, as
        saving rounds) halved `first` times, and `count` - 1 halvings more, each a level of the
        host's pyramid (blurapp.app.pyramid: each 2 × 2 block's mean rounded half up, an odd
        last row or column left out): height × width uint8, or × 3. Only these cross."""
        with self._lock:
            values = self._values
        platform = _platform(values)
        # An accelerator's link moves a 2-D array of bytes in its tiled layout, several times
        # slower than flat bytes (host_link): there the levels cross as one flat array.
        flat = host_link.layout_for(platform) == host_link.PIECES
        program = _levels_program(self._jax, self.shape, first, count, platform, flat)
        levels = self._jax.device_get(program(values))
        if flat:
            levels = _cut_levels(np.asarray(levels), self.shape, first, count)
        return [_as_picture(np.asarray(level)) for level in levels]

    def picture_region(self, top: int, left: int, height: int, width: int) -> np.ndarray:
        """Rows top … top + height, columns left … left + width of the 8-bit picture at full
        size (uint8, height × width, or × 3); only they cross, in a block kept for the next
        part asked (and asked of this shape's next output: fetch_wanted_parts)."""
        full_height, full_width = self.shape[:2]
        if min(top, left) < 0 or min(height, width) <= 0 or top + height > full_height:
            raise IndexError(f"rows {top}:{top + height} are not inside {full_height}")
        if left + width > full_width:
            raise IndexError(f"columns {left}:{left + width} are not inside {full_width}")
        with self._lock:
            kept = list(self._blocks)
        for place, block in kept:
            row, column = top - place[0], left - place[1]
            fits = row + height <= block.shape[0] and column + width <= block.shape[1]
            if min(row, column) >= 0 and fits:
                _wanted_parts.asked(self.shape, place)
                return block[row : row + height, column : column + width]
        place = self._block_around(top, left, height, width)
        _wanted_parts.asked(self.shape, place)
        block = self._fetch_block(place)
        row, column = top - place[0], left - place[1]
        return block[row : row + height, column : column + width]

    def fetch_wanted_parts(self) -> None:
        """Fetch now, and keep, the blocks a pane still asks of the pictures of this shape
        (WANTED_SECONDS says how recently; the first picture of a shape counts the one at its
        centre as asked, where the inset starts): called on the thread that makes the pane's
        picture, so the window's paint of the next frame's inset finds its part here, where it
        would wait for the device (behind the blur of the frames in flight, or for the part's
        program to compile on the first picture of a shape: seconds on a TPU)."""
        height, width = self.shape[:2]
        centre = self._block_around(height // 2, width // 2, 0, 0)
        for place in _wanted_parts.recent(self.shape, first=centre):
            self._fetch_block(place)

    def _block_around(self, top: int, left: int, height: int, width: int) -> Place:
        """The block a part (top, left, height, width) crosses in: at least REGION_BLOCK a side,
        in whole REGION_STEPs, around the part (a pixel under the cursor can move a while
        before it leaves its block), kept inside the picture, as the device's slice would
        keep it."""
        full_height, full_width = self.shape[:2]
        block_height, block_width = (
            min(full, max(REGION_BLOCK, -(-side // REGION_STEP) * REGION_STEP))
            for full, side in ((full_height, height), (full_width, width))
        )
        return (
            min(max(top - (block_height - height) // 2, 0), full_height - block_height),
            min(max(left - (block_width - width) // 2, 0), full_width - block_width),
            block_height,
            block_width,
        )

    def _fetch_block(self, place: Place) -> np.ndarray:
        """The 8-bit block at `place`, crossed and kept."""
        top, left, height, width = place
        program = _region_program(self._jax, self.shape, height, width)
        with self._lock:
            values = self._values
        block = _as_picture(np.asarray(self._jax.device_get(program(values, top, left))))
        with self._lock:
            self._blocks.append((place, block))
        return block


@dataclass
class _Asked:
    """What the window asked of the pictures of one shape: each block and when (the latest
    last), and when the last picture of that shape was made."""

    places: OrderedDict[Place, float]
    made: float


class _WantedParts:
    """The blocks asked of a picture of each shape (OutputOnDevice.picture_region, on the
    window's thread), WANTED_BLOCKS of them a shape, read as the pictures are made (on the
    threads that make them). `clock`: seconds, as time.monotonic counts them."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._shapes: OrderedDict[tuple[int, ...], _Asked] = OrderedDict()

    def asked(self, shape: tuple[int, ...], place: Place) -> None:
        with self._lock:
            self._ask(shape, place, self._clock())

    def recent(self, shape: tuple[int, ...], first: Place) -> list[Place]:
        """The blocks a pane still asks of this shape, as a picture of it is made: those asked
        within WANTED_SECONDS, or since the last picture of it was made; for the first picture
        of a shape, `first`, counted as asked now."""
        with self._lock:
            now = self._clock()
            if shape not in self._shapes:
                self._ask(shape, first, now)
                return [first]
            asked = self._shapes[shape]
            self._shapes.move_to_end(shape)  # a shape still made is kept, asked or not
            since, asked.made = asked.made, now
            return [
                place
                for place, at in asked.places.items()
                if at >= now - WANTED_SECONDS or at > since
            ]

    def _ask(self, shape: tuple[int, ...], place: Place, at: float) -> None:
        asked = self._shapes.setdefault(shape, _Asked(OrderedDict(), made=at))
        self._shapes.move_to_end(shape)
        while len(self._shapes) > _WANTED_SHAPES:
            self._shapes.popitem(last=False)
        asked.places[place] = at
        asked.places.move_to_end(place)
        while len(asked.places) > WANTED_BLOCKS:
            asked.places.popitem(last=False)


# The shapes whose wanted parts are remembered: a window's panes show pictures of one or two.
_WANTED_SHAPES = 4
_wanted_parts = _WantedParts()


# Every output still on a device, to settle when the preview that made them stops.
_living: weakref.WeakSet[OutputOnDevice] = weakref.WeakSet()
# Outputs are made on the threads that blur (a clip's panes) while a job settles them.
_living_lock = threading.Lock()


def settle_outputs() -> None:
    """Every output still left on a device is fetched and lets go of the device's memory
    (OutputOnDevice.settle): a job that does not preview with the engine needs that memory."""
    with _living_lock:
        outputs = list(_living)
    for output in outputs:
        output.settle()


def _as_picture(planes: np.ndarray) -> np.ndarray:
    """A grey level as it is; a colour level's three planes as height × width × 3, contiguous
    (the planes keep the device's last axis wide: a pixel's 3 channels there fill 3 of a TPU's
    128 lanes)."""
    if planes.ndim == 2:
        return np.ascontiguousarray(planes)
    # A plane at a time: NumPy's copy of the whole moved axis walks the bytes one at a time,
    # several times slower (20 ms against 3 for a 2 MP picture).
    picture = np.empty((*planes.shape[1:], planes.shape[0]), dtype=planes.dtype)
    for channel, plane in enumerate(planes):
        picture[..., channel] = plane
    return picture


def _platform(values: Any) -> str:
    """The platform of the device that holds `values` ("cpu", "tpu", "gpu")."""
    return str(next(iter(values.devices())).platform)


def _to_8bit(jnp: Any, lax: Any, values: Any) -> Any:
    """Floats as 8-bit levels, rounded as blurapp.core.media.saving.to_8bit rounds them."""
    rounded = lax.round(
        lax.mul(jnp.clip(values, 0, 1), np.float32(255)), lax.RoundingMethod.TO_NEAREST_EVEN
    )
    return rounded.astype(jnp.int32)


def _planes(values: Any, channels: int) -> list[Any]:
    """Rows of values (height × width·channels) as one plane per channel."""
    if channels == 1:
        return [values]
    return [values[:, channel::channels] for channel in range(channels)]


def _halve(plane: Any, platform: str) -> Any:
    """Each 2 × 2 block's mean of an int32 plane of levels, rounded half up; an odd last row
    or column left out."""
    from jax import lax

    height, width = plane.shape[0] // 2 * 2, plane.shape[1] // 2 * 2
    plane = plane[:height, :width]
    if not platform_traits(platform).halves_by_pooling:
        # XLA's CPU programs sum a reshape in one pass over the plane; a reduce_window there
        # is a loop several times slower (docs/performance/picture_levels.py).
        total = plane.reshape(height // 2, 2, width // 2, 2).sum(axis=(1, 3))
    else:
        # On an accelerator a reshape whose last axis is 2 lays each pair across a vector
        # register's lanes (a TPU pads them to 128): reduce_window, a pooling the chip does
        # natively, is an order of magnitude quicker there (the same probe).
        total = lax.reduce_window(plane, np.int32(0), lax.add, (2, 2), (2, 2), "VALID")
    return (total + 2) >> 2


@functools.lru_cache(maxsize=32)
def _levels_program(
    jax: Any, shape: tuple[int, ...], first: int, count: int, platform: str, flat: bool
) -> Any:
    import jax.numpy as jnp
    from jax import lax

    channels = shape[2] if len(shape) == 3 else 1

    def levels(values: Any) -> tuple[Any, ...]:
        values = values.reshape(shape[0], -1)  # rows of values, as the blur hands them back
        planes = [_to_8bit(jnp, lax, plane) for plane in _planes(values, channels)]
        made = []
        for halving in range(first + count):
            if halving >= first:
                made.append(planes)
            planes = [_halve(plane, platform) for plane in planes]
        pictures = tuple(
            (level[0] if channels == 1 else jnp.stack(level)).astype(jnp.uint8) for level in made
        )
        if flat:
            return jnp.concatenate([picture.reshape(-1) for picture in pictures])
        return pictures

    return jax.jit(levels)


def _cut_levels(
    flat: np.ndarray, shape: tuple[int, ...], first: int, count: int
) -> list[np.ndarray]:
    """The levels _levels_program made one flat array of, each as the device made it: height
    × width, or channels × height × width (views of `flat`)."""
    height, width = shape[:2]
    # As the program makes them: one channel (of height × width × 1 too) as height × width.
    channels = shape[2] if len(shape) == 3 else 1
    levels, start = [], 0
    for halving in range(first + count):
        if halving >= first:
            level_shape = (height, width) if channels == 1 else (channels, height, width)
            size = int(np.prod(level_shape))
            levels.append(flat[start : start + size].reshape(level_shape))
            start += size
        height, width = height // 2, width // 2
    return levels


@functools.lru_cache(maxsize=32)
def _region_program(jax: Any, shape: tuple[int, ...], height: int, width: int) -> Any:
    import jax.numpy as jnp
    from jax import lax

    channels = shape[2] if len(shape) == 3 else 1

    def region(values: Any, top: Any, left: Any) -> Any:
        values = values.reshape(shape[0], -1)
        part = lax.dynamic_slice(values, (top, left * channels), (height, width * channels))
        planes = [_to_8bit(jnp, lax, plane) for plane in _planes(part, channels)]
        return (planes[0] if channels == 1 else jnp.stack(planes)).astype(jnp.uint8)

    return jax.jit(region)


class _KeptPhoto:
    """The photo of the live preview, kept on its device between changes of the parameters.

    Copying it there again for every change costs time and fresh memory on each. One photo is
    kept a device, the last one previewed there: only an array nothing can write to (a
    Photo's), so that what is on the device is what the array holds; only while that array
    lives, so a closed photo's copy goes with it; and only between previews: any other
    first call of JAX-jit lets it go (clear), leaving the memory to a timed run's own copies,
    and so does the window's every job that does not preview with JAX-jit, and switching the
    live preview off (JAX-jit's LivePreview.stop)."""

    def __init__(self) -> None:
        # Reentrant: the array's weakref callback may run inside the lock, on a collection.
        self._lock = threading.RLock()
        self._kept: dict[Any, tuple[weakref.ref[np.ndarray], Any]] = {}

    def on_device(self, image: np.ndarray, device: Any, put: Callable[[], Any]) -> Any:
        """`image` on `device`: the copy kept, or `put()`'s, kept when `image` cannot change."""
        with self._lock:
            kept = self._kept.get(device)
            if kept is not None and kept[0]() is image:
                return kept[1]
        on_device = put()
        # On the CPU JAX may use the array's own memory (then the copy cost nothing), and
        # holding it would hold the photo: kept only when it is a copy.
        if cannot_change(image) and not _shares_memory(on_device, image):
            with self._lock:
                self._kept[device] = (weakref.ref(image, self._forget), on_device)
        return on_device

    def _forget(self, gone: weakref.ref[np.ndarray]) -> None:
        with self._lock:
            for device, (ref, _) in list(self._kept.items()):
                if ref is gone:
                    del self._kept[device]

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


kept_photo = _KeptPhoto()


# Kernels kept on their devices, the last this many used: a clip's frames, and a live preview
# back at parameters it has shown, blur with a kernel that has crossed already.
KERNELS_KEPT = 4


class _KeptKernels:
    """The kernels kept on their devices (the last KERNELS_KEPT used), and the devices that have
    had a first copy: on an accelerator each copy waited for is a round trip to the device."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._started: set[Any] = set()
        self._kernels: OrderedDict[tuple[Any, tuple[int, ...], bytes], Any] = OrderedDict()

    def on_device(self, jax: Any, kernel: np.ndarray, device: Any, *, start: bool = True) -> Any:
        """`kernel` (float32) on `device`: the copy kept, or one made now and waited for.

        A device's first copy sets up its runtime (tens of ms on a GPU), which is no copy's
        cost: a copy of next to nothing is made first, and waited for, with `start` (a timed
        first call), or where `device` has had none (a live preview's call, one a change)."""
        key = (device, kernel.shape, kernel.tobytes())
        with self._lock:
            started = device in self._started
            there = self._kernels.get(key)
            if there is not None:
                self._kernels.move_to_end(key)
        if start or not started:
            jax.block_until_ready(jax.device_put(np.zeros(1, np.float32), device))
            with self._lock:
                self._started.add(device)
        if there is not None:
            return there
        there = jax.block_until_ready(jax.device_put(kernel, device))
        with self._lock:
            self._kernels[key] = there
            while len(self._kernels) > KERNELS_KEPT:
                self._kernels.popitem(last=False)
        return there


kept_kernels = _KeptKernels()


def _shares_memory(on_device: Any, image: np.ndarray) -> bool:
    try:
        return bool(on_device.unsafe_buffer_pointer() == image.ctypes.data)
    except Exception:  # a device whose buffers the host cannot address: a copy
        return False


# Copies sent ahead that no call has taken yet, at most this many: a clip playing sends one
# frame while the frame before it blurs (blurapp.app.clip_player.FRAMES_IN_FLIGHT); more would
# be frames let go unseen, whose copies wait here until their arrays go.
SENT_AHEAD_KEPT = 4


class _SentAhead:
    """Images copied to their device ahead of a live preview's call on them (JAX_JIT's
    send_ahead): the call takes the copy, once, instead of making it, and what crossed
    (jax_runtime.to_move) instead of working it out again."""

    def __init__(self) -> None:
        # Reentrant: the array's weakref callback may run inside the lock, on a collection.
        self._lock = threading.RLock()
        # (the image, its device, its copy there, what crossed, or its shape where what
        # crossed is the image's own values), oldest first.
        self._sent: deque[
            tuple[weakref.ref[np.ndarray], Any, Any, np.ndarray | tuple[int, ...]]
        ] = deque(maxlen=SENT_AHEAD_KEPT)

    def keep(self, image: np.ndarray, device: Any, on_device: Any, moved: np.ndarray) -> None:
        """`on_device`, `image`'s copy on `device` (of what crossed: `moved`), kept for the
        call on `image` to take."""
        # The image's own values (a CPU's photo, an accelerator's rows of floats) kept as their
        # shape alone: held here, they would hold the image, and its copy, until taken.
        crossed = moved.shape if np.may_share_memory(moved, image) else moved
        with self._lock:
            self._sent.append((weakref.ref(image, self._forget), device, on_device, crossed))

    def _find(self, image: np.ndarray, device: Any) -> int | None:
        # By identity: deque.remove and `in` compare entries with ==, which compares the
        # arrays two live weak references point to.
        for index, (ref, there, _, _) in enumerate(self._sent):
            if ref() is image and there == device:
                return index
        return None

    def moved(self, image: np.ndarray, device: Any) -> np.ndarray | None:
        """What crossed of `image` when it was sent ahead to `device`, else None."""
        with self._lock:
            index = self._find(image, device)
            if index is None:
                return None
            crossed = self._sent[index][3]
        if isinstance(crossed, np.ndarray):
            return crossed
        return image if crossed == image.shape else image.reshape(crossed)

    def take(self, image: np.ndarray, device: Any) -> Any | None:
        """`image`'s copy on `device` when it was sent ahead (then no longer kept, nor any
        sent to `device` before it, which a pause or a seek left behind), else None."""
        with self._lock:
            index = self._find(image, device)
            if index is None:
                return None
            taken = self._sent[index][2]
            # Those sent to another device are another pane's frames, still to be taken.
            kept = [
                entry for at, entry in enumerate(self._sent) if at > index or entry[1] != device
            ]
            self._sent.clear()
            self._sent.extend(kept)
            return taken

    def _forget(self, gone: weakref.ref[np.ndarray]) -> None:
        with self._lock:
            kept = [entry for entry in self._sent if entry[0] is not gone]
            self._sent.clear()
            self._sent.extend(kept)


sent_ahead = _SentAhead()


def stop_previewing() -> None:
    """JAX-jit's LivePreview.stop: the photo kept for the live preview let go, and the outputs it
    left on the device fetched, so that the device's memory is the next job's."""
    kept_photo.clear()
    settle_outputs()
