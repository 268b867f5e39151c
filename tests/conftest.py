import atexit
import importlib.util
import math
import os
import shutil
import sys
import tempfile
import threading

import pytest

# Qt needs a screen; tests render offscreen unless one is there.
if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# JAX's compilation cache goes to a folder of the test run's, never the user's cache.
# Set whatever the user has set: a user's own BLURAPP_CACHE_DIR must not get the suite's writes.
os.environ["BLURAPP_CACHE_DIR"] = tempfile.mkdtemp(prefix="blurapp-test-cache-")
# Likewise the log file.
os.environ["BLURAPP_STATE_DIR"] = tempfile.mkdtemp(prefix="blurapp-test-state-")
# And everything else a process the tests start keeps per user (the window's settings above
# all: Qt writes them under XDG_CONFIG_HOME): folders of this run's, whatever the user has set.
for _variable in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
    os.environ[_variable] = tempfile.mkdtemp(prefix=f"blurapp-test-{_variable.lower()}-")
# Under pytest-xdist every worker imports this file, so each worker has folders of its own
# (its own JAX compilation cache among them) and removes them when it ends.
# The run's folders go with it: each run left five behind (a compilation cache among them).
_RUN_FOLDERS = ("BLURAPP_CACHE_DIR", "BLURAPP_STATE_DIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME",
                "XDG_STATE_HOME")  # fmt: skip
for _variable in _RUN_FOLDERS:
    atexit.register(shutil.rmtree, os.environ[_variable], ignore_errors=True)

# On a machine whose accelerator one process at a time may hold (a TPU), the suite's process
# holds it: the processes the tests launch run JAX on the CPU. JAX reads JAX_PLATFORMS when it
# is imported, so imported first, this process keeps its default device, the chip.
if importlib.util.find_spec("libtpu") is not None and "JAX_PLATFORMS" not in os.environ:
    import jax  # noqa: F401

    os.environ["JAX_PLATFORMS"] = "cpu"


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """A worker per core (`-n auto --dist loadgroup`) when pytest-xdist is installed and the
    command line says nothing of -n; loadgroup keeps the tests of one xdist_group on one
    worker. Without pytest-xdist the suite runs in one process."""
    if not config.pluginmanager.hasplugin("xdist") or hasattr(config, "workerinput"):
        return
    if config.option.numprocesses is None and config.option.dist == "no":
        config.option.numprocesses = "auto"
        config.option.dist = "loadgroup"


def pytest_configure(config):
    """The marker that groups tests on one xdist worker, known without pytest-xdist too
    (`-p no:xdist`: one process, as a machine whose device one process at a time may hold
    needs), where it means nothing."""
    if not config.pluginmanager.hasplugin("xdist"):
        config.addinivalue_line("markers", "xdist_group(name): the tests of one xdist worker")


# The modules each extra installs that its tests need. A test marked `extra("scale")` is skipped,
# naming the extra, where they are not installed (the TPU machine's package index has no Dask and
# no rawpy); `pip install '.[test]'` installs every extra, so CI skips none.
EXTRA_MODULES = {"scale": ("dask", "distributed", "tqdm", "zarr"), "raw": ("rawpy",)}


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:  # a finder that refuses it outright
        return False


def pytest_runtest_setup(item):
    for marker in item.iter_markers("extra"):
        (extra,) = marker.args
        missing = [name for name in EXTRA_MODULES[extra] if not _installed(name)]
        if missing:
            pytest.skip(f"needs the {extra} extra ({', '.join(missing)}), not installed here")


