"""The main window's menus: built once over the window's own actions and slots, and the Open
Recent menu over the settings. Their words are the window's ("MainWindow" to translators)."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu, QMenuBar, QWidget

from blurapp.app.captions import SHOW_LABELS
from blurapp.app.clip_jobs import VIDEO_SUFFIXES
from blurapp.app.settings_file import SettingsFile
from blurapp.app.window_settings import MAX_RECENT_FILES, read_settings, write_settings
from blurapp.core.media.containers import PHOTO_SUFFIXES_BEYOND_PILLOW
from blurapp.core.paths import log_file_path
from blurapp.core.wording import QT_TRANSLATE_NOOP, display_path
from blurapp.ui.camera import offer_camera
from blurapp.ui.dialogs import AboutDialog, ShortcutsDialog, version_rows
from blurapp.ui.results_saving import copy_selected, save_results
from blurapp.ui.settings import open_folder
from blurapp.ui.sweep_window import open_sweep_window

if TYPE_CHECKING:
    from blurapp.app.session import Session
    from blurapp.app.window_controller import WindowController
    from blurapp.ui.messages import Messages
    from blurapp.ui.undo import ParameterHistory
    from blurapp.ui.window_layout import WindowWidgets


class MenuWindow(Protocol):
    """What the menus' actions are bound to: the main window (a QMainWindow), its controller
    (what Run, Cancel, Show and the live preview do), its parts, and the few commands only the
    window has."""

    session: Session
    controller: WindowController
    widgets: WindowWidgets
    history: ParameterHistory
    messages: Messages
    settings: SettingsFile
    selected_pane: int

    def menuBar(self) -> QMenuBar: ...

    def choose_file(self) -> None: ...

    def close(self) -> bool: ...

    def select_other_pane(self) -> None: ...

    def record_trace(self) -> None: ...

    def open_camera(self) -> None: ...


# Shortcuts as QKeySequence takes them: a standard key, a key, or text ("Ctrl+L").
Keys = tuple[QKeySequence.StandardKey | Qt.Key | str, ...]


@dataclass(frozen=True, eq=False)
class MenuItem:
    """One action of a menu: its words (in the "MainWindow" context), its shortcuts and what it
    does (a command of the window). Those the window keeps (WindowActions) are named below."""

    text: str
    command: Callable[[MenuWindow], Callable[[], object]] | None = None
    keys: Keys = ()
    checkable: bool = False
    tip: str | None = None


SEPARATOR = None  # a line between groups of actions


class Part(Enum):
    """The parts of a menu that are not plain actions, built by build_menus itself."""

    RECENT = "Open Recent"  # a submenu, filled from the settings (RecentFiles)
    UNDO = "Undo"  # Undo and Redo: the parameter history's (blurapp.ui.undo)
    REDO = "Redo"
    SHOW = "Show"  # Blurred results, Original, Difference, Before/after: a group of one choice


# The actions the window keeps (WindowActions), by name; the others are made in MENUS itself.
OPEN = MenuItem(
    QT_TRANSLATE_NOOP("MainWindow", "&Open…"),
    lambda w: w.choose_file,
    (QKeySequence.StandardKey.Open,),
)

CAMERA = MenuItem(
    QT_TRANSLATE_NOOP("MainWindow", "Open &Camera"),
    lambda w: w.open_camera,
)

SAVE = MenuItem(
    QT_TRANSLATE_NOOP("MainWindow", "&Save Results…"),
    lambda w: (
        lambda: save_results(
            _parent(w), w.controller, w.settings, w.messages, w.widgets.status_label
        )
    ),
    (QKeySequence.StandardKey.Save,),
)

COPY = MenuItem(
    QT_TRANSLATE_NOOP("MainWindow", "&Copy Selected Image"),
    lambda w: lambda: copy_selected(w.widgets.panes[w.selected_pane], w.widgets.status_label),
    (QKeySequence.StandardKey.Copy,),
)

OTHER_PANE = MenuItem(
    QT_TRANSLATE_NOOP("MainWindow", "Select the Other &Pane"),
    lambda w: w.select_other_pane,
    (Qt.Key.Key_F6,),
)

STACKED = MenuItem(
    QT_TRANSLATE_NOOP("MainWindow", "Panes One A&bove the Other"),
    checkable=True,
    tip=QT_TRANSLATE_NOOP(
        "MainWindow",
        "Wide photos get more room one above the other; tall ones side by side",
    ),
)

PRESENTATION = MenuItem(
    QT_TRANSLATE_NOOP("MainWindow", "P&resentation"),
    None,
    (Qt.Key.Key_F11,),
    checkable=True,
)

LIVE = MenuItem(
    QT_TRANSLATE_NOOP("MainWindow", "&Live Preview"),
    None,
    ("Ctrl+L",),
    checkable=True,
)

DETAIL = MenuItem(
    QT_TRANSLATE_NOOP("MainWindow", "&Detail at 100%"),
    None,
    ("Ctrl+D",),
    checkable=True,
)

RUN = MenuItem(
    QT_TRANSLATE_NOOP("MainWindow", "&Run"),
    lambda w: w.controller.run,
    ("Ctrl+R", QKeySequence.StandardKey.Refresh),
)

CANCEL = MenuItem(
    QT_TRANSLATE_NOOP("MainWindow", "&Cancel"),
    lambda w: w.controller.cancel_by_user,
    (Qt.Key.Key_Escape,),
)

TRACE = MenuItem(
    QT_TRANSLATE_NOOP("MainWindow", "Record Profiler &Trace…"),
    lambda w: w.record_trace,
    tip=QT_TRANSLATE_NOOP(
        "MainWindow",
        "Run, recording a JAX profiler trace of the steady calls into a folder, "
        "to open in Perfetto or TensorBoard",
    ),
)

SWEEP = MenuItem(
    QT_TRANSLATE_NOOP("MainWindow", "Scaling &Sweep…"),
    lambda w: functools.partial(open_sweep_window, w),
)

PLAY = MenuItem(
    QT_TRANSLATE_NOOP("ClipDisplay", "&Play/Pause"),
    None,
    (Qt.Key.Key_Space,),
)

PREVIOUS_FRAME = MenuItem(
    QT_TRANSLATE_NOOP("ClipDisplay", "P&revious Frame"),
    None,
    (Qt.Key.Key_Left, ","),
)

NEXT_FRAME = MenuItem(
    QT_TRANSLATE_NOOP("ClipDisplay", "&Next Frame"),
    None,
    (Qt.Key.Key_Right, "."),
)

SHORTCUTS = MenuItem(
    QT_TRANSLATE_NOOP("MainWindow", "&Keyboard Shortcuts"),
    lambda w: functools.partial(show_shortcuts, w),
    (QKeySequence.StandardKey.HelpContents,),
)


# Every menu's actions, in order; the parts built otherwise (Open Recent, Undo and Redo from the
# parameter history, the views of Show) are marked where they go.
MENUS: tuple[tuple[str, tuple[MenuItem | Part | None, ...]], ...] = (
    (
        QT_TRANSLATE_NOOP("MainWindow", "&File"),
        (
            OPEN,
            Part.RECENT,
            # Only while a camera is there: asked each time the menu opens (blurapp.ui.camera).
            CAMERA,
            SAVE,
            SEPARATOR,
            MenuItem(
                QT_TRANSLATE_NOOP("MainWindow", "&Quit"),
                lambda w: w.close,
                (QKeySequence.StandardKey.Quit,),
            ),
        ),
    ),
    (
        QT_TRANSLATE_NOOP("MainWindow", "&Edit"),
        (
            Part.UNDO,
            Part.REDO,
            SEPARATOR,
            COPY,
        ),
    ),
    (
        QT_TRANSLATE_NOOP("MainWindow", "&View"),
        (
            # Ctrl+= too: on most keyboards "+" needs Shift.
            MenuItem(
                QT_TRANSLATE_NOOP("MainWindow", "Zoom &In"),
                lambda w: lambda: w.widgets.view_link.zoom_by(1.25),
                (QKeySequence.StandardKey.ZoomIn, "Ctrl+="),
            ),
            MenuItem(
                QT_TRANSLATE_NOOP("MainWindow", "Zoom &Out"),
                lambda w: lambda: w.widgets.view_link.zoom_by(0.8),
                (QKeySequence.StandardKey.ZoomOut,),
            ),
            MenuItem(
                QT_TRANSLATE_NOOP("MainWindow", "&Fit to Window"),
                lambda w: w.widgets.view_link.fit_to_window,
                ("Ctrl+0",),
            ),
            MenuItem(
                QT_TRANSLATE_NOOP("MainWindow", "&Actual Size (100%)"),
                lambda w: lambda: w.widgets.view_link.set_zoom(1.0),
                ("Ctrl+1",),
            ),
            OTHER_PANE,
            SEPARATOR,
            Part.SHOW,
            SEPARATOR,
            STACKED,
            # Checked while on; see blurapp.ui.presentation, which does the rest.
            PRESENTATION,
            LIVE,
            # At fit zoom a large photo's blur is too fine to see: an inset of it at 100%.
            DETAIL,
        ),
    ),
    (
        QT_TRANSLATE_NOOP("MainWindow", "&Run"),
        (
            RUN,
            CANCEL,
            # Run's run, with a JAX profiler trace of the steady calls (compare --trace).
            TRACE,
            SEPARATOR,
            SWEEP,
        ),
    ),
    (
        # Enabled while a clip is open; the window's display (blurapp.ui.window_display)
        # connects them.
        QT_TRANSLATE_NOOP("ClipDisplay", "&Clip"),
        (
            PLAY,
            PREVIOUS_FRAME,
            NEXT_FRAME,
        ),
    ),
    (
        QT_TRANSLATE_NOOP("MainWindow", "&Help"),
        (
            SHORTCUTS,
            MenuItem(
                QT_TRANSLATE_NOOP("MainWindow", "&About BlurApp"),
                lambda w: lambda: show_about(_parent(w), w.session.jax_device),
            ),
        ),
    ),
)


@dataclass
class WindowActions:
    """The menus' actions the window enables, checks or connects, by name (see MENUS)."""

    open: QAction
    recent_menu: QMenu
    camera: QAction
    save: QAction
    undo: QAction
    redo: QAction
    copy: QAction
    other_pane: QAction
    show: QActionGroup  # Blurred results, Original, Difference, Before/after
    stacked: QAction
    presentation: QAction
    live: QAction
    detail: QAction
    run: QAction
    cancel: QAction
    trace: QAction
    sweep: QAction
    shortcuts: QAction
    play: QAction
    previous_frame: QAction
    next_frame: QAction

    def clip_actions(self) -> tuple[QAction, ...]:
        return (self.play, self.previous_frame, self.next_frame)


