"""Every engine BlurApp can blur with, in one registry that the command line, the benchmark,
the worker, the figures and the window all iterate.

A new engine is a module with a first-call function (see numpy_engine.first_numpy_call) and
one `register(...)` line below: the timing of steady calls is the same for every engine
(blurapp.core.timing). A JAX engine also runs on a
chosen platform: `jax@cpu`, `jax@gpu`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from blurapp.core.engines import jax_engine, numpy_engine
from blurapp.core.runs import Cancelled, EngineRun, FirstCall, Progress
from blurapp.core.timing import time_engines
from blurapp.core.wording import QT_TRANSLATE_NOOP

FirstCallFunction = Callable[..., FirstCall]
# first_call(image, kernel, *, platform, progress, cancelled) -> FirstCall

# What the comparison measures every other engine against, and the engines of a plain
# `blurapp compare` or a new window: the tutorial's pair.
REFERENCE_ENGINE = "numpy"
DEFAULT_ENGINES = ("numpy", "jax")
# `--engines all`: every engine, the JAX ones on every platform JAX has.
ALL_ENGINES = "all"


class UnknownEngineError(ValueError):
    """An engine name that is not registered (or a platform an engine cannot take)."""


@dataclass(frozen=True)
class Engine:
    """One way to blur. `name` is what the command line and JSON use, `title` what people read
    (marked for translation in the "Engines" context)."""

    name: str
    title: str
    first_call: FirstCallFunction
    uses_jax: bool = False  # needs JAX, and runs on a platform chosen by --device or @platform
    max_repeats: int | None = None  # slow engines: steady calls timed at most this many times
    platform: str | None = None  # a variant's own platform (jax@gpu); None: --device decides
    compiles: bool = False  # runs one compiled program: fast once compiled (a preview's first)

    @property
    def json_key(self) -> str:
        """The engine's key in `compare --json`: jax-eager → jax_eager, jax@gpu → jax_gpu."""
        return self.name.replace("-", "_").replace("@", "_")

    def start(
        self,
        image: np.ndarray,
        kernel: np.ndarray,
        *,
        device: str = "auto",
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> FirstCall:
        """Make this engine's first call on `image`. `device` is the platform for a JAX engine
        that has none of its own ("auto": JAX's default, a GPU when there is one)."""
        platform = self.platform or (device if self.uses_jax else None)
        return self.first_call(
            image,
            kernel,
            platform=None if platform == "auto" else platform,
            progress=progress,
            cancelled=cancelled,
        )

    def blur(
        self,
        image: np.ndarray,
        kernel: np.ndarray,
        *,
        repeats: int | None = None,
        device: str = "auto",
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
    ) -> EngineRun:
        """Run this engine alone on `image` and time it (see blurapp.core.timing; `repeats`
        None chooses the number of steady calls). `repeats=0` blurs once (the first call)
        and times no steady call: for when only the output counts."""
        first = self.start(image, kernel, device=device, progress=progress, cancelled=cancelled)
        return time_engines(
            {self.name: first},
            repeats=repeats,
            max_repeats={self.name: self.max_repeats},
            cancelled=cancelled,
        )[self.name]


_registry: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    """Add `engine` to the registry (replacing one of the same name), and return it."""
    if "@" in engine.name:
        raise ValueError(f"an engine's name cannot hold '@': {engine.name!r}")
    _registry[engine.name] = engine
    return engine


def unregister(name: str) -> None:
    _registry.pop(name, None)


def engine_names() -> tuple[str, ...]:
    """The registered engines' names, in the order they were registered."""
    return tuple(_registry)


def get_engine(name: str) -> Engine:
    """The engine called `name`: a registered name, or a JAX engine's name with @platform
    (`jax@gpu`). Raises UnknownEngineError naming the engines there are."""
    base, _, platform = name.strip().partition("@")
    engine = _registry.get(base)
    if engine is None:
        raise UnknownEngineError(
            f"no engine called {name!r}; the engines are {', '.join(engine_names())} "
            f"(JAX ones also as NAME@{'/'.join(jax_engine.PLATFORMS)})"
        )
    if not platform:
        return engine
    if not engine.uses_jax or platform not in jax_engine.PLATFORMS:
        raise UnknownEngineError(
            f"{name!r}: only JAX engines take a platform, one of {', '.join(jax_engine.PLATFORMS)}"
        )
    return Engine(
        name=f"{base}@{platform}",
        title=f"{engine.title} ({platform.upper()})",
        first_call=engine.first_call,
        uses_jax=True,
        max_repeats=engine.max_repeats,
        platform=platform,
        compiles=engine.compiles,
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
    than one (a GPU machine shows JAX on the CPU beside JAX on the GPU). Imports JAX; where JAX
    cannot start, the registered engines as they are (their runs will say why)."""
    platforms = []
    if any(engine.uses_jax for engine in _registry.values()):
        try:
            platforms = jax_engine.jax_platforms()
        except jax_engine.JaxUnavailableError:
            platforms = []
    engines: list[Engine] = []
    for engine in _registry.values():
        if engine.uses_jax and len(platforms) > 1:
            engines += [get_engine(f"{engine.name}@{platform}") for platform in platforms]
        else:
            engines.append(engine)
    return tuple(engines)


# The titles, where pyside6-lupdate finds them.
_TITLES = (
    QT_TRANSLATE_NOOP("Engines", "NumPy"),
    QT_TRANSLATE_NOOP("Engines", "JAX-jit"),
    QT_TRANSLATE_NOOP("Engines", "JAX without jit"),
)

register(Engine("numpy", "NumPy", numpy_engine.first_numpy_call))
register(Engine("jax", "JAX-jit", jax_engine.first_jax_call, uses_jax=True, compiles=True))
# Op by op is tens of times slower than jit, and steadier than it is quick: three calls tell.
register(
    Engine(
        "jax-eager",
        "JAX without jit",
        jax_engine.first_jax_eager_call,
        uses_jax=True,
        max_repeats=3,
    )
)
