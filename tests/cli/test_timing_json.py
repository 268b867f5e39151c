"""The timing figures as `blurapp compare --json` gives them."""

import json
import statistics

import pytest

from blurapp import cli
from blurapp.core import sample_photo_path
from blurapp.core.engines.timing import (
    MAX_CALLS,
    MEASURE_SECONDS,
    MIN_CALLS,
)


def test_compare_json_keeps_its_keys_and_adds_every_call_and_the_end_to_end_figures(capsys):
    assert cli.main(["compare", str(sample_photo_path()), "--json", "--repeat", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    numpy, jax = data["numpy"], data["jax"]
    for engine in (numpy, jax):
        assert len(engine["seconds_all"]) == 3
        assert engine["seconds"] == statistics.median(engine["seconds_all"])
        low, high = engine["seconds_quartiles"]
        assert min(engine["seconds_all"]) <= low <= engine["seconds"] <= high
    assert jax["end_to_end_seconds"] >= jax["seconds"]
    assert data["speedup"] == pytest.approx(numpy["seconds"] / jax["seconds"])
    assert data["speedup_end_to_end"] == pytest.approx(numpy["seconds"] / jax["end_to_end_seconds"])
    assert data["speedup_end_to_end"] <= data["speedup"]


@pytest.mark.real_timing
def test_without_repeat_the_command_line_chooses_enough_calls(capsys):
    assert cli.main(["compare", str(sample_photo_path()), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("numpy", "jax"):
        times, per_sample = data[key]["seconds_all"], data[key]["calls_per_sample"]
        assert len(times) >= MIN_CALLS
        # Measured over MEASURE_SECONDS (samples × calls each), unless the count hit its cap.
        assert sum(times) * per_sample >= MEASURE_SECONDS * 0.5 or len(times) == MAX_CALLS
