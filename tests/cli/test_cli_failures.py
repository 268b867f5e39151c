"""The command line when things go wrong: signals, full disks, odd names, its own input as
output, memory. Each ends in one `error:` line and an exit status, never a traceback, and
never a damaged or stray file."""

import json
import logging
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from helpers.command_line import blurapp_in_process
from helpers.photos import photo_file
from PIL import Image

from blurapp import cli
from blurapp.core.media.saving import OUTPUT_FORMATS

BLURAPP = (sys.executable, "-m", "blurapp")


def blurapp(*args, cwd=None, env=None):
    return subprocess.run(
        [sys.executable, "-m", "blurapp", *args],
        capture_output=True,
        timeout=300,
        cwd=cwd,
        env=env,
    )


def text(stream: bytes | str) -> str:
    """A launch's output (bytes) or a call's (text), as text."""
    return stream if isinstance(stream, str) else stream.decode("utf-8", "replace")


def assert_one_error_line(run, *words):
    stderr = text(run.stderr)
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, stderr
    for word in words:
        assert word in errors[0], stderr
    assert "Traceback" not in stderr and "Logging error" not in stderr


@pytest.fixture
def photo(tmp_path):
    return photo_file(tmp_path, size=(45, 30), seed=2)


def test_blur_says_which_file_it_wrote(photo, tmp_path):
    out = tmp_path / "blurred.png"
    run = blurapp_in_process("blur", str(photo), "-o", str(out))
    assert run.returncode == 0, text(run.stderr)
    assert text(run.stdout) == f"wrote {out} in grey (--color keeps the colour)\n"


def test_outputs_say_what_made_them(photo, tmp_path):
    out = tmp_path / "blurred.png"
    run = blurapp_in_process(
        "blur", str(photo), "-o", str(out), "--kernel-size", "7", "--sigma", "1.5"
    )
    assert run.returncode == 0, text(run.stderr)
    with Image.open(out) as written:
        assert written.text["engine"] == "numpy"
        assert written.text["kernel size"] == "7" and written.text["sigma"] == "1.5"
        assert written.text["algorithm"] == "2d"
        assert written.text["Software"].startswith("BlurApp ")


@pytest.mark.parametrize("spelling", ["same", "relative", "link"])
def test_blur_never_writes_over_its_own_photo(photo, tmp_path, spelling):
    before = photo.read_bytes()
    if spelling == "same":
        target = str(photo)
    elif spelling == "relative":
        target = f"./{photo.name}"
    else:
        (tmp_path / "link.png").symlink_to(photo)
        target = str(tmp_path / "link.png")
    run = blurapp_in_process("blur", str(photo), "-o", target, cwd=tmp_path)
    assert run.returncode == 1
    assert_one_error_line(run, "the photo being blurred")
    assert photo.read_bytes() == before


def test_compare_never_writes_over_its_own_photo(tmp_path):
    photo = tmp_path / "numpy.png"
    Image.fromarray(np.full((8, 8), 90, np.uint8)).save(photo)
    before = photo.read_bytes()
    run = blurapp_in_process("compare", str(photo), "--out-dir", str(tmp_path))
    assert run.returncode == 1
    assert_one_error_line(run, "numpy.png", "the photo being blurred")
    assert photo.read_bytes() == before
    assert not (tmp_path / "jax.npy").exists()  # refused before any work


def test_a_name_too_long_for_the_file_system_is_a_clean_error(photo, tmp_path):
    out = tmp_path / ("n" * 300 + ".png")
    run = blurapp_in_process("blur", str(photo), "-o", str(out))
    assert run.returncode == 1
    assert_one_error_line(run, "too long")


def test_the_longest_legal_name_is_written(photo, tmp_path):
    # The temporary file beside it has a short name of its own, so 255 bytes still work.
    out = tmp_path / ("n" * 251 + ".png")
    run = blurapp_in_process("blur", str(photo), "-o", str(out))
    assert run.returncode == 0, text(run.stderr)
    assert out.is_file()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


