"""The spin boxes of the kernel size and sigma: they take any number typed and say what a run
uses instead when it cannot be used as typed."""

from __future__ import annotations

from PySide6.QtWidgets import QDoubleSpinBox, QSpinBox, QWidget

from blurapp.core.kernel import MAX_KERNEL_SIZE, MAX_SIGMA, MIN_SIGMA


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
