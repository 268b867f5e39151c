"""The command line: its output and exit status; a process of its own where the process is
what is checked (its start, the compilation cache a second launch finds), otherwise
`blurapp.cli.main` called in this process."""

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers.command_line import blurapp, blurapp_in_process
from helpers.oracle import blur_oracle
from helpers.photos import photo_file
from helpers.tpu_runtime import seem_to_have_libtpu
from PIL import Image

from blurapp.bench.record import figure_rows
from blurapp.bench.report import section_lines
from blurapp.core import gaussian_kernel, load_grayscale, sample_photo_path


def _jaxs_device() -> str:
    """JAX's default device in words: "cpu", or an accelerator's "tpu: TPU v5 lite"."""
    from blurapp.core.engines.jax_runtime import describe_device, jax_device

    return describe_device(jax_device())


def assert_no_traceback(run):
    assert "Traceback" not in run.stderr and "Traceback" not in run.stdout


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    return photo_file(tmp_path_factory.mktemp("photos"), size=(45, 30), seed=1)


def test_version():
    from blurapp import __version__

    run = blurapp("--version")
    assert run.returncode == 0
    assert run.stdout.strip() == f"blurapp {__version__}"


def test_compare_prints_the_table_for_the_bundled_photo():
    run = blurapp_in_process("compare")
    assert run.returncode == 0, run.stderr
    assert_no_traceback(run)
    table = dict(re.split(r"\s{2,}", line, maxsplit=1) for line in run.stdout.splitlines())
    assert str(sample_photo_path()) in table["image"] and "600 × 400" in table["image"]
    assert table["kernel"] == "9 × 9, sigma 2.5"
    for name in (
        "NumPy",
        "JAX first call",
        "JAX steady",
        "speedup",
        "end-to-end speedup",
        "transfers",
        "max abs diff",
        "device",
    ):
        assert name in table, name
    assert " ms (median of " in table["NumPy"] and "middle half" in table["NumPy"]
    assert "within 1e-05" in table["max abs diff"] and "NOT" not in table["max abs diff"]
    assert table["device"] == _jaxs_device()


def test_compare_json_has_the_contracted_keys(photo):
    run = blurapp_in_process(
        "compare", photo, "--kernel-size", "auto", "--sigma", "1.5", "--repeat", "2", "--json"
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["image"] == {"path": str(photo), "width": 45, "height": 30, "channels": 1}
    # 11 × 11 multiply-adds a pixel: what the compute floor is taken for.
    assert data["kernel"] == {
        "size": 11,
        "sigma": 1.5,
        "algorithm": "2d",
        "multiply_adds_per_pixel": 121,
    }
    assert data["numpy"]["seconds"] > 0
    assert data["jax"]["first_call_seconds"] > 0 and data["jax"]["seconds"] > 0
    assert len(data["jax"]["seconds_all"]) == 2
    assert data["jax"]["device"] == _jaxs_device()
    assert 0 <= data["max_abs_diff"] <= 1e-5


@pytest.mark.slow
def test_compare_out_dir_writes_both_outputs(photo, tmp_path):
    out = tmp_path / "results"
    run = blurapp_in_process(
        "compare", photo, "--out-dir", out, "--kernel-size", "5", "--sigma", "1"
    )
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in out.iterdir()) == ["jax.npy", "jax.png", "numpy.npy", "numpy.png"]
    expected = blur_oracle(load_grayscale(photo), gaussian_kernel(5, 1.0))
    for engine in ("numpy", "jax"):
        array = np.load(out / f"{engine}.npy")
        assert array.dtype == np.float32
        np.testing.assert_allclose(array, expected, atol=1e-5, rtol=0)
        with Image.open(out / f"{engine}.png") as png:
            assert png.mode == "L" and png.size == (45, 30)
            assert np.abs(np.asarray(png).astype(float) - expected * 255).max() <= 0.51


