"""Presentation mode, for showing the accelerator's speed-up to an audience (F11,
View ▸ Presentation).

The window goes full screen, the image panes get the room the side panel can give up, and the
figures and the panes' captions are set in type read from the back of a room, the speed-up in
the largest. The controls keep their size: the presenter, not the audience, uses them. Esc
leaves, as in slide software, except while a run can be cancelled: then Esc stays Cancel.

Whether presentation mode is on is deliberately not remembered between launches: a presenter's
full screen window is not how the next person to start BlurApp wants it to open.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QEvent, QObject, Qt
from PySide6.QtGui import QAction, QFontMetrics, QKeySequence
from PySide6.QtWidgets import QMainWindow

from blurapp.ui.figures_panel import WINDOW_ROWS, RowArrangement
from blurapp.ui.fonts import scaled_font

if TYPE_CHECKING:
    from blurapp.ui.menus import WindowActions
    from blurapp.ui.window_layout import WindowWidgets

FIGURES_SCALE = 2.0  # the figures, the chart and the captions: twice the normal type
SPEEDUP_SCALE = 3.0  # the speed-up, the figure a demo is about: the largest type
# The figures a demo is about first, right under the chart, the speed-up at the top: they show
# without scrolling on a 1600 × 1000 screen. Each figure in presentation type, how it was
# measured beside it in smaller type, for the presenter. Left out, the figures an audience finds
# elsewhere on the screen (the photo's name in the title bar, the kernel and the device in the
# captions) or does not need.
PRESENTED_ROWS = RowArrangement(
    first=(
        "speedup",
        "speedup_end_to_end",
        "numpy.steady",
        "jit.first_call",
        "jit.steady",
        "max_abs_diff",
        # That the times cannot be trusted, when they cannot: right after the six figures of the
        # demo, which keep a 1600 × 1000 screen without scrolling.
        "warning",
    ),
    # The floors' rows stay in the window's figures: in presentation more rows than fit the
    # screen bring a scroll bar, and the narrower rows wrap the six figures off it; and a floor's
    # figure ("0.008 ms on cpu") would widen the figures' column, narrowing every detail.
    hidden=frozenset(
        {
            "image",
            "kernel",
            "jit.transfers",
            "jit.device",
            "copy",
            "vs_copy",
            "compute",
            "vs_compute",
            "call",
            "vs_call",
        }
    ),
    stacked=True,
    # The details are the presenter's, the figures the audience's. At 1600 × 1000, with the
    # live preview on (as users have it), the first call paid by the preview and steady times
    # under a millisecond (a wider figure, a narrower detail beside it), 1.25 pushed "max abs
    # diff" off the screen. At 1.1, with the figures' column as wide as its widest figure, it
    # has some 30 px to spare: two details may wrap to a third line on a busy machine.
    detail_scale=1.1,
)
# The side panel's width when presenting. Panes side by side are short of width, not height, so
# each pixel the panel gives up makes the pictures larger. It keeps a share of the screen, and at
# least this many characters of presentation type: the chart names its bars in two fifths of its
# width, and "JAX without jit" must fit.
SIDE_PANEL_SHARE = 0.30  # 0.27 wrapped the first call's detail to a third line at 1600 px
SIDE_PANEL_CHARACTERS = 38


class Presentation(QObject):
    """Turns `window`'s presentation mode on and off as View ▸ Presentation is checked."""

    def __init__(self, window: QMainWindow, widgets: WindowWidgets, actions: WindowActions) -> None:
        super().__init__(window)
        self._window, self._widgets, self._actions = window, widgets, actions
        self._action = actions.presentation
        self._was_maximized = False
        self._geometry_before = QByteArray()
        self._side_width_limits = (0, 0)
        # Its own action rather than a second shortcut of the View menu's, which would turn
        # presentation mode on as well; it is on only while Cancel does not want Esc, as two
        # actions on one key would both be refused.
        self._leave_action = QAction(self.tr("Leave Presentation"), window)
        self._leave_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self._leave_action.triggered.connect(lambda: self._action.setChecked(False))
        window.addAction(self._leave_action)
        actions.cancel.enabledChanged.connect(self._update_escape)
        self._action.toggled.connect(self._on_toggled)
        self._update_escape()
        window.installEventFilter(self)

    def is_on(self) -> bool:
        return self._action.isChecked()

    def geometry_to_save(self) -> QByteArray:
        """The window's geometry for the settings: while presenting, the one from before, so that
        the next launch opens as the window was before presentation mode, never full screen."""
        return self._geometry_before if self.is_on() else self._window.saveGeometry()

    def _on_toggled(self, on: bool) -> None:
        if on:
            self._enter()
        else:
            self._leave()
        self._update_escape()

    def _enter(self) -> None:
        window = self._window
        self._was_maximized = window.isMaximized()
        self._geometry_before = window.saveGeometry()
        side = self._widgets.side_panel
        self._side_width_limits = (side.minimumWidth(), side.maximumWidth())
        self._widgets.side_panel_fits = False
        self._widgets.figures.arrange_rows(PRESENTED_ROWS)
        self._widgets.figures.set_font_scale(FIGURES_SCALE, SPEEDUP_SCALE)
        # The panes' engines, always timed, are named above the panes: their check boxes'
        # rows go to the figures, which keep a 1600 × 1000 screen without scrolling.
        self._widgets.controls.hide_held(True)
        for pane in self._widgets.panes:
            pane.set_caption_scale(FIGURES_SCALE)
        self._fit_side_panel(window.screen().geometry().width())
        window.showFullScreen()

    def _fit_side_panel(self, width: int) -> None:
        """The side panel's width for a full-screen window `width` pixels wide."""
        font = scaled_font(self._widgets.figures, FIGURES_SCALE)
        character = QFontMetrics(font).averageCharWidth()
        share = width * SIDE_PANEL_SHARE
        self._widgets.side_panel.setFixedWidth(round(max(share, SIDE_PANEL_CHARACTERS * character)))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Full screen on another screen (a projector of its own resolution): fit it again.
        if watched is self._window and event.type() == QEvent.Type.Resize and self.is_on():
            self._fit_side_panel(self._window.width())
        return False

    def _leave(self) -> None:
        window = self._window
        self._widgets.figures.arrange_rows(WINDOW_ROWS)
        self._widgets.figures.set_font_scale(1)
        self._widgets.controls.hide_held(False)
        for pane in self._widgets.panes:
            pane.set_caption_scale(1)
        side = self._widgets.side_panel
        side.setMinimumWidth(self._side_width_limits[0])
        side.setMaximumWidth(self._side_width_limits[1])
        self._widgets.side_panel_fits = True
        if self._was_maximized:
            window.showMaximized()
        else:
            window.showNormal()

    def _update_escape(self) -> None:
        self._leave_action.setEnabled(self.is_on() and not self._actions.cancel.isEnabled())
