"""BlurApp's main window: a view over blurapp.core, with all the work on a worker thread."""

from __future__ import annotations

import html
import itertools
import logging
import os
import platform
import sys
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QByteArray,
    QCoreApplication,
    QSettings,
    QSize,
    QStandardPaths,
    Qt,
    QTimer,
    Signal,
    Slot,
    qVersion,
)
from PySide6.QtGui import QActionGroup, QCloseEvent, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSlider,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from blurapp import __version__
from blurapp.core.comparison import ComparisonResult
from blurapp.core.engines import DEFAULT_REPEATS
from blurapp.core.figures import (
    describe_kernel,
    format_megapixels,
    format_ms,
    short_kernel_note,
)
from blurapp.core.kernel import (
    ALGORITHMS,
    DEFAULT_ALGORITHM,
    DEFAULT_KERNEL_SIZE,
    DEFAULT_SIGMA,
    MAX_KERNEL_SIZE,
    MAX_SIGMA,
    MIN_SIGMA,
    Algorithm,
    InvalidKernelError,
    KernelSize,
    auto_kernel_size,
    check_kernel_size,
    check_sigma,
    effective_kernel_size,
)
from blurapp.core.photo import Photo, PhotoError
from blurapp.core.runs import Compilation
from blurapp.core.sample import sample_photo_path
from blurapp.core.saving import OutputError, check_output_path, save_output
from blurapp.core.wording import FileProblem, display_path
from blurapp.ui.figures_panel import FiguresPanel, figure_text
from blurapp.ui.image_pane import CaptionLink, ResultPane, ViewLink
from blurapp.ui.worker import EngineResult, LoadedPhoto, RunOutcome, RunRequest, WorkerThread

log = logging.getLogger(__name__)

APP_NAME = "BlurApp"
DESKTOP_ID = "io.github.blurapp.BlurApp"  # the .desktop and AppStream id (packaging/linux)
MAX_RECENT_FILES = 8
CLOSE_WAIT_MS = 1500  # closing must finish within 2 s
# The smallest window in which the parameters, the figures and two captioned panes can all
# be read (the panes' captions wrap to at most four lines).
MIN_WINDOW_SIZE = (800, 600)
SIGMA_SLIDER_STEPS = 10  # slider positions per unit of sigma

# Labels are marked here and translated where they are shown (self.tr).
ENGINE_CHOICES: list[tuple[str, tuple[str, ...]]] = [
    (QT_TRANSLATE_NOOP("MainWindow", "NumPy and JAX"), ("numpy", "jax")),
    (QT_TRANSLATE_NOOP("MainWindow", "NumPy only"), ("numpy",)),
    (QT_TRANSLATE_NOOP("MainWindow", "JAX only"), ("jax",)),
]
ENGINE_TITLES = {"numpy": "NumPy", "jax": "JAX-jit"}  # names, not translated
ALGORITHM_CHOICES: list[tuple[Algorithm, str]] = [
    ("2d", QT_TRANSLATE_NOOP("MainWindow", "2-D (tutorial)")),
    ("separable", QT_TRANSLATE_NOOP("MainWindow", "Separable")),
]
SHOW_CHOICES = [
    ("blurred", QT_TRANSLATE_NOOP("MainWindow", "Blurred results")),
    ("original", QT_TRANSLATE_NOOP("MainWindow", "Original")),
    ("difference", QT_TRANSLATE_NOOP("MainWindow", "Difference")),
]


ICON_SIZES = (16, 22, 24, 32, 48, 64, 128, 256)


def app_icon() -> QIcon:
    """BlurApp's icon at every size it is drawn at (see resources/icons)."""
    from blurapp.core.sample import resource_path

    icon = QIcon()
    for size in ICON_SIZES:
        icon.addFile(str(resource_path(f"icons/blurapp-{size}.png")), QSize(size, size))
    return icon


def translated_problem(error: FileProblem) -> str:
    """A file problem's message in the user's language (the core words it in English)."""
    return display_path(
        error.translated(lambda text: QCoreApplication.translate(FileProblem.CONTEXT, text))
    )


# A path whose bytes are not UTF-8 cannot go through QSettings as text: it is stored as
# this prefix and the bytes in hex.
RAW_PATH_PREFIX = "bytes:"


