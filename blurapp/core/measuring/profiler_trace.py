"""A JAX profiler trace of a comparison's steady calls (`blurapp compare --trace DIR`, the
window's Run ▸ Record Profiler Trace…): what JAX-jit's blur does on its device call by call, to
open in Perfetto or TensorBoard.

jax.profiler writes it with nothing beyond JAX itself: under DIR/plugins/profile/<run>/, the
raw trace (HOST.xplane.pb, TensorBoard's profile plugin reads it) and the same events as Chrome
trace JSON (HOST.trace.json.gz), plus perfetto_trace.json.gz, that JSON as ui.perfetto.dev takes
it. Only the steady calls are recorded (the warm-up call and the timed ones), never the first
call, whose compilation would fill the trace; each steady call is labelled with its engine.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TypeVar

from blurapp.core.engines.jax_engine import import_jax
from blurapp.core.engines.runs import BlurCancelled
from blurapp.core.wording import QT_TRANSLATE_NOOP, FileProblem, Translate, display_path, english

Result = TypeVar("Result")

# The translators' context of WrittenTrace's words (a TraceError's are FileProblem's).
CONTEXT = "ProfilerTrace"
PERFETTO_FILE = "perfetto_trace.json.gz"  # the trace as ui.perfetto.dev opens it


class TraceError(FileProblem):
    """The trace could not be recorded or written; the message names the folder."""


def make_trace_folder(folder: Path) -> None:
    """Make `folder` (and the folders above it) for a trace, before the work rather than after
    it: TraceError, naming it, when it cannot be made or written in."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # a file there or above it, no permission, a name too long
        raise TraceError(
            folder,
            QT_TRANSLATE_NOOP(
                "FileProblem", "cannot make the folder for the profiler trace ({reason})"
            ),
            reason=error.strerror or error,
        ) from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise TraceError(
            folder,
            QT_TRANSLATE_NOOP("FileProblem", "cannot write the profiler trace in this folder"),
        )


@dataclass(frozen=True)
class WrittenTrace:
    """Where a trace was recorded: the folder asked for, and the run folder jax.profiler wrote
    in it (None: it wrote nothing)."""

    folder: Path
    run_folder: Path | None

    def words(self, translate: Translate = english) -> str:
        """Where the trace went, and what opens it: the one wording of the command line's
        line and the window's status bar (`translate`: the window's, in context CONTEXT)."""
        if self.run_folder is None:
            return translate(
                QT_TRANSLATE_NOOP("ProfilerTrace", "trace: nothing was written to {folder}")
            ).format(folder=display_path(self.folder))
        return translate(
            QT_TRANSLATE_NOOP(
                "ProfilerTrace",
                "trace: {run_folder} (the steady calls; open {perfetto} in ui.perfetto.dev, "
                "or run: tensorboard --logdir {folder})",
            )
        ).format(
            run_folder=display_path(self.run_folder),
            perfetto=PERFETTO_FILE,
            folder=display_path(self.folder),
        )


def _runs(folder: Path) -> set[Path]:
    """The run folders jax.profiler has written under `folder` so far."""
    runs = folder / "plugins" / "profile"
    return {path for path in runs.iterdir() if path.is_dir()} if runs.is_dir() else set()


class SteadyTrace:
    """jax.profiler's trace into `folder` of what runs while it is entered (compare enters it
    around the steady calls alone); `run_folder` and `files` say what it wrote, once exited."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self.run_folder: Path | None = None
        self._before: set[Path] = set()

    def label(self, name: str, call: Callable[[], Result]) -> Callable[[], Result]:
        """`call`, each of its calls marked in the trace as `name`: what a steady call of an
        engine spans (its copies and its blur) on the Python thread's line."""
        annotation = import_jax().profiler.TraceAnnotation

        def labelled() -> Result:
            with annotation(name):
                return call()

        return labelled

    def __enter__(self) -> SteadyTrace:
        jax = import_jax()
        self._before = _runs(self.folder)
        extra = {}
        if hasattr(jax.profiler, "ProfileOptions"):
            options = jax.profiler.ProfileOptions()
            # No Python tracer: it hooks every Python call, and would slow NumPy's tap loop
            # (and the figures timed meanwhile) for events of Python frames nobody reads here.
            options.python_tracer_level = 0
            extra["profiler_options"] = options
        try:
            jax.profiler.start_trace(self.folder, create_perfetto_trace=True, **extra)
        except RuntimeError as error:  # another trace is running in this process
            raise TraceError(
                self.folder,
                QT_TRANSLATE_NOOP("FileProblem", "cannot start the profiler trace ({reason})"),
                reason=error,
            ) from None
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        try:
            import_jax().profiler.stop_trace()
        except (OSError, RuntimeError, ValueError) as problem:
            if error is None:
                raise TraceError(
                    self.folder,
                    QT_TRANSLATE_NOOP("FileProblem", "cannot write the profiler trace ({reason})"),
                    reason=problem,
                ) from None
            # The comparison's own error says more; a cancelled one's partial trace still goes.
        new = _runs(self.folder) - self._before
        if isinstance(error, BlurCancelled):
            # A cancelled run's trace holds only some of its calls: not left to be read beside
            # whole ones (tensorboard --logdir lists every run in the folder). Only the run
            # folders this trace made go.
            for run in new:
                if not run.is_symlink():
                    shutil.rmtree(run, ignore_errors=True)
            return
        if error is None:
            self.run_folder = max(new, key=lambda path: path.stat().st_mtime) if new else None

    @property
    def written(self) -> WrittenTrace:
        """Where it was recorded (its run folder None before it is exited)."""
        return WrittenTrace(self.folder, self.run_folder)

    @property
    def files(self) -> list[Path]:
        """The files of the trace written, by name (none before it is)."""
        if self.run_folder is None:
            return []
        return sorted(path for path in self.run_folder.iterdir() if path.is_file())
