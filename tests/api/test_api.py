"""`import blurapp`: the Python API for scripts and notebooks, and how a comparison shows itself."""

import base64
import dataclasses
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import imagecodecs
import numpy as np
import pytest
from helpers.command_line import blurapp_in_process
from helpers.oracle import blur_oracle
from helpers.photos import photo_file
from PIL import Image

import blurapp
from blurapp.core.engines import register, unregister
from blurapp.core.measuring.comparison import TOLERANCE
from blurapp.core.measuring.contention import Conditions
from blurapp.core.media.pixels import LUMA_WEIGHTS
from blurapp.core.report.figures import format_ms, format_speedup
from blurapp.notebook import SHOWN_SIDE, png_data_uri

PNG_URI = re.compile(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)"')
SPECS = [
    blurapp.BlurSpec(kernel_size=5, sigma=1.2),
    blurapp.BlurSpec(kernel_size=7, sigma=2.0, algorithm="separable"),
]


def pixels(*shape, seed=0):
    return np.random.default_rng(seed).random(shape, dtype=np.float32)


def modules_after(code, tmp_path):
    """The modules a fresh interpreter holds after `code`, its per-user folders the test's own."""
    folders = {
        name: str(tmp_path / name.lower())
        for name in (
            "XDG_CONFIG_HOME",
            "XDG_CACHE_HOME",
            "XDG_STATE_HOME",
            "BLURAPP_CACHE_DIR",
            "BLURAPP_STATE_DIR",
        )
    }
    run = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys; print(' '.join(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **folders},
    )
    assert run.returncode == 0, run.stderr
    return set(run.stdout.split())


# --- The names ------------------------------------------------------------------------------


def test_import_blurapp_imports_nothing_heavy(tmp_path):
    loaded = modules_after("import blurapp", tmp_path)
    assert "blurapp" in loaded
    heavy = {name for name in loaded if name.split(".")[0] in {"jax", "jaxlib", "numpy", "PIL"}}
    assert not heavy
    assert not {name for name in loaded if name.startswith("PySide6")}


def test_using_the_api_imports_jax_only_when_a_jax_engine_runs(tmp_path):
    code = (
        "import numpy as np, blurapp\n"
        "names = dir(blurapp)\n"
        "for name in blurapp.__all__: getattr(blurapp, name)\n"
        "blurapp.blur(np.zeros((4, 4)), engine='numpy')"
    )
    loaded = modules_after(code, tmp_path)
    assert "blurapp.api" in loaded
    assert not {name for name in loaded if name.split(".")[0] in {"jax", "jaxlib"}}


def test_every_public_name_resolves_is_listed_and_documented():
    stub = (Path(blurapp.__file__).parent / "__init__.pyi").read_text(encoding="utf-8")
    listed = set(re.findall(r"import (\w+) as \1", stub)) - {"__version__"}
    assert set(blurapp.__all__) == listed
    assert set(blurapp.__all__) <= set(dir(blurapp))
    # Nothing of what the package's own module imports for itself.
    leaked = {"Any", "TYPE_CHECKING", "annotations", "importlib", "ModuleType", "_PUBLIC"}
    assert not leaked & set(dir(blurapp))
    assert "__version__" in dir(blurapp)
    for name in blurapp.__all__:
        value = getattr(blurapp, name)
        assert value.__doc__, name
    for name in ("open_photo", "compare", "blur", "BlurSpec"):
        assert "Parameters\n" in getattr(blurapp, name).__doc__, name


def test_submodules_still_import_and_unknown_names_are_refused():
    from blurapp import cli  # through the import system, past the lazy names

    assert cli.__name__ == "blurapp.cli"
    with pytest.raises(AttributeError, match="nothing_here"):
        _ = blurapp.nothing_here


# --- The blur, against scipy's correlation ---------------------------------------------------


@pytest.mark.accelerator
@pytest.mark.parametrize("engine", ["numpy", "jax"])
@pytest.mark.parametrize("spec", SPECS, ids=["2d", "separable"])
@pytest.mark.parametrize("shape", [(23, 31), (19, 14, 3)], ids=["grey", "colour"])
def test_blur_matches_the_oracle(engine, spec, shape):
    image = pixels(*shape, seed=len(shape))
    spec = dataclasses.replace(spec, color=True)
    output = blurapp.blur(image, spec, engine=engine)
    assert output.dtype == np.float32
    assert output.shape == shape
    np.testing.assert_allclose(output, blur_oracle(image, spec.kernel), rtol=0, atol=TOLERANCE)


