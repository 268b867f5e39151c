"""What the window does with a clip, without Qt: a clip file opened, what plays, pauses, steps
and seeks, what each pane and the status line say while it plays, and a Run on the clip's frames.

The window's WindowController (blurapp.app.window_controller) hands what the user does to a clip
(Space, ← and →, the slider, Run, another engine in a pane) to a ClipController, which drives
the clip's ClipPlayer (blurapp.app.clip_player: its threads) and tells the window what to show
through its WindowView (blurapp.app.window_view). Paused, the frame shown is the window's photo
(PhotoController.show_frame), so everything a photo has works on it. While playing, the window
calls `tick()` every few milliseconds (the view's ticker), and the controller shows what the
player's threads have made since. Tests drive it with blurapp.app.running.InlineRunner and a
plain view, without a QApplication.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

from blurapp.app.clip_jobs import (
    RUN_FRAMES,
    ClipStage,
    compare_clip_job,
    open_clip_job,
)
from blurapp.app.clip_player import ClipPlayer, close_if_unread, wait_for_playing
from blurapp.app.jobs import LoadedPhoto
from blurapp.app.photo_controller import PhotoController
from blurapp.app.running import JobHandle, JobRunner
from blurapp.app.session import Session
from blurapp.app.window_view import WindowView
from blurapp.core.media.clip import Clip
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.report.clip_figures import clip_figures
from blurapp.core.report.figures import CONTEXT as FIGURES_CONTEXT
from blurapp.core.wording import QT_TRANSLATE_NOOP, display_path

if TYPE_CHECKING:  # the comparison itself is imported by the job that runs it
    from blurapp.core.measuring.clip_comparison import ClipComparisonResult

log = logging.getLogger(__name__)

CONTEXT = "ClipDisplay"
STOP_WAIT_SECONDS = 1.5  # closing the window waits this long for the threads, all together

_RUN_STAGES = {
    "batch size": QT_TRANSLATE_NOOP("ClipDisplay", "Choosing each engine's batch size…"),
    "frames": QT_TRANSLATE_NOOP("ClipDisplay", "Blurring {frames} frames with each engine…"),
    "timing": QT_TRANSLATE_NOOP("ClipDisplay", "Timing {frames} frames with each engine…"),
}


class ClipController:
    """The window's clip, if one is open, and its playing."""

    def __init__(
        self, session: Session, runner: JobRunner, photos: PhotoController, view: WindowView
    ) -> None:
        self.session, self.runner, self.photos, self.view = session, runner, photos, view
        self.clip: Clip | None = None
        self.player: ClipPlayer | None = None
        # Clips let go of while a thread still read them: closed once none does.
        self._to_close: list[Clip] = []
        self._problem_told = False
        self._headline: list[str] = []  # the rates of the last playing, until a frame is shown
        # Each pane's frames per second at the last look while playing: kept by the session
        # once playing stops (Session.clip_played).
        self._pane_figures: dict[str, str] = {}
        self._run_job: JobHandle | None = None  # a Run on the clip
        self._runs = 0  # Runs started: what an older one sends is not wanted

    def tr(self, text: str) -> str:
        return self.session.translate(CONTEXT, text)

    # --- Opening -----------------------------------------------------------------------------

    def open_path(self, path: Path) -> None:
        """Open the clip in the file at `path` (a file that opens as a clip: see
        WindowController.open_path); shown once it has opened."""
        self.session.opening_started(display_path(path.name))
        self.view.show_status(
            self.tr(QT_TRANSLATE_NOOP("ClipDisplay", "Opening {name}…")).format(
                name=display_path(path.name)
            )
        )
        self.runner.start(
            open_clip_job,
            path,
            on_return=lambda clip: self._on_clip_file_opened(path, clip),
            on_error=lambda error: self._on_clip_file_failed(path, error),
        )

    def _on_clip_file_opened(self, path: Path, clip: Clip) -> None:
        self.open_clip(clip)
        self.view.remember_file(path)

    def _on_clip_file_failed(self, path: Path, error: BaseException) -> None:
        self.session.opening_ended(display_path(path.name))
        self.view.show_status(self.tr(QT_TRANSLATE_NOOP("ClipDisplay", "Could not open the clip")))
        # open_clip_job fails with a PhotoError (a ClipError), naming the file, and no other.
        self.view.show_open_failed(cast(PhotoError, error))

    def open_clip(self, clip: Clip) -> None:
        """Show `clip`, paused on its first frame; the window's clip until another file opens."""
        self.close_clip()
        self.clip = clip
        # Told once: played again, the clip plays to where it stopped, and pauses there.
        self._problem_told = False
        self.view.show_clip_bar(clip.info.frame_count)
        self._new_player()
        self.view.enable_clip_actions(True)
        self._show_paused(0, lambda loaded: self.view.opened_clip(clip), fit=True)

    def close_clip(self) -> None:
        """Let go of the clip and its threads (another file opens, or the window closes),
        without waiting for them: the clip's file is closed once they have let go of it."""
        self._stop_player()
        self.session.forget_played()
        if self.clip is not None:
            self._to_close.append(self.clip)
            self._close_unread()
        self.clip = None
        self.view.hide_clip_bar()
        self.view.enable_clip_actions(False)

    def stop(self) -> bool:
        """The window closes: the playing stops and the clips' files are let go; waits up to
        STOP_WAIT_SECONDS in all for the threads; whether every one has ended (those still
        inside an engine's call end when it returns, and the program's exit waits for them)."""
        self._stop_player()
        if self.clip is not None:
            self._to_close.append(self.clip)
            self.clip = None
        ended = wait_for_playing(STOP_WAIT_SECONDS)
        self._close_unread()
        return ended

    def _close_unread(self) -> bool:
        """Close the clips no thread reads any more; whether none is left to close."""
        self._to_close = [clip for clip in self._to_close if not close_if_unread(clip)]
        if self._to_close:
            self.view.look_again_later(self._close_unread)
        return not self._to_close

    # --- Playing ------------------------------------------------------------------------------

    @property
    def playing(self) -> bool:
        return self.player is not None and self.player.playing

    def toggle_play(self) -> None:
        """Space: play, or pause."""
        if self.playing:
            self.pause()
        else:
            self.play()

    def play(self) -> None:
        if self.player is None or self.playing:
            return
        self.photos.forget_frame()
        self.session.run_stopped()  # the panes are the playing's now
        self.session.forget_played()
        self._pane_figures = {}
        self.player.set_spec(self.session.parameters)
        self.player.play()
        self.view.start_ticking()
        self._on_playing(True)

    def pause(self, then: Callable[[], object] | None = None) -> None:
        """Pause on the frame due now, which becomes the window's photo; `then` once it is."""
        if self.player is None:
            return
        index = self.player.pause()
        self.view.stop_ticking()
        self._on_playing(False)
        self._show_paused(index, (lambda loaded: then()) if then is not None else None)

    def step(self, frames: int) -> None:
        """← or →: pause, and show the frame `frames` on (back when negative)."""
        if self.player is None:
            return
        was_playing = self.playing
        index = self.player.step(frames)
        if was_playing:
            self.view.stop_ticking()
            self._on_playing(False)
        self._show_paused(index)

    def seek(self, index: int) -> None:
        """The slider moved: frame `index`, shown paused or played on from."""
        if self.player is None:
            return
        index = self.player.seek(index)
        if not self.playing:
            self._show_paused(index)

    def parameters_changed(self) -> None:
        """The parameters changed while playing: the frames to come take them."""
        if self.player is not None:
            self.player.set_spec(self.session.parameters)

    def engines_changed(self) -> None:
        """A pane shows another engine: playing goes on through the panes' engines now."""
        if self.clip is None:
            return
        playing = self.playing
        if playing and self.player is not None:
            position = self.player.pause()
        else:
            position = self.player.timeline.position if self.player else 0
        player = self._new_player()
        player.seek(position)
        if playing:
            player.play()
            self.view.start_ticking()

    def tick(self) -> None:
        """A look while playing: each pane's newest frame and its frames per second, where the
        clip is, the headline; paused where the clip stopped or ended."""
        player = self.player
        if player is None:
            return
        # The panes' sizes as they are now (a window resized while playing): cheap, and the
        # player takes them for the frames it blurs next.
        player.set_view_sizes(self.session.engine_view_sizes())
        state = player.collect()
        panes = []
        for engine in self.session.pane_engines:
            shown = state.shown.get(engine)
            panes.append(
                (None if shown is None else shown.picture, state.pane_words.get(engine, ""))
            )
        # Where the clip is first: a look at the panes (a screenshot) sees it with them.
        self.view.show_position(state.frame, state.frame_words)
        self.view.show_status(state.headline)
        self.view.show_played(state, panes)
        self._headline = [state.headline]
        self._pane_figures = state.rates
        if state.problem is not None and not self._problem_told:
            # Paused on the last frame that was read, which becomes the photo.
            self._problem_told = True
            index = player.pause()
            self.view.stop_ticking()
            self._on_playing(False)
            self._show_paused(index)
            self.view.stopped_clip(state.problem)
            self.view.warn(
                self.tr(QT_TRANSLATE_NOOP("ClipDisplay", "The Clip Stopped")),
                state.problem,
                state.problem_error,
            )
        elif state.finished:
            self.pause()

    # --- Run -----------------------------------------------------------------------------------

    def run(self) -> bool:
        """Run with a clip open: RUN_FRAMES frames from the one shown (paused first when
        playing) through the engines ticked, timed as a clip is (compare_engines_on_clip), in
        frames per second; False when no engine is ticked."""
        engines = self.session.timed
        if self.clip is None or self.player is None or not engines:
            return False
        if self.playing:
            self.pause(then=self.run)
            return True
        self.cancel_run()
        self.session.forget_played()
        start = self.player.timeline.position
        number = self._runs + 1
        self._runs = number
        self._run_job = self.runner.start(
            compare_clip_job,
            self.clip,
            self.session.parameters,
            engines,
            start,
            on_event=lambda stage: self._on_run_stage(number, stage),
            on_return=lambda result: self._on_run_done(number, result),
            on_error=lambda error: self._on_run_failed(number, error),
        )
        self.view.show_running(True)
        self._on_run_stage(number, ClipStage("batch size", 0, len(engines)))
        return True

    def cancel_run(self) -> bool:
        """Stop a Run on the clip; whether one was going."""
        job, self._run_job = self._run_job, None
        self._runs += 1  # what it still sends is not wanted
        if job is None:
            return False
        job.quit()
        self.view.show_running(False)
        return True

    def _on_run_stage(self, number: int, stage: ClipStage) -> None:
        if number != self._runs:
            return
        text = self.tr(_RUN_STAGES.get(stage.stage, _RUN_STAGES["timing"]))
        self.view.show_clip_stage(stage.done, stage.total, text.format(frames=RUN_FRAMES))

    def _on_run_done(self, number: int, result: ClipComparisonResult) -> None:
        if number != self._runs:
            return
        self._run_job = None
        self.view.show_running(False)
        rows = clip_figures(result, lambda text: self.session.translate(FIGURES_CONTEXT, text))
        self.view.show_clip_result(result, rows)
        headline = [row.label + " " + row.figure for row in rows if row.key == "speedup"]
        self.view.show_status(" · ".join(headline) or display_path(result.clip.name))
        self.view.compared_clip(result)

    def _on_run_failed(self, number: int, error: BaseException) -> None:
        if number != self._runs:
            return
        self._run_job = None
        self.view.show_running(False)
        title = self.tr(QT_TRANSLATE_NOOP("ClipDisplay", "Run Failed"))
        self.view.warn(title, str(error), error, in_status=True)

    # --- Within -------------------------------------------------------------------------------

    def _new_player(self) -> ClipPlayer:
        self._stop_player()
        assert self.clip is not None
        session = self.session
        self.player = ClipPlayer(
            self.clip,
            session.parameters,
            tuple(dict.fromkeys(session.pane_engines)),
            titles=session.captions.title,
            translate=session.translate,
            view_sizes=session.engine_view_sizes(),
        )
        return self.player

    def _stop_player(self) -> None:
        """Tell the player's threads to stop; they end on their own, what they make unshown."""
        self.view.stop_ticking()
        player, self.player = self.player, None
        if player is None:
            return
        if player.playing:
            self._on_playing(False)
        if not player.close(0):
            log.info("a clip's engine is finishing its frame")

    def _on_playing(self, playing: bool) -> None:
        if not playing and self._pane_figures:
            # Before the frame paused on is shown: its captions keep these, handed over once
            # (a later pause while nothing plays, after a Run, brings back nothing).
            self.session.clip_played(self._pane_figures)
            self._pane_figures = {}
        self.view.show_playing(playing)
        self.view.changed_playing(playing)

    def _show_paused(
        self,
        index: int,
        then: Callable[[LoadedPhoto], object] | None = None,
        *,
        fit: bool = False,
    ) -> None:
        player, clip = self.player, self.clip
        assert player is not None and clip is not None
        translate = self.session.translate
        self.view.show_position(index, player.timeline.frame_words(index, translate))

        def shown(loaded: LoadedPhoto) -> None:
            if fit:
                self.view.fit_to_window()
            # The rates played at stay in the status line until another frame is shown.
            words = [display_path(clip.info.name)]
            words += [player.timeline.frame_words(index, translate), *self._headline]
            self.view.show_status(" · ".join(words))
            self._headline = []
            self.view.showed_frame(index)
            if then is not None:
                then(loaded)

        def failed(error: BaseException, words: str) -> None:
            self.session.opening_ended()  # the clip's first frame, perhaps
            title = self.tr(QT_TRANSLATE_NOOP("ClipDisplay", "Cannot Read the Frame"))
            self.view.warn(title, words, error, in_status=True)

        self.photos.show_frame(player.read_frame, clip.info, index, shown, failed)
