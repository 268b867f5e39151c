"""The window's one owner, without Qt: its session, the photo open or the clip playing, the live
preview, runs, the scaling sweep, a blur by blocks and the results saved.

The WindowController is the window's root: made first, with the window's Session and the one
runner on which every job of the window and its dialogs waits its turn, then handed the window
as its view (`attach`). The window forwards what the user does to it, and only it changes the
session; the window draws what it and its photo's and clip's sides tell it through one
WindowView (blurapp.app.window_view). The scaling sweep's dialog is kept here while it is
open (`open_sweep`). Each decision the window once made itself (what a path opens as, what Run
runs, what the live preview re-blurs while a clip plays, what a sweep sweeps, what is saved and
where) is made here, so the tests drive it with blurapp.app.running.InlineRunner and plain
views, without a QApplication.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from blurapp.app.captions_wait import CaptionsWait
from blurapp.app.clip_controller import ClipController
from blurapp.app.clip_jobs import opens_as_clip
from blurapp.app.jobs import BlocksDone, blur_to_file_job
from blurapp.app.photo_controller import PhotoController
from blurapp.app.running import JobGroup, JobHandle, JobRunner
from blurapp.app.session import Session
from blurapp.app.sweep_state import SweepState
from blurapp.app.window_view import WindowView
from blurapp.core.media.clip import Clip
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.media.saving import check_output_path, save_output
from blurapp.core.spec import BlurSpec

if TYPE_CHECKING:
    from blurapp.app.run_records import KeptResult

log = logging.getLogger(__name__)


class SweepDialog(Protocol):
    """The scaling sweep's dialog, which the controller keeps while it is open."""

    state: SweepState

    def is_closed(self) -> bool: ...


class BlurByBlocks(Protocol):
    """Start a blur by blocks of `source` into `output` (WindowController.blur_by_blocks)."""

    def __call__(
        self,
        source: Path,
        output: Path,
        *,
        on_progress: Callable[[BlocksDone], None],
        on_done: Callable[[Any], None],
        on_failed: Callable[[BaseException], None],
        on_stopped: Callable[[], None],
    ) -> JobHandle: ...


