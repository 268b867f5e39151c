"""The window's figures beside `blurapp compare`'s, on one photo and one machine.

    python docs/performance/window_figures.py PHOTO OUT.json [--threads-share-the-heap]

Runs, one after another, each in its own process started as `python -m blurapp …` is (with the
glibc settings blurapp asks for, blurapp.start.memory_settings): `blurapp compare PHOTO --json`,
and a window that opens PHOTO and times a Run (live preview off), whose comparison is written
as `compare --json` writes one (comparison_dict), so that the two are read alike.
`--threads-share-the-heap` adds glibc.malloc.arena_max=1 to both: every thread allocates from
the main heap, which the freed-memory settings govern; the window's jobs run on a thread of
their own, whose arena hands a large block back at once whatever those settings say.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

WINDOW = """
import json, sys
from PySide6.QtWidgets import QApplication
from PySide6.QtCore import QEventLoop, QTimer
from pathlib import Path
import tempfile
app = QApplication([])
from blurapp.app.settings_file import SettingsFile
from blurapp.core.measuring.comparison import comparison_dict
from blurapp.ui.launch import open_window
from blurapp.ui.main_window import MainWindow
folder = tempfile.mkdtemp()
window = MainWindow(SettingsFile(Path(folder) / "settings.json"))
window.controller.set_live(False)
window.resize(1920, 1080)
results = []
window.display.results_shown.connect(results.append)
def wait(condition):
    while not condition():
        loop = QEventLoop()
        QTimer.singleShot(50, loop.quit)
        loop.exec()
shown = []
window.display.photo_shown.connect(lambda *a: shown.append(1))
open_window(window, Path(sys.argv[1]))
wait(lambda: shown)
wait(lambda: window.session.jax_device is not None or window.session.jax_unavailable)
window.controller.run()
wait(lambda: window.session.outcome is not None and window.session.running is None)
print(json.dumps(comparison_dict(window.session.outcome.result)))
window.close()
"""


def main(argv: list[str]) -> int:
    photo, out = Path(argv[0]), Path(argv[1])
    from blurapp.start import memory_settings

    settings = [*memory_settings()]
    if "--threads-share-the-heap" in argv:
        settings.append("glibc.malloc.arena_max=1")
    env = {
        **os.environ,
        "GLIBC_TUNABLES": ":".join(settings),
        "BLURAPP_HUGE_PAGES": "0",  # set here, as the restart would set them
        "QT_QPA_PLATFORM": "offscreen",
    }
    compare = subprocess.run(
        [sys.executable, "-m", "blurapp", "compare", str(photo), "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    window = subprocess.run(
        [sys.executable, "-c", WINDOW, str(photo)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    figures = {
        "glibc": env["GLIBC_TUNABLES"],
        "compare": json.loads(compare.stdout),
        "window": json.loads(window.stdout.strip().splitlines()[-1]),
    }
    out.write_text(json.dumps(figures, indent=1))
    for name in ("compare", "window"):
        figure = figures[name]
        print(
            f"{name}: NumPy {figure['numpy']['seconds'] * 1e3:.1f} ms, JAX-jit "
            f"{figure['jax']['seconds'] * 1e3:.2f} ms, end to end "
            f"{(figure['jax'].get('end_to_end_seconds') or 0) * 1e3:.2f} ms; speed-up "
            f"{figure['speedup']:.1f}x, end to end {figure['speedup_end_to_end']:.1f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