@pytest.mark.accelerator
@pytest.mark.parametrize("spec", SPECS, ids=["2d", "separable"])
def test_compare_gives_each_engine_the_oracle_output(spec):
    image = pixels(17, 26, seed=3)
    comparison = blurapp.compare(image, spec, engines=["numpy", "jax"], repeats=2)
    assert comparison.engines == ("numpy", "jax")
    assert comparison.errors == {}
    expected = blur_oracle(image, spec.kernel)
    for name, output in comparison.outputs.items():
        np.testing.assert_allclose(output, expected, rtol=0, atol=TOLERANCE, err_msg=name)
    assert comparison.max_abs_diff <= TOLERANCE
    assert comparison.speedup == comparison.seconds["numpy"] / comparison.seconds["jax"]
    assert comparison.speedups == {"jax": comparison.speedup}
    assert comparison.shape == (17, 26)


def test_a_colour_array_is_blurred_in_grey_unless_the_spec_asks_for_colour():
    image = pixels(12, 15, 3, seed=5)
    spec = blurapp.BlurSpec(kernel_size=3, sigma=0.8)
    gray = np.clip(image @ LUMA_WEIGHTS, 0, 1)
    np.testing.assert_allclose(
        blurapp.blur(image, spec, engine="numpy"),
        blur_oracle(gray, spec.kernel),
        rtol=0,
        atol=TOLERANCE,
    )
    in_colour = blurapp.blur(image, dataclasses.replace(spec, color=True), engine="numpy")
    assert in_colour.shape == (12, 15, 3)


def test_a_colour_photo_compared_in_grey_says_so_and_how_to_keep_its_colour(tmp_path):
    keep = "in grey (BlurSpec(color=True) keeps the colour)"
    spec = blurapp.BlurSpec(kernel_size=3, sigma=0.8)
    path = photo_file(tmp_path, size=(15, 12))
    for photo in (pixels(12, 15, 3, seed=5), path, blurapp.open_photo(path)):
        grey = blurapp.compare(photo, spec, engines="numpy", repeats=0)
        assert keep in repr(grey)
        assert keep in str(grey).splitlines()[0]  # the "image" row
        assert keep in grey._repr_html_()
    in_colour = blurapp.compare(
        pixels(12, 15, 3, seed=5),
        dataclasses.replace(spec, color=True),
        engines="numpy",
        repeats=0,
    )
    grey_photo = blurapp.compare(pixels(12, 15, seed=5), spec, engines="numpy", repeats=0)
    for comparison in (in_colour, grey_photo):
        assert "in grey" not in repr(comparison) and "in grey" not in str(comparison)


def test_levels_are_taken_as_fractions_of_white():
    levels = np.random.default_rng(1).integers(0, 65536, (9, 11), dtype=np.uint16)
    np.testing.assert_allclose(
        blurapp.blur(levels, engine="numpy"),
        blurapp.blur(levels / 65535, engine="numpy"),
        rtol=0,
        atol=1e-6,
    )
    eight = (levels >> 8).astype(np.uint8)
    np.testing.assert_allclose(
        blurapp.blur(eight, engine="numpy"),
        blurapp.blur(eight / 255, engine="numpy"),
        rtol=0,
        atol=1e-6,
    )


def test_a_path_a_photo_and_its_pixels_blur_alike(tmp_path):
    path = photo_file(tmp_path, size=(21, 13))
    spec = blurapp.BlurSpec(kernel_size=5, sigma=1.0, color=True)
    photo = blurapp.open_photo(path, color=True)
    assert photo.pixels.shape == (13, 21, 3)
    from_path = blurapp.blur(path, spec, engine="numpy")
    assert from_path.shape == (13, 21, 3)
    np.testing.assert_array_equal(from_path, blurapp.blur(photo, spec, engine="numpy"))
    np.testing.assert_array_equal(from_path, blurapp.blur(photo.pixels, spec, engine="numpy"))
    # Without colour in the spec, the photo's own grey is blurred.
    grey = blurapp.blur(str(path), engine="numpy")
    np.testing.assert_allclose(
        grey, blur_oracle(photo.gray, blurapp.BlurSpec().kernel), rtol=0, atol=TOLERANCE
    )
    assert blurapp.compare(path, spec, engines="numpy", repeats=0).source == path.name


