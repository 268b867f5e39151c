"""Run ▸ Record Profiler Trace…: the run Run makes, with a JAX profiler trace of its steady
calls in a folder the user picks, and the status bar saying where it went and what opens it
(the trace itself as `blurapp compare --trace` writes it: tests/cli/test_cli.py)."""

import gzip
import json

import numpy as np
import pytest
from helpers.window import RUN_TIMEOUT_MS, jax_settled, jobs_done
from PySide6.QtWidgets import QFileDialog

from blurapp.core.media.clip import FramesInMemory


def answer_folder(monkeypatch, folder):
    """The folder dialog answers `folder` (as the user picking it would); what it was asked."""
    asked = []

    def choose(parent, caption, start, *args, **kwargs):
        asked.append(caption)
        return str(folder)

    monkeypatch.setattr(QFileDialog, "getExistingDirectory", choose)
    return asked


def steady_events(run_folder):
    """The events of the raw trace in `run_folder`, read with jax.profiler's own reader."""
    import jax.profiler

    [xplane] = run_folder.glob("*.xplane.pb")
    profile = jax.profiler.ProfileData.from_file(str(xplane))
    return [
        (event.name, dict(event.stats))
        for plane in profile.planes
        for line in plane.lines
        for event in line.events
    ]


@pytest.mark.slow
def test_record_profiler_trace_runs_the_comparison_and_says_where_the_trace_is(
    make_window, qtbot, tmp_path, monkeypatch
):
    window = make_window()
    jax_settled(qtbot, window)
    folder = tmp_path / "traces" / "coffee"  # made by the action: it is not there yet
    asked = answer_folder(monkeypatch, folder)
    assert window.actions.trace.text() == "Record Profiler &Trace…"
    assert window.actions.trace.isEnabled()
    with qtbot.waitSignal(window.display.results_shown, timeout=RUN_TIMEOUT_MS) as shown:
        window.actions.trace.trigger()
    assert len(asked) == 1
    result = shown.args[0]
    assert set(result.runs) == {"numpy", "jax"}  # the run Run makes

    [run_folder] = (folder / "plugins" / "profile").iterdir()
    names = sorted(path.name for path in run_folder.iterdir())
    assert "perfetto_trace.json.gz" in names
    assert any(name.endswith(".xplane.pb") for name in names)
    # The steady calls of both engines, each labelled, JAX-jit's blur program in its own.
    events = steady_events(run_folder)
    labels = [name for name, _ in events]
    assert labels.count("jax steady call") >= 2  # the warm-up and at least one timed
    assert "numpy steady call" in labels
    assert any(stats.get("hlo_module") == "jit_blur" for _, stats in events)
    with gzip.open(run_folder / "perfetto_trace.json.gz") as file:
        perfetto = json.load(file)
    steady = [e for e in perfetto["traceEvents"] if e.get("name") == "jax steady call"]
    assert steady and all(event["dur"] > 0 for event in steady)

    status = window.widgets.status_label.text()
    assert status.startswith(
        f"trace: {run_folder} (the steady calls; open perfetto_trace.json.gz in "
        f"ui.perfetto.dev, or run: tensorboard --logdir {folder})"
    )
    assert "Done: " in status  # and the run's figures, as after Run
    assert not window.controller.is_running()


def test_a_trace_folder_that_cannot_be_made_is_named_and_the_window_stays_up(
    make_window, qtbot, tmp_path, monkeypatch, warnings_shown
):
    window = make_window()
    notes = tmp_path / "notes.txt"
    notes.write_text("a file, not a folder")
    folder = notes / "trace"
    answer_folder(monkeypatch, folder)
    with qtbot.waitSignal(window.display.run_failed, timeout=RUN_TIMEOUT_MS) as failed:
        window.actions.trace.trigger()
    assert str(folder) in failed.args[0]
    [(title, text)] = warnings_shown
    assert title == "Run Failed" and str(folder) in text and "profiler trace" in text
    assert window.widgets.status_label.text() == "The run failed"
    jobs_done(qtbot, window)
    assert not window.controller.is_running() and window.isVisible()
    assert not window.actions.cancel.isEnabled()  # no run left going


def test_choosing_no_folder_records_nothing(make_window, qtbot, monkeypatch):
    window = make_window()
    answer_folder(monkeypatch, "")  # the dialog cancelled
    window.actions.trace.trigger()
    assert not window.controller.is_running()


def test_the_trace_action_needs_a_photo_and_is_off_for_a_clip(make_window, qtbot, monkeypatch):
    window = make_window(wait=False)  # no photo yet
    assert not window.actions.trace.isEnabled()
    jobs_done(qtbot, window)
    window.close()

    window = make_window()
    assert window.actions.trace.isEnabled()
    frames = np.random.default_rng(0).random((4, 24, 32), dtype=np.float32)
    with qtbot.waitSignal(window.display.clip_opened, timeout=RUN_TIMEOUT_MS):
        window.controller.open_clip(FramesInMemory(frames, name="frames"))
    assert window.actions.run.isEnabled()  # Run times the clip…
    assert not window.actions.trace.isEnabled()  # …a trace is a photo's comparison only
    asked = answer_folder(monkeypatch, "/nowhere")
    window.record_trace()  # even asked directly, a clip's run is not traced
    assert asked == [] and not window.controller.is_running()


def test_the_trace_action_is_off_without_jax(make_window, qtbot):
    window = make_window()
    assert window.actions.trace.isEnabled()
    # JAX failed to start: the trace is its profiler's, so there is none to record.
    window.session.jax_failed("JAX could not be loaded: No module named 'jaxlib'")
    assert not window.actions.trace.isEnabled()
    assert window.actions.run.isEnabled()  # NumPy still runs
