"""The figures as typed rows: each row's key, its number and unit, and its words, checked
against the comparison they come from and against what `compare --json` gives."""

import dataclasses

import numpy as np
import pytest

from blurapp.core.engines.runs import (
    CacheLookup,
    Compilation,
    EngineRun,
    FirstCallParts,
    PaidFirstCall,
    Payer,
)
from blurapp.core.measuring.clip_comparison import ClipComparisonResult
from blurapp.core.measuring.comparison import TOLERANCE, ComparisonResult, comparison_dict
from blurapp.core.measuring.contention import Conditions
from blurapp.core.measuring.floors import Floor
from blurapp.core.media.clip import ClipInfo
from blurapp.core.report.clip_figures import clip_figures
from blurapp.core.report.figures import (
    Figure,
    comparison_figures,
    format_ms,
    format_speedup,
    format_timed,
    image_figure,
)
from blurapp.core.spec import BlurSpec

KEYS = [
    "image",
    "kernel",
    "numpy.steady",
    "jit.first_call",
    "jit.first_call_parts",
    "jit.steady",
    "speedup",
    "speedup_end_to_end",
    "jit.transfers",
    "max_abs_diff",
    "jit.device",
    "engine.jax-eager",
    "copy",
    "vs_copy",
]


# A first call of 900 ms taken apart, its copies (1.5 ms) beside it.
PARTS = FirstCallParts(0.04, 0.025, 0.8, CacheLookup.MISS, 0.032, 0.0015, 0.003)


def comparison(*, eager_error: float = 0.0, spread: float = 0.0, channels: int = 1):
    """NumPy, JAX-jit and JAX without jit on a 4 × 6 image, with times made up; JAX without
    jit's output `eager_error` off NumPy's; `spread`: how far NumPy's calls varied."""
    shape = (4, 6) if channels == 1 else (4, 6, channels)
    reference = np.zeros(shape, np.float32)
    runs = {
        "numpy": EngineRun(reference, (0.040, 0.044, 0.048)),
        "jax": EngineRun(
            reference + np.float32(2e-7),
            (0.002, 0.0025, 0.003),
            device="cpu",
            first_call_seconds=0.9,
            compilation=Compilation.COMPILED,
            to_device_seconds=0.001,
            from_device_seconds=0.0005,
            end_to_end_repeat_seconds=(0.004, 0.005, 0.006),
            first_call_parts=PARTS,
        ),
        "jax-eager": EngineRun(
            reference + np.float32(eager_error), (0.2, 0.3), first_call_seconds=0.7
        ),
    }
    floors = (Floor("cpu", 0.0001, (0.0001, 0.0001), 2, reference.nbytes),)
    return ComparisonResult(
        kernel=np.ones((3, 3), np.float32) / 9,
        sigma=1.0,
        runs=runs,
        floors=floors,
        conditions=Conditions(spread={"numpy": spread}, samples={"numpy": 8}),
    )


def by_key(rows: list[Figure]) -> dict[str, Figure]:
    return {row.key: row for row in rows}


def test_each_row_has_a_key_of_its_own_in_the_order_compare_prints():
    rows = comparison_figures(comparison(), "street.png", 6, 4)
    assert [row.key for row in rows] == KEYS
    labels = [row.label for row in rows]
    assert labels[:5] == ["image", "kernel", "NumPy", "JAX first call", "first call parts"]
    assert labels[-3:] == ["JAX without jit", "copy", "vs copy"]


def test_each_rows_number_is_the_comparisons_own():
    result = comparison()
    rows = by_key(comparison_figures(result, "street.png", 6, 4))
    numbers = {key: (row.value, row.unit) for key, row in rows.items() if row.value is not None}
    assert numbers == {
        "image": (pytest.approx(24e-6), "MP"),
        "numpy.steady": (result.runs["numpy"].seconds, "s"),
        "jit.first_call": (0.9, "s"),
        "jit.first_call_parts": (0.9, "s"),
        "jit.steady": (result.runs["jax"].seconds, "s"),
        "speedup": (result.speedup, "×"),
        "speedup_end_to_end": (result.end_to_end_speedup, "×"),
        "max_abs_diff": (result.max_abs_diff, ""),
        "engine.jax-eager": (result.runs["jax-eager"].seconds, "s"),
        "copy": (result.floor_seconds, "s"),
    }
    # The same numbers as compare --json gives, where a program reads them.
    data = comparison_dict(result)
    assert rows["numpy.steady"].value == data["numpy"]["seconds"]
    assert rows["jit.steady"].value == data["jax"]["seconds"]
    assert rows["jit.first_call"].value == data["jax"]["first_call_seconds"]
    assert data["jax"]["first_call_parts"] == {
        "tracing_seconds": 0.04,
        "lowering_seconds": 0.025,
        "compiling_seconds": 0.8,
        "cache": "miss",
        "first_run_seconds": 0.032,
        "copies_seconds": 0.0015,
        "other_seconds": 0.003,
    }
    assert data["numpy"]["first_call_parts"] is None
    assert rows["speedup"].value == data["jax"]["speedup"]
    assert rows["speedup_end_to_end"].value == data["jax"]["speedup_end_to_end"]
    assert rows["max_abs_diff"].value == data["jax"]["max_abs_diff"]
    assert rows["engine.jax-eager"].value == data["jax_eager"]["seconds"]
    assert rows["copy"].value == data["floors"]["cpu"]["seconds"]


