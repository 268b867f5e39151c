"""The program an accelerator runs (jax_program.blur_on_accelerator) and what crosses to it:
on CI's CPU the program is compiled for the CPU and the engine is told its device is an
accelerator; on an accelerator machine the same tests run on the accelerator itself."""

import numpy as np
import pytest
from helpers.jax_loops import loops_in
from helpers.oracle import blur_oracle
from helpers.stand_in_accelerator import take_the_cpu_for_an_accelerator
from hypothesis import given, settings
from hypothesis import strategies as st

from blurapp.core.kernel import gaussian_kernel, gaussian_kernel_1d

# Run where the accelerator is: `pytest -m accelerator` (docs/contributing.md).
pytestmark = pytest.mark.accelerator

pytest.importorskip("jax")

TOLERANCE = 1e-5


def _levels(height, width, channels=1, seed=0, dtype=np.uint8):
    shape = (height, width) if channels == 1 else (height, width, channels)
    white = np.iinfo(dtype).max
    return np.random.default_rng(seed).integers(0, white + 1, shape, dtype=dtype)


def _as_photo(levels):
    """Float32 pixels as a photo read from these levels holds them (media/pixels.py)."""
    pixels = levels * np.float32(1 / np.iinfo(levels.dtype).max)
    pixels.flags.writeable = False
    return pixels


KERNELS = [
    pytest.param(gaussian_kernel(3, 1.0), id="2-D 3x3"),
    pytest.param(gaussian_kernel(9, 2.0), id="2-D 9x9"),
    pytest.param(gaussian_kernel_1d(9, 2.0), id="separable 9"),
]


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("channels", [1, 3])
@pytest.mark.parametrize("height", [5, 70, 131])  # fewer rows than the 9×9 kernel, many, odd
def test_the_accelerators_program_blurs_rows_of_values_as_scipy_does(kernel, channels, height):
    import jax

    from blurapp.core.engines.jax_program import blur_on_accelerator

    image = _as_photo(_levels(height, 37, channels, seed=height))
    rows = image.reshape(height, -1)
    output = jax.jit(blur_on_accelerator, static_argnames="step")(rows, kernel, step=channels)
    np.testing.assert_allclose(
        np.asarray(output).reshape(image.shape), blur_oracle(image, kernel), rtol=0, atol=TOLERANCE
    )


@pytest.mark.parametrize(
    ("height", "row_values", "platform", "expected"),
    [
        pytest.param(4000, 6000, "tpu", (1, 4000), id="TPU, 24 MP grey: one pass"),
        pytest.param(4000, 18000, "tpu", (4, 1000), id="TPU, 24 MP colour: four strips"),
        pytest.param(2160, 11520, "tpu", (2, 1080), id="TPU, 4K colour: two strips"),
        pytest.param(4001, 18000, "tpu", (4, 1008), id="TPU, odd rows: whole tiles, a short last"),
        pytest.param(100, 30_000_000, "tpu", (13, 8), id="TPU, a row past a pass: a tile's rows"),
        pytest.param(4000, 18000, "gpu", (1, 4000), id="GPU, 24 MP colour: one pass"),
    ],
)
def test_an_accelerator_blurs_an_image_past_one_pass_in_the_fewest_strips(
    height, row_values, platform, expected
):
    from blurapp.core.engines.jax_program import accelerator_strips, pass_values_on

    pass_values = pass_values_on(platform)
    strips, rows = accelerator_strips(height, row_values, pass_values)
    assert (strips, rows) == expected
    assert (strips - 1) * rows < height <= strips * rows
    assert strips == 1 or rows == 8 or rows * row_values <= pass_values


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("channels", [1, 3])
@pytest.mark.parametrize("height", [20, 131])  # a last strip of 4 rows; of 3
def test_an_image_past_one_pass_is_blurred_strip_by_strip_as_scipy_does(kernel, channels, height):
    import jax

    from blurapp.core.engines.jax_program import accelerator_strips, blur_on_accelerator

    # A pass of 16 rows of this image's values, so that it goes in strips.
    pass_values = 16 * 37 * channels
    assert accelerator_strips(height, 37 * channels, pass_values)[0] > 1
    levels = _levels(height, 37, channels, seed=height)
    image = _as_photo(levels)
    rows = image.reshape(height, -1)
    # One loop more than in one pass: the strips, one after another.
    in_one_pass = loops_in(blur_on_accelerator, rows, kernel, step=channels, pass_values=None)
    assert (
        loops_in(blur_on_accelerator, rows, kernel, step=channels, pass_values=pass_values)
        == in_one_pass + 1
    )
    program = jax.jit(blur_on_accelerator, static_argnames=("step", "pass_values"))
    output = program(rows, kernel, step=channels, pass_values=pass_values)
    expected = blur_oracle(image, kernel)
    np.testing.assert_allclose(
        np.asarray(output).reshape(image.shape), expected, rtol=0, atol=TOLERANCE
    )
    rounded, _ = program(levels.reshape(height, -1), kernel, step=channels, pass_values=pass_values)
    rounded = np.asarray(rounded).reshape(image.shape)
    assert np.abs(rounded.astype(np.int64) - np.rint(expected * 255)).max() <= 1


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
@pytest.mark.parametrize("channels", [1, 3])
def test_levels_in_give_the_levels_saving_writes_and_the_floats_themselves(dtype, channels):
    import jax

    from blurapp.core.engines.jax_program import blur_on_accelerator

    levels = _levels(40, 29, channels, seed=3, dtype=dtype)
    kernel = gaussian_kernel(5, 1.5)
    image = _as_photo(levels)
    rounded, floats = jax.jit(blur_on_accelerator, static_argnames="step")(
        levels.reshape(40, -1), kernel, step=channels
    )
    expected = blur_oracle(image, kernel)
    np.testing.assert_allclose(
        np.asarray(floats).reshape(image.shape), expected, rtol=0, atol=TOLERANCE
    )
    rounded = np.asarray(rounded).reshape(image.shape)
    assert rounded.dtype == dtype
    white = np.iinfo(dtype).max
    # Saving's rounding of the same floats, within one level where a float lies at a half.
    assert np.abs(rounded.astype(np.int64) - np.rint(expected * white)).max() <= 1