def test_a_jax_array_is_blurred_as_its_numpy_copy():
    jnp = pytest.importorskip("jax.numpy")
    image = pixels(16, 21, seed=11)
    spec = blurapp.BlurSpec(kernel_size=5, sigma=1.3)
    expected = blur_oracle(image, spec.kernel)
    output = blurapp.blur(jnp.asarray(image), spec, engine="numpy")
    np.testing.assert_allclose(output, expected, rtol=0, atol=TOLERANCE)
    comparison = blurapp.compare(jnp.asarray(image), spec, engines="numpy", repeats=0)
    np.testing.assert_allclose(comparison.outputs["numpy"], expected, rtol=0, atol=TOLERANCE)
    assert comparison.source == "array"


class Levels:
    """Not an ndarray, but gives one through NumPy's `__array__` protocol, as many arrays do."""

    def __init__(self, values):
        self.values = values

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.values, dtype=dtype)


def test_anything_numpy_can_take_as_an_array_is_a_photo():
    levels = np.random.default_rng(4).integers(0, 256, (11, 9), dtype=np.uint8)
    spec = blurapp.BlurSpec(kernel_size=3, sigma=0.7)
    np.testing.assert_allclose(
        blurapp.blur(Levels(levels), spec, engine="numpy"),
        blur_oracle(levels / 255, spec.kernel),
        rtol=0,
        atol=TOLERANCE,
    )


def over_white(rgba):
    """The oracle's own compositing: each colour weighted by its opacity, the rest white."""
    colour, alpha = rgba[..., :-1] / 255, rgba[..., -1:] / 255
    return colour * alpha + (1 - alpha)


@pytest.mark.parametrize("color", [False, True], ids=["grey", "colour"])
def test_an_rgba_array_is_composited_over_white_as_an_rgba_file_is(tmp_path, color):
    rgba = np.random.default_rng(6).integers(0, 256, (13, 17, 4), dtype=np.uint8)
    rgba[2:5, 3:9, 3] = 0  # fully transparent: white
    path = tmp_path / "logo.png"
    Image.fromarray(rgba, "RGBA").save(path)
    with Image.open(path) as image:
        from_pillow = np.asarray(image)
    assert from_pillow.shape == (13, 17, 4)
    spec = blurapp.BlurSpec(kernel_size=5, sigma=1.1, color=color)
    composited = over_white(rgba)
    expected = composited if color else np.clip(composited @ LUMA_WEIGHTS, 0, 1)
    output = blurapp.blur(from_pillow, spec, engine="numpy")
    assert output.shape == ((13, 17, 3) if color else (13, 17))
    # 8-bit levels composited (and their grey) are rounded back to 8-bit levels, half a level
    # at most from the oracle's floats; a blur, whose weights add up to 1, moves no further.
    half_a_level = 0.5 / 255
    np.testing.assert_allclose(
        output, blur_oracle(expected, spec.kernel), rtol=0, atol=TOLERANCE + half_a_level
    )
    # The same pixels as the file gives, to the bit.
    np.testing.assert_array_equal(output, blurapp.blur(path, spec, engine="numpy"))
    # Float RGBA (composited as floats, not rounded to levels) and grey with alpha too.
    np.testing.assert_allclose(
        blurapp.blur(rgba / 255, spec, engine="numpy"),
        blur_oracle(expected, spec.kernel),
        rtol=0,
        atol=TOLERANCE,
    )
    grey_alpha = rgba[..., [0, 3]]
    np.testing.assert_allclose(
        blurapp.blur(grey_alpha, spec, engine="numpy"),
        blur_oracle(over_white(grey_alpha)[..., 0], spec.kernel),
        rtol=0,
        atol=TOLERANCE + half_a_level,
    )


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
def test_an_arrays_levels_blur_as_the_file_of_those_levels_does(tmp_path, dtype):
    # Read as a file's levels are, grey rounded to levels: the same pixels, to the bit.
    white = np.iinfo(dtype).max
    rgb = np.random.default_rng(12).integers(0, white + 1, (14, 19, 3), dtype=dtype)
    path = tmp_path / "levels.png"
    path.write_bytes(imagecodecs.png_encode(rgb))
    for color in (False, True):
        spec = blurapp.BlurSpec(kernel_size=5, sigma=1.1, color=color)
        np.testing.assert_array_equal(
            blurapp.blur(rgb, spec, engine="numpy"), blurapp.blur(path, spec, engine="numpy")
        )


