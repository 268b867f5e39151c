"""Every speed-up the README and the performance page show is what the rule its record states
gives from that record's own figures: NumPy's median ÷ the engine's, recomputed here, or the
median of the round-by-round speed-ups, which lies within its own middle half."""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted((ROOT / "docs" / "performance").glob("*.json"))
SPEEDUP = ", speed-up"


def rounding(value: float) -> float:
    """How far a figure kept as `value` may be from the time it was measured as: half its last
    digit, and at least the four significant digits the records keep."""
    text = repr(float(value))
    decimals = len(text.partition(".")[2]) if "e" not in text else 0
    return max(0.5 * 10.0**-decimals, 5e-4 * abs(value))


def speedup_rows():
    for path in RECORDS:
        for record in json.loads(path.read_text(encoding="utf-8"))["records"]:
            rows = record["rows"]
            for row in rows:
                if row["what"].endswith(SPEEDUP):
                    yield path.name, row, rows


CASES = list(speedup_rows())


def test_the_records_have_speedups_to_check():
    assert len(CASES) > 10
    names = {name for name, _, _ in CASES}
    assert {"cpu-2-core-vm.json", "tpu-v5e.json"} <= names


@pytest.mark.parametrize(
    ("name", "row", "rows"), CASES, ids=[f"{n}:{r['what']}:{r['engine']}" for n, r, _ in CASES]
)
def test_each_speedup_is_what_its_stated_rule_gives(name, row, rows):
    what = row["what"].removesuffix(SPEEDUP)
    engine = row["engine"].split(" (")[0]  # "JAX-jit (GPU)": that device's JAX-jit
    times = {r["engine"]: r for r in rows if r["what"] == what and r["unit"] == "ms"}
    how = row["how"]
    if "in each round" in how:
        # The median of the rounds' speed-ups: within their middle half, and not a ratio of the
        # medians the page would have to say.
        assert row["low"] is not None and row["low"] <= row["value"] <= row["high"], row
        return
    assert "÷" in how and row["low"] is None, row  # a ratio of two figures
    numpy, other = times.get("NumPy"), times.get(row["engine"]) or times.get(engine)
    if numpy is None or other is None:
        pytest.skip(f"{name}: {what}: its times are in another row's words")
    numpy_ms, other_ms = numpy["value"], other["value"]
    least = (numpy_ms - rounding(numpy_ms)) / (other_ms + rounding(other_ms))
    most = (numpy_ms + rounding(numpy_ms)) / (other_ms - rounding(other_ms))
    margin = rounding(row["value"])
    assert least - margin <= row["value"] <= most + margin, (row, numpy_ms, other_ms)


def test_the_readme_states_both_rules_its_tables_use():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "in\neach round" in readme or "in each round" in readme
    assert "so it is not NumPy's median ÷ JAX-jit's" in readme
    assert "A speed-up without a range is NumPy's median ÷ the engine's" in readme
