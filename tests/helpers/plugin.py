"""A plugin engine from another package: a real distribution (a dist-info folder with its entry
point) written into a folder that then stands for site-packages."""

import os
import textwrap

from helpers.command_line import blurapp

PLUGIN_COLOUR = "#17becf"

# The plugin's own code, as its author would write it: nothing in it is BlurApp's but the
# Engine it declares and the FirstCall it returns.
PLUGIN_CODE = f'''
import time

import numpy as np
from scipy import ndimage

from blurapp.core.engines import Call, Engine, FirstCall, Shown


def blur_scipy(image, kernel):
    image = np.asarray(image, dtype=np.float32)
    kernel = np.asarray(kernel, dtype=np.float32)
    if kernel.ndim == 1:  # separable: along the rows, then down the columns
        rows = ndimage.correlate1d(image, kernel, axis=1, mode="nearest")
        return ndimage.correlate1d(rows, kernel, axis=0, mode="nearest")
    if image.ndim == 3:  # each channel alike
        kernel = kernel[:, :, None]
    return ndimage.correlate(image, kernel, mode="nearest")


def first_scipy_call(image, kernel, *, platform, progress, cancelled) -> FirstCall:
    def call():
        start = time.perf_counter()
        output = blur_scipy(image, kernel)
        return output, time.perf_counter() - start

    output, seconds = call()
    return FirstCall(output=output, again=lambda: Call(call()[1]), seconds=seconds)


ENGINE = Engine("scipy", "SciPy", first_scipy_call, shown=Shown(colour="{PLUGIN_COLOUR}"))
'''


def write_distribution(folder, name, entry_points, module=None, code=""):
    """A distribution as pip leaves it in site-packages: its package and its dist-info."""
    info = folder / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: 0.1\n", encoding="utf-8"
    )
    lines = "".join(f"{key} = {value}\n" for key, value in entry_points.items())
    (info / "entry_points.txt").write_text(f"[blurapp.engines]\n{lines}", encoding="utf-8")
    if module is not None:
        package = folder / module
        package.mkdir()
        (package / "__init__.py").write_text(textwrap.dedent(code), encoding="utf-8")
    return folder


def write_plugin(folder):
    """The SciPy engine's distribution, as pip installs it."""
    return write_distribution(
        folder,
        "blurapp_scipy_plugin",
        {"scipy": "blurapp_scipy_plugin:ENGINE"},
        module="blurapp_scipy_plugin",
        code=PLUGIN_CODE,
    )


def write_broken_plugin(folder):
    """A distribution whose entry point names a module that is not there."""
    return write_distribution(
        folder, "blurapp_broken_plugin", {"broken": "blurapp_missing_module:ENGINE"}
    )


def blurapp_with(tmp_path, *args, folders):
    """`python -m blurapp ARGS…` with `folders` on its path, and folders of its own for settings,
    cache and log."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [*map(str, folders), *filter(None, [env.get("PYTHONPATH")])]
    )
    for variable in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env[variable] = str(tmp_path / variable.lower())
    return blurapp(*args, env=env)
