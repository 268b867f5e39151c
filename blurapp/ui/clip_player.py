"""A clip in the window: the bar under the panes (Play/Pause, the frame slider, where the clip
is), the Clip menu, and the playing itself (blurapp.app.player's threads, looked at by a timer
on the window's thread, so the window never waits for an engine or the clip's reader).

Playing, each pane shows its engine's newest blurred frame and its frames per second, and the
status line the headline. Paused, the frame paused on is the window's photo (see
WindowController.show_frame): everything a photo has works on it.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMenuBar, QPushButton, QSlider, QWidget

from blurapp.app.clip_jobs import (
    RUN_FRAMES,
    ClipStage,
    compare_clip_job,
    open_clip_job,
    opens_as_clip,
)
from blurapp.app.jobs import LoadedPhoto
from blurapp.app.player import Player, close_if_unread, wait_for_playing
from blurapp.core.chart_bars import chart_colour
from blurapp.core.clip import Clip
from blurapp.core.engines import get_engine
from blurapp.core.photo_checks import PhotoError
from blurapp.core.wording import QT_TRANSLATE_NOOP, FileProblem, display_path
from blurapp.ui.settings import write_setting
from blurapp.ui.text_fitting import keep_whole
from blurapp.ui.translations import translated_problem

if TYPE_CHECKING:
    from blurapp.core.clip_comparison import ClipComparison
    from blurapp.ui.main_window import MainWindow
    from blurapp.ui.runner import Job

log = logging.getLogger(__name__)

TICK_MS = 15  # how often the window looks for frames while playing: more often than 60 a second
STOP_WAIT_SECONDS = 1.5  # closing the window waits this long for the threads, all together
CLOSE_LOOK_MS = 20  # how often a clip let go of is looked at, to close it once nothing reads it


class ClipBar(QWidget):
    """Under the panes while a clip is open: Play/Pause, the frame slider and the frame."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.play_button = QPushButton()
        self.play_button.setCheckable(True)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setAccessibleName(QCoreApplication.translate("ClipPlayer", "Frame"))
        self.slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # ←/→ step frames wherever it is
        self.frame_label = QLabel()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.play_button)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.frame_label)
        self.show_playing(False)
        self.hide()

    def show_playing(self, playing: bool) -> None:
        self.play_button.setChecked(playing)
        self.play_button.setText(
            QCoreApplication.translate("ClipPlayer", "Pause")
            if playing
            else QCoreApplication.translate("ClipPlayer", "Play")
        )
        self.play_button.setToolTip(
            QCoreApplication.translate("ClipPlayer", "Play or pause the clip (Space)")
        )

    def show_frame(self, index: int, words: str) -> None:
        self.slider.blockSignals(True)
        self.slider.setValue(index)
        self.slider.blockSignals(False)
        self.frame_label.setText(words)

    def show_clip(self, frame_count: int | None) -> None:
        """A clip of `frame_count` frames (None: a camera, which has no slider)."""
        self.slider.setVisible(frame_count is not None)
        self.slider.setRange(0, max((frame_count or 1) - 1, 0))
        self.show()


def build_clip_menu(window: MainWindow, menu: QMenuBar) -> None:
    """The Clip menu: Play/Pause (Space), Previous and Next Frame (← and →, or , and .), enabled
    while a clip is open; its actions become the window's attributes."""
    clip_menu = menu.addMenu(QCoreApplication.translate("ClipPlayer", "&Clip"))
    clips = window.clips
    window.play_action = clip_menu.addAction(
        QCoreApplication.translate("ClipPlayer", "&Play/Pause"),
        QKeySequence(Qt.Key.Key_Space),
        clips.toggle_play,
    )
    window.previous_frame_action = clip_menu.addAction(
        QCoreApplication.translate("ClipPlayer", "P&revious Frame"), lambda: clips.step(-1)
    )
    window.previous_frame_action.setShortcuts([QKeySequence(Qt.Key.Key_Left), QKeySequence(",")])
    window.next_frame_action = clip_menu.addAction(
        QCoreApplication.translate("ClipPlayer", "&Next Frame"), lambda: clips.step(1)
    )
    window.next_frame_action.setShortcuts([QKeySequence(Qt.Key.Key_Right), QKeySequence(".")])
    for action in (window.play_action, window.previous_frame_action, window.next_frame_action):
        action.setEnabled(False)


