import os
import sys
import tempfile

import pytest

# Qt needs a screen; tests render offscreen unless one is there.
if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# JAX's compilation cache goes to a folder of the test run's, never the user's cache.
os.environ.setdefault("BLURAPP_CACHE_DIR", tempfile.mkdtemp(prefix="blurapp-test-cache-"))
# Likewise the log file.
os.environ.setdefault("BLURAPP_STATE_DIR", tempfile.mkdtemp(prefix="blurapp-test-state-"))


@pytest.fixture(autouse=True)
def no_worker_left_running(request):
    """Fail any test that leaves one of BlurApp's worker threads running."""
    yield
    if "blurapp.ui.worker" not in sys.modules:
        return
    from blurapp.ui.worker import running_worker_threads

    left = running_worker_threads()
    if left:
        for thread in left:
            thread.quit()
            thread.wait(5000)
        pytest.fail(f"{request.node.name} left {len(left)} worker thread(s) running")
