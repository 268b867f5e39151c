"""One photo blurred into a file (blurapp.core.blurring.blur_file), as `blur` and every batch photo do."""

from dataclasses import replace

import numpy as np
import pytest
from helpers.oracle import blur_oracle
from helpers.photos import photo_file
from PIL import Image

from blurapp.core.blurring.blur_file import BlurFailed, blur_to_file
from blurapp.core.engines import get_engine
from blurapp.core.media.photo import load_photo
from blurapp.core.spec import BlurSpec


def test_the_file_holds_the_blur_and_what_made_it(tmp_path):
    photo = load_photo(photo_file(tmp_path))
    spec = BlurSpec(5, 1.5)
    out = tmp_path / "out.npy"
    blur_to_file(photo, out, spec, get_engine("numpy"))
    expected = blur_oracle(photo.pixels, spec.kernel)
    np.testing.assert_allclose(np.load(out), expected, atol=1e-5)
    picture = tmp_path / "out.png"
    blur_to_file(photo, picture, spec, get_engine("numpy"))
    with Image.open(picture) as written:
        assert written.text["engine"] == "numpy" and written.text["kernel size"] == "5"


def failing(error):
    def first_call(image, kernel, **_):
        raise error

    return replace(get_engine("numpy"), name="broken", title="Broken", first_call=first_call)


def test_an_engine_that_fails_is_named_with_the_photo(tmp_path):
    photo = load_photo(photo_file(tmp_path, name="street.png"))
    with pytest.raises(BlurFailed, match=r"street\.png: the Broken engine failed: no luck"):
        blur_to_file(photo, tmp_path / "out.png", BlurSpec(), failing(ValueError("no luck")))
    assert not (tmp_path / "out.png").exists()


def test_too_little_memory_says_so(tmp_path):
    photo = load_photo(photo_file(tmp_path, name="street.png"))
    with pytest.raises(BlurFailed, match=r"street\.png: not enough memory to blur this photo"):
        blur_to_file(photo, tmp_path / "out.png", BlurSpec(), failing(MemoryError()))


def test_jax_that_cannot_start_is_named_with_the_photo(tmp_path):
    from blurapp.core.engines.jax_runtime import JaxUnavailableError

    photo = load_photo(photo_file(tmp_path, name="street.png"))
    engine = failing(JaxUnavailableError("JAX has no gpu device here (it has: cpu)"))
    with pytest.raises(BlurFailed, match=r"street\.png: JAX has no gpu device here"):
        blur_to_file(photo, tmp_path / "out.png", BlurSpec(), engine)
