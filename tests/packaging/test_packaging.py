"""The wheel carries what an installed BlurApp needs, and works installed on its own."""

import fcntl
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def wheel(tmp_path_factory, request):
    """The wheel, built once a run: under pytest-xdist the first worker to ask builds it in the
    run's folder shared by the workers, holding a lock that the others wait on."""
    run_folder = tmp_path_factory.getbasetemp()
    # Read from the config, not xdist's worker_id fixture: the suite also runs without
    # pytest-xdist (`-p no:xdist`, on a machine whose device one process at a time may hold).
    if hasattr(request.config, "workerinput"):
        run_folder = run_folder.parent  # the workers' folders are popen-gw0, … inside it
    folder = run_folder / "wheel"
    with open(run_folder / "wheel.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        built = list(folder.glob("blurapp-*.whl"))
        if not built:
            pip_wheel = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q"]
            build = subprocess.run(
                [*pip_wheel, "-w", str(folder), str(ROOT)],
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert build.returncode == 0, build.stderr
            built = list(folder.glob("blurapp-*.whl"))
    [wheel] = built
    return wheel


@pytest.mark.slow
def test_the_wheel_carries_the_sample_photo_icons_and_entry_point(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        photo = archive.read("blurapp/resources/coffee.png")
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        scripts = archive.read(entry_points).decode()
    assert photo == (ROOT / "resources" / "coffee.png").read_bytes()
    assert "blurapp/resources/icons/blurapp.svg" in names
    assert "blurapp/resources/icons/blurapp-256.png" in names
    assert "blurapp/i18n/blurapp_zh_CN.qm" in names
    assert {
        "blurapp/core/media/photo.py",
        "blurapp/ui/main_window.py",
        "blurapp/cli/__init__.py",
        # lazy_loader reads the public names from them when the packages are imported
        "blurapp/__init__.pyi",
        "blurapp/core/__init__.pyi",
    } <= names
    assert "blurapp = blurapp.start:main" in scripts


@pytest.mark.slow
def test_the_wheel_installed_in_a_fresh_environment_compares_the_sample(wheel, tmp_path):
    environment = tmp_path / "venv"
    # No pip of its own (3 s to put in): this process's pip installs into it.
    venv = [sys.executable, "-m", "venv", "--without-pip", str(environment)]
    subprocess.run(venv, check=True, timeout=300)
    pip = [sys.executable, "-m", "pip", "--python", str(environment / "bin" / "python")]
    install = subprocess.run(
        # --no-compile: no bytecode written ahead for every module of the dependencies (JAX's,
        # Qt's); Python writes what it imports when it runs, and the run is what is checked.
        [*pip, "install", "-q", "--no-compile", str(wheel)],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert install.returncode == 0, install.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()  # not the source tree: only the installed package can be found
    run = subprocess.run(
        [str(environment / "bin" / "blurapp"), "compare", "--json", "--repeat", "1"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=elsewhere,
        env={
            "PATH": "/usr/bin:/bin",
            "HOME": str(tmp_path),
            "BLURAPP_CACHE_DIR": str(tmp_path / "c"),
        },
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert Path(data["image"]["path"]).is_relative_to(environment)
    assert (data["image"]["width"], data["image"]["height"]) == (600, 400)
    assert data["max_abs_diff"] <= 1e-5
