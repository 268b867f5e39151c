"""What the main window shows, drawn on its widgets: the session as it changes (the panes, their
captions, the figures, the menus' state, the title) and what the window's controllers tell it,
through the one WindowView (blurapp.app.window_view) of a photo and of a clip.

A clip's side: the bar under the panes (Play/Pause, the frame slider, where the clip is), the
Clip menu, and the playing itself (blurapp.app.clip_player's threads, looked at by a timer on
the window's thread, so the window never waits for an engine or the clip's reader). Playing,
each pane shows its engine's newest blurred frame and its frames per second, and the status
line the headline. Paused, the frame paused on is the window's photo (see
PhotoController.show_frame): everything a photo has works on it.

The signals are what the window has shown, for the tests, the launcher and the bench's probe to
wait on.
"""

from __future__ import annotations

import dataclasses
import html
import logging
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QMainWindow

from blurapp.app.live_rates import LIVE_RATE_SECONDS
from blurapp.app.session import Change
from blurapp.app.window_settings import read_settings, write_settings
from blurapp.core.engines import get_engine
from blurapp.core.media.clip import Clip
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.report.chart_bars import chart_colour
from blurapp.core.report.figures import Figure, image_figure
from blurapp.core.wording import FileProblem, display_path
from blurapp.ui.identity import APP_NAME
from blurapp.ui.image_pane import caption_html
from blurapp.ui.run_progress import RunProgress
from blurapp.ui.text_fitting import keep_whole
from blurapp.ui.tiled_blur import TiledBlurDialog, ask_to_blur_by_blocks, tell_blurred_by_blocks
from blurapp.ui.translations import translated_problem

if TYPE_CHECKING:
    from blurapp.app.clip_player import PlayerState
    from blurapp.app.jobs import LoadedPhoto
    from blurapp.app.settings_file import SettingsFile
    from blurapp.app.window_controller import WindowController
    from blurapp.core.measuring.clip_comparison import ClipComparisonResult
    from blurapp.core.spec import BlurSpec
    from blurapp.ui.menus import RecentFiles, WindowActions
    from blurapp.ui.messages import Messages
    from blurapp.ui.undo import ParameterHistory
    from blurapp.ui.window_layout import WindowWidgets

log = logging.getLogger(__name__)

TICK_MS = 15  # how often the window looks for frames while playing: more often than 60 a second
CLOSE_LOOK_MS = 20  # how often a clip let go of is looked at, to close it once nothing reads it


@dataclasses.dataclass(frozen=True)
class WindowParts:
    """What the display draws on and tells through, as the main window made them."""

    window: QMainWindow  # its title, and the dialogs' parent
    controller: WindowController  # the window's decisions, and its session
    widgets: WindowWidgets
    actions: WindowActions  # the menus' actions the window keeps
    messages: Messages  # every warning the user is given
    history: ParameterHistory  # the parameters' steps to undo
    recent: RecentFiles  # File ▸ Open Recent
    settings: SettingsFile  # where the folder the next Open starts in is kept


