"""`blurapp bench`'s peak memory of a whole run: the run's own high-water mark, not the bench's."""

import os

import numpy as np
import pytest

from blurapp.bench.peak import peak_of

MB = 1_000_000


@pytest.mark.slow  # an interpreter with NumPy, and 400 MB filled first
def test_the_peak_is_the_runs_own_whatever_the_bench_holds():
    # The bench holds large images when it starts a run; none of that is the run's.
    held = np.ones(400 * MB // 8)
    run = "import numpy as np; block = np.ones(150 * 1_000_000 // 8); block[:] = 2"
    peak = peak_of(["-c", run], dict(os.environ))
    assert held.sum() > 0  # held, and resident, until the run has ended
    assert peak is not None
    # The 150 MB block and an interpreter with NumPy: well under what the bench holds.
    assert 150 * MB < peak < 300 * MB, f"{peak / MB:.0f} MB"


def test_a_run_that_fails_has_no_peak():
    assert peak_of(["-c", "raise SystemExit(3)"], dict(os.environ)) is None
