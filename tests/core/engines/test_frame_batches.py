"""Frames blurred in batches, by every engine, against the independent oracle."""

import dataclasses

import numpy as np
import pytest
from helpers.jax_loops import loops_in
from helpers.oracle import blur_oracle
from helpers.stand_in_accelerator import take_the_cpu_for_an_accelerator

from blurapp.core import TOLERANCE, engine_names, gaussian_kernel, get_engine
from blurapp.core.engines import Frames, jax_engine
from blurapp.core.engines.frame_batches import (
    batch_sizes_for,
    blurred_frames,
    choose_batch_size,
    frame_batches,
)
from blurapp.core.engines.jax_runtime import JaxUnavailableError
from blurapp.core.engines.runs import BlurredFrames, Call, Compilation
from blurapp.core.kernel import kernel_for

# Run where the accelerator is: `pytest -m accelerator` (docs/contributing.md).
pytestmark = pytest.mark.accelerator


def random_frames(count, *shape, seed=0):
    return np.random.default_rng(seed).random((count, *shape), dtype=np.float32)


def assert_each_frame_matches_the_oracle(outputs, frames, kernel):
    assert len(outputs) == len(frames)
    for output, frame in zip(outputs, frames, strict=True):
        assert output.shape == frame.shape and output.dtype == np.float32
        np.testing.assert_allclose(output, blur_oracle(frame, kernel), rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("shape", [(23, 31), (17, 12, 3)], ids=["grey", "colour"])
@pytest.mark.parametrize("algorithm", ["2d", "separable"])
def test_a_batch_in_one_call_is_every_frame_blurred(engine, shape, algorithm):
    frames = random_frames(3, *shape, seed=len(shape))
    kernel = kernel_for(algorithm, 9, 2.5)
    blurred = get_engine(engine).blur_frames(frames, kernel)
    assert blurred.output.shape == frames.shape
    assert_each_frame_matches_the_oracle(blurred.output, frames, kernel)
    assert blurred.call.seconds > 0


@pytest.mark.parametrize("engine", ["numpy", "jax"])
@pytest.mark.parametrize("batch_size", [1, 2, 4, 16])
def test_a_stream_of_frames_comes_out_in_order_whatever_the_batch_size(engine, batch_size):
    # 7 frames: batches of 2 and 4 leave a remainder, 16 is larger than the stream.
    frames = random_frames(7, 19, 26, seed=batch_size)
    kernel = gaussian_kernel(9, 2.5)
    outputs = list(blurred_frames(get_engine(engine), iter(frames), kernel, batch_size=batch_size))
    assert_each_frame_matches_the_oracle(outputs, frames, kernel)


def test_jax_jit_compiles_once_per_batch_shape_and_its_last_short_batch_reuses_it():
    frames = random_frames(5, 21, 22, 3, seed=5)
    kernel = gaussian_kernel(5, 1.3)
    jit = get_engine("jax")
    jax_engine.import_jax()
    from blurapp.core.engines.jax_frames import compiled_frame_blurs

    before = compiled_frame_blurs.held()
    outputs = list(blurred_frames(jit, iter(frames), kernel, batch_size=2))
    assert compiled_frame_blurs.held() == before + 1  # 2 + 2 + 1 filled up to 2: one program
    assert_each_frame_matches_the_oracle(outputs, frames, kernel)
    again = jit.blur_frames(frames[:2], gaussian_kernel(5, 2.0))  # a new sigma, same program
    assert again.compilation is Compilation.REUSED
    assert compiled_frame_blurs.held() == before + 1


def test_frames_gather_into_batches_that_start_anew_when_the_frame_size_changes():
    frames = [np.full((2, 3), i, np.float32) for i in range(3)]
    frames += [np.full((4, 5), i, np.float32) for i in range(3, 6)]
    batches = list(frame_batches(iter(frames), 2))
    assert [batch.shape for batch in batches] == [(2, 2, 3), (1, 2, 3), (2, 4, 5), (1, 4, 5)]
    assert [float(frame[0, 0]) for batch in batches for frame in batch] == list(range(6))


def test_the_batch_size_is_chosen_by_measuring_and_every_size_tried_is_reported():
    kernel = gaussian_kernel(9, 2.5)
    choice = choose_batch_size(get_engine("jax"), (30, 40), kernel, sizes=(1, 2, 4), rounds=1)
    assert choice.measured
    assert set(choice.seconds_per_frame) == {1, 2, 4} == set(choice.first_call_seconds)
    assert choice.size in (1, 2, 4)
    assert choice.seconds_per_frame[choice.size] == min(choice.seconds_per_frame.values())
    assert choice.frames_per_second() == pytest.approx(1 / choice.seconds_per_frame[choice.size])


def test_an_engine_blurring_frame_by_frame_has_nothing_to_choose():
    choice = choose_batch_size(get_engine("numpy"), (30, 40), gaussian_kernel(9, 2.5))
    assert choice.size == 1 and not choice.measured
    assert choice.frames_per_second() is None


def test_batch_sizes_stay_within_the_memory_allowed():
    four_k_colour = (2160, 3840, 3)  # 99.5 MB a frame
    assert batch_sizes_for(four_k_colour, (1, 2, 4), max_batch_bytes=250_000_000) == [1, 2]
    assert batch_sizes_for(four_k_colour, (2, 4), max_batch_bytes=1) == [1]
    assert batch_sizes_for((1080, 1920), (1, 2, 4, 8, 16, 32)) == [1, 2, 4, 8, 16]


def test_without_jax_a_batch_says_why(monkeypatch):
    def no_device(platform=None):
        raise JaxUnavailableError("JAX could not be loaded: simulated broken installation")

    monkeypatch.setattr(jax_engine, "jax_device", no_device)
    with pytest.raises(JaxUnavailableError, match="simulated broken installation"):
        get_engine("jax").blur_frames(random_frames(2, 8, 8), gaussian_kernel(3, 1.0))
    # NumPy needs no JAX.
    frames = random_frames(2, 8, 8)
    assert get_engine("numpy").blur_frames(frames, gaussian_kernel(3, 1.0)).output.shape == (
        2,
        8,
        8,
    )


def test_an_engine_whose_frames_call_gives_the_wrong_shape_is_named():
    from dataclasses import replace

    from blurapp.core.engines import EngineOutputError
    from blurapp.core.engines.runs import BlurredFrames, Call

    def one_frame_short(frames, kernel, *, platform):
        return BlurredFrames(np.zeros(frames.shape[1:], np.float32)[None], Call(0.001))

    careless = replace(get_engine("numpy"), name="careless", frames=Frames(one_frame_short))
    with pytest.raises(EngineOutputError, match="the careless engine gave an output of 1 × 8 × 8"):
        careless.blur_frames(random_frames(3, 8, 8), gaussian_kernel(3, 1.0))


@pytest.mark.parametrize("in_strips", [True, False], ids=["cpu-program", "gpu-program"])
@pytest.mark.parametrize("size", [9, 17])  # 17 × 17 is past the unrolled taps: a loop of rows
def test_the_frame_axis_programs_of_a_cpu_and_of_a_gpu_both_match_the_oracle(in_strips, size):
    import jax

    from blurapp.core.engines.jax_frames import frames_program

    frames = random_frames(3, 70, 23, 3, seed=size)
    kernel = gaussian_kernel(size, 3.0)
    program = jax.jit(frames_program, static_argnames="in_strips")
    output = np.asarray(program(frames, kernel, in_strips=in_strips)).reshape(frames.shape)
    assert_each_frame_matches_the_oracle(output, frames, kernel)


@pytest.mark.parametrize(
    ("values", "in_strips", "pass_values", "expected"),
    [
        pytest.param(10, True, None, True, id="a CPU: frame after frame"),
        pytest.param(10**9, False, None, False, id="no limit (a GPU): side by side"),
        pytest.param(
            24_000_000, False, 24_000_000, False, id="a batch one pass holds: side by side"
        ),
        pytest.param(24_000_001, False, 24_000_000, True, id="past one pass: frame after frame"),
    ],
)
def test_frames_go_side_by_side_only_where_one_pass_holds_them(
    values, in_strips, pass_values, expected
):
    from blurapp.core.engines.jax_frames import one_frame_at_a_time

    assert one_frame_at_a_time(values, in_strips, pass_values) is expected


@pytest.mark.parametrize("channels", [1, 3])
def test_an_accelerators_batch_past_one_pass_is_blurred_frame_after_frame(channels):
    import jax

    from blurapp.core.engines.jax_frames import frames_program, one_frame_at_a_time

    shape = (3, 40, 23) if channels == 1 else (3, 40, 23, 3)
    levels = np.random.default_rng(channels).integers(0, 256, shape, dtype=np.uint8)
    # A pass holds three fifths of a frame: the batch goes frame after frame, each frame in
    # strips of 24 rows.
    pass_values = levels[0].size * 3 // 5
    assert one_frame_at_a_time(levels.size, False, pass_values)
    kernel = gaussian_kernel(9, 3.0)
    rows = levels.reshape(3, 40, -1)
    # Two loops more than side by side in one pass each: the frames, and each frame's strips.
    static = {"in_strips": False, "step": channels}
    in_one_pass = loops_in(frames_program, rows, kernel, **static, pass_values=None)
    loops = loops_in(frames_program, rows, kernel, **static, pass_values=pass_values)
    assert loops == in_one_pass + 2
    program = jax.jit(frames_program, static_argnames=("in_strips", "step", "pass_values"))
    blurred = program(rows, kernel, in_strips=False, step=channels, pass_values=pass_values)
    assert_levels_match_the_oracle(list(np.asarray(blurred).reshape(levels.shape)), levels, kernel)


def test_an_accelerators_frames_are_compiled_with_its_platforms_pass_limit(monkeypatch):
    import jax

    from blurapp.core.engines import jax_frames

    platforms, traced_with = [], []

    def a_small_pass(platform):
        platforms.append(platform)
        return 600

    def recorded(*arguments, **static):
        traced_with.append(static["pass_values"])
        return frames_program(*arguments, **static)

    frames_program = jax_frames.frames_program
    monkeypatch.setattr(jax_frames, "pass_values_on", a_small_pass)
    monkeypatch.setattr(jax_frames, "frames_program", recorded)
    blurs = jax_frames.compiled_frame_blurs
    # A program of its own (one jit per program function), traced through the recorder and
    # forgotten after.
    blurs.clear()
    levels = np.random.default_rng(4).integers(0, 256, (2, 40, 23, 3), dtype=np.uint8)
    kernel = gaussian_kernel(9, 3.0)
    device = jax.devices("cpu")[0]
    try:
        blurred = jax_frames.blur_frames_on_device(jax, levels, kernel, device, "cpu", as_rows=True)
    finally:
        blurs.clear()
    assert platforms == ["cpu"] and traced_with == [600]
    assert_levels_match_the_oracle(list(blurred.output), levels, kernel)


def test_a_batch_compiled_while_another_thread_loads_from_the_cache_says_it_compiled(
    monkeypatch,
):
    """Whether a batch's program came from JAX's persistent cache is what its own compilation
    found: another thread's cache hit meanwhile (here, reported while this one traces) does not
    make a program compiled afresh read "from the cache"."""
    import threading

    import jax

    from blurapp.core.engines import jax_frames
    from blurapp.core.engines.jax_runtime import CACHE_HIT_EVENT

    frames_program = jax_frames.frames_program

    def raced_frames_program(*arguments, **static):
        elsewhere = threading.Thread(target=jax.monitoring.record_event, args=(CACHE_HIT_EVENT,))
        elsewhere.start()
        elsewhere.join()
        return frames_program(*arguments, **static)

    # A program function of its own: a program no earlier test can have put in the cache.
    monkeypatch.setattr(jax_frames, "frames_program", raced_frames_program)
    blurs = jax_frames.compiled_frame_blurs
    blurs.clear()
    frames = random_frames(2, 19, 13, seed=8)
    kernel = gaussian_kernel(3, 0.9)
    try:
        blurred = jax_frames.blur_frames_on_device(
            jax, frames, kernel, jax.devices("cpu")[0], "cpu"
        )
    finally:
        blurs.clear()
    assert blurred.compilation is Compilation.COMPILED
    assert_each_frame_matches_the_oracle(list(blurred.output), frames, kernel)


def test_a_measured_first_call_is_the_blur_alone_its_copies_apart_as_for_photos():
    def frames_call(frames, kernel, platform=None):
        return BlurredFrames(frames.copy(), Call(0.5, 0.25, 0.125), "cpu", Compilation.COMPILED)

    jit = get_engine("jax")
    engine = dataclasses.replace(jit, frames=dataclasses.replace(jit.frames, call=frames_call))
    choice = choose_batch_size(engine, (6, 8), gaussian_kernel(3, 1.0), sizes=(1, 2), rounds=1)
    assert choice.first_call_seconds == {1: 0.5, 2: 0.5}
    assert choice.blur_seconds_per_frame == {1: 0.5, 2: 0.25}
    assert choice.seconds_per_frame == {1: 0.875, 2: 0.4375}  # copies counted to choose


def expected_levels(levels, kernel):
    """The oracle's blur of `levels` (a level × 1/white, as a reader makes frames), rounded
    back into levels of their type as saving rounds them."""
    white = np.iinfo(levels.dtype).max
    blurred = blur_oracle(levels.astype(np.float64) / white, kernel)
    return np.rint(np.clip(blurred, 0, 1) * white)


def assert_levels_match_the_oracle(outputs, frames, kernel):
    # A float32 sum and a float64 one may round a value lying within 1e-5 of a half level
    # apart: a level off by one, seldom.
    assert len(outputs) == len(frames)
    for output, frame in zip(outputs, frames, strict=True):
        assert output.shape == frame.shape and output.dtype == frame.dtype
        expected = expected_levels(frame, kernel)
        assert np.abs(output.astype(np.int64) - expected).max() <= 1
        assert np.mean(output == expected) > 0.99


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("shape", [(23, 31), (17, 12, 3)], ids=["grey", "colour"])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
def test_frames_given_as_levels_come_back_as_blurred_levels_of_their_type(engine, shape, dtype):
    # A clip's frames as stored (Clip.levels): every engine gives levels back, rounded as a
    # saved clip's are; JAX-jit makes the floats on its device, the others on the host.
    levels = np.random.default_rng(len(shape)).integers(
        0, np.iinfo(dtype).max, (3, *shape), dtype=dtype, endpoint=True
    )
    kernel = gaussian_kernel(9, 2.5)
    blurred = get_engine(engine).blur_frames(levels, kernel)
    assert_levels_match_the_oracle(blurred.output, levels, kernel)


@pytest.mark.parametrize("batch_size", [1, 3])
def test_levels_stream_through_batches_of_levels_in_order(batch_size):
    levels = np.random.default_rng(batch_size).integers(0, 256, (5, 19, 26), dtype=np.uint8)
    batches = list(frame_batches(iter(levels), batch_size))
    assert all(batch.dtype == np.uint8 for batch in batches)
    kernel = gaussian_kernel(5, 1.5)
    outputs = list(blurred_frames(get_engine("jax"), iter(levels), kernel, batch_size=batch_size))
    assert_levels_match_the_oracle(outputs, levels, kernel)


def test_an_accelerators_frame_program_makes_levels_floats_and_back_as_the_host_does():
    # The program an accelerator runs on a batch of levels (rows of values, a pixel's channels
    # side by side), run on the CPU standing in for one.
    import jax

    from blurapp.core.engines.jax_frames import blur_frames_on_device
    from blurapp.core.engines.jax_program import rows_of_values

    levels = np.random.default_rng(7).integers(0, 256, (2, 70, 23, 3), dtype=np.uint8)
    kernel = gaussian_kernel(9, 3.0)
    device = jax.devices("cpu")[0]
    _, step = rows_of_values(levels.shape[1:])
    assert step == 3
    blurred = blur_frames_on_device(jax, levels, kernel, device, "cpu", as_rows=True)
    assert_levels_match_the_oracle(blurred.output, levels, kernel)
    # Floats after them: a program of their own, not the levels'.
    floats = blur_frames_on_device(
        jax,
        levels * np.float32(1 / 255),
        kernel,
        device,
        "cpu",
        as_rows=True,
    )
    assert floats.output.dtype == np.float32 and floats.compilation is not Compilation.REUSED
    assert_each_frame_matches_the_oracle(floats.output, levels * np.float32(1 / 255), kernel)


def test_a_batch_of_levels_then_floats_is_cut_where_the_number_type_changes():
    frames = [np.full((2, 3), 1, np.uint8), np.full((2, 3), 1, np.uint8), np.ones((2, 3))]
    batches = list(frame_batches(iter(frames), 4))
    assert [(batch.dtype, len(batch)) for batch in batches] == [
        (np.uint8, 2),
        (np.float32, 1),
    ]


@pytest.mark.parametrize("layout", ["pieces", "words"])
@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_batches_whose_copies_overlap_the_blur_give_every_frame_in_order(
    monkeypatch, dtype, layout
):
    # JAX-jit on an accelerator (the CPU standing in for one): each batch's copy, blur and copy
    # back started before the ones before it are waited for; 7 frames in batches of 2, the
    # last filled up, more batches than are ever in flight.
    from blurapp.core.engines import host_link
    from blurapp.core.engines.frame_batches import overlapped_batches
    from blurapp.core.engines.jax_frames import BATCHES_IN_FLIGHT, compiled_frame_blurs

    take_the_cpu_for_an_accelerator(monkeypatch)
    # Whatever the accelerator's link (pieces, or words for a TPU's photos), batches in flight
    # cross whole, as they are.
    monkeypatch.setattr(host_link, "pieces_for", lambda nbytes, device: 3)
    sent = []
    send = host_link.send

    def counted_sends(*args, **how):
        sent.append(send(*args, **how))
        return sent[-1]

    monkeypatch.setattr(host_link, "send", counted_sends)
    # Rows of 72 values: 18 words.
    levels = np.random.default_rng(3).integers(0, 256, (7, 21, 24, 3), dtype=np.uint8)
    frames = levels if dtype == np.uint8 else levels * np.float32(1 / 255)
    kernel = gaussian_kernel(5, 1.5)
    taken = []

    def counted():
        for frame in frames:
            taken.append(frame)
            yield frame

    with host_link.forced_layout(layout):
        stream = overlapped_batches(get_engine("jax"), counted(), kernel, batch_size=2)
        assert stream is not None
        first = next(stream)
        # Later batches were sent before the first was waited for.
        assert len(taken) >= 2 * BATCHES_IN_FLIGHT
        outputs = [*first, *(frame for batch in stream for frame in batch)]
    compiled_frame_blurs.clear()
    assert len(sent) == 4
    assert all(not isinstance(batch, host_link.Packed) for batch in sent)
    assert [batch.shape for batch in sent] == [(2, 21, 72)] * 4
    if dtype == np.uint8:
        assert_levels_match_the_oracle(outputs, frames, kernel)
    else:
        assert_each_frame_matches_the_oracle(outputs, frames, kernel)


@pytest.mark.parametrize("channels", [(), (3,)])
def test_the_default_devices_own_crossing_blurs_a_batch_of_frames_as_the_oracle_does(channels):
    # JAX's default device and its platform's own layout (in words on a TPU: the batch's
    # program takes them and hands them back), both ways, frames of 8-bit levels.
    levels = np.random.default_rng(4).integers(0, 256, (3, 72, 128, *channels), dtype=np.uint8)
    kernel = gaussian_kernel(9, 2.5)

    blurred = get_engine("jax").frames.call(levels, kernel.astype(np.float32), platform=None)

    assert blurred.output.shape == levels.shape and blurred.output.dtype == np.uint8
    assert_levels_match_the_oracle(list(blurred.output), levels, kernel)


def test_on_a_cpu_or_without_a_way_to_overlap_the_batches_go_one_after_another():
    from blurapp.core.engines.frame_batches import overlapped_batches

    frames = random_frames(3, 8, 8)
    kernel = gaussian_kernel(3, 1.0)
    # A CPU's copies are its own memory (asked for by name where JAX's default device is an
    # accelerator); NumPy copies nothing.
    assert overlapped_batches(get_engine("jax"), iter(frames), kernel, device="cpu") is None
    assert overlapped_batches(get_engine("numpy"), iter(frames), kernel) is None


@pytest.mark.parametrize("as_rows", [False, True], ids=["cpu-program", "accelerator-program"])
@pytest.mark.parametrize("shape", [(3, 40, 50, 3), (8, 32, 32)], ids=["colour", "grey"])
@pytest.mark.parametrize("size", [5, 9])
def test_levels_blurred_on_the_device_are_the_hosts_rounding_of_the_same_floats(
    as_rows, shape, size
):
    # Exactly, 16 bits included: the device's levels → floats must not be fused into the taps,
    # whose one-unit differences round a 16-bit level the other way (fused, 8 × 32 × 32 grey
    # with the 5 × 5 kernel gave one such level).
    import jax

    from blurapp.core.engines.jax_frames import blur_frames_on_device
    from blurapp.core.engines.levels import floats_as_levels, levels_as_floats

    kernel = gaussian_kernel(size, 1.5)
    device = jax.devices("cpu")[0]

    def blurred(frames):
        return blur_frames_on_device(jax, frames, kernel, device, "cpu", as_rows=as_rows).output

    for seed in range(4):
        levels = np.random.default_rng(seed).integers(0, 65536, shape, dtype=np.uint16)
        expected = floats_as_levels(blurred(levels_as_floats(levels)), np.uint16)
        np.testing.assert_array_equal(blurred(levels), expected)


def test_a_batch_of_levels_made_floats_on_the_host_counts_that_in_its_blur_alone():
    # As JAX-jit's program counts the levels made floats and back on its device: a batch of
    # levels' blur alone is levels to levels for every engine.
    def instant(frames, kernel, *, platform):
        return BlurredFrames(frames.copy(), Call(0.0))

    still = dataclasses.replace(get_engine("numpy"), name="still", frames=Frames(instant))
    levels = np.random.default_rng(4).integers(0, 256, (4, 200, 300), dtype=np.uint8)
    blurred = still.blur_frames(levels, gaussian_kernel(3, 1.0))
    np.testing.assert_array_equal(blurred.output, levels)  # floats and back, exactly
    assert blurred.call.seconds > 0