def path_to_setting(path: str | os.PathLike[str]) -> str:
    text = os.fspath(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return RAW_PATH_PREFIX + os.fsencode(text).hex()
    return text


def path_from_setting(value: object) -> str | None:
    if not isinstance(value, str) or not value:
        return None
    if value.startswith(RAW_PATH_PREFIX):
        try:
            return os.fsdecode(bytes.fromhex(value.removeprefix(RAW_PATH_PREFIX)))
        except ValueError:
            return None
    return value


def is_sample_photo(path: Path) -> bool:
    """Whether `path` is the bundled sample photo, which the user did not choose."""
    try:
        return path.resolve() == sample_photo_path().resolve()
    except OSError:
        return False


def default_settings() -> QSettings:
    return QSettings(APP_NAME, APP_NAME)


def _photo_file_filter() -> str:
    from PIL import Image

    extensions = sorted(
        {f"*{ext}" for ext, fmt in Image.registered_extensions().items() if fmt in Image.OPEN}
    )
    images = QCoreApplication.translate("MainWindow", "Images")
    everything = QCoreApplication.translate("MainWindow", "All files")
    return f"{images} ({' '.join(extensions)});;{everything} (*)"


class KernelSizeSpinBox(QSpinBox):
    """The kernel size: steps by 2, and takes any whole number typed, saying what it uses.

    `note` says why the size used differs from the one typed (even, out of range), from the
    first key pressed until the next change; the window shows it.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRange(1, MAX_KERNEL_SIZE)
        self.setSingleStep(2)
        self.note = ""
        self.lineEdit().textEdited.connect(self._on_typed)

    def reading(self, text: str) -> tuple[int | None, str]:
        """The size a run would use for `text` (None: no number), and why it is not `text`."""
        try:
            typed = int(text.strip())
        except ValueError:
            return None, ""
        if typed < 1:
            return 1, self.tr("kernel size {typed} is below the smallest, 1: using 1").format(
                typed=typed
            )
        if typed > MAX_KERNEL_SIZE:
            return MAX_KERNEL_SIZE, self.tr(
                "kernel size {typed} is above the largest, {largest}: using {largest}"
            ).format(typed=typed, largest=MAX_KERNEL_SIZE)
        if typed % 2 == 0:
            return typed + 1, self.tr(
                "kernel sizes are odd, so the kernel has a centre: using {size}"
            ).format(size=typed + 1)
        return typed, ""

    def value_to_use(self) -> int:
        """What a run uses now, the text being typed included."""
        value, _ = self.reading(self.cleanText())
        return self.value() if value is None else value

    def validate(self, text: str, position: int):
        state, text, position = super().validate(text, position)
        value, note = self.reading(text)
        # A number the size cannot be is still typed in full; fixup then says what is used.
        if value is not None and note:
            return state.Intermediate, text, position
        return state, text, position

    def fixup(self, text: str) -> str:
        value, note = self.reading(text)
        if value is None:
            return str(self.value())
        self.note = note
        return str(value)

    def stepBy(self, steps: int) -> None:
        self.note = ""
        super().stepBy(steps)

    def _on_typed(self, text: str) -> None:
        self.note = self.reading(text)[1]


class SigmaSpinBox(QDoubleSpinBox):
    """Sigma: takes any number typed, and says when it uses the nearest one in range instead
    (see KernelSizeSpinBox.note)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRange(MIN_SIGMA, MAX_SIGMA)
        self.setDecimals(2)
        self.setSingleStep(0.1)
        self.note = ""
        self.lineEdit().textEdited.connect(self._on_typed)

    def reading(self, text: str) -> tuple[float | None, str]:
        """The sigma a run would use for `text` (None: no number), and why it is not `text`."""
        typed, ok = self.locale().toDouble(text.strip())
        if not ok or typed != typed:
            return None, ""
        if typed < MIN_SIGMA:
            return MIN_SIGMA, self.tr(
                "sigma {typed} is below the smallest, {smallest}: using {smallest}"
            ).format(typed=f"{typed:g}", smallest=f"{MIN_SIGMA:g}")
        if typed > MAX_SIGMA:
            return MAX_SIGMA, self.tr(
                "sigma {typed} is above the largest, {largest}: using {largest}"
            ).format(typed=f"{typed:g}", largest=f"{MAX_SIGMA:g}")
        return round(typed, self.decimals()), ""

    def value_to_use(self) -> float:
        """What a run uses now, the text being typed included."""
        value, _ = self.reading(self.cleanText())
        return float(self.value()) if value is None else value

    def validate(self, text: str, position: int):
        state, text, position = super().validate(text, position)
        if state == state.Invalid and self.reading(text)[1]:
            return state.Intermediate, text, position
        return state, text, position

    def fixup(self, text: str) -> str:
        value, note = self.reading(text)
        if value is None:
            return self.textFromValue(self.value())
        self.note = note
        return self.textFromValue(value)

    def stepBy(self, steps: int) -> None:
        self.note = ""
        super().stepBy(steps)

    def _on_typed(self, text: str) -> None:
        self.note = self.reading(text)[1]


class ShortcutsDialog(QDialog):
    """A table of the window's keyboard shortcuts."""

    def __init__(self, rows: list[tuple[str, str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard Shortcuts"))
        table = QTableWidget(len(rows), 3, self)
        table.setHorizontalHeaderLabels([self.tr("Menu"), self.tr("Action"), self.tr("Keys")])
        table.verticalHeader().hide()
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        table.setAccessibleName(self.tr("Keyboard shortcuts"))
        for row, cells in enumerate(rows):
            for column, text in enumerate(cells):
                table.setItem(row, column, QTableWidgetItem(text))
        table.resizeColumnsToContents()
        table.resizeRowsToContents()
        table.horizontalHeader().setStretchLastSection(True)
        notes = QLabel(
            self.tr(
                "Tab moves through the parameters and the two panes; in a pane the arrow keys "
                "pan. Alt and an underlined letter jumps to a parameter."
            )
        )
        notes.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(table)
        layout.addWidget(notes)
        layout.addWidget(buttons)
        self.table = table
        # Every row at once, as far as the screen allows; the rest of the dialog (note,
        # buttons, title bar) needs about ROOM_AROUND_TABLE pixels.
        frame = 2 * table.frameWidth()
        rows_height = (
            table.horizontalHeader().sizeHint().height() + table.verticalHeader().length() + frame
        )
        screen = parent.screen() if parent is not None else QApplication.primaryScreen()
        available = screen.availableGeometry()
        table.setMinimumHeight(min(rows_height, available.height() - self.ROOM_AROUND_TABLE))
        table.setMinimumWidth(
            min(
                table.horizontalHeader().length()
                + frame
                + table.verticalScrollBar().sizeHint().width(),
                available.width() - 40,
            )
        )
        self.resize(self.sizeHint())

    ROOM_AROUND_TABLE = 180


def version_rows(jax_device: str | None) -> list[tuple[str, str]]:
    """(name, version) of BlurApp and what it runs on: what a bug report needs.

    JAX is described only if something has already imported it: About must not wait for it.
    """
    import numpy
    import PySide6

    translate = QCoreApplication.translate
    jax = sys.modules.get("jax")
    if jax is None:
        jax_text = translate("MainWindow", "not loaded yet")
    else:
        device = jax_device or translate("MainWindow", "device not known yet")
        jax_text = f"{jax.__version__} ({device})"
    return [
        (APP_NAME, __version__),
        ("Python", f"{platform.python_version()} ({platform.python_implementation()})"),
        ("NumPy", numpy.__version__),
        ("JAX", jax_text),
        ("Qt", qVersion()),
        ("PySide6", PySide6.__version__),
        (translate("MainWindow", "System"), platform.platform()),
    ]


class AboutDialog(QDialog):
    """Help ▸ About: what BlurApp is, every version a bug report needs (selectable, with a
    Copy button), and where the log is."""

    def __init__(
        self, versions: list[tuple[str, str]], log_file: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("About BlurApp"))
        self.versions_text = "\n".join(f"{name}: {value}" for name, value in versions)
        rows = "".join(
            f"<tr><td>{html.escape(name)}</td><td>{html.escape(value)}</td></tr>"
            for name, value in versions
        )
        self.label = QLabel(
            f"<b>{APP_NAME} {__version__}</b><p>"
            + self.tr(
                "The same Gaussian blur with NumPy on the CPU and with JAX-jit on the GPU "
                "(or the CPU), side by side."
            )
            + f'</p><table cellspacing="0" cellpadding="2">{rows}</table><p>'
            + self.tr("Warnings and errors are logged to:")
            + f"<br><tt>{html.escape(log_file)}</tt></p>"
        )
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = buttons.addButton(
            self.tr("&Copy Versions"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.copy_button.setToolTip(self.tr("Copy the versions, to paste into a bug report"))
        self.copy_button.clicked.connect(
            lambda: QApplication.clipboard().setText(self.versions_text)
        )
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addWidget(buttons)
        self.setMinimumWidth(420)


@dataclass(frozen=True)
class _ShownRun:
    """An engine's result on screen, and what it was computed from."""

    engine_result: EngineResult
    request: RunRequest
    kernel_size: int  # the size actually used (auto resolved)


class MainWindow(QMainWindow):
    photo_shown = Signal(object)  # Photo, once it is on screen
    results_shown = Signal(object)  # ComparisonResult, once both panes and figures show it
    run_cancelled = Signal()  # the user cancelled; the window shows it at once
    run_stopped = Signal()  # the worker has let go of a cancelled or superseded run
    progress_shown = Signal(str, int, int)  # engine, done, total (0 total: busy, no count)
    run_failed = Signal(str)
    message_shown = Signal(str, str)  # title, text: every warning the user is given
    jax_ready = Signal(str)  # JAX has started in the background, on this device
    closed_while_busy = Signal()  # closed while the worker is inside one uninterruptible call
    # Requests for the worker: connected across threads, so its slots run on its thread.
    _load_requested = Signal(int, object)
    _run_requested = Signal(object)
    _warm_up_requested = Signal()

    def __init__(self, settings: QSettings | None = None) -> None:
        super().__init__()
        self.settings = settings if settings is not None else default_settings()
        self.photo: Photo | None = None
        self._original = None  # pyramid of the grayscale photo
        self._load_number = 0
        self._run_number = 0
        self._running: RunRequest | None = None
        self._shown: dict[str, _ShownRun] = {}
        self._errors: dict[str, str | None] = {}  # why an engine's last run gave nothing
        self._outcome: RunOutcome | None = None
        self._difference = None  # pyramid of |NumPy − JAX|
        self._show = "blurred"
        self.jax_device: str | None = None  # known once JAX has started on the worker
        self._jax_unavailable: str | None = None  # why JAX could not start, if it could not
        self.show_messages = True  # False: warnings only go out as message_shown (screenshots)

        self._build_panes()
        self._build_side_panel()
        self._build_actions()
        self._build_status_bar()
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.side_panel)
        splitter.addWidget(self.panes_widget)
        splitter.setStretchFactor(1, 1)
        splitter.setCollapsible(1, False)
        self.setCentralWidget(splitter)
        self.setMinimumSize(*MIN_WINDOW_SIZE)
        self._set_tab_order()
        self.setAcceptDrops(True)
        self.setWindowIcon(app_icon())
        self._restore_settings()
        self._update_title()
        self._update_enabled()
        self._update_captions()
        self._refresh_pictures()  # until a photo opens, the panes say how to open one

        # Last, once nothing above can fail: a thread left running by a failed constructor
        # would abort the whole program.
        self._worker_thread = WorkerThread()
        worker = self._worker_thread.worker
        worker.photo_loaded.connect(self._on_photo_loaded)
        worker.photo_failed.connect(self._on_photo_failed)
        worker.progress.connect(self._on_progress)
        worker.engine_finished.connect(self._on_engine_finished)
        worker.run_finished.connect(self._on_run_finished)
        worker.run_cancelled.connect(self._on_run_cancelled)
        worker.run_failed.connect(self._on_run_failed)
        worker.jax_ready.connect(self._on_jax_ready)
        worker.jax_unavailable.connect(self._on_jax_unavailable)
        self._load_requested.connect(worker.load)
        self._run_requested.connect(worker.run)
        self._warm_up_requested.connect(worker.warm_up)
        self._warmed_up = False

    # --- Building the window ---------------------------------------------------------------

    def _build_panes(self) -> None:
        self.numpy_pane = ResultPane(ENGINE_TITLES["numpy"])
        self.jax_pane = ResultPane(ENGINE_TITLES["jax"])
        self.panes = {"numpy": self.numpy_pane, "jax": self.jax_pane}
        self.view_link = ViewLink([self.numpy_pane.view, self.jax_pane.view])
        self.caption_link = CaptionLink([self.numpy_pane, self.jax_pane])
        self.numpy_pane.selected.connect(lambda: self._select_pane("numpy"))
        self.jax_pane.selected.connect(lambda: self._select_pane("jax"))
        self._select_pane("numpy")
        self.panes_widget = QWidget()
        layout = QHBoxLayout(self.panes_widget)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.numpy_pane, 1)
        layout.addWidget(self.jax_pane, 1)

    def _build_side_panel(self) -> None:
        self.size_spin = KernelSizeSpinBox()
        self.size_spin.setValue(DEFAULT_KERNEL_SIZE)
        self.size_spin.setToolTip(self.tr("Kernel size in pixels: odd, so the kernel has a centre"))
        self.auto_size_check = QCheckBox(self.tr("a&uto"))
        self.auto_size_check.setToolTip(self.tr("Choose the size from sigma: 2·ceil(3σ)+1"))
        self.effective_size_label = QLabel()
        self.effective_size_label.setStyleSheet("font-weight: bold;")

        self.sigma_spin = SigmaSpinBox()
        self.sigma_spin.setValue(DEFAULT_SIGMA)
        self.sigma_slider = QSlider(Qt.Orientation.Horizontal)
        self.sigma_slider.setRange(
            round(MIN_SIGMA * SIGMA_SLIDER_STEPS), round(MAX_SIGMA * SIGMA_SLIDER_STEPS)
        )
        self.sigma_slider.setValue(round(DEFAULT_SIGMA * SIGMA_SLIDER_STEPS))

        self.algorithm_combo = QComboBox()
        for key, label in ALGORITHM_CHOICES:
            self.algorithm_combo.addItem(self.tr(label), key)
        self.algorithm_combo.setToolTip(
            self.tr(
                "2-D: the tutorial's k × k taps. Separable: k taps along the rows, then k down"
                " the columns: the same blur in 2k taps instead of k²."
            )
        )

        self.engines_combo = QComboBox()
        for label, engines in ENGINE_CHOICES:
            self.engines_combo.addItem(self.tr(label), engines)

        self.show_combo = QComboBox()
        for key, label in SHOW_CHOICES:
            self.show_combo.addItem(self.tr(label), key)

        self.run_button = QPushButton(self.tr("Run"))
        self.run_button.setDefault(True)
        self.run_button.setToolTip(self.tr("Blur with the chosen engines (Ctrl+R)"))
        self.run_button.setStyleSheet("font-weight: bold; padding: 6px 18px;")
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop the run in progress (Esc)"))

        size_row = QHBoxLayout()
        size_row.addWidget(self.size_spin, 1)
        size_row.addWidget(self.auto_size_check)
        sigma_row = QHBoxLayout()
        sigma_row.addWidget(self.sigma_spin)
        sigma_row.addWidget(self.sigma_slider, 1)
        form = QFormLayout()
        # Alt + the underlined letter jumps to each control.
        for text, row, buddy in [
            (self.tr("&Kernel size"), size_row, self.size_spin),
            (self.tr("&Sigma"), sigma_row, self.sigma_spin),
            (self.tr("Kernel used"), self.effective_size_label, None),
            (self.tr("Algori&thm"), self.algorithm_combo, self.algorithm_combo),
            (self.tr("E&ngines"), self.engines_combo, self.engines_combo),
            (self.tr("Sho&w"), self.show_combo, self.show_combo),
        ]:
            label = QLabel(text)
            if buddy is not None:
                label.setBuddy(buddy)
            form.addRow(label, row)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button, 1)
        buttons.addWidget(self.cancel_button)
        # Why the parameters used differ from those typed, and kernels that cut the Gaussian.
        self.parameter_note = QLabel()
        self.parameter_note.setWordWrap(True)
        self.parameter_note.setStyleSheet("color: #b35c00;")
        self.parameter_note.hide()
        blur_group = QGroupBox(self.tr("Gaussian blur"))
        blur_layout = QVBoxLayout(blur_group)
        blur_layout.addLayout(form)
        blur_layout.addWidget(self.parameter_note)
        blur_layout.addLayout(buttons)

        self.figures = FiguresPanel()
        self.side_panel = QWidget()
        self.side_panel.setMinimumWidth(330)
        self.side_panel.setMaximumWidth(520)
        side = QVBoxLayout(self.side_panel)
        side.setContentsMargins(6, 6, 6, 6)
        side.addWidget(blur_group)
        side.addWidget(self.figures, 1)

        sigma_tip = self.tr("Gaussian sigma in pixels")
        for widget, name, tip in [
            (self.size_spin, self.tr("Kernel size"), None),
            (self.auto_size_check, self.tr("Automatic kernel size"), None),
            (self.sigma_spin, self.tr("Sigma"), sigma_tip),
            (self.sigma_slider, self.tr("Sigma slider"), sigma_tip),
            (self.algorithm_combo, self.tr("Algorithm"), None),
            (self.engines_combo, self.tr("Engines"), self.tr("Which engines a run uses")),
            (
                self.show_combo,
                self.tr("Show"),
                self.tr("What the panes show: results, original or difference"),
            ),
            (self.run_button, self.tr("Run"), None),
            (self.cancel_button, self.tr("Cancel"), None),
            (
                self.effective_size_label,
                self.tr("Kernel used"),
                self.tr("The kernel size a run will use"),
            ),
            (self.parameter_note, self.tr("Notes on the parameters"), None),
        ]:
            widget.setAccessibleName(name)
            if tip is not None:
                widget.setToolTip(tip)
        self.size_spin.valueChanged.connect(self._on_parameters_changed)
        # While a number is typed, before it is taken: show what a run would use. (The spin
        # boxes' own textChanged waits for a value they accept.)
        self.size_spin.lineEdit().textChanged.connect(self._on_parameters_changed)
        self.sigma_spin.lineEdit().textChanged.connect(self._on_parameters_changed)
        self.auto_size_check.toggled.connect(self._on_parameters_changed)
        self.algorithm_combo.currentIndexChanged.connect(self._on_parameters_changed)
        self.sigma_spin.valueChanged.connect(self._on_parameters_changed)
        self.sigma_slider.valueChanged.connect(self._on_sigma_slider_changed)
        self.show_combo.currentIndexChanged.connect(
            lambda _: self.set_show(self.show_combo.currentData())
        )
        self.run_button.clicked.connect(self.run_comparison)
        self.cancel_button.clicked.connect(self.cancel_run)

    def _set_tab_order(self) -> None:
        # Tab walks the parameters top to bottom, then the buttons, then the two panes.
        chain = [
            self.size_spin,
            self.auto_size_check,
            self.sigma_spin,
            self.sigma_slider,
            self.algorithm_combo,
            self.engines_combo,
            self.show_combo,
            self.run_button,
            self.cancel_button,
            self.numpy_pane.view,
            self.jax_pane.view,
        ]
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)

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
        for number, (key, label) in enumerate(SHOW_CHOICES, start=1):
            action = view_menu.addAction(
                self.tr(label), QKeySequence(f"Alt+{number}"), lambda key=key: self.set_show(key)
            )
            action.setCheckable(True)
            action.setData(key)
            action.setChecked(key == self._show)
            self.show_actions.addAction(action)

        run_menu = menu.addMenu(self.tr("&Run"))
        self.run_action = run_menu.addAction(self.tr("&Run"), self.run_comparison)
        self.run_action.setShortcuts(
            [QKeySequence("Ctrl+R"), QKeySequence(QKeySequence.StandardKey.Refresh)]
        )
        self.cancel_action = run_menu.addAction(
            self.tr("&Cancel"), QKeySequence(Qt.Key.Key_Escape), self.cancel_run
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
        self.numpy_pane.view.zoom_changed.connect(self._on_zoom_changed)
        self.jax_pane.view.zoom_changed.connect(self._on_zoom_changed)

    def _on_zoom_changed(self, zoom: float) -> None:
        self.zoom_label.setText(self.tr("Zoom {percent}").format(percent=f"{zoom:.0%}"))

    # --- Parameters -----------------------------------------------------------------------

    def kernel_size_setting(self) -> KernelSize:
        """The kernel size a run uses: "auto", or the size in the box (as typed so far)."""
        return "auto" if self.auto_size_check.isChecked() else self.size_spin.value_to_use()

    def sigma(self) -> float:
        """The sigma a run uses: the one in the box, as typed so far."""
        return self.sigma_spin.value_to_use()

    def effective_kernel_size(self) -> int:
        return effective_kernel_size(self.kernel_size_setting(), self.sigma())

    def algorithm(self) -> Algorithm:
        return self.algorithm_combo.currentData()

    def set_algorithm(self, algorithm: Algorithm) -> None:
        self.algorithm_combo.setCurrentIndex(max(0, self.algorithm_combo.findData(algorithm)))

    def engines(self) -> tuple[str, ...]:
        return self.engines_combo.currentData()

    def set_parameters(
        self, *, kernel_size: KernelSize | None = None, sigma: float | None = None
    ) -> None:
        if sigma is not None:
            self.sigma_spin.note = ""
            self.sigma_spin.setValue(sigma)
        if kernel_size == "auto":
            self.auto_size_check.setChecked(True)
        elif kernel_size is not None:
            self.auto_size_check.setChecked(False)
            self.size_spin.note = ""
            self.size_spin.setValue(kernel_size)

    def _on_sigma_slider_changed(self, position: int) -> None:
        value = position / SIGMA_SLIDER_STEPS
        if abs(self.sigma() - value) >= 0.5 / SIGMA_SLIDER_STEPS:
            self.sigma_spin.note = ""
            self.sigma_spin.setValue(value)

    def _on_parameters_changed(self, *_args) -> None:
        auto = self.auto_size_check.isChecked()
        self.size_spin.setEnabled(not auto)
        sigma = self.sigma()
        size = self.effective_kernel_size()
        position = round(sigma * SIGMA_SLIDER_STEPS)
        if self.sigma_slider.value() != position:
            self.sigma_slider.blockSignals(True)
            self.sigma_slider.setValue(position)
            self.sigma_slider.blockSignals(False)
        auto_note = (
            " " + self.tr("(auto, 2·ceil(3σ)+1 = {size})").format(size=auto_kernel_size(sigma))
            if auto
            else ""
        )
        self.effective_size_label.setText(f"{size} × {size}{auto_note}")
        notes = [
            "" if auto else self.size_spin.note,
            self.sigma_spin.note,
            short_kernel_note(size, sigma, figure_text) or "",
        ]
        text = "\n".join(note for note in notes if note)
        self.parameter_note.setText(text)
        self.parameter_note.setVisible(bool(text))
        self._update_captions()

    # --- Opening photos -------------------------------------------------------------------

    def _open_folder(self) -> Path:
        """Where File ▸ Open starts: the last folder a photo came from, else the Pictures folder
        (never the bundled sample's folder, deep inside the installation)."""
        last = path_from_setting(self.settings.value("last_folder"))
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
            QTimer.singleShot(0, self._warm_up_requested.emit)

    @Slot(str)
    def _on_jax_ready(self, device: str) -> None:
        self.jax_device = device
        self._update_captions()
        self.jax_ready.emit(device)

    @Slot(str)
    def _on_jax_unavailable(self, message: str) -> None:
        self._jax_unavailable = message
        self._refresh_pictures()
        self._update_captions()

    def open_photo(self, path: str | Path) -> None:
        """Load `path` on the worker thread; the photo is shown when it has loaded."""
        path = Path(path)
        # The worker takes one request at a time: a run in flight would hold the photo back.
        self._drop_run()
        self._load_number += 1
        worker = self._worker_thread.worker
        worker.want_load(self._load_number)
        self.status_label.setText(self.tr("Opening {name}…").format(name=display_path(path.name)))
        self._load_requested.emit(self._load_number, path)

    @Slot(object)
    def _on_photo_loaded(self, loaded: LoadedPhoto) -> None:
        if loaded.request != self._load_number:
            return
        self._drop_run()
        self.photo = loaded.photo
        self._original = loaded.picture
        self._shown.clear()
        self._errors.clear()
        self._outcome = None
        self._difference = None
        size = format_megapixels(self.photo.width, self.photo.height)
        self.figures.show_rows([("image", f"{display_path(self.photo.path.name)}, {size}")])
        self.figures.clear_result()
        self.figures.set_stale(None)
        self._refresh_pictures()  # both panes show the photo until a first run
        self.view_link.fit_to_window()
        if not is_sample_photo(self.photo.path):  # the user never chose it
            self._remember_recent(self.photo.path)
            self.settings.setValue("last_folder", path_to_setting(self.photo.path.parent))
        self.status_label.setText(self._photo_status())
        self._update_title()
        self._update_enabled()
        self._update_captions()
        self.photo_shown.emit(self.photo)

    def _photo_status(self) -> str:
        if is_sample_photo(self.photo.path):
            where = self.tr("sample photo ({name})").format(name=self.photo.path.name)
        else:
            where = display_path(self.photo.path)
        return f"{where}  ·  {format_megapixels(self.photo.width, self.photo.height)}"

    @Slot(int, object)
    def _on_photo_failed(self, request: int, error: PhotoError) -> None:
        if request != self._load_number:
            return
        self.status_label.setText(self.tr("Could not open the photo"))
        self._warn(self.tr("Cannot Open Photo"), translated_problem(error), error=error)
        if self.photo is not None:
            self.status_label.setText(self._photo_status())

    # --- Running --------------------------------------------------------------------------

    def run_comparison(self) -> None:
        """Blur the photo with the chosen engines; a run still in flight is superseded."""
        if self.photo is None:
            return
        # Ctrl+R while typing: take the text as it is, and show any change made to it.
        self.size_spin.interpretText()
        self.sigma_spin.interpretText()
        try:
            self.effective_kernel_size()
        except InvalidKernelError as error:
            self._warn(self.tr("Invalid Kernel"), str(error))
            return
        self._run_number += 1
        request = RunRequest(
            number=self._run_number,
            photo=self.photo,
            kernel_size=self.kernel_size_setting(),
            sigma=self.sigma(),
            algorithm=self.algorithm(),
            engines=self.engines(),
            repeats=DEFAULT_REPEATS,
        )
        self._running = request
        worker = self._worker_thread.worker
        worker.want_run(request.number)
        self._run_requested.emit(request)
        self.progress_bar.show()
        self._on_progress(request.number, request.engines[0], 0, 0)
        self._update_enabled()

    def cancel_run(self) -> None:
        if self._drop_run():
            self.status_label.setText(self.tr("Cancelled"))
            self._update_captions()
            self.run_cancelled.emit()

    def _drop_run(self) -> bool:
        """Stop wanting the run in flight, if any; the worker lets go at its next check."""
        if self._running is None:
            return False
        self._run_number += 1
        self._worker_thread.worker.want_run(self._run_number)
        self._running = None
        self.progress_bar.hide()
        self._update_enabled()
        return True

    def is_running(self) -> bool:
        return self._running is not None

    @Slot(int, str, int, int)
    def _on_progress(self, request: int, engine: str, done: int, total: int) -> None:
        if self._running is None or request != self._running.number:
            return
        if engine == "numpy":
            self.progress_bar.setRange(0, total or 1)
            self.progress_bar.setValue(done)
            self.progress_bar.setFormat(self.tr("NumPy %p%"))
            self.status_label.setText(
                self.tr("NumPy: {done} of {total} kernel taps").format(done=done, total=total)
                if total
                else self.tr("NumPy: starting…")
            )
        else:
            self.progress_bar.setRange(0, 0)  # busy: a compiled call reports no progress
            self.progress_bar.setFormat("JAX")
            self.status_label.setText(self.tr("JAX: compiling and running…"))
        self.progress_shown.emit(engine, done, total)

    @Slot(object)
    def _on_engine_finished(self, done: EngineResult) -> None:
        if self._running is None or done.request != self._running.number:
            return  # a superseded run's result is never shown
        request = self._running
        if done.run is not None:
            self._shown[done.engine] = _ShownRun(
                done, request, effective_kernel_size(request.kernel_size, request.sigma)
            )
        else:
            self._shown.pop(done.engine, None)
        self._errors[done.engine] = done.error
        self._refresh_pictures()
        self._update_captions()

    @Slot(object)
    def _on_run_finished(self, outcome: RunOutcome) -> None:
        if self._running is None or outcome.request.number != self._running.number:
            return
        self._running = None
        self._outcome = outcome
        self._difference = outcome.difference
        photo = outcome.request.photo
        self.figures.show_result(
            outcome.result,
            display_path(photo.path.name),
            photo.width,
            photo.height,
            earlier=self._earlier_rows(outcome.result),
            bit_depth=photo.bit_depth,
        )
        self.progress_bar.hide()
        self.status_label.setText(self._summary(outcome.result))
        self._refresh_pictures()
        self._update_captions()
        self._update_enabled()
        self.results_shown.emit(outcome.result)

    @Slot(int)
    def _on_run_cancelled(self, request: int) -> None:
        # The window already showed the cancellation when it asked for it.
        log.debug("run %d stopped", request)
        self.run_stopped.emit()

    @Slot(int, object)
    def _on_run_failed(self, request: int, error: Exception) -> None:
        if self._running is None or request != self._running.number:
            return
        message = f"{type(error).__name__}: {error}"
        self._running = None
        self.progress_bar.hide()
        self.status_label.setText(self.tr("The run failed"))
        self._update_enabled()
        self.run_failed.emit(message)
        self._warn(
            self.tr("Run Failed"),
            self.tr("The comparison failed: {reason}").format(reason=message),
            critical=True,
            error=error,
        )

    def _earlier_rows(self, result: ComparisonResult) -> list[tuple[str, str]]:
        """The figures of a pane kept from an earlier run, when this run used one engine."""
        rows = []
        earlier = self.tr("earlier run, out of date")
        numpy_kept = self._shown.get("numpy") if result.numpy is None else None
        jax_kept = self._shown.get("jax") if result.jax is None and not result.jax_error else None
        if numpy_kept is not None:
            seconds = numpy_kept.engine_result.run.seconds
            rows.append(("NumPy", f"{format_ms(seconds)} ({earlier})"))
        if jax_kept is not None:
            seconds = jax_kept.engine_result.run.seconds
            rows.append(("JAX steady", f"{format_ms(seconds)} ({earlier})"))
        return rows

    def _summary(self, result: ComparisonResult) -> str:
        parts = []
        if result.numpy is not None:
            parts.append(f"NumPy {format_ms(result.numpy.seconds)}")
        if result.jax is not None:
            parts.append(
                self.tr("JAX {time} on {device}").format(
                    time=format_ms(result.jax.seconds), device=result.jax.device
                )
            )
        elif result.jax_error:
            parts.append(self.tr("JAX unavailable"))
        return self.tr("Done: {figures}").format(figures=", ".join(parts))

    # --- What the panes show ----------------------------------------------------------------

    def set_show(self, key: str) -> None:
        """Show the blurred results, the original photo, or the difference (right pane)."""
        self._show = key
        index = self.show_combo.findData(key)
        if self.show_combo.currentIndex() != index:
            self.show_combo.setCurrentIndex(index)
        for action in self.show_actions.actions():
            action.setChecked(action.data() == key)
        self._refresh_pictures()
        self._update_captions()

    def showing(self) -> str:
        return self._show

    def _picture_for(self, engine: str):
        if self._show == "original":
            return self._original
        if self._show == "difference" and engine == "jax":
            return self._difference if self._outcome is not None else None
        shown = self._shown.get(engine)
        if shown is not None:
            return shown.engine_result.picture
        # Before a first run each pane shows the photo itself, so there is something to see.
        return None if self._error_for(engine) else self._original

    def _refresh_pictures(self) -> None:
        for engine, pane in self.panes.items():
            picture = self._picture_for(engine)
            pane.view.set_picture(picture)
            pane.set_placeholder(self._placeholder_for(engine) if picture is None else "")

    def _error_for(self, engine: str) -> str | None:
        """Why `engine` has no result to show, if it failed."""
        error = self._errors.get(engine)
        if error is None and engine == "jax" and engine not in self._shown:
            error = self._jax_unavailable
        return error

    def _placeholder_for(self, engine: str) -> str:
        if self.photo is None:
            return self.tr("Open a photo: File ▸ Open (Ctrl+O), or drop one here")
        if self._show == "difference" and engine == "jax":
            return self.tr("The difference appears after a run with both engines")
        error = self._error_for(engine)
        if error:
            return (
                self.tr("{engine} could not run:").format(engine=ENGINE_TITLES[engine])
                + f"\n{error}"
            )
        return ""

    def _stale_reason(self, request: RunRequest) -> str | None:
        """Why results of `request` no longer match what the window would compute, if they don't."""
        try:
            size = self.effective_kernel_size()
        except InvalidKernelError:
            size = None
        if (
            request.photo is not self.photo
            or effective_kernel_size(request.kernel_size, request.sigma) != size
            or request.sigma != self.sigma()
            or request.algorithm != self.algorithm()
        ):
            return self.tr("the parameters changed since this run; press Run")
        latest = max((shown.request.number for shown in self._shown.values()), default=0)
        if request.number != latest:
            return self.tr("a later run has replaced results on screen; press Run")
        return None

    def _update_captions(self) -> None:
        for engine, pane in self.panes.items():
            pane.set_caption(self._caption_for(engine))
        outcome = self._outcome
        self.figures.set_stale(self._stale_reason(outcome.request) if outcome else None)

    def _out_of_date(self) -> str:
        mark = html.escape(self.tr("out of date"))
        return f' · <span style="color:#b35c00; font-weight:bold">{mark}</span>'

    def _caption_for(self, engine: str) -> str:
        title = f"<b>{ENGINE_TITLES[engine]}</b>"
        if self._show == "original":
            text = "<b>{}</b> · {}".format(self.tr("Original"), self.tr("grayscale"))
            if self.photo:
                text += f" · {self.photo.width} × {self.photo.height}"
            return text
        if self._show == "difference" and engine == "jax":
            heading = "<b>{}</b> |NumPy − JAX|".format(self.tr("Difference"))
            scale = self._outcome.difference_scale if self._outcome is not None else None
            if scale is None:
                return heading
            if scale == 0:
                text = f"{heading} · " + self.tr("identical outputs (all black)")
            else:
                text = f"{heading} · " + self.tr(
                    "black = 0, white = {white} ({levels} of an 8-bit level), stretched to be seen"
                ).format(white=f"{scale:.2g}", levels=f"{scale * 255:.2g}")
            if self._stale_reason(self._outcome.request):
                text += self._out_of_date()
            return text
        shown = self._shown.get(engine)
        if shown is None:
            if self._error_for(engine):
                return f"{title} · " + self.tr("unavailable")
            if engine == "numpy":
                device = "cpu"
            else:
                device = self.jax_device or self.tr("GPU when present, else CPU")
            waiting = ""
            if self.photo:
                waiting = " · " + self.tr("not run yet: showing the original, press Run")
            return f"{title} · {html.escape(device)}{waiting}"
        run = shown.engine_result.run
        if engine == "numpy":
            text = f"{title} · cpu · {format_ms(run.seconds)}"
        else:
            first = {
                Compilation.COMPILED: self.tr("compiled"),
                Compilation.FROM_CACHE: self.tr("from cache"),
                Compilation.REUSED: self.tr("already compiled"),
            }[run.compilation]
            text = f"{title} · {html.escape(run.device)} · " + self.tr(
                "steady {steady} · first call {first} ({how})"
            ).format(
                steady=format_ms(run.seconds), first=format_ms(run.first_call_seconds), how=first
            )
        text += f" · {shown.kernel_size} × {shown.kernel_size}, σ {shown.request.sigma:g}"
        if shown.request.algorithm == "separable":
            text += ", " + self.tr("separable")
        if self._stale_reason(shown.request):
            text += self._out_of_date()
        return text

    def _select_other_pane(self) -> None:
        other = "jax" if self.selected_engine == "numpy" else "numpy"
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

    def _select_pane(self, engine: str) -> None:
        self.selected_engine = engine
        for key, pane in self.panes.items():
            pane.set_selected(key == engine)

    # --- Saving and copying -----------------------------------------------------------------

    def result_file_name(self, engine: str) -> str:
        """The default name of `engine`'s result: the photo's name and what made the result,
        e.g. coffee-numpy-9x9-s2.5.png."""
        shown = self._shown[engine]
        size = shown.kernel_size
        name = f"{self.photo.path.stem}-{engine}-{size}x{size}-s{shown.request.sigma:g}"
        if shown.request.algorithm != DEFAULT_ALGORITHM:
            name += f"-{shown.request.algorithm}"
        return f"{name}.png"

    def _result_description(self, engine: str) -> dict[str, str]:
        """What made `engine`'s result, written into the file beside the pixels."""
        shown = self._shown[engine]
        description = {
            "Software": f"{APP_NAME} {__version__}",
            "engine": ENGINE_TITLES[engine],
            "kernel size": f"{shown.kernel_size}",
            "sigma": f"{shown.request.sigma:g}",
            "algorithm": shown.request.algorithm,
            "photo": display_path(shown.request.photo.path.name),
        }
        if engine == "jax":
            description["device"] = shown.engine_result.run.device
        return description

    def _confirm_mixed_parameters(self) -> bool:
        """When the two results were made with different parameters, say so and ask."""
        made_with = {
            engine: (shown.kernel_size, shown.request.sigma, shown.request.algorithm)
            for engine, shown in self._shown.items()
        }
        if len(set(made_with.values())) < 2:
            return True
        lines = "\n".join(
            f"{ENGINE_TITLES[engine]}: {describe_kernel(*made, figure_text)}"
            for engine, made in made_with.items()
        )
        answer = QMessageBox.question(
            self,
            self.tr("Save Results Made with Different Parameters?"),
            self.tr("The two results were not made with the same parameters:")
            + f"\n{lines}\n\n"
            + self.tr("Each file's name and description say which parameters made it. Save both?"),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Save

    def save_results(self) -> None:
        """Write each engine's output as PNG into a folder the user picks, atomically, named
        and described by the parameters that made it; never over the photo itself."""
        if not self._shown or self.photo is None:
            return
        if not self._confirm_mixed_parameters():
            return
        start = path_from_setting(self.settings.value("last_save_folder")) or str(
            self._open_folder()
        )
        folder = QFileDialog.getExistingDirectory(
            self, self.tr("Save Results to Folder"), display_path(start)
        )
        if not folder:
            return
        folder = Path(folder)
        targets = {engine: folder / self.result_file_name(engine) for engine in self._shown}
        try:
            for path in targets.values():
                check_output_path(path, source=self.photo.path)
        except OutputError as error:
            self._warn(self.tr("Cannot Save Results"), translated_problem(error), error=error)
            return
        existing = [path for path in targets.values() if path.exists()]
        if existing:
            names = "\n".join(display_path(path.name) for path in existing)
            answer = QMessageBox.question(
                self,
                self.tr("Replace Files?"),
                self.tr("These files already exist in {folder}:").format(
                    folder=display_path(folder)
                )
                + f"\n{names}\n\n"
                + self.tr("Replace them?"),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No,
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        try:
            for engine, path in targets.items():
                shown = self._shown[engine]
                save_output(
                    path,
                    shown.engine_result.run.output,
                    bit_depth=shown.request.photo.bit_depth,
                    description=self._result_description(engine),
                )
        except OutputError as error:
            self._warn(self.tr("Cannot Save Results"), translated_problem(error), error=error)
            return
        self.settings.setValue("last_save_folder", path_to_setting(folder))
        self.status_label.setText(
            self.tr("Saved {files} in {folder}").format(
                files=", ".join(display_path(p.name) for p in targets.values()),
                folder=display_path(folder),
            )
        )

    def copy_selected(self) -> None:
        pane = self.panes[self.selected_engine]
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
        value = self.settings.value("recent_files", [])
        if isinstance(value, str):  # QSettings gives a lone string for a one-item list
            value = [value]
        paths = (path_from_setting(item) for item in value or [])
        return [path for path in paths if path is not None]

    def _remember_recent(self, path: Path) -> None:
        entry = str(path.resolve())
        recent = [entry] + [item for item in self.recent_files() if item != entry]
        self.settings.setValue(
            "recent_files", [path_to_setting(item) for item in recent[:MAX_RECENT_FILES]]
        )
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
        self.settings.setValue("recent_files", [])
        self._rebuild_recent_menu()

    def _restore_settings(self) -> None:
        geometry = self.settings.value("geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(1360, 820)
        # Each value passes the core's own check, or its default is used: the file may have
        # been edited by hand, or written by an older version.
        try:
            sigma = check_sigma(self.settings.value("sigma", DEFAULT_SIGMA))
        except InvalidKernelError:
            sigma = DEFAULT_SIGMA
        try:
            size: KernelSize = check_kernel_size(
                str(self.settings.value("kernel_size", DEFAULT_KERNEL_SIZE))
            )
        except InvalidKernelError:
            size = DEFAULT_KERNEL_SIZE
        algorithm = self.settings.value("algorithm", DEFAULT_ALGORITHM)
        if algorithm not in ALGORITHMS:
            algorithm = DEFAULT_ALGORITHM
        self.set_parameters(kernel_size=size, sigma=sigma)
        self.set_algorithm(algorithm)
        self._on_parameters_changed()

    def _save_settings(self) -> None:
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("sigma", self.sigma())
        self.settings.setValue("kernel_size", str(self.kernel_size_setting()))
        self.settings.setValue("algorithm", self.algorithm())
        self.settings.sync()

    # --- The rest -------------------------------------------------------------------------

    def _update_title(self) -> None:
        name = display_path(self.photo.path.name) if self.photo is not None else self.tr("no photo")
        self.setWindowTitle(f"{name} — {APP_NAME}")

    def _update_enabled(self) -> None:
        running = self._running is not None
        has_photo = self.photo is not None
        self.run_button.setEnabled(has_photo)
        self.run_action.setEnabled(has_photo)
        self.cancel_button.setEnabled(running)
        self.cancel_action.setEnabled(running)
        self.save_action.setEnabled(bool(self._shown))

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
        self._save_settings()
        self._running = None
        if not self._worker_thread.stop(wait_ms=CLOSE_WAIT_MS):
            # Still inside one compiled JAX call, which cannot be interrupted: the window goes
            # now, and the program ends as soon as that call returns.
            log.info("closing while a JAX call finishes")
            app = QApplication.instance()
            app.setQuitOnLastWindowClosed(False)
            self._worker_thread.thread.finished.connect(app.quit)
            self.closed_while_busy.emit()
        super().closeEvent(event)