@pytest.mark.parametrize(
    ("calls", "per_sample", "words"),
    [
        # A 40 MP photo's NumPy blur, slower than the timing's budget: timed once.
        ((2.41,), 1, "2,410 ms (one call)"),
        ((0.004,), 8, "4.00 ms (one sample of 8 calls)"),
        ((), 1, "900 ms (first call only)"),
    ],
)
def test_a_time_not_taken_as_a_median_says_how_it_was_measured(calls, per_sample, words):
    run = EngineRun(
        np.zeros((2, 2), np.float32), calls, first_call_seconds=0.9, calls_per_sample=per_sample
    )
    assert format_timed(run) == words


def test_a_rows_figure_is_its_number_and_its_text_says_how_it_was_measured():
    rows = by_key(comparison_figures(comparison(), "street.png", 6, 4))
    for key in ("numpy.steady", "jit.first_call", "jit.steady", "engine.jax-eager", "copy"):
        assert rows[key].figure.startswith(format_ms(rows[key].value)), key
    for key in ("speedup", "speedup_end_to_end"):
        assert rows[key].figure == format_speedup(rows[key].value)
    assert rows["numpy.steady"].text == "44.0 ms (median of 3, middle half 42.0–46.0 ms)"
    assert rows["numpy.steady"].measured == "(median of 3, middle half 42.0–46.0 ms)"
    assert rows["jit.first_call"].text == "900 ms (includes compilation)"
    assert rows["speedup"].text == "17.6× (NumPy ÷ JAX steady)"
    assert rows["max_abs_diff"].figure == "2e-07"
    assert rows["max_abs_diff"].measured == "(5.1e-05 of 255 levels), within 1e-05"
    # A row of words has no number: its figure is all of it.
    for key in ("kernel", "jit.transfers", "jit.device", "vs_copy"):
        assert rows[key].value is None and rows[key].measured == ""
        assert rows[key].text == rows[key].figure
    assert rows["jit.transfers"].text == "to device 1.00 ms, from device 0.500 ms"


def test_a_first_call_that_got_its_program_says_where_its_time_went():
    row = by_key(comparison_figures(comparison(), "street.png", 6, 4))["jit.first_call_parts"]
    assert row.text == (
        "900 ms = trace 40.0 + lower 25.0 + compile 800 (cache miss) + run 32.0 + other 3.00 ms; "
        "copies to and from the device 1.50 ms besides"
    )
    assert row.figure == "900 ms" and row.measured.startswith("= trace 40.0 + ")


@pytest.mark.parametrize(("cache", "words"), [("hit", "cache hit"), ("off", "cache off")])
def test_the_parts_say_what_the_compilation_cache_did(cache, words):
    result = comparison()
    parts = PARTS._replace(cache=CacheLookup(cache))
    runs = {**result.runs, "jax": dataclasses.replace(result.runs["jax"], first_call_parts=parts)}
    rows = by_key(comparison_figures(dataclasses.replace(result, runs=runs), "street.png", 6, 4))
    assert f" ({words}) + run " in rows["jit.first_call_parts"].text


def test_a_first_call_that_found_its_program_compiled_has_no_parts():
    result = comparison()
    reused = dataclasses.replace(
        result.runs["jax"], compilation=Compilation.REUSED, first_call_parts=None
    )
    runs = {**result.runs, "jax": reused}
    rows = comparison_figures(dataclasses.replace(result, runs=runs), "street.png", 6, 4)
    assert "jit.first_call_parts" not in by_key(rows)
    assert (
        comparison_dict(dataclasses.replace(result, runs=runs))["jax"]["first_call_parts"] is None
    )


