"""`blurapp bench --sections yardsticks`: JAX-jit beside OpenCV, SciPy, NumPy and a copy of the
image, timed in the same rounds, and the speed goals' ratios from those very medians."""

import json
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from helpers.command_line import blurapp_in_process
from helpers.oracle import blur_oracle

# The entries a user reads, by JSON key and by their words in the text.
ENTRIES = {
    "jax_2d": "JAX-jit 2-D, grey",
    "jax_separable": "JAX-jit separable, grey",
    "jax_2d_colour": "JAX-jit 2-D, colour",
    "jax_separable_colour": "JAX-jit separable, colour",
    "numpy_2d": "NumPy engine 2-D, grey",
    "jax_copy": "one copy, JAX-jit",
    "numpy_copy": "one copy, NumPy",
    "jax_gemm": "float32 matrix product, JAX-jit",
    "opencv_filter2d": "OpenCV filter2D",
    "opencv_sepfilter2d": "OpenCV sepFilter2D",
    "scipy_separable": "SciPy correlate1d",
}
# Issue 20's speed goals: numerator, denominator, the words of the text, the goal.
RATIOS = [
    ("jax_2d", "opencv_filter2d", "JAX-jit 2-D ÷ OpenCV filter2D", "≤ 1.0"),
    ("jax_separable", "opencv_sepfilter2d", "JAX-jit separable ÷ OpenCV sepFilter2D", "≤ 1.0"),
    ("jax_separable", "jax_2d", "JAX-jit separable ÷ JAX-jit 2-D", "≤ 0.5"),
    ("jax_2d_colour", "jax_2d", "JAX-jit colour ÷ grey, 2-D", "≤ 3.3"),
    ("jax_separable_colour", "jax_separable", "JAX-jit colour ÷ grey, separable", "≤ 3.3"),
    ("jax_2d", "jax_copy", "JAX-jit 2-D ÷ one copy (the floor)", "≤ 3.0"),
    ("numpy_2d", "jax_2d", "NumPy 2-D ÷ JAX-jit 2-D (the speed-up)", None),
    ("jax_2d", "jax_gemm", "JAX-jit 2-D ÷ the compute floor", "≤ 1.5"),
    ("jax_separable", "jax_gemm", "JAX-jit separable ÷ the compute floor", None),
    ("opencv_filter2d", "jax_gemm", "OpenCV filter2D ÷ the compute floor", None),
]
# The multiply-adds a pixel of each blur a compute-floor ratio divides by: 9 × 9 2-D, or 9
# weights along the rows and 9 along the columns.
MULTIPLY_ADDS_PER_PIXEL = {"jax_2d": 81, "jax_separable": 18, "opencv_filter2d": 81}
SMALL_MP = 0.05


