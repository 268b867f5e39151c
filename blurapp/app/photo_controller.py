"""What the main window's actions start, and what comes back, without Qt.

The window forwards a user's action (open a photo, Run, Cancel, a change the live preview
follows) to a PhotoController, which asks the Session what to do, gives the job to a runner
(blurapp.app.running.JobRunner), and takes the answers of the newest request only into the
Session; what the window must show besides (the status bar's words, the progress, a warning)
it is told through its WindowView (blurapp.app.window_view). Tests drive it with
blurapp.app.running.InlineRunner.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import cast

import numpy as np

from blurapp.app.clip_jobs import frame_job
from blurapp.app.jobs import (
    Compiling,
    EngineProgress,
    EngineResult,
    JaxStart,
    LoadedPhoto,
    Loading,
    RunOutcome,
    compare_job,
    failure_words,
    load_job,
    start_jax,
    stop_preview_job,
    warm_up_job,
)
from blurapp.app.run_records import RunPlan
from blurapp.app.running import JobHandle, JobRunner
from blurapp.app.session import Change, Newest, Session
from blurapp.app.window_view import WindowView
from blurapp.core.engines import get_engine
from blurapp.core.media.clip import ClipInfo
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.media.sample import sample_photo_path
from blurapp.core.wording import QT_TRANSLATE_NOOP, display_path

CONTEXT = "MainWindow"


def is_sample_photo(path: Path) -> bool:
    """Whether `path` is the bundled sample photo, which the user did not choose."""
    try:
        return path.resolve() == sample_photo_path().resolve()
    except OSError:
        return False


class PhotoController:
    def __init__(self, session: Session, runner: JobRunner, view: WindowView) -> None:
        self.session, self.runner, self.view = session, runner, view
        self._loads, self._runs, self._frames = Newest(), Newest(), Newest()
        self._run_job: JobHandle | None = None
        self._frame_jobs: list[JobHandle] = []  # frames asked for, not yet answered
        # The compiled engines of the live preview in flight still computing: a change of the
        # parameters waits for them (a compiled call cannot be stopped, and its answer would
        # be refused), then previews the newest parameters. Each compiled call's answer is
        # shown, so the compiled panes keep up while a slider moves.
        self._compiled_to_come: set[str] = set()
        self._preview_waiting = False
        # A live preview has run since its engines last let go of what they keep: switching it
        # off then starts a job that lets go (none at start-up, before the window is shown).
        self._previewed = False
        session.subscribe(self._on_model_changed)

    def tr(self, text: str) -> str:
        return self.session.translate(CONTEXT, text)

    # --- What the user does ------------------------------------------------------------------

    def warm_up(self) -> None:
        """Start JAX on the runner, so the first Run does not wait for it; nothing where it
        has started (or failed to) already."""
        if self.session.jax_device is None and self.session.jax_unavailable is None:
            self.runner.start(warm_up_job, on_return=self._on_jax_start)

    def start_jax_here(self) -> None:
        """Start JAX on this thread, now: the window does before it is shown where opening
        the device holds Python's lock for seconds, which no other thread can spare it."""
        self._on_jax_start(start_jax())

    def open_photo(self, path: Path) -> None:
        """Load `path`; the view is shown the photo once it has loaded."""
        self.session.run_stopped()  # a run in flight would hold the photo back
        number = self._loads.next()
        self.session.opening_started(display_path(path.name))
        self.runner.start(
            load_job,
            path,
            on_event=lambda event: self._on_load_event(number, event),
            on_return=lambda loaded: self._on_photo_loaded(number, loaded),
            on_error=lambda error: self._on_photo_failed(number, path, error),
        )
        self.view.show_status(
            self.tr(QT_TRANSLATE_NOOP("MainWindow", "Opening {name}…")).format(
                name=display_path(path.name)
            )
        )

    def show_frame(
        self,
        read: Callable[[int], np.ndarray],
        info: ClipInfo,
        index: int,
        on_shown: Callable[[LoadedPhoto], None],
        on_failed: Callable[[BaseException, str], None],
    ) -> None:
        """Read frame `index` of a clip (through `read`) and make it the session's photo, as a
        photo's load does; `on_shown` once it is, `on_failed` (the error, its words) if it cannot
        be read. Only the newest frame asked for is answered."""
        number = self._frames.next()
        self._quit_frame_jobs()  # only the newest is answered: the others need not read

        def shown(loaded: LoadedPhoto) -> None:
            if self._frames.done(number):
                self.session.set_photo(loaded.photo, loaded.picture, loaded.grey_picture)
                self.preview()
                on_shown(loaded)

        def failed(error: BaseException) -> None:
            if self._frames.done(number):
                on_failed(error, failure_words(error, subject=info.name))

        job = self.runner.start(
            frame_job,
            read,
            info,
            index,
            on_return=shown,
            on_error=failed,
        )
        self._frame_jobs.append(job)

    def forget_frame(self) -> None:
        """A frame asked for is no longer wanted (the clip plays on): its job, if still
        waiting, does not read it."""
        self._frames.drop()
        self._quit_frame_jobs()

    def _quit_frame_jobs(self) -> None:
        jobs, self._frame_jobs = self._frame_jobs, []
        for job in jobs:
            job.quit()

    def run(self, trace: Path | None = None) -> bool:
        """Time the engines ticked, recording a profiler trace of their steady calls in the
        folder `trace` when given (Run ▸ Record Profiler Trace); a run still in flight is
        superseded. False when there is no photo or no engine to run."""
        plan = self.session.start_run(trace)
        if plan is None:
            return False
        self._start(plan)
        self._on_progress(EngineProgress(plan.engines[0], 0, 0))
        return True

    def preview(self, moving: bool = False) -> None:
        """Re-blur the panes that do not show the parameters now, if the live preview is on
        (see Session.start_live_preview); `moving`: for a change of the parameters."""
        running = self.session.running
        timing = running is not None and not running.live
        if moving and running is not None and running.live and self._compiled_to_come:
            self._preview_waiting = True
            return
        self._preview_waiting = False
        plan = self.session.start_live_preview(moving)
        if plan is None:
            return
        self._start(plan)
        if timing:  # superseded: say so, or its last progress would stay in the status bar
            self.view.show_status(
                self.tr(
                    QT_TRANSLATE_NOOP(
                        "MainWindow",
                        "The run stopped for the new parameters; press Run to time them",
                    )
                )
            )
        elif moving:  # the last run's "Done: …" no longer describes what the panes show
            self.view.show_status(
                self.tr(
                    QT_TRANSLATE_NOOP(
                        "MainWindow",
                        "Live preview: one call per engine; press Run to time these parameters",
                    )
                )
            )

    def cancel(self) -> bool:
        """Cancel the run in flight; whether there was one."""
        if self.session.running is None:
            return False
        self.session.run_stopped()  # and its job with it (_on_model_running)
        self.view.show_status(self.tr(QT_TRANSLATE_NOOP("MainWindow", "Cancelled")))
        return True

    def photo_status(self) -> str:
        """The status bar's words for the photo open."""
        photo = self.session.photo
        return self.session.captions.photo_status(photo is not None and is_sample_photo(photo.path))

    # --- The session's runs, on the runner ----------------------------------------------------

    def _on_model_changed(self, what: Change) -> None:
        # The session's run is the one record: the runner follows it.
        no_run = what == Change.RUNNING and self.session.running is None
        if no_run:
            self._compiled_to_come, self._preview_waiting = set(), False
        if no_run and self._runs.drop() and self._run_job is not None:
            self._run_job.quit()
        if what == Change.LIVE and not self.session.live and self._previewed:
            self._previewed = False
            self.runner.start(stop_preview_job)
        if what == Change.PARAMETERS:
            self._quit_outdated_preview()

    def _quit_outdated_preview(self) -> None:
        """New parameters while a live preview's engines that do not compile (NumPy) blur the
        ones before: its job is quit now, to end while the window shows the change (the next
        preview begins only once it has, one job at a time), not when that preview starts."""
        running, job = self.session.running, self._run_job
        if running is None or not running.live or self._compiled_to_come or job is None:
            return
        in_colour = running.photo.channels > 1
        if not running.parameters.same_blur(self.session.parameters, in_colour=in_colour):
            job.quit()  # its answers are no longer wanted: the panes will show the new ones

    def _start(self, plan: RunPlan) -> None:
        if self._run_job is not None:
            self._run_job.quit()  # superseded: it stops at its next check
        number = self._runs.next()
        compiled = {engine for engine in plan.engines if get_engine(engine).compiles}
        self._compiled_to_come = compiled if plan.live else set()
        self._previewed = self._previewed or plan.live
        self._preview_waiting = False
        self._run_job = self.runner.start(
            compare_job,
            plan,
            on_event=lambda event: self._on_run_event(number, event),
            on_return=lambda outcome: self._on_run_done(number, outcome),
            on_error=lambda error: self._on_run_failed(number, error),
            on_stop=self.view.show_run_stopped,
        )

    # --- What comes back --------------------------------------------------------------------

    def _on_jax_start(self, start: JaxStart) -> None:
        if start.device is not None:
            self.session.jax_started(start.device)
        else:
            self.session.jax_failed(start.problem or "")

    def _on_load_event(self, number: int, event: object) -> None:
        if self._loads.wanted(number) and isinstance(event, Loading):
            self.session.opening_went(event.step)

    def _on_photo_loaded(self, number: int, loaded: LoadedPhoto) -> None:
        if not self._loads.done(number):
            return
        self.session.set_photo(loaded.photo, loaded.picture, loaded.grey_picture)
        status = self.photo_status()
        if loaded.grey_for_memory:
            status += " · " + self.tr(
                QT_TRANSLATE_NOOP(
                    "MainWindow", "opened in grey: there is not enough memory to blur it in colour"
                )
            )
        self.view.show_status(status)
        self.preview()  # first: a Run started once the photo is shown supersedes it
        if not is_sample_photo(loaded.photo.path):  # the user never chose it
            self.view.remember_file(loaded.photo.path)
        self.view.show_photo(loaded)

    def _on_photo_failed(self, number: int, path: Path, error: BaseException) -> None:
        if not self._loads.done(number):
            return
        self.session.opening_ended(display_path(path.name))  # not a clip opened since
        self.view.show_status(self.tr(QT_TRANSLATE_NOOP("MainWindow", "Could not open the photo")))
        self.view.show_open_failed(cast(PhotoError, error))  # load_job fails with no other

    def _on_run_event(self, number: int, event: EngineProgress | Compiling | EngineResult) -> None:
        if not self._runs.wanted(number):
            return
        if isinstance(event, EngineProgress):
            self._on_progress(event)
            return
        if isinstance(event, Compiling):
            self.session.compiling_started(event.engine, event.size)
            return
        taken = self.session.engine_done(
            event.engine, event.run, event.error, event.picture, event.final, event.program_size
        )
        if taken and self.session.results[event.engine].live:
            self.view.show_live(event.engine)
        self._compiled_to_come.discard(event.engine)
        if self._preview_waiting and not self._compiled_to_come:
            self.preview(moving=True)

    def _on_progress(self, progress: EngineProgress) -> None:
        running = self.session.running
        live = running is not None and running.live
        words = None if live else self.session.captions.progress(*_counts(progress))
        self.view.show_progress(*_counts(progress), words)

    def _on_run_done(self, number: int, outcome: RunOutcome) -> None:
        if self._runs.done(number):
            self.session.run_done(outcome.result, outcome.differences, outcome.trace)

    def _on_run_failed(self, number: int, error: BaseException) -> None:
        if not self._runs.done(number):
            return
        self.session.run_stopped()
        self.view.show_status(self.tr(QT_TRANSLATE_NOOP("MainWindow", "The run failed")))
        self.view.show_run_failed(error, failure_words(error))


def _counts(progress: EngineProgress) -> tuple[str, int, int]:
    return progress.engine, progress.done, progress.total
