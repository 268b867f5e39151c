"""A photo blurred on a device in bands of rows whose copies overlap the blur: every band the
same height, and together the blur of the whole photo, as SciPy makes it."""

import numpy as np
import pytest
from helpers.stand_in_accelerator import take_the_cpu_for_an_accelerator
from hypothesis import given
from hypothesis import strategies as st
from scipy import ndimage

from blurapp.core.engines import bands
from blurapp.core.engines.bands import bands_for, blur_in_bands
from blurapp.core.kernel import gaussian_kernel

# Run where the accelerator is: `pytest -m accelerator` (docs/contributing.md).
pytestmark = pytest.mark.accelerator


def test_small_photos_cross_whole():
    assert bands_for(4000, 4, 6000) is not None
    # 100 rows of 6,000 bytes: bands of 30 rows are far under the least worth cutting.
    assert bands_for(100, 4, 6000) is None
    # A kernel as tall as a band's outputs.
    assert bands_for(16, 4, bands.MIN_BAND_BYTES, bands=4) is None


@given(
    height=st.integers(12, 300),
    radius=st.integers(0, 5),
    count=st.integers(2, 9),
)
def test_bands_cover_every_row_once_each_with_its_halo(height, radius, count):
    cut = bands_for(height, radius, bands.MIN_BAND_BYTES, bands=count)
    if cut is None:
        return
    covered = []
    for band in cut.bands:
        assert 0 <= band.first_row <= height - cut.rows
        # The rows a band's outputs read lie inside what it takes, or past the photo's edge
        # where the band's own padding is the photo's.
        above = band.first_output - radius
        below = band.first_output + band.height + radius
        assert above >= band.first_row or band.first_row == 0
        assert below <= band.first_row + cut.rows or band.first_row + cut.rows == height
        covered += range(band.first_output, band.first_output + band.height)
    assert covered == list(range(height))


@pytest.mark.parametrize("shape", [(61, 40), (47, 33, 3)])
def test_blurred_in_bands_is_the_blur_of_the_whole_photo(monkeypatch, shape):
    jax = pytest.importorskip("jax")
    from blurapp.core.engines.jax_program import blur_on_accelerator, rows_of_values

    monkeypatch.setattr(bands, "MIN_BAND_BYTES", 1)
    levels = np.random.default_rng(3).integers(0, 256, shape, dtype=np.uint8)
    kernel = gaussian_kernel(7, 1.5).astype(np.float32)
    radius = kernel.shape[0] // 2
    (_, row_values), step = rows_of_values(shape)
    rows = levels.reshape(shape[0], row_values)
    cut = bands_for(shape[0], radius, row_values, bands=4)
    assert cut is not None and len(cut.bands) == 4
    program = jax.jit(lambda values, weights: blur_on_accelerator(values, weights, step))
    device = jax.devices("cpu")[0]

    blurred = blur_in_bands(jax, rows, cut, program, jax.device_put(kernel, device), device)

    pixels = levels.astype(np.float32) * np.float32(1 / 255)
    weights = kernel if levels.ndim == 2 else kernel[..., np.newaxis]
    expected = ndimage.correlate(pixels.astype(np.float64), weights, mode="nearest")
    expected_levels = np.rint(np.clip(expected, 0, 1) * 255).reshape(rows.shape)
    assert blurred.dtype == np.uint8 and blurred.shape == rows.shape
    # A level lies within one of SciPy's, where float32 sums round a half the other way.
    assert np.max(np.abs(blurred.astype(np.int16) - expected_levels)) <= 1
    assert np.mean(blurred == expected_levels) > 0.99


def test_a_steady_call_on_an_accelerator_is_timed_end_to_end_in_bands(monkeypatch):
    """JAX-jit on an accelerator (the CPU standing in for one): a steady call's end to end is
    the call made in bands, and the run says how many; its first call's output is the blur."""
    pytest.importorskip("jax")
    from blurapp.core.engines import jax_engine

    take_the_cpu_for_an_accelerator(monkeypatch)
    monkeypatch.setattr(bands, "MIN_BAND_BYTES", 1)
    jax_engine.compiled_blurs.clear()
    levels = np.random.default_rng(5).integers(0, 256, (96, 80), dtype=np.uint8)
    image = levels.astype(np.float32) * np.float32(1 / 255)
    kernel = gaussian_kernel(5, 1.0).astype(np.float32)
    try:
        first = jax_engine.first_jax_call(image, kernel, platform="cpu")
        call = first.again()
    finally:
        jax_engine.compiled_blurs.clear()
    assert call.bands == bands.BANDS
    assert call.in_bands_seconds is not None and call.end_to_end_seconds == call.in_bands_seconds
    expected = ndimage.correlate(image.astype(np.float64), kernel, mode="nearest")
    assert np.max(np.abs(first.output - expected)) < 1e-5