def _shortcut(key: QKeySequence.StandardKey | Qt.Key | str) -> QKeySequence:
    return QKeySequence(key)


def build_menus(window: MenuWindow) -> WindowActions:
    """The menu bar's menus from MENUS, with their shortcuts; the actions the window needs
    again."""
    made: dict[MenuItem, QAction] = {}
    recent_menu: QMenu | None = None
    undo: QAction | None = None
    redo: QAction | None = None
    show: QActionGroup | None = None
    for title, items in MENUS:
        context = "ClipDisplay" if title == "&Clip" else "MainWindow"
        menu = window.menuBar().addMenu(QCoreApplication.translate(context, title))
        if title == "&File":
            # Open Camera only while a camera is there, asked as the menu opens.
            menu.aboutToShow.connect(lambda: offer_camera(made[CAMERA]))
        for item in items:
            if item is SEPARATOR:
                menu.addSeparator()
            elif item is Part.RECENT:
                recent_menu = menu.addMenu(QCoreApplication.translate("MainWindow", "Open &Recent"))
            elif item is Part.UNDO:
                undo = _undo_action(menu, window.history)
            elif item is Part.REDO:
                redo = _redo_action(menu, window.history)
            elif item is Part.SHOW:
                show = _show_group(menu, window)
            elif isinstance(item, MenuItem):
                made[item] = _action(menu, context, item, window)
    assert recent_menu is not None and undo is not None and redo is not None and show is not None
    actions = WindowActions(
        open=made[OPEN],
        recent_menu=recent_menu,
        camera=made[CAMERA],
        save=made[SAVE],
        undo=undo,
        redo=redo,
        copy=made[COPY],
        other_pane=made[OTHER_PANE],
        show=show,
        stacked=made[STACKED],
        presentation=made[PRESENTATION],
        live=made[LIVE],
        detail=made[DETAIL],
        run=made[RUN],
        cancel=made[CANCEL],
        trace=made[TRACE],
        sweep=made[SWEEP],
        shortcuts=made[SHORTCUTS],
        play=made[PLAY],
        previous_frame=made[PREVIOUS_FRAME],
        next_frame=made[NEXT_FRAME],
    )
    actions.camera.setVisible(False)
    actions.detail.setChecked(True)
    actions.live.setChecked(window.session.live)
    actions.live.toggled.connect(window.controller.set_live)
    actions.stacked.toggled.connect(window.widgets.arrange_panes)
    actions.detail.toggled.connect(window.widgets.view_link.set_detail_on)
    for action in actions.clip_actions():
        action.setEnabled(False)
    return actions