def test_a_first_call_paid_earlier_is_its_cost_then_this_runs_own():
    paid = {"jax": PaidFirstCall(1.5, Compilation.COMPILED, Payer.LIVE_PREVIEW)}
    row = by_key(comparison_figures(comparison(), "street.png", 6, 4, paid=paid))["jit.first_call"]
    assert (row.value, row.figure) == (1.5, "1,500 ms")
    assert row.measured == (
        "compiled during the live preview; this Run's first call 900 ms (includes compilation)"
    )
    assert row.text == f"1,500 ms, {row.measured}"


def test_only_a_difference_outside_the_tolerance_and_untrusted_times_are_alarming():
    rows = by_key(comparison_figures(comparison(eager_error=10 * TOLERANCE), "a", 6, 4))
    assert [key for key, row in rows.items() if row.alarming] == ["engine.jax-eager"]
    assert "NOT within 1e-05" in rows["engine.jax-eager"].text
    noisy = comparison_figures(comparison(spread=0.9), "a", 6, 4)
    keys = [row.key for row in noisy]
    # Said right after the speed-up it puts in doubt.
    assert keys[keys.index("speedup") + 1] == "warning"
    assert [row.key for row in noisy if row.alarming] == ["warning"]
    warning = by_key(noisy)["warning"]
    assert warning.figure == "these times cannot be trusted" and warning.value is None
    assert "the middle half of NumPy's calls spans 90% of their median" in warning.measured


def test_colour_says_so_on_the_image_and_the_difference():
    rows = by_key(comparison_figures(comparison(channels=3), "a.png", 6, 4))
    assert rows["image"].text == "a.png, 6 × 4 (24 pixels), colour (R, G, B)"
    assert rows["max_abs_diff"].measured.endswith("(the largest over the 3 channels)")
    assert image_figure("b.png", 4000, 3000).text == "b.png, 4000 × 3000 (12.00 MP)"


def test_an_engine_that_failed_is_a_row_of_words_under_its_key():
    result = comparison()
    failed = ComparisonResult(
        kernel=result.kernel,
        sigma=1.0,
        runs={"numpy": result.runs["numpy"]},
        errors={"jax": "out of memory", "jax-eager": "no JAX"},
    )
    rows = by_key(comparison_figures(failed, "a", 6, 4))
    assert rows["jit.error"].text == "unavailable: out of memory"
    assert rows["engine.jax-eager"].text == "unavailable: no JAX"
    assert rows["jit.error"].value is None and "speedup" not in rows


def test_a_clips_untrusted_times_are_told_in_the_windows_language_as_a_photos_are():
    chinese = {
        "these times cannot be trusted": "这些耗时不可信",
        "the times of the calls varied widely": "各次调用的耗时差异很大",
    }
    photo = comparison(spread=0.9)
    clip = ClipComparisonResult(
        clip=ClipInfo(
            name="a.gif", width=6, height=4, frame_count=4, frames_per_second=10.0, colour=False
        ),
        spec=BlurSpec(),
        start=0,
        frames=4,
        runs={"numpy": photo.runs["numpy"]},
        end_to_end_seconds={"numpy": (0.2, 0.2, 0.2)},
        conditions=photo.conditions,
    )

    def translate(text: str) -> str:
        return chinese.get(text, text)

    for rows in (comparison_figures(photo, "a", 6, 4, translate), clip_figures(clip, translate)):
        warning = by_key(rows)["warning"]
        assert warning.figure == "这些耗时不可信" and warning.alarming
        assert warning.measured.startswith("(各次调用的耗时差异很大")


def test_one_frame_is_one_frame_not_one_frames():
    from types import SimpleNamespace

    from blurapp.core.report.clip_figures import _clip_row
    from blurapp.core.wording import frames_words

    assert frames_words(1) == "1 frame" and frames_words(48) == "48 frames"
    clip = SimpleNamespace(name="waves.mp4", width=64, height=48, colour=False,
                           frames_per_second=24.0)  # fmt: skip
    one = _clip_row(SimpleNamespace(clip=clip, frames=1, start=0), lambda text: text)
    assert "1 frame from frame 0, 24 frames/s" in one.text
    many = _clip_row(SimpleNamespace(clip=clip, frames=12, start=3), lambda text: text)
    assert "12 frames from frame 3" in many.text
