"""Photo files made for a test, in the test's own folder."""

import numpy as np
from PIL import Image


def photo_file(tmp_path, name="street.png", size=(90, 60), seed=0, *, colour=True):
    """A PNG of random pixels (in colour, or grey unless `colour`), width × height = size."""
    path = tmp_path / name
    shape = (size[1], size[0], 3) if colour else (size[1], size[0])
    pixels = np.random.default_rng(seed).integers(0, 256, shape, dtype=np.uint8)
    Image.fromarray(pixels).save(path)
    return path


def noise(shape, dtype=np.uint8, seed=13):
    """Random levels of `dtype` (an unsigned integer type), black to white both included: the
    samples of a photo file."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, np.iinfo(dtype).max, shape, dtype=dtype, endpoint=True)


def as_levels(values, white=255):
    """`values` (in [0, 1]) as the nearest levels of a file whose white is `white` (255: 8-bit,
    65535: 16-bit), as a level × (1/white) in float32: what an 8- or 16-bit photo's grey,
    alpha over white or inverted samples are (blurapp.core.media.pixels.round_to_levels)."""
    levels = np.rint(np.asarray(values, dtype=np.float64) * white)
    return np.multiply(levels, np.float32(1 / white), dtype=np.float32)