def _action(menu: QMenu, context: str, item: MenuItem, window: MenuWindow) -> QAction:
    action = menu.addAction(QCoreApplication.translate(context, item.text))
    action.setShortcuts([_shortcut(key) for key in item.keys])
    action.setCheckable(item.checkable)
    if item.tip is not None:
        action.setToolTip(QCoreApplication.translate(context, item.tip))
    if item.command is not None:
        action.triggered.connect(_without_checked(item.command(window)))
    return action


def _without_checked(command: Callable[[], object]) -> Callable[[], None]:
    """A command for QAction.triggered, which passes `checked` to a slot that takes it."""

    def triggered(*_: object) -> None:
        command()

    return triggered


# "Undo Sigma": the stack names the parameter each step changes (blurapp.ui.undo).
def _undo_action(menu: QMenu, history: ParameterHistory) -> QAction:
    action = history.stack.createUndoAction(menu, QCoreApplication.translate("MainWindow", "&Undo"))
    action.setShortcut(QKeySequence.StandardKey.Undo)
    menu.addAction(action)
    return action


def _redo_action(menu: QMenu, history: ParameterHistory) -> QAction:
    action = history.stack.createRedoAction(menu, QCoreApplication.translate("MainWindow", "&Redo"))
    action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
    menu.addAction(action)
    return action


