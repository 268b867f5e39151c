"""A machine that seems to have a TPU's runtime (libtpu) installed, or not: what BlurApp tells
from what is installed, without importing JAX."""

import importlib.machinery
import importlib.util


def seem_to_have_libtpu(monkeypatch, present: bool = True) -> None:
    """From now until the test ends, libtpu is found where `present`, and missing where not;
    every other module is found as it is."""
    real = importlib.util.find_spec

    def find_spec(name, *args, **kwargs):
        if name == "libtpu":
            return importlib.machinery.ModuleSpec("libtpu", None) if present else None
        return real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