@pytest.mark.parametrize(
    "kernel", [*KERNELS, pytest.param(gaussian_kernel(17, 4.0), id="2-D 17x17, over the unrolled")]
)
@pytest.mark.parametrize("channels", [1, 3])
@pytest.mark.parametrize("passes", ["one pass", "strips"])
def test_a_large_images_block_on_an_accelerator_gives_the_levels_saving_writes(
    kernel, channels, passes
):
    # A block of a gigapixel image with its halo, blurred by the accelerator's program for
    # blocks (a 2-D kernel's rows a loop; a block past one pass in strips of rows): levels of the
    # block without its halo, as saving rounds the oracle's floats.
    import jax

    from blurapp.core.engines.jax_program import accelerator_strips, blur_levels

    radius = kernel.shape[0] // 2
    levels = _levels(90, 70, channels, seed=5)
    pass_values = 32 * 70 * channels if passes == "strips" else None
    assert (accelerator_strips(90, 70 * channels, pass_values)[0] > 1) == (passes == "strips")
    in_one_pass = loops_in(blur_levels, levels, kernel, in_strips=False, pass_values=None)
    loops = loops_in(blur_levels, levels, kernel, in_strips=False, pass_values=pass_values)
    assert loops == in_one_pass + (passes == "strips")
    program = jax.jit(blur_levels, static_argnames=("in_strips", "pass_values"))
    block = program(levels, kernel, in_strips=False, pass_values=pass_values)
    expected = blur_oracle(_as_photo(levels), kernel)[radius:-radius, radius:-radius]
    block = np.asarray(block).reshape(expected.shape)
    assert block.dtype == np.uint8
    assert np.abs(block.astype(np.int64) - np.rint(expected * 255)).max() <= 1


@pytest.fixture
def as_on_an_accelerator(monkeypatch):
    """JAX-jit takes its device for an accelerator, whatever it is."""
    from blurapp.core.engines import jax_engine

    take_the_cpu_for_an_accelerator(monkeypatch)
    jax_engine.compiled_blurs.clear()
    yield
    jax_engine.compiled_blurs.clear()


@pytest.mark.parametrize("channels", [1, 3])
def test_a_photos_levels_cross_to_an_accelerator_and_its_blur_crosses_back_as_levels(
    as_on_an_accelerator, channels
):
    from blurapp.core.engines import get_engine

    levels = _levels(33, 45, channels, seed=5)
    image = _as_photo(levels)
    kernel = gaussian_kernel(7, 2.0)
    first = get_engine("jax").start(image, kernel)
    # The first call's output is the blur's floats, exact, for the engines' difference.
    np.testing.assert_allclose(first.output, blur_oracle(image, kernel), rtol=0, atol=TOLERANCE)
    call = first.again()
    assert call.to_device_seconds is not None and call.from_device_seconds is not None


