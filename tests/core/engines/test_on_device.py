"""A live preview's output left on its device: the picture a pane draws is made there, and only
what is read crosses (blurapp.core.engines.on_device, blurapp.app.pyramid.PictureOnDevice)."""

import numpy as np
import pytest
from helpers.oracle import blur_oracle

from blurapp.app import pyramid
from blurapp.app.pyramid import PictureOnDevice, build_pyramid, output_pyramid
from blurapp.core.engines import on_device
from blurapp.core.engines.jax_engine import JAX_JIT
from blurapp.core.engines.on_device import OutputOnDevice
from blurapp.core.kernel import gaussian_kernel
from blurapp.core.media.saving import to_8bit

pytestmark = pytest.mark.accelerator  # JAX-jit's preview call on JAX's default device

KERNEL = gaussian_kernel(9, 2.5)


def levels_photo(shape, seed=0):
    """A photo of 8-bit levels, read-only as a Photo's pixels are (the live preview keeps such
    a photo on its device)."""
    levels = np.random.default_rng(seed).integers(0, 256, shape, dtype=np.uint8)
    image = np.multiply(levels, np.float32(1 / 255), dtype=np.float32)
    image.flags.writeable = False
    return image


def previewed(image, kernel=KERNEL):
    return JAX_JIT.for_display().start(image, kernel).output


@pytest.mark.parametrize(
    "shape",
    [(1, 7), (9, 1), (37, 1200), (700, 1300), (301, 513, 3), (5, 3, 3)],
    ids=lambda shape: "x".join(map(str, shape)),
)
# The levels are halved, and cross, one way on a CPU and another on an accelerator (as one
# flat array): both, whatever the device the test runs on.
@pytest.mark.parametrize("halved_as_on", ["cpu", "tpu"])
def test_the_picture_made_on_the_device_is_the_full_result_reduced(
    shape, halved_as_on, monkeypatch
):
    # Levels of 64 pixels or fewer cross at once, so the larger photos keep levels back.
    monkeypatch.setattr(pyramid, "SHOWN_SIDE", 64)
    monkeypatch.setattr(on_device, "_platform", lambda values: halved_as_on)
    image = levels_photo(shape)
    output = previewed(image)
    assert isinstance(output, OutputOnDevice) and output.shape == shape
    picture = output_pyramid(output)
    assert isinstance(picture, PictureOnDevice) and not output.fetched
    sizes = pyramid.level_sizes(*shape[:2])
    crossed = [picture.fetched(level) for level in range(len(picture))]
    # The first level of 64 or fewer, else the smallest there is.
    first_crossed = next(
        (level for level, size in enumerate(sizes) if max(size) <= 64), len(sizes) - 1
    )
    assert crossed == [level >= first_crossed for level in range(len(sizes))]

    full = np.asarray(output)  # only now do the floats cross
    assert output.fetched
    np.testing.assert_allclose(full, blur_oracle(image, KERNEL), atol=1e-5, rtol=0)
    expected = build_pyramid(to_8bit(full))
    assert len(picture) == len(expected)
    for level, wanted in enumerate(expected):  # a level read crosses when first read
        np.testing.assert_array_equal(picture[level], wanted, err_msg=f"level {level}")


def test_a_part_of_the_picture_crosses_alone_and_matches_the_full_result(monkeypatch):
    monkeypatch.setattr(pyramid, "SHOWN_SIDE", 64)
    shape = (600, 1100, 3)
    image = levels_photo(shape, seed=1)
    output = previewed(image)
    picture = output_pyramid(output)
    part = pyramid.picture_region(picture, 17, 1050, 40, 100)  # clipped at the right edge
    assert part.shape == (40, 50, 3) and not output.fetched and not picture.fetched(0)
    wanted = to_8bit(blur_oracle(image, KERNEL))[17:57, 1050:]
    assert np.abs(part.astype(int) - wanted).max() <= 1  # float32 against float64 at a .5
    np.testing.assert_array_equal(part, to_8bit(np.asarray(output))[17:57, 1050:])
    with pytest.raises(IndexError):
        output.picture_region(590, 0, 20, 5)


