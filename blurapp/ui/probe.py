"""Measurements of the real window for `blurapp bench`, run in a process of their own:
`python -m blurapp.ui.probe PHOTO` prints one JSON object.

- the longest stall of the event loop during a comparison, seen by a 10 ms timer;
- the time from the window saying it shows a comparison's results (its `results_shown`
  signal) to both panes painted, and each pane's paint of its engine's result;
- the time to repaint both panes after zooming and panning a big photo;
- with `--live`, the live preview's latency: from a change of sigma to the JAX-jit pane
  repainted with its blur, while NumPy's pane still computes the change before;
- with `--playing WIDTH HEIGHT SECONDS RATE [colour]`, a clip of that size and RATE frames a
  second playing through both panes: each pane's frames per second and frames dropped, and the
  event loop's longest stall, over SECONDS timed from when both panes have shown a frame
  (however long their first calls took);
- with `--start [PHOTO]`, the window opening on PHOTO (the bundled one by default) as
  `blurapp` opens it: the time to its first paint, and the event loop's longest stall from
  then until the photo is shown and JAX has started.
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from blurapp.app.settings_file import SettingsFile
from blurapp.core.engines import DEFAULT_ENGINES
from blurapp.core.engines.jax_engine import JAX_JIT
from blurapp.core.measuring.comparison import ComparisonResult
from blurapp.core.media.clip import Clip, ClipInfo

TIMER_MS = 10


@contextlib.contextmanager
def _probe_window():
    """(the application, a main window with settings of its own at the size the figures are
    quoted for), closed afterwards, its jobs with it, whatever happened."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    # PySide6, as the Qt imports above: only when a probe runs
    from blurapp.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory(prefix="blurapp-probe-") as folder:
        settings = SettingsFile(Path(folder) / "settings.json")
        window = MainWindow(settings)
        window.resize(1360, 820)
        try:
            yield app, window
        finally:
            window.close()


