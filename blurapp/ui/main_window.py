"""BlurApp's main window: widgets over a Session (blurapp.app.session); what an action does,
its WindowController's (blurapp.app.window_controller), which owns the window's state and is
made before it (window_controller()). The window lays out its widgets and menus and forwards
what the user does to the controller (`_on_view_*` handlers); what it shows, the session
rendered and what the controller tells, is drawn by its WindowDisplay
(blurapp.ui.window_display), the controller's one view.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
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
from blurapp.app.pixel_info import pixel_words
from blurapp.app.session import Session
from blurapp.app.settings_file import SettingsFile
from blurapp.app.window_controller import WindowController
from blurapp.app.window_settings import default_settings
from blurapp.core.engines import offered_engine_names
from blurapp.core.kernel import InvalidKernelError
from blurapp.ui.background_runner import BackgroundRunner, after_the_running_job
from blurapp.ui.camera import open_camera
from blurapp.ui.dialogs import AboutDialog
from blurapp.ui.identity import APP_NAME, DESKTOP_ID, ICON_SIZES, app_icon
from blurapp.ui.menus import (
    RecentFiles,
    WindowActions,
    build_menus,
    choose_file_to_open,
    choose_trace_folder,
)
from blurapp.ui.messages import Messages
from blurapp.ui.opening import accept_drop
from blurapp.ui.presentation import Presentation
from blurapp.ui.settings import restore_window_settings, save_window_settings
from blurapp.ui.undo import ParameterHistory
from blurapp.ui.window_display import WindowDisplay, WindowParts
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
    """The window: its widgets laid out and connected to its WindowController, which decides;
    what it shows is drawn by its WindowDisplay (`display`), the controller's view, whose
    signals say what has been shown."""

    message_shown = Signal(str, str)  # title, text: every warning the user is given
    closed_while_busy = Signal()  # closed while a job is inside one uninterruptible call

    # The menus' actions by name. It hides QWidget.actions() (the actions added to the window
    # itself), which BlurApp never calls: an attribute where the stubs have a method.
    actions: WindowActions  # type: ignore[assignment]

    def __init__(
        self, settings: SettingsFile | None = None, *, controller: WindowController | None = None
    ) -> None:
        """The window over `controller` (window_controller's, made here when None), whose view
        its display attaches itself as."""
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
        parts = WindowParts(
            self,
            self.controller,
            self.widgets,
            self.actions,
            self.messages,
            self.history,
            self.recent,
            self.settings,
        )
        # What the window shows: the session rendered, and what the controller tells.
        self.display = WindowDisplay(parts)
        for pane in self.widgets.panes:
            pane.view.zoom_changed.connect(self._on_zoom_changed)
        # Never on at launch: not kept in the settings.
        self.presentation = Presentation(self, self.widgets, self.actions)

        controls = self.widgets.controls
        controls.parameters_edited.connect(self._on_view_parameters_edited)
        controls.timed_toggled.connect(self.controller.set_timed)
        controls.show_chosen.connect(self.controller.set_show)
        controls.run_button.clicked.connect(lambda: self.controller.run())
        controls.cancel_button.clicked.connect(lambda: self.controller.cancel_by_user())
        for index, pane in enumerate(self.widgets.panes):
            pane.selected.connect(lambda index=index: self.select_pane(index))
            pane.engine_chosen.connect(
                lambda engine, index=index: self.controller.set_pane_engine(index, engine)
            )
            pane.view.hovered.connect(
                lambda x, y, before, index=index: self.show_pixel(index, x, y, before)
            )
            pane.view.hover_left.connect(self.statusBar().clearMessage)
        remembered = restore_window_settings(
            self, self.settings, self.controller, self.set_parameters
        )
        self.actions.stacked.setChecked(remembered.panes_stacked)  # the panes follow it
        self.actions.detail.setChecked(remembered.detail_inset)
        self.history.stack.clear()  # the parameters of the last launch are no step to undo
        self.display.show_all()

        self._warmed_up = False
        # What waits for the window's first paint (after_first_paint); None once painted.
        self._waiting_for_paint: list[Callable[[], None]] | None = []
        self._closed = False

    def _on_zoom_changed(self, zoom: float) -> None:
        self.widgets.zoom_label.setText(self.tr("Zoom {percent}").format(percent=f"{zoom:.0%}"))

    # --- The parameters ------------------------------------------------------------------------

    def set_parameters(self, **changes) -> None:
        """Set kernel_size, sigma, algorithm and/or color as if the user had chosen them."""
        given = {key: value for key, value in changes.items() if value is not None}
        wanted = dataclasses.replace(self.session.parameters, **given)
        self.widgets.controls.set_parameters(wanted)
        # The boxes' own signals have handed the session a change (each draws the window's
        # captions again, as the live preview's every change waits on): only what they did not
        # bring is edited here.
        if self.session.parameters != wanted:
            self._on_view_parameters_edited()

    def _on_view_parameters_edited(self) -> None:
        try:
            parameters = self.widgets.controls.parameters()
        except InvalidKernelError:
            return  # the boxes only give values in range; nothing to show otherwise
        self.controller.edit_parameters(parameters)

    # --- Opening photos and clips -------------------------------------------------------------

    @property
    def photo(self):
        return self.session.photo

    def choose_file(self) -> None:
        """File ▸ Open: the photo or clip the user picks, opened."""
        if (path := choose_file_to_open(self, self.settings)) is not None:
            self.open_file(path)

    def open_file(self, path: str | Path) -> None:
        """Open `path` on the runner, a photo or a clip; it is shown once it has opened."""
        self.controller.open_path(Path(path))

    def open_camera(self) -> None:
        """File ▸ Open Camera: the camera's clip, playing."""
        clip = open_camera(self.messages)
        if clip is not None:
            self.controller.open_clip(clip)
            self.controller.clips.play()

    def dragEnterEvent(self, event) -> None:
        accept_drop(event)

    def dropEvent(self, event) -> None:
        path = accept_drop(event)
        if path is not None:
            self.open_file(path)

    # --- The first paint ------------------------------------------------------------------------

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

    # --- Running ------------------------------------------------------------------------------

    def record_trace(self) -> None:
        """Run ▸ Record Profiler Trace: the run Run makes, with a JAX profiler trace of its
        steady calls in a folder the user picks; a photo's only, never a clip's."""
        if not self.controller.traceable():
            return
        folder = choose_trace_folder(self, self.settings)
        if folder is not None:
            self.controller.run(trace=folder)

    # --- The panes ------------------------------------------------------------------------------

    def show_pixel(self, pane: int, x: int, y: int, before: bool = False) -> None:
        """The status bar says what pixel (x, y) of `pane` holds, over its usual message."""
        words = pixel_words(self.session.captions, pane, x, y, before=before)
        if words:
            self.statusBar().showMessage(words)
        else:
            self.statusBar().clearMessage()

    def select_pane(self, index: int) -> None:
        self.selected_pane = index
        for number, pane in enumerate(self.widgets.panes):
            pane.set_selected(number == index)

    def select_other_pane(self) -> None:
        other = RIGHT if self.selected_pane == LEFT else LEFT
        self.select_pane(other)
        self.widgets.panes[other].view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    # --- Closing --------------------------------------------------------------------------------

    def save_settings(self) -> None:
        """Write what the window remembers between launches, as closing it does."""
        save_window_settings(
            self.settings,
            self.session,
            self.presentation.geometry_to_save(),
            panes_stacked=self.actions.stacked.isChecked(),
            detail_inset=self.actions.detail.isChecked(),
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        self._closed = True
        self.save_settings()
        self.controller.stop()
        self.display.stop()
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
