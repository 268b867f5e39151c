"""ruff, configured in pyproject.toml, finds nothing to fix in the package or its tests, and
every file is formatted as `ruff format` writes it: a reader meets one style everywhere."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

# Installed with the test extra; a machine without it (the TPU machine) skips, saying so.
pytest.importorskip("ruff")

ROOT = Path(__file__).resolve().parents[2]


def ruff(*arguments: str, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "RUFF_CACHE_DIR": str(tmp_path / "ruff-cache")}
    return subprocess.run(
        [sys.executable, "-m", "ruff", *arguments, "blurapp", "tests"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_ruff_finds_nothing_to_fix(tmp_path):
    run = ruff("check", "--output-format", "concise", tmp_path=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_file_is_formatted_as_ruff_format_writes_it(tmp_path):
    run = ruff("format", "--check", tmp_path=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
