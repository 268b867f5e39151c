"""What a cold first call compiles, and how long each compile takes, with glibc's memory settings
as blurapp sets them on a TPU's host (every thread on one heap: glibc.malloc.arena_max=1) and
without that one setting (glibc's own arenas, one a thread up to 8 a core).

A cold first call of JAX-jit or JAX Pallas (an empty compilation cache) is mostly one compile:
JAX-jit's blur of the photo, or the Pallas kernel in one of its variants
(pallas_program.VARIANTS), which on a TPU takes the photo's 8-bit levels in words, with the
kernels that make them floats and round them back (host_link.in_words). The kernel's Mosaic
program grows with its groups of rows and chunks of lanes: each vector operation of
the kernel becomes one operation a vector register it spans, so a group of 32 rows by 1,024
lanes ("wide") is four times the registers of 16 by 512 ("rotated").

Two sections, each in fresh processes with an empty compilation cache of their own:

- programs: each program of a 24 MP grey first call (JAX-jit 2-D and separable; the Pallas
  kernel in each of --variants, 2-D and separable) compiled in JAX's stages after a small
  warm-up compile, its first run timed, and for the kernel the size of its Mosaic program for a
  TPU (the vector registers its operations span), which this machine can work out without one.
- bench: `blurapp bench --engines numpy,jax,pallas --sections engines --repeat 1`, the
  user-visible first calls, with each glibc setting.

    python docs/performance/first_call_compiles.py                  # on the TPU machine
    python docs/performance/first_call_compiles.py --megapixels 0.3 --runs 1   # a quick check

Writes "$OUT/first_call_compiles.json" (/tmp when OUT is unset) and prints a table.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from blurapp.bench.folders import own_folders
from blurapp.start import FREED_MEMORY_KEPT, HUGE_PAGES

ONE_ARENA = "glibc.malloc.arena_max=1"
# glibc's own limit on a 64-bit machine, 8 arenas a core, named: blurapp's restart keeps a
# setting the caller named.
MANY_ARENAS = f"glibc.malloc.arena_max={8 * (os.cpu_count() or 1)}"
# The settings compared: blurapp's on a TPU's host, and the same with glibc's own arenas.
SETTINGS = {
    "one arena": ":".join((HUGE_PAGES, *FREED_MEMORY_KEPT)),
    "arenas": ":".join(
        (HUGE_PAGES, *(s for s in FREED_MEMORY_KEPT if s != ONE_ARENA), MANY_ARENAS)
    ),
}
KERNEL_SIZE = 9


def mosaic_registers(program, rows, kernel_shape, static) -> int | None:
    """The vector registers the operations of `program`'s Mosaic kernel span, lowered for a TPU
    (jax.export, which needs no TPU): what Mosaic unrolls the kernel into, so a measure of its
    compile. None where this JAX cannot tell (its private modules moved)."""
    import base64
    import re

    import jax

    try:
        from jax._src.interpreters import mlir
        from jax._src.lib import tpu
        from jax._src.lib.mlir import ir, passmanager

        exported = jax.export.export(
            jax.jit(program, static_argnames=tuple(static)), platforms=("tpu",)
        )(
            jax.ShapeDtypeStruct(rows, np.uint8),
            jax.ShapeDtypeStruct(kernel_shape, np.float32),
            **static,
        )
        bodies = re.findall(r"body\\22: \\22([A-Za-z0-9+/=]+)\\22", exported.mlir_module())
        total = 0
        for body in bodies:
            context = mlir.make_ir_context()
            tpu.register_dialect(context)
            with context, ir.Location.unknown():
                context.allow_unregistered_dialects = True
                module = ir.Module.parse(base64.b64decode(body))
                passmanager.PassManager.parse("builtin.module(mosaic-serde{serialize=false})").run(
                    module.operation
                )
                counted = [0]

                def count(op, counted=counted):
                    for result in op.results:
                        counted[0] += _registers(ir, result.type)
                    return ir.WalkResult.ADVANCE

                module.operation.walk(count)
                total += counted[0]
        return total
    except Exception as error:  # a JAX whose private modules differ: no size
        print(f"  (no Mosaic size: {type(error).__name__}: {error})", file=sys.stderr)
        return None


def _registers(ir, type_) -> int:
    """The vector registers (8 rows of 128 lanes of 32 bits) a vector of `type_` spans."""
    try:
        vector = ir.VectorType(type_)
    except ValueError:  # not a vector
        return 0
    shape = [1, *vector.shape] if len(vector.shape) == 1 else list(vector.shape)
    bits = 32
    for kind in (ir.FloatType, ir.IntegerType):
        try:
            bits = kind(vector.element_type).width
        except ValueError:
            continue
    packing = max(1, 32 // bits)
    return math.prod(shape[:-2]) * -(-shape[-2] // (8 * packing)) * -(-shape[-1] // 128)


def child(megapixels: float, variants: list[str], order: int) -> None:
    """One fresh process: a warm-up compile, then each program of a first call compiled in
    stages and run once, as JSON on stdout."""
    import jax

    from blurapp.bench.synthetic import synthetic_image
    from blurapp.core.engines import host_link, pallas_program
    from blurapp.core.engines.jax_engine import compiled_blurs
    from blurapp.core.engines.jax_program import rows_of_values
    from blurapp.core.engines.jax_runtime import import_jax, jax_device, to_move
    from blurapp.core.engines.pallas_engine import compiled_kernels, runs_natively
    from blurapp.core.kernel import gaussian_kernel, gaussian_kernel_1d
    from blurapp.core.platforms import on_accelerator

    import_jax()
    device = jax_device()
    started = time.perf_counter()
    jax.block_until_ready(jax.jit(lambda x: x * 2 + 1)(np.ones((8, 128), np.float32)))
    warm_up = time.perf_counter() - started
    image = synthetic_image(megapixels)
    moved = to_move(image, device)
    moved_type = moved.dtype if on_accelerator(device) else None
    kernels = {"2d": gaussian_kernel(KERNEL_SIZE), "separable": gaussian_kernel_1d(KERNEL_SIZE)}
    programs = [("jax", None, algorithm) for algorithm in kernels]
    programs += [("pallas", variant, algorithm) for variant in variants for algorithm in kernels]
    programs = programs[order % len(programs) :] + programs[: order % len(programs)]
    rows, step = rows_of_values(image.shape)
    found = []
    for engine, variant, algorithm in programs:
        kernel = kernels[algorithm]
        if engine == "jax":
            got = compiled_blurs.get_in_stages(image.shape, kernel.shape, device, moved=moved_type)
        else:
            got = compiled_kernels.get_in_stages(
                image.shape, kernel.shape, device, variant=variant, moved=moved_type
            )
        program, how, stages = got
        # As the engines send it: in words where the program takes them (a TPU's 8-bit levels).
        sent = host_link.send(jax, moved, device, words=host_link.takes_words(program))
        weights = jax.device_put(kernel, device)
        started = time.perf_counter()
        jax.block_until_ready(program(sent, weights))
        run = time.perf_counter() - started
        registers = None
        if engine == "pallas":
            static = {"variant": variant, "interpret": False, "step": step}
            registers = mosaic_registers(pallas_program.blur_rows, rows, kernel.shape, static)
        found.append(
            {
                "engine": engine,
                "variant": variant,
                "algorithm": algorithm,
                "how": str(how),
                "tracing_s": stages.tracing_seconds,
                "lowering_s": stages.lowering_seconds,
                "compiling_s": stages.compiling_seconds,
                "first_run_s": run,
                "mosaic_registers": registers,
            }
        )
    print(
        json.dumps(
            {
                "device": str(device.device_kind),
                "pallas_compiled": runs_natively(device),
                "glibc_tunables": os.environ.get("GLIBC_TUNABLES"),
                "warm_up_s": warm_up,
                "programs": found,
            }
        )
    )


def launch(arguments: list[str], tunables: str) -> str:
    """`arguments` run by this Python in a fresh process with glibc's `tunables` and folders
    (an empty compilation cache) of its own: its stdout."""
    with own_folders() as env:
        env = {**env, "GLIBC_TUNABLES": tunables}
        done = subprocess.run(
            [sys.executable, *arguments], env=env, capture_output=True, text=True, check=False
        )
    if done.returncode:
        raise RuntimeError(f"{' '.join(arguments)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def programs_section(options) -> list[dict]:
    rows = []
    for run in range(options.runs):
        for name, tunables in SETTINGS.items():
            out = launch(
                [
                    __file__,
                    "--child",
                    "--megapixels",
                    str(options.megapixels),
                    "--variants",
                    ",".join(options.variants),
                    "--order",
                    str(run),
                ],
                tunables,
            )
            found = json.loads(out.strip().splitlines()[-1])
            for program in found["programs"]:
                rows.append({"run": run, "setting": name, **program})
                print(
                    f"  {name:9} {program['engine']:6} {program['variant'] or '':8}"
                    f" {program['algorithm']:9} {program['how']:10}"
                    f" traced {1000 * program['tracing_s']:6.0f} ms"
                    f" lowered {1000 * program['lowering_s']:6.0f}"
                    f" compiled {1000 * program['compiling_s']:6.0f}"
                    f" first run {1000 * program['first_run_s']:7.1f}"
                    f" registers {program['mosaic_registers'] or ''}",
                    flush=True,
                )
    return rows


def bench_section(options) -> list[dict]:
    rows = []
    for run in range(options.runs):
        for name, tunables in SETTINGS.items():
            out = launch(
                [
                    "-m",
                    "blurapp",
                    "bench",
                    "--json",
                    "--engines",
                    "numpy,jax,pallas",
                    "--megapixels",
                    str(options.megapixels),
                    "--kernel-sizes",
                    str(KERNEL_SIZE),
                    "--sections",
                    "engines",
                    "--repeat",
                    "1",
                ],
                tunables,
            )
            for row in json.loads(out)["results"]:
                for engine in ("jax", "pallas"):
                    figures = row.get(engine) or {}
                    parts = figures.get("first_call_parts") or {}
                    rows.append(
                        {
                            "run": run,
                            "setting": name,
                            "glibc_tunables": tunables,
                            "engine": engine,
                            "algorithm": row["kernel"]["algorithm"],
                            "first_call_s": figures.get("first_call_seconds"),
                            "parts": parts,
                        }
                    )
                    print(
                        f"  {name:9} {engine:6} {row['kernel']['algorithm']:9} first call"
                        f" {1000 * (figures.get('first_call_seconds') or 0):7.0f} ms;"
                        f" compiling {1000 * (parts.get('compiling_seconds') or 0):6.0f} ms",
                        flush=True,
                    )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megapixels", type=float, default=24.0)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--variants", default="rotated,wide,wide_overlapped")
    parser.add_argument("--sections", default="programs,bench")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--order", type=int, default=0, help=argparse.SUPPRESS)
    options = parser.parse_args()
    options.variants = options.variants.split(",")
    if options.child:
        child(options.megapixels, options.variants, options.order)
        return
    report = {"megapixels": options.megapixels, "settings": SETTINGS}
    for section in options.sections.split(","):
        print(f"{section}:", flush=True)
        report[section] = {"programs": programs_section, "bench": bench_section}[section](options)
    path = Path(os.environ.get("OUT", "/tmp")) / "first_call_compiles.json"
    path.write_text(json.dumps(report, indent=1), encoding="utf-8")
    print(f"written to {path}")


if __name__ == "__main__":
    main()
