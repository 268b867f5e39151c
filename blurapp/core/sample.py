"""Where the bundled sample photo is, installed or in a source checkout."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

SAMPLE_PHOTO_NAME = "coffee.png"


def sample_photo_path() -> Path:
    """The bundled sample photo (CC0; see resources/README.md)."""
    installed = resources.files("blurapp") / "resources" / SAMPLE_PHOTO_NAME
    if installed.is_file():
        return Path(str(installed))
    # A source checkout keeps it in the top-level resources/ folder.
    return Path(__file__).resolve().parents[2] / "resources" / SAMPLE_PHOTO_NAME