def _on_a_stand_in_accelerator(monkeypatch):
    """The CPU standing in for an accelerator, every photo large enough to be cut in bands,
    and every copy of a whole photo made in 1-D pieces as an accelerator's link takes them
    (host_link; its bands cross whole)."""
    from blurapp.core.engines import host_link, jax_engine

    take_the_cpu_for_an_accelerator(monkeypatch)
    monkeypatch.setattr(bands, "MIN_BAND_BYTES", 1)
    monkeypatch.setattr(host_link, "pieces_for", lambda nbytes, device: 3)
    return jax_engine


@pytest.mark.parametrize("shape", [(61, 40), (47, 33, 3)])
@pytest.mark.parametrize("engine", ["jax", "pallas"])
def test_a_steady_call_in_bands_gives_the_blur_its_first_call_gave(monkeypatch, shape, engine):
    """The bands' output is dropped by the timing, so nothing in a run checks it: here the
    programs a run compiles for the bands, on odd heights, grey and colour, give the levels
    of the whole photo's blur."""
    jax = pytest.importorskip("jax")
    from blurapp.core.engines import jax_calls, pallas_engine
    from blurapp.core.engines.jax_program import floats_to_levels

    jax_engine = _on_a_stand_in_accelerator(monkeypatch)

    made = []

    def kept(*args, **kwargs):
        made.append(blur_in_bands(*args, **kwargs))
        return made[-1]

    # Where every JAX engine's first call cuts its bands (jax_calls.first_call_on_device).
    monkeypatch.setattr(jax_calls, "blur_in_bands", kept)
    levels = np.random.default_rng(7).integers(0, 256, shape, dtype=np.uint8)
    image = levels.astype(np.float32) * np.float32(1 / 255)
    kernel = gaussian_kernel(7, 1.5).astype(np.float32)
    first_call = {"jax": jax_engine.first_jax_call, "pallas": pallas_engine.first_pallas_call}
    jax_engine.compiled_blurs.clear()
    pallas_engine.compiled_kernels.clear()
    try:
        first = first_call[engine](image, kernel, platform="cpu")
        call = first.again()
    finally:
        jax_engine.compiled_blurs.clear()
        pallas_engine.compiled_kernels.clear()
    assert call.bands == bands.BANDS and len(made) == 1
    whole = np.asarray(floats_to_levels(jax.numpy.asarray(first.output), np.uint8))
    assert np.array_equal(made[0], whole.reshape(shape[0], -1))


def test_the_bands_program_is_got_only_when_a_steady_call_is_made(monkeypatch):
    """A first call with no steady call after it (`--repeat 0`, a live preview of JAX Pallas,
    a clip blurred frame by frame) does not compile a program for bands it never blurs."""
    pytest.importorskip("jax")
    jax_engine = _on_a_stand_in_accelerator(monkeypatch)
    shapes = []
    get_in_stages = jax_engine.compiled_blurs.get_in_stages

    def counted(shape, *args, **kwargs):
        shapes.append(tuple(shape))
        return get_in_stages(shape, *args, **kwargs)

    monkeypatch.setattr(jax_engine.compiled_blurs, "get_in_stages", counted)
    image = np.random.default_rng(9).random((96, 80), dtype=np.float32)
    kernel = gaussian_kernel(5, 1.0).astype(np.float32)
    jax_engine.compiled_blurs.clear()
    try:
        first = jax_engine.first_jax_call(image, kernel, platform="cpu")
        assert shapes == [image.shape]
        call = first.again()
        first.again()
    finally:
        jax_engine.compiled_blurs.clear()
    assert call.bands == bands.BANDS and len(shapes) == 2 and shapes[1] != image.shape


def test_compare_json_says_how_each_engine_made_its_end_to_end():
    """NumPy copies nothing (no bands to tell); JAX-jit on the CPU copies its photo whole."""
    pytest.importorskip("jax")
    from blurapp.core.measuring.comparison import compare_engines, engine_dict

    image = np.random.default_rng(1).random((40, 30), dtype=np.float32)
    result = compare_engines(image, engines=["numpy", "jax"], repeats=2)
    assert engine_dict(result, "numpy")["end_to_end_bands"] is None
    assert engine_dict(result, "jax")["end_to_end_bands"] == 1
