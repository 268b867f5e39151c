"""The main window's widgets and where they sit: the two result panes side by side, the side
panel (the controls above the figures), the status bar; what a Designer form would hold, handed
back as one record (WindowWidgets). The window connects them (blurapp.ui.main_window)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QBoxLayout,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLabel,
    QMainWindow,
    QPushButton,
    QSlider,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from blurapp.app.figures_column import SIDE_PANEL_LEAST, side_panel_width, speedup_scale
from blurapp.ui.clip_bar import ClipBar
from blurapp.ui.figures_panel import WINDOW_ROWS, FiguresPanel
from blurapp.ui.identity import app_icon
from blurapp.ui.image_pane import CaptionLink, ResultPane
from blurapp.ui.image_view import ViewLink
from blurapp.ui.side_panel import BlurControls
from blurapp.ui.text_fitting import ElidedLabel, FittingProgressBar

# The smallest window in which the parameters, the figures and two captioned panes can all
# be read (the panes' captions wrap to at most four lines).
MIN_WINDOW_SIZE = (800, 600)


SIDE_BY_SIDE = QBoxLayout.Direction.LeftToRight
ONE_ABOVE_THE_OTHER = QBoxLayout.Direction.TopToBottom


@dataclass
class WindowWidgets:
    """The main window's widgets, as lay_out makes them; the window connects them."""

    panes: list[ResultPane]
    left_pane: ResultPane
    right_pane: ResultPane
    view_link: ViewLink  # the panes' shared zoom and scroll
    caption_link: CaptionLink
    panes_layout: QBoxLayout
    clip_bar: ClipBar  # under the panes, shown while a clip is open (blurapp.ui.window_display)
    controls: BlurControls
    figures: FiguresPanel
    side_panel: QWidget
    splitter: QSplitter  # the side panel, and the panes right of it
    progress_bar: FittingProgressBar
    status_label: ElidedLabel
    zoom_label: QLabel
    # Whether the side panel takes the width the window's size gives it (fit_side_panel);
    # presentation mode sets its own.
    side_panel_fits: bool = True

    # The controls by the names the tests and the menus use.
    @property
    def size_spin(self) -> QSpinBox:
        return self.controls.size_spin

    @property
    def auto_size_check(self) -> QCheckBox:
        return self.controls.auto_size_check

    @property
    def sigma_spin(self) -> QDoubleSpinBox:
        return self.controls.sigma_spin

    @property
    def sigma_slider(self) -> QSlider:
        return self.controls.sigma_slider

    @property
    def algorithm_combo(self) -> QComboBox:
        return self.controls.algorithm_combo

    @property
    def engine_checks(self) -> dict[str, QCheckBox]:
        return self.controls.engine_checks

    @property
    def show_combo(self) -> QComboBox:
        return self.controls.show_combo

    @property
    def run_button(self) -> QPushButton:
        return self.controls.run_button

    @property
    def cancel_button(self) -> QPushButton:
        return self.controls.cancel_button

    @property
    def effective_size_label(self) -> QLabel:
        return self.controls.effective_size_label

    @property
    def parameter_note(self) -> QLabel:
        return self.controls.parameter_note

    def fit_side_panel(self) -> None:
        """The side panel's width and the speed-up's type for the window's size
        (blurapp.app.figures_column decides them), unless presentation mode sizes them."""
        if not self.side_panel_fits:
            return
        window = self.splitter.window()
        character = QFontMetrics(self.figures.font()).averageCharWidth()
        side = side_panel_width(window.width(), character)
        total = self.splitter.width() - self.splitter.handleWidth()
        if total > side and self.splitter.sizes()[0] != side:
            self.splitter.setSizes([side, total - side])
        figure_width, line_height = self.figures.speedup_sample_size()
        scale = speedup_scale(side, window.height(), figure_width, line_height)
        self.figures.set_speedup_scale(scale)

    def arrange_panes(self, stacked: bool) -> None:
        """The panes side by side, or one above the other (wide photos get more room so)."""
        direction = ONE_ABOVE_THE_OTHER if stacked else SIDE_BY_SIDE
        if self.panes_layout.direction() != direction:
            self.panes_layout.setDirection(direction)


def lay_out(
    window: QMainWindow,
    engines: list[tuple[str, str]],
    pane_engines: list[str],
    tr: Callable[[str], str],
    engine_tips: Mapping[str, str] | None = None,
) -> WindowWidgets:
    """Build `window`'s widgets for `engines` ((name, title) each), the panes showing
    `pane_engines`, the controls' words through `tr`, an engine's check box tip from
    `engine_tips` where it has one."""
    panes = [ResultPane(engines, engine) for engine in pane_engines]
    panes_widget = QWidget()
    layout = QBoxLayout(SIDE_BY_SIDE, panes_widget)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    for pane in panes:
        layout.addWidget(pane, 1)
    clip_bar = ClipBar()
    centre = QWidget()
    column = QVBoxLayout(centre)
    column.setContentsMargins(0, 0, 0, 0)
    column.setSpacing(0)
    column.addWidget(panes_widget, 1)
    column.addWidget(clip_bar)

    controls = BlurControls(engines, tr, engine_tips=engine_tips)
    figures = FiguresPanel()
    figures.arrange_rows(WINDOW_ROWS)
    side_panel = QWidget()
    side_panel.setMinimumWidth(SIDE_PANEL_LEAST)
    side = QVBoxLayout(side_panel)
    side.setContentsMargins(6, 6, 6, 6)
    side.addWidget(controls)
    side.addWidget(figures, 1)

    progress_bar = FittingProgressBar()
    progress_bar.setTextVisible(True)
    progress_bar.hide()
    # Elided: a long folder name never runs on into the progress bar or the zoom.
    status_label = ElidedLabel()
    zoom_label = QLabel()
    zoom_label.setToolTip(
        QCoreApplication.translate(
            "MainWindow", "Both panes share this zoom: Ctrl+0 fits, Ctrl+1 is 100%"
        )
    )
    window.statusBar().addWidget(status_label, 1)
    window.statusBar().addPermanentWidget(progress_bar)
    window.statusBar().addPermanentWidget(zoom_label)

    splitter = QSplitter(Qt.Orientation.Horizontal)
    splitter.addWidget(side_panel)
    splitter.addWidget(centre)
    splitter.setStretchFactor(1, 1)
    splitter.setCollapsible(1, False)
    window.setCentralWidget(splitter)
    resized = _Resized(splitter)
    window.setMinimumSize(*MIN_WINDOW_SIZE)
    chain = [*controls.controls_in_tab_order()]
    for pane in panes:
        chain += [pane.engine_combo, pane.view]
    for first, second in itertools.pairwise(chain):
        QWidget.setTabOrder(first, second)
    window.setAcceptDrops(True)
    window.setWindowIcon(app_icon())
    widgets = WindowWidgets(
        panes=panes,
        left_pane=panes[0],
        right_pane=panes[1],
        view_link=ViewLink([pane.view for pane in panes]),
        caption_link=CaptionLink(panes),
        panes_layout=layout,
        clip_bar=clip_bar,
        controls=controls,
        figures=figures,
        side_panel=side_panel,
        splitter=splitter,
        progress_bar=progress_bar,
        status_label=status_label,
        zoom_label=zoom_label,
    )
    resized.call = widgets.fit_side_panel
    return widgets


class _Resized(QObject):
    """Calls `call` after each resize of the widget it watches."""

    def __init__(self, watched: QWidget) -> None:
        super().__init__(watched)
        self.call: Callable[[], None] = lambda: None
        watched.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.call()
        return False