def test_the_output_reads_as_the_array_it_stands_for():
    image = levels_photo((40, 50))
    output = previewed(image)
    oracle = blur_oracle(image, KERNEL)
    np.testing.assert_allclose(output[3:5, 7], oracle[3:5, 7], atol=1e-5, rtol=0)
    np.testing.assert_allclose(output.reshape(-1), oracle.reshape(-1), atol=1e-5, rtol=0)
    assert output.dtype == np.float32 and output.ndim == 2 and len(output) == 40
    np.testing.assert_allclose(np.abs(oracle - output), 0, atol=1e-5)


def test_parts_cross_as_blocks_kept_so_a_new_size_compiles_nothing(monkeypatch):
    monkeypatch.setattr(pyramid, "SHOWN_SIDE", 64)
    image = levels_photo((300, 400), seed=2)
    output = previewed(image)
    wanted = to_8bit(blur_oracle(image, KERNEL))
    compiled = on_device._region_program.cache_info().misses
    for top, left, height, width in (
        (10, 20, 30, 40),
        (12, 25, 5, 5),
        (250, 369, 50, 31),
        (0, 0, 1, 1),
    ):
        part = output.picture_region(top, left, height, width)
        near = wanted[top : top + part.shape[0], left : left + width]
        assert part.shape == near.shape and np.abs(part.astype(int) - near).max() <= 1
    # Every size above crossed as a block of REGION_BLOCK a side: one program, whatever the sizes.
    assert on_device._region_program.cache_info().misses - compiled <= 1
    assert not output.fetched


def test_a_new_picture_brings_the_parts_last_asked_so_the_window_s_paint_waits_for_nothing(
    monkeypatch,
):
    """The 100% inset of a clip's next frame (or a live preview's next change) is painted on the
    window's thread: its part crosses with the picture, on the thread that made it (the first
    picture of a shape's at the centre, where the inset starts), while a pane asks for it."""
    monkeypatch.setattr(pyramid, "SHOWN_SIDE", 64)
    now = [0.0]  # the seconds the parts were asked at
    monkeypatch.setattr(on_device, "_wanted_parts", on_device._WantedParts(clock=lambda: now[0]))
    shape = (700, 900, 3)
    images = [levels_photo(shape, seed=seed) for seed in (4, 5, 6, 7)]
    wanted = [to_8bit(blur_oracle(image, KERNEL)) for image in images]

    def asked_on_the_window_s_thread(picture, top, left, side):
        calls = []
        real = on_device._region_program

        def counted(*arguments):
            calls.append(arguments)
            return real(*arguments)

        monkeypatch.setattr(on_device, "_region_program", counted)
        part = picture.region(top, left, side, side)
        monkeypatch.setattr(on_device, "_region_program", real)
        return part, len(calls)

    def near(part, expected):  # float32 against float64 at a .5
        return part.shape == expected.shape and np.abs(part.astype(int) - expected).max() <= 1

    # The inset's default: a part of 220 pixels a side around the centre.
    picture = output_pyramid(previewed(images[0]))  # made where the engine blurred it
    part, calls = asked_on_the_window_s_thread(picture, 350 - 110, 450 - 110, 220)
    assert calls == 0 and near(part, wanted[0][240:460, 340:560])
    # Moved to a corner: that part crosses now, and comes with the next picture of this shape.
    part, calls = asked_on_the_window_s_thread(picture, 480, 680, 220)
    assert calls == 1 and near(part, wanted[0][480:700, 680:900])
    picture = output_pyramid(previewed(images[1]))
    part, calls = asked_on_the_window_s_thread(picture, 480, 680, 220)
    assert calls == 0 and near(part, wanted[1][480:700, 680:900])
    # A pixel under the cursor elsewhere: the next picture brings both parts.
    part, calls = asked_on_the_window_s_thread(picture, 5, 7, 1)
    assert calls == 1 and near(part, wanted[1][5:6, 7:8])
    picture = output_pyramid(previewed(images[2]))
    for top, left, side in ((480, 680, 220), (5, 7, 1)):
        part, calls = asked_on_the_window_s_thread(picture, top, left, side)
        assert calls == 0 and near(part, wanted[2][top : top + side, left : left + side])
    assert not picture.output.fetched
    # A part no pane has asked for a while (the inset hidden) is no longer fetched ahead.
    now[0] += on_device.WANTED_SECONDS + 1
    picture = output_pyramid(previewed(images[3]))
    part, calls = asked_on_the_window_s_thread(picture, 480, 680, 220)
    assert calls == 1 and near(part, wanted[3][480:700, 680:900])


