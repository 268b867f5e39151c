"""Starting the window: `blurapp [IMAGE]` and `blurapp --screenshot OUT.png [IMAGE]`."""

from __future__ import annotations

import atexit
import json
import logging
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import cast

import shiboken6
from PySide6.QtCore import QBuffer, QCoreApplication, QIODevice, QRect, Qt, QTimer
from PySide6.QtGui import QPainter, QPixmap
from PySide6.QtWidgets import QApplication, QSplashScreen

from blurapp.app.settings_file import SettingsFile
from blurapp.core.engines.jax_eager_engine import JAX_EAGER
from blurapp.core.media.sample import sample_photo_path
from blurapp.core.media.saving import OutputError, check_output_path, write_atomically
from blurapp.core.platforms import jax_opens_a_tpu
from blurapp.core.wording import display_path
from blurapp.ui.background_runner import load_the_runner
from blurapp.ui.identity import APP_NAME, DESKTOP_ID, app_icon
from blurapp.ui.main_window import MainWindow, window_controller
from blurapp.ui.screen import has_display, no_screen_for_the_window
from blurapp.ui.translations import TRANSLATIONS, install_translations

log = logging.getLogger(__name__)

# Longer than a first JIT compile plus the default engines on a large photo on a slow machine.
SCREENSHOT_TIMEOUT_S = 300
SCREENSHOT_SIZE = (1360, 700)
CLIP_SCREENSHOT_SECONDS = 3.0  # a clip plays this long before its screenshot is taken
# The splash shown while a TPU opens, before the window (open_device_first).
SPLASH_SIZE = (480, 96)


def available_languages() -> list[str]:
    """The languages the window can be shown in: English, and each shipped translation."""
    translated = sorted(path.stem.removeprefix("blurapp_") for path in TRANSLATIONS.glob("*.qm"))
    return ["en", *translated]


def _check_language(language: str) -> None:
    """Say on stderr when `language` has no translation (the window then stays in English)."""
    available = available_languages()
    wanted = language.replace("-", "_")
    # "zh" finds zh_CN, as Qt's own lookup does.
    if any(wanted == name or name.startswith(f"{wanted}_") for name in available):
        return
    print(
        f"warning: no translation for --lang {language!r}; the window is in English. "
        f"Available: {', '.join(available)}",
        file=sys.stderr,
    )


def run_window(
    image: Path | None,
    *,
    screenshot: Path | None = None,
    exit_when_shown: bool = False,
    language: str | None = None,
    color: bool = False,
    size: tuple[int, int] | None = None,
) -> int:
    """Open the main window on `image` (the bundled sample if None) and run Qt's event loop;
    a `screenshot` of the window at `size` (SCREENSHOT_SIZE when None)."""
    if screenshot is not None:
        # Before anything opens: a target that cannot be written fails now, not after a run.
        try:
            check_output_path(screenshot)
        except OutputError as error:
            print(f"error: {display_path(str(error))}", file=sys.stderr)
            return 1
        if not has_display():
            # A screenshot needs no screen: render offscreen when there is none, on a screen of
            # the screenshot's size, so that the window is laid out as on such a screen.
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
            if os.environ["QT_QPA_PLATFORM"] == "offscreen" and size is not None:
                os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={_screen_file(size)}"
    if no_screen_for_the_window():
        # Qt would abort the process with a core dump; say what is wrong instead.
        print(
            "error: no screen to open the window on (DISPLAY is not set); "
            "use 'blurapp compare' in a terminal, or 'blurapp --screenshot OUT.png'",
            file=sys.stderr,
        )
        return 1
    # One already made is a QApplication too (a test's), which the stubs know only as a
    # QCoreApplication.
    app = cast(
        QApplication,
        QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "blurapp"]),
    )
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(APP_NAME)
    # Matches the .desktop file's name, so desktops put the window under BlurApp's entry.
    app.setDesktopFileName(DESKTOP_ID)
    if language:
        _check_language(language)
    translators = install_translations(app, language)  # noqa: F841 (kept alive with the app)
    outcome = {"status": 0}
    # The window's root first, without Qt's widgets: the window is its view.
    controller = window_controller()
    if screenshot is None:
        window = MainWindow(controller=controller)
        if color:
            window.set_parameters(color=True)
        _report_uncaught_errors(window)
        window.closed_while_busy.connect(lambda: _exit_now())
        if exit_when_shown:
            # Say when the window is on screen, painted (and whether JAX was needed for that),
            # then leave, before the photo's load begins: a script's check that the window
            # starts, and the start-up `blurapp bench` times.
            def report() -> None:
                print(f"shown jax_imported={'jax' in sys.modules}", flush=True)
                window.close()
                app.quit()

            window.after_first_paint(report)
        open_window(window, image)
        return app.exec()
    # A screenshot shows the defaults at a fixed size and leaves the user's settings alone.
    with tempfile.TemporaryDirectory(prefix="blurapp-screenshot-") as folder:
        settings = SettingsFile(Path(folder) / "settings.json")
        window = MainWindow(settings, controller=controller)
        window.resize(*(size or SCREENSHOT_SIZE))
        if color:
            window.set_parameters(color=True)
        _arrange_screenshot(app, window, screenshot, outcome)

        # A bad photo fails while the worker is still importing JAX: end then, as the window
        # does, rather than destroy a running thread on the way out.
        def exit_now() -> None:
            shutil.rmtree(folder, ignore_errors=True)
            _exit_now(outcome["status"])

        window.closed_while_busy.connect(exit_now)
        open_window(window, image)
        status = app.exec()
        # The settings file goes with the folder: let go of it (and the window) first.
        window.deleteLater()
    return outcome["status"] or status