@pytest.mark.parametrize("channels", [1, 3])
def test_an_accelerators_photo_is_blurred_in_the_passes_its_platform_holds(
    as_on_an_accelerator, monkeypatch, channels
):
    from blurapp.core.engines import get_engine, jax_engine, jax_runtime
    from blurapp.core.platforms import platform_of

    platforms, compiled_with = [], []

    def passes_of_16_rows(platform):
        platforms.append(platform)
        return 16 * 45 * channels

    def recorded_compile(*arguments, **static):
        compiled_with.append(static.get("pass_values"))
        return compile_blur(*arguments, **static)

    # Where every JAX-jit program is compiled (jax_runtime.compile_blur_program calls it).
    compile_blur = jax_runtime.compile_blur
    monkeypatch.setattr(jax_engine, "pass_values_on", passes_of_16_rows)
    monkeypatch.setattr(jax_runtime, "compile_blur", recorded_compile)
    levels = _levels(41, 45, channels, seed=8)
    image = _as_photo(levels)
    kernel = gaussian_kernel(7, 2.0)
    first = get_engine("jax").start(image, kernel)
    assert platforms and set(platforms) == {platform_of(jax_engine.jax_device())}
    assert compiled_with == [16 * 45 * channels]
    np.testing.assert_allclose(first.output, blur_oracle(image, kernel), rtol=0, atol=TOLERANCE)


