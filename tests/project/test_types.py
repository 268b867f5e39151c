"""mypy, configured in pyproject.toml, finds no type error anywhere in the blurapp package: the
Qt-free layers, the window, the command line, the bench and the API."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

# Installed with the test extra; a machine without it (the TPU machine) skips, saying so.
pytest.importorskip("mypy")

ROOT = Path(__file__).resolve().parents[2]
# pyproject.toml's [tool.mypy] files: the whole package.
PACKAGE = ROOT / "blurapp"


@pytest.mark.slow
def test_mypy_finds_no_error_in_any_module_of_blurapp(request, tmp_path):
    # mypy's cache kept with pytest's: from cold it takes about 10 s of CPU, warm about 1 s.
    pytest_cache = getattr(request.config, "cache", None)  # None with -p no:cacheprovider
    cache = pytest_cache.mkdir("mypy") if pytest_cache is not None else tmp_path / "mypy"
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(cache),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert run.returncode == 0, "\n".join(errors or [run.stdout, run.stderr])
    # Every module of the package was checked, not fewer.
    modules = sum(1 for _ in PACKAGE.rglob("*.py"))
    checked = re.search(r"no issues found in (\d+) source files", run.stdout)
    assert checked is not None, run.stdout
    assert int(checked.group(1)) == modules
