"""Photo files made for a test, in the test's own folder."""

import numpy as np
from PIL import Image


def photo_file(tmp_path, name="street.png", size=(90, 60), seed=0):
    """A colour PNG of random pixels, width × height = size."""
    path = tmp_path / name
    pixels = np.random.default_rng(seed).integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
    Image.fromarray(pixels).save(path)
    return path