def _wait_for(signal, timeout_s: float = 600) -> None:
    """Run the event loop until `signal` comes, or `timeout_s` has passed."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    signal.connect(loop.quit)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    loop.exec()


def measure(photo: Path) -> dict:
    from PySide6.QtCore import QObject, QTimer, Slot

    with _probe_window() as (app, window):
        gaps: list[float] = []
        last = [time.perf_counter()]

        stalls: list[tuple[float, float]] = []

        def tick() -> None:
            now = time.perf_counter()
            gaps.append(now - last[0])
            if now - last[0] > 0.03:
                stalls.append((last[0], now - last[0]))
            last[0] = now

        timer = QTimer()
        timer.setInterval(TIMER_MS)
        timer.timeout.connect(tick)
        display: dict[str, float] = {}

        class Receiver(QObject):
            @Slot(str, int, int)
            def progress(self, engine: str, done: int, total: int) -> None:
                phases.append((time.perf_counter(), engine, done))

        phases: list[tuple[float, str, int]] = []
        receiver = Receiver()
        # What the window tells anyone: when it shows a comparison's results, and which.
        shown: list[tuple[float, ComparisonResult]] = []
        window.display.results_shown.connect(
            lambda result: shown.append((time.perf_counter(), result))
        )
        window.display.progress_shown.connect(receiver.progress)
        # Start-up: the photo loads and JAX starts, in the background once the window is shown.
        timer.start()
        starting = _start(window, photo, gaps, last)
        gaps.clear()
        stalls.clear()
        last[0] = time.perf_counter()
        window.controller.run()
        _wait_for(window.display.results_shown)
        shown_at, result = shown[-1]
        # Render each pane now, through the same paint code the screen's next frame runs.
        for engine, pane in zip(window.session.pane_engines, window.widgets.panes, strict=True):
            start = time.perf_counter()
            pane.view.viewport().grab()
            display[engine] = time.perf_counter() - start
        both_painted = time.perf_counter() - shown_at
        app.processEvents()
        timer.stop()

        def repaint_both() -> float:
            start = time.perf_counter()
            for view in (window.widgets.left_pane.view, window.widgets.right_pane.view):
                view.viewport().grab()
            return time.perf_counter() - start

        window.widgets.view_link.fit_to_window()
        fit = repaint_both()
        window.widgets.view_link.set_zoom(1.0)
        actual = repaint_both()
        window.widgets.left_pane.view.horizontalScrollBar().setValue(400)
        panned = repaint_both()
        if os.environ.get("BLURAPP_PROBE_DEBUG"):
            for at, length in stalls:
                phase = [p for p in phases if p[0] <= at]
                print(f"stall {length * 1000:.0f} ms after {phase[-1][1:] if phase else None}")
        report = {
            "photo": str(photo),
            "megapixels": window.photo.width * window.photo.height / 1e6,
            "longest_stall_seconds": max(gaps) - TIMER_MS / 1000 if gaps else None,
            "longest_stall_after_shown_seconds": starting["longest_stall_after_shown_seconds"],
            "timer_ticks": len(gaps),
            "result_to_both_panes_painted_seconds": both_painted,
            "engine_result_to_pane_painted_seconds": display,
            "repaint_both_panes_seconds": {"fit": fit, "100%": actual, "panned": panned},
            "numpy_seconds": result.reference_run.seconds if result.reference_run else None,
            "jax_seconds": result.jit_run.seconds if result.jit_run else None,
        }
    return report


def _start(window, photo: Path | None, gaps: list[float], last: list[float]) -> dict:
    """Open `window` on `photo` (the bundled one for None) as `blurapp` does and wait until the
    photo is shown and JAX has started: seconds from the window's opening to its first paint
    (a TPU is opened before it), and the longest stall of the event loop after that, seen by
    the running timer that appends its gaps to `gaps` and its last tick to `last`."""
    from blurapp.ui.launch import open_window  # PySide6: only when a probe runs

    began = time.perf_counter()
    painted: list[float] = []

    def first_paint() -> None:  # from the event loop, once the window has been painted
        painted.append(time.perf_counter())
        gaps.clear()
        last[0] = painted[0]

    window.after_first_paint(first_paint)  # before open_window: the first callback of the paint
    open_window(window, photo)
    _wait_for(window.display.photo_shown)
    if window.session.jax_device is None and window.session.jax_unavailable is None:
        _wait_for(window.display.jax_ready)
    return {
        "window_shown_seconds": painted[0] - began if painted else None,
        "longest_stall_after_shown_seconds": max(gaps) - TIMER_MS / 1000 if gaps else None,
        "jax_device": window.session.jax_device,
    }


def measure_start(photo: Path | None = None) -> dict:
    """The window opening on `photo` (the bundled one for None) as `blurapp` opens it: from the
    call to its first paint, and the event loop's longest stall from then until the photo is
    shown and JAX has started, seen by a TIMER_MS timer."""
    from PySide6.QtCore import QTimer

    with _probe_window() as (_app, window):
        gaps: list[float] = []
        last = [time.perf_counter()]

        def tick() -> None:
            now = time.perf_counter()
            gaps.append(now - last[0])
            last[0] = now

        timer = QTimer()
        timer.setInterval(TIMER_MS)
        timer.timeout.connect(tick)
        timer.start()
        starting = _start(window, photo, gaps, last)
        timer.stop()
    return starting


# Sigma moves this many times, a slider step (0.1) each, this far apart: a slow drag.
LIVE_CHANGES = 12
LIVE_CHANGE_GAP_S = 0.1


def measure_live(photo: Path, algorithm: str = "2d") -> dict:
    """Change sigma as a dragged slider does and time each change until the JAX-jit pane is
    repainted with the blur of it: the window's own path (parameters → runner → JAX-jit →
    8-bit pyramid → pane) through to the paint code the screen's next frame runs."""
    from PySide6.QtCore import QEventLoop, QTimer

    with _probe_window() as (_app, window):
        window.controller.set_live(True)
        window.set_parameters(algorithm=algorithm)
        shown: list[tuple[str, float]] = []
        window.display.live_shown.connect(
            lambda engine: shown.append((engine, time.perf_counter()))
        )

        def wait_until(condition, timeout_s: float = 600) -> bool:
            # Idle in an event loop, as the window is while a user drags: polling here would
            # hold Python's lock against the job and slow what is measured.
            deadline = time.perf_counter() + timeout_s
            while not condition() and time.perf_counter() < deadline:
                loop = QEventLoop()
                window.display.live_shown.connect(loop.quit)
                QTimer.singleShot(50, loop.quit)
                loop.exec()
                window.display.live_shown.disconnect(loop.quit)
            return condition()

        def pause(seconds: float) -> None:
            loop = QEventLoop()
            QTimer.singleShot(round(seconds * 1000), loop.quit)
            loop.exec()

        return _drag_sigma(window, photo, shown, wait_until, pause)


