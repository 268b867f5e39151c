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


# Crossing in words (host_link's "words" layout, a TPU's): 8-bit levels four to a word, which the
# blur's own program makes floats and rounds back (word_kernels); forced here to run on the CPU,
# where Pallas's interpreter runs the word kernels.


@pytest.fixture
def in_words():
    with host_link.forced_layout(host_link.WORDS):
        yield


@pytest.mark.parametrize("dtype", NUMBER_TYPES)
@pytest.mark.parametrize("shape", [*SHAPES, (1, 4100), (4100, 4), (3, 20, 36, 3)])
def test_a_picture_crossed_in_words_comes_back_as_it_went(in_words, shape, dtype):
    host = picture(shape, dtype, seed=3)
    counted = CountedPuts()

    on_device = host_link.send(counted, host, cpu(), words=True)
    back = host_link.fetch(jax, on_device)

    assert back.shape == host.shape and back.dtype == host.dtype
    assert back.view(np.uint8).tobytes() == host.view(np.uint8).tobytes()
    if dtype != np.uint8 or shape[-1] % 4:
        # Not 8-bit levels, or rows that are no whole number of words: it crossed as the
        # array (whole, as a picture under WHOLE_BELOW_BYTES does when it does not cross in
        # words).
        assert not isinstance(on_device, host_link.Packed)
        assert counted.puts == [host.shape]
    else:
        # One copy, of the picture's bytes as words, seen on the host without a copy.
        assert isinstance(on_device, host_link.Packed)
        assert counted.puts == [(*shape[:-1], shape[-1] // 4)]
        assert np.shares_memory(back, np.asarray(on_device.words))


def test_words_are_the_rows_of_8_bit_levels_four_to_a_word():
    # A 24 MP grey photo's rows, and a 4K colour frame's in a batch of two as rows of values.
    assert host_link.word_shape((4000, 6000), np.uint8) == (4000, 1500)
    assert host_link.word_shape((2, 2160, 3840 * 3), np.uint8) == (2, 2160, 2880)
    # 16-bit levels and floats cross as they are, as do rows of odd bytes, and nothing at all.
    assert host_link.word_shape((4000, 6000), np.uint16) is None
    assert host_link.word_shape((4000, 6000), np.float32) is None
    assert host_link.word_shape((37, 41), np.uint8) is None
    assert host_link.word_shape((0, 8), np.uint8) is None


def test_words_follow_the_platform_table_unless_a_layout_is_forced():
    shape = (4000, 6000)
    # A TPU's link takes words; a GPU's pieces (the word kernels are a TPU's); a CPU's neither.
    assert host_link.words_for(shape, np.uint8, Accelerator()) == (4000, 1500)
    assert host_link.words_for(shape, np.uint8, SimpleNamespace(platform="gpu")) is None
    assert host_link.words_for(shape, np.uint8, cpu()) is None
    with host_link.forced_layout(host_link.PIECES):
        assert host_link.words_for(shape, np.uint8, Accelerator()) is None
        assert host_link.pieces_for(24_000_000, cpu()) == host_link.LINK_PIECES
    with host_link.forced_layout(host_link.WORDS):
        assert host_link.words_for(shape, np.uint8, cpu()) == (4000, 1500)
    assert host_link.layout_for(cpu()) == host_link.AS_IT_IS
    with pytest.raises(ValueError, match="layout"), host_link.forced_layout("bytes"):
        pass


def _flipped(values, weights):
    """A stand-in blur as the engines' programs are: the rows upside down, the weights unused;
    given levels, a pair (its levels rounded back, its floats), given floats, its floats."""
    import jax.numpy as jnp

    from blurapp.core.engines.jax_program import floats_to_levels, levels_to_floats

    floats = jnp.flip(levels_to_floats(values), axis=0)
    if jnp.issubdtype(values.dtype, jnp.integer):
        return floats_to_levels(floats, values.dtype), floats
    return floats


@pytest.mark.parametrize("shape", [(1, 4), (4100, 4), (61, 48), (20, 12, 3), (3, 20, 516)])
def test_a_program_taking_words_is_given_the_floats_and_hands_back_words(in_words, shape):
    """The word kernels are the program's own steps: it is given the floats the levels stand
    for, in the picture's shape, and its floats come back rounded into words, seen on the host
    as levels again, its floats beside them."""
    host = picture(shape, np.uint8, seed=4)
    rows = host.reshape(host.shape[0], -1) if host.ndim == 3 and shape[-1] == 3 else host
    words = host_link.word_shape(rows.shape, rows.dtype)
    assert words is not None
    jitted = jax.jit(host_link.in_words, static_argnames=host_link.WORD_ARGUMENTS)
    spec = jax.ShapeDtypeStruct(words, np.int32)
    weights = jax.ShapeDtypeStruct((2,), np.float32)
    compiled = jitted.lower(
        spec, weights, link_program=_flipped, link_shape=rows.shape, link_kernels=False
    ).compile()
    program = host_link.WordsProgram(compiled, rows.shape, rows.dtype)

    output = program(host_link.send(jax, rows, cpu(), words=True), np.zeros(2, np.float32))

    assert isinstance(output, tuple) and host_link.takes_words(program)
    assert isinstance(output[0], host_link.Packed)
    back = host_link.fetch(jax, output[0], own=True)
    np.testing.assert_array_equal(back, np.flip(rows, axis=0))
    floats = np.asarray(output[1])
    np.testing.assert_array_equal(floats, np.flip(rows, axis=0) * np.float32(1 / 255))
    back[0] = 0  # the caller's own
    with pytest.raises(TypeError, match="words"):
        program(jax.device_put(rows, cpu()), np.zeros(2, np.float32))


@pytest.fixture
def stand_in_accelerator_in_words(monkeypatch, in_words):
    """The CPU standing in for an accelerator whose link takes words; the words that crossed
    there (their shapes), as the engines send them."""
    from blurapp.core.engines import jax_engine, pallas_engine

    take_the_cpu_for_an_accelerator(monkeypatch)
    crossed: list[tuple[int, ...]] = []
    send = host_link.send

    def counted(jax_module, host, device, **how):
        sent = send(jax_module, host, device, **how)
        if isinstance(sent, host_link.Packed):
            crossed.append(tuple(sent.words.shape))
        return sent

    monkeypatch.setattr(host_link, "send", counted)
    yield crossed
    jax_engine.compiled_blurs.clear()
    pallas_engine.compiled_kernels.clear()


# Grey and colour, 8- and 16-bit, a row and a column, a width whose bytes are no whole number
# of words (it crosses as the array).
PHOTOS = [((61, 48), np.uint8), ((47, 32, 3), np.uint16), ((1, 4100), np.uint8)]
PHOTOS += [((4100, 4), np.uint8), ((37, 41), np.uint8), ((29, 31, 3), np.uint8)]


@pytest.mark.parametrize(("shape", "dtype"), PHOTOS)
def test_pallas_given_a_photo_in_words_both_ways_blurs_it_as_scipy_does(
    stand_in_accelerator_in_words, shape, dtype
):
    """JAX Pallas's program takes a photo's 8-bit levels in words: its first call and a steady
    one send them in words, and its blur, between the word kernels, is SciPy's."""
    from scipy import ndimage

    from blurapp.core.engines import get_engine
    from blurapp.core.kernel import gaussian_kernel

    levels = picture(shape, dtype, seed=13)
    image = levels.astype(np.float32) * np.float32(1 / np.iinfo(dtype).max)
    kernel = gaussian_kernel(5, 1.2).astype(np.float32)
    weights = kernel if levels.ndim == 2 else kernel[..., np.newaxis]
    expected = ndimage.correlate(image.astype(np.float64), weights, mode="nearest")

    first = get_engine("pallas").first_call(image, kernel, platform="cpu")
    steady = first.again()

    words = host_link.word_shape(levels.reshape(shape[0], -1).shape, dtype)
    # The levels went as words for the first call and the steady one; as the array where they
    # are 16-bit or their rows' bytes are no whole number of words.
    assert stand_in_accelerator_in_words == ([words] * 2 if words else [])
    assert first.to_device_seconds > 0 and steady.from_device_seconds > 0
    assert np.max(np.abs(np.asarray(first.output) - expected)) < 1e-5


def test_a_band_s_program_does_not_make_a_photo_in_words_ready(stand_in_accelerator_in_words):
    """A band crosses as it is, so its program for a band shaped as a later photo is not the
    program that photo's call takes, in words: the window would say no compile is coming."""
    from blurapp.core.engines import pallas_engine

    shape, kernel_shape = (16, 24), (3, 3)
    kernels = pallas_engine.compiled_kernels
    kernels.get_in_stages(shape, kernel_shape, cpu(), moved=np.uint8, in_words=False)
    assert not pallas_engine.program_ready(shape, kernel_shape, "cpu")
    kernels.get_in_stages(shape, kernel_shape, cpu(), moved=np.uint8)
    assert pallas_engine.program_ready(shape, kernel_shape, "cpu")


def test_jax_jit_takes_a_photo_as_it_is_where_photos_cross_in_words(
    stand_in_accelerator_in_words,
):
    """XLA's program fuses making the levels floats into its first pass and rounding them into
    its last, which the word kernels would add as passes of their own: JAX-jit's first call,
    steady call, blur_jax and live preview send the photo's levels as they are."""
    from scipy import ndimage

    from blurapp.core.engines import jax_engine
    from blurapp.core.engines.on_device import stop_previewing
    from blurapp.core.kernel import gaussian_kernel

    levels = picture((33, 40, 3), np.uint8, seed=14)
    image = levels.astype(np.float32) * np.float32(1 / 255)
    kernel = gaussian_kernel(5, 1.2).astype(np.float32)
    expected = ndimage.correlate(image.astype(np.float64), kernel[..., None], mode="nearest")

    first = jax_engine.first_jax_call(image, kernel, platform="cpu")
    first.again()
    blurred = jax_engine.blur_jax(image, kernel, platform="cpu")
    try:
        preview = jax_engine.preview_jax_call(image, kernel, platform="cpu")
        picture_there = preview.output.picture_levels(0, 1)[0]
        floats = np.asarray(preview.output)
    finally:
        stop_previewing()

    assert stand_in_accelerator_in_words == []
    for output in (first.output, blurred, floats):
        assert np.max(np.abs(np.asarray(output) - expected)) < 1e-5
    as_saved = np.round(np.clip(expected, 0, 1) * 255)
    assert picture_there.shape == image.shape and picture_there.dtype == np.uint8
    assert np.max(np.abs(picture_there - as_saved)) <= 1


def test_bands_of_a_photo_crossing_in_words_give_the_photo_scipy_gives(
    stand_in_accelerator_in_words, monkeypatch
):
    from scipy import ndimage

    from blurapp.core.engines import bands, get_engine, jax_calls
    from blurapp.core.kernel import gaussian_kernel

    monkeypatch.setattr(bands, "MIN_BAND_BYTES", 1)
    made = []

    def kept(*args, **kwargs):
        made.append(bands.blur_in_bands(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(jax_calls, "blur_in_bands", kept)
    levels = picture((61, 40, 3), np.uint8, seed=15)
    image = levels.astype(np.float32) * np.float32(1 / 255)
    kernel = gaussian_kernel(7, 1.5).astype(np.float32)

    call = get_engine("pallas").first_call(image, kernel, platform="cpu").again()

    assert call.bands == bands.BANDS
    # The whole photo's rows (of 120 levels: 30 words) crossed in words for the first call and
    # the steady one; its bands as they are (in flight, words crossed slower on a TPU).
    assert stand_in_accelerator_in_words == [(61, 30), (61, 30)]
    expected = ndimage.correlate(image.astype(np.float64), kernel[..., None], mode="nearest")
    as_saved = np.round(np.clip(expected, 0, 1) * 255).reshape(61, -1)
    assert made[0].dtype == np.uint8
    assert np.max(np.abs(made[0].astype(np.int16) - as_saved)) <= 1


@pytest.mark.parametrize("engine_name", ["jax", "pallas"])
@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_frames_where_photos_cross_in_words_cross_as_they_are_and_are_blurred_as_scipy_does(
    stand_in_accelerator_in_words, dtype, engine_name
):
    from scipy import ndimage

    from blurapp.core.engines import get_engine
    from blurapp.core.engines.frame_batches import overlapped_batches
    from blurapp.core.engines.jax_frames import compiled_frame_blurs
    from blurapp.core.kernel import gaussian_kernel

    levels = picture((5, 21, 24, 3), np.uint8, seed=16)
    frames = levels if dtype == np.uint8 else levels * np.float32(1 / 255)
    kernel = gaussian_kernel(5, 1.2).astype(np.float32)
    engine = get_engine(engine_name)

    try:
        blurred = engine.frames.call(frames, kernel, platform="cpu")
        stream = overlapped_batches(engine, iter(frames), kernel, batch_size=2)
        assert stream is not None
        overlapped = [frame for batch in stream for frame in batch]
    finally:
        compiled_frame_blurs.clear()

    # Never in words: a clip's batches in flight crossed quicker as they are on a TPU.
    assert stand_in_accelerator_in_words == []
    assert blurred.output.shape == frames.shape and blurred.output.dtype == frames.dtype
    for frame, output, again in zip(frames, blurred.output, overlapped, strict=True):
        floats = frame.astype(np.float64) / (255 if dtype == np.uint8 else 1)
        expected = ndimage.correlate(floats, kernel[..., np.newaxis], mode="nearest")
        if dtype == np.uint8:
            expected = np.round(np.clip(expected, 0, 1) * 255)
            assert np.max(np.abs(output.astype(np.int16) - expected)) <= 1
        else:
            assert np.max(np.abs(output - expected)) < 1e-5
        np.testing.assert_array_equal(again, output)


@pytest.mark.accelerator
@pytest.mark.parametrize("channels", [(), (3,)])
def test_the_default_devices_own_crossing_blurs_a_photo_as_scipy_does(channels, monkeypatch):
    """JAX's default device, its platform's own layout (on a TPU JAX Pallas's photo in words,
    JAX-jit's as it is), a photo of 8-bit levels, both ways, first and steady calls."""
    from scipy import ndimage

    from blurapp.core.engines import get_engine, jax_engine
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
    pallas = get_engine("pallas").first_call(image, kernel)
    pallas.again()

    # JAX Pallas's in words (the photo's rows of levels, four to a word) where the device's
    # layout is words; JAX-jit's never.
    in_words = host_link.layout_for(jax_engine.jax_device()) == host_link.WORDS
    assert len(sent) == 5
    assert [isinstance(each, host_link.Packed) for each in sent] == [False] * 3 + [in_words] * 2
    for output in (first.output, blurred, pallas.output):
        assert np.max(np.abs(np.asarray(output) - expected)) < 1e-5


def test_a_cpus_programs_take_the_pixels_themselves_with_words_forced(in_words, monkeypatch):
    """Words are an accelerator's: a CPU's first call, steady call and live preview send the
    pixels as they are (the kept photo shares the host's memory), whatever the layout."""
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

    assert len(sent) == 3 and not any(isinstance(each, host_link.Packed) for each in sent)
    for output in (first.output, preview):
        assert np.max(np.abs(np.asarray(output) - expected)) < 1e-5


@pytest.mark.parametrize("shape", [(37, 48), (20, 16, 3), (1, 4100)])
def test_the_levels_a_photos_program_hands_back_in_words_are_scipys_rounded(in_words, shape):
    """JAX Pallas's photo program taking words, called as the engine calls it: the words it
    hands back, seen on the host as levels, are SciPy's blur rounded as saving rounds it (the
    word kernels on a TPU, XLA's bitcasts standing in for them elsewhere)."""
    from scipy import ndimage

    from blurapp.core.engines import pallas_engine
    from blurapp.core.engines.jax_program import rows_of_values
    from blurapp.core.kernel import gaussian_kernel

    device = jax.devices()[0]
    levels = picture(shape, np.uint8, seed=20)
    rows = levels.reshape(rows_of_values(shape)[0])
    kernel = gaussian_kernel(5, 1.2).astype(np.float32)
    weights = kernel if levels.ndim == 2 else kernel[..., np.newaxis]
    expected = ndimage.correlate(levels.astype(np.float64) / 255, weights, mode="nearest")
    try:
        program, _, _ = pallas_engine.compiled_kernels.get_in_stages(
            shape, kernel.shape, device, moved=np.dtype(np.uint8)
        )
        assert host_link.takes_words(program)
        output = program(host_link.send(jax, rows, device, words=True), kernel)
    finally:
        pallas_engine.compiled_kernels.clear()

    back = host_link.fetch(jax, output[0]).reshape(shape)
    assert back.dtype == np.uint8
    as_saved = np.round(np.clip(expected, 0, 1) * 255)
    assert np.max(np.abs(back.astype(np.int16) - as_saved)) <= 1
    assert np.max(np.abs(np.asarray(output[1]).reshape(shape) - expected)) < 1e-5
