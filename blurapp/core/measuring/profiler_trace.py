"""A JAX profiler trace of a comparison's steady calls (`blurapp compare --trace DIR`, the
window's Run ▸ Record Profiler Trace…): what JAX-jit's blur does on its device call by call, to
open in Perfetto or TensorBoard.

jax.profiler writes it with nothing beyond JAX itself: under DIR/plugins/profile/<run>/, the
raw trace (HOST.xplane.pb, TensorBoard's profile plugin reads it) and the same events as Chrome
trace JSON (HOST.trace.json.gz), plus perfetto_trace.json.gz, that JSON as ui.perfetto.dev takes
it. Only the steady calls are recorded (the warm-up call and the timed ones), never the first
call, whose compilation would fill the trace; each steady call is labelled with its engine.

jax.profiler names a run folder by the second it ends in and writes the Perfetto file into the
newest folder it finds, whoever made it: two traces at once would share a folder, and a run
folder dated later (copied from a machine whose clock runs ahead) would get this run's Perfetto
file. So JAX writes into a folder of this run's own beside the runs, and the run folder it
makes is moved in under a name no other run has, once whole.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TypeVar

from blurapp.core.engines.jax_runtime import import_jax
from blurapp.core.wording import (
    QT_TRANSLATE_NOOP,
    FileProblem,
    TranslateText,
    display_path,
    english,
)

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
        str(folder).encode("utf-8")
    except UnicodeEncodeError:  # bytes of another encoding, kept as surrogates by Python
        raise TraceError(
            folder,
            QT_TRANSLATE_NOOP(
                "FileProblem",
                "the profiler trace's folder must have a UTF-8 name "
                "(JAX's profiler writes no other)",
            ),
        ) from None
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

    def words(self, translate: TranslateText = english) -> str:
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


# What a run folder being written is called until it is whole: not one of TensorBoard's runs.
PARTIAL_PREFIX = ".partial-trace-"


class SteadyTrace:
    """jax.profiler's trace into `folder` of what runs while it is entered (compare_engines
    enters it around the steady calls alone); `run_folder` and `files` say what it wrote, once
    exited. However it is exited but whole (an error, a cancel, SIGTERM's exit), nothing of it
    stays."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self.run_folder: Path | None = None
        self._own: Path | None = None  # the folder JAX writes in, this run's alone

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
        make_trace_folder(self.folder)
        try:
            self._own = Path(tempfile.mkdtemp(prefix=PARTIAL_PREFIX, dir=self.folder))
        except OSError as error:
            raise TraceError(
                self.folder,
                QT_TRANSLATE_NOOP("FileProblem", "cannot write the profiler trace ({reason})"),
                reason=error.strerror or error,
            ) from None
        extra = {}
        if hasattr(jax.profiler, "ProfileOptions"):
            options = jax.profiler.ProfileOptions()
            # No Python tracer: it hooks every Python call, and would slow NumPy's tap loop
            # (and the figures timed meanwhile) for events of Python frames nobody reads here.
            options.python_tracer_level = 0
            extra["profiler_options"] = options
        try:
            jax.profiler.start_trace(self._own, create_perfetto_trace=True, **extra)
        except RuntimeError as error:  # another trace is running in this process
            self._remove_own()
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
            try:
                import_jax().profiler.stop_trace()
            except (OSError, RuntimeError, ValueError, TypeError) as problem:
                _forget_the_session()
                if error is None:
                    raise TraceError(
                        self.folder,
                        QT_TRANSLATE_NOOP(
                            "FileProblem", "cannot write the profiler trace ({reason})"
                        ),
                        reason=problem,
                    ) from None
                # The run's own error says more.
            if error is None:
                self.run_folder = self._move_in()
        finally:
            # A run that failed, was cancelled or stopped holds only some of its calls: not
            # left to be read beside whole ones (tensorboard --logdir lists every run).
            self._remove_own()

    def _move_in(self) -> Path | None:
        """The run folder JAX wrote, moved in beside the others under a name of its own."""
        assert self._own is not None
        written = self._own / "plugins" / "profile"
        made = sorted(written.iterdir()) if written.is_dir() else []
        if not made:
            return None
        run = made[0]  # the only one: the folder is this run's
        runs = self.folder / "plugins" / "profile"
        try:
            runs.mkdir(parents=True, exist_ok=True)
            place = _new_folder(runs, run.name)
        except OSError as problem:
            raise TraceError(
                self.folder,
                QT_TRANSLATE_NOOP("FileProblem", "cannot write the profiler trace ({reason})"),
                reason=problem.strerror or problem,
            ) from None
        try:
            for path in run.iterdir():
                os.replace(path, place / path.name)
        except BaseException:
            shutil.rmtree(place, ignore_errors=True)
            raise
        return place

    def _remove_own(self) -> None:
        if self._own is not None:
            shutil.rmtree(self._own, ignore_errors=True)
            self._own = None

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


def _new_folder(runs: Path, name: str) -> Path:
    """A folder made in `runs` named `name`, or `name-2`, `name-3`… when another run (of this
    machine or another) has that name: made here, so no other trace takes it meanwhile."""
    for number in range(1, 1000):
        place = runs / (name if number == 1 else f"{name}-{number}")
        try:
            place.mkdir()
            return place
        except FileExistsError:
            continue
    raise FileExistsError(f"too many run folders named {name}")


def _forget_the_session() -> None:
    """jax.profiler keeps a session whose export failed as running, and would refuse every
    later trace in this process (the window's): it is forgotten."""
    with contextlib.suppress(Exception):
        from jax._src import profiler  # private: JAX has no public way to reset it

        profiler._profile_state.reset()