def test_every_yardstick_is_timed_in_rounds_and_the_ratios_are_of_its_medians():
    from blurapp.bench.yardsticks import counts_page_faults

    run = blurapp_in_process(
        "bench", "--json", "--sections", "yardsticks", "--probe-megapixels", "0.1", "--repeat", "2"
    )
    assert run.returncode == 0, run.stderr
    yard = json.loads(run.stdout)["yardsticks"]
    assert (yard["width"], yard["height"], yard["kernel_size"], yard["rounds"]) == (387, 258, 9, 2)
    # And, on a TPU, JAX Pallas's blurs and the vector floor (tested below).
    assert set(yard["entries"]) == set(ENTRIES) | (set(ON_A_TPU_ENTRIES) if _on_a_tpu() else set())
    for key, entry in yard["entries"].items():
        assert entry is not None, yard["missing"].get(key)
        assert len(entry["round_seconds"]) == 2
        assert 0 < entry["min_seconds"] <= entry["median_seconds"] <= entry["max_seconds"], key
    assert yard["opencv"].split(".")[0].isdigit() and yard["scipy"]
    # Each yardstick computes the blur JAX-jit does, by the same algorithm.
    for key, same_as in [
        ("numpy_2d", "jax_2d"),
        ("opencv_filter2d", "jax_2d"),
        ("opencv_sepfilter2d", "jax_separable"),
        ("scipy_separable", "jax_separable"),
    ]:
        entry = yard["entries"][key]
        assert entry["compared_with"] == same_as
        assert 0 <= entry["max_abs_diff"] < 1e-5, key
        # The kernel's part of each call: counted on this system (Linux, macOS); its page
        # faults too, unless a sandbox's kernel does not count them.
        assert entry["median_kernel_seconds"] >= 0, key
        if counts_page_faults():
            assert entry["median_page_faults"] >= 0, key
        else:
            assert entry["median_page_faults"] is None, key
    medians = {key: entry["median_seconds"] for key, entry in yard["entries"].items()}
    assert len(yard["ratios"]) == len(RATIOS) + (len(VECTOR_RATIOS) if _on_a_tpu() else 0)
    gemm = yard["entries"]["jax_gemm"]
    size = round(gemm["multiply_adds"] ** (1 / 3))
    assert size**3 == gemm["multiply_adds"] and size >= 128  # a square product
    for numerator, denominator, _, _ in RATIOS:
        ratio = yard["ratios"][f"{numerator}/{denominator}"]
        if denominator == "jax_gemm":
            # Its multiply-adds at the product's quickest rate: the blur's compute floor.
            floor = 387 * 258 * MULTIPLY_ADDS_PER_PIXEL[numerator] * gemm["min_seconds"] / size**3
            assert ratio == pytest.approx(medians[numerator] / floor, rel=1e-9)
        else:
            assert ratio == pytest.approx(medians[numerator] / medians[denominator], rel=1e-12)


@pytest.mark.slow
def test_the_text_names_each_yardstick_and_each_ratio_beside_its_goal():
    # In this process, on the image size of the tests below: JAX compiles its programs once.
    from blurapp.bench.report import section_lines
    from blurapp.bench.yardsticks import yardsticks

    lines = section_lines("yardsticks", yardsticks(SMALL_MP, rounds=2))
    start = next(i for i, line in enumerate(lines) if line.startswith("yardsticks ("))
    assert "274×183, 9×9, σ 2.5" in lines[start]
    assert "median of 2 interleaved rounds" in lines[start + 1]
    for label in ENTRIES.values():
        line = next(line for line in lines[start:] if line.strip().startswith(label))
        assert " ms (" in line and "–" in line, line  # the median, then min–max
    for _, _, words, goal in RATIOS:
        line = next(line for line in lines[start:] if line.strip().startswith(words))
        now = line.removeprefix(f"  {words}").split()
        assert float(now[0]) > 0, line
        if goal is None:
            assert len(now) == 1, line
        else:
            assert " ".join(now[1:3]) == goal and now[3] in ("yes", "no"), line
            assert now[3] == ("yes" if float(now[0]) <= float(goal[2:]) else "no"), line
    assert max(len(line) for line in lines[start:]) <= 100


def test_the_yardsticks_blur_as_the_oracle_does():
    from blurapp.bench.synthetic import synthetic_image
    from blurapp.bench.yardsticks import yardstick_functions
    from blurapp.core.kernel import gaussian_kernel

    grey = synthetic_image(SMALL_MP)
    colour = synthetic_image(SMALL_MP, channels=3)
    functions, missing, _ = yardstick_functions(grey, colour, 9, 2.5)
    assert missing == {}
    expected = blur_oracle(grey, gaussian_kernel(9, 2.5))
    for key in ("opencv_filter2d", "opencv_sepfilter2d", "scipy_separable", "jax_2d"):
        yardstick = functions[key]
        output = yardstick.output(yardstick.call())
        assert output.shape == grey.shape
        assert np.abs(output - expected).max() < 1e-5, key
    colour_blur = functions["jax_separable_colour"]
    expected_colour = blur_oracle(colour, gaussian_kernel(9, 2.5))
    assert np.abs(colour_blur.output(colour_blur.call()) - expected_colour).max() < 1e-5


