"""`blurapp bench --sweep`: a line per size, its CSV and its JSON."""

import csv
import json
import os
import time

import pytest
from helpers.command_line import blurapp, blurapp_in_process
from helpers.photos import photo_file

from blurapp.bench.record import read_record_document
from blurapp.core.measuring.sweep import (
    sweep_sizes,
)

SWEEP = ("bench", "--sweep", "--max-megapixels", "0.008", "--engines", "numpy,jax")
SWEEP += ("--kernel-sizes", "3", "--repeat", "1")


@pytest.mark.slow
def test_bench_sweep_prints_a_line_per_size_and_writes_the_csv(tmp_path):
    photo = photo_file(tmp_path, size=(60, 40))
    out = tmp_path / "sweep.csv"
    # A process of its own: its first JAX call at each size must compile or load from the
    # cache, where this process may have compiled the size already.
    run = blurapp(*SWEEP, "--photo", photo, "--csv", out)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("machine: ")
    assert lines[2].startswith(f"scaling sweep of {photo} (60×40)")
    assert lines[4].split() == [
        *("size", "MP", "numpy", "ms", "jax", "ms"),
        *("jax", "speedup", "jax", "end-to-end"),
    ]
    sizes = [f"{s.width}×{s.height}" for s in sweep_sizes((40, 60), max_megapixels=0.008)]
    assert sizes == ["60×40", "110×73"]
    assert [line.split()[0] for line in lines[5:7]] == sizes
    # From which size JAX-jit beats NumPy, by the steady calls and end to end.
    assert lines[7].startswith("JAX-jit faster than NumPy: steady ")
    assert ", end to end " in lines[7]
    assert lines[8] == f"wrote {out}"
    with open(out, newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert [f"{row['width']}×{row['height']}" for row in rows] == sizes
    assert [row["resampled"] for row in rows] == ["no", "yes"]
    assert all(float(row["jax_seconds"]) > 0 for row in rows)
    # JAX-jit's first call at each size, with how it got its program (a new shape each time).
    assert all(float(row["jax_first_call_seconds"]) > 0 for row in rows)
    assert {row["jax_compilation"] for row in rows} <= {"compiled", "from cache"}
    assert "numpy_first_call_seconds" not in rows[0]  # NumPy compiles nothing


def test_bench_sweep_checks_its_csv_before_measuring(tmp_path):
    out = tmp_path / "missing" / "sweep.csv"
    start = time.monotonic()
    run = blurapp_in_process(*SWEEP, "--csv", out)
    assert run.returncode == 1
    assert run.stderr.splitlines() == [f"error: {out}: the folder {out.parent} does not exist"], (
        run.stderr
    )
    assert run.stdout == ""  # not a size measured, not even the machine described
    assert time.monotonic() - start < 30


@pytest.mark.slow
def test_bench_sweep_json_has_the_points(tmp_path):
    run = blurapp(*SWEEP, "--json")  # a first JAX call of its own, as above
    assert run.returncode == 0, run.stderr
    sweep = json.loads(run.stdout)["sweep"]
    assert sweep["photo"]["width"] == 600 and sweep["kernel"]["size"] == 3
    [point] = sweep["points"]  # the bundled photo is larger than 0.008 MP: one size
    assert point["resampled"] is True and point["megapixels"] == pytest.approx(0.008, rel=0.05)
    assert point["engines"]["numpy"]["seconds"] > 0
    assert point["engines"]["jax"]["speedup"] > 0
    # The first call, keyed and worded as compare --json has it.
    assert point["engines"]["jax"]["first_call_seconds"] > 0
    assert point["engines"]["jax"]["compilation"] in ("compiled", "from cache")
    assert point["engines"]["numpy"]["first_call_seconds"] is None
    assert point["engines"]["numpy"]["compilation"] is None
    # From which size JAX-jit beats NumPy: at one size, from it or not within the sizes.
    found = sweep["break_even"]
    assert (found["engine"], found["reference"], found["axes"]) == ("jax", "numpy", "log-log")
    faster = point["engines"]["jax"]["speedup"] > 1
    assert found["steady"] == {
        "crossing": "smallest" if faster else "never",
        "megapixels": point["megapixels"] if faster else None,
        "between": None,
    }
    assert found["end_to_end"]["crossing"] in ("smallest", "never")
    assert point["engines"]["jax"]["end_to_end_seconds"] >= point["engines"]["jax"]["seconds"]


def test_a_note_that_is_not_utf8_is_refused_before_the_sweep(tmp_path):
    record = tmp_path / "r.json"
    note = os.fsdecode(b"caf\xe9 au lait")  # typed in a Latin-1 terminal
    run = blurapp_in_process(*SWEEP, "--record", record, "--note", note)
    assert run.returncode == 1
    assert run.stderr.splitlines() == [
        "error: --note: the note is not UTF-8 text (a record is UTF-8 JSON); type it again "
        "in a UTF-8 terminal"
    ], run.stderr
    assert run.stdout == ""  # not a size measured
    assert not record.exists()


def test_a_photo_whose_name_is_not_utf8_is_swept_and_recorded_with_its_name_as_shown(tmp_path):
    photo = photo_file(tmp_path, size=(60, 40))
    renamed = photo.with_name(os.fsdecode(b"caf\xe9.png"))
    photo.rename(renamed)
    record = tmp_path / "r.json"
    run = blurapp_in_process(*SWEEP, "--photo", renamed, "--record", record, "--note", "ok")
    assert run.returncode == 0, run.stderr
    text = record.read_text(encoding="utf-8")  # UTF-8, as a record is
    [written] = read_record_document(text, "r.json")["records"]
    assert "caf\ufffd.png" in written["command"] and written["note"] == "ok"
    assert written["rows"] and "\\udce9" not in text
