"""`blurapp bench`: NumPy against JAX-jit on synthetic images, and BlurApp's own overheads.

A benchmark to read, not a timed test: it prints figures and asserts nothing. Sections:
engines (the table), yardsticks (JAX-jit beside OpenCV, SciPy and a plain copy: in
blurapp.bench.yardsticks), first-call (the compilation cache across launches), startup, window
(stalls and display in a real window, offscreen), live (the live preview's latency) and memory
(peak RSS of whole runs).
"""

from __future__ import annotations

import itertools
import json
import os
import platform
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
from PIL import Image

from blurapp._version import __version__
from blurapp.bench import clips, scale, video, yardsticks
from blurapp.bench.folders import own_folders
from blurapp.bench.machine import cpu_name, memory_bytes
from blurapp.bench.peak import peak_of
from blurapp.bench.synthetic import synthetic_image
from blurapp.core.engines import (
    Engine,
    engine_names,
    get_engine,
)
from blurapp.core.engines.jax_engine import JAX_JIT
from blurapp.core.engines.jax_runtime import (
    JaxUnavailableError,
    describe_device,
    import_jax,
    jax_device,
)
from blurapp.core.kernel import ALGORITHMS, Algorithm, KernelSize
from blurapp.core.measuring.comparison import compare_engines, comparison_dict, json_key
from blurapp.core.media.sample import sample_photo_path
from blurapp.core.spec import BlurSpec


def describe_machine(*, device: bool = True) -> dict:
    """The machine, the versions and, unless `device` is False, JAX's device (see
    describe_jax_device): without it, this process has not touched JAX's device."""
    cpu = cpu_name()
    cores = os.cpu_count()
    # The architecture once: a CPU known by nothing more is not named twice.
    which = "" if cpu == platform.machine() else f" ({cpu})"
    return {
        "description": f"{platform.system()} {platform.machine()}, {cores} cores{which}, "
        f"Python {platform.python_version()}",
        "cores": cores,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "jax": None,
        "jax_device": None,
        "blurapp": __version__,
        **(describe_jax_device() if device else {}),
    }


def describe_jax_device() -> dict:
    """JAX's version and its device in words (`jax`, `jax_device` of describe_machine's): the
    first use of the device in this process, which on a TPU then holds the chip."""
    try:
        device = describe_device(jax_device())
        import jax

        return {"jax": jax.__version__, "jax_device": device}
    except JaxUnavailableError as error:
        return {"jax": None, "jax_device": f"unavailable ({error})"}


