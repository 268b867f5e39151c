"""Edit ▸ Undo and Redo of the blur's parameters (kernel size, sigma, algorithm, colour), as
image editors have them: a QUndoStack of changes, where one gesture is one step. A slider
dragged from 11.4 to 1.1 undoes in one Ctrl+Z, and so do the keys of one number typed or a
spin box's arrow held down: changes of the same parameter merge while the slider is held, or
while they follow each other within MERGE_SECONDS."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QSlider

from blurapp.core.spec import BlurSpec
from blurapp.core.wording import QT_TRANSLATE_NOOP

MERGE_SECONDS = 1.0
PARAMETER_CHANGE = 1  # the id of the commands that can merge

# The parameters by the names the Undo and Redo items give them ("Undo Sigma").
PARAMETER_NAMES = {
    "kernel_size": QT_TRANSLATE_NOOP("MainWindow", "Kernel Size"),
    "sigma": QT_TRANSLATE_NOOP("MainWindow", "Sigma"),
    "algorithm": QT_TRANSLATE_NOOP("MainWindow", "Algorithm"),
    "color": QT_TRANSLATE_NOOP("MainWindow", "Colour"),
}


def _changed(before: BlurSpec, after: BlurSpec) -> tuple[str, ...]:
    return tuple(
        field.name
        for field in dataclasses.fields(BlurSpec)
        if getattr(before, field.name) != getattr(after, field.name)
    )


def _step_name(fields: tuple[str, ...]) -> str:
    if len(fields) == 1 and fields[0] in PARAMETER_NAMES:
        return QCoreApplication.translate("MainWindow", PARAMETER_NAMES[fields[0]])
    return QCoreApplication.translate("MainWindow", "Parameters")


class ParameterChange(QUndoCommand):
    """The parameters going from `before` to `after`; `drag`: the slider drag it was made in."""

    def __init__(
        self,
        apply: Callable[[BlurSpec], None],
        before: BlurSpec,
        after: BlurSpec,
        drag: int | None,
    ) -> None:
        self.fields = _changed(before, after)
        super().__init__(_step_name(self.fields))
        self._apply = apply
        self.before, self.after = before, after
        self.drag = drag
        self.when = time.monotonic()
        self._done = True  # pushed after the change was made: the first redo has nothing to do

    def id(self) -> int:
        return PARAMETER_CHANGE

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, ParameterChange) or other.fields != self.fields:
            return False
        same_drag = other.drag is not None and other.drag == self.drag
        if not same_drag and other.when - self.when > MERGE_SECONDS:
            return False
        self.after, self.drag, self.when = other.after, other.drag, other.when
        # Dragged back to where it started: no step at all.
        self.setObsolete(self.after == self.before)
        return True

    def redo(self) -> None:
        if self._done:
            self._done = False
            return
        self._apply(self.after)

    def undo(self) -> None:
        self._apply(self.before)


class ParameterHistory(QObject):
    """The window's undo stack of parameter changes. `record` each change the user makes;
    `apply` puts parameters back in the controls (and the session) when undoing or redoing."""

    def __init__(self, apply: Callable[[BlurSpec], None], slider: QSlider, parent=None) -> None:
        super().__init__(parent)
        self.stack = QUndoStack(self)
        self._apply = apply
        self._applying = False
        self._drag: int | None = None
        self._drags = 0
        slider.sliderPressed.connect(self._drag_started)
        slider.sliderReleased.connect(self._drag_ended)

    def record(self, before: BlurSpec, after: BlurSpec) -> None:
        """The user changed the parameters from `before` to `after` (not an undo's change)."""
        if self._applying or before == after:
            return
        self.stack.push(ParameterChange(self._apply_quietly, before, after, self._drag))

    def _apply_quietly(self, parameters: BlurSpec) -> None:
        self._applying = True
        try:
            self._apply(parameters)
        finally:
            self._applying = False

    def _drag_started(self) -> None:
        self._drags += 1
        self._drag = self._drags

    def _drag_ended(self) -> None:
        self._drag = None