@pytest.mark.parametrize("dtype", [">u2", ">u1", ">f4", ">f8", "<u2"])
def test_levels_in_either_byte_order_blur_as_native_ones(dtype):
    levels = np.random.default_rng(8).integers(0, 256, (10, 12, 3), dtype=np.uint8)
    native = levels.astype(np.dtype(dtype).newbyteorder("="))
    if native.dtype.kind == "f":
        native = native / 255
    elif native.dtype.itemsize == 2:
        native = native * np.uint16(257)
    swapped = native.astype(dtype)
    spec = blurapp.BlurSpec(kernel_size=3, sigma=0.9, color=True)
    output = blurapp.blur(swapped, spec, engine="numpy")
    np.testing.assert_array_equal(output, blurapp.blur(native, spec, engine="numpy"))
    np.testing.assert_allclose(
        output, blur_oracle(levels / 255, spec.kernel), rtol=0, atol=TOLERANCE
    )


def test_blur_without_an_engine_gives_what_blurapp_blur_writes(tmp_path):
    # One default engine: a script and the command line give the same values, to the bit.
    path = photo_file(tmp_path, size=(19, 14))
    out = tmp_path / "blurred.npy"
    run = blurapp_in_process("blur", path, "-o", out)
    assert run.returncode == 0, run.stderr
    from_python = blurapp.blur(path)
    np.testing.assert_array_equal(from_python, np.load(out))
    np.testing.assert_allclose(
        from_python,
        blur_oracle(blurapp.open_photo(path).gray, blurapp.BlurSpec().kernel),
        rtol=0,
        atol=TOLERANCE,
    )


# --- Bad input, told ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("photo", "error", "words"),
    [
        (np.zeros(5), ValueError, r"height × width .* not of shape \(5,\)"),
        (np.zeros((4, 4, 5)), ValueError, r"not of shape \(4, 4, 5\)"),
        (np.zeros((0, 3)), ValueError, "no pixels"),
        (np.zeros((4, 4), np.int64), ValueError, "int64 cannot be a photo"),
        (np.full((4, 4), np.nan), ValueError, "NaN"),
        (np.full((4, 4), 2.0), ValueError, r"in \[0, 1\]; these run from 2 to 2"),
        ({"pixels": 1}, TypeError, "photo must be a path, a blurapp.Photo or an array .* not dict"),
    ],
    ids=["1-d", "5 channels", "empty", "int64", "nan", "beyond white", "dict"],
)
def test_a_photo_that_cannot_be_blurred_is_refused_with_the_reason(photo, error, words):
    for call in (blurapp.blur, blurapp.compare):
        with pytest.raises(error, match=words):
            call(photo, engine="numpy") if call is blurapp.blur else call(photo, engines="numpy")


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(blurapp.PhotoError, match=r"nowhere\.png"):
        blurapp.compare(tmp_path / "nowhere.png")


def test_a_bad_spec_or_engine_is_refused_with_the_reason():
    image = pixels(4, 4)
    with pytest.raises(TypeError, match=r"spec must be a BlurSpec.*not dict"):
        blurapp.compare(image, {"sigma": 2})
    with pytest.raises(blurapp.InvalidKernelError, match="odd"):
        blurapp.BlurSpec(kernel_size=4)
    with pytest.raises(blurapp.UnknownEngineError, match=r"no engine called 'cuda'.*numpy"):
        blurapp.compare(image, engines=["numpy", "cuda"])
    with pytest.raises(blurapp.UnknownEngineError, match="no engine called 'cuda'"):
        blurapp.blur(image, engine="cuda")
    with pytest.raises(ValueError, match="at least one engine"):
        blurapp.compare(image, engines=[])