@pytest.mark.slow
def test_compare_trace_records_jax_jits_steady_calls_for_perfetto_and_tensorboard(photo, tmp_path):
    import gzip

    import jax.profiler

    folder = tmp_path / "trace"
    # A process of its own, as a user runs it: one profiler session, and JAX-jit's first
    # call (compiled, or loaded from the run's cache) is its own.
    run = blurapp("compare", photo, "--trace", folder, "--engines", "jax", "--repeat", "2")
    assert run.returncode == 0, run.stderr
    [run_folder] = (folder / "plugins" / "profile").iterdir()
    assert run.stdout.splitlines()[-1] == (
        f"trace: {run_folder} (the steady calls; open perfetto_trace.json.gz in "
        f"ui.perfetto.dev, or run: tensorboard --logdir {folder})"
    )
    names = sorted(path.name for path in run_folder.iterdir())
    [xplane] = [name for name in names if name.endswith(".xplane.pb")]
    assert "perfetto_trace.json.gz" in names
    assert any(name.endswith(".trace.json.gz") for name in names)
    # The raw trace, read back with jax.profiler's own reader: the steady calls (the untimed
    # warm-up and the two timed), each labelled, and the blur program BlurApp jits run in
    # each; the first call, before the trace started, is not in it.
    profile = jax.profiler.ProfileData.from_file(str(run_folder / xplane))
    events = [
        (event.name, dict(event.stats))
        for plane in profile.planes
        for line in plane.lines
        for event in line.events
    ]
    assert [name for name, _ in events].count("jax steady call") == 3
    blur_runs = {
        stats.get("run_id") for _, stats in events if stats.get("hlo_module") == "jit_blur"
    }
    assert len(blur_runs) == 3
    # What Perfetto opens: gzip JSON in Chrome's trace format, with the same calls.
    with gzip.open(run_folder / "perfetto_trace.json.gz") as file:
        perfetto = json.load(file)
    steady = [e for e in perfetto["traceEvents"] if e.get("name") == "jax steady call"]
    assert len(steady) == 3 and all(event["dur"] > 0 for event in steady)
    assert any(
        event.get("args", {}).get("hlo_module") == "jit_blur" for event in perfetto["traceEvents"]
    )


@pytest.mark.slow
def test_two_traces_into_one_folder_at_once_each_get_and_name_a_run_folder_of_their_own(
    photo, tmp_path
):
    folder = tmp_path / "trace"
    command = [sys.executable, "-m", "blurapp", "compare", str(photo), "--trace", str(folder)]
    command += ["--engines", "jax", "--repeat", "2"]
    runs = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], [err for _, err in outputs]
    named = {Path(out.splitlines()[-1].split(" ")[1]) for out, _ in outputs}
    assert named == set((folder / "plugins" / "profile").iterdir())  # two, each its own
    for run_folder in named:
        names = {path.name for path in run_folder.iterdir()}
        assert "perfetto_trace.json.gz" in names
        assert len([name for name in names if name.endswith(".xplane.pb")]) == 1
        with gzip.open(run_folder / "perfetto_trace.json.gz") as file:
            assert json.load(file)["traceEvents"]


def test_compare_trace_into_a_file_is_refused_before_the_work(photo, tmp_path):
    file = tmp_path / "notes.txt"
    file.write_text("not a folder")
    run = blurapp_in_process("compare", photo, "--trace", file)
    assert run.returncode == 1
    assert run.stderr.splitlines() == [f"error: {file}: the output folder is a file"]
    assert run.stdout == ""  # nothing measured


def test_compare_trace_into_a_folder_no_one_may_write_is_refused_before_the_work(
    photo, tmp_path, monkeypatch
):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    if os.access(locked, os.W_OK):  # root writes anywhere: told what a user's check says
        access = os.access
        monkeypatch.setattr(
            os,
            "access",
            lambda path, mode, **kw: (
                False if str(path) == str(locked) and mode & os.W_OK else access(path, mode, **kw)
            ),
        )
    run = blurapp_in_process("compare", photo, "--trace", locked)
    assert run.returncode == 1
    assert run.stderr.splitlines() == [
        f"error: {locked}: cannot write the profiler trace in this folder"
    ]
    assert run.stdout == ""  # nothing measured


def test_compare_trace_into_a_folder_whose_name_is_not_utf8_is_refused_before_the_work(
    photo, tmp_path
):
    folder = tmp_path / os.fsdecode(b"traces-\xe9")
    run = blurapp_in_process("compare", photo, "--trace", folder)
    assert run.returncode == 1
    [line] = run.stderr.splitlines()
    assert line.startswith("error: ") and line.endswith(
        "the profiler trace's folder must have a UTF-8 name (JAX's profiler writes no other)"
    )
    assert run.stdout == "" and not folder.exists()