def test_without_opencv_its_yardsticks_are_missing_and_say_why(monkeypatch):
    from blurapp.bench.report import section_lines
    from blurapp.bench.yardsticks import yardsticks

    monkeypatch.setitem(sys.modules, "cv2", None)  # `import cv2` raises ImportError
    yard = yardsticks(SMALL_MP, rounds=1)
    assert yard["entries"]["opencv_filter2d"] is None
    assert yard["entries"]["opencv_sepfilter2d"] is None
    assert yard["opencv"] is None
    assert yard["ratios"]["jax_2d/opencv_filter2d"] is None
    assert yard["ratios"]["jax_separable/opencv_sepfilter2d"] is None
    assert yard["entries"]["scipy_separable"]["median_seconds"] > 0
    assert yard["ratios"]["jax_separable/jax_2d"] > 0
    text = "\n".join(section_lines("yardsticks", yard))
    for label in ("OpenCV filter2D", "OpenCV sepFilter2D"):
        line = next(line for line in text.splitlines() if line.strip().startswith(label))
        assert line.endswith("  — (opencv-python-headless is not installed)"), line
        assert " ms" not in line
    for words in ("JAX-jit 2-D ÷ OpenCV filter2D", "JAX-jit separable ÷ OpenCV sepFilter2D"):
        line = next(line for line in text.splitlines() if line.strip().startswith(words))
        assert line.split()[-3:] == ["—", "≤", "1.0"]
    assert "OpenCV 4" not in text


def test_without_jax_the_yardsticks_say_why_and_the_others_are_still_timed(monkeypatch):
    from blurapp.bench import yardsticks
    from blurapp.bench.report import section_lines
    from blurapp.core.engines.jax_runtime import JaxUnavailableError

    def no_device(platform=None):
        raise JaxUnavailableError("no device here")

    monkeypatch.setattr(yardsticks, "jax_device", no_device)
    yard = yardsticks.yardsticks(SMALL_MP, rounds=1)
    for key in ("jax_2d", "jax_separable", "jax_2d_colour", "jax_separable_colour", "jax_copy"):
        assert yard["entries"][key] is None
        assert yard["missing"][key] == "JAX is unavailable: no device here"
    assert all(ratio is None for ratio in yard["ratios"].values())
    for key in ("numpy_2d", "opencv_filter2d", "scipy_separable"):
        assert yard["entries"][key]["median_seconds"] > 0
        assert yard["entries"][key]["max_abs_diff"] is None  # no JAX-jit blur to compare with
    text = "\n".join(section_lines("yardsticks", yard))
    assert "JAX-jit 2-D, grey" in text and "— (JAX is unavailable: no device here)" in text
    assert "JAX-jit on" not in text


