"""Where BlurApp's bundled files are (the sample photo, icons): installed, or in a checkout."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

SAMPLE_PHOTO_NAME = "coffee.png"


def resource_path(relative: str) -> Path:
    """A bundled file, by its path inside the resources folder."""
    installed = resources.files("blurapp").joinpath("resources", *relative.split("/"))
    if installed.is_file():
        return Path(str(installed))
    # A source checkout keeps them in the top-level resources/ folder.
    return Path(__file__).resolve().parents[3] / "resources" / relative


def sample_photo_path() -> Path:
    """The bundled sample photo (CC0; see resources/README.md)."""
    return resource_path(SAMPLE_PHOTO_NAME)