def test_compare_trace_stopped_by_sigterm_leaves_no_partial_trace(photo, tmp_path, monkeypatch):
    import signal

    from blurapp.core.measuring import profiler_trace

    label = profiler_trace.SteadyTrace.label

    def label_then_terminate(self, name, call):
        labelled = label(self, name, call)

        def terminated():
            result = labelled()
            os.kill(os.getpid(), signal.SIGTERM)  # as `kill` would, during the steady calls
            return result

        return terminated

    monkeypatch.setattr(profiler_trace.SteadyTrace, "label", label_then_terminate)
    folder = tmp_path / "traces"
    run = blurapp_in_process("compare", photo, "--trace", folder, "--engines", "jax")
    assert run.returncode == 128 + signal.SIGTERM
    assert run.stderr.splitlines()[-1] == "error: stopped by SIGTERM"
    assert [path for path in folder.rglob("*") if not path.is_dir()] == []


@pytest.mark.parametrize("engine", ["numpy", "jax"])
def test_blur_to_npy_gives_the_float32_result(photo, tmp_path, engine):
    out = tmp_path / "blurred.npy"
    run = blurapp_in_process("blur", photo, "-o", out, "--engine", engine, "--sigma", "2")
    assert run.returncode == 0, run.stderr
    expected = blur_oracle(load_grayscale(photo), gaussian_kernel(9, 2.0))
    np.testing.assert_allclose(np.load(out), expected, atol=1e-5, rtol=0)


def test_blur_to_an_image_gives_8_bit_grayscale(photo, tmp_path):
    out = tmp_path / "blurred.jpg"
    run = blurapp_in_process("blur", photo, "-o", out)
    assert run.returncode == 0, run.stderr
    with Image.open(out) as written:
        assert written.mode == "L" and written.size == (45, 30)


def test_blur_of_a_16_bit_photo_stays_16_bit_in_png(tmp_path):
    source = tmp_path / "deep.png"
    Image.fromarray(np.linspace(0, 65535, 400, dtype=np.uint16).reshape(20, 20)).save(source)
    out = tmp_path / "deep-blurred.png"
    run = blurapp_in_process("blur", source, "-o", out, "--kernel-size", "1")
    assert run.returncode == 0, run.stderr
    with Image.open(source) as before, Image.open(out) as after:
        assert after.mode.startswith("I")
        np.testing.assert_array_equal(np.asarray(after), np.asarray(before))


def test_blur_that_cannot_write_leaves_the_old_file(photo, tmp_path):
    out = tmp_path / "keep.xyz"
    out.write_bytes(b"old")
    run = blurapp_in_process("blur", photo, "-o", out)
    assert run.returncode == 1
    assert run.stderr.startswith("error: ") and str(out) in run.stderr
    assert out.read_bytes() == b"old"
    assert_no_traceback(run)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda d: d / "missing.png", "no such file"),
        (lambda d: d, "folder"),
        (lambda d: (d / "empty.jpg").write_bytes(b"") or d / "empty.jpg", "empty"),
        (lambda d: (d / "text.png").write_text("hello") and d / "text.png", "not an image"),
    ],
)
@pytest.mark.parametrize("command", ["compare", "blur"])
def test_an_unreadable_file_gives_one_error_line_and_status_1(tmp_path, make, words, command):
    path = make(tmp_path)
    extra = ["-o", tmp_path / "out.png"] if command == "blur" else []
    run = blurapp_in_process(command, path, *extra)
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("error: ") and str(path) in lines[0] and words in lines[0]
    assert_no_traceback(run)


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--kernel-size", "4", "odd"),
        ("--kernel-size", "0", "at least 1"),
        ("--kernel-size", "-3", "at least 1"),
        ("--sigma", "0", "between 0.1 and 16.5, not 0"),
        ("--sigma", "-1", "between 0.1 and 16.5, not -1"),
        ("--sigma", "nan", "finite"),
        ("--sigma", "inf", "finite"),
        ("--sigma", "abc", "number"),
    ],
)
def test_bad_parameters_give_one_error_line_and_status_2(option, value, words):
    run = blurapp_in_process("compare", option, value)
    error, _ = usage_error_lines(run, "blurapp compare")
    assert error.startswith(f"blurapp compare: error: argument {option}: ") and words in error