def _screen_file(size: tuple[int, int]) -> Path:
    """The offscreen platform's configuration of one screen of `size`, in a file of its own
    that goes when the program ends."""
    folder = Path(tempfile.mkdtemp(prefix="blurapp-screen-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "screen.json"
    width, height = size
    screen = {"name": "screen", "x": 0, "y": 0, "width": width, "height": height,
              "logicalDpi": 96}  # fmt: skip
    path.write_text(json.dumps({"screens": [screen]}))
    return path


def _exit_now(status: int = 0) -> None:
    """End the program, with `status`, although a job is still inside one compiled JAX
    call (or JAX's first import).

    That call cannot be interrupted and may take seconds; the settings are saved, nothing of the
    user's is being written, and quitting must take under 2 s.
    """
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def _report_uncaught_errors(window: MainWindow) -> None:
    """An error in a slot would otherwise only reach the terminal: tell the user as well."""

    def report(kind, error, trace) -> None:
        if not shiboken6.isValid(window):  # the program is ending: no window to tell it in
            sys.__excepthook__(kind, error, trace)
            return
        # _warn logs it, with the traceback: once.
        still_running = QCoreApplication.translate(
            "MainWindow", "BlurApp is still running; the details are in the log."
        )
        window.messages.warn(
            QCoreApplication.translate("MainWindow", "Unexpected Error"),
            f"{kind.__name__}: {error}\n\n{still_running}",
            critical=True,
            error=error,
        )

    sys.excepthook = report


def open_window(window: MainWindow, image: Path | None) -> MainWindow:
    """Show `window` and, once it has been painted, start loading `image`, or the bundled
    sample photo when None. Where JAX will open a TPU, JAX starts first, before the window is
    shown, with a splash saying so (see open_device_first)."""

    def start_loading() -> None:
        if window.isVisible():  # not closed before the event loop came to it
            window.open_file(image if image is not None else sample_photo_path())

    splash = open_device_first(window) if jax_opens_a_tpu() else None
    window.show()
    if splash is not None:
        splash.finish(window)
        splash.deleteLater()
    window.after_first_paint(start_loading)
    return window


def open_device_first(window: MainWindow) -> QSplashScreen:
    """Start JAX for `window` on this thread, a splash on screen meanwhile that says what is
    awaited; the splash, for the caller to close once the window is shown.

    Opening a TPU holds Python's lock for seconds (docs/performance.md, "The window, the
    commands and the host there"): on a worker thread, as JAX starts elsewhere, it froze the
    shown window as long. Done before the window is shown, nothing is left to freeze it; the
    splash, painted before the lock is taken, stays on screen through it."""
    picture = QPixmap(SPLASH_SIZE[0], SPLASH_SIZE[1])
    picture.fill(QApplication.palette().window().color())
    painter = QPainter(picture)
    app_icon().paint(painter, QRect(16, 16, 64, 64))
    painter.end()
    splash = QSplashScreen(picture)
    splash.setWindowIcon(app_icon())
    words = QCoreApplication.translate(
        "MainWindow", "Opening the TPU: the window follows in a few seconds…"
    )
    splash.showMessage(
        words,
        Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
        QApplication.palette().windowText().color(),
    )
    splash.show()
    QApplication.processEvents()  # painted now: the event loop cannot run until JAX has started
    window.controller.photos.start_jax_here()
    # The window waits anyway: the runner's imports too, which its first job would otherwise
    # make on this thread once the window is shown.
    load_the_runner()
    return splash


def _arrange_screenshot(app: QApplication, window: MainWindow, target: Path, outcome: dict) -> None:
    """Once the photo is open, run the comparison; once results show, save a grab and quit.
    A clip plays, and is grabbed while it plays."""

    def fail(message: str) -> None:
        if outcome["status"]:  # the first failure is the one to tell
            return
        print(f"error: {display_path(message)}", file=sys.stderr)
        outcome["status"] = 1
        window.close()
        app.quit()

    def save() -> None:
        window.widgets.run_button.setFocus()  # no text cursor blinking in a parameter box
        QApplication.processEvents()
        picture = window.grab()
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        picture.save(buffer, "PNG")
        data = bytes(buffer.data())  # type: ignore[call-overload]  # a QByteArray is a buffer
        write_atomically(target, lambda file: file.write(data))
        print(f"wrote {display_path(target)}", flush=True)  # where it went, as `blur` says
        window.close()
        app.quit()

    def save_or_fail() -> None:
        try:
            save()
        except OutputError as error:
            fail(str(error))
        except Exception as error:
            log.error("could not save the screenshot", exc_info=error, extra={"file_only": True})
            fail(f"{target}: the screenshot could not be saved: {error}")

    def report_uncaught(kind, error, trace) -> None:
        # Nobody is there to read a message box: an error in a slot ends the program.
        log.error("unexpected error", exc_info=(kind, error, trace), extra={"file_only": True})
        fail(f"unexpected error: {kind.__name__}: {error}")

    sys.excepthook = report_uncaught
    # A message box would wait for a click nobody gives: report on stderr instead.
    window.messages.boxes = False
    window.message_shown.connect(lambda title, text: fail(text))
    # The tutorial's three timings: NumPy, JAX without jit, and JAX-jit (first call, steady).
    window.controller.set_timed(JAX_EAGER.name, True)
    window.display.photo_shown.connect(lambda _: window.controller.run())
    window.display.results_shown.connect(lambda _: QTimer.singleShot(100, save_or_fail))
    # A clip plays instead, and is taken once each pane has shown its frames per second for
    # a while (the Run of a photo above never starts: a clip's frames are no photo_shown).
    played_since: list[float] = []

    def on_played(state) -> None:
        if not played_since:
            played_since.append(time.monotonic())
        rates_shown = all("frames/s" in words for words in state.pane_words.values())
        played_enough = time.monotonic() - played_since[0] >= CLIP_SCREENSHOT_SECONDS
        if rates_shown and (played_enough or state.finished):
            window.display.played.disconnect(on_played)
            save_or_fail()

    window.display.clip_opened.connect(lambda _: window.controller.clips.play())
    window.display.played.connect(on_played)
    window.display.run_failed.connect(fail)
    QTimer.singleShot(
        SCREENSHOT_TIMEOUT_S * 1000, lambda: fail("the comparison did not finish in time")
    )
