"""The blur's controls: kernel size, sigma, algorithm, the engines a run times, what the panes
show, Run and Cancel. The window reads them into the session and writes the session back."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLayout,
    QPushButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from blurapp.app.captions import ALGORITHM_LABELS, SHOW_LABELS
from blurapp.core.engines import REFERENCE_ENGINE
from blurapp.core.kernel import DEFAULT_KERNEL_SIZE, DEFAULT_SIGMA, MAX_SIGMA, MIN_SIGMA
from blurapp.core.spec import BlurSpec
from blurapp.ui.colours import NOTE_COLOUR
from blurapp.ui.parameter_boxes import KernelSizeSpinBox, SigmaSpinBox

SIGMA_SLIDER_STEPS = 10  # slider positions per unit of sigma
ENGINE_COLUMNS = 2  # the engines' check boxes, this many to a row


class BlurControls(QGroupBox):
    """The "Gaussian blur" group of the side panel."""

    parameters_edited = Signal()  # a parameter changed, or is being typed
    timed_toggled = Signal(str, bool)  # engine, whether a run times it
    show_chosen = Signal(str)

    def __init__(
        self,
        engines: list[tuple[str, str]],
        translate_session: Callable[[str], str],
        parent: QWidget | None = None,
        engine_tips: Mapping[str, str] | None = None,
    ) -> None:
        """`engines`: (name, title) of every engine there is; `translate_session` translates
        the session's phrases (the algorithm and show labels); `engine_tips`: what an engine's
        check box says of it on this machine, where it says more than the others'."""
        super().__init__(self.tr("Gaussian blur"), parent)
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
        for key, label in ALGORITHM_LABELS.items():
            self.algorithm_combo.addItem(translate_session(label), key)
        self.algorithm_combo.setToolTip(
            self.tr(
                "2-D: the tutorial's k × k taps. Separable: k taps along the rows, then k down"
                " the columns: the same blur in 2k taps instead of k²."
            )
        )
        self.color_check = QCheckBox(self.tr("Blur in co&lour"))
        self.color_check.setToolTip(
            self.tr(
                "Blur each of red, green and blue (three times the work). Off: the photo is"
                " blurred in grey, as in the tutorial."
            )
        )
        # One check box per engine: a run times every engine ticked; the panes show two.
        self.engine_checks: dict[str, QCheckBox] = {}
        engines_grid = QGridLayout()
        engines_grid.setContentsMargins(0, 0, 0, 0)
        for name, title in engines:
            check = QCheckBox(title)
            check.setAccessibleName(self.tr("Time {engine}").format(engine=title))
            if name == REFERENCE_ENGINE:
                check.setToolTip(self.tr("The reference: every other engine is compared with it"))
            elif engine_tips and name in engine_tips:
                check.setToolTip(engine_tips[name])
            check.toggled.connect(lambda on, name=name: self.timed_toggled.emit(name, on))
            self.engine_checks[name] = check
        self._engines_grid = engines_grid
        self._held: tuple[str, ...] = ()
        self._held_hidden = False
        self._arrange_engines()
        self.show_combo = QComboBox()
        for key, label in SHOW_LABELS.items():
            self.show_combo.addItem(translate_session(label), key)
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
        first_check = next(iter(self.engine_checks.values()))
        form = QFormLayout()
        # Alt + the underlined letter jumps to each control.
        rows: list[tuple[str, QLayout | QWidget, QWidget | None]] = [
            (self.tr("&Kernel size"), size_row, self.size_spin),
            (self.tr("&Sigma"), sigma_row, self.sigma_spin),
            (self.tr("Kernel used"), self.effective_size_label, None),
            (self.tr("Algori&thm"), self.algorithm_combo, self.algorithm_combo),
            (self.tr("Colour"), self.color_check, None),
            (self.tr("E&ngines"), engines_grid, first_check),
            (self.tr("Sho&w"), self.show_combo, self.show_combo),
        ]
        for text, row, buddy in rows:
            row_label = QLabel(text)
            if buddy is not None:
                row_label.setBuddy(buddy)
            form.addRow(row_label, row)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button, 1)
        buttons.addWidget(self.cancel_button)
        # Why the parameters used differ from those typed, and kernels that cut the Gaussian.
        # Under Run, not above it: a note that comes as sigma is dragged moves nothing the
        # user is about to click (above, it pushed Run down under the pointer).
        self.parameter_note = QLabel()
        self.parameter_note.setWordWrap(True)
        self.parameter_note.setStyleSheet(f"color: {NOTE_COLOUR};")
        self.parameter_note.hide()
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.parameter_note)

        sigma_tip = self.tr("Gaussian sigma in pixels")
        for widget, name, tip in [
            (self.size_spin, self.tr("Kernel size"), None),
            (self.auto_size_check, self.tr("Automatic kernel size"), None),
            (self.sigma_spin, self.tr("Sigma"), sigma_tip),
            (self.sigma_slider, self.tr("Sigma slider"), sigma_tip),
            (self.algorithm_combo, self.tr("Algorithm"), None),
            (self.color_check, self.tr("Blur in colour"), None),
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
        for check in self.engine_checks.values():
            if not check.toolTip():
                check.setToolTip(self.tr("Time this engine in each run, beside the reference"))
        self._engine_tips = {name: check.toolTip() for name, check in self.engine_checks.items()}

        self.size_spin.valueChanged.connect(self.parameters_edited)
        # While a number is typed, before it is taken: show what a run would use. (The spin
        # boxes' own textChanged waits for a value they accept.)
        self.size_spin.lineEdit().textChanged.connect(self.parameters_edited)
        self.sigma_spin.lineEdit().textChanged.connect(self.parameters_edited)
        self.auto_size_check.toggled.connect(self.parameters_edited)
        self.algorithm_combo.currentIndexChanged.connect(self.parameters_edited)
        self.color_check.toggled.connect(self.parameters_edited)
        self.sigma_spin.valueChanged.connect(self.parameters_edited)
        self.sigma_slider.valueChanged.connect(self._on_sigma_slider_changed)
        self.show_combo.currentIndexChanged.connect(
            lambda _: self.show_chosen.emit(self.show_combo.currentData())
        )

    def controls_in_tab_order(self) -> list[QWidget]:
        return [
            self.size_spin,
            self.auto_size_check,
            self.sigma_spin,
            self.sigma_slider,
            self.algorithm_combo,
            self.color_check,
            *self.engine_checks.values(),
            self.show_combo,
            self.run_button,
            self.cancel_button,
        ]

    # --- Reading and writing the parameters ----------------------------------------------------

    def parameters(self) -> BlurSpec:
        """The parameters a run would use now, the text being typed included."""
        auto = self.auto_size_check.isChecked()
        return BlurSpec(
            kernel_size="auto" if auto else self.size_spin.value_to_use(),
            sigma=self.sigma_spin.value_to_use(),
            algorithm=self.algorithm_combo.currentData(),
            color=self.color_check.isChecked(),
        )

    def set_parameters(self, parameters: BlurSpec) -> None:
        """Put `parameters` in the boxes (a note about what was typed goes with the change)."""
        if parameters.sigma != self.sigma_spin.value_to_use():
            self.sigma_spin.note = ""
            self.sigma_spin.setValue(parameters.sigma)
        if parameters.kernel_size == "auto":
            self.auto_size_check.setChecked(True)
        else:
            self.auto_size_check.setChecked(False)
            if parameters.kernel_size != self.size_spin.value_to_use():
                self.size_spin.note = ""
                self.size_spin.setValue(parameters.kernel_size)
        index = self.algorithm_combo.findData(parameters.algorithm)
        self.algorithm_combo.setCurrentIndex(max(0, index))
        self.color_check.setChecked(parameters.color)

    def show_parameters(self, parameters: BlurSpec, kernel_used: str, short_note: str | None):
        """Follow the session's parameters: the slider, the size box, the kernel used, notes."""
        auto = parameters.kernel_size == "auto"
        self.size_spin.setEnabled(not auto)
        position = round(parameters.sigma * SIGMA_SLIDER_STEPS)
        if self.sigma_slider.value() != position:
            self.sigma_slider.blockSignals(True)
            self.sigma_slider.setValue(position)
            self.sigma_slider.blockSignals(False)
        self.effective_size_label.setText(kernel_used)
        notes = ["" if auto else self.size_spin.note, self.sigma_spin.note, short_note or ""]
        text = "\n".join(note for note in notes if note)
        self.parameter_note.setText(text)
        self.parameter_note.setVisible(bool(text))

    def hide_held(self, hidden: bool) -> None:
        """Leave out the check boxes of the engines a pane shows (always timed), or show them
        again: presenting, the rows they take are the figures'."""
        self._held_hidden = hidden
        self._arrange_engines()

    def _arrange_engines(self) -> None:
        """The engines' check boxes ENGINE_COLUMNS to a row, the held ones left out when
        hide_held says so."""
        for check in self.engine_checks.values():
            self._engines_grid.removeWidget(check)
        shown = [
            check
            for name, check in self.engine_checks.items()
            if not (self._held_hidden and name in self._held)
        ]
        for check in self.engine_checks.values():
            # Only once in the group: a check box without a parent shown is a window of its own.
            if check.parentWidget() is not None:
                check.setHidden(check not in shown)
        for index, check in enumerate(shown):
            grid_row, grid_column = divmod(index, ENGINE_COLUMNS)
            # The last check box alone on its row takes the row: its words (JAX Pallas's
            # "(interpreted)") need not be cut to a column's width.
            span = ENGINE_COLUMNS if grid_column == 0 and index == len(shown) - 1 else 1
            self._engines_grid.addWidget(check, grid_row, grid_column, 1, span)

    def show_timed(self, timed: tuple[str, ...], held: tuple[str, ...] = ()) -> None:
        """Tick the engines `timed`; those `held` (a pane shows them) cannot be unticked."""
        held_tip = self.tr(
            "A pane shows {engine}, so every run times it: choose another engine for the pane "
            "to untick it"
        )
        for name, check in self.engine_checks.items():
            check.blockSignals(True)
            check.setChecked(name in timed)
            check.blockSignals(False)
            check.setEnabled(name not in held)
            tip = held_tip.format(engine=check.text()) if name in held else self._engine_tips[name]
            check.setToolTip(tip)
        if held != self._held:
            self._held = held
            if self._held_hidden:
                self._arrange_engines()

    def show_showing(self, show: str) -> None:
        index = self.show_combo.findData(show)
        if self.show_combo.currentIndex() != index:
            self.show_combo.blockSignals(True)
            self.show_combo.setCurrentIndex(index)
            self.show_combo.blockSignals(False)

    def _on_sigma_slider_changed(self, position: int) -> None:
        value = position / SIGMA_SLIDER_STEPS
        if abs(self.sigma_spin.value_to_use() - value) >= 0.5 / SIGMA_SLIDER_STEPS:
            self.sigma_spin.note = ""
            self.sigma_spin.setValue(value)
