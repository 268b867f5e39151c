"""The Python API's arguments checked as a caller gave them: what blurapp.compare, blur and
compare_clip share (private to the package: its names are public within it)."""

from __future__ import annotations

from collections.abc import Collection

from blurapp.core.engines import Engine, get_engine, parse_engines
from blurapp.core.spec import BlurSpec


def checked_spec(spec: object) -> BlurSpec:
    """`spec`, or the default BlurSpec for None; a TypeError for anything else."""
    if spec is None:
        return BlurSpec()
    if not isinstance(spec, BlurSpec):
        raise TypeError(
            f"spec must be a BlurSpec, such as blurapp.BlurSpec(kernel_size=9, sigma=2.5), "
            f"not {type(spec).__name__}"
        )
    return spec


def checked_engine(engine: object) -> Engine:
    """`engine` by its name, or as the Engine it is; a TypeError for anything else."""
    if isinstance(engine, str):
        return get_engine(engine)
    if not isinstance(engine, Engine):
        raise TypeError(f"an engine is a name or an Engine, not {type(engine).__name__}")
    return engine


def checked_engines(engines: object) -> tuple[Engine, ...]:
    """The engines asked for ("numpy,jax", or names and Engines), looked up before any photo
    is read."""
    if isinstance(engines, str):
        return parse_engines(engines)
    if not isinstance(engines, Collection):
        raise TypeError(f"engines must be names or Engines, not {type(engines).__name__}")
    chosen = tuple(checked_engine(engine) for engine in engines)
    if not chosen:
        raise ValueError("engines: name at least one engine")
    return chosen
