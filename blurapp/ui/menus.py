"""The main window's menus: built once over the window's own actions and slots, and the Open
Recent menu over the settings. Their words are the window's ("MainWindow" to translators)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QActionGroup, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu, QMenuBar

from blurapp.app.captions import SHOW_LABELS
from blurapp.app.clip_jobs import VIDEO_SUFFIXES, clip_files
from blurapp.core.wording import display_path
from blurapp.ui.camera import offer_camera, open_camera
from blurapp.ui.clip_player import build_clip_menu
from blurapp.ui.dialogs import AboutDialog, ShortcutsDialog, version_rows
from blurapp.ui.results_saving import copy_selected
from blurapp.ui.settings import MAX_RECENT_FILES, open_folder, read_setting, write_setting
from blurapp.ui.sweep_window import open_sweep_window

if TYPE_CHECKING:
    from blurapp.ui.main_window import MainWindow


def build_menus(window: MainWindow) -> None:
    """File, Edit, View, Run and Help, with their shortcuts; the actions other parts of the
    window enable or check become its attributes (open_action, save_action, run_action…)."""
    menu = window.menuBar()
    file_menu = menu.addMenu(QCoreApplication.translate("MainWindow", "&File"))
    window.open_action = file_menu.addAction(
        QCoreApplication.translate("MainWindow", "&Open…"),
        QKeySequence.StandardKey.Open,
        window.choose_photo,
    )
    window.recent_menu = file_menu.addMenu(QCoreApplication.translate("MainWindow", "Open &Recent"))
    # Only while a camera is there: asked each time the menu opens (blurapp.ui.camera).
    window.camera_action = file_menu.addAction(
        QCoreApplication.translate("MainWindow", "Open &Camera"), lambda: open_camera(window)
    )
    window.camera_action.setVisible(False)
    file_menu.aboutToShow.connect(lambda: offer_camera(window))
    window.save_action = file_menu.addAction(
        QCoreApplication.translate("MainWindow", "&Save Results…"),
        QKeySequence.StandardKey.Save,
        window.save_results,
    )
    file_menu.addSeparator()
    file_menu.addAction(
        QCoreApplication.translate("MainWindow", "&Quit"),
        QKeySequence.StandardKey.Quit,
        window.close,
    )

    edit_menu = menu.addMenu(QCoreApplication.translate("MainWindow", "&Edit"))
    # "Undo Sigma": the stack names the parameter each step changes (blurapp.ui.undo).
    stack = window.history.stack
    window.undo_action = stack.createUndoAction(
        window, QCoreApplication.translate("MainWindow", "&Undo")
    )
    window.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
    window.redo_action = stack.createRedoAction(
        window, QCoreApplication.translate("MainWindow", "&Redo")
    )
    window.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
    edit_menu.addActions([window.undo_action, window.redo_action])
    edit_menu.addSeparator()
    window.copy_action = edit_menu.addAction(
        QCoreApplication.translate("MainWindow", "&Copy Selected Image"),
        QKeySequence.StandardKey.Copy,
        lambda: copy_selected(window),
    )

    view_menu = menu.addMenu(QCoreApplication.translate("MainWindow", "&View"))
    zoom_in = view_menu.addAction(
        QCoreApplication.translate("MainWindow", "Zoom &In"), lambda: window.view_link.zoom_by(1.25)
    )
    # Ctrl+= too: on most keyboards "+" needs Shift.
    zoom_in.setShortcuts([QKeySequence(QKeySequence.StandardKey.ZoomIn), QKeySequence("Ctrl+=")])
    view_menu.addAction(
        QCoreApplication.translate("MainWindow", "Zoom &Out"),
        QKeySequence.StandardKey.ZoomOut,
        lambda: window.view_link.zoom_by(0.8),
    )
    view_menu.addAction(
        QCoreApplication.translate("MainWindow", "&Fit to Window"),
        QKeySequence("Ctrl+0"),
        window.view_link.fit_to_window,
    )
    view_menu.addAction(
        QCoreApplication.translate("MainWindow", "&Actual Size (100%)"),
        QKeySequence("Ctrl+1"),
        lambda: window.view_link.set_zoom(1.0),
    )
    window.other_pane_action = view_menu.addAction(
        QCoreApplication.translate("MainWindow", "Select the Other &Pane"),
        QKeySequence(Qt.Key.Key_F6),
        window.select_other_pane,
    )
    view_menu.addSeparator()
    window.show_actions = QActionGroup(window)
    for number, (key, label) in enumerate(SHOW_LABELS.items(), start=1):
        action = view_menu.addAction(
            window.session.captions.tr(label),
            QKeySequence(f"Alt+{number}"),
            lambda key=key: window.set_show(key),
        )
        action.setCheckable(True)
        action.setData(key)
        action.setChecked(key == window.session.show)
        window.show_actions.addAction(action)
    view_menu.addSeparator()
    window.stacked_action = view_menu.addAction(
        QCoreApplication.translate("MainWindow", "Panes One A&bove the Other")
    )
    window.stacked_action.setCheckable(True)
    window.stacked_action.setToolTip(
        QCoreApplication.translate(
            "MainWindow", "Wide photos get more room one above the other; tall ones side by side"
        )
    )
    window.stacked_action.toggled.connect(window.set_panes_stacked)
    # Checked while on; see blurapp.ui.presentation, which does the rest.
    window.presentation_action = view_menu.addAction(
        QCoreApplication.translate("MainWindow", "P&resentation"), QKeySequence(Qt.Key.Key_F11)
    )
    window.presentation_action.setCheckable(True)
    window.live_action = view_menu.addAction(
        QCoreApplication.translate("MainWindow", "&Live Preview"), QKeySequence("Ctrl+L")
    )
    window.live_action.setCheckable(True)
    window.live_action.setChecked(window.session.live)
    window.live_action.toggled.connect(window.session.set_live)
    # At fit zoom a large photo's blur is too fine to see: an inset of it at 100%.
    window.detail_action = view_menu.addAction(
        QCoreApplication.translate("MainWindow", "&Detail at 100%"), QKeySequence("Ctrl+D")
    )
    window.detail_action.setCheckable(True)
    window.detail_action.setChecked(True)
    window.detail_action.toggled.connect(window.view_link.set_detail_on)

    run_menu = menu.addMenu(QCoreApplication.translate("MainWindow", "&Run"))
    window.run_action = run_menu.addAction(
        QCoreApplication.translate("MainWindow", "&Run"), window.run_comparison
    )
    window.run_action.setShortcuts(
        [QKeySequence("Ctrl+R"), QKeySequence(QKeySequence.StandardKey.Refresh)]
    )
    window.cancel_action = run_menu.addAction(
        QCoreApplication.translate("MainWindow", "&Cancel"),
        QKeySequence(Qt.Key.Key_Escape),
        window.cancel_run,
    )
    run_menu.addSeparator()
    window.sweep_action = run_menu.addAction(
        QCoreApplication.translate("MainWindow", "Scaling &Sweep…"),
        lambda: open_sweep_window(window),
    )

    build_clip_menu(window, menu)

    help_menu = menu.addMenu(QCoreApplication.translate("MainWindow", "&Help"))
    window.shortcuts_action = help_menu.addAction(
        QCoreApplication.translate("MainWindow", "&Keyboard Shortcuts"),
        QKeySequence.StandardKey.HelpContents,
        lambda: show_shortcuts(window),
    )
    help_menu.addAction(
        QCoreApplication.translate("MainWindow", "&About BlurApp"), lambda: show_about(window)
    )


def _photo_file_filter() -> str:
    from PIL import Image

    extensions = sorted(
        {f"*{ext}" for ext, fmt in Image.registered_extensions().items() if fmt in Image.OPEN}
        | ({f"*{suffix}" for suffix in VIDEO_SUFFIXES} if clip_files() is not None else set())
    )
    images = QCoreApplication.translate("MainWindow", "Images")
    everything = QCoreApplication.translate("MainWindow", "All files")
    return f"{images} ({' '.join(extensions)});;{everything} (*)"


def choose_photo_file(window: MainWindow) -> Path | None:
    """File ▸ Open's dialog, from the folder open_folder() names: the photo chosen, if any."""
    path, _ = QFileDialog.getOpenFileName(
        window,
        QCoreApplication.translate("MainWindow", "Open Photo"),
        display_path(open_folder(window.settings)),
        _photo_file_filter(),
    )
    return Path(path) if path else None