def _drag_sigma(window, photo: Path, shown: list, wait_until, pause) -> dict:
    from blurapp.ui.launch import open_window  # PySide6: only when a probe runs

    open_window(window, photo)
    # The preview of the photo as opened: JAX-jit compiles (or loads) its program here.
    if not wait_until(lambda: set(DEFAULT_ENGINES) <= {engine for engine, _ in shown}):
        return {"error": "the live preview did not show the photo"}
    jax_pane = window.widgets.panes[window.session.pane_engines.index(JAX_JIT.name)]
    latencies = []
    sigma = window.session.parameters.sigma
    for step in range(1, LIVE_CHANGES + 1):
        before = len(shown)
        start = time.perf_counter()
        window.set_parameters(sigma=round(sigma + step / 10, 1))
        if not wait_until(lambda before=before: any(e == JAX_JIT.name for e, _ in shown[before:])):
            return {"error": "JAX-jit's pane did not follow the slider"}
        jax_pane.view.viewport().grab()  # the paint the screen's next frame runs
        latencies.append(time.perf_counter() - start)
        pause(LIVE_CHANGE_GAP_S)
    wait_until(lambda: window.session.running is None)
    engine_seconds = _engine_end_to_end(window)
    median = statistics.median(latencies)
    return {
        "engine_end_to_end_median_seconds": engine_seconds,
        "window_over_engine": median / engine_seconds if engine_seconds else None,
        "photo": str(photo),
        "megapixels": window.photo.width * window.photo.height / 1e6,
        "kernel": window.session.captions.kernel_used(),
        "algorithm": window.session.parameters.algorithm,
        "changes": LIVE_CHANGES,
        "latency_median_seconds": median,
        "latency_max_seconds": max(latencies),
        "latency_seconds": latencies,
        "jax_device": window.session.jax_device,
    }


# The engine's end to end beside the window's latency: the median of this many steady calls.
ENGINE_CALLS = 15


def _engine_end_to_end(window) -> float:
    """JAX-jit's end to end on the photo and parameters the window last previewed, in this
    process, once the window is idle: the median of steady calls, each with its copies to and
    from the device (bands overlapping the blur where the engine cuts them), as `blurapp
    compare` times it; what the live preview's latency is held against."""
    parameters = window.session.parameters
    image = window.session.photo.to_blur(color=parameters.color)
    first = JAX_JIT.start(image, parameters.kernel)
    first.again()  # an untimed warm-up: it gets a band's program, where there are bands
    return statistics.median(first.again().end_to_end_seconds for _ in range(ENGINE_CALLS))


# The clip played: this many distinct frames (a diagonal pan over noise), at this rate, this long.
PLAYING_FRAMES = 48
PLAYING_RATE = 30.0
PLAYING_SECONDS = 15.0
# How long the panes may take to show their first frames (JAX-jit compiles its program for the
# first): the figures are timed after that, however long it took on a slow, busy machine.
FIRST_FRAMES_TIMEOUT_S = 600.0