# --- How a comparison shows itself ----------------------------------------------------------


@pytest.fixture(scope="module")
def comparison():
    return blurapp.compare(pixels(30, 45, seed=9), engines=["numpy", "jax"], repeats=3)


def pictures(html):
    found = []
    for data in PNG_URI.findall(html):
        with Image.open(io.BytesIO(base64.b64decode(data))) as image:
            found.append((image.format, image.size, image.mode))
    return found


def test_the_html_shows_every_output_and_the_figures(comparison):
    html = comparison._repr_html_()
    assert pictures(html) == [("PNG", (45, 30), "L"), ("PNG", (45, 30), "L")]
    assert html.count("<img") == 2
    for name, seconds in comparison.seconds.items():
        title = comparison.result.engine(name).title
        assert f"{title}: {format_ms(seconds)}</figcaption>" in html
    assert re.search(
        rf"<th[^>]*>speedup</th><td[^>]*>{re.escape(format_speedup(comparison.speedup))} ", html
    )
    assert re.search(r"<th[^>]*>max abs diff</th><td[^>]*>[^<]*within 1e-05", html)
    # Each row of the table says which figure it is, for a program reading the HTML.
    keys = re.findall(r'<tr data-key="([^"]+)">', html)
    assert keys == [row.key for row in comparison.figures() if row.key != "warning"]
    bars = re.findall(r'<rect [^>]*fill="([^"]+)"><title>([^<]+)</title>', html)
    assert [title.split(":")[0] for _, title in bars] == ["NumPy", "JAX first call", "JAX steady"]
    assert 'class="blurapp-contention' in html


def test_the_html_flags_times_that_cannot_be_trusted(comparison):
    quiet = dataclasses.replace(comparison.result, conditions=Conditions())
    noisy = dataclasses.replace(comparison.result, conditions=Conditions(spread={"numpy": 0.9}))
    untimed = dataclasses.replace(comparison.result, conditions=None)
    show = {
        name: dataclasses.replace(comparison, result=result)._repr_html_()
        for name, result in [("quiet", quiet), ("noisy", noisy), ("untimed", untimed)]
    }
    assert "blurapp-quiet" in show["quiet"]
    assert "cannot be trusted" not in show["quiet"]
    assert "blurapp-noisy" in show["noisy"]
    assert "These times cannot be trusted: the times of the calls varied widely" in show["noisy"]
    assert "the middle half of NumPy&#x27;s calls spans 90% of their median" in show["noisy"]
    assert "blurapp-untimed" in show["untimed"]
    assert "times disturbed" in repr(dataclasses.replace(comparison, result=noisy))


def test_the_html_escapes_every_text():
    numpy = blurapp.get_engine("numpy")
    shady = register(
        dataclasses.replace(
            numpy,
            name="shady",
            title="<i>Shady & Co</i>",
            shown=dataclasses.replace(numpy.shown, colour='red"/><x y="'),
        )
    )

    def fails(*args, **kwargs):
        raise RuntimeError("<script>alert(1)</script>")

    broken = register(blurapp.Engine("broken", "<b>Broken</b>", fails))
    try:
        comparison = blurapp.compare(pixels(6, 7), engines=["numpy", shady, broken], repeats=1)
        html = comparison._repr_html_()
    finally:
        unregister("shady")
        unregister("broken")
    assert "<script" not in html and "<i>" not in html and "<b>" not in html
    assert "<x " not in html and 'fill="red&quot;/&gt;&lt;x y=&quot;"' in html
    assert "&lt;i&gt;Shady &amp; Co&lt;/i&gt;" in html
    assert "&lt;b&gt;Broken&lt;/b&gt; did not run" in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert len(pictures(html)) == 2  # the engines that ran