def _version_of(distribution: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return None


def record_machine(machine: dict) -> dict:
    """The machine of a bench record: `machine` (describe_machine's) with the CPU's model,
    the memory and the operating system, each a field of its own."""
    return {
        "system": f"{platform.system()} {platform.machine()}",
        "cpu": cpu_name(),
        "cores": machine["cores"],
        "memory_bytes": memory_bytes(),
        "device": machine["jax_device"],
        # What glibc was asked for (blurapp.start's restart, or the user): the host's part of
        # an accelerator's end to end depends on it.
        "glibc_tunables": os.environ.get("GLIBC_TUNABLES") or None,
    }


def record_versions(machine: dict, report: dict) -> dict:
    """The versions a bench record's figures depend on; SciPy and OpenCV only when a section
    used them (the yardsticks), None for what is not installed."""
    yardsticks = report.get("yardsticks", {})
    return {
        "blurapp": machine["blurapp"],
        "python": machine["python"],
        "numpy": machine["numpy"],
        "jax": machine["jax"],
        "jaxlib": _version_of("jaxlib"),
        "scipy": yardsticks.get("scipy"),
        "opencv": yardsticks.get("opencv"),
    }


# Slow engines (those with a cap on their repeats, as JAX without jit) are timed once after
# their warm-up: large images take long.
SLOW_ENGINE_REPEATS = 1


def run_bench(
    *,
    megapixels: Sequence[float],
    kernel_sizes: Sequence[KernelSize],
    algorithms: Sequence[Algorithm] = ALGORITHMS,
    repeats: int | None,
    sigma: float,
    engines: Sequence[str] | None = None,
    on_row: Callable[[dict], None] | None = None,
    channels: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """One row per image size, kernel and algorithm: each of `engines`' figures (as in
    `compare --json`, under its JSON key; None: every registered engine), and the size of the
    image. `progress(rows done, rows in all)` is told before the first row and after each."""
    engines = engine_names() if engines is None else engines
    rows = []
    cases = len(megapixels) * len(kernel_sizes) * len(algorithms)
    if progress is not None:
        progress(0, cases)
    for mp in megapixels:
        image = synthetic_image(mp, channels=channels)
        for kernel_size, algorithm in itertools.product(kernel_sizes, algorithms):
            result = compare_engines(
                image,
                BlurSpec(kernel_size=kernel_size, sigma=sigma, algorithm=algorithm),
                repeats=repeats,
                engines=[_capped(name, repeats) for name in engines],
            )
            row = {
                "megapixels": image.shape[0] * image.shape[1] / 1e6,
                "width": int(image.shape[1]),
                "height": int(image.shape[0]),
                "channels": channels,
                **comparison_dict(result),
            }
            rows.append(row)
            if on_row is not None:
                on_row(row)
            if progress is not None:
                progress(len(rows), cases)
            del result
    return {"results": rows}


def _capped(name: str, repeats: int | None) -> Engine:
    engine = get_engine(name)
    if engine.max_repeats is not None:
        calls = SLOW_ENGINE_REPEATS if repeats is None else min(repeats, SLOW_ENGINE_REPEATS)
        return replace(engine, computation=replace(engine.computation, max_repeats=calls))
    return engine


def _blurapp(*args: str, env: dict | None = None, timeout: float = 900) -> tuple[str, float]:
    """Run the blurapp command: its stdout and wall seconds."""
    command = [sys.executable, "-m", "blurapp", *args]
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    )
    out, _ = process.communicate(timeout=timeout)
    return out, time.perf_counter() - start


def _write_photo(folder: Path, megapixels: float) -> Path:
    # A colour JPEG, as a camera writes it: the loader's colour path is part of the figure.
    path = folder / f"synthetic-{megapixels:g}mp.jpg"
    gray = (synthetic_image(megapixels) * 255).astype(np.uint8)
    pixels = np.stack([gray, gray[::-1], gray[:, ::-1]], axis=-1)
    Image.fromarray(pixels).save(path, quality=90)
    return path


# The options of the `blurapp compare` the first-call section launches: JAX-jit alone, with
# one steady call. Its first call is the figure; the other engines' timing would only make the
# section longer. (The section's records quote them too: blurapp.bench.record.)
FIRST_CALL_COMPARE = ("--json", "--engines", JAX_JIT.name, "--repeat", "1")


def first_call(photo: Path) -> dict:
    """JAX's first call in a first launch (empty compilation cache) and in a second one, each
    a `blurapp compare PHOTO` with FIRST_CALL_COMPARE."""
    with own_folders() as env:
        launches = []
        for _ in range(2):
            out, _ = _blurapp("compare", str(photo), *FIRST_CALL_COMPARE, env=env)
            launches.append(json.loads(out)[json_key(JAX_JIT.name)])
    first, second = launches
    if first["first_call_seconds"] is None or second["first_call_seconds"] is None:
        return {"photo": str(photo), "error": first["error"] or second["error"]}
    return {
        "photo": str(photo),
        "first_launch_seconds": first["first_call_seconds"],
        "first_launch": first["compilation"],
        "second_launch_seconds": second["first_call_seconds"],
        "second_launch": second["compilation"],
        "ratio": second["first_call_seconds"] / first["first_call_seconds"],
    }


def startup(runs: int = 5) -> dict:
    """Wall seconds until the window is shown (offscreen), and for `blurapp --version`."""
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    with own_folders(env) as env:
        return _startup(runs, _with_bytecode(env))


def _with_bytecode(env: dict[str, str]) -> dict[str, str]:
    """`env` for launches as an installed BlurApp's are: with Python's compiled modules. Where
    PYTHONDONTWRITEBYTECODE forbids writing them (a development machine may set it, and an
    editable install has none), every launch would compile BlurApp's own modules again, which
    no installed copy does, and the start-up figure would count it. They are written under the
    bench's own cache folder then, removed with it."""
    if not env.get("PYTHONDONTWRITEBYTECODE"):
        return env
    env = {**env, "PYTHONPYCACHEPREFIX": os.path.join(env["XDG_CACHE_HOME"], "bytecode")}
    del env["PYTHONDONTWRITEBYTECODE"]
    return env


# The least a window takes on this machine, launched like BlurApp's for comparison and timed
# the same way, to its first paint: PySide6 imported, an empty main window of the screenshot's
# size shown and painted; and the same with NumPy imported first (the core's arrays need it
# before the window).
_BARE_WINDOW = """
import sys
if sys.argv[1] == "numpy":
    import numpy
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
class Window(QMainWindow):
    def paintEvent(self, event):
        super().paintEvent(event)
        QTimer.singleShot(0, lambda: (print("shown", flush=True), app.quit()))
app = QApplication(["bare"])
window = Window()
window.resize(1360, 700)
window.show()
app.exec()
"""


# How long a launch may take to say its window is shown, and then to exit.
SHOWN_TIMEOUT_SECONDS = 120


def _shown_after(
    command: list[str], env: dict[str, str], timeout: float | None = None
) -> tuple[float, str] | None:
    """Seconds from launching `command` to its first line, which must say "shown", and that
    line; None when it does not, the program fails, or it hangs: it is stopped after
    `timeout` seconds (SHOWN_TIMEOUT_SECONDS) without the line, or as long again to exit."""
    timeout = SHOWN_TIMEOUT_SECONDS if timeout is None else timeout
    start = time.perf_counter()
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    ) as process:
        # Read on a thread of its own, so a window that never says so cannot stop the bench;
        # the time is taken there, as the line comes.
        lines: queue.Queue[tuple[str, float]] = queue.Queue()
        assert process.stdout is not None
        stdout = process.stdout

        def read() -> None:
            line = stdout.readline()
            lines.put((line, time.perf_counter() - start))
            stdout.read()  # to the end, so the program never blocks on a full pipe

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            line, seconds = lines.get(timeout=timeout)
            process.wait(timeout=timeout)
        except (queue.Empty, subprocess.TimeoutExpired):
            process.kill()
            process.wait()
            return None
        finally:
            reader.join(timeout=5)
    if not line.startswith("shown") or process.returncode != 0:
        return None
    return seconds, line