class ClipPlayer(QObject):
    """The window's clip, if one is open, and its playing."""

    clip_opened = Signal(object)  # the Clip, once its first frame is the window's photo
    frame_shown = Signal(int)  # a paused frame is the window's photo (its index)
    playing_changed = Signal(bool)
    played = Signal(object)  # PlayerState: what a look while playing found, once shown
    clip_stopped = Signal(str)  # why the clip stopped giving frames while playing
    clip_compared = Signal(object)  # ClipComparison: a Run on the clip, once its figures show

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.clip: Clip | None = None
        self.player: Player | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._on_tick)
        # Clips let go of while a thread still read them: closed once none does.
        self._to_close: list[Clip] = []
        self._close_timer = QTimer(self)
        self._close_timer.setInterval(CLOSE_LOOK_MS)
        self._close_timer.timeout.connect(self._close_unread)
        self._problem_told = False
        self._headline: list[str] = []  # the rates of the last playing, until a frame is shown
        self._run_job: Job | None = None  # a Run on the clip
        self._runs = 0  # Runs started: what an older one sends is not wanted
        bar = window.clip_bar
        bar.play_button.clicked.connect(lambda _: self.toggle_play())
        bar.slider.valueChanged.connect(self.seek)

    # --- Opening -----------------------------------------------------------------------------

    def open_path(self, path: Path) -> None:
        """A file chosen, dropped or given: a clip opens here, a photo as photos do."""
        if not opens_as_clip(path):
            self.close_clip()
            self.window.controller.open_photo(path)
            return
        self.window.show_status(
            QCoreApplication.translate("ClipPlayer", "Opening {name}…").format(
                name=display_path(path.name)
            )
        )
        self.window.runner.start(
            open_clip_job,
            path,
            on_return=lambda clip: self._on_clip_file_opened(path, clip),
            on_error=self._on_clip_file_failed,
        )

    def _on_clip_file_opened(self, path: Path, clip: Clip) -> None:
        self.open_clip(clip)
        self.window.recent.remember(path)
        write_setting(self.window.settings, "last_folder", str(path.parent))

    def _on_clip_file_failed(self, error: BaseException) -> None:
        self.window.show_status(QCoreApplication.translate("ClipPlayer", "Could not open the clip"))
        # open_clip_job fails with a PhotoError (a ClipError), naming the file, and no other.
        self.window.show_photo_failed(cast(PhotoError, error))

    def open_clip(self, clip: Clip) -> None:
        """Show `clip`, paused on its first frame; the window's clip until another file opens."""
        self.close_clip()
        self.clip = clip
        # Told once: played again, the clip plays to where it stopped, and pauses there.
        self._problem_told = False
        self.window.clip_bar.show_clip(clip.info.frame_count)
        self._new_player()
        self._enable(True)
        self._show_paused(0, lambda loaded: self.clip_opened.emit(clip), fit=True)

    def close_clip(self) -> None:
        """Let go of the clip and its threads (another file opens, or the window closes),
        without waiting for them: the clip's file is closed once they have let go of it."""
        self._stop_player()
        if self.clip is not None:
            self._to_close.append(self.clip)
            self._close_unread()
        self.clip = None
        self.window.clip_bar.hide()
        self._enable(False)

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
        self._close_timer.stop()
        return ended

    def _close_unread(self) -> None:
        self._to_close = [clip for clip in self._to_close if not close_if_unread(clip)]
        if self._to_close:
            self._close_timer.start()
        else:
            self._close_timer.stop()

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
        self.window.controller.forget_frame()
        self.window.session.run_stopped()  # the panes are the playing's now
        self.player.set_spec(self.window.session.parameters)
        self.player.play()
        self._timer.start()
        self._on_playing(True)

    def pause(self, then: Callable[[], None] | None = None) -> None:
        """Pause on the frame due now, which becomes the window's photo; `then` once it is."""
        if self.player is None:
            return
        index = self.player.pause()
        self._timer.stop()
        self._on_playing(False)
        self._show_paused(index, (lambda loaded: then()) if then is not None else None)

    def step(self, frames: int) -> None:
        """← or →: pause, and show the frame `frames` on (back when negative)."""
        if self.player is None:
            return
        was_playing = self.playing
        index = self.player.step(frames)
        if was_playing:
            self._timer.stop()
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
            self.player.set_spec(self.window.session.parameters)

    def engines_changed(self) -> None:
        """A pane shows another engine: playing goes on through the panes' engines now."""
        if self.clip is None:
            return
        playing = self.playing
        if playing:
            position = self.player.pause()
        else:
            position = self.player.playback.position if self.player else 0
        self._new_player()
        self.player.seek(position)
        if playing:
            self.player.play()
            self._timer.start()

    # --- Run -----------------------------------------------------------------------------------

    def run(self) -> bool:
        """Run with a clip open: RUN_FRAMES frames from the one shown (paused first when
        playing) through the engines ticked, timed as a clip is (compare_clip), in frames per
        second; False when no engine is ticked."""
        window = self.window
        engines = window.session.timed
        if self.clip is None or self.player is None or not engines:
            return False
        if self.playing:
            self.pause(then=self.run)
            return True
        self.cancel_run()
        start = self.player.playback.position
        number = self._runs + 1
        self._runs = number
        self._run_job = window.runner.start(
            compare_clip_job,
            self.clip,
            window.session.parameters,
            engines,
            start,
            on_event=lambda stage: self._on_run_stage(number, stage),
            on_return=lambda result: self._on_run_done(number, result),
            on_error=lambda error: self._on_run_failed(number, error),
        )
        self._show_running(True)
        self._on_run_stage(number, ClipStage("batch size", 0, len(engines)))
        return True

    def cancel_run(self) -> bool:
        """Stop a Run on the clip; whether one was going."""
        job, self._run_job = self._run_job, None
        self._runs += 1  # what it still sends is not wanted
        if job is None:
            return False
        job.quit()
        self._show_running(False)
        return True

    def _show_running(self, running: bool) -> None:
        window = self.window
        window.cancel_button.setEnabled(running)
        window.cancel_action.setEnabled(running)
        window.progress_bar.setVisible(running)

    def _on_run_stage(self, number: int, stage: ClipStage) -> None:
        if number != self._runs:
            return
        words = {
            "batch size": QT_TRANSLATE_NOOP("ClipPlayer", "Choosing each engine's batch size…"),
            "frames": QT_TRANSLATE_NOOP("ClipPlayer", "Blurring {frames} frames with each engine…"),
            "timing": QT_TRANSLATE_NOOP("ClipPlayer", "Timing {frames} frames with each engine…"),
        }
        text = _translate("ClipPlayer", words.get(stage.stage, words["timing"]))
        self.window.progress_bar.setRange(0, stage.total)
        self.window.progress_bar.setValue(stage.done)
        self.window.progress_bar.setFormat("%p%")
        self.window.show_status(text.format(frames=RUN_FRAMES))

    def _on_run_done(self, number: int, result: ClipComparison) -> None:
        if number != self._runs:
            return
        from blurapp.core.clip_figures import clip_figures
        from blurapp.ui.figures_panel import figure_text

        self._run_job = None
        self._show_running(False)
        rows = clip_figures(result, figure_text)
        figures = self.window.figures
        figures.show_rows(rows)
        session = self.window.session
        figures.chart.set_timings(
            [
                (session.captions.title(name), seconds, QColor(chart_colour(get_engine(name))))
                for name in result.runs
                if (seconds := result.seconds_per_frame(name)) is not None
            ]
        )
        headline = [row.label + " " + row.figure for row in rows if row.key == "speedup"]
        self.window.show_status(" · ".join(headline) or display_path(result.clip.name))
        self.clip_compared.emit(result)

    def _on_run_failed(self, number: int, error: BaseException) -> None:
        if number != self._runs:
            return
        self._run_job = None
        self._show_running(False)
        words = translated_problem(error) if isinstance(error, FileProblem) else str(error)
        self.window.show_status(words)
        self.window._warn(_translate("ClipPlayer", "Run Failed"), words, error=error)

    # --- Within -------------------------------------------------------------------------------

    def _new_player(self) -> None:
        self._stop_player()
        session = self.window.session
        engines = tuple(dict.fromkeys(session.pane_engines))
        self.player = Player(
            self.clip,
            session.parameters,
            engines,
            titles=session.captions.title,
            translate=QCoreApplication.translate,
        )

    def _stop_player(self) -> None:
        """Tell the player's threads to stop; they end on their own, what they make unshown."""
        self._timer.stop()
        player, self.player = self.player, None
        if player is None:
            return
        if player.playing:
            self._on_playing(False)
        if not player.close(0):
            log.info("a clip's engine is finishing its frame")

    def _enable(self, enabled: bool) -> None:
        window = self.window
        for action in (window.play_action, window.previous_frame_action, window.next_frame_action):
            action.setEnabled(enabled)

    def _on_playing(self, playing: bool) -> None:
        self.window.clip_bar.show_playing(playing)
        self.playing_changed.emit(playing)

    def _show_paused(
        self,
        index: int,
        then: Callable[[LoadedPhoto], None] | None = None,
        *,
        fit: bool = False,
    ) -> None:
        player = self.player
        assert player is not None and self.clip is not None
        self.window.clip_bar.show_frame(index, player.playback.frame_words(index, _translate))

        def shown(loaded: LoadedPhoto) -> None:
            if fit:
                self.window.view_link.fit_to_window()
            # The rates played at stay in the status line until another frame is shown.
            words = [display_path(self.clip.info.name) if self.clip else ""]
            words += [player.playback.frame_words(index, _translate), *self._headline]
            self.window.show_status(" · ".join(words))
            self._headline = []
            self.frame_shown.emit(index)
            if then is not None:
                then(loaded)

        def failed(error: BaseException, words: str) -> None:
            if isinstance(error, FileProblem):
                words = translated_problem(error)
            self.window.show_status(words)
            self.window._warn(
                QCoreApplication.translate("ClipPlayer", "Cannot Read the Frame"),
                words,
                error=error,
            )

        self.window.controller.show_frame(player.read_frame, self.clip.info, index, shown, failed)

    def _on_tick(self) -> None:
        player, window = self.player, self.window
        if player is None:
            return
        state = player.collect()
        session = window.session
        for pane, engine in zip(window.panes, session.pane_engines, strict=True):
            shown = state.shown.get(engine)
            if shown is not None:
                pane.view.set_picture(shown.picture)
                pane.set_placeholder("")
            words = state.pane_words.get(engine, "")
            caption = f"<b>{html.escape(keep_whole(pane.title))}</b>"
            if words:
                caption += f" · {html.escape(keep_whole(words))}"
            pane.set_caption(caption)
        window.clip_bar.show_frame(state.frame, state.frame_words)
        window.show_status(state.headline)
        self._headline = [state.headline]
        self.played.emit(state)
        if state.problem is not None and not self._problem_told:
            # Paused on the last frame that was read, which becomes the photo.
            self._problem_told = True
            index = player.pause()
            self._timer.stop()
            self._on_playing(False)
            self._show_paused(index)
            self.clip_stopped.emit(state.problem)
            error = state.problem_error
            words = translated_problem(error) if isinstance(error, FileProblem) else state.problem
            window._warn(
                QCoreApplication.translate("ClipPlayer", "The Clip Stopped"), words, error=error
            )
        elif state.finished:
            self.pause()


def _translate(context: str, text: str) -> str:
    return QCoreApplication.translate(context, text)
