"""What the window tests share besides their fixtures (those are in tests/conftest.py)."""

import math

import numpy as np
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtWidgets import QApplication

# Longer than a first JIT compile on a slow, busy machine.
RUN_TIMEOUT_MS = 120_000


def run(qtbot, window, engines=None):
    """Press Run as a user does and return the comparison the window shows once it is done.

    `engines`: time these engines only, the panes showing the first and the last of them; by
    default the window's own choice."""
    if engines is not None:
        # A pane's engine is always timed: the panes show the first and the last engine to time.
        window.controller.set_pane_engine(0, engines[0])
        window.controller.set_pane_engine(1, engines[-1])
        for name in window.widgets.engine_checks:
            window.controller.set_timed(name, name in engines)
    with qtbot.waitSignal(window.display.results_shown, timeout=RUN_TIMEOUT_MS) as shown:
        qtbot.mouseClick(window.widgets.run_button, Qt.MouseButton.LeftButton)
    return shown.args[0]


def jax_settled(qtbot, window):
    """Wait until JAX has started (or failed to) in the background: a window closed while the
    worker is still importing it leaves the worker's thread running past the close."""
    session = window.session
    qtbot.waitUntil(
        lambda: session.jax_device is not None or session.jax_unavailable is not None,
        timeout=RUN_TIMEOUT_MS,
    )


def jobs_done(qtbot, window):
    """Wait until the window's runner has no job waiting or running. Whatever its jobs told
    has then been handled (a job's answer comes before its end), so a test can assert that
    something did not happen without waiting a fixed time for it."""
    qtbot.waitUntil(lambda: not window.runner.busy(), timeout=RUN_TIMEOUT_MS)


def settle(window, width, height):
    """`window` at width × height, laid out: the panes' sizes and the captions' heights follow
    a layout pass later, the fit zoom another."""
    window.setGeometry(0, 0, width, height)
    for _ in range(3):
        QApplication.processEvents()


def on_screen(view, x, y):
    """The view's pixel that holds the centre of picture pixel (x, y)."""
    centre = view.viewportTransform().map(QPointF(x + 0.5, y + 0.5))
    return QPoint(math.floor(centre.x()), math.floor(centre.y()))


def grey_values(image):
    """A grabbed QImage's grey values (its red channel), rows × columns."""
    from PySide6.QtGui import QImage

    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(rgb.constBits(), np.uint8).reshape(rgb.height(), rgb.bytesPerLine())
    return rows[:, : 3 * rgb.width()].reshape(rgb.height(), rgb.width(), 3)[..., 0]
