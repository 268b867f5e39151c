"""A picture's bytes to a device and back in 1-D pieces (blurapp.core.engines.host_link): what
comes back is what went, bit for bit, whatever its number type and shape; on a CPU a picture
crosses as it is, unless a caller asks for pieces (which these tests do, to run the
accelerator's way of crossing on the CPU)."""

import itertools
from types import SimpleNamespace

import numpy as np
import pytest
from helpers.stand_in_accelerator import take_the_cpu_for_an_accelerator

from blurapp.core.engines import host_link
from blurapp.core.platforms import PLATFORM_TRAITS, Platform

jax = pytest.importorskip("jax")

# What BlurApp moves: float32 pixels, stored 8- and 16-bit levels (jax_runtime.to_move, a clip's
# frames), and a number type of 4 bytes that is not a float.
NUMBER_TYPES = [np.uint8, np.uint16, np.float32, np.int32]
# A column and a row of one value each side, odd sizes that no block divides, a colour photo
# (height × width × 3), a batch of frames as rows of values, a 3-D colour batch.
SHAPES = [(1, 4099), (4099, 1), (1, 1), (37, 41), (61, 47, 3), (2, 33, 123), (3, 21, 17, 3)]


def cpu() -> object:
    return jax.devices("cpu")[0]


def picture(shape: tuple[int, ...], dtype: type, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.floating):
        # Every bit pattern a float32 pixel may hold, subnormal ones aside (XLA on a CPU may
        # flush them).
        values = rng.normal(size=shape).astype(dtype)
        return values * rng.choice([1e-30, 1.0, 1e30], size=shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)


class CountedPuts:
    """jax, counting the copies device_put starts, and the shapes they take."""

    def __init__(self) -> None:
        self.puts: list[tuple[int, ...]] = []

    def __getattr__(self, name: str) -> object:
        return getattr(jax, name)

    def device_put(self, values: object, device: object) -> object:
        self.puts.append(np.shape(values))
        return jax.device_put(values, device)


