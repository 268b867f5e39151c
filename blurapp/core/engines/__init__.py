"""Every engine BlurApp can blur with, in one registry that the command line, the benchmark,
the worker, the figures and the window all iterate: none of them names an engine.

Each engine module declares its Engine(s) beside its code (numpy_engine's NUMPY and its
tutorial loop, jax_engine.JAX_JIT, jax_eager_engine.JAX_EAGER, pallas_engine.JAX_PALLAS) and
they are registered here; the timing of steady calls is the same for every engine
(blurapp.core.engines.timing). Other
packages add engines through the entry-point group `blurapp.engines` (see _discover_plugins),
found the first time the registry is asked. A JAX engine also runs on a chosen platform:
`jax@cpu`, `jax@gpu`, `jax@tpu`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import sys
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING

from blurapp.core.engines import (
    jax_eager_engine,
    jax_engine,
    jax_runtime,
    numpy_engine,
    pallas_engine,
)
from blurapp.core.engines.engine import (
    Blocks,
    Computation,
    Engine,
    EngineOutputError,
    FirstCallFunction,
    Floors,
    Frames,
    LivePreview,
    Shown,
)

# What a plugin's calls return, beside Engine: a plugin needs one import.
from blurapp.core.engines.runs import BlurredFrames, Call, FirstCall
from blurapp.core.platforms import PLATFORMS

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = [
    "ALL_ENGINES",
    "DEFAULT_ENGINE",
    "DEFAULT_ENGINES",
    "ENTRY_POINT_GROUP",
    "REFERENCE_ENGINE",
    "Blocks",
    "BlurredFrames",
    "Call",
    "Computation",
    "Engine",
    "EngineOutputError",
    "FirstCall",
    "FirstCallFunction",
    "Floors",
    "Frames",
    "LivePreview",
    "Shown",
    "UnknownEngineError",
    "engine_names",
    "engines_on_every_platform",
    "forget_plugins",
    "get_engine",
    "offered_engine_names",
    "parse_engines",
    "register",
    "unregister",
]

log = logging.getLogger(__name__)

# What the comparison measures every other engine against, and the engines of a plain
# `blurapp compare` or a new window: the tutorial's pair.
REFERENCE_ENGINE = numpy_engine.NUMPY.name
DEFAULT_ENGINES = (REFERENCE_ENGINE, jax_engine.JAX_JIT.name)
# The engine of a blur asked for without naming one: `blurapp.blur()`, `blurapp blur`,
# `blurapp batch`. NumPy's, the reference: one blur is wanted at once and alike everywhere, and
# NumPy gives it without importing JAX or compiling (JAX-jit's lead comes on later calls), and
# gives the very values every comparison measures the others against, on any machine.
DEFAULT_ENGINE = REFERENCE_ENGINE
# `--engines all`: every engine, the JAX ones on every platform JAX has.
ALL_ENGINES = "all"
# Where an installed package declares its engines: in its pyproject.toml,
# [project.entry-points."blurapp.engines"].
ENTRY_POINT_GROUP = "blurapp.engines"


class UnknownEngineError(ValueError):
    """An engine name that is not registered (or a platform an engine cannot take)."""


_registry: dict[str, Engine] = {}
_builtin: set[str] = set()  # the names of the engines BlurApp itself brings
_from_plugins: set[str] = set()
# Discovery runs once, on the registry's first use, under this lock: a second thread waits for
# it, and a plugin that asks the registry while it loads gets the engines found so far.
_lock = threading.RLock()
_discovered = False
_discovering = False


def register(engine: Engine) -> Engine:
    """Add `engine` to the registry (replacing one of the same name), and return it."""
    if not isinstance(engine, Engine):
        raise TypeError(f"expected an Engine, not {type(engine).__name__}")
    if not engine.name or "@" in engine.name or "," in engine.name:
        raise ValueError(f"an engine's name must be non-empty, without '@' or ',': {engine.name!r}")
    _registry[engine.name] = engine
    return engine


def unregister(name: str) -> None:
    _registry.pop(name, None)


def _engines() -> dict[str, Engine]:
    """The registry, the plugins' engines in it once discovered."""
    global _discovered, _discovering
    if not _discovered:
        with _lock:
            if not _discovered and not _discovering:
                _discovering = True
                try:
                    _discover_plugins()
                finally:
                    _discovering, _discovered = False, True
    return _registry


def _discover_plugins() -> tuple[str, ...]:
    """Register the engines of every entry point in the group `blurapp.engines`: each loads to
    an Engine, or to a function returning an Engine or several. A plugin that fails (it cannot
    be imported, loads to something else, or names an engine that is already registered) is
    left out with one warning naming it and its distribution; the others still count.
    Returns the names of the engines it registered."""
    from importlib.metadata import entry_points

    found = []
    for entry_point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        try:
            # What a plugin prints while it loads is not the command's output (a JSON
            # document on stdout, say): it goes to stderr.
            with contextlib.redirect_stdout(sys.stderr):
                engines = _engines_of(entry_point)
        except (Exception, SystemExit) as error:
            if isinstance(error, SystemExit):
                error = _PluginProblem(f"it called sys.exit({error.code!r}) while loading")
            log.warning(
                "the engine plugin %s was left out: %s",
                _describe(entry_point),
                error,
                exc_info=not isinstance(error, _PluginProblem),
            )
            continue
        package = _package(entry_point)
        for engine in engines:
            engine = dataclasses.replace(engine, package=package)
            register(engine)
            _from_plugins.add(engine.name)
            found.append(engine.name)
    return tuple(found)