def shortcut_rows(menu_bar: QMenuBar) -> list[tuple[str, str, str]]:
    """(menu, action, keys) for every menu action with a shortcut, as the menus show them."""
    rows = []
    for menu_action in menu_bar.actions():
        menu = menu_action.menu()
        for action in menu.actions() if menu is not None else []:
            keys = ", ".join(
                key.toString(QKeySequence.SequenceFormat.NativeText) for key in action.shortcuts()
            )
            if keys:
                rows.append(
                    (menu_action.text().replace("&", ""), action.text().replace("&", ""), keys)
                )
    return rows


def show_shortcuts(window: MainWindow) -> None:
    """Help ▸ Keyboard Shortcuts: every shortcut of the menus, read from the menus."""
    ShortcutsDialog(shortcut_rows(window.menuBar()), window).exec()


def show_about(window: MainWindow) -> None:
    from blurapp.core.paths import log_file_path

    AboutDialog(version_rows(window.jax_device), display_path(log_file_path()), window).exec()


class RecentFiles:
    """File ▸ Open Recent: the photos opened last, newest first, kept in the settings."""

    def __init__(self, window: MainWindow, menu: QMenu) -> None:
        self._window, self.menu = window, menu
        self.rebuild()

    def paths(self) -> list[str]:
        """The paths, exactly as the file system names them."""
        return list(read_setting(self._window.settings, "recent_files"))

    def remember(self, path: Path) -> None:
        entry = str(path.resolve())
        recent = [entry] + [item for item in self.paths() if item != entry]
        write_setting(self._window.settings, "recent_files", tuple(recent[:MAX_RECENT_FILES]))
        self.rebuild()

    def rebuild(self) -> None:
        self.menu.clear()
        recent = self.paths()
        for number, item in enumerate(recent, start=1):
            action = self.menu.addAction(
                f"&{number} {display_path(Path(item).name)}",
                lambda item=item: self._window.open_photo(item),
            )
            action.setToolTip(display_path(item))
        if recent:
            self.menu.addSeparator()
            self.menu.addAction(QCoreApplication.translate("MainWindow", "Clear Menu"), self._clear)
        self.menu.setEnabled(bool(recent))

    def _clear(self) -> None:
        write_setting(self._window.settings, "recent_files", ())
        self.rebuild()
