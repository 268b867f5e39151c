"""A clip in the window: the bar under the panes (Play/Pause, the frame slider, where the clip
is), the Clip menu, and the playing itself (blurapp.app.clip_player's threads, looked at by a
timer on the window's thread, so the window never waits for an engine or the clip's reader).

Playing, each pane shows its engine's newest blurred frame and its frames per second, and the
status line the headline. Paused, the frame paused on is the window's photo (see
PhotoController.show_frame): everything a photo has works on it.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QColor

from blurapp.app.clip_player import ClipPlayer, PlayerState
from blurapp.core.engines import get_engine
from blurapp.core.media.clip import Clip
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.report.chart_bars import chart_colour
from blurapp.core.report.figures import Figure
from blurapp.core.wording import FileProblem
from blurapp.ui.text_fitting import keep_whole
from blurapp.ui.translations import translated_problem

if TYPE_CHECKING:
    from blurapp.app.clip_controller import ClipController
    from blurapp.app.session import Session
    from blurapp.core.measuring.clip_comparison import ClipComparisonResult
    from blurapp.ui.menus import WindowActions
    from blurapp.ui.messages import Messages
    from blurapp.ui.window_layout import WindowWidgets


class ClipWindow(Protocol):
    """What the clip display uses of the main window."""

    session: Session
    widgets: WindowWidgets
    messages: Messages

    def show_status(self, text: str) -> None: ...

    def show_running(self, running: bool) -> None: ...

    def show_photo_failed(self, error: PhotoError) -> None: ...

    def remember_file(self, path: Path) -> None: ...


TICK_MS = 15  # how often the window looks for frames while playing: more often than 60 a second
CLOSE_LOOK_MS = 20  # how often a clip let go of is looked at, to close it once nothing reads it


class ClipDisplay(QObject):
    """The window's clip drawn: the bar under the panes, the panes while it plays, the Clip
    menu's state; what it does is its ClipController's (blurapp.app.clip_controller), whose
    ClipView this is. The signals are what a clip in the window does, for the tests and the
    bench's probe to wait on."""

    clip_opened = Signal(object)  # the Clip, once its first frame is the window's photo
    frame_shown = Signal(int)  # a paused frame is the window's photo (its index)
    playing_changed = Signal(bool)
    played = Signal(object)  # PlayerState: what a look while playing found, once shown
    clip_stopped = Signal(str)  # why the clip stopped giving frames while playing
    clip_compared = Signal(object)  # ClipComparisonResult: a Run on the clip, once its figures show

    controller: ClipController  # the clip's decisions, once connect_to has been told them

    def __init__(self, window: ClipWindow, actions: WindowActions) -> None:
        super().__init__(window)  # type: ignore[arg-type]  # the window is a QMainWindow
        self.window = window
        self.actions = actions
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._look: Callable[[], bool] | None = None
        self._look_timer = QTimer(self)
        self._look_timer.setInterval(CLOSE_LOOK_MS)
        self._look_timer.timeout.connect(self._look_again)

    def connect_to(self, controller: ClipController) -> None:
        """Forward the clip bar, the Clip menu and the ticks while playing to `controller`,
        the window's ClipController, whose ClipView this is."""
        self.controller = controller
        self._timer.timeout.connect(controller.tick)
        bar = self.window.widgets.clip_bar
        bar.play_button.clicked.connect(lambda _: controller.toggle_play())
        bar.slider.valueChanged.connect(controller.seek)
        self.actions.play.triggered.connect(controller.toggle_play)
        self.actions.previous_frame.triggered.connect(lambda: controller.step(-1))
        self.actions.next_frame.triggered.connect(lambda: controller.step(1))

    # --- What the window and the tests use --------------------------------------------------

    @property
    def clip(self) -> Clip | None:
        return self.controller.clip

    @property
    def player(self) -> ClipPlayer | None:
        return self.controller.player

    @property
    def playing(self) -> bool:
        return self.controller.playing

    def stop_looking(self) -> None:
        """The window closes: clips let go of are no longer looked at (see look_again_later)."""
        self._look_timer.stop()

    # --- ClipView: what the controller tells --------------------------------------------------

    def show_status(self, text: str) -> None:
        self.window.show_status(text)

    def show_clip_bar(self, frame_count: int | None) -> None:
        self.window.widgets.clip_bar.show_clip(frame_count)

    def hide_clip_bar(self) -> None:
        self.window.widgets.clip_bar.hide()

    def enable_clip_actions(self, enabled: bool) -> None:
        for action in self.actions.clip_actions():
            action.setEnabled(enabled)

    def show_playing(self, playing: bool) -> None:
        self.window.widgets.clip_bar.show_playing(playing)

    def show_position(self, index: int, words: str) -> None:
        self.window.widgets.clip_bar.show_frame(index, words)

    def show_played(self, state: PlayerState, pane_words: list[tuple[Any, str]]) -> None:
        for pane, (picture, words) in zip(self.window.widgets.panes, pane_words, strict=True):
            if picture is not None:
                pane.view.set_picture(picture)
                pane.set_placeholder("")
            caption = f"<b>{html.escape(keep_whole(pane.title))}</b>"
            if words:
                caption += f" · {html.escape(keep_whole(words))}"
            pane.set_caption(caption)
        self.played.emit(state)

    def show_clip_running(self, running: bool) -> None:
        self.window.show_running(running)

    def show_clip_stage(self, done: int, total: int, text: str) -> None:
        bar = self.window.widgets.progress_bar
        bar.setRange(0, total)
        bar.setValue(done)
        bar.setFormat("%p%")
        self.window.show_status(text)

    def show_clip_result(self, result: ClipComparisonResult, rows: list[Figure]) -> None:
        figures = self.window.widgets.figures
        figures.show_rows(rows)
        titles = self.window.session.captions.title
        figures.chart.set_timings(
            [
                (titles(name), seconds, QColor(chart_colour(get_engine(name))))
                for name in result.runs
                if (seconds := result.seconds_per_frame(name)) is not None
            ]
        )

    def show_open_failed(self, error: PhotoError) -> None:
        self.window.show_photo_failed(error)

    def warn(
        self, title: str, words: str, error: BaseException | None, *, in_status: bool = False
    ) -> None:
        if isinstance(error, FileProblem):
            words = translated_problem(error)
        if in_status:
            self.window.show_status(words)
        self.window.messages.warn(title, words, error=error)

    def remember_file(self, path: Path) -> None:
        self.window.remember_file(path)

    def fit_to_window(self) -> None:
        self.window.widgets.view_link.fit_to_window()

    def start_ticking(self) -> None:
        self._timer.start()

    def stop_ticking(self) -> None:
        self._timer.stop()

    def look_again_later(self, look: Callable[[], bool]) -> None:
        self._look = look
        self._look_timer.start()

    def _look_again(self) -> None:
        if self._look is None or self._look():
            self._look_timer.stop()

    def opened_clip(self, clip: Clip) -> None:
        self.clip_opened.emit(clip)

    def showed_frame(self, index: int) -> None:
        self.frame_shown.emit(index)

    def changed_playing(self, playing: bool) -> None:
        self.playing_changed.emit(playing)

    def stopped_clip(self, problem: str) -> None:
        self.clip_stopped.emit(problem)

    def compared_clip(self, result: ClipComparisonResult) -> None:
        self.clip_compared.emit(result)