def usage_error_lines(run, prog):
    """A usage error's two lines on stderr, checked: what is wrong, in argparse's words, and
    where the usage is told (no usage block before them); exit status 2, nothing on stdout."""
    assert run.returncode == 2, run.stderr
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 2, run.stderr
    assert lines[0].startswith(f"{prog}: error: ")
    assert lines[1] == f"see '{prog} --help'"
    return lines


@pytest.mark.parametrize(
    ("options", "error"),
    [
        (
            ["--kernel-size", "4"],
            "argument --kernel-size: kernel size must be odd so the kernel has a centre pixel, "
            "not 4",
        ),
        (["--sigma", "0"], "argument --sigma: sigma must be between 0.1 and 16.5, not 0"),
        (["--sigma", "nan"], "argument --sigma: sigma must be a finite number, not nan"),
        (["--sigma", "inf"], "argument --sigma: sigma must be a finite number, not inf"),
        (
            ["--engines", "numpy,foo"],
            "argument --engines: no engine called 'foo'; the engines are {engines} (JAX ones "
            "also as NAME@{platforms})",
        ),
    ],
)
def test_a_bad_option_is_its_error_and_where_the_usage_is_told(options, error, tmp_path):
    from blurapp.core.engines import engine_names
    from blurapp.core.platforms import PLATFORMS

    run = blurapp("compare", *options, cwd=tmp_path)
    said = error.format(engines=", ".join(engine_names()), platforms="/".join(PLATFORMS))
    assert usage_error_lines(run, "blurapp compare")[0] == f"blurapp compare: error: {said}"
    assert not any(tmp_path.iterdir())


def test_a_command_mistyped_is_named_with_the_command_meant(photo, tmp_path):
    run = blurapp("compar", photo, cwd=tmp_path)
    assert usage_error_lines(run, "blurapp")[0] == (
        "blurapp: error: 'compar' is not a command; did you mean 'compare'?"
    )


def _without_a_screen():
    hidden = {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}
    return {name: value for name, value in os.environ.items() if name not in hidden}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a screen is told by DISPLAY")
