"""Without the scale extra (Dask) installed, what blurring by blocks and a batch say: the extra
to install. These run where Dask is missing too (the TPU machine), unlike the folder's others."""

import sys

import numpy as np
import pytest
import tifffile
from helpers.batch import SPEC, write_photos

from blurapp.scale import tiled_read
from blurapp.scale.batch_plan import plan_batch
from blurapp.scale.batch_run import run_batch
from blurapp.scale.scheduler import MissingExtraError


def test_blurring_by_blocks_says_what_to_install(tmp_path, monkeypatch):
    source = tmp_path / "photo.tif"
    tifffile.imwrite(source, np.zeros((64, 64), np.uint8), tile=(64, 64))
    monkeypatch.setitem(sys.modules, "dask.array", None)  # `import dask.array` now fails
    with pytest.raises(MissingExtraError, match=r"pip install 'blurapp\[scale\]'"):
        tiled_read.open_tiled(source)


def test_a_batch_says_what_to_install(tmp_path, monkeypatch):
    photos = tmp_path / "photos"
    photos.mkdir()
    write_photos(photos)
    monkeypatch.setitem(sys.modules, "dask", None)  # `import dask` now fails
    with pytest.raises(MissingExtraError, match=r"pip install 'blurapp\[scale\]'"):
        run_batch(plan_batch([photos], tmp_path / "out"), SPEC)
