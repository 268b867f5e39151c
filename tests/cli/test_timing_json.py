"""The timing figures as `blurapp compare --json` gives them."""

import json
import os
import re
import statistics

import pytest
from helpers.command_line import blurapp
from helpers.photos import photo_file

from blurapp import cli
from blurapp.core import sample_photo_path
from blurapp.core.engines.jax_engine import compiled_blurs
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
    # Three rounds, one call of each engine in each: the speed-ups divide round by round.
    by_round = [a / b for a, b in zip(numpy["seconds_all"], jax["seconds_all"], strict=True)]
    assert data["speedup"] == pytest.approx(statistics.median(by_round))
    assert data["speedup_end_to_end"] <= data["speedup"]


def test_compare_json_says_how_far_the_speedup_moved_round_by_round(capsys):
    assert cli.main(["compare", str(sample_photo_path()), "--json", "--repeat", "4"]) == 0
    data = json.loads(capsys.readouterr().out)
    numpy, jax = data["numpy"], data["jax"]
    # --repeat 4: four rounds, one call of each engine in each.
    assert numpy["sample_rounds"] == jax["sample_rounds"] == [0, 1, 2, 3]
    by_round = [
        theirs / ours for theirs, ours in zip(numpy["seconds_all"], jax["seconds_all"], strict=True)
    ]
    first, _, third = statistics.quantiles(by_round, n=4, method="inclusive")
    assert data["speedup_spread"] == jax["speedup_spread"] == pytest.approx([first, third])
    assert data["speedup"] == pytest.approx(statistics.median(by_round))
    assert numpy["speedup_spread"] is None


@pytest.mark.real_timing
def test_without_repeat_the_command_line_chooses_enough_calls(capsys):
    assert cli.main(["compare", str(sample_photo_path()), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("numpy", "jax"):
        times, per_sample = data[key]["seconds_all"], data[key]["calls_per_sample"]
        assert len(times) >= MIN_CALLS
        # Measured over MEASURE_SECONDS (samples × calls each), unless the count hit its cap.
        assert sum(times) * per_sample >= MEASURE_SECONDS * 0.5 or len(times) == MAX_CALLS


# --- JAX-jit's first call taken apart -------------------------------------------------------

MEASURED_PARTS = ("tracing_seconds", "lowering_seconds", "compiling_seconds", "first_run_seconds")


@pytest.fixture
def small_photo(tmp_path):
    return photo_file(tmp_path, "small.png", size=(37, 23), seed=5)


def assert_parts_add_up(jax):
    """The parts of a first call that got its program: each a time, the four measured ones
    within 10% of the first call, and with what is left over the first call itself."""
    parts, first = jax["first_call_parts"], jax["first_call_seconds"]
    assert set(parts) == {*MEASURED_PARTS, "cache", "copies_seconds", "other_seconds"}
    assert all(parts[key] >= 0 for key in (*MEASURED_PARTS, "copies_seconds", "other_seconds"))
    measured = sum(parts[key] for key in MEASURED_PARTS)
    assert measured <= first + 1e-9 and measured == pytest.approx(first, rel=0.1)
    assert measured + parts["other_seconds"] == pytest.approx(first)
    assert parts["copies_seconds"] > 0  # the photo went to the device and came back
    return parts


def test_compare_json_takes_jax_jits_first_call_apart(small_photo, capsys):
    # This process's own first call of the program, whatever ran before: JAX's own caches of
    # traced and lowered programs emptied too, or the program's getting is a few look-ups
    # (0.6 ms in all), of which the fixed costs the parts leave out are more than a tenth.
    compiled_blurs.clear()
    jax = pytest.importorskip("jax")
    jax.clear_caches()
    assert cli.main(["compare", str(small_photo), "--json", "--repeat", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["jax"]["compilation"] in ("compiled", "from cache")
    parts = assert_parts_add_up(data["jax"])
    assert parts["cache"] in ("hit", "miss", "off")
    assert data["numpy"]["first_call_parts"] is None  # NumPy compiles nothing


def test_compare_prints_the_parts_under_the_first_call(small_photo, capsys):
    compiled_blurs.clear()
    assert cli.main(["compare", str(small_photo), "--repeat", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("JAX first call "))
    label, text = re.split(r"\s{2,}", lines[first + 1], maxsplit=1)
    assert label == "first call parts"
    number = r"[\d,.]+"
    assert re.fullmatch(
        rf"{number} ms = trace {number} \+ lower {number} \+ compile {number} "
        rf"\(cache (hit|miss|off)\) \+ run {number} \+ other {number} ms; "
        rf"copies to and from the device {number} ms besides",
        text,
    ), text
    # The same first call as the row above it.
    assert text.split(" = ")[0] == re.split(r"\s{2,}", lines[first], maxsplit=1)[1].split(" (")[0]


@pytest.mark.slow
def test_a_cold_cache_compiles_and_a_second_launch_loads_from_it(small_photo, tmp_path):
    """Each launch a process of its own on one cache of the test's own: the first finds the
    cache empty and compiles (and the cache gets files), the second loads the program (and the
    cache gets none)."""
    cache = tmp_path / "cache"
    env = {**os.environ, "BLURAPP_CACHE_DIR": str(cache)}
    for variable in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        env[variable] = str(tmp_path / variable.lower())

    def launch():
        run = blurapp("compare", small_photo, "--json", "--repeat", "1", env=env)
        assert run.returncode == 0, run.stderr
        return json.loads(run.stdout)["jax"]

    def cached_files():
        return {path for path in cache.rglob("*") if path.is_file()}

    cold = launch()
    written = cached_files()
    warm = launch()
    assert cold["compilation"] == "compiled"
    cold_parts = assert_parts_add_up(cold)
    assert cold_parts["cache"] == "miss" and cold_parts["compiling_seconds"] > 0
    assert written  # what a miss writes
    assert warm["compilation"] == "from cache"
    assert assert_parts_add_up(warm)["cache"] == "hit"
    assert cached_files() == written  # a hit writes nothing


@pytest.mark.slow
def test_a_compilation_cache_that_is_off_is_reported_off(small_photo, tmp_path):
    """The cache's folder refused (others may write in it): JAX compiles with no cache, and
    the first call's parts say so, in the JSON and the table alike."""
    cache = tmp_path / "cache"
    cache.mkdir()
    cache.chmod(0o777)
    env = {**os.environ, "BLURAPP_CACHE_DIR": str(cache)}
    for variable in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        env[variable] = str(tmp_path / variable.lower())
    run = blurapp("compare", small_photo, "--json", "--repeat", "1", env=env)
    assert run.returncode == 0, run.stderr
    assert "JAX's compilation cache is off" in run.stderr
    assert assert_parts_add_up(json.loads(run.stdout)["jax"])["cache"] == "off"
    run = blurapp("compare", small_photo, "--repeat", "1", "--engines", "jax", env=env)
    assert run.returncode == 0, run.stderr
    assert "(cache off)" in run.stdout and "(cache miss)" not in run.stdout
    assert not any(cache.iterdir())
