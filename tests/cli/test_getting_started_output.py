"""docs/getting-started.md's sample output of `blurapp compare` is what the command prints now:
the same rows in the same order, each worded as printed, its numbers aside."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "getting-started.md"
COMMAND = "$ blurapp compare --engines numpy,jax,jax-eager"
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?")
# Rows a busy machine adds, which the sample from a quiet one has not.
BUSY_ROWS = ("warning",)


def sample() -> list[str]:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(COMMAND) + len(COMMAND) + 1
    return text[start : text.index("```", start)].rstrip("\n").splitlines()


def words(line: str) -> str:
    """A row with its numbers as N: "N samples of N calls" and "N" are the same count."""
    line = NUMBER.sub("N", line)
    line = re.sub(r"N samples of N calls", "N", line)
    # Over too few rounds (a busy machine) the speed-up is the medians' ratio, without them.
    return line.replace("; median of N rounds, middle half N–N×", "")


def matches(shown: str, printed: str) -> bool:
    """Whether a row of the sample stands for a printed row: its words, "…" for what it cuts."""
    parts = [re.escape(part) for part in words(shown).split("…")]
    return re.fullmatch(".*".join(parts), words(printed)) is not None


@pytest.mark.slow
def test_the_sample_output_is_what_compare_prints(tmp_path):
    folders = {name: str(tmp_path / name.lower()) for name in ("XDG_CONFIG_HOME",
               "XDG_CACHE_HOME", "XDG_STATE_HOME", "BLURAPP_CACHE_DIR", "BLURAPP_STATE_DIR")}  # fmt: skip
    printed = subprocess.run(
        [sys.executable, "-m", "blurapp", *COMMAND.split()[2:]],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **folders},  # a first launch: an empty compilation cache
    )
    assert printed.returncode == 0, printed.stderr
    rows = [line for line in printed.stdout.splitlines() if not line.startswith(BUSY_ROWS)]
    shown = sample()
    assert [row[:20].strip() for row in shown] == [row[:20].strip() for row in rows]
    for expected, got in zip(shown, rows, strict=True):
        assert matches(expected, got), (expected, got)