def test_a_new_picture_brings_no_part_while_no_pane_asks_for_one(monkeypatch):
    """The 100% inset hidden (or never shown): a clip's frames after the first of its size, and a
    live preview's changes, cost the engine's thread no part's call."""
    monkeypatch.setattr(pyramid, "SHOWN_SIDE", 64)
    now = [0.0]  # the seconds the parts were asked at
    monkeypatch.setattr(on_device, "_wanted_parts", on_device._WantedParts(clock=lambda: now[0]))
    real = on_device._region_program
    calls = []

    def counted(*arguments):
        calls.append(arguments)
        return real(*arguments)

    monkeypatch.setattr(on_device, "_region_program", counted)

    def parts_brought(seed, shape=(700, 900)):
        calls.clear()
        picture = output_pyramid(previewed(levels_photo(shape, seed=seed)))
        return picture, len(calls)

    # A picture whose full size crossed (64 pixels a side or fewer) has every part on the host.
    assert parts_brought(7, shape=(60, 50))[1] == 0

    picture, brought = parts_brought(8)
    assert brought == 1  # the first of its size: its centre, where the inset starts
    now[0] += 1
    # Still, for a while: another pane's first picture, or frames made before the first paint.
    assert parts_brought(9)[1] == 1
    now[0] += on_device.WANTED_SECONDS
    assert parts_brought(10)[1] == 0  # no pane asked for the centre's part
    # Asked, then no more (the inset hidden): brought until WANTED_SECONDS have passed.
    picture.region(10, 20, 30, 40)
    now[0] += 1
    assert parts_brought(11)[1] == 1
    now[0] += on_device.WANTED_SECONDS
    assert parts_brought(12)[1] == 0


def test_a_part_asked_after_each_picture_comes_with_the_next_however_slowly_they_come(
    monkeypatch,
):
    """A live preview whose changes come seconds apart, a clip of a slow blur: the inset is
    painted after each picture, so its part comes with the next however long that takes."""
    monkeypatch.setattr(pyramid, "SHOWN_SIDE", 64)
    now = [0.0]
    monkeypatch.setattr(on_device, "_wanted_parts", on_device._WantedParts(clock=lambda: now[0]))
    images = [levels_photo((700, 900), seed=seed) for seed in (12, 13, 14)]
    picture = output_pyramid(previewed(images[0]))
    for image in images[1:]:
        now[0] += 0.5
        picture.region(200, 300, 60, 60)  # painted, some time after the picture came
        now[0] += 2 * on_device.WANTED_SECONDS
        picture = output_pyramid(previewed(image))  # made much later still
        real, calls = on_device._region_program, []

        def counted(*arguments, real=real, calls=calls):
            calls.append(arguments)
            return real(*arguments)

        monkeypatch.setattr(on_device, "_region_program", counted)
        part = picture.region(200, 300, 60, 60)
        monkeypatch.setattr(on_device, "_region_program", real)
        wanted = to_8bit(blur_oracle(image, KERNEL))[200:260, 300:360]
        assert not calls and np.abs(part.astype(int) - wanted).max() <= 1


