"""The core stays light: no Qt, and jax only when an engine needs it."""

import subprocess
import sys

import pytest


def python(code, *options, env=None):
    """`python OPTIONS -c CODE` in a process of its own (in `env`, by default this one's)."""
    return subprocess.run(
        [sys.executable, *options, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def modules_after(code):
    run = python(f"{code}\nimport sys; print(' '.join(sorted(sys.modules)))")
    assert run.returncode == 0, run.stderr
    return set(run.stdout.split())


def test_importing_the_core_pulls_in_neither_qt_nor_jax():
    # Every public name of the core, each imported when first used.
    loaded = modules_after(
        "import blurapp.core as core\nfor name in core.__all__:\n    getattr(core, name)"
    )
    assert "blurapp.core.media.photo" in loaded  # the imports really happened
    assert not {name for name in loaded if name.startswith(("PySide6", "jax", "jaxlib"))}


def test_version_does_not_import_jax_or_qt():
    loaded = modules_after(
        "import sys\nfrom blurapp.cli import main\n"
        "try:\n    main(['--version'])\nexcept SystemExit as e:\n    assert e.code == 0"
    )
    assert "blurapp.cli" in loaded
    assert not {name for name in loaded if name.startswith(("PySide6", "jax", "jaxlib"))}


@pytest.mark.slow
def test_running_the_jax_engine_does_import_jax():
    # The other half of the check above: the lazy import happens where it should.
    loaded = modules_after(
        "import numpy as np\nfrom blurapp.core import blur_jax, gaussian_kernel\n"
        "blur_jax(np.zeros((4, 4), np.float32), gaussian_kernel(3, 1.0))"
    )
    assert "jax" in loaded


@pytest.mark.slow
def test_jax_is_kept_from_taking_most_of_the_gpu_unless_the_user_chose():
    code = (
        "import os\nfrom blurapp.core.engines.jax_runtime import import_jax\nimport_jax()\n"
        "print(os.environ['XLA_PYTHON_CLIENT_PREALLOCATE'])"
    )
    import os

    for preset, expected in ((None, "false"), ("true", "true")):
        env = {k: v for k, v in os.environ.items() if k != "XLA_PYTHON_CLIENT_PREALLOCATE"}
        if preset is not None:
            env["XLA_PYTHON_CLIENT_PREALLOCATE"] = preset
        run = python(code, env=env)
        assert run.returncode == 0, run.stderr
        assert run.stdout.strip() == expected


def test_the_cores_submodules_are_reached_as_attributes_as_before():
    loaded = modules_after(
        "import blurapp.core as core\n"
        "assert core.kernel.gaussian_kernel is core.gaussian_kernel\n"
        "try:\n    core.no_such_part\nexcept AttributeError:\n    pass\n"
        "else:\n    raise SystemExit('no AttributeError')"
    )
    assert "blurapp.core.kernel" in loaded


def test_the_cores_star_names_are_its_public_names_not_its_parts():
    """`from blurapp.core import *` gives the core's names, as before its stub: not its
    submodules (reached as attributes all the same)."""
    import types

    import blurapp.core as core

    parts = [name for name in core.__all__ if isinstance(getattr(core, name), types.ModuleType)]
    assert parts == []
    assert isinstance(core.kernel, types.ModuleType)
    assert "kernel" not in core.__all__ and "gaussian_kernel" in dir(core)


@pytest.mark.slow
def test_a_tpu_runtimes_notice_while_jax_imports_neither_stops_jax_nor_is_printed():
    # The TPU runtime warns about the machine's huge pages as JAX imports; where warnings are
    # errors that stopped JAX from loading, and otherwise it came before every command's output.
    code = (
        "import sys, warnings\n"
        "class TpuRuntime:\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'jax':\n"
        "            warnings.warn('Transparent hugepages are not enabled. TPU runtime startup "
        "and shutdown time should be significantly improved', UserWarning)\n"
        "sys.meta_path.insert(0, TpuRuntime())\n"
        "from blurapp.core.engines.jax_runtime import import_jax\n"
        "print(import_jax().__name__)\n"
        "try:\n"
        "    warnings.warn('another notice', UserWarning)\n"
        "except UserWarning:\n"
        "    print('other warnings are still errors')\n"
    )
    run = python(code, "-W", "error")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:2] == ["jax", "other warnings are still errors"]
    assert run.stderr == ""


@pytest.mark.slow
def test_loading_jax_again_and_again_leaves_a_warning_shown_once_shown_once():
    # Python shows a warning once a place ("default"); a filter added at every load of JAX
    # would make it forget, and a NumPy warning in a loop would repeat at every blur.
    code = (
        "import warnings\n"
        "from blurapp.core.engines.jax_runtime import import_jax\n"
        "for _ in range(3):\n"
        "    import_jax()\n"
        "    warnings.warn('shown once', RuntimeWarning)\n"
    )
    run = python(code, "-W", "default")
    assert run.returncode == 0, run.stderr
    assert run.stderr.count("shown once") == 1, run.stderr