def _show_group(menu: QMenu, window: MenuWindow) -> QActionGroup:
    """View ▸ Blurred results, Original, Difference, Before/after: one of them checked."""
    group = QActionGroup(menu)
    for number, (key, label) in enumerate(SHOW_LABELS.items(), start=1):
        action = menu.addAction(window.session.captions.tr(label))
        action.setShortcut(QKeySequence(f"Alt+{number}"))
        action.triggered.connect(lambda _=False, key=key: window.controller.set_show(key))
        action.setCheckable(True)
        action.setData(key)
        action.setChecked(key == window.session.show)
        group.addAction(action)
    return group


def _open_file_filter() -> str:
    from PIL import Image

    extensions = sorted(
        {f"*{ext}" for ext, fmt in Image.registered_extensions().items() if fmt in Image.OPEN}
        | {f"*{suffix}" for suffix in PHOTO_SUFFIXES_BEYOND_PILLOW}
        | {f"*{suffix}" for suffix in VIDEO_SUFFIXES}
    )
    images = QCoreApplication.translate("MainWindow", "Images")
    everything = QCoreApplication.translate("MainWindow", "All files")
    return f"{images} ({' '.join(extensions)});;{everything} (*)"


def choose_file_to_open(parent: QWidget, settings: SettingsFile) -> Path | None:
    """File ▸ Open's dialog, from the folder open_folder() names: the photo or clip chosen,
    if any."""
    path, _ = QFileDialog.getOpenFileName(
        parent,
        QCoreApplication.translate("MainWindow", "Open Photo"),
        display_path(open_folder(settings)),
        _open_file_filter(),
    )
    return Path(path) if path else None