@pytest.mark.parametrize("dtype", NUMBER_TYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_a_picture_crossed_in_pieces_comes_back_as_it_went(shape, dtype):
    host = picture(shape, dtype)
    counted = CountedPuts()

    on_device = host_link.send(counted, host, cpu(), pieces=5)
    back = host_link.fetch(jax, on_device, pieces=5)

    assert on_device.shape == host.shape and on_device.dtype == host.dtype
    assert back.shape == host.shape and back.dtype == host.dtype
    np.testing.assert_array_equal(back, host, strict=True)
    assert back.view(np.uint8).tobytes() == host.view(np.uint8).tobytes()
    # It crossed as flat pieces, as many as its blocks allow, 5 at most.
    assert all(len(put) == 1 for put in counted.puts)
    assert sum(put[0] for put in counted.puts) == host.size
    blocks = -(-host.nbytes // host_link.ALIGN_BYTES)
    assert len(counted.puts) == min(5, blocks)


@pytest.mark.parametrize("pieces", [1, 2, 16, 33])
def test_any_number_of_pieces_gives_the_same_picture(pieces):
    host = picture((129, 257, 3), np.uint8, seed=pieces)
    counted = CountedPuts()

    back = host_link.fetch(jax, host_link.send(counted, host, cpu(), pieces=pieces), pieces=pieces)

    np.testing.assert_array_equal(back, host, strict=True)
    assert len(counted.puts) == pieces


def test_a_band_of_rows_is_gathered_straight_into_the_photo():
    rows = picture((40, 1000), np.uint16)
    on_device = host_link.send(jax, rows, cpu(), pieces=7)
    photo = np.zeros((50, 1000), np.uint16)

    # Rows 3 … 33 of what crossed, into rows 10 … 40 of the photo.
    host_link.start_fetch(jax, on_device, pieces=7).into(photo[10:40], first=3 * 1000)

    np.testing.assert_array_equal(photo[10:40], rows[3:33])
    assert not photo[:10].any() and not photo[40:].any()


def test_gathering_into_an_array_that_is_not_contiguous_is_refused():
    on_device = host_link.send(jax, picture((8, 8), np.uint8), cpu(), pieces=2)
    with pytest.raises(ValueError, match="contiguous"):
        host_link.start_fetch(jax, on_device, pieces=2).into(np.zeros((8, 16), np.uint8)[:, ::2])


def test_on_a_cpu_a_picture_crosses_as_it_is():
    host = picture((300, 400), np.float32)
    counted = CountedPuts()

    on_device = host_link.send(counted, host, cpu())

    assert host_link.pieces_for(host.nbytes, cpu()) == 0
    assert counted.puts == [host.shape]  # one copy, of the array as it is
    np.testing.assert_array_equal(host_link.fetch(jax, on_device), host, strict=True)


def test_what_a_caller_owns_it_may_write_to():
    host = picture((20, 30), np.float32)
    for pieces in (0, 3):
        back = host_link.fetch(jax, host_link.send(jax, host, cpu()), pieces=pieces, own=True)
        back[0, 0] = 7.0  # writable, and not the device's buffer
        np.testing.assert_array_equal(back[1:], host[1:])


class Accelerator:
    platform = "tpu"


def test_an_accelerator_takes_a_picture_in_pieces_a_small_one_in_fewer():
    assert host_link.pieces_for(24_000_000, Accelerator()) == host_link.LINK_PIECES
    few = host_link.WHOLE_BELOW_BYTES
    assert host_link.pieces_for(few, Accelerator()) == few // host_link.MIN_PIECE_BYTES
    assert host_link.pieces_for(few - 1, Accelerator()) == 0
    assert host_link.pieces_for(100, Accelerator()) == 0


@pytest.mark.parametrize("pieces", [1, 4, 16, 100])
def test_pieces_cover_every_value_once_on_whole_blocks(pieces):
    for size, itemsize in [(24_000_000, 1), (6_220_801, 4), (1, 2), (1000, 1)]:
        edges = host_link.piece_edges(size, itemsize, pieces)
        assert edges[0] == 0 and edges[-1] == size
        assert all(start < end for start, end in itertools.pairwise(edges))
        assert all(edge * itemsize % host_link.ALIGN_BYTES == 0 for edge in edges[:-1])
        blocks = -(-size * itemsize // host_link.ALIGN_BYTES)
        assert len(edges) - 1 == min(pieces, blocks)
        # As even as whole blocks allow: no piece more than a block longer than another.
        lengths = [end - start for start, end in itertools.pairwise(edges)]
        assert max(lengths[:-1], default=0) - min(lengths[:-1], default=0) <= host_link.ALIGN_BYTES


@pytest.mark.accelerator
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32])
def test_a_picture_crosses_to_the_default_device_and_back_as_it_went(dtype):
    """JAX's default device, its own way of crossing (in pieces on an accelerator), a
    picture large enough to be cut: a 4K colour frame as rows of values."""
    host = picture((2160, 3840 * 3), dtype, seed=5)
    device = jax.devices()[0]

    counted = CountedPuts()

    on_device = jax.block_until_ready(host_link.send(counted, host, device))
    back = host_link.fetch(jax, on_device)

    # In pieces on an accelerator, as it is on a CPU.
    assert len(counted.puts) == max(1, host_link.pieces_for(host.nbytes, device))
    assert back.shape == host.shape and back.dtype == host.dtype
    np.testing.assert_array_equal(back, host, strict=True)


@pytest.fixture
def stand_in_accelerator(monkeypatch):
    """The CPU standing in for an accelerator whose link takes 3 pieces a copy; the copies'
    sizes, in bytes, as the engines ask host_link for them."""

    take_the_cpu_for_an_accelerator(monkeypatch)
    asked: list[int] = []

    def three_pieces(nbytes, device):
        asked.append(nbytes)
        return 3

    monkeypatch.setattr(host_link, "pieces_for", three_pieces)
    return asked


@pytest.mark.parametrize("shape", [(61, 47), (47, 33, 3)])
def test_a_photo_crossing_in_pieces_both_ways_is_blurred_as_scipy_blurs_it(
    stand_in_accelerator, shape
):
    from scipy import ndimage

    from blurapp.core.engines import jax_engine
    from blurapp.core.kernel import gaussian_kernel

    levels = np.random.default_rng(11).integers(0, 256, shape, dtype=np.uint8)
    image = levels.astype(np.float32) * np.float32(1 / 255)
    kernel = gaussian_kernel(5, 1.2).astype(np.float32)

    first = jax_engine.first_jax_call(image, kernel, platform="cpu")
    steady = first.again()

    # The photo's levels went, its blurred levels and floats came back: each in pieces.
    assert stand_in_accelerator.count(levels.nbytes) >= 2
    assert stand_in_accelerator.count(image.nbytes) >= 1
    assert first.to_device_seconds > 0 and steady.from_device_seconds > 0
    weights = kernel if levels.ndim == 2 else kernel[..., np.newaxis]
    expected = ndimage.correlate(image.astype(np.float64), weights, mode="nearest")
    assert np.max(np.abs(np.asarray(first.output) - expected)) < 1e-5


def test_frames_crossing_in_pieces_both_ways_are_blurred_as_scipy_blurs_them(
    stand_in_accelerator,
):
    from scipy import ndimage

    from blurapp.core.engines.jax_engine import blur_frames_jax
    from blurapp.core.kernel import gaussian_kernel

    frames = np.random.default_rng(12).random((3, 29, 31, 3), dtype=np.float32)
    kernel = gaussian_kernel(5, 1.2).astype(np.float32)

    blurred = blur_frames_jax(frames, kernel, platform="cpu")

    # The batch's float32 values, there and back.
    assert len(stand_in_accelerator) >= 2 and set(stand_in_accelerator) == {frames.nbytes}
    assert blurred.output.shape == frames.shape and blurred.output.dtype == np.float32
    for frame, output in zip(frames, blurred.output, strict=True):
        expected = ndimage.correlate(
            frame.astype(np.float64), kernel[..., np.newaxis], mode="nearest"
        )
        assert np.max(np.abs(output - expected)) < 1e-5


def test_the_layout_follows_the_platform_table_unless_one_is_forced(monkeypatch):
    monkeypatch.setitem(PLATFORM_TRAITS, "plain", Platform(link=host_link.AS_IT_IS))
    assert host_link.pieces_for(24_000_000, SimpleNamespace(platform="plain")) == 0
    assert host_link.layout_for(Accelerator()) == host_link.PIECES
    assert host_link.layout_for(cpu()) == host_link.AS_IT_IS
    assert host_link.pieces_for(24_000_000, cpu()) == 0
    with host_link.forced_layout(host_link.PIECES):
        assert host_link.pieces_for(24_000_000, cpu()) == host_link.LINK_PIECES
    with host_link.forced_layout(host_link.AS_IT_IS):
        assert host_link.pieces_for(24_000_000, Accelerator()) == 0
    assert host_link.layout_for(cpu()) == host_link.AS_IT_IS
    # Crossing as uint32 words was measured and removed (docs/performance.md): no layout now.
    for unknown in ("bytes", "words"):
        with pytest.raises(ValueError, match="layout"), host_link.forced_layout(unknown):
            pass


def test_a_live_preview_of_floats_on_an_accelerator_draws_its_picture_on_the_device(
    stand_in_accelerator,
):
    """Pixels that are no stored levels cross as float32 rows of values, and the blurred
    floats stay where they are: the preview's picture is made from them there."""
    from scipy import ndimage

    from blurapp.core.engines import jax_engine
    from blurapp.core.engines.on_device import stop_previewing
    from blurapp.core.kernel import gaussian_kernel

    image = np.random.default_rng(14).random((33, 40, 3), dtype=np.float32)
    kernel = gaussian_kernel(5, 1.2).astype(np.float32)
    expected = ndimage.correlate(image.astype(np.float64), kernel[..., None], mode="nearest")

    try:
        first = jax_engine.preview_jax_call(image, kernel, platform="cpu")
        picture_there = first.output.picture_levels(0, 1)[0]
        floats = np.asarray(first.output)
    finally:
        stop_previewing()
        jax_engine.compiled_blurs.clear()

    # The float32 pixels went in pieces; nothing of the photo's size came back to draw it.
    assert image.nbytes in stand_in_accelerator
    assert np.max(np.abs(floats - expected)) < 1e-5
    as_saved = np.round(np.clip(expected, 0, 1) * 255)
    assert picture_there.shape == image.shape and picture_there.dtype == np.uint8
    assert np.max(np.abs(picture_there - as_saved)) <= 1


@pytest.mark.accelerator
@pytest.mark.parametrize("channels", [(), (3,)])
def test_the_default_devices_own_crossing_blurs_a_photo_as_scipy_does(channels, monkeypatch):
    """JAX's default device, its platform's own layout (in pieces on a TPU), a photo of 8-bit
    levels, both ways, first and steady calls."""
    from scipy import ndimage

    from blurapp.core.engines import jax_engine
    from blurapp.core.kernel import gaussian_kernel

    sent = []
    send = host_link.send

    def counted(*args, **how):
        sent.append(send(*args, **how))
        return sent[-1]

    monkeypatch.setattr(host_link, "send", counted)

    levels = picture((480, 640, *channels), np.uint8, seed=17)
    image = levels.astype(np.float32) * np.float32(1 / 255)
    kernel = gaussian_kernel(9, 2.5).astype(np.float32)
    weights = kernel if not channels else kernel[..., np.newaxis]
    expected = ndimage.correlate(image.astype(np.float64), weights, mode="nearest")

    first = jax_engine.first_jax_call(image, kernel)
    first.again()
    blurred = jax_engine.blur_jax(image, kernel)

    # The first call's copy, the steady call's and blur_jax's, each of the photo's shape or
    # its rows of values (an accelerator's).
    assert len(sent) == 3
    assert all(each.shape in {levels.shape, (480, 640 * max(channels, default=1))} for each in sent)
    assert np.max(np.abs(np.asarray(first.output) - expected)) < 1e-5
    assert np.max(np.abs(blurred - expected)) < 1e-5


def test_a_cpus_programs_take_the_pixels_themselves(monkeypatch):
    """A CPU's first call, steady call and live preview send the float32 pixels as they are
    (the kept photo shares the host's memory), not an accelerator's rows of levels."""
    from scipy import ndimage

    from blurapp.core.engines import jax_engine
    from blurapp.core.engines.on_device import stop_previewing
    from blurapp.core.kernel import gaussian_kernel

    sent = []
    send = host_link.send
    monkeypatch.setattr(
        host_link, "send", lambda *args, **how: sent.append(send(*args, **how)) or sent[-1]
    )
    image = picture((40, 64), np.uint8, seed=18).astype(np.float32) * np.float32(1 / 255)
    kernel = gaussian_kernel(5, 1.2).astype(np.float32)
    expected = ndimage.correlate(image.astype(np.float64), kernel, mode="nearest")

    first = jax_engine.first_jax_call(image, kernel, platform="cpu")
    first.again()
    try:
        jax_engine.send_ahead(image, platform="cpu")
        preview = np.asarray(jax_engine.preview_jax_call(image, kernel, platform="cpu").output)
    finally:
        stop_previewing()

    assert len(sent) == 3
    assert all(each.shape == image.shape and each.dtype == np.float32 for each in sent)
    for output in (first.output, preview):
        assert np.max(np.abs(np.asarray(output) - expected)) < 1e-5