def test_stopping_the_preview_brings_its_outputs_to_the_host(monkeypatch):
    """A job that does not preview with JAX-jit has the device's memory: the preview's outputs
    are fetched, and what is made of them from then on is made on the host."""
    monkeypatch.setattr(pyramid, "SHOWN_SIDE", 64)
    image = levels_photo((500, 700), seed=3)
    output = previewed(image)
    picture = output_pyramid(output)
    JAX_JIT.preview.stop()
    assert output.fetched
    expected = build_pyramid(to_8bit(np.asarray(output)))
    np.testing.assert_array_equal(picture[0], expected[0])  # made after it settled
    np.testing.assert_array_equal(picture.region(5, 6, 7, 8), expected[0][5:12, 6:14])


def test_frames_sent_ahead_are_taken_once_and_those_left_behind_let_go():
    from blurapp.core.engines.jax_engine import send_ahead
    from blurapp.core.engines.jax_runtime import jax_device
    from blurapp.core.engines.on_device import sent_ahead

    device = jax_device()
    first, second = levels_photo((20, 30), seed=4), levels_photo((20, 30), seed=5)
    send_ahead(first)
    send_ahead(second)  # a seek left `first` behind, still in memory
    assert sent_ahead.take(second, device) is not None
    assert sent_ahead.take(second, device) is None  # taken once
    assert sent_ahead.take(first, device) is None  # sent before the one taken: let go
    output = previewed(second)  # not sent: copied by the call itself
    np.testing.assert_allclose(np.asarray(output), blur_oracle(second, KERNEL), atol=1e-5, rtol=0)


def test_a_frame_sent_ahead_and_let_go_takes_its_copy_with_it():
    """A frame sent ahead that no call takes (a clip closed, a seek) goes when its array goes:
    nothing kept for it holds the array, nor so its copy on the device."""
    import gc
    import time
    import weakref

    from blurapp.core.engines.jax_engine import jax_device, send_ahead
    from blurapp.core.engines.on_device import sent_ahead

    device = jax_device()
    # Floats that are not levels: what crosses is the frame's own values (its rows).
    frame = np.random.default_rng(7).random((20, 30), dtype=np.float32)
    gone = weakref.ref(frame)
    send_ahead(frame)
    kept = sent_ahead.moved(frame, device)
    assert kept is not None and np.array_equal(kept.reshape(frame.shape), frame)
    del frame, kept
    # An accelerator's runtime may let go of the host's array a moment after its copy is done.
    deadline = time.monotonic() + 30
    while gc.collect() >= 0 and gone() is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert gone() is None
    # The next frame, sent and taken, is blurred as scipy blurs it.
    frame = np.random.default_rng(8).random((20, 30), dtype=np.float32)
    send_ahead(frame)
    output = previewed(frame)
    np.testing.assert_allclose(np.asarray(output), blur_oracle(frame, KERNEL), atol=1e-5, rtol=0)