def pytest_collection_modifyitems(items):
    """The slow tests first (in their modules' order), then the others: under xdist the long
    tests start early and the last ones handed out are short, so no worker is left running a
    long test alone at the end."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


# Steady calls timed per engine in a test's comparison. BlurApp times each engine for at least
# MEASURE_SECONDS (0.3 s) so that its median is stable; a test checks what a comparison shows,
# which fewer calls show as well (MIN_CALLS of them, at least), at a fifteenth of the cost.
# Tests of the timing itself are marked real_timing and get BlurApp's own figure.
TEST_MEASURE_SECONDS = 0.02


@pytest.fixture(autouse=True)
def brief_timing(request, monkeypatch):
    if request.node.get_closest_marker("real_timing") is None:
        from blurapp.core.engines import timing

        monkeypatch.setattr(timing, "MEASURE_SECONDS", TEST_MEASURE_SECONDS)


# How long a test's clip-playing threads get to end after it (see no_worker_left_running).
PLAYING_END_SECONDS = 60


@pytest.fixture(autouse=True)
def no_progress_lines(monkeypatch):
    """A command run in this process says where it is only when a test asks (by setting
    PLAIN_LINE_SECONDS itself): what it writes to stderr must not hang on how long it took."""
    from blurapp.cli import progress

    monkeypatch.setattr(progress, "PLAIN_LINE_SECONDS", math.inf)


@pytest.fixture(autouse=True)
def no_message_box_waits(request, monkeypatch):
    """A message box no test asked for fails the test at once: offscreen, a modal box waits
    for a click that never comes, and the run would hang until it is killed. Tests that
    expect one replace it themselves (warnings_shown, or their own answer)."""
    from PySide6.QtWidgets import QMessageBox

    def unexpected(parent, title, text, *args, **kwargs):
        raise AssertionError(f"a message box no test expected: {title}: {text}")

    for name in ("warning", "critical", "information", "question"):
        monkeypatch.setattr(QMessageBox, name, unexpected)


@pytest.fixture(autouse=True)
def no_worker_left_running(request):
    """Fail any test that leaves one of BlurApp's jobs running on the runner's thread, or a
    clip playing on its threads."""
    yield
    if "blurapp.app.clip_player" in sys.modules:
        from blurapp.app.clip_player import THREAD_NAME, wait_for_playing

        # A window closed while a pane's engine is inside one call (JAX-jit compiling its
        # first frame, which on a busy machine outlasts a short clip) lets that thread finish
        # the call in the background, by design, as the window's jobs do: it gets time to end.
        wait_for_playing(PLAYING_END_SECONDS)
        playing = [t.name for t in threading.enumerate() if t.name.startswith(THREAD_NAME)]
        if playing:
            pytest.fail(f"{request.node.name} left a clip playing: {', '.join(playing)}")
    if "blurapp.ui.background_runner" not in sys.modules:
        return
    from blurapp.ui.background_runner import running_jobs

    # A window closed during one uninterruptible call (JAX's first import, say) lets its job
    # finish that call in the background, by design: such a job gets a few seconds to end.
    # One still running after them was never told to stop.
    left = [job for job in running_jobs() if not job.wait(10_000)]
    if left:
        for job in left:
            job.quit()
            job.wait(5000)
        pytest.fail(f"{request.node.name} left {len(left)} job(s) running")


# --- The real window ------------------------------------------------------------------------


@pytest.fixture
def settings(tmp_path):
    """Window settings in a file of the test's own, never the user's."""
    from blurapp.app.settings_file import SettingsFile

    return SettingsFile(tmp_path / "settings.json")


@pytest.fixture
def make_window(qtbot, settings):
    """Make a shown MainWindow on `image` (the bundled photo by default), waiting until the photo
    is on screen unless wait=False; every window made is closed at the end of the test.

    The live preview is off unless live=True: most tests press Run and look at what one run
    shows, which a live preview racing beside it would change under them. Its own tests
    (tests/ui/test_live_preview_window.py) turn it on, and check a new window has it on."""
    from helpers.window import RUN_TIMEOUT_MS

    from blurapp.ui.launch import open_window
    from blurapp.ui.main_window import MainWindow

    windows = []

    def make(image=None, *, wait=True, live=False):
        window = MainWindow(settings)
        window.controller.set_live(live)
        qtbot.addWidget(window)
        windows.append(window)
        if wait:
            with qtbot.waitSignal(window.display.photo_shown, timeout=RUN_TIMEOUT_MS):
                open_window(window, image)
            qtbot.waitExposed(window)
            window.activateWindow()
        else:
            window.show()
        return window

    yield make
    for window in windows:
        window.close()


@pytest.fixture
def window(make_window):
    """A window showing the bundled photo."""
    return make_window()


@pytest.fixture
def warnings_shown(monkeypatch):
    """Message boxes replaced by a list of the (title, text) they would have shown."""
    from PySide6.QtWidgets import QMessageBox

    shown = []

    def record(parent, title, text, *args, **kwargs):
        shown.append((title, text))
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QMessageBox, "warning", record)
    monkeypatch.setattr(QMessageBox, "critical", record)
    return shown


# --- Files shared by the tests of several layers ---------------------------------------------


@pytest.fixture(scope="module")
def hostile_folder(tmp_path_factory):
    """A folder of every damaged and hostile file of tests/helpers/hostile.py."""
    from helpers.hostile import HOSTILE

    folder = tmp_path_factory.mktemp("hostile")
    for name, data in HOSTILE:
        (folder / name).write_bytes(data)
    return folder


@pytest.fixture(scope="module")
def plugin_folder(tmp_path_factory):
    """A folder holding the SciPy plugin engine's distribution (tests/helpers/plugin.py)."""
    from helpers.plugin import write_plugin

    return write_plugin(tmp_path_factory.mktemp("site-packages"))


@pytest.fixture(scope="module")
def broken_folder(tmp_path_factory):
    """A folder holding a plugin distribution whose module is missing."""
    from helpers.plugin import write_broken_plugin

    return write_broken_plugin(tmp_path_factory.mktemp("broken-site-packages"))


@pytest.fixture
def installed(plugin_folder, monkeypatch):
    """The SciPy plugin installed in this process, for this test only."""
    from blurapp.core.engines import forget_plugins

    monkeypatch.syspath_prepend(str(plugin_folder))
    forget_plugins()
    yield
    forget_plugins()
    sys.modules.pop("blurapp_scipy_plugin", None)
