"""Where JAX starts as the window opens: before the window is shown where it will open a TPU
(opening the chip holds Python's lock for seconds, which would freeze a shown window), after
the window's first paint, on the runner, everywhere else (the window is not kept waiting)."""

import threading

import pytest
from helpers.tpu_runtime import seem_to_have_libtpu
from helpers.window import RUN_TIMEOUT_MS, jax_settled
from PySide6.QtWidgets import QApplication, QSplashScreen

from blurapp.app import jobs
from blurapp.app.captions import RIGHT
from blurapp.core.engines.jax_runtime import JaxUnavailableError, describe_device
from blurapp.core.engines.jax_runtime import jax_device as real_jax_device
from blurapp.ui.launch import open_window
from blurapp.ui.main_window import MainWindow

SPLASH_WORDS = "Opening the TPU: the window follows in a few seconds…"


def _splashes_shown() -> list[str]:
    return [
        widget.message()
        for widget in QApplication.topLevelWidgets()
        if isinstance(widget, QSplashScreen) and widget.isVisible()
    ]


@pytest.fixture
def opened(monkeypatch):
    """The device opener the window's start of JAX calls, replaced by one that records where
    and when it was called (on the window's thread or not, the window shown or not, the
    splash's words on screen) and opens the real device; the records, as it fills them."""
    calls: list[dict] = []

    def opener(platform=None):
        calls.append(
            {
                "window_thread": threading.current_thread() is threading.main_thread(),
                "window_shown": any(
                    isinstance(w, MainWindow) and w.isVisible()
                    for w in QApplication.topLevelWidgets()
                ),
                "splash": _splashes_shown(),
            }
        )
        return real_jax_device(platform)

    monkeypatch.setattr(jobs, "jax_device", opener)
    return calls


@pytest.fixture
def new_window(qtbot, settings):
    window = MainWindow(settings)
    window.controller.set_live(False)
    qtbot.addWidget(window)
    yield window
    jax_settled(qtbot, window)
    window.close()


def _open(qtbot, window) -> None:
    with qtbot.waitSignal(window.display.photo_shown, timeout=RUN_TIMEOUT_MS):
        open_window(window, None)


def test_where_jax_opens_a_tpu_it_opens_the_device_before_the_window_under_a_splash(
    qtbot, monkeypatch, opened, new_window
):
    seem_to_have_libtpu(monkeypatch)
    monkeypatch.delenv("JAX_PLATFORMS", raising=False)
    _open(qtbot, new_window)
    # Once, on the window's thread, the window not yet shown and the splash saying why.
    assert opened == [{"window_thread": True, "window_shown": False, "splash": [SPLASH_WORDS]}]
    # Shown with the device open: JAX-jit's pane names it from the first paint, and the
    # splash has gone.
    device = describe_device(real_jax_device())
    assert new_window.session.jax_device == device
    assert new_window.session.captions.caption(RIGHT).details[0] == device
    qtbot.waitUntil(lambda: not _splashes_shown(), timeout=RUN_TIMEOUT_MS)


def test_elsewhere_jax_starts_on_the_runner_once_the_window_is_shown_and_no_splash(
    qtbot, monkeypatch, opened, new_window
):
    seem_to_have_libtpu(monkeypatch, present=False)
    _open(qtbot, new_window)
    jax_settled(qtbot, new_window)
    assert opened == [{"window_thread": False, "window_shown": True, "splash": []}]
    assert new_window.session.jax_device == describe_device(real_jax_device())


def test_a_tpu_that_will_not_open_before_the_window_leaves_the_window_shown_without_jax(
    qtbot, monkeypatch, new_window
):
    # Another process holds the chip, say: the window opens all the same, NumPy's engine
    # usable, and JAX-jit's pane says why it cannot run instead of waiting for the chip.
    seem_to_have_libtpu(monkeypatch)
    monkeypatch.delenv("JAX_PLATFORMS", raising=False)
    tries = []

    def held(platform=None):
        tries.append(platform)
        raise JaxUnavailableError("JAX found no device to run on: the TPU is in use")

    monkeypatch.setattr(jobs, "jax_device", held)
    _open(qtbot, new_window)
    assert new_window.isVisible() and new_window.session.jax_device is None
    assert new_window.session.jax_unavailable == (
        "JAX found no device to run on: the TPU is in use"
    )
    assert tries == [None]  # not tried again on the runner once the window is shown
    words = new_window.session.captions.caption(RIGHT).details[0]
    assert "opening" not in words
