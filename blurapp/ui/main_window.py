"""BlurApp's main window: widgets over a Session (blurapp.app.session), with the work on a worker.

Handlers are named by direction: `_on_view_*` take what the user did to the session,
`_on_model_*` show what the session has become; the worker's answers go to the session.
"""

from __future__ import annotations

import dataclasses
import html
import itertools
import logging
from pathlib import Path

from PySide6.QtCore import (
    QByteArray,
    QCoreApplication,
    QSettings,
    QStandardPaths,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QActionGroup, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from blurapp.app.session import (
    LEFT,
    LIVE_RATE_SECONDS,
    RIGHT,
    SHOW_LABELS,
    Caption,
    Parameters,
    Session,
)
from blurapp.core.engines import REFERENCE_ENGINE, engine_names
from blurapp.core.figures import format_megapixels
from blurapp.core.kernel import Algorithm, InvalidKernelError, KernelSize
from blurapp.core.photo import PhotoError
from blurapp.core.sample import sample_photo_path
from blurapp.core.wording import display_path
from blurapp.ui.colours import NOTE_COLOUR
from blurapp.ui.dialogs import AboutDialog, ShortcutsDialog, version_rows
from blurapp.ui.figures_panel import FiguresPanel
from blurapp.ui.identity import APP_NAME, DESKTOP_ID, ICON_SIZES, app_icon
from blurapp.ui.image_pane import CaptionLink, ResultPane, ViewLink
from blurapp.ui.presentation import Presentation
from blurapp.ui.results_saving import save_results
from blurapp.ui.settings import (
    MAX_RECENT_FILES,
    default_settings,
    read_setting,
    write_setting,
)
from blurapp.ui.side_panel import BlurControls
from blurapp.ui.sweep_window import open_sweep_window
from blurapp.ui.translations import translated_problem
from blurapp.ui.worker import LoadedPhoto, WorkerClient

__all__ = ["APP_NAME", "DESKTOP_ID", "ICON_SIZES", "AboutDialog", "MainWindow", "app_icon"]

log = logging.getLogger(__name__)

CLOSE_WAIT_MS = 1500  # closing must finish within 2 s
# The smallest window in which the parameters, the figures and two captioned panes can all
# be read (the panes' captions wrap to at most four lines).
MIN_WINDOW_SIZE = (800, 600)


def is_sample_photo(path: Path) -> bool:
    """Whether `path` is the bundled sample photo, which the user did not choose."""
    try:
        return path.resolve() == sample_photo_path().resolve()
    except OSError:
        return False


def _photo_file_filter() -> str:
    from PIL import Image

    extensions = sorted(
        {f"*{ext}" for ext, fmt in Image.registered_extensions().items() if fmt in Image.OPEN}
    )
    images = QCoreApplication.translate("MainWindow", "Images")
    everything = QCoreApplication.translate("MainWindow", "All files")
    return f"{images} ({' '.join(extensions)});;{everything} (*)"


def caption_html(caption: Caption, out_of_date: str) -> str:
    """A pane's caption as the label shows it: the heading bold, an out-of-date mark amber."""
    text = f"<b>{html.escape(caption.heading)}</b>"
    text += "".join(f" · {html.escape(detail)}" for detail in caption.details)
    if caption.out_of_date:
        mark = html.escape(out_of_date)
        text += f' · <span style="color:{NOTE_COLOUR}; font-weight:bold">{mark}</span>'
    return text


class MainWindow(QMainWindow):
    photo_shown = Signal(object)  # Photo, once it is on screen
    results_shown = Signal(object)  # ComparisonResult, once the panes and figures show it
    run_cancelled = Signal()  # the user cancelled; the window shows it at once
    run_stopped = Signal()  # the worker has let go of a cancelled or superseded run
    progress_shown = Signal(str, int, int)  # engine, done, total (0 total: busy, no count)
    run_failed = Signal(str)
    message_shown = Signal(str, str)  # title, text: every warning the user is given
    jax_ready = Signal(str)  # JAX has started in the background, on this device
    blur_by_blocks_done = Signal(str, str)  # how it ended ("written", "failed", "cancelled"), words
    live_shown = Signal(str)  # an engine's live-preview result is in its pane (the engine)
    closed_while_busy = Signal()  # closed while the worker is inside one uninterruptible call

    def __init__(self, settings: QSettings | None = None) -> None:
        super().__init__()
        self.settings = settings if settings is not None else default_settings()
        self.session = Session(QCoreApplication.translate)
        self.show_messages = True  # False: warnings only go out as message_shown (screenshots)
        engines = [(name, self.session.title(name)) for name in engine_names()]

        self._build_panes(engines)
        self.controls = BlurControls(engines, self.session.tr)
        self.figures = FiguresPanel()
        self.side_panel = QWidget()
        self.side_panel.setMinimumWidth(330)
        self.side_panel.setMaximumWidth(520)
        side = QVBoxLayout(self.side_panel)
        side.setContentsMargins(6, 6, 6, 6)
        side.addWidget(self.controls)
        side.addWidget(self.figures, 1)
        # The controls by the names the tests and the menus use.
        controls = self.controls
        self.size_spin, self.auto_size_check = controls.size_spin, controls.auto_size_check
        self.sigma_spin, self.sigma_slider = controls.sigma_spin, controls.sigma_slider
        self.algorithm_combo, self.engine_checks = controls.algorithm_combo, controls.engine_checks
        self.show_combo = controls.show_combo
        self.run_button, self.cancel_button = controls.run_button, controls.cancel_button
        self.effective_size_label = controls.effective_size_label
        self.parameter_note = controls.parameter_note
        self._build_actions()
        self._build_status_bar()
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.side_panel)
        splitter.addWidget(self.panes_widget)
        splitter.setStretchFactor(1, 1)
        splitter.setCollapsible(1, False)
        self.setCentralWidget(splitter)
        self.setMinimumSize(*MIN_WINDOW_SIZE)
        chain = [*self.controls.controls_in_tab_order()]
        for pane in self.panes:
            chain += [pane.engine_combo, pane.view]
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)
        self.setAcceptDrops(True)
        self.setWindowIcon(app_icon())
        self.presentation = Presentation(self)  # never on at launch: not kept in the settings

        self.controls.parameters_edited.connect(self._on_view_parameters_edited)
        self.controls.timed_toggled.connect(self.session.set_timed)
        self.controls.show_chosen.connect(self.set_show)
        self.controls.run_button.clicked.connect(self.run_comparison)
        self.controls.cancel_button.clicked.connect(self.cancel_run)
        for index, pane in enumerate(self.panes):
            pane.engine_chosen.connect(
                lambda engine, index=index: self.set_pane_engine(index, engine)
            )
        self.session.subscribe(self._on_model_changed)
        self._restore_settings()
        self._update_title()
        self._on_model_engines()

        # Last, once nothing above can fail: a thread left running by a failed constructor
        # would abort the whole program.
        self.worker = WorkerClient(self)
        self.worker.photo_loaded.connect(self._on_photo_loaded)
        self.worker.photo_failed.connect(self._on_photo_failed)
        self.worker.progress.connect(self._on_progress)
        self.worker.engine_finished.connect(self._on_engine_finished)
        self.worker.run_finished.connect(
            lambda outcome: self.session.run_done(outcome.result, outcome.differences)
        )
        self.worker.run_stopped.connect(self.run_stopped)
        self.worker.run_failed.connect(self._on_run_failed)
        self.worker.jax_ready.connect(self._on_jax_ready)
        self.worker.jax_unavailable.connect(self.session.jax_failed)
        self._warmed_up = False
        self.tiled_blur = None  # the blur by blocks of an image too large to open, if any
        self._live_rate_timer = QTimer(self)
        self._live_rate_timer.setSingleShot(True)
        self._live_rate_timer.setInterval(round(LIVE_RATE_SECONDS * 1000) + 50)
        self._live_rate_timer.timeout.connect(self._show_captions)
        self._on_model_running()

    # --- Building the window ---------------------------------------------------------------

    def _build_panes(self, engines: list[tuple[str, str]]) -> None:
        self.panes = [ResultPane(engines, engine) for engine in self.session.pane_engines]
        self.left_pane, self.right_pane = self.panes
        self.view_link = ViewLink([pane.view for pane in self.panes])
        self.caption_link = CaptionLink(self.panes)
        for index, pane in enumerate(self.panes):
            pane.selected.connect(lambda index=index: self._select_pane(index))
        self._select_pane(LEFT)
        self.panes_widget = QWidget()
        layout = QHBoxLayout(self.panes_widget)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        for pane in self.panes:
            layout.addWidget(pane, 1)

    def _build_actions(self) -> None:
        menu = self.menuBar()
        file_menu = menu.addMenu(self.tr("&File"))
        self.open_action = file_menu.addAction(
            self.tr("&Open…"), QKeySequence.StandardKey.Open, self.choose_photo
        )
        self.recent_menu = file_menu.addMenu(self.tr("Open &Recent"))
        self.save_action = file_menu.addAction(
            self.tr("&Save Results…"), QKeySequence.StandardKey.Save, self.save_results
        )
        file_menu.addSeparator()
        file_menu.addAction(self.tr("&Quit"), QKeySequence.StandardKey.Quit, self.close)

        edit_menu = menu.addMenu(self.tr("&Edit"))
        self.copy_action = edit_menu.addAction(
            self.tr("&Copy Selected Image"), QKeySequence.StandardKey.Copy, self.copy_selected
        )

        view_menu = menu.addMenu(self.tr("&View"))
        zoom_in = view_menu.addAction(self.tr("Zoom &In"), lambda: self.view_link.zoom_by(1.25))
        # Ctrl+= too: on most keyboards "+" needs Shift.
        zoom_in.setShortcuts(
            [QKeySequence(QKeySequence.StandardKey.ZoomIn), QKeySequence("Ctrl+=")]
        )
        view_menu.addAction(
            self.tr("Zoom &Out"),
            QKeySequence.StandardKey.ZoomOut,
            lambda: self.view_link.zoom_by(0.8),
        )
        view_menu.addAction(
            self.tr("&Fit to Window"), QKeySequence("Ctrl+0"), self.view_link.fit_to_window
        )
        view_menu.addAction(
            self.tr("&Actual Size (100%)"),
            QKeySequence("Ctrl+1"),
            lambda: self.view_link.set_zoom(1.0),
        )
        self.other_pane_action = view_menu.addAction(
            self.tr("Select the Other &Pane"), QKeySequence(Qt.Key.Key_F6), self._select_other_pane
        )
        view_menu.addSeparator()
        self.show_actions = QActionGroup(self)
        for number, (key, label) in enumerate(SHOW_LABELS.items(), start=1):
            action = view_menu.addAction(
                self.session.tr(label),
                QKeySequence(f"Alt+{number}"),
                lambda key=key: self.set_show(key),
            )
            action.setCheckable(True)
            action.setData(key)
            action.setChecked(key == self.session.show)
            self.show_actions.addAction(action)
        view_menu.addSeparator()
        # Checked while on; see blurapp.ui.presentation, which does the rest.
        self.presentation_action = view_menu.addAction(
            self.tr("P&resentation"), QKeySequence(Qt.Key.Key_F11)
        )
        self.presentation_action.setCheckable(True)
        self.live_action = view_menu.addAction(self.tr("&Live Preview"), QKeySequence("Ctrl+L"))
        self.live_action.setCheckable(True)
        self.live_action.setChecked(self.session.live)
        self.live_action.toggled.connect(self.session.set_live)

        run_menu = menu.addMenu(self.tr("&Run"))
        self.run_action = run_menu.addAction(self.tr("&Run"), self.run_comparison)
        self.run_action.setShortcuts(
            [QKeySequence("Ctrl+R"), QKeySequence(QKeySequence.StandardKey.Refresh)]
        )
        self.cancel_action = run_menu.addAction(
            self.tr("&Cancel"), QKeySequence(Qt.Key.Key_Escape), self.cancel_run
        )
        run_menu.addSeparator()
        self.sweep_action = run_menu.addAction(
            self.tr("Scaling &Sweep…"), lambda: open_sweep_window(self)
        )

        help_menu = menu.addMenu(self.tr("&Help"))
        self.shortcuts_action = help_menu.addAction(
            self.tr("&Keyboard Shortcuts"),
            QKeySequence.StandardKey.HelpContents,
            self.show_shortcuts,
        )
        help_menu.addAction(self.tr("&About BlurApp"), self._show_about)
        self._rebuild_recent_menu()

    def _build_status_bar(self) -> None:
        self.progress_bar = QProgressBar()
        self.progress_bar.setMaximumWidth(240)
        self.progress_bar.setTextVisible(True)
        self.progress_bar.hide()
        self.status_label = QLabel()
        self.zoom_label = QLabel()
        self.zoom_label.setToolTip(
            self.tr("Both panes share this zoom: Ctrl+0 fits, Ctrl+1 is 100%")
        )
        self.statusBar().addWidget(self.status_label, 1)
        self.statusBar().addPermanentWidget(self.progress_bar)
        self.statusBar().addPermanentWidget(self.zoom_label)
        for pane in self.panes:
            pane.view.zoom_changed.connect(self._on_zoom_changed)

    def _on_zoom_changed(self, zoom: float) -> None:
        self.zoom_label.setText(self.tr("Zoom {percent}").format(percent=f"{zoom:.0%}"))

    # --- The parameters, as the tests and the menus reach them ---------------------------------

    def kernel_size_setting(self) -> KernelSize:
        """The kernel size a run uses: "auto", or the size in the box (as typed so far)."""
        return self.session.parameters.kernel_size

    def sigma(self) -> float:
        """The sigma a run uses: the one in the box, as typed so far."""
        return self.session.parameters.sigma

    def effective_kernel_size(self) -> int:
        return self.session.parameters.effective_size

    def algorithm(self) -> Algorithm:
        return self.session.parameters.algorithm

    def set_algorithm(self, algorithm: Algorithm) -> None:
        self.set_parameters(algorithm=algorithm)

    def set_parameters(self, **changes) -> None:
        """Set kernel_size, sigma and/or algorithm as if the user had chosen them."""
        given = {key: value for key, value in changes.items() if value is not None}
        self.controls.set_parameters(dataclasses.replace(self.session.parameters, **given))
        self._on_view_parameters_edited()

    def set_pane_engine(self, pane: int, engine: str) -> None:
        """Show `engine` in the left (0) or right (1) pane, as if chosen in its list."""
        before = list(self.session.pane_engines)
        self.session.set_pane_engine(pane, engine)
        if self.session.pane_engines != before:
            self.start_live_preview()

    def set_live(self, live: bool) -> None:
        """Turn the live preview on or off, as View ▸ Live Preview does."""
        self.session.set_live(live)

    def set_timed(self, engine: str, timed: bool) -> None:
        """Tick or untick `engine` under Engines (ValueError for one a pane shows)."""
        self.session.set_timed(engine, timed)

    def _on_view_parameters_edited(self) -> None:
        try:
            parameters = self.controls.parameters()
        except InvalidKernelError:
            return  # the boxes only give values in range; nothing to show otherwise
        before = self.session.parameters
        self.session.set_parameters(parameters)
        self._on_model_parameters()  # the typed-text notes change without the parameters
        if self.session.parameters != before:
            self.start_live_preview(moving=True)

    # --- The session, rendered ---------------------------------------------------------------

    def _on_model_changed(self, what: str) -> None:
        getattr(self, f"_on_model_{what}")()

    def _on_model_parameters(self) -> None:
        session = self.session
        self.controls.show_parameters(
            session.parameters, session.kernel_used(), session.short_kernel_note()
        )
        self._show_captions()

    def _on_model_engines(self) -> None:
        for pane, engine in zip(self.panes, self.session.pane_engines, strict=True):
            pane.set_engine(engine)
        self.controls.show_timed(self.session.timed, self.session.untimeable())
        self._on_model_results()

    def _on_model_show(self) -> None:
        self.controls.show_showing(self.session.show)
        for action in self.show_actions.actions():
            action.setChecked(action.data() == self.session.show)
        self._on_model_results()

    def _on_model_live(self) -> None:
        self.live_action.setChecked(self.session.live)
        self.start_live_preview()  # on: the panes catch up with the parameters now

    def _on_model_jax(self) -> None:
        self._on_model_results()
        if self.session.jax_device:
            self.jax_ready.emit(self.session.jax_device)

    def _on_model_photo(self) -> None:
        session = self.session
        size = format_megapixels(session.photo.width, session.photo.height)
        self.figures.show_rows([("image", f"{display_path(session.photo.path.name)}, {size}")])
        self.figures.clear_result()
        self._on_model_results()
        self._on_model_running()
        self._update_title()

    def _on_model_results(self) -> None:
        session = self.session
        for index, pane in enumerate(self.panes):
            pane.view.set_picture(session.picture(index), session.picture_before(index))
            pane.set_placeholder(session.placeholder(index))
        self._show_captions()
        self.save_action.setEnabled(bool(session.saved_results()))

    def _show_captions(self) -> None:
        mark = self.session.out_of_date_mark()
        for index, pane in enumerate(self.panes):
            caption = self.session.caption(index)
            pane.set_caption(caption_html(caption, mark))
            pane.caption.setToolTip(caption.out_of_date or "")
        self.figures.set_stale(self.session.figures_out_of_date())

    def _on_model_outcome(self) -> None:
        outcome, session = self.session.outcome, self.session
        photo = outcome.photo
        self.figures.show_result(
            outcome.result,
            display_path(photo.path.name),
            photo.width,
            photo.height,
            earlier=session.earlier_rows(),
            bit_depth=photo.bit_depth,
        )
        self.status_label.setText(session.summary())
        self.results_shown.emit(outcome.result)
        self.start_live_preview()  # a pane whose engine was chosen while the run went

    def _on_model_running(self) -> None:
        running = self.session.running is not None
        if not running:
            self.worker.cancel()  # the session's run is the one record: the worker follows it
        has_photo = self.session.photo is not None
        # A live preview is quick and frequent: no progress bar flickering for it.
        timing = running and not self.session.running.live
        self.run_button.setEnabled(has_photo)
        self.run_action.setEnabled(has_photo)
        self.sweep_action.setEnabled(has_photo)
        self.cancel_button.setEnabled(timing)
        self.cancel_action.setEnabled(timing)
        self.progress_bar.setVisible(timing)

    # --- Opening photos -------------------------------------------------------------------

    @property
    def photo(self):
        return self.session.photo

    @property
    def jax_device(self) -> str | None:
        return self.session.jax_device

    def _open_folder(self) -> Path:
        """Where File ▸ Open starts: the last folder a photo came from, else the Pictures folder
        (never the bundled sample's folder, deep inside the installation)."""
        last = read_setting(self.settings, "last_folder")
        bundled = sample_photo_path().parent.resolve()
        if last is not None and Path(last).is_dir() and Path(last).resolve() != bundled:
            return Path(last)
        pictures = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.PicturesLocation)
        return Path(pictures) if pictures and Path(pictures).is_dir() else Path.home()

    def choose_photo(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Open Photo"), display_path(self._open_folder()), _photo_file_filter()
        )
        if path:
            self.open_photo(Path(path))

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._warmed_up:
            # After the window is up: importing JAX takes a second, and not on this thread.
            self._warmed_up = True
            QTimer.singleShot(0, self.worker.warm_up)

    def _on_jax_ready(self, device: str) -> None:
        self.session.jax_started(device)

    def open_photo(self, path: str | Path) -> None:
        """Load `path` on the worker thread; the photo is shown when it has loaded."""
        path = Path(path)
        self.session.run_stopped()  # a run in flight would hold the photo back
        self.worker.load(path)
        self.status_label.setText(self.tr("Opening {name}…").format(name=display_path(path.name)))

    def _on_photo_loaded(self, loaded: LoadedPhoto) -> None:
        self.session.set_photo(loaded.photo, loaded.picture)
        self.view_link.fit_to_window()
        if not is_sample_photo(loaded.photo.path):  # the user never chose it
            self._remember_recent(loaded.photo.path)
            write_setting(self.settings, "last_folder", str(loaded.photo.path.parent))
        status = self._photo_status()
        if loaded.grey_for_memory:
            status += " · " + self.tr(
                "opened in grey: there is not enough memory to blur it in colour"
            )
        self.status_label.setText(status)
        self.start_live_preview()  # first: a Run started on photo_shown supersedes it
        self.photo_shown.emit(loaded.photo)

    def _photo_status(self) -> str:
        return self.session.photo_status(is_sample_photo(self.session.photo.path))

    def _on_photo_failed(self, error: PhotoError) -> None:
        self.status_label.setText(self.tr("Could not open the photo"))
        if self.show_messages and self._offer_blur_by_blocks(error):
            return
        self._warn(self.tr("Cannot Open Photo"), translated_problem(error), error=error)
        if self.photo is not None:
            self.status_label.setText(self._photo_status())

    def _offer_blur_by_blocks(self, error: PhotoError) -> bool:
        """A TIFF or zarr image too large to open: offer to blur it to a file by blocks.
        Whether it was offered (the user was asked, instead of being told it failed)."""
        from blurapp.scale.tiled import needs_tiles
        from blurapp.ui.tiled_blur import offer_blur_by_blocks

        parameters = self.session.parameters
        try:
            if not needs_tiles(error.path, color=parameters.color):
                return False
        except Exception:
            log.debug("could not tell whether %s needs tiles", error.path, exc_info=True)
            return False
        log.info("%s", error, exc_info=error)
        engine = self.session.pane_engines[RIGHT]
        problem = translated_problem(error)
        self.tiled_blur = offer_blur_by_blocks(self, error.path, parameters, engine, problem)
        if self.tiled_blur is not None:
            self.tiled_blur.ended.connect(self._on_blur_by_blocks_done)
        if self.photo is not None:
            self.status_label.setText(self._photo_status())
        return True

    def _on_blur_by_blocks_done(self, how: str, text: str) -> None:
        self.tiled_blur = None  # the dialog deletes itself
        self.status_label.setText(text)
        self.blur_by_blocks_done.emit(how, text)
        if how == "written" and self.show_messages:
            QMessageBox.information(self, self.tr("Blurred by Blocks"), text)
        elif how == "failed":
            self._warn(self.tr("Cannot Blur by Blocks"), text)

    # --- Running --------------------------------------------------------------------------

    def run_comparison(self) -> None:
        """Blur the photo with the engines ticked; a run still in flight is superseded."""
        if self.photo is None:
            return
        # Ctrl+R while typing: take the text as it is, and show any change made to it.
        self.size_spin.interpretText()
        self.sigma_spin.interpretText()
        plan = self.session.start_run()
        if plan is None:
            self._warn(self.tr("Nothing to Run"), self.tr("Tick at least one engine to time."))
            return
        self.worker.run(plan.photo, plan.parameters, plan.engines, plan.repeats)
        self._on_progress(plan.engines[0], 0, 0)

    def start_live_preview(self, moving: bool = False) -> None:
        """Re-blur the panes that do not show the parameters now, if the live preview is on
        (see Session.start_live_preview); `moving`: for a change of the parameters."""
        timing = self.session.running is not None and not self.session.running.live
        plan = self.session.start_live_preview(moving)
        if plan is None:
            return
        self.worker.run(plan.photo, plan.parameters, plan.engines, plan.repeats)
        if timing:  # superseded: say so, or its last progress would stay in the status bar
            self.status_label.setText(
                self.tr("The run stopped for the new parameters; press Run to time them")
            )
        elif moving:  # the last run's "Done: …" no longer describes what the panes show
            self.status_label.setText(
                self.tr("Live preview: one call per engine; press Run to time these parameters")
            )

    def _on_engine_finished(self, done) -> None:
        taken = self.session.engine_done(
            done.engine, done.run, done.error, done.picture, done.final
        )
        if taken and self.session.results[done.engine].live:
            # The updates per second go from the captions once the parameters stay still.
            self._live_rate_timer.start()
            self.live_shown.emit(done.engine)

    def cancel_run(self) -> None:
        if self.session.running is not None:
            self.session.run_stopped()  # and the worker with it (_on_model_running)
            self.status_label.setText(self.tr("Cancelled"))
            self.run_cancelled.emit()

    def is_running(self) -> bool:
        return self.session.running is not None

    def _on_progress(self, engine: str, done: int, total: int) -> None:
        running = self.session.running
        if running is None or not running.live:  # a preview's taps are gone in a blink
            self._show_progress(engine, done, total)
        self.progress_shown.emit(engine, done, total)

    def _show_progress(self, engine: str, done: int, total: int) -> None:
        status, bar_format = self.session.progress(engine, done, total)
        self.progress_bar.setRange(0, total)  # 0, 0: busy, a compiled call reports no progress
        self.progress_bar.setValue(done)
        self.progress_bar.setFormat(bar_format)
        self.status_label.setText(status)

    def _on_run_failed(self, error: Exception) -> None:
        message = f"{type(error).__name__}: {error}"
        self.session.run_stopped()
        self.status_label.setText(self.tr("The run failed"))
        self.run_failed.emit(message)
        self._warn(
            self.tr("Run Failed"),
            self.tr("The comparison failed: {reason}").format(reason=message),
            critical=True,
            error=error,
        )

    # --- What the panes show ----------------------------------------------------------------

    def set_show(self, key: str) -> None:
        """Show the blurred results, the original photo, the difference (right pane), or
        before/after ("split": the original and the blur either side of a divider)."""
        self.session.set_show(key)

    def showing(self) -> str:
        return self.session.show

    def _select_pane(self, index: int) -> None:
        self.selected_pane = index
        for number, pane in enumerate(self.panes):
            pane.set_selected(number == index)

    def _select_other_pane(self) -> None:
        other = RIGHT if self.selected_pane == LEFT else LEFT
        self._select_pane(other)
        self.panes[other].view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def shortcut_rows(self) -> list[tuple[str, str, str]]:
        """(menu, action, keys) for every menu action with a shortcut, as the menus show them."""
        rows = []
        for menu_action in self.menuBar().actions():
            menu = menu_action.menu()
            for action in menu.actions() if menu is not None else []:
                keys = ", ".join(
                    key.toString(QKeySequence.SequenceFormat.NativeText)
                    for key in action.shortcuts()
                )
                if keys:
                    rows.append(
                        (menu_action.text().replace("&", ""), action.text().replace("&", ""), keys)
                    )
        return rows

    def show_shortcuts(self) -> None:
        """Help ▸ Keyboard Shortcuts: every shortcut of the menus, read from the menus."""
        dialog = ShortcutsDialog(self.shortcut_rows(), self)
        dialog.exec()

    # --- Saving and copying -----------------------------------------------------------------

    def save_results(self) -> None:
        """Write each engine's result as PNG into a folder the user picks (see results_saving)."""
        save_results(self)

    def copy_selected(self) -> None:
        pane = self.panes[self.selected_pane]
        if pane.view.has_picture():
            QApplication.clipboard().setImage(pane.view.image())
            self.status_label.setText(
                self.tr("Copied the {engine} image").format(engine=pane.title)
            )

    # --- Drag and drop ----------------------------------------------------------------------

    @staticmethod
    def _dropped_file(mime) -> Path | None:
        for url in mime.urls() if mime.hasUrls() else []:
            if url.isLocalFile():
                return Path(url.toLocalFile())
        return None

    def dragEnterEvent(self, event) -> None:
        if self._dropped_file(event.mimeData()) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event) -> None:
        path = self._dropped_file(event.mimeData())
        if path is not None:
            event.acceptProposedAction()
            self.open_photo(path)

    # --- Recent files and settings ----------------------------------------------------------

    def recent_files(self) -> list[str]:
        """The paths of Open Recent, newest first, exactly as the file system names them."""
        return list(read_setting(self.settings, "recent_files"))

    def _remember_recent(self, path: Path) -> None:
        entry = str(path.resolve())
        recent = [entry] + [item for item in self.recent_files() if item != entry]
        write_setting(self.settings, "recent_files", tuple(recent[:MAX_RECENT_FILES]))
        self._rebuild_recent_menu()

    def _rebuild_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.recent_files()
        for number, item in enumerate(recent, start=1):
            action = self.recent_menu.addAction(
                f"&{number} {display_path(Path(item).name)}",
                lambda item=item: self.open_photo(item),
            )
            action.setToolTip(display_path(item))
        if recent:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction(self.tr("Clear Menu"), self._clear_recent)
        self.recent_menu.setEnabled(bool(recent))

    def _clear_recent(self) -> None:
        write_setting(self.settings, "recent_files", ())
        self._rebuild_recent_menu()

    def _restore_settings(self) -> None:
        geometry = read_setting(self.settings, "geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(1360, 820)
        parameters = Parameters(
            kernel_size=read_setting(self.settings, "kernel_size"),
            sigma=read_setting(self.settings, "sigma"),
            algorithm=read_setting(self.settings, "algorithm"),
            color=read_setting(self.settings, "color"),
        )
        self.controls.set_parameters(parameters)
        self._on_view_parameters_edited()
        for index, engine in enumerate(read_setting(self.settings, "pane_engines")):
            self.session.set_pane_engine(index, engine)
        self.session.set_timed_engines(read_setting(self.settings, "timed_engines"))
        self.session.set_live(read_setting(self.settings, "live_preview"))

    def _save_settings(self) -> None:
        parameters = self.session.parameters
        write_setting(self.settings, "geometry", self.presentation.geometry_to_save())
        write_setting(self.settings, "sigma", parameters.sigma)
        write_setting(self.settings, "kernel_size", parameters.kernel_size)
        write_setting(self.settings, "algorithm", parameters.algorithm)
        write_setting(self.settings, "color", parameters.color)
        write_setting(self.settings, "pane_engines", tuple(self.session.pane_engines))
        write_setting(self.settings, "timed_engines", self.session.timed or (REFERENCE_ENGINE,))
        write_setting(self.settings, "live_preview", self.session.live)
        self.settings.sync()

    # --- The rest -------------------------------------------------------------------------

    def _update_title(self) -> None:
        name = display_path(self.photo.path.name) if self.photo is not None else self.tr("no photo")
        self.setWindowTitle(f"{name} — {APP_NAME}")

    def _warn(
        self, title: str, text: str, *, critical: bool = False, error: BaseException | None = None
    ) -> None:
        """Tell the user; the log gets the message, and `error`'s traceback when there is one.

        This is the one place a window error is logged, so it reaches the terminal once. With
        show_messages off, whoever receives message_shown tells the user (the screenshot prints
        an `error:` line), and the log keeps it to its file.
        """
        level = logging.ERROR if critical else logging.WARNING
        extra = {} if self.show_messages else {"file_only": True}
        log.log(level, "%s: %s", title, text, exc_info=error, extra=extra)
        self.message_shown.emit(title, text)
        if self.show_messages:
            box = QMessageBox.critical if critical else QMessageBox.warning
            box(self, title, text)

    def _show_about(self) -> None:
        from blurapp.core.paths import log_file_path

        dialog = AboutDialog(version_rows(self.jax_device), display_path(log_file_path()), self)
        dialog.exec()

    def closeEvent(self, event: QCloseEvent) -> None:
        self._live_rate_timer.stop()
        if self.tiled_blur is not None:
            self.tiled_blur.close()  # stops its blur; its temporary file goes
        self._save_settings()
        self.session.run_stopped()
        if not self.worker.stop(wait_ms=CLOSE_WAIT_MS):
            # Still inside one compiled JAX call, which cannot be interrupted: the window goes
            # now, and the program ends as soon as that call returns.
            log.info("closing while a JAX call finishes")
            app = QApplication.instance()
            app.setQuitOnLastWindowClosed(False)
            self.worker.thread.finished.connect(app.quit)
            self.closed_while_busy.emit()
        super().closeEvent(event)
