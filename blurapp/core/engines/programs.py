"""The programs the JAX engines compile, in one cache: each compiled once for everything it
depends on and kept for the process, so a new sigma (the weights are a program's input) or a
second call reuses it. JAX-jit's blurs of a photo (jax_engine.compiled_blurs), its batches of
frames (jax_frames.compiled_frame_blurs), the Pallas kernel's (pallas_engine.compiled_kernels)
and the host link's programs joining and cutting a picture's pieces (host_link) are each a key
their module builds, and its own way to compile.

jax is handed in by the engines, which import it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any

from blurapp.core.engines.runs import Compilation, ProgramStages

# What a program depends on, as its engine builds it: the kind of program first (its family:
# "jax-jit", "jax-jit frames", "pallas"), then what it is, the shapes and number types it
# takes, its static arguments and its device.
ProgramKey = tuple[Hashable, ...]
# A program to call, how it was got (None: nothing compiled) and its stages (None: none run).
GotProgram = tuple[Callable[[Any, Any], Any], Compilation | None, ProgramStages | None]
# How an engine compiles a program it has not got: the program, how (compiled, or from JAX's
# persistent cache) and its stages where they were timed.
Compile = Callable[[], tuple[Callable[[Any, Any], Any], Compilation, ProgramStages | None]]


class CompiledPrograms:
    """Every compiled program of the JAX engines under the key its engine builds. Safe across
    threads: threads that ask for the same program at once wait for one compilation and reuse
    it, while programs of different keys compile side by side."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_key: dict[ProgramKey, Callable[[Any, Any], Any]] = {}
        self._compiling: dict[ProgramKey, threading.Lock] = {}
        # Each program function under jax.jit, per set of static arguments, made once.
        self._jitted: dict[tuple[Callable[..., Any], tuple[str, ...]], Any] = {}
        # The clears of all programs, and of each family's: a program compiled across a clear
        # of its own is not kept.
        self._clears: dict[Hashable, int] = {}

    def jitted(self, jax: Any, program: Callable[..., Any], static: tuple[str, ...]) -> Any:
        """`program` under jax.jit with the static arguments named `static`, made once."""
        with self._lock:
            jitted = self._jitted.get((program, static))
            if jitted is None:
                jitted = self._jitted[(program, static)] = jax.jit(program, static_argnames=static)
            return jitted

    def get(self, key: ProgramKey, compile_program: Compile) -> GotProgram:
        """The program under `key` (Compilation.REUSED), else the one `compile_program()`
        gives, kept under it, with how it was got and its stages."""
        with self._lock:
            compiled = self._by_key.get(key)
            if compiled is not None:
                return compiled, Compilation.REUSED, None
            compiling = self._compiling.setdefault(key, threading.Lock())
            clears = self._clears_of(key)
        with compiling:
            with self._lock:
                compiled = self._by_key.get(key)
            if compiled is not None:  # compiled by another thread while this one waited
                return compiled, Compilation.REUSED, None
            try:
                compiled, how, stages = compile_program()
                with self._lock:
                    if self._clears_of(key) == clears:
                        self._by_key[key] = compiled
            finally:
                with self._lock:
                    if self._compiling.get(key) is compiling:
                        del self._compiling[key]
            return compiled, how, stages

    def _clears_of(self, key: ProgramKey) -> tuple[int, int]:
        return self._clears.get(None, 0), self._clears.get(key[0], 0)

    def keys(self, family: str) -> list[ProgramKey]:
        """The keys of the programs of `family` compiled so far, oldest first."""
        with self._lock:
            return [key for key in self._by_key if key[0] == family]

    def holds(self, wanted: Callable[[ProgramKey], bool]) -> bool:
        """Whether a program whose key is `wanted` is compiled."""
        with self._lock:
            return any(wanted(key) for key in self._by_key)

    def clear(self, family: str | None = None) -> None:
        """Forget the programs of `family` (all of them for None): the next get() compiles."""
        with self._lock:
            self._clears[family] = self._clears.get(family, 0) + 1
            for key in [key for key in self._by_key if family is None or key[0] == family]:
                del self._by_key[key]


compiled_programs = CompiledPrograms()
