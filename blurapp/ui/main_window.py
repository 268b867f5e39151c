"""BlurApp's main window: widgets over a Session (blurapp.app.session); what an action does,
its WindowController's (blurapp.app.window_controller), which owns the window's state and is
made before it (window_controller()): the window is its view, forwards what the user does to
it and draws what it is told.

Handlers are named by direction: `_on_view_*` take what the user did to the session,
`_on_model_*` show what the session has become; the `show_*` methods what the controller tells.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import math
from collections.abc import Callable
from pathlib import Path
from typing import cast

from PySide6.QtCore import (
    QCoreApplication,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QApplication,
    QMainWindow,
)

from blurapp.app.captions import LEFT, RIGHT
from blurapp.app.jobs import LoadedPhoto
from blurapp.app.live_rates import LIVE_RATE_SECONDS
from blurapp.app.pixel_info import pixel_words
from blurapp.app.session import Change, Session
from blurapp.app.settings_file import SettingsFile
from blurapp.app.window_controller import WindowController
from blurapp.core.engines import offered_engine_names
from blurapp.core.kernel import Algorithm, InvalidKernelError, KernelSize
from blurapp.core.media.clip import Clip
from blurapp.core.media.photo_checks import PhotoError
from blurapp.core.report.figures import image_figure
from blurapp.core.spec import BlurSpec
from blurapp.core.wording import FileProblem, display_path
from blurapp.ui.background_runner import BackgroundRunner, after_the_running_job
from blurapp.ui.camera import open_camera
from blurapp.ui.clip_display import ClipDisplay
from blurapp.ui.dialogs import AboutDialog
from blurapp.ui.identity import APP_NAME, DESKTOP_ID, ICON_SIZES, app_icon
from blurapp.ui.image_pane import caption_html
from blurapp.ui.image_view import ViewLink
from blurapp.ui.menus import (
    RecentFiles,
    WindowActions,
    build_menus,
    choose_file_to_open,
    choose_trace_folder,
    shortcut_rows,
    show_about,
    show_shortcuts,
)
from blurapp.ui.messages import Messages
from blurapp.ui.opening import accept_drop
from blurapp.ui.presentation import Presentation
from blurapp.ui.results_saving import copy_selected, save_results
from blurapp.ui.run_progress import RunProgress
from blurapp.ui.settings import (
    default_settings,
    read_settings,
    restore_window_settings,
    save_window_settings,
    write_settings,
)
from blurapp.ui.sweep_window import open_sweep_window
from blurapp.ui.tiled_blur import (
    TiledBlurDialog,
    ask_to_blur_by_blocks,
    tell_blurred_by_blocks,
)
from blurapp.ui.translations import translated_problem
from blurapp.ui.undo import ParameterHistory
from blurapp.ui.window_layout import lay_out

__all__ = [
    "APP_NAME",
    "DESKTOP_ID",
    "ICON_SIZES",
    "AboutDialog",
    "MainWindow",
    "app_icon",
    "window_controller",
]

log = logging.getLogger(__name__)

CLOSE_WAIT_MS = 1500  # closing must finish within 2 s
# How long a shown window waits for its first paint before starting its work without it.
FIRST_PAINT_WAIT_MS = 1000


def window_controller() -> WindowController:
    """The window's root, made before the window: its session, in the user's language, and
    the one runner (starting no thread until a job comes) of every job of the window and its
    dialogs."""
    return WindowController(Session(QCoreApplication.translate), BackgroundRunner())


class MainWindow(QMainWindow):
    photo_shown = Signal(object)  # Photo, once it is on screen
    results_shown = Signal(object)  # ComparisonResult, once the panes and figures show it
    run_cancelled = Signal()  # the user cancelled; the window shows it at once
    run_stopped = Signal()  # the runner has let go of a cancelled or superseded run
    progress_shown = Signal(str, int, int)  # engine, done, total (0 total: busy, no count)
    run_failed = Signal(str)
    message_shown = Signal(str, str)  # title, text: every warning the user is given
    jax_ready = Signal(str)  # JAX has started in the background, on this device
    blur_by_blocks_done = Signal(str, str)  # how it ended ("written", "failed", "cancelled"), words
    live_shown = Signal(str)  # an engine's live-preview result is in its pane (the engine)
    closed_while_busy = Signal()  # closed while a job is inside one uninterruptible call

    # The menus' actions by name. It hides QWidget.actions() (the actions added to the window
    # itself), which BlurApp never calls: an attribute where the stubs have a method.
    actions: WindowActions  # type: ignore[assignment]

    def __init__(
        self, settings: SettingsFile | None = None, *, controller: WindowController | None = None
    ) -> None:
        """The window over `controller` (window_controller's, made here when None), which it
        attaches itself to as its view."""
        super().__init__()
        self.settings = settings if settings is not None else default_settings()
        self.controller = controller if controller is not None else window_controller()
        self.session, runner = self.controller.session, self.controller.runner
        # Its jobs on threads, which the window stops on closing (an InlineRunner's would run
        # only when stepped).
        assert isinstance(runner, BackgroundRunner), runner
        self.runner = runner
        # Every warning the user is given; with its boxes off (a screenshot), only as
        # message_shown.
        self.messages = Messages(self)
        self.messages.shown.connect(self.message_shown)
        captions = self.session.captions
        offered = offered_engine_names()
        engines = [(name, captions.choice(name)) for name in offered]
        tips = {name: tip for name in offered if (tip := captions.choice_tip(name)) is not None}

        self.widgets = lay_out(self, engines, self.session.pane_engines, captions.tr, tips)
        self.select_pane(LEFT)
        self.history = ParameterHistory(
            lambda parameters: self.set_parameters(**vars(parameters)),
            self.widgets.sigma_slider,
            self,
        )
        self.actions = build_menus(self)
        self.recent = RecentFiles(self.settings, self.open_file, self.actions.recent_menu)
        self.clips = ClipDisplay(self, self.actions)  # a clip, when one is open, and its playing
        self.controller.attach(self, self.clips)
        self.clips.connect_to(self.controller.clips)
        for pane in self.widgets.panes:
            pane.view.zoom_changed.connect(self._on_zoom_changed)
        # Never on at launch: not kept in the settings.
        self.presentation = Presentation(self, self.widgets, self.actions)

        self.widgets.controls.parameters_edited.connect(self._on_view_parameters_edited)
        self.widgets.controls.timed_toggled.connect(self.controller.set_timed)
        self.widgets.controls.show_chosen.connect(self.controller.set_show)
        self.widgets.controls.run_button.clicked.connect(self.run_comparison)
        self.widgets.controls.cancel_button.clicked.connect(self.cancel_run)
        for index, pane in enumerate(self.widgets.panes):
            pane.selected.connect(lambda index=index: self.select_pane(index))
            pane.engine_chosen.connect(
                lambda engine, index=index: self.set_pane_engine(index, engine)
            )
            pane.view.hovered.connect(
                lambda x, y, before, index=index: self.show_pixel(index, x, y, before)
            )
            pane.view.hover_left.connect(self.statusBar().clearMessage)
        # What the window draws again as each part of the session changes.
        self._renderers: dict[Change, Callable[[], None]] = {
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
        self.session.subscribe(lambda what: self._renderers[what]())
        restore_window_settings(self)
        self.history.stack.clear()  # the parameters of the last launch are no step to undo
        self._update_title()
        self._on_model_engines()

        self._warmed_up = False
        # What waits for the window's first paint (after_first_paint); None once painted.
        self._waiting_for_paint: list[Callable[[], None]] | None = []
        self._closed = False
        # The blur by blocks of an image too large to open, if any.
        self.tiled_blur: TiledBlurDialog | None = None
        self.run_progress = RunProgress(
            self.widgets.progress_bar, self.widgets.status_label, self._timing, self
        )
        self._live_rate_timer = QTimer(self)
        self._live_rate_timer.setSingleShot(True)
        self._live_rate_timer.timeout.connect(self._live_rates_expired)
        self._on_model_running()

    def _on_zoom_changed(self, zoom: float) -> None:
        self.widgets.zoom_label.setText(self.tr("Zoom {percent}").format(percent=f"{zoom:.0%}"))

    # --- The parameters, as the tests and the menus reach them ---------------------------------

    def kernel_size_setting(self) -> KernelSize:
        """The kernel size a run uses: "auto", or the size in the box (as typed so far)."""
        return self.session.parameters.kernel_size

    def sigma(self) -> float:
        """The sigma a run uses: the one in the box, as typed so far."""
        return self.session.parameters.sigma

    def algorithm(self) -> Algorithm:
        return self.session.parameters.algorithm

    def set_algorithm(self, algorithm: Algorithm) -> None:
        self.set_parameters(algorithm=algorithm)

    def set_parameters(self, **changes) -> None:
        """Set kernel_size, sigma and/or algorithm as if the user had chosen them."""
        given = {key: value for key, value in changes.items() if value is not None}
        self.widgets.controls.set_parameters(dataclasses.replace(self.session.parameters, **given))
        self._on_view_parameters_edited()

    def set_pane_engine(self, pane: int, engine: str) -> None:
        """Show `engine` in the left (0) or right (1) pane, as if chosen in its list."""
        self.controller.set_pane_engine(pane, engine)

    def set_live(self, live: bool) -> None:
        """Turn the live preview on or off, as View ▸ Live Preview does."""
        self.controller.set_live(live)

    def set_timed(self, engine: str, timed: bool) -> None:
        """Tick or untick `engine` under Engines (ValueError for one a pane shows)."""
        self.controller.set_timed(engine, timed)

    def _on_view_parameters_edited(self) -> None:
        try:
            parameters = self.widgets.controls.parameters()
        except InvalidKernelError:
            return  # the boxes only give values in range; nothing to show otherwise
        self.controller.edit_parameters(parameters)

    # --- The session, rendered ---------------------------------------------------------------

    def show_parameters(self) -> None:
        """The parameters' boxes and notes as the session has them: for a change of the
        parameters, and as the controller tells (a typed text's notes change without them)."""
        session = self.session
        self.widgets.controls.show_parameters(
            session.parameters, session.captions.kernel_used(), session.captions.short_kernel_note()
        )
        self._show_captions()

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
        session = self.session
        photo = session.photo
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
        session = self.session
        for index, pane in enumerate(self.widgets.panes):
            pane.view.set_picture(
                session.captions.picture(index), session.captions.picture_before(index)
            )
            pane.set_placeholder(session.captions.placeholder(index))
        self._show_captions()
        self.actions.save.setEnabled(bool(session.captions.saved_results()))

    def _show_placeholders(self) -> None:
        if self.controller.playing:
            return
        for index, pane in enumerate(self.widgets.panes):
            pane.set_placeholder(self.session.captions.placeholder(index))

    def _show_captions(self) -> None:
        if self.controller.playing:  # each pane's caption is its frames per second
            return
        mark = self.session.captions.out_of_date_mark()
        for index, pane in enumerate(self.widgets.panes):
            caption = self.session.captions.caption(index)
            pane.set_caption(caption_html(caption, mark))
            pane.caption.setToolTip(caption.out_of_date or "")
        self.widgets.figures.set_stale(self.session.captions.figures_out_of_date())

    def _live_rates_expired(self) -> None:
        # A timer may fire a little early (Qt's coarse timers, by 5 %): a rate still drawn gets
        # another look when it is due to go (asked first: a rate drawn has its look coming).
        remaining = self.session.live_rates.seconds_until_gone()
        self._show_captions()
        if remaining is not None:
            self._live_rate_timer.start(max(1, math.ceil(remaining * 1000)) + 50)

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
        # A live preview is quick and frequent: no progress bar flickering for it.
        timing = self._timing()
        self.widgets.run_button.setEnabled(has_photo)
        self.actions.run.setEnabled(has_photo)
        self.actions.sweep.setEnabled(has_photo)
        self._update_trace_action()
        self.show_running(timing)

    def _update_trace_action(self) -> None:
        self.actions.trace.setEnabled(self.controller.trace_offered())

    # --- Opening photos -------------------------------------------------------------------

    @property
    def photo(self):
        return self.session.photo

    @property
    def jax_device(self) -> str | None:
        return self.session.jax_device

    def choose_file(self) -> None:
        """File ▸ Open: the photo or clip the user picks, opened."""
        if (path := choose_file_to_open(self, self.settings)) is not None:
            self.open_file(path)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._warmed_up:
            # After the window is on screen: importing JAX takes a second, and not on this
            # thread; the runner's first job imports superqt on this one.
            self._warmed_up = True
            self.after_first_paint(self.controller.photos.warm_up)
            # A window shown but never painted (started minimised) starts its work all the same.
            QTimer.singleShot(FIRST_PAINT_WAIT_MS, self, self._first_painted)

    def after_first_paint(self, callback: Callable[[], None]) -> None:
        """Call `callback` from the event loop once the window has been painted for the first
        time (at once if it has been): work the first paint does not need (a job's start,
        imports) then never holds it back. Never once the window is closed."""
        if self._waiting_for_paint is None:
            QTimer.singleShot(0, self, functools.partial(self._unless_closed, callback))
        else:
            self._waiting_for_paint.append(callback)

    def _unless_closed(self, callback: Callable[[], None]) -> None:
        # A window closed before its first paint starts no work: its runner is stopped.
        if not self._closed:
            callback()

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if self._waiting_for_paint is not None:
            # From the event loop: after this paint reaches the screen with its children's.
            QTimer.singleShot(0, self, self._first_painted)

    def _first_painted(self) -> None:
        waiting, self._waiting_for_paint = self._waiting_for_paint, None
        for callback in waiting or ():
            QTimer.singleShot(0, self, functools.partial(self._unless_closed, callback))

    def open_file(self, path: str | Path) -> None:
        """Open `path` on the runner, a photo or a clip; it is shown once it has opened."""
        self.controller.open_path(Path(path))

    def open_clip(self, clip: Clip) -> None:
        """Show `clip` (a file's, a camera's, frames made in memory), paused on its first frame."""
        self.controller.open_clip(clip)

    # --- Running --------------------------------------------------------------------------

    def run_comparison(self) -> None:
        """Run: the photo's comparison, or a span of the clip's frames from the one shown."""
        self.controller.run()

    def record_trace(self) -> None:
        """Run ▸ Record Profiler Trace: the run Run makes, with a JAX profiler trace of its
        steady calls in a folder the user picks; a photo's only, never a clip's."""
        if not self.controller.traceable():
            return
        folder = choose_trace_folder(self, self.settings)
        if folder is not None:
            self.controller.run(trace=folder)

    def cancel_run(self) -> None:
        self.controller.cancel_by_user()

    def is_running(self) -> bool:
        return self.controller.is_running()

    # --- What the controller tells (blurapp.app.window_controller.ControlledWindow) -----------

    def take_typed_parameters(self) -> None:
        # Ctrl+R while typing: take the text as it is, and show any change made to it.
        self.widgets.size_spin.interpretText()
        self.widgets.sigma_spin.interpretText()

    def show_nothing_to_run(self) -> None:
        self.messages.warn(self.tr("Nothing to Run"), self.tr("Tick at least one engine to time."))

    def record_parameters(self, before: BlurSpec, after: BlurSpec) -> None:
        self.history.record(before, after)

    def show_run_cancelled(self) -> None:
        self.run_cancelled.emit()

    def show_status(self, text: str) -> None:
        self.widgets.status_label.setText(text)

    def show_progress(
        self, engine: str, done: int, total: int, words: tuple[str, str] | None
    ) -> None:
        if words is not None:
            self.run_progress.show(done, total, words)
        self.progress_shown.emit(engine, done, total)

    def show_photo(self, loaded: LoadedPhoto) -> None:
        self.widgets.view_link.fit_to_window()
        self.photo_shown.emit(loaded.photo)

    def show_photo_failed(self, error: PhotoError) -> None:
        if self.messages.boxes and self.controller.blocks_offered(error):
            self._offer_blur_by_blocks(error)
            return
        self.messages.warn(self.tr("Cannot Open Photo"), translated_problem(error), error=error)
        if self.photo is not None:
            self.widgets.status_label.setText(self.controller.photos.photo_status())

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
            self.tr("Run Failed"),
            self.tr("The comparison failed: {reason}").format(reason=words),
            critical=True,
            error=error,
        )

    def _offer_blur_by_blocks(self, error: PhotoError) -> None:
        """A TIFF or zarr image too large to open: offer to blur it to a file by blocks; the
        dialog of a blur started is `tiled_blur` until it ends."""
        log.info("%s", error, exc_info=error)
        self.tiled_blur = ask_to_blur_by_blocks(
            self,
            error.path,
            self.session.parameters,
            self.controller.blocks_engine(),
            translated_problem(error),
            self.controller.blur_by_blocks,
        )
        if self.tiled_blur is not None:
            self.tiled_blur.ended.connect(self._on_blurred_by_blocks)
        if self.photo is not None:
            self.widgets.status_label.setText(self.controller.photos.photo_status())

    def _on_blurred_by_blocks(self, how: str, text: str) -> None:
        self.tiled_blur = None  # the dialog deletes itself
        self.widgets.status_label.setText(text)
        self.blur_by_blocks_done.emit(how, text)
        tell_blurred_by_blocks(self, self.messages, how, text)

    # --- What the panes show ----------------------------------------------------------------

    def set_show(self, key: str) -> None:
        """Show the blurred results, the original photo, the difference (right pane), or
        before/after ("split": the original and the blur either side of a divider)."""
        self.controller.set_show(key)

    def show_pixel(self, pane: int, x: int, y: int, before: bool = False) -> None:
        """The status bar says what pixel (x, y) of `pane` holds, over its usual message."""
        words = pixel_words(self.session.captions, pane, x, y, before=before)
        if words:
            self.statusBar().showMessage(words)
        else:
            self.statusBar().clearMessage()

    def set_panes_stacked(self, stacked: bool) -> None:
        """The panes one above the other, or side by side, as View ▸ Panes One Above the Other."""
        self.actions.stacked.setChecked(stacked)
        self.widgets.arrange_panes(stacked)

    def panes_stacked(self) -> bool:
        return self.actions.stacked.isChecked()

    def set_detail_shown(self, shown: bool) -> None:
        """View ▸ Detail at 100%: the inset of a reduced picture's pixels at 100%, or none."""
        self.actions.detail.setChecked(shown)

    def detail_shown(self) -> bool:
        return self.actions.detail.isChecked()

    def select_pane(self, index: int) -> None:
        self.selected_pane = index
        for number, pane in enumerate(self.widgets.panes):
            pane.set_selected(number == index)

    def select_other_pane(self) -> None:
        other = RIGHT if self.selected_pane == LEFT else LEFT
        self.select_pane(other)
        self.widgets.panes[other].view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def shortcut_rows(self) -> list[tuple[str, str, str]]:
        """(menu, action, keys) for every menu action with a shortcut, as the menus show them."""
        return shortcut_rows(self.menuBar())

    # --- Saving and copying -----------------------------------------------------------------

    def save_results(self) -> None:
        """Write each engine's result as PNG into a folder the user picks (see results_saving)."""
        save_results(self)

    # --- Drag and drop ----------------------------------------------------------------------

    def dragEnterEvent(self, event) -> None:
        accept_drop(event)

    def dropEvent(self, event) -> None:
        path = accept_drop(event)
        if path is not None:
            self.open_file(path)

    # --- Recent files and settings ----------------------------------------------------------

    def recent_files(self) -> list[str]:
        """The paths of Open Recent, newest first, exactly as the file system names them."""
        return self.recent.paths()

    # --- The rest -------------------------------------------------------------------------

    def _update_title(self) -> None:
        name = display_path(self.photo.path.name) if self.photo is not None else self.tr("no photo")
        self.setWindowTitle(f"{name} — {APP_NAME}")

    # --- The menus' commands (blurapp.ui.menus) ------------------------------------------------

    @property
    def view_link(self) -> ViewLink:
        return self.widgets.view_link

    def show_about(self) -> None:
        show_about(self, self.jax_device)

    def show_shortcuts(self) -> None:
        show_shortcuts(self)

    def copy_selected(self) -> None:
        copy_selected(self)

    def open_sweep(self) -> None:
        open_sweep_window(self)

    def open_camera(self) -> None:
        clip = open_camera(self.messages)
        if clip is not None:
            self.open_clip(clip)
            self.controller.clips.play()

    def remember_file(self, path: Path) -> None:
        """A file the user opened: Open Recent, and the folder the next Open starts in."""
        self.recent.remember(path)
        remembered = read_settings(self.settings)
        write_settings(self.settings, dataclasses.replace(remembered, last_folder=str(path.parent)))

    def show_running(self, running: bool) -> None:
        """A timed run is going: Cancel, and the progress bar."""
        self.widgets.cancel_button.setEnabled(running)
        self.actions.cancel.setEnabled(running)
        self.widgets.progress_bar.setVisible(running)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._closed = True
        self._live_rate_timer.stop()
        if self.tiled_blur is not None:
            self.tiled_blur.stop_for_exit()  # its temporary file goes
        save_window_settings(self)
        self.controller.stop()
        self.clips.stop_looking()
        if not self.runner.stop(wait_ms=CLOSE_WAIT_MS):
            # Still inside one compiled JAX call, which cannot be interrupted: the window goes
            # now, and the program ends as soon as that call returns.
            log.info("closing while a JAX call finishes")
            # The window's own QApplication, which the stubs know only as a QCoreApplication.
            app = cast(QApplication, QApplication.instance())
            app.setQuitOnLastWindowClosed(False)
            after_the_running_job(app.quit)
            self.closed_while_busy.emit()
        super().closeEvent(event)