@pytest.mark.parametrize("shape", [(20, 30), (17, 23, 3)], ids=["grey", "colour"])
def test_a_frame_given_as_its_levels_crosses_as_them_and_is_blurred_as_its_floats(shape):
    """A video's frame given as its 8-bit levels (a clip playing): sent ahead, what crosses to
    an accelerator is those levels themselves (a CPU's copy is their floats), and the blur
    is that of the frame's floats."""
    from blurapp.core.engines.jax_engine import jax_device, send_ahead
    from blurapp.core.engines.on_device import sent_ahead
    from blurapp.core.platforms import on_accelerator

    device = jax_device()
    levels = np.random.default_rng(9).integers(0, 256, shape, dtype=np.uint8)
    floats = np.multiply(levels, np.float32(1 / 255), dtype=np.float32)
    send_ahead(levels)
    crossed = sent_ahead.moved(levels, device)
    assert crossed is not None
    if on_accelerator(device):
        assert crossed.dtype == np.uint8
        np.testing.assert_array_equal(crossed.reshape(shape), levels)
    else:
        np.testing.assert_array_equal(crossed.reshape(shape), floats)
    output = previewed(levels)
    assert sent_ahead.take(levels, device) is None  # the call took the copy sent ahead
    assert output.shape == shape
    np.testing.assert_allclose(np.asarray(output), blur_oracle(floats, KERNEL), atol=1e-5, rtol=0)
    # Not sent ahead: the call copies the levels itself, with the same result.
    again = np.random.default_rng(10).integers(0, 256, shape, dtype=np.uint8)
    expected = blur_oracle(np.multiply(again, np.float32(1 / 255), dtype=np.float32), KERNEL)
    np.testing.assert_allclose(np.asarray(previewed(again)), expected, atol=1e-5, rtol=0)


def test_only_the_display_call_takes_levels_a_timed_call_blurs_the_values_it_is_given():
    """LivePreview.takes_levels is the display call's: JAX-jit's timed call given integers
    blurs their values, as NumPy's (and every other engine's) does, not their levels' floats."""
    from blurapp.core.engines import get_engine

    values = np.random.default_rng(11).integers(0, 256, (12, 15), dtype=np.uint8)
    expected = blur_oracle(values.astype(np.float32), KERNEL)
    for engine in (get_engine("numpy"), JAX_JIT):
        output = np.asarray(engine.start(values, KERNEL).output)
        np.testing.assert_allclose(output, expected, atol=1e-3, rtol=0, err_msg=engine.name)


def test_a_frame_taken_on_one_device_leaves_those_sent_to_another():
    """Two panes playing a clip on two devices (JAX-jit on the accelerator and on the CPU):
    one pane's call taking its frame lets go of its own frames left behind, not the other's."""
    sent = on_device._SentAhead()
    tpu_frame, cpu_frame = levels_photo((4, 5), seed=1), levels_photo((4, 5), seed=2)
    sent.keep(tpu_frame, "tpu0", "tpu0's copy", tpu_frame)
    sent.keep(cpu_frame, "cpu0", "cpu0's copy", cpu_frame)
    assert sent.take(cpu_frame, "cpu0") == "cpu0's copy"
    assert sent.take(tpu_frame, "tpu0") == "tpu0's copy"


def test_previews_with_kernels_of_one_shape_each_blur_with_their_own():
    """A kernel used again is the one kept on the device; another of the same size, or one no
    longer kept, crosses anew: each preview equals scipy's correlation with its own kernel."""
    image = levels_photo((40, 50), seed=6)
    kernels = [gaussian_kernel(9, sigma) for sigma in (1.0, 2.5, 1.0, 3.0, 3.5, 4.0, 4.5, 1.0)]
    for kernel in kernels:
        output = previewed(image, kernel)
        np.testing.assert_allclose(
            np.asarray(output), blur_oracle(image, kernel), atol=1e-5, rtol=0
        )


class CountingJax:
    """What kept_kernels asks of jax, counted: the copies made and the waits for them."""

    def __init__(self):
        self.copies = []

    def device_put(self, values, device):
        self.copies.append((np.array(values), device))
        return ("on", device, np.array(values).tobytes())

    def block_until_ready(self, values):
        return values