class WindowDisplay(QObject):
    """The main window's WindowView: it renders its controller's session as it changes and
    shows what the controller tells, on the window's widgets (`parts`); it attaches itself to
    the controller and hands it the clip bar, the Clip menu and the ticks while playing."""

    photo_shown = Signal(object)  # Photo, once it is on screen
    results_shown = Signal(object)  # ComparisonResult, once the panes and figures show it
    run_cancelled = Signal()  # the user cancelled; the window shows it at once
    run_stopped = Signal()  # the runner has let go of a cancelled or superseded run
    progress_shown = Signal(str, int, int)  # engine, done, total (0 total: busy, no count)
    run_failed = Signal(str)
    jax_ready = Signal(str)  # JAX has started in the background, on this device
    blur_by_blocks_done = Signal(str, str)  # how it ended ("written", "failed", "cancelled"), words
    live_shown = Signal(str)  # an engine's live-preview result is in its pane (the engine)
    clip_opened = Signal(object)  # the Clip, once its first frame is the window's photo
    frame_shown = Signal(int)  # a paused frame is the window's photo (its index)
    playing_changed = Signal(bool)
    played = Signal(object)  # PlayerState: what a look while playing found, once shown
    clip_stopped = Signal(str)  # why the clip stopped giving frames while playing
    clip_compared = Signal(object)  # ClipComparisonResult: a Run on the clip, once its figures show

    def __init__(self, parts: WindowParts) -> None:
        super().__init__(parts.window)
        controller = parts.controller
        self.parts, self.controller, self.session = parts, controller, controller.session
        self.widgets, self.actions, self.messages = parts.widgets, parts.actions, parts.messages
        # The blur by blocks of an image too large to open, if any.
        self.tiled_blur: TiledBlurDialog | None = None
        self.run_progress = RunProgress(
            self.widgets.progress_bar, self.widgets.status_label, self._timing, self
        )
        self._live_rate_timer = QTimer(self)
        self._live_rate_timer.setSingleShot(True)
        self._live_rate_timer.timeout.connect(self._live_rates_expired)
        # Calls back when the captions waiting for a live preview's result are due (the
        # controller's captions_wait says when).
        self._captions_wait = controller.captions_wait
        self._captions_timer = QTimer(self)
        self._captions_timer.setSingleShot(True)
        self._captions_timer.timeout.connect(self._captions_due)
        self._ticker = QTimer(self)
        self._ticker.setInterval(TICK_MS)
        self._look: Callable[[], bool] | None = None
        self._look_timer = QTimer(self)
        self._look_timer.setInterval(CLOSE_LOOK_MS)
        self._look_timer.timeout.connect(self._look_again)

        controller.attach(self)
        clips = controller.clips
        self._ticker.timeout.connect(clips.tick)
        bar = self.widgets.clip_bar
        bar.play_button.clicked.connect(lambda _: clips.toggle_play())
        bar.slider.valueChanged.connect(clips.seek)
        self.actions.play.triggered.connect(clips.toggle_play)
        self.actions.previous_frame.triggered.connect(lambda: clips.step(-1))
        self.actions.next_frame.triggered.connect(lambda: clips.step(1))
        # What is drawn again as each part of the session changes.
        renderers: dict[Change, Callable[[], None]] = {
            Change.PHOTO: self._on_model_photo,
            Change.PARAMETERS: self.show_parameters,
            Change.ENGINES: self._on_model_engines,
            Change.SHOW: self._on_model_show,
            Change.LIVE: self._on_model_live,
            Change.JAX: self._on_model_jax,
            Change.RESULTS: self._on_model_results,
            Change.OUTCOME: self._on_model_outcome,
            Change.RUNNING: self._on_model_running,
            # The captions say what compiles, and count the session's programs (the sweep's
            # among them).
            Change.COMPILING: self._show_captions,
            Change.PROGRAMS: self._show_captions,
            Change.PLAYED: self._show_captions,
            Change.OPENING: self._show_placeholders,
        }
        self.session.subscribe(lambda what: renderers[what]())
        # The runs bring each pane its engine's picture fitted to its view, ready to draw; the
        # linked views fit a picture to the smallest of them, so one view's size is each's.
        self._tell_view_sizes()
        for pane in self.widgets.panes:
            pane.view.size_changed.connect(self._tell_view_sizes)

    def _tell_view_sizes(self) -> None:
        for index, pane in enumerate(self.widgets.panes):
            self.session.set_view_size(index, *pane.view.screen_size())

    def show_all(self) -> None:
        """Everything the session holds drawn at once: the window's first look."""
        self._update_title()
        self.show_parameters()  # the kernel a run uses, where no change of them has said it
        self._on_model_engines()
        self._on_model_running()

    def stop(self) -> None:
        """The window closes: no timer fires, a blur by blocks' temporary file goes, and clips
        let go of are no longer looked at (see look_again_later)."""
        self._live_rate_timer.stop()
        self._captions_timer.stop()
        self._look_timer.stop()
        if self.tiled_blur is not None:
            self.tiled_blur.stop_for_exit()

    # --- The session, rendered -----------------------------------------------------------------

    def show_parameters(self) -> None:
        """The parameters' boxes and notes as the session has them: for a change of the
        parameters, and as the controller tells (a typed text's notes change without them)."""
        session = self.session
        self.widgets.controls.show_parameters(
            session.parameters, session.captions.kernel_used(), session.captions.short_kernel_note()
        )
        wait = self._captions_wait.parameters_changed()
        if wait is None:
            self._show_captions()
        else:
            self._call_back_in(self._captions_timer, wait)

    def _captions_due(self) -> None:
        wait = self._captions_wait.due()
        if wait is None:
            self._show_captions()
        else:  # a timer may fire a little early (Qt's coarse timers, by 5 %)
            self._call_back_in(self._captions_timer, wait)

    @staticmethod
    def _call_back_in(timer: QTimer, seconds: float) -> None:
        timer.start(max(1, math.ceil(seconds * 1000)))

    def _on_model_engines(self) -> None:
        for pane, engine in zip(self.widgets.panes, self.session.pane_engines, strict=True):
            pane.set_engine(engine)
        self.widgets.controls.show_timed(self.session.timed, self.session.untimeable())
        self._on_model_results()

    def _on_model_show(self) -> None:
        self.widgets.controls.show_showing(self.session.show)
        for action in self.actions.show.actions():
            action.setChecked(action.data() == self.session.show)
        self._on_model_results()

    def _on_model_live(self) -> None:
        self.actions.live.setChecked(self.session.live)

    def _on_model_jax(self) -> None:
        self._on_model_results()
        self._update_trace_action()  # it needs JAX
        if self.session.jax_device:
            self.jax_ready.emit(self.session.jax_device)

    def _on_model_photo(self) -> None:
        photo = self.session.photo
        assert photo is not None  # heard from set_photo, which is given one
        self.widgets.figures.show_rows(
            [image_figure(display_path(photo.path.name), photo.width, photo.height)]
        )
        self.widgets.figures.clear_result()
        self._on_model_results()
        self._on_model_running()
        self._update_title()

    def _on_model_results(self) -> None:
        if self.controller.playing:  # the panes show the frames playing
            return
        captions = self.session.captions
        for index, pane in enumerate(self.widgets.panes):
            pane.view.set_picture(captions.picture(index), captions.picture_before(index))
            pane.set_placeholder(captions.placeholder(index))
        self._show_captions()
        self.actions.save.setEnabled(bool(captions.saved_results()))

    def _show_placeholders(self) -> None:
        if self.controller.playing:
            return
        for index, pane in enumerate(self.widgets.panes):
            pane.set_placeholder(self.session.captions.placeholder(index))

    def _show_captions(self) -> None:
        self._captions_timer.stop()  # drawn now
        self._captions_wait.drawn()
        if self.controller.playing:  # each pane's caption is its frames per second
            return
        captions = self.session.captions
        mark = captions.out_of_date_mark()
        for index, pane in enumerate(self.widgets.panes):
            caption = captions.caption(index)
            pane.set_caption(caption_html(caption, mark))
            pane.caption.setToolTip(caption.out_of_date or "")
        self.widgets.figures.set_stale(captions.figures_out_of_date())

    def _live_rates_expired(self) -> None:
        # A timer may fire a little early (Qt's coarse timers, by 5 %): a rate still drawn gets
        # another look when it is due to go (asked first: a rate drawn has its look coming).
        remaining = self.session.live_rates.seconds_until_gone()
        if self._captions_wait.rates_expired():
            self._show_captions()
        if remaining is not None:
            self._call_back_in(self._live_rate_timer, remaining + 0.050)

    def _on_model_outcome(self) -> None:
        outcome, session = self.session.outcome, self.session
        assert outcome is not None  # heard from run_done, once it has made one
        photo = outcome.photo
        self.widgets.figures.show_result(
            outcome.result,
            display_path(photo.path.name),
            photo.width,
            photo.height,
            earlier=[*session.captions.earlier_rows(), *session.captions.program_rows()],
            bit_depth=photo.bit_depth,
            paid=session.paid_first_calls(),
        )
        self.widgets.status_label.setText(session.captions.summary())
        self.results_shown.emit(outcome.result)
        self.controller.preview()  # a pane whose engine was chosen while the run went

    def _timing(self) -> bool:
        """Whether a run is timing the engines (a live preview shows no progress)."""
        return self.session.running is not None and not self.session.running.live

    def _on_model_running(self) -> None:
        has_photo = self.session.photo is not None
        self.widgets.run_button.setEnabled(has_photo)
        self.actions.run.setEnabled(has_photo)
        self.actions.sweep.setEnabled(has_photo)
        self._update_trace_action()
        # A live preview is quick and frequent: no progress bar flickering for it.
        self.show_running(self._timing())

    def _update_trace_action(self) -> None:
        self.actions.trace.setEnabled(self.controller.trace_offered())

    def _update_title(self) -> None:
        photo = self.session.photo
        name = (
            display_path(photo.path.name)
            if photo is not None
            else QCoreApplication.translate("MainWindow", "no photo")
        )
        self.parts.window.setWindowTitle(f"{name} — {APP_NAME}")

    # --- WindowView: both a photo's and a clip's --------------------------------------------------

    def show_status(self, text: str) -> None:
        self.widgets.status_label.setText(text)

    def show_running(self, running: bool) -> None:
        self.widgets.cancel_button.setEnabled(running)
        self.actions.cancel.setEnabled(running)
        self.widgets.progress_bar.setVisible(running)

    def show_open_failed(self, error: PhotoError) -> None:
        if self.messages.boxes and self.controller.blocks_offered(error):
            self._offer_blur_by_blocks(error)
            return
        self.messages.warn(
            QCoreApplication.translate("MainWindow", "Cannot Open Photo"),
            translated_problem(error),
            error=error,
        )
        if self.session.photo is not None:
            self.show_status(self.controller.photos.photo_status())

    def remember_file(self, path: Path) -> None:
        self.parts.recent.remember(path)
        settings = self.parts.settings
        remembered = read_settings(settings)
        write_settings(settings, dataclasses.replace(remembered, last_folder=str(path.parent)))

    def warn(
        self, title: str, words: str, error: BaseException | None, *, in_status: bool = False
    ) -> None:
        if isinstance(error, FileProblem):
            words = translated_problem(error)
        if in_status:
            self.show_status(words)
        self.messages.warn(title, words, error=error)

    def fit_to_window(self) -> None:
        self.widgets.view_link.fit_to_window()

    # --- WindowView: a photo's side and its runs ------------------------------------------------

    def show_progress(
        self, engine: str, done: int, total: int, words: tuple[str, str] | None
    ) -> None:
        if words is not None:
            self.run_progress.show(done, total, words)
        self.progress_shown.emit(engine, done, total)

    def show_photo(self, loaded: LoadedPhoto) -> None:
        self.fit_to_window()
        self.photo_shown.emit(loaded.photo)

    def show_live(self, engine: str) -> None:
        # The updates per second go from the captions once the parameters stay still.
        self._live_rate_timer.start(round(LIVE_RATE_SECONDS * 1000) + 50)
        self.live_shown.emit(engine)

    def show_run_stopped(self) -> None:
        self.run_stopped.emit()

    def show_run_failed(self, error: BaseException, words: str) -> None:
        if isinstance(error, FileProblem):  # a file or folder (a trace's): in the user's language
            words = translated_problem(error)
        self.run_failed.emit(words)
        self.messages.warn(
            QCoreApplication.translate("MainWindow", "Run Failed"),
            QCoreApplication.translate("MainWindow", "The comparison failed: {reason}").format(
                reason=words
            ),
            critical=True,
            error=error,
        )

    def show_run_cancelled(self) -> None:
        self.run_cancelled.emit()

    def show_nothing_to_run(self) -> None:
        self.messages.warn(
            QCoreApplication.translate("MainWindow", "Nothing to Run"),
            QCoreApplication.translate("MainWindow", "Tick at least one engine to time."),
        )

    def take_typed_parameters(self) -> None:
        # Ctrl+R while typing: take the text as it is, and show any change made to it.
        self.widgets.size_spin.interpretText()
        self.widgets.sigma_spin.interpretText()

    def record_parameters(self, before: BlurSpec, after: BlurSpec) -> None:
        self.parts.history.record(before, after)

    def _offer_blur_by_blocks(self, error: PhotoError) -> None:
        """A TIFF or zarr image too large to open: offer to blur it to a file by blocks; the
        dialog of a blur started is `tiled_blur` until it ends."""
        log.info("%s", error, exc_info=error)
        self.tiled_blur = ask_to_blur_by_blocks(
            self.parts.window,
            error.path,
            self.session.parameters,
            self.controller.blocks_engine(),
            translated_problem(error),
            self.controller.blur_by_blocks,
        )
        if self.tiled_blur is not None:
            self.tiled_blur.ended.connect(self._on_blurred_by_blocks)
        if self.session.photo is not None:
            self.show_status(self.controller.photos.photo_status())

    def _on_blurred_by_blocks(self, how: str, text: str) -> None:
        self.tiled_blur = None  # the dialog deletes itself
        self.show_status(text)
        self.blur_by_blocks_done.emit(how, text)
        tell_blurred_by_blocks(self.parts.window, self.messages, how, text)

    # --- WindowView: a clip's side --------------------------------------------------------------

    def show_clip_bar(self, frame_count: int | None) -> None:
        self.widgets.clip_bar.show_clip(frame_count)

    def hide_clip_bar(self) -> None:
        self.widgets.clip_bar.hide()

    def enable_clip_actions(self, enabled: bool) -> None:
        for action in self.actions.clip_actions():
            action.setEnabled(enabled)

    def show_playing(self, playing: bool) -> None:
        self.widgets.clip_bar.show_playing(playing)

    def show_position(self, index: int, words: str) -> None:
        self.widgets.clip_bar.show_frame(index, words)

    def show_played(self, state: PlayerState, pane_words: list[tuple[Any, str]]) -> None:
        for pane, (picture, words) in zip(self.widgets.panes, pane_words, strict=True):
            if picture is not None:
                pane.view.set_picture(picture)
                pane.set_placeholder("")
            caption = f"<b>{html.escape(keep_whole(pane.title))}</b>"
            if words:
                caption += f" · {html.escape(keep_whole(words))}"
            pane.set_caption(caption)
        self.played.emit(state)

    def show_clip_stage(self, done: int, total: int, text: str) -> None:
        bar = self.widgets.progress_bar
        bar.setRange(0, total)
        bar.setValue(done)
        bar.setFormat("%p%")
        self.show_status(text)

    def show_clip_result(self, result: ClipComparisonResult, rows: list[Figure]) -> None:
        figures = self.widgets.figures
        figures.show_rows(rows)
        titles = self.session.captions.title
        figures.chart.set_timings(
            [
                (titles(name), seconds, QColor(chart_colour(get_engine(name))))
                for name in result.runs
                if (seconds := result.seconds_per_frame(name)) is not None
            ]
        )

    def start_ticking(self) -> None:
        self._ticker.start()

    def stop_ticking(self) -> None:
        self._ticker.stop()

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
