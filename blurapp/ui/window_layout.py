"""The main window's widgets and where they sit: the two result panes side by side, the side
panel (the controls above the figures), the status bar; what a Designer form would hold. The
window connects them (blurapp.ui.main_window)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QBoxLayout, QLabel, QSplitter, QVBoxLayout, QWidget

from blurapp.app.captions import LEFT
from blurapp.ui.clip_player import ClipBar
from blurapp.ui.figures_panel import FiguresPanel
from blurapp.ui.identity import app_icon
from blurapp.ui.image_pane import CaptionLink, ResultPane
from blurapp.ui.image_view import ViewLink
from blurapp.ui.presentation import WINDOW_ROWS
from blurapp.ui.side_panel import BlurControls
from blurapp.ui.text_fitting import ElidedLabel, FittingProgressBar

if TYPE_CHECKING:
    from blurapp.ui.main_window import MainWindow

# The smallest window in which the parameters, the figures and two captioned panes can all
# be read (the panes' captions wrap to at most four lines).
MIN_WINDOW_SIZE = (800, 600)


SIDE_BY_SIDE = QBoxLayout.Direction.LeftToRight
ONE_ABOVE_THE_OTHER = QBoxLayout.Direction.TopToBottom


def arrange_panes(window: MainWindow, stacked: bool) -> None:
    """The panes side by side, or one above the other (wide photos get more room that way)."""
    direction = ONE_ABOVE_THE_OTHER if stacked else SIDE_BY_SIDE
    if window.panes_layout.direction() != direction:
        window.panes_layout.setDirection(direction)


def lay_out(window: MainWindow, engines: list[tuple[str, str]]) -> None:
    """Build `window`'s widgets, as its attributes, for `engines` ((name, title) each)."""
    session = window.session
    window.panes = [ResultPane(engines, engine) for engine in session.pane_engines]
    window.left_pane, window.right_pane = window.panes
    window.view_link = ViewLink([pane.view for pane in window.panes])
    window.caption_link = CaptionLink(window.panes)
    window.select_pane(LEFT)
    panes = QWidget()
    window.panes_layout = layout = QBoxLayout(SIDE_BY_SIDE, panes)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    for pane in window.panes:
        layout.addWidget(pane, 1)
    # Under the panes, shown while a clip is open (blurapp.ui.clip_player).
    window.clip_bar = ClipBar()
    centre = QWidget()
    column = QVBoxLayout(centre)
    column.setContentsMargins(0, 0, 0, 0)
    column.setSpacing(0)
    column.addWidget(panes, 1)
    column.addWidget(window.clip_bar)

    controls = window.controls = BlurControls(engines, session.captions.tr)
    window.figures = FiguresPanel()
    window.figures.arrange_rows(WINDOW_ROWS)
    window.side_panel = QWidget()
    window.side_panel.setMinimumWidth(330)
    window.side_panel.setMaximumWidth(520)
    side = QVBoxLayout(window.side_panel)
    side.setContentsMargins(6, 6, 6, 6)
    side.addWidget(controls)
    side.addWidget(window.figures, 1)
    # The controls by the names the tests and the menus use.
    window.size_spin, window.auto_size_check = controls.size_spin, controls.auto_size_check
    window.sigma_spin, window.sigma_slider = controls.sigma_spin, controls.sigma_slider
    window.algorithm_combo = controls.algorithm_combo
    window.engine_checks = controls.engine_checks
    window.show_combo = controls.show_combo
    window.run_button, window.cancel_button = controls.run_button, controls.cancel_button
    window.effective_size_label = controls.effective_size_label
    window.parameter_note = controls.parameter_note

    window.progress_bar = FittingProgressBar()
    window.progress_bar.setTextVisible(True)
    window.progress_bar.hide()
    # Elided: a long folder name never runs on into the progress bar or the zoom.
    window.status_label = ElidedLabel()
    window.zoom_label = QLabel()
    window.zoom_label.setToolTip(
        QCoreApplication.translate(
            "MainWindow", "Both panes share this zoom: Ctrl+0 fits, Ctrl+1 is 100%"
        )
    )
    window.statusBar().addWidget(window.status_label, 1)
    window.statusBar().addPermanentWidget(window.progress_bar)
    window.statusBar().addPermanentWidget(window.zoom_label)

    splitter = QSplitter(Qt.Orientation.Horizontal)
    splitter.addWidget(window.side_panel)
    splitter.addWidget(centre)
    splitter.setStretchFactor(1, 1)
    splitter.setCollapsible(1, False)
    window.setCentralWidget(splitter)
    window.setMinimumSize(*MIN_WINDOW_SIZE)
    chain = [*controls.controls_in_tab_order()]
    for pane in window.panes:
        chain += [pane.engine_combo, pane.view]
    for first, second in itertools.pairwise(chain):
        QWidget.setTabOrder(first, second)
    window.setAcceptDrops(True)
    window.setWindowIcon(app_icon())