def test_a_kernel_kept_on_its_device_does_not_cross_again():
    kept, jax = on_device._KeptKernels(), CountingJax()
    first, second = gaussian_kernel(9, 2.5), gaussian_kernel(9, 3.0)
    assert kept.on_device(jax, first, "tpu0", start=False)[2] == first.tobytes()
    # The device's first copy, then the kernel's.
    assert [copy.size for copy, _ in jax.copies] == [1, first.size]
    assert kept.on_device(jax, first, "tpu0", start=False)[2] == first.tobytes()
    assert len(jax.copies) == 2  # kept: nothing crossed
    assert kept.on_device(jax, second, "tpu0", start=False)[2] == second.tobytes()
    assert len(jax.copies) == 3  # another kernel crosses, the device started already
    assert kept.on_device(jax, first, "tpu1", start=False)[1] == "tpu1"
    assert [copy.size for copy, _ in jax.copies[3:]] == [1, first.size]  # a device of its own
    # A timed first call makes its first copy every time, its kernel kept or not.
    kept.on_device(jax, first, "tpu0")
    assert [copy.size for copy, _ in jax.copies[5:]] == [1]


def test_only_the_last_kernels_used_stay_on_the_device():
    kept, jax = on_device._KeptKernels(), CountingJax()
    kernels = [gaussian_kernel(5, 1 + step / 4) for step in range(on_device.KERNELS_KEPT + 1)]
    for kernel in kernels:
        kept.on_device(jax, kernel, "cpu0", start=False)
    crossed = len(jax.copies)
    kept.on_device(jax, kernels[-1], "cpu0", start=False)
    assert len(jax.copies) == crossed
    kept.on_device(jax, kernels[0], "cpu0", start=False)  # the oldest, let go
    assert len(jax.copies) == crossed + 1


def test_an_output_made_while_a_job_lets_the_device_go_does_not_fail_it(monkeypatch):
    """A job that does not preview with JAX-jit (a sweep, a blur by blocks) settles the outputs
    left on the device while a clip's pane may make a new one on its own thread: the job goes
    on, and settles those it found."""
    import threading
    import weakref

    import jax

    values = jax.device_put(np.zeros((4, 6), np.float32), jax.devices("cpu")[0])
    made = []
    panes = []

    class Living(weakref.WeakSet):
        def __iter__(self):
            for index, output in enumerate(super().__iter__()):
                if index == 0:  # the pane makes its output as the job goes through them
                    pane = threading.Thread(
                        target=lambda: made.append(OutputOnDevice(jax, values, (4, 6)))
                    )
                    panes.append(pane)
                    pane.start()
                    pane.join(1)
                yield output

    monkeypatch.setattr(on_device, "_living", Living())
    left = [OutputOnDevice(jax, values, (4, 6)) for _ in range(3)]
    on_device.settle_outputs()
    panes[0].join(60)
    assert len(made) == 1 and all(output.fetched for output in left)
    np.testing.assert_array_equal(np.asarray(made[0]), np.zeros((4, 6)))


@pytest.mark.parametrize("halved_as_on", ["cpu", "tpu"])
def test_a_picture_of_one_channel_comes_as_height_by_width_however_it_crosses(
    halved_as_on, monkeypatch
):
    # A height × width × 1 output's levels are made as height × width: crossing as one flat
    # array (an accelerator's way), each is cut in that shape too, the values of its channel.
    monkeypatch.setattr(on_device, "_platform", lambda values: halved_as_on)
    image = levels_photo((44, 26, 1), seed=4)
    output = previewed(image)
    levels = output.picture_levels(1, 2)
    assert [level.shape for level in levels] == [(22, 13), (11, 6)]
    # Each 2 × 2 block's mean rounded half up, an odd last row or column left out.
    once = _halved(to_8bit(blur_oracle(image[..., 0], KERNEL)))
    for level, wanted in zip(levels, (once, _halved(once)), strict=True):
        assert np.abs(level.astype(int) - wanted).max() <= 1  # float32 against float64 at a .5


def _halved(picture):
    height, width = picture.shape[0] // 2 * 2, picture.shape[1] // 2 * 2
    values = picture[:height, :width].astype(int)
    total = values[0::2, 0::2] + values[1::2, 0::2] + values[0::2, 1::2] + values[1::2, 1::2]
    return (total + 2) >> 2