def test_a_large_output_is_shrunk_for_the_notebook():
    wide = np.linspace(0, 1, 1200 * 3000, dtype=np.float32).reshape(1200, 3000)
    assert pictures(f'<img src="{png_data_uri(wide)}"') == [("PNG", (SHOWN_SIDE, 168), "L")]
    colour = np.zeros((900, 600, 3), np.float32)
    assert pictures(f'<img src="{png_data_uri(colour)}"') == [("PNG", (280, SHOWN_SIDE), "RGB")]


def test_the_figures_are_rows_a_program_reads_by_key(comparison):
    rows = {row.key: row for row in comparison.figures()}
    assert all(isinstance(row, blurapp.Figure) for row in rows.values())
    assert rows["speedup"].value == comparison.speedup and rows["speedup"].unit == "×"
    assert rows["numpy.steady"].value == comparison.seconds["numpy"]
    assert rows["jit.steady"].value == comparison.seconds["jax"]
    assert rows["max_abs_diff"].value == comparison.max_abs_diff
    # Printed as blurapp compare prints them: each label, then its row's text.
    printed = [line.split("  ", 1)[0].strip() for line in str(comparison).splitlines()]
    assert printed == [row.label for row in rows.values()]
    assert f"  {rows['speedup'].text}" in str(comparison)


def test_jax_jits_first_call_is_a_row_of_its_parts_in_the_figures_and_the_html():
    from blurapp.core.engines.jax_engine import compiled_blurs

    compiled_blurs.clear()  # this process's own first call of the program, whatever ran before
    image = pixels(23, 37, seed=4)
    first = blurapp.compare(image, engines=["numpy", "jax"], repeats=1)
    keys = [row.key for row in first.figures()]
    assert keys.index("jit.first_call_parts") == keys.index("jit.first_call") + 1
    row = first.figures()[keys.index("jit.first_call_parts")]
    assert (row.label, row.unit) == ("first call parts", "s")
    assert row.value == first.first_call_seconds["jax"]
    assert re.match(r"= trace [\d.,]+ \+ lower [\d.,]+ \+ compile [\d.,]+ \(cache ", row.measured)
    assert '<tr data-key="jit.first_call_parts">' in first._repr_html_()
    # The program compiled now, the next comparison's first call has nothing to take apart.
    again = blurapp.compare(image, engines=["numpy", "jax"], repeats=1)
    assert "jit.first_call_parts" not in [row.key for row in again.figures()]


def test_repr_and_str_give_the_figures_in_plain_text(comparison):
    text = repr(comparison)
    assert text.startswith("<Comparison of array (45 × 30), 9 × 9, sigma 2.5: numpy ")
    assert f"jax {format_ms(comparison.seconds['jax'])}" in text
    assert f"speedup {format_speedup(comparison.speedup)}" in text
    rows = str(comparison).splitlines()
    assert rows[0].split() == ["image", "array,", "45", "×", "30", "(1,350", "pixels)"]
    assert any(row.startswith("speedup ") for row in rows)


@pytest.mark.parametrize("make", ["jax", "ml_dtypes"])
def test_bfloat16_and_other_ml_dtypes_floats_are_taken_as_floats(make):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    image = np.random.default_rng(4).random((12, 16), dtype=np.float32)
    if make == "jax":
        jnp = pytest.importorskip("jax.numpy")
        photo = jnp.asarray(image, jnp.bfloat16)
    else:
        photo = image.astype(ml_dtypes.bfloat16)
    spec = blurapp.BlurSpec(5, 1.2)
    stored = np.asarray(photo).astype(np.float32)  # the floats bfloat16 holds
    expected = blur_oracle(stored, spec.kernel)
    np.testing.assert_allclose(blurapp.blur(photo, spec, engine="numpy"), expected, atol=1e-5)
    eight_bit = np.asarray(image).astype(ml_dtypes.float8_e4m3fn)
    np.testing.assert_allclose(
        blurapp.blur(eight_bit, spec, engine="numpy"),
        blur_oracle(eight_bit.astype(np.float32), spec.kernel),
        atol=1e-5,
    )
    with pytest.raises(ValueError, match="must lie in"):
        blurapp.blur((image * 2).astype(ml_dtypes.bfloat16), spec, engine="numpy")
    with pytest.raises(ValueError, match="cannot be a photo"):
        blurapp.blur(np.zeros((4, 4), ml_dtypes.int4), spec, engine="numpy")
