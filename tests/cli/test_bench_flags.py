"""Sizes the bench cannot make are usage errors naming the limit, not tracebacks; and the
bench run from Python leaves the process's blurs working."""

import os
import subprocess
import sys
import textwrap

import pytest

from blurapp.cli import main


@pytest.mark.parametrize(
    "flag, value",
    [
        ("--megapixels", "100000"),
        ("--megapixels", "1e300"),
        ("--probe-megapixels", "1e300"),
        ("--big-megapixels", "1e300"),
    ],
)
def test_a_size_too_large_for_memory_is_a_usage_error_naming_the_limit(capsys, flag, value):
    with pytest.raises(SystemExit) as exited:
        main(["bench", flag, value])
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert f"argument {flag}: {float(value):g} MP would not fit in the memory available" in error
    assert "MP here" in error and "Traceback" not in error


@pytest.mark.parametrize("value", ["0", "-30", "241", "fast", "nan"])
def test_a_playing_rate_it_cannot_play_is_a_two_line_usage_error(capsys, value):
    with pytest.raises(SystemExit) as exited:
        main(["bench", "--sections", "playing", "--playing-rate", value])
    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines() == [
        f"blurapp bench: error: argument --playing-rate: {value!r} is not a number of frames a "
        "second (more than 0, up to 240)",
        "see 'blurapp bench --help'",
    ]


def test_the_playing_rate_is_30_frames_a_second_unless_given():
    from blurapp.cli import build_command_parser

    parser = build_command_parser("bench")
    assert parser.parse_args(["bench"]).playing_rate == 30.0
    assert parser.parse_args(["bench", "--playing-rate", "59.94"]).playing_rate == 59.94


def test_every_json_document_is_strict_json():
    import json

    from blurapp.cli.output import json_text

    def refuse(constant):
        raise ValueError(constant)

    text = json_text({"speedup": float("inf"), "rows": [float("nan"), 1.5], "ok": "NaN"})
    assert json.loads(text, parse_constant=refuse) == {
        "speedup": None,
        "rows": [None, 1.5],
        "ok": "NaN",
    }


def test_colour_sizes_are_checked_for_three_channels(capsys, monkeypatch):
    from blurapp.cli import options

    monkeypatch.setattr(options, "available_memory", lambda: 4_000_000_000)  # 100 MP grey
    assert main(["bench", "--color", "--megapixels", "50", "--sections", "engines"]) == 2
    error = capsys.readouterr().err
    assert (
        "argument --megapixels: 50 MP in colour would not fit" in error and "at most 33 MP" in error
    )


@pytest.mark.slow
def test_jax_blurs_on_in_a_process_that_ran_the_bench_first(tmp_path):
    # A notebook's process: the bench is the first to use JAX, which then keeps the bench's
    # own compilation cache for good; a blur after it compiles a program of a new shape and
    # writes it there. Its warnings are errors, as in this suite: a cache folder gone under
    # JAX is a warning on every compile.
    script = textwrap.dedent(
        """
        import numpy as np
        import blurapp
        from blurapp.cli import main

        assert main(["bench", "--sections", "engines", "--megapixels", "0.01",
                     "--kernel-sizes", "3", "--engines", "numpy,jax", "--repeat", "1"]) == 0
        pixels = np.random.default_rng(0).random((37, 53), dtype=np.float32)
        print("blurred", blurapp.blur(pixels, engine="jax").shape)
        """
    )
    folders = {name: str(tmp_path / name) for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME",
                                                       "XDG_STATE_HOME", "BLURAPP_CACHE_DIR")}  # fmt: skip
    run = subprocess.run(
        [sys.executable, "-W", "error", "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **folders},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "blurred (37, 53)"