def test_a_word_that_is_neither_a_command_nor_a_file_is_said_before_the_missing_screen(tmp_path):
    run = blurapp("frobnicate", cwd=tmp_path, env=_without_a_screen())
    assert usage_error_lines(run, "blurapp")[0] == (
        "blurapp: error: 'frobnicate' is neither a command (compare, blur, batch, bench) nor a "
        "file that exists"
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a screen is told by DISPLAY")
def test_a_photo_that_exists_is_for_the_window_even_without_a_screen(photo, tmp_path):
    run = blurapp(photo, cwd=tmp_path, env=_without_a_screen())
    assert run.returncode == 1
    assert run.stderr.startswith("error: no screen to open the window on"), run.stderr
    assert len(run.stderr.splitlines()) == 1, run.stderr


@pytest.mark.slow
def test_bench_json_on_small_sizes():
    run = blurapp_in_process(
        "bench",
        "--json",
        "--sections",
        "engines",
        "--megapixels",
        "0.01",
        "0.02",
        "--kernel-sizes",
        "3",
        "9",
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["machine"]["cores"] >= 1
    rows = report["results"]
    assert [
        (round(r["megapixels"], 2), r["kernel"]["size"])
        for r in rows
        if r["kernel"]["algorithm"] == "2d"
    ] == [
        (0.01, 3),
        (0.01, 9),
        (0.02, 3),
        (0.02, 9),
    ]
    for row in rows:
        numpy, jax, eager = row["numpy"], row["jax"], row["jax_eager"]
        assert numpy["seconds"] > 0 and jax["seconds"] > 0 and eager["seconds"] > 0
        # Round by round where the engines shared enough timing rounds (the median, inside its
        # middle half), else the ratio of their medians (blurapp.core.measuring.comparison).
        if row["speedup_spread"] is None:
            assert row["speedup"] == pytest.approx(numpy["seconds"] / jax["seconds"])
        else:
            low, high = row["speedup_spread"]
            assert low <= row["speedup"] <= high
        assert row["max_abs_diff"] <= 1e-5 and eager["max_abs_diff"] <= 1e-5
        assert len(eager["seconds_all"]) == 1  # op by op is slow: timed once


@pytest.mark.slow
def test_bench_table_prints_a_row_per_case():
    run = blurapp_in_process(
        "bench", "--sections", "engines", "--megapixels", "0.01", "--kernel-sizes", "3", "5"
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("machine: ")
    assert "NumPy ms" in lines[2] and "eager ms" in lines[2] and "JAX 1st ms" in lines[2]
    assert lines[3].strip().startswith("(medians of interleaved steady calls")
    assert "end-to-end" in lines[2] and "(IQR)" in lines[2]
    assert len(lines) == 9 and "3×3" in lines[5] and "5×5" in lines[7]
    assert "2d" in lines[5] and "separable" in lines[6]


@pytest.mark.slow
def test_compare_separable_json(photo):
    run = blurapp_in_process("compare", photo, "--algorithm", "separable", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    # 9 along the rows, 9 down the columns.
    assert data["kernel"] == {
        "size": 9,
        "sigma": 2.5,
        "algorithm": "separable",
        "multiply_adds_per_pixel": 18,
    }
    assert data["max_abs_diff"] <= 1e-5


def test_unknown_algorithm_is_a_usage_error():
    run = blurapp_in_process("compare", "--algorithm", "fft")
    assert run.returncode == 2 and "invalid choice: 'fft'" in run.stderr
    assert_no_traceback(run)


@pytest.mark.slow
def test_a_second_launch_loads_the_compiled_blur_from_the_cache(photo, tmp_path):
    import os

    env = {**os.environ, "BLURAPP_CACHE_DIR": str(tmp_path / "cache")}

    def first_call():
        run = subprocess.run(
            [sys.executable, "-m", "blurapp", "compare", str(photo), "--json"],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
        )
        assert run.returncode == 0, run.stderr
        return json.loads(run.stdout)["jax"]

    first, second = first_call(), first_call()
    assert first["compilation"] == "compiled"
    assert second["compilation"] == "from cache"
    assert any((tmp_path / "cache" / "jax-compilation").iterdir())


@pytest.mark.slow
def test_bench_rows_cover_both_algorithms():
    run = blurapp_in_process(
        "bench", "--json", "--sections", "engines", "--megapixels", "0.01", "--kernel-sizes", "5"
    )
    assert run.returncode == 0, run.stderr
    rows = json.loads(run.stdout)["results"]
    assert [r["kernel"]["algorithm"] for r in rows] == ["2d", "separable"]


@pytest.mark.parametrize("command", [["compare"], ["blur", "-o", "out.png"]])
@pytest.mark.parametrize("sigma", ["20", "1e300", "1e308"])
def test_a_sigma_beyond_the_range_is_a_short_usage_error(command, sigma, tmp_path):
    run = blurapp_in_process(*command, "--kernel-size", "auto", "--sigma", sigma, cwd=tmp_path)
    error, _ = usage_error_lines(run, f"blurapp {command[0]}")
    assert f"sigma must be between 0.1 and 16.5, not {float(sigma):g}" in error
    assert len(error) < 200  # no 300-digit size
    assert_no_traceback(run)
    assert not (tmp_path / "out.png").exists()


@pytest.mark.slow
def test_bench_reports_the_yardsticks_the_first_call_and_memory_on_small_images():
    run = blurapp(
        "bench", "--json", "--sections", "yardsticks", "first-call", "memory",
        "--probe-megapixels", "0.5", "--big-megapixels", "1", "--repeat", "1",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    yard = report["yardsticks"]
    assert all(
        yard["entries"][key]["median_seconds"] > 0 for key in ("numpy_2d", "jax_2d", "jax_copy")
    )
    for launch in report["first-call"].values():
        assert launch["first_launch"] == "compiled" and launch["second_launch"] == "from cache"
        assert launch["ratio"] == pytest.approx(
            launch["second_launch_seconds"] / launch["first_launch_seconds"]
        )
    memory = report["memory"]
    assert memory["compare_peak_bytes"] > 50e6 and memory["big_peak_bytes"] > 50e6
    # Their floor, from the same run: JAX alone on its device, which the comparisons hold too.
    assert 0 < memory["jax_alone_peak_bytes"] <= memory["compare_peak_bytes"]


@pytest.mark.slow
def test_bench_reports_the_startup_and_the_window_on_small_images(tmp_path, monkeypatch):
    # The windows and commands it launches keep their settings, caches and logs out of the
    # user's folders, XDG's and BlurApp's own.
    user = tmp_path / "user"
    for variable in (
        "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
        "BLURAPP_CONFIG_DIR", "BLURAPP_CACHE_DIR", "BLURAPP_STATE_DIR",
    ):  # fmt: skip
        (user / variable).mkdir(parents=True)
        monkeypatch.setenv(variable, str(user / variable))  # the user's own, for this test
    monkeypatch.setenv("HOME", str(user))
    run = blurapp(
        "bench", "--json", "--sections", "startup", "window", "first-call", "memory",
        "--probe-megapixels", "0.5", "--big-megapixels", "0.5", "--repeat", "1",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    # Nothing but the log of the bench itself, the user's own command.
    files = [path for path in user.rglob("*") if path.is_file()]
    assert files in ([], [user / "BLURAPP_STATE_DIR" / "blurapp.log"]), files
    report = json.loads(run.stdout)
    startup = report["startup"]
    assert startup["window_shown_seconds"] > 0 and startup["version_seconds"] > 0
    assert startup["runs"] == 1
    assert startup["jax_imported_before_shown"] is False
    # The yardsticks beside it: a bare PySide6 window, alone and after NumPy's import.
    assert startup["bare_window_seconds"] > 0 and startup["bare_window_with_numpy_seconds"] > 0
    # And the event loop's longest stall once the window was shown, until the photo was shown
    # and JAX had started: both figures a start on an accelerator is judged by.
    assert startup["longest_stall_after_shown_seconds"] >= 0
    rows = {row["what"]: row for row in figure_rows({"startup": startup}, [])}
    assert rows["window shown after launch"]["unit"] == "ms"
    stall = rows["longest stall after shown"]
    assert stall["value"] == pytest.approx(
        startup["longest_stall_after_shown_seconds"] * 1000, rel=1e-3
    )
    assert "longest stall" in "\n".join(section_lines("startup", startup))
    window = report["window"]
    assert window["megapixels"] == pytest.approx(0.5, rel=0.01)
    assert (
        window["longest_stall_seconds"] is not None
        and window["longest_stall_after_shown_seconds"] is not None
        and window["result_to_both_panes_painted_seconds"] > 0
    )
    assert set(window["engine_result_to_pane_painted_seconds"]) == {"numpy", "jax"}


def test_the_window_start_check_is_an_option_the_help_names():
    from blurapp.cli import build_window_parser

    assert "--exit-when-shown" in build_window_parser().format_help()


def _restart_as_a_linux_command(monkeypatch, execv):
    """From now until the test ends, blurapp.start restarts `blurapp compare x.png` on a Linux
    whose glibc has huge pages, calling `execv` in place of replacing the test's process."""
    from blurapp import start

    monkeypatch.setattr(start.os, "execv", execv)
    monkeypatch.setattr(start.sys, "platform", "linux")
    monkeypatch.setattr(start, "_glibc_knows_huge_pages", lambda: True)
    monkeypatch.setattr(start.sys, "orig_argv", ["python", "-m", "blurapp", "compare", "x.png"])
    monkeypatch.setattr(start.sys, "argv", ["blurapp", "compare", "x.png"])
    for name in (
        "BLURAPP_HUGE_PAGES",
        "BLURAPP_RESTARTED_WITH",
        "GLIBC_TUNABLES",
        "MALLOC_MMAP_THRESHOLD_",
        "MALLOC_TRIM_THRESHOLD_",
        "MALLOC_ARENA_MAX",
    ):
        monkeypatch.delenv(name, raising=False)


def test_the_command_restarts_once_with_huge_pages_for_large_buffers(monkeypatch):
    from blurapp import start

    restarts = []

    def execv(program, arguments):
        restarts.append((program, list(arguments), os.environ["GLIBC_TUNABLES"]))

    seem_to_have_libtpu(monkeypatch, False)
    _restart_as_a_linux_command(monkeypatch, execv)
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.arena_max=2")
    start.restart_with_memory_settings()
    assert restarts == [
        (
            sys.executable,
            ["python", "-m", "blurapp", "compare", "x.png"],
            "glibc.malloc.arena_max=2:" + HUGE + ":" + MEDIUM_MMAP + ":" + TRIM,
        )
    ]
    start.restart_with_memory_settings()  # set now: no second restart
    assert len(restarts) == 1
    monkeypatch.delenv("GLIBC_TUNABLES")
    # Code given to Python itself would run twice (-c) or be gone (stdin): no restart.
    for started in (["python", "-c", "..."], ["python", "-"], ["python"]):
        monkeypatch.setattr(start.sys, "orig_argv", started)
        start.restart_with_memory_settings()
    monkeypatch.setattr(start.sys, "orig_argv", ["python", "-m", "blurapp", "--version"])
    monkeypatch.setattr(start.sys, "argv", ["blurapp", "--version"])
    start.restart_with_memory_settings()
    monkeypatch.setattr(start.sys, "argv", ["blurapp", "compare"])
    monkeypatch.setenv("BLURAPP_HUGE_PAGES", "0")
    start.restart_with_memory_settings()
    assert len(restarts) == 1


def test_a_restart_whose_settings_glibc_dropped_does_not_start_again(monkeypatch):
    # A set-user-ID Python's glibc cleans GLIBC_TUNABLES away before the command starts: the
    # restarted command finds none, and runs without rather than restarting forever.
    from blurapp import start

    restarts = []
    seem_to_have_libtpu(monkeypatch, False)
    _restart_as_a_linux_command(
        monkeypatch, lambda program, arguments: restarts.append(os.environ["GLIBC_TUNABLES"])
    )
    start.restart_with_memory_settings()
    on_a_cpu = HUGE + ":" + MEDIUM_MMAP + ":" + TRIM
    assert restarts == [on_a_cpu]
    monkeypatch.delenv("GLIBC_TUNABLES")  # what such a glibc hands the restarted command
    start.restart_with_memory_settings()
    assert restarts == [on_a_cpu]
    # Settings of its own the user changed since (a command it starts, say) restart it anew.
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.arena_max=2")
    start.restart_with_memory_settings()
    assert restarts[-1] == "glibc.malloc.arena_max=2:" + on_a_cpu


HUGE = "glibc.malloc.hugetlb=1"
MMAP = "glibc.malloc.mmap_threshold=2147483648"
MEDIUM_MMAP = "glibc.malloc.mmap_threshold=33554432"
TRIM = "glibc.malloc.trim_threshold=4294967296"
ARENA = "glibc.malloc.arena_max=1"


@pytest.mark.parametrize(
    ("platforms", "older", "expected"),
    [
        # JAX will open the TPU: freed blocks are kept too.
        (None, {}, HUGE + ":" + MMAP + ":" + TRIM + ":" + ARENA),
        ("tpu", {}, HUGE + ":" + MMAP + ":" + TRIM + ":" + ARENA),
        # A user's own setting of one, by glibc's older variable or by its tunable, is kept:
        # not added; nor is their huge pages turned off.
        (None, {"MALLOC_MMAP_THRESHOLD_": "65536"}, HUGE + ":" + TRIM + ":" + ARENA),
        (None, {"MALLOC_ARENA_MAX": "4"}, HUGE + ":" + MMAP + ":" + TRIM),
        (
            None,
            {"GLIBC_TUNABLES": "glibc.malloc.mmap_threshold=65536:"},
            "glibc.malloc.mmap_threshold=65536:" + HUGE + ":" + TRIM + ":" + ARENA,
        ),
        (
            None,
            {"GLIBC_TUNABLES": "glibc.malloc.hugetlb=0"},
            "glibc.malloc.hugetlb=0:" + MMAP + ":" + TRIM + ":" + ARENA,
        ),
        # JAX on the host's CPU alone: huge pages, and freed blocks of a clip's frame's size
        # kept, as on any machine without a TPU.
        ("cpu", {}, HUGE + ":" + MEDIUM_MMAP + ":" + TRIM),
    ],
)
def test_where_jax_will_open_a_tpu_the_restart_keeps_freed_memory_for_reuse(
    monkeypatch, platforms, older, expected
):
    from blurapp import start

    restarts = []
    seem_to_have_libtpu(monkeypatch, True)
    _restart_as_a_linux_command(
        monkeypatch, lambda program, arguments: restarts.append(os.environ["GLIBC_TUNABLES"])
    )
    if platforms is None:
        monkeypatch.delenv("JAX_PLATFORMS", raising=False)
    else:
        monkeypatch.setenv("JAX_PLATFORMS", platforms)
    for name, value in older.items():
        monkeypatch.setenv(name, value)
    start.restart_with_memory_settings()
    assert restarts == [expected]
    start.restart_with_memory_settings()  # all set now: no second restart
    assert restarts == [expected]


def _platforms_there() -> list[str]:
    from blurapp.core.engines.jax_runtime import jax_platforms

    return jax_platforms()


def _no_device_line(platform: str) -> str:
    return f"JAX has no {platform} device here (it has: {', '.join(_platforms_there())})"


@pytest.mark.parametrize(
    ("engines", "device"),
    [
        ("numpy,jax", "gpu"),
        ("jax", "gpu"),
        ("numpy,jax@gpu,jax-eager@gpu", None),
        ("numpy,jax", "tpu"),
        ("numpy,jax@tpu", None),
        ("numpy,jax@tpu,jax-eager@tpu", None),
    ],
)
def test_compare_on_an_accelerator_there_is_not_is_an_error(photo, engines, device):
    platform = device or engines.rpartition("@")[2]
    chosen = ["--device", device] if device else []
    run = blurapp_in_process("compare", photo, "--engines", engines, *chosen, "--repeat", "1")
    assert_no_traceback(run)
    if platform in _platforms_there():
        assert run.returncode == 0, run.stderr
        return
    assert run.returncode == 1
    assert run.stdout == ""
    # The last line: a CUDA-less jaxlib on a machine with a driver warns before it.
    assert run.stderr.splitlines()[-1] == f"error: {_no_device_line(platform)}"
    assert "WARNING" not in run.stderr


def test_compare_with_one_jax_engine_that_runs_keeps_the_figures(photo):
    # jax@cpu runs; jax@gpu's reason is in the figures, as a line of its own, not a failure.
    run = blurapp_in_process(
        "compare", photo, "--engines", "numpy,jax@cpu,jax@gpu", "--repeat", "1"
    )
    assert run.returncode == 0, run.stderr
    if "gpu" not in _platforms_there():
        assert f"unavailable: {_no_device_line('gpu')}" in run.stdout
        assert f"warning: {_no_device_line('gpu')}" in run.stderr.splitlines()


@pytest.mark.slow
def test_bench_startup_gives_up_on_a_launch_that_never_says_its_window_is_shown():
    """A launch that hangs before its window is shown, or after, is stopped and counted as
    failed, not waited for; one that says "shown" and exits is timed."""
    import time

    import blurapp.bench as bench

    env = dict(os.environ)
    start = time.perf_counter()
    hangs = [sys.executable, "-c", "import time; time.sleep(60)"]
    assert bench._shown_after(hangs, env, timeout=1.0) is None
    hangs_after = [sys.executable, "-c", "print('shown', flush=True); import time; time.sleep(60)"]
    assert bench._shown_after(hangs_after, env, timeout=1.0) is None
    assert time.perf_counter() - start < 30
    said = bench._shown_after([sys.executable, "-c", "print('shown', flush=True)"], env)
    assert said is not None and said[0] > 0 and said[1].startswith("shown")


def test_bench_startup_lets_its_launches_write_python_s_compiled_modules(tmp_path):
    """Where the environment forbids writing Python's compiled modules, bench's launches get
    a folder of the bench's own for them, as an installed BlurApp has its own; elsewhere the
    environment is left as it is."""
    import blurapp.bench as bench

    env = {"XDG_CACHE_HOME": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1", "PATH": "/bin"}
    launched = bench._with_bytecode(env)
    assert "PYTHONDONTWRITEBYTECODE" not in launched and launched["PATH"] == "/bin"
    assert launched["PYTHONPYCACHEPREFIX"] == str(tmp_path / "bytecode")
    assert env["PYTHONDONTWRITEBYTECODE"] == "1"  # the caller's own is not changed
    child = bench._with_bytecode({**os.environ, **env, "PATH": os.environ["PATH"]})
    run = subprocess.run([sys.executable, "-c", "import blurapp.core.report.figures"], env=child)
    assert run.returncode == 0 and list((tmp_path / "bytecode").rglob("figures*.pyc"))
    plain = {"XDG_CACHE_HOME": str(tmp_path)}
    assert bench._with_bytecode(plain) == plain