def test_a_grey_photo_and_a_colour_one_of_the_same_rows_of_values_each_get_their_blur(
    as_on_an_accelerator,
):
    """On an accelerator both cross as 8 rows of 12 values: a grey photo 12 pixels wide and a
    colour one 4 pixels wide, whose blurs step 1 and 3 values a tap."""
    from blurapp.core.engines import get_engine

    kernel = gaussian_kernel(3, 1.0)
    grey = np.random.default_rng(1).random((8, 12), dtype=np.float32)
    colour = np.random.default_rng(2).random((8, 4, 3), dtype=np.float32)
    for image in (grey, colour):
        output = get_engine("jax").start(image, kernel).output
        np.testing.assert_allclose(output, blur_oracle(image, kernel), rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize("bits", [8, 16])
def test_a_colour_photos_grey_crosses_to_an_accelerator_as_levels_of_its_depth(
    as_on_an_accelerator, tmp_path, bits
):
    """The default run, a colour photo in grey: its grey is levels of the file's depth, so a
    quarter (8-bit) or a half (16-bit) of its float32's bytes cross to the device."""
    import imagecodecs

    from blurapp.core import load_photo
    from blurapp.core.engines import get_engine
    from blurapp.core.engines.jax_runtime import jax_device, to_move

    dtype = np.uint8 if bits == 8 else np.uint16
    rgb = np.random.default_rng(9).integers(0, 2**bits, (26, 37, 3), dtype=dtype)
    path = tmp_path / f"colour-{bits}.png"
    path.write_bytes(imagecodecs.png_encode(rgb))
    photo = load_photo(path)
    assert photo.channels == 1 and photo.bit_depth == bits
    moved = to_move(photo.gray, jax_device())
    assert moved.dtype == dtype and moved.nbytes * 32 == photo.gray.nbytes * bits
    kernel = gaussian_kernel(5, 1.5)
    first = get_engine("jax").start(photo.gray, kernel)
    np.testing.assert_allclose(
        first.output, blur_oracle(photo.gray, kernel), rtol=0, atol=TOLERANCE
    )


def test_pixels_that_are_not_levels_cross_as_floats(as_on_an_accelerator):
    from blurapp.core.engines import get_engine
    from blurapp.core.engines.levels import stored_levels

    image = np.random.default_rng(1).random((21, 30), dtype=np.float32)
    kernel = gaussian_kernel_1d(5, 1.0)
    assert stored_levels.of(image) is None
    first = get_engine("jax").start(image, kernel)
    np.testing.assert_allclose(first.output, blur_oracle(image, kernel), rtol=0, atol=TOLERANCE)
    assert first.again().seconds > 0


def test_stored_levels_are_found_only_where_every_pixel_is_one():
    from blurapp.core.engines.levels import stored_levels

    eight = _levels(12, 10, seed=2)
    assert np.array_equal(stored_levels.of(_as_photo(eight)), eight)
    sixteen = _levels(12, 10, seed=2, dtype=np.uint16)
    sixteen[0, 0] = 257  # not a multiple of 257: no 8-bit level
    assert np.array_equal(stored_levels.of(_as_photo(sixteen)), sixteen)
    almost = _as_photo(eight).copy()
    almost[-1, -1] = np.nextafter(almost[-1, -1], np.float32(2))
    assert stored_levels.of(almost) is None


def test_frames_cross_to_an_accelerator_as_rows_of_values(as_on_an_accelerator):
    from blurapp.core.engines import get_engine

    frames = np.random.default_rng(4).random((3, 20, 18, 3), dtype=np.float32)
    kernel = gaussian_kernel(5, 1.2)
    blurred = get_engine("jax").blur_frames(frames, kernel)
    for frame, output in zip(frames, blurred.output, strict=True):
        np.testing.assert_allclose(output, blur_oracle(frame, kernel), rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize("channels", [1, 3])
@pytest.mark.parametrize(
    "kernel", [gaussian_kernel(5, 1.5), gaussian_kernel_1d(7, 2.0)], ids=["2-D", "separable"]
)
def test_the_pallas_kernel_takes_a_photos_levels_as_rows_of_values_too(
    as_on_an_accelerator, channels, kernel
):
    from blurapp.core.engines import get_engine
    from blurapp.core.engines.pallas_engine import compiled_kernels

    image = _as_photo(_levels(19, 43, channels, seed=11))
    compiled_kernels.clear()
    first = get_engine("pallas").start(image, kernel)
    np.testing.assert_allclose(first.output, blur_oracle(image, kernel), rtol=0, atol=TOLERANCE)
    # What crossed was the photo's levels: the program was compiled for uint8 rows of values
    # (in words where the device's link takes them; the key's last part says whether a kernel
    # is a batch of frames' instead: it is not).
    (key,) = compiled_kernels.held_keys()
    assert (key[-3], key[-1]) == (np.dtype(np.uint8).str, False)
    assert first.again().from_device_seconds is not None


@settings(max_examples=25, deadline=None)
@given(
    height=st.integers(1, 12),
    width=st.integers(1, 12),
    channels=st.sampled_from([1, 3]),
    size=st.sampled_from([1, 3, 5, 9, 15]),
    separable=st.booleans(),
    levels=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_any_small_photo_crosses_and_blurs_as_scipy_says(
    height, width, channels, size, separable, levels, seed
):
    """Shapes smaller than the kernel included, levels or floats, on the accelerator's path."""
    from blurapp.core.engines import get_engine

    image = (
        _as_photo(_levels(height, width, channels, seed=seed))
        if levels
        else np.random.default_rng(seed).random(
            (height, width, channels)[: 3 if channels > 1 else 2], dtype=np.float32
        )
    )
    kernel = gaussian_kernel_1d(size, 1.7) if separable else gaussian_kernel(size, 1.7)
    with pytest.MonkeyPatch.context() as patch:
        take_the_cpu_for_an_accelerator(patch)
        output = get_engine("jax").start(image, kernel).output
    np.testing.assert_allclose(output, blur_oracle(image, kernel), rtol=0, atol=TOLERANCE)


def test_a_first_calls_copy_back_counts_the_floats_it_waits_for(as_on_an_accelerator, monkeypatch):
    """The first call's output is the blur's floats, copied back from the device after its
    levels: the time it says it took to copy back is both copies, not the levels' alone."""
    import time

    from blurapp.core.engines import get_engine
    from blurapp.core.engines.jax_runtime import import_jax

    jax = import_jax()
    real_device_get = jax.device_get
    slow = 0.25

    def device_get(value):
        if getattr(value, "dtype", None) == np.float32 and getattr(value, "size", 0) > 1:
            time.sleep(slow)  # the floats are four times the levels' bytes
        return real_device_get(value)

    monkeypatch.setattr(jax, "device_get", device_get)
    image = _as_photo(_levels(24, 31, seed=7))
    first = get_engine("jax").start(image, gaussian_kernel(5, 1.5))
    np.testing.assert_allclose(
        first.output, blur_oracle(image, gaussian_kernel(5, 1.5)), rtol=0, atol=TOLERANCE
    )
    assert first.from_device_seconds >= slow


def test_the_levels_kept_for_a_photo_cannot_be_written_to():
    """The levels found for a photo are kept and handed out again for it: nothing may change
    them, or a later copy to the device would not be the photo."""
    from blurapp.core.engines.levels import stored_levels

    photo = _as_photo(_levels(9, 11, seed=8))
    levels = stored_levels.of(photo)
    with pytest.raises(ValueError):
        levels[0, 0] = 1
    assert stored_levels.of(photo) is levels