def choose_trace_folder(parent: QWidget, settings: SettingsFile) -> Path | None:
    """Run ▸ Record Profiler Trace's dialog, from the folder open_folder() names: the folder
    chosen for the trace, if any."""
    path = QFileDialog.getExistingDirectory(
        parent,
        QCoreApplication.translate("MainWindow", "Record Profiler Trace in Folder"),
        display_path(open_folder(settings)),
    )
    return Path(path) if path else None


def shortcut_rows(menu_bar: QMenuBar) -> list[tuple[str, str, str]]:
    """(menu, action, keys) for every menu action with a shortcut, as the menus show them."""
    rows = []
    for menu_action in menu_bar.actions():
        # The stubs say QObject: Qt's QAction.menu() is a template, a QMenu here (or None).
        menu = cast("QMenu | None", menu_action.menu())
        for action in menu.actions() if menu is not None else []:
            keys = ", ".join(
                key.toString(QKeySequence.SequenceFormat.NativeText) for key in action.shortcuts()
            )
            if keys:
                rows.append(
                    (menu_action.text().replace("&", ""), action.text().replace("&", ""), keys)
                )
    return rows


def show_shortcuts(window: MenuWindow) -> None:
    """Help ▸ Keyboard Shortcuts: every shortcut of the menus, read from the menus."""
    ShortcutsDialog(shortcut_rows(window.menuBar()), _parent(window)).exec()


def _parent(window: MenuWindow) -> QWidget:
    """The window as its dialogs' parent: a QWidget too, which a Protocol cannot say."""
    return cast(QWidget, window)


def show_about(parent: QWidget, jax_device: str | None) -> None:
    AboutDialog(version_rows(jax_device), display_path(log_file_path()), parent).exec()


class RecentFiles:
    """File ▸ Open Recent: the photos and clips opened last, newest first, kept in the settings."""

    def __init__(
        self, settings: SettingsFile, open_file: Callable[[str], None], menu: QMenu
    ) -> None:
        self._settings, self._open_file, self.menu = settings, open_file, menu
        self.rebuild()

    def paths(self) -> list[str]:
        """The paths, exactly as the file system names them."""
        return list(read_settings(self._settings).recent_files)

    def remember(self, path: Path) -> None:
        entry = str(path.resolve())
        recent = [entry] + [item for item in self.paths() if item != entry]
        self._keep(tuple(recent[:MAX_RECENT_FILES]))
        self.rebuild()

    def rebuild(self) -> None:
        self.menu.clear()
        recent = self.paths()
        for number, item in enumerate(recent, start=1):

            def open_item(item: str = item) -> None:
                self._open_file(item)

            action = self.menu.addAction(f"&{number} {display_path(Path(item).name)}", open_item)
            action.setToolTip(display_path(item))
        if recent:
            self.menu.addSeparator()
            self.menu.addAction(QCoreApplication.translate("MainWindow", "Clear Menu"), self._clear)
        self.menu.setEnabled(bool(recent))

    def _clear(self) -> None:
        self._keep(())
        self.rebuild()

    def _keep(self, paths: tuple[str, ...]) -> None:
        remembered = read_settings(self._settings)
        write_settings(self._settings, dataclasses.replace(remembered, recent_files=paths))