def measure_playing(
    width: int,
    height: int,
    colour: bool = False,
    seconds: float = PLAYING_SECONDS,
    rate: float = PLAYING_RATE,
) -> dict:
    """Play a clip of `width` × `height` frames (grey, or colour), `rate` frames a second,
    through the window's two
    panes (NumPy and JAX-jit, 9 × 9, σ 2.5): what each pane showed and dropped, and the event
    loop's longest stall, over `seconds` timed from when every pane has shown a frame (its
    first call, JAX-jit's compile among them, apart)."""
    import numpy as np
    from PySide6.QtCore import QEventLoop, QTimer

    shape = (height + PLAYING_FRAMES, width + PLAYING_FRAMES, *((3,) if colour else ()))
    noise = np.random.default_rng(0).integers(0, 256, shape, dtype=np.uint8)
    frames = [noise[i : i + height, i : i + width].copy() for i in range(PLAYING_FRAMES)]
    del noise

    class Looping(Clip):
        """The frames over and over, each read as a video file's is: 8-bit levels, a copy of
        its own each time (or floats made of them)."""

        info = ClipInfo("probe", width, height, None, rate, colour=colour)
        gives_levels = True

        def _read(self, start):
            for levels in self._read_levels(start):
                yield np.multiply(levels, np.float32(1 / 255), dtype=np.float32)

        def _read_levels(self, start):
            index = start
            while True:
                yield frames[index % PLAYING_FRAMES].copy()
                index += 1

    with _probe_window() as (_app, window):
        window.controller.set_live(False)
        window.set_parameters(kernel_size=9, sigma=2.5, color=colour)
        states: list = [None]  # the last look only: each holds its frames
        # Each pane's shown frames' channels (1: grey, 3: colour): what it blurred, as seen.
        channels: dict[str, set[int]] = {}
        gaps: list[float] = []
        last = [0.0]
        timing = [False]  # every pane has shown a frame: the clock runs

        def played(state) -> None:
            states[0] = state
            for name, shown in state.shown.items():
                depth = shown.output.shape[2] if shown.output.ndim == 3 else 1
                channels.setdefault(name, set()).add(depth)

        def tick() -> None:
            now = time.perf_counter()
            if timing[0]:
                gaps.append(now - last[0])
            last[0] = now

        def every_pane_shown() -> bool:
            player = window.controller.clips.player
            return player is not None and all(
                track.frames_shown > 0 for track in player.timeline.tracks.values()
            )

        def wait(seconds: float) -> None:
            loop = QEventLoop()
            QTimer.singleShot(round(seconds * 1000), loop.quit)
            loop.exec()

        timer = QTimer()
        timer.timeout.connect(tick)
        window.display.played.connect(played)
        window.display.clip_opened.connect(
            lambda _: (window.controller.clips.play(), timer.start(TIMER_MS))
        )
        window.show()
        opened = time.perf_counter()
        window.controller.open_clip(Looping())
        # Idle in the event loop, as the window is while it plays, until each pane has its
        # first frame: how long that takes is the first calls', not the playing's.
        while not every_pane_shown() and time.perf_counter() - opened < FIRST_FRAMES_TIMEOUT_S:
            wait(0.05)
        player = window.controller.clips.player
        if player is None or not every_pane_shown():
            return {
                "error": f"the panes showed no frame within {FIRST_FRAMES_TIMEOUT_S:.0f} s "
                "of opening the clip"
            }
        tracks = player.timeline.tracks
        first_frames = time.perf_counter() - opened
        before = {name: (track.frames_shown, track.dropped) for name, track in tracks.items()}
        start = last[0] = time.perf_counter()
        timing[0] = True
        # All of `seconds`: a Qt timer may end up to a twentieth early.
        while (left := start + seconds - time.perf_counter()) > 0:
            wait(left)
        after = {name: (track.frames_shown, track.dropped) for name, track in tracks.items()}
        timed = time.perf_counter() - start
        timer.stop()
        state = states[0]
        engines = {}
        for name in tracks:
            shown = after[name][0] - before[name][0]
            engines[name] = {
                "frames_per_second": shown / timed,
                "frames_shown": shown,
                "frames_dropped": after[name][1] - before[name][1],
                "channels_shown": sorted(channels.get(name, ())),
            }
        return {
            "engines": engines,
            "width": width,
            "height": height,
            "colour": colour,
            "clip_frames_per_second": rate,
            "first_frames_seconds": first_frames,
            "timed_seconds": timed,
            "panes": state.pane_words if state is not None else {},
            "headline": state.headline if state is not None else "",
            "stall_max_seconds": max(gaps) if gaps else 0.0,
            "jax_device": window.session.jax_device,
        }


if __name__ == "__main__":
    if sys.argv[1] == "--start":  # --start [PHOTO]
        print(json.dumps(measure_start(Path(sys.argv[2]) if sys.argv[2:] else None)))
    elif sys.argv[1] == "--live":  # --live PHOTO ALGORITHM
        print(json.dumps(measure_live(Path(sys.argv[2]), sys.argv[3])))
    elif sys.argv[1] == "--playing":  # --playing WIDTH HEIGHT SECONDS RATE [colour]
        width, height, seconds, rate, *rest = sys.argv[2:]
        figures = measure_playing(
            int(width), int(height), "colour" in rest, float(seconds), float(rate)
        )
        print(json.dumps(figures))
    else:
        print(json.dumps(measure(Path(sys.argv[1]))))