def _startup(runs: int, env: dict[str, str]) -> dict:
    shown: list[float] = []
    jax_imported: list[bool] = []
    bare: dict[str, list[float]] = {"qt": [], "numpy": []}
    launch_blurapp = [sys.executable, "-m", "blurapp", "--exit-when-shown"]
    failed = {"error": "the window did not open, or did not close (see `blurapp` here)"}
    # Not timed: its modules compiled (see _with_bytecode), the files read into memory.
    if _shown_after(launch_blurapp, env) is None:
        return failed
    for _ in range(runs):
        # Interleaved, so a slow spell of the machine falls on all three alike.
        launch = _shown_after(launch_blurapp, env)
        if launch is None:
            return failed
        shown.append(launch[0])
        jax_imported.append("jax_imported=True" in launch[1])
        for imported, seconds in bare.items():
            floor = _shown_after([sys.executable, "-c", _BARE_WINDOW, imported], env)
            if floor is not None:
                seconds.append(floor[0])
    version = []
    for _ in range(runs):
        _, took = _blurapp("--version", env=env)
        version.append(took)
    stalls = [_stall_after_shown(env) for _ in range(runs)]
    return {
        "window_shown_seconds": statistics.median(shown),
        "window_shown_min_seconds": min(shown),
        "jax_imported_before_shown": any(jax_imported),
        # None where the bare window did not open.
        "bare_window_seconds": statistics.median(bare["qt"]) if bare["qt"] else None,
        "bare_window_with_numpy_seconds": (
            statistics.median(bare["numpy"]) if bare["numpy"] else None
        ),
        "version_seconds": statistics.median(version),
        # None where a probe failed or JAX did not start there.
        "longest_stall_after_shown_seconds": (
            None if None in stalls else max(s for s in stalls if s is not None)
        ),
        "runs": runs,
    }