def test_unknown_output_formats_list_every_accepted_one(photo, tmp_path):
    run = blurapp_in_process("blur", str(photo), "-o", str(tmp_path / "out.gif"))
    assert run.returncode == 1
    assert_one_error_line(run, "unknown output format", ", ".join(OUTPUT_FORMATS))
    assert ".webp" in OUTPUT_FORMATS


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_while_writing_leaves_no_temporary_file(photo, tmp_path, signum):
    # The signal arrives when half the output is written, every time: no race to lose.
    out = tmp_path / "out.npy"
    # The child meets SIGINT as a command typed at a terminal does (Python's KeyboardInterrupt),
    # even when these tests were started with it ignored, as a background job is: it would
    # inherit the ignoring, which blurapp keeps, as programs do for the job's starter.
    script = textwrap.dedent(
        f"""
        import os, signal, sys
        signal.signal(signal.SIGINT, signal.default_int_handler)
        import blurapp.core.media.saving as saving

        real = saving.write_atomically

        def interrupted(path, write):
            def half_then_signal(file):
                file.write(b"half of the output")
                file.flush()
                os.kill(os.getpid(), {int(signum)})
                write(file)
            real(path, half_then_signal)

        saving.write_atomically = interrupted
        from blurapp.cli import main
        sys.exit(main(["blur", {str(photo)!r}, "-o", {str(out)!r}]))
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, timeout=300, cwd=tmp_path
    )
    assert run.returncode == 128 + signum, text(run.stderr)
    assert_one_error_line(run)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["street.png"]


@pytest.mark.slow
def test_a_full_output_is_a_clean_error():
    with open("/dev/full", "w") as full:
        run = subprocess.run(
            [sys.executable, "-m", "blurapp", "compare", "--json", "--repeat", "1"],
            stdout=full,
            stderr=subprocess.PIPE,
            timeout=300,
        )
    assert run.returncode == 1
    assert_one_error_line(run, "cannot write the output", "No space left on device")
    assert "Exception ignored" not in text(run.stderr)


def test_a_log_file_that_cannot_be_written_warns_once(tmp_path, monkeypatch, capsys):
    from blurapp.logs import configure_logging

    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "blurapp.log").symlink_to("/dev/full")  # every write fails: a full disk
    monkeypatch.setenv("BLURAPP_STATE_DIR", str(state))
    configure_logging()
    try:
        for number in range(5):
            logging.getLogger("blurapp").warning("warning number %d", number)
    finally:
        monkeypatch.undo()
        configure_logging()  # leave a working log behind (the test run's own state folder)
    stderr = capsys.readouterr().err
    assert stderr.count("cannot write the log file") == 1
    assert "Logging error" not in stderr
    assert stderr.count("warning number") == 5  # the terminal still gets every one


NOT_UTF8 = b"caf\xe9.png"


@pytest.fixture
def not_utf8_photo(tmp_path):
    path = os.path.join(os.fsencode(tmp_path), NOT_UTF8)
    Image.fromarray(np.full((6, 9), 120, np.uint8)).save(os.fsdecode(path), format="PNG")
    return path


@pytest.mark.slow
def test_a_name_that_is_not_utf8_prints_on_a_strict_terminal(not_utf8_photo):
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    run = subprocess.run(
        [sys.executable, "-m", "blurapp", "compare", not_utf8_photo, "--repeat", "1"],
        capture_output=True,
        timeout=300,
        env=env,
    )
    assert run.returncode == 0, text(run.stderr)
    stdout = run.stdout.decode("utf-8")  # strictly: valid UTF-8
    assert "caf\ufffd.png" in stdout
    as_json = subprocess.run(
        [sys.executable, "-m", "blurapp", "compare", not_utf8_photo, "--json", "--repeat", "1"],
        capture_output=True,
        timeout=300,
        env=env,
    )
    assert json.loads(as_json.stdout)["image"]["path"].endswith("caf\ufffd.png")


def test_a_bad_file_whose_name_is_not_utf8_is_one_clean_error(tmp_path):
    missing = os.path.join(os.fsencode(tmp_path), NOT_UTF8)
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"}
    run = subprocess.run(
        [sys.executable, "-m", "blurapp", "compare", missing],
        capture_output=True,
        timeout=300,
        env=env,
    )
    assert run.returncode == 1
    assert_one_error_line(run, "caf\ufffd.png", "no such file")


def test_a_newline_in_a_file_name_stays_on_the_error_line(tmp_path):
    run = blurapp_in_process("compare", str(tmp_path / "two\nlines.png"))
    assert run.returncode == 1
    assert_one_error_line(run, "two\\nlines.png", "no such file")
    assert len(text(run.stderr).strip().splitlines()) == 1


def test_a_comparison_that_runs_out_of_memory_is_a_clean_error(photo, monkeypatch, capsys):
    import blurapp.cli.compare

    def too_big(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(blurapp.cli.compare, "compare_engines", too_big)
    assert cli.main(["compare", str(photo)]) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        f"error: {photo}: not enough memory to compare the engines on this photo"
    )


def test_a_kernel_that_cuts_the_gaussian_short_gets_a_note(photo, tmp_path):
    out = tmp_path / "boxy.npy"
    run = blurapp_in_process(
        "blur", str(photo), "-o", str(out), "--kernel-size", "11", "--sigma", "9"
    )
    assert run.returncode == 0
    assert "note: the 11 × 11 kernel reaches only 0.56σ" in text(run.stderr)
    quiet = blurapp_in_process("blur", str(photo), "-o", str(out))  # the tutorial's 9 × 9 at 2.5
    assert "note:" not in text(quiet.stderr)


def test_an_output_folder_name_too_long_is_a_clean_error(photo, tmp_path):
    run = blurapp_in_process("compare", str(photo), "--out-dir", str(tmp_path / ("f" * 300)))
    assert run.returncode == 1
    assert_one_error_line(run, "File name too long")


def test_an_output_folder_that_is_a_file_is_refused_before_the_work(photo, tmp_path):
    taken = tmp_path / "outputs"
    taken.write_text("notes")
    run = blurapp_in_process("compare", str(photo), "--out-dir", str(taken))
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr == f"error: {taken}: the output folder is a file\n"
    assert taken.read_text() == "notes"


@pytest.mark.slow
def test_a_full_output_is_a_clean_error_for_the_bench_too():
    tiny = ("--megapixels", "0.01", "--kernel-sizes", "3", "--algorithms", "2d")
    with open("/dev/full", "w") as full:
        run = subprocess.run(
            [*BLURAPP, "bench", "--sections", "engines", "--json", *tiny],
            stdout=full,
            stderr=subprocess.PIPE,
            timeout=300,
        )
    assert run.returncode == 1
    assert_one_error_line(run, "cannot write the output", "No space left on device")


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_a_terminal_that_cannot_show_every_character_gets_replacements(not_utf8_photo, encoding):
    env = {**os.environ, "PYTHONIOENCODING": f"{encoding}:strict"}
    run = subprocess.run(
        [sys.executable, "-m", "blurapp", "compare", not_utf8_photo, "--repeat", "1"],
        capture_output=True,
        timeout=300,
        env=env,
    )
    assert run.returncode == 0, text(run.stderr)
    assert "Traceback" not in text(run.stderr)
    assert "caf?.png" in run.stdout.decode(encoding)