class _PluginProblem(Exception):
    """A plugin that loaded but gave what BlurApp cannot register (told without a traceback)."""


def _engines_of(entry_point: EntryPoint) -> list[Engine]:
    loaded = entry_point.load()
    if callable(loaded) and not isinstance(loaded, Engine):
        loaded = loaded()
    engines = [loaded] if isinstance(loaded, Engine) else loaded
    if not isinstance(engines, Iterable) or isinstance(engines, str | bytes):
        raise _PluginProblem(f"it gives {type(loaded).__name__}, not an Engine")
    engines = list(engines)
    wrong = [type(engine).__name__ for engine in engines if not isinstance(engine, Engine)]
    if wrong or not engines:
        raise _PluginProblem(f"it gives {', '.join(wrong) or 'no engine'}, not an Engine")
    names = [engine.name for engine in engines]
    for engine in engines:
        if engine.name in _registry or names.count(engine.name) > 1:
            owner = "BlurApp's own" if engine.name in _builtin else "taken already"
            raise _PluginProblem(f"the engine name {engine.name!r} is {owner}")
        if not engine.name or "@" in engine.name or "," in engine.name:
            raise _PluginProblem(f"{engine.name!r} cannot be an engine's name (no '@' or ',')")
    return engines


def _package(entry_point: EntryPoint) -> str:
    """'blurapp-scipy-plugin 0.1': the distribution that brings `entry_point`."""
    dist = entry_point.dist
    return f"{dist.name} {dist.version}" if dist is not None else "an unknown distribution"


def _describe(entry_point: EntryPoint) -> str:
    """'scipy = blurapp_scipy_plugin:ENGINE' of blurapp-scipy-plugin 0.1."""
    return f"'{entry_point.name} = {entry_point.value}' of {_package(entry_point)}"


def forget_plugins() -> None:
    """Take the plugins' engines out of the registry; its next use discovers them again (a test
    that installed a plugin leaves no trace of it in the next)."""
    global _discovered
    with _lock:
        for name in _from_plugins:
            _registry.pop(name, None)
        _from_plugins.clear()
        _discovered = False


def engine_names() -> tuple[str, ...]:
    """The registered engines' names: BlurApp's own, then the plugins'."""
    return tuple(_engines())


def offered_engine_names() -> tuple[str, ...]:
    """The registered engines the window offers on this machine (see Shown.offered)."""
    return tuple(
        name
        for name, engine in _engines().items()
        if engine.shown.offered is None or engine.shown.offered()
    )


def get_engine(name: str) -> Engine:
    """The engine called `name`: a registered name, or a JAX engine's name with @platform
    (`jax@tpu`). Raises UnknownEngineError naming the engines there are."""
    base, _, platform = name.strip().partition("@")
    # BlurApp's own engines are found without loading the plugins: a command that names
    # only them runs whatever state the installed plugins are in.
    engine = _registry.get(base) if base in _builtin else _engines().get(base)
    if engine is None:
        raise UnknownEngineError(
            f"no engine called {name!r}; the engines are {', '.join(engine_names())} "
            f"(JAX ones also as NAME@{'/'.join(PLATFORMS)})"
        )
    if not platform:
        return engine
    if not engine.uses_jax or platform not in PLATFORMS:
        raise UnknownEngineError(
            f"{name!r}: only JAX engines take a platform, one of {', '.join(PLATFORMS)}"
        )
    # Beside the engine on its default platform in one chart, a colour of its own: the
    # engine's colour stays with it on its default platform (see Shown.colour).
    return dataclasses.replace(
        engine,
        name=f"{base}@{platform}",
        title=f"{engine.title} ({platform.upper()})",
        computation=dataclasses.replace(engine.computation, platform=platform),
        shown=dataclasses.replace(engine.shown, colour=None),
    )


def parse_engines(text: str) -> tuple[Engine, ...]:
    """'numpy,jax,jax-eager' → those engines, in that order, each once; 'all' → every engine
    on every platform (see engines_on_every_platform)."""
    if text.strip() == ALL_ENGINES:
        return engines_on_every_platform()
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise UnknownEngineError("name at least one engine")
    engines: dict[str, Engine] = {}
    for name in names:
        engine = get_engine(name)
        engines.setdefault(engine.name, engine)
    return tuple(engines.values())


def engines_on_every_platform() -> tuple[Engine, ...]:
    """Every registered engine, with the JAX ones once per platform JAX has when it has more
    than one (a machine with an accelerator shows JAX on the CPU beside JAX on it). Imports
    JAX; where JAX cannot start, the registered engines as they are (their runs will say why)."""
    platforms = []
    registered = _engines()
    if any(engine.uses_jax for engine in registered.values()):
        try:
            platforms = jax_runtime.jax_platforms()
        except jax_runtime.JaxUnavailableError:
            platforms = []
    engines: list[Engine] = []
    for engine in registered.values():
        if engine.uses_jax and len(platforms) > 1:
            engines += [get_engine(f"{engine.name}@{platform}") for platform in platforms]
        else:
            engines.append(engine)
    return tuple(engines)


for _engine in (
    *numpy_engine.ENGINES,
    *jax_engine.ENGINES,
    *jax_eager_engine.ENGINES,
    *pallas_engine.ENGINES,
):
    register(_engine)
    _builtin.add(_engine.name)