def _stall_after_shown(env: dict[str, str]) -> float | None:
    """The event loop's longest stall in a window opening on the bundled photo as `blurapp`
    opens it, from its first paint until the photo is shown and JAX has started (see
    blurapp.ui.probe.measure_start); None when the probe fails."""
    run = subprocess.run(
        [sys.executable, "-m", "blurapp.ui.probe", "--start"],
        capture_output=True,
        text=True,
        timeout=SHOWN_TIMEOUT_SECONDS * 2,
        env=env,
    )
    if run.returncode != 0:
        return None
    return json.loads(run.stdout.strip().splitlines()[-1])["longest_stall_after_shown_seconds"]


def window(photo: Path) -> dict:
    """Stalls of the event loop and display times in a real window (see blurapp.ui.probe)."""
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    with own_folders(env) as env:
        run = subprocess.run(
            [sys.executable, "-m", "blurapp.ui.probe", str(photo)],
            capture_output=True,
            text=True,
            timeout=900,
            env=env,
        )
    if run.returncode != 0:
        return {"error": run.stderr.strip().splitlines()[-1:] or ["the probe failed"]}
    return json.loads(run.stdout.strip().splitlines()[-1])


# The live preview's latency is measured on photos of these sizes: a phone's 2 MP and a
# camera's 24 MP.
LIVE_MEGAPIXELS = (2.0, 24.0)


def live(folder: Path) -> dict:
    """The live preview's latency in a real window (see blurapp.ui.probe.measure_live), for
    each of LIVE_MEGAPIXELS and each algorithm."""
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    figures = {}
    with own_folders(env) as env:
        for megapixels, algorithm in itertools.product(LIVE_MEGAPIXELS, ALGORITHMS):
            photo = _write_photo(folder, megapixels)
            run = subprocess.run(
                [sys.executable, "-m", "blurapp.ui.probe", "--live", str(photo), algorithm],
                capture_output=True,
                text=True,
                timeout=900,
                env=env,
            )
            key = f"{megapixels:g} MP {algorithm}"
            if run.returncode != 0:
                lines = run.stderr.strip().splitlines()
                figures[key] = {"error": lines[-1] if lines else "the probe failed"}
            else:
                figures[key] = json.loads(run.stdout.strip().splitlines()[-1])
    return figures


def memory(photo: Path, big_megapixels: float) -> dict:
    """Peak resident memory of `blurapp compare` on a photo file, and of the core on a very
    large synthetic image (too large for Pillow's default pixel limit as a file), beside
    their floor in the same run: a process that only opens JAX on its device and makes one
    small call there (a TPU's runtime alone took 13.6 GB of a process there)."""
    with own_folders() as env:
        jax_alone_peak = peak_of(["-c", "from blurapp.bench import jax_alone; jax_alone()"], env)
        compare_peak = peak_of(["-m", "blurapp", "compare", str(photo)], env)
        code = f"from blurapp.bench import memory_probe; memory_probe({big_megapixels!r})"
        big_peak = peak_of(["-c", code], env)
    return {
        "photo": str(photo),
        "jax_alone_peak_bytes": jax_alone_peak,
        "compare_peak_bytes": compare_peak,
        "big_megapixels": big_megapixels,
        "big_peak_bytes": big_peak,
    }