@pytest.mark.skipif(sys.platform == "win32", reason="Windows has no getrusage")
def test_a_call_that_touches_new_memory_is_counted_its_page_faults_and_one_that_does_not_none():
    from blurapp.bench.yardsticks import counts_page_faults, spent_on

    megabytes = 256
    kept = np.ones(megabytes * 2**20 // 8)

    def fresh() -> None:
        # An array the process has never had: every page of it faults in when written.
        np.ones(megabytes * 2**20 // 8).sum()

    def reused() -> None:
        kept.sum()

    new = spent_on(fresh)
    old = spent_on(reused)
    assert new.kernel_seconds > 0
    assert new.seconds > 0
    if not counts_page_faults():
        # A sandbox that says 0 whatever is touched (gVisor): not counted, rather than 0.
        assert new.page_faults is None and old.page_faults is None
        return
    # At least one fault a 2 MiB page (a transparent huge page), at most one a 4 KiB page.
    assert megabytes // 2 <= new.page_faults <= megabytes * 256 * 1.1
    assert old.page_faults < megabytes // 2


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_page_faults_are_counted_where_the_kernels_own_count_of_them_moves():
    # An oracle apart from getrusage: the kernel's count in /proc/self/stat (its 10th field,
    # minor faults), moved by memory new to the process, as on any Linux but a sandbox that
    # counts none (gVisor), where it stays still and the bench must say "not counted".
    from blurapp.bench.yardsticks import counts_page_faults

    def minor_faults() -> int:
        return int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[7])

    before = minor_faults()
    np.ones(64 * 2**20 // 8).sum()  # 64 MiB never touched before
    moved = minor_faults() - before >= 16
    assert counts_page_faults() is moved


def small_yardsticks_record(tmp_path):
    """`blurapp bench --sections yardsticks` on a small photo, one round, with --record: the
    run and the record's rows."""
    record = tmp_path / "record.json"
    run = blurapp_in_process(
        "bench", "--sections", "yardsticks", "--probe-megapixels", str(SMALL_MP),
        "--repeat", "1", "--record", str(record),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return run, json.loads(record.read_text())["records"][0]["rows"]


def test_a_system_that_counts_no_page_faults_is_told_apart_from_one_that_counts_them(
    monkeypatch, tmp_path
):
    from blurapp.bench import yardsticks

    yardsticks.counts_page_faults.cache_clear()
    monkeypatch.setattr(yardsticks, "_kernel_counts", lambda: (0.0, 7))  # a count that never moves
    try:
        assert yardsticks.counts_page_faults() is False
        assert yardsticks.spent_on(lambda: None).page_faults is None
        # The record says so in words, where it would have said 0.
        _, rows = small_yardsticks_record(tmp_path)
        kernel_rows = [row for row in rows if row["what"].endswith(", in the kernel")]
        assert kernel_rows
        assert all(
            row["how"].endswith("page faults: not counted on this system") for row in kernel_rows
        )
    finally:
        yardsticks.counts_page_faults.cache_clear()


# The entries and ratios there are only where Mosaic compiles JAX Pallas (a TPU).
ON_A_TPU_ENTRIES = {
    "pallas_2d": "JAX Pallas 2-D, grey",
    "pallas_separable": "JAX Pallas separable, grey",
    "vector_floor": "float32 multiply-adds, vector unit",
}
VECTOR_RATIOS = {
    "pallas_2d/vector_floor": "JAX Pallas 2-D ÷ the vector floor",
    "pallas_separable/vector_floor": "JAX Pallas separable ÷ the vector floor",
    "jax_2d/vector_floor": "JAX-jit 2-D ÷ the vector floor",
}


def _on_a_tpu() -> bool:
    from blurapp.core.engines.jax_runtime import jax_device
    from blurapp.core.engines.vector_floor import compiled_for

    return compiled_for(jax_device())


def test_off_a_tpu_the_section_and_its_record_leave_the_vector_floor_out(tmp_path):
    run, rows = small_yardsticks_record(tmp_path)
    whats = [row["what"] for row in rows]
    printed = run.stdout.splitlines()
    # The matrix product's rate, in words and in the record, wherever JAX runs.
    line = next(line for line in printed if line.strip().startswith("the compute floor:"))
    assert "float32 multiply-adds/s = " in line and line.endswith(" GFLOP/s (quickest round)")
    gflops = next(row for row in rows if row["what"] == "the compute floor, float32")
    assert gflops["unit"] == "GFLOP/s" and gflops["value"] > 0
    per_second = next(
        row for row in rows if row["what"] == "the compute floor, float32 multiply-adds a second"
    )
    assert gflops["value"] == pytest.approx(2 * per_second["value"], rel=1e-3)
    words = [*ON_A_TPU_ENTRIES.values(), *VECTOR_RATIOS.values(), "the vector floor"]
    if _on_a_tpu():
        for each in words:
            assert any(line.strip().startswith(each) for line in printed), each
            assert any(what.startswith(each) for what in whats), each
    else:
        for each in words:
            assert not any(each in line for line in printed), each
            assert not any(each in what for what in whats), each


@pytest.mark.slow
def test_where_there_is_a_vector_floor_pallas_and_jax_jit_are_divided_by_it(monkeypatch):
    """The section as a TPU gives it, on this machine: the vector floor's kernel and JAX
    Pallas's blurs interpreted (their times say nothing of a chip; what is checked is what
    the section makes of them)."""
    import functools

    import jax

    from blurapp.bench import yardsticks
    from blurapp.bench.record import figure_rows
    from blurapp.bench.report import section_lines
    from blurapp.core.engines import vector_floor
    from blurapp.core.engines.runs import Call, FirstCall

    steps, grid_steps = 64, 2
    kernel = jax.jit(functools.partial(vector_floor.fma_chain, steps=steps, interpret=True))
    blocks = np.ones((grid_steps * vector_floor.ROWS, vector_floor.LANES), np.float32)

    def interpreted_floor(platform=None):
        def again():
            start = time.perf_counter()
            jax.block_until_ready(kernel(blocks))
            return Call(time.perf_counter() - start)

        first = FirstCall(output=blocks, again=again, seconds=again().seconds)
        counted = vector_floor.multiply_adds(grid_steps, steps=steps)
        return vector_floor.TimedChain(first, grid_steps, counted)

    monkeypatch.setattr(yardsticks, "first_vector_floor", interpreted_floor)
    yard = yardsticks.yardsticks(SMALL_MP, rounds=1)
    entries = yard["entries"]
    floor = entries["vector_floor"]
    assert floor["multiply_adds"] == blocks.size * vector_floor.ACCUMULATORS * steps
    for key, same_as, per_pixel in [
        ("pallas_2d", "jax_2d", 81),
        ("pallas_separable", "jax_separable", 18),
    ]:
        # JAX Pallas's blurs, checked against JAX-jit's by the same algorithm.
        assert entries[key]["compared_with"] == same_as
        assert 0 <= entries[key]["max_abs_diff"] < 1e-5, key
        assert entries[key]["multiply_adds"] == 274 * 183 * per_pixel
    for key in VECTOR_RATIOS:
        numerator = entries[key.split("/")[0]]
        expected = (numerator["median_seconds"] / numerator["multiply_adds"]) / (
            floor["min_seconds"] / floor["multiply_adds"]
        )
        assert yard["ratios"][key] == pytest.approx(expected, rel=1e-9)
    rate = floor["multiply_adds"] / floor["min_seconds"]
    assert yard["floor_rates"]["vector_floor"] == pytest.approx(rate)
    lines = section_lines("yardsticks", yard)
    line = next(line for line in lines if line.strip().startswith("the vector floor:"))
    assert f"{rate:.3g} float32 multiply-adds/s = {2 * rate / 1e9:,.0f} GFLOP/s" in line
    for key, words in VECTOR_RATIOS.items():
        line = next(line for line in lines if line.strip().startswith(words))
        assert float(line.split()[-1]) == pytest.approx(yard["ratios"][key], abs=0.006), line
    for label in ON_A_TPU_ENTRIES.values():
        assert any(line.strip().startswith(label) for line in lines), label
    assert max(len(line) for line in lines) <= 100
    rows = {row["what"]: row for row in figure_rows({"yardsticks": yard}, [])}
    assert rows["JAX Pallas 2-D ÷ the vector floor"]["engine"] == "JAX Pallas"
    # Each divided by the vector floor, which the record's words name (no matrix product).
    for words in VECTOR_RATIOS.values():
        assert rows[words]["how"].endswith("the blur's median, the vector floor's quickest")
    assert rows["JAX-jit 2-D ÷ the compute floor"]["how"].startswith(
        "each one's time for a multiply-add: the blur's median, the product's quickest"
    )
    assert rows["the vector floor, float32"]["value"] == pytest.approx(2 * rate / 1e9, rel=1e-3)
    assert rows["the vector floor, float32"]["unit"] == "GFLOP/s"


@pytest.mark.accelerator
def test_on_a_tpu_the_section_has_the_vector_floor_and_its_ratios():
    from blurapp.bench.yardsticks import yardsticks

    yard = yardsticks(SMALL_MP, rounds=2)
    if not _on_a_tpu():
        assert not set(ON_A_TPU_ENTRIES) & set(yard["entries"])
        assert not set(VECTOR_RATIOS) & set(yard["ratios"])
        return
    for key in ON_A_TPU_ENTRIES:
        assert yard["entries"][key]["median_seconds"] > 0, key
    assert yard["entries"]["vector_floor"]["multiply_adds"] > 0
    assert yard["floor_rates"]["vector_floor"] > 0
    for key in VECTOR_RATIOS:
        assert yard["ratios"][key] > 0, key
