"""docs/performance/render.py, the script that makes the performance pages from the records,
loaded as a module (it is no package's)."""

import importlib.util
from pathlib import Path

PERFORMANCE = Path(__file__).resolve().parents[2] / "docs" / "performance"


def renderer():
    """docs/performance/render.py as a module."""
    spec = importlib.util.spec_from_file_location("render", PERFORMANCE / "render.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