def jax_alone() -> None:
    """JAX loaded as BlurApp loads it, its default device opened and one small jitted call
    made there: the memory section's floor, measured from outside (fails where JAX does)."""
    jax = import_jax()
    jax.jit(lambda values: values + 1)(np.zeros(8, np.float32)).block_until_ready()


def memory_probe(megapixels: float) -> None:
    """A whole comparison of a synthetic image, for `memory` to measure from outside."""
    result = compare_engines(synthetic_image(megapixels))
    print(json.dumps({"megapixels": megapixels, "max_abs_diff": result.max_abs_diff}))


# The sections that launch BlurApp (or a probe of it) in processes of their own, each of which
# opens JAX's device. On a TPU one process at a time may hold the chip: these run before the
# bench's own process first uses the device (see launching_first).
LAUNCHING_SECTIONS = frozenset(
    {"first-call", "startup", "window", "live", "memory", "scale", "playing", "clip-file"}
)


def launching_first(sections: Sequence[str]) -> tuple[list[str], list[str]]:
    """`sections` as two lists, each in the order asked: those that launch processes
    (LAUNCHING_SECTIONS), to run before this process first uses JAX's device, and the others."""
    return (
        [name for name in sections if name in LAUNCHING_SECTIONS],
        [name for name in sections if name not in LAUNCHING_SECTIONS],
    )


def run_sections(
    sections: Sequence[str],
    probe_megapixels: float,
    big_megapixels: float,
    rounds: int,
    on_section: Callable[[str, dict], None] | None = None,
    video_options: dict | None = None,
    on_section_start: Callable[[str], None] | None = None,
) -> dict:
    """The sections after the engines table, each a dict of figures; `rounds`: the yardsticks'
    rounds of timed calls and the start-up's launches of each program; `on_section_start(name)`
    told as each section begins, `on_section(name, figures)` as it ends; `video_options`:
    blurapp.bench.video.video's keywords, whose resolutions the playing and clip-file sections
    take too (and clip-file its `clip_frames` and `engines`, playing its `playing_seconds` and
    `playing_rate`)."""
    report = {}
    with tempfile.TemporaryDirectory(prefix="blurapp-bench-") as folder:
        photo = None
        if {"first-call", "window", "memory"} & set(sections):
            photo = _write_photo(Path(folder), probe_megapixels)
        for name in sections:
            if on_section_start is not None:
                on_section_start(name)
            if name == "yardsticks":
                figures = yardsticks.yardsticks(probe_megapixels, rounds)
            elif name == "first-call":
                assert photo is not None  # written above for this section
                figures = {"sample": first_call(sample_photo_path()), "large": first_call(photo)}
            elif name == "startup":
                figures = startup(rounds)
            elif name == "window":
                assert photo is not None  # written above for this section
                figures = window(photo)
            elif name == "memory":
                assert photo is not None  # written above for this section
                figures = memory(photo, big_megapixels)
            elif name == "live":
                figures = live(Path(folder))
            elif name == "scale":
                figures = scale.scale(Path(folder))
            elif name == "video":
                options = {
                    key: value
                    for key, value in (video_options or {}).items()
                    if key
                    not in ("clip_frames", "playing_seconds", "playing_rate", "playing_colour")
                }
                figures = video.video(**options)
            elif name == "playing":
                options = video_options or {}
                figures = clips.playing(
                    options.get("resolutions", ["1080p"]),
                    options.get("playing_seconds", clips.DEFAULT_PLAYING_SECONDS),
                    options.get("playing_rate", clips.DEFAULT_PLAYING_RATE),
                    colour=options.get("playing_colour", False),
                )
            elif name == "clip-file":
                options = video_options or {}
                figures = clips.clip_file(
                    options.get("resolutions", ["1080p"]),
                    options.get("clip_frames", clips.DEFAULT_CLIP_FRAMES),
                    engines=options.get("engines", clips.CLIP_FILE_ENGINES),
                )
            else:
                continue
            report[name] = figures
            if on_section is not None:
                on_section(name, figures)
    return report