class WindowController:
    """The window's state and what the user's actions do to it: `photos` for a photo's side,
    `clips` for a clip's, and the decisions between the two."""

    photos: PhotoController
    clips: ClipController
    view: WindowView

    def __init__(
        self,
        session: Session,
        runner: JobRunner,
        view: WindowView | None = None,
    ) -> None:
        """The root of the window, made before it: `session`, and `runner`, the one runner
        every job of the window and its dialogs waits its turn on. The window is `attach`ed
        once made (at once, when `view` is given)."""
        self.session, self.runner = session, runner
        self.sweep_dialog: SweepDialog | None = None  # the scaling sweep's, while it is open
        # Until the window is attached, a change (the settings restored) is the session's
        # alone: no photo or clip is open, so nothing is there to re-blur.
        self.attached = False
        # When the captions are drawn after a change of the parameters: a change the live
        # preview follows leaves them as they are until its result comes, or a moment at most.
        self.captions_wait = CaptionsWait(self.live_preview_follows)
        if view is not None:
            self.attach(view)

    def attach(self, view: WindowView) -> None:
        """The window the controller tells what to show, `view`, for a photo and a clip alike;
        the photo's and the clip's sides are made for it."""
        if self.attached:
            raise RuntimeError("the controller has its window already")
        self.view = view
        self.photos = PhotoController(self.session, self.runner, view)
        self.clips = ClipController(self.session, self.runner, self.photos, view)
        self.attached = True

    # --- Opening ------------------------------------------------------------------------------

    def open_path(self, path: Path) -> None:
        """A file chosen, dropped or given: a clip opens as a clip, any other as a photo."""
        if opens_as_clip(path):
            self.clips.open_path(path)
        else:
            self.clips.close_clip()
            self.photos.open_photo(path)

    def open_clip(self, clip: Clip) -> None:
        """Show `clip` (a file's, a camera's, frames made in memory), paused on its first frame."""
        self.clips.open_clip(clip)

    @property
    def clip(self) -> Clip | None:
        return self.clips.clip

    @property
    def playing(self) -> bool:
        """A clip is playing: its panes show the frames played, not the session's pictures."""
        return self.clips.playing

    def live_preview_follows(self) -> bool:
        """Whether the live preview re-blurs the panes at a change of the parameters now: it is
        on, a photo (or a paused frame) is shown, and no clip plays."""
        session = self.session
        return session.live and session.photo is not None and not (self.attached and self.playing)

    # --- The parameters and the panes' engines -------------------------------------------------

    def edit_parameters(self, parameters: BlurSpec) -> None:
        """The user edited the parameters: the session takes them, and a change is a step to
        undo and re-blurs what the live preview shows."""
        before = self.session.parameters
        self.session.set_parameters(parameters)
        if not self.attached:
            return
        if self.session.parameters == before:
            # A typed text's notes change without the parameters, which the view then has not
            # been told of; a change it has, drawing its captions: not twice a change.
            self.view.show_parameters()
            return
        self.view.record_parameters(before, self.session.parameters)
        self.preview(moving=True)

    def set_pane_engine(self, pane: int, engine: str) -> None:
        """Show `engine` in the left (0) or right (1) pane: a clip playing plays on through it,
        and the live preview blurs with it."""
        before = list(self.session.pane_engines)
        self.session.set_pane_engine(pane, engine)
        if self.session.pane_engines != before and self.attached:
            self.clips.engines_changed()
            self.preview()

    def set_timed(self, engine: str, timed: bool) -> None:
        """Tick or untick `engine` under Engines (ValueError for one a pane shows)."""
        self.session.set_timed(engine, timed)

    def set_timed_engines(self, engines: tuple[str, ...]) -> None:
        """Time `engines` and the panes' engines (as the settings restore them)."""
        self.session.set_timed_engines(engines)

    def set_live(self, live: bool) -> None:
        """Turn the live preview on or off; on, the panes catch up with the parameters now."""
        if live != self.session.live:
            self.session.set_live(live)
            self.preview()

    def set_show(self, show: str) -> None:
        """Show the blurred results, the original photo, the difference (right pane), or
        before/after ("split") (ValueError for anything else)."""
        self.session.set_show(show)

    def preview(self, moving: bool = False) -> None:
        """Re-blur the panes that do not show the parameters now, if the live preview is on
        (PhotoController.preview); `moving`: for a change of the parameters. While a clip plays,
        the frames to come take the parameters instead."""
        if not self.attached:
            return
        if self.clips.playing:
            self.clips.parameters_changed()
        else:
            self.photos.preview(moving)

    # --- Running ------------------------------------------------------------------------------

    def run(self, trace: Path | None = None) -> None:
        """Run: a span of the clip's frames from the one shown, with a clip open; else the
        photo's comparison, recording a profiler trace in the folder `trace` when given. A run
        still in flight is superseded; with no engine ticked, the window says so."""
        if self.clips.clip is not None:
            if trace is None and not self.clips.run():
                self.view.show_nothing_to_run()
            return
        if self.session.photo is None:
            return
        self.view.take_typed_parameters()
        if not self.photos.run(trace):
            self.view.show_nothing_to_run()

    def traceable(self) -> bool:
        """Whether Run ▸ Record Profiler Trace has a run to trace: a photo's comparison, as
        compare --trace (a clip's frame is no photo of its own)."""
        return self.session.photo is not None and self.clips.clip is None

    def trace_offered(self) -> bool:
        """Whether Record Profiler Trace is offered: traceable, and JAX, whose profiler it is,
        not known to be missing."""
        return self.traceable() and self.session.jax_unavailable is None

    def cancel(self) -> bool:
        """Cancel a Run on the clip or the photo's run in flight; whether there was one."""
        return self.clips.cancel_run() or self.photos.cancel()

    def cancel_by_user(self) -> None:
        """Cancel pressed: cancel (as `cancel`), and the window says so at once if a run was."""
        if self.cancel():
            self.view.show_run_cancelled()

    def is_running(self) -> bool:
        return self.session.running is not None

    # --- The scaling sweep and a blur by blocks -----------------------------------------------

    def sweep(
        self, runner: JobRunner | None = None, *, repeats: int | None = None
    ) -> SweepState | None:
        """The scaling sweep of the photo open, with the parameters and the engines ticked now,
        on `runner` (the window's by default), adding to the session's record of first calls
        and programs; each sweep started stops what else measures (sweep_started). None
        without a photo."""
        photo = self.session.photo
        if photo is None:
            return None
        return SweepState(
            photo,
            self.session.parameters,
            self.session.timed,
            runner if runner is not None else self.runner,
            self.session.translate,
            repeats=repeats,
            first_calls=self.session.first_calls,
            recompiles=self.session.recompiles,
            before_start=self._on_sweep_starting,
        )

    def open_sweep(self, make: Callable[[SweepState, JobGroup], SweepDialog]) -> SweepDialog | None:
        """Run ▸ Scaling Sweep: the sweep's dialog still open (shown or hidden), on the photo,
        parameters and engines now unless it is sweeping; else the one `make` makes for a
        SweepState whose jobs wait their turn on the window's runner. None without a photo."""
        photo = self.session.photo
        if photo is None:
            return None
        dialog = self.sweep_dialog
        if dialog is not None and not dialog.is_closed():
            if not dialog.state.running:
                dialog.state.set_subject(photo, self.session.parameters, self.session.timed)
            return dialog
        jobs = JobGroup(self.runner)
        state = self.sweep(jobs)
        assert state is not None  # a photo is open: asked above
        self.sweep_dialog = make(state, jobs)
        return self.sweep_dialog

    def _on_sweep_starting(self) -> None:
        if self.sweep_started():
            self.view.show_run_cancelled()

    def sweep_started(self) -> bool:
        """A sweep measures alone: the live preview's call in flight is dropped, and a timed
        run cancelled as Cancel does; whether one was."""
        running = self.session.running
        if running is None:
            return False
        if running.live:
            self.session.run_stopped()
            return False
        return self.cancel()

    def blur_by_blocks(
        self,
        source: Path,
        output: Path,
        *,
        on_progress: Callable[[BlocksDone], None],
        on_done: Callable[[Any], None],
        on_failed: Callable[[BaseException], None],
        on_stopped: Callable[[], None],
    ) -> JobHandle:
        """Blur `source`, an image too large to open, into `output` by blocks, with the
        parameters now and the right pane's engine, on the window's runner: it waits its turn
        after the jobs started before it."""
        return self.runner.start(
            blur_to_file_job,
            source,
            output,
            self.session.parameters,
            self.blocks_engine(),
            on_event=on_progress,
            on_return=on_done,
            on_error=on_failed,
            on_stop=on_stopped,
        )

    def blocks_offered(self, error: PhotoError) -> bool:
        """Whether the image that failed to open with `error` is a TIFF or zarr image too large
        to open, which can still be blurred to a file by blocks (with the colour asked for)."""
        # the scale layer (11 ms): only for an image too large to open, not at the window's start
        from blurapp.scale.tiled_read import needs_tiles

        try:
            return bool(needs_tiles(error.path, color=self.session.parameters.color))
        except Exception:
            log.debug("could not tell whether %s needs tiles", error.path, exc_info=True)
            return False

    def blocks_engine(self) -> str:
        """The engine a blur by blocks uses: the right pane's, the one compared with NumPy."""
        return self.session.pane_engines[-1]

    # --- Saving -------------------------------------------------------------------------------

    def result_files(self, folder: Path, results: dict[str, KeptResult]) -> dict[str, Path]:
        """Where each of `results` is saved in `folder`: its name says the parameters that made
        it. Raises OutputError for a file that cannot be written there (the photo itself)."""
        photo = self.session.photo
        targets = {
            engine: folder / self.session.captions.result_file_name(engine) for engine in results
        }
        for path in targets.values():
            check_output_path(path, source=photo.path if photo is not None else None)
        return targets

    def save_results(self, targets: dict[str, Path], results: dict[str, KeptResult]) -> None:
        """Write each result to its file (`targets`, from result_files), atomically, described
        by the parameters that made it. Raises OutputError."""
        for engine, path in targets.items():
            kept = results[engine]
            assert kept.run is not None  # saved_results keeps only the results with a run
            save_output(
                path,
                kept.run.output,
                bit_depth=kept.photo.bit_depth,
                description=self.session.captions.result_description(engine),
            )

    # --- Closing ------------------------------------------------------------------------------

    def stop(self) -> bool:
        """The window closes: the clip's playing stops and the run in flight with it; whether
        the clip's threads have ended (ClipController.stop)."""
        ended = self.clips.stop()
        self.session.run_stopped()
        return ended
