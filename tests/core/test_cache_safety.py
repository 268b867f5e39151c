"""BlurApp's folders hold native code that it runs (JAX's compiled programs) and its log:
nobody else may be able to put files there, and nothing in them is ever unpickled."""

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from blurapp.core import paths
from blurapp.core.paths import UnsafeFolderError, check_private, private_folder


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    path = tmp_path_factory.mktemp("photos") / "small.png"
    Image.fromarray(np.arange(35 * 21, dtype=np.uint16).reshape(21, 35).astype(np.uint8)).save(path)
    return path


def compare(photo, cache: Path, state: Path | None = None):
    env = {**os.environ, "BLURAPP_CACHE_DIR": str(cache)}
    if state is not None:
        env["BLURAPP_STATE_DIR"] = str(state)
    run = subprocess.run(
        [sys.executable, "-m", "blurapp", "compare", str(photo), "--json", "--repeat", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    return json.loads(run.stdout), run.stderr


class Planted:
    """A pickle that, when loaded, leaves a file behind: proof that someone's code ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


@pytest.mark.slow
def test_files_planted_in_the_cache_are_never_unpickled(photo, tmp_path):
    cache, marker = tmp_path / "cache", tmp_path / "planted-code-ran"
    first, _ = compare(photo, cache)
    assert first["jax"]["compilation"] == "compiled"
    files = [path for path in cache.rglob("*") if path.is_file()]
    assert files  # the cache is in use
    for path in files:
        path.write_bytes(pickle.dumps(Planted(marker)))
    again, _ = compare(photo, cache)
    assert not marker.exists()
    assert again["max_abs_diff"] <= 1e-5


@pytest.mark.slow
@pytest.mark.parametrize("shared", ["folder", "parent"])
def test_a_cache_others_can_write_to_is_not_used(photo, tmp_path, shared):
    if shared == "folder":
        cache = tmp_path / "shared-cache"
        cache.mkdir()
        cache.chmod(0o777)
        unsafe = cache
    else:
        unsafe = tmp_path / "group-writable"
        unsafe.mkdir()
        unsafe.chmod(0o775)
        cache = unsafe / "cache"
        cache.mkdir(mode=0o700)
    first, stderr = compare(photo, cache)
    second, _ = compare(photo, cache)
    assert stderr.count("compilation cache is off") == 1
    assert f"{unsafe} can be written by other users; make it yours" in stderr
    # Nothing is kept, so nothing is loaded: every launch compiles afresh, and still blurs.
    assert first["jax"]["compilation"] == second["jax"]["compilation"] == "compiled"
    assert second["max_abs_diff"] <= 1e-5
    assert list(cache.rglob("*")) == []


def test_a_cache_of_another_user_is_refused(tmp_path, monkeypatch):
    folder = tmp_path / "theirs"
    folder.mkdir(mode=0o700)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(folder).st_uid + 1)
    with pytest.raises(UnsafeFolderError, match="is not a folder of your own"):
        check_private(folder)


SOMEONE_ELSE = 1234
as_root = pytest.mark.skipif(
    not hasattr(os, "getuid") or os.getuid() != 0,
    reason="giving a folder to another user needs root (CI runs as root)",
)


@as_root
@pytest.mark.parametrize("mode", [0o755, 0o1777])
def test_a_folder_inside_another_users_folder_is_refused(tmp_path, mode):
    # Its owner can rename what is inside, sticky or not, and put in a folder of their own.
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    theirs.chmod(mode)
    os.chown(theirs, SOMEONE_ELSE, SOMEONE_ELSE)
    with pytest.raises(UnsafeFolderError, match=f"{theirs} belongs to another user"):
        private_folder(theirs / "mine" / "cache")
    assert list(theirs.iterdir()) == []  # nothing created inside


@as_root
def test_a_writable_folder_above_another_users_folder_is_refused(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    mine = shared / "mine"
    mine.mkdir(mode=0o700)
    with pytest.raises(UnsafeFolderError, match=f"{shared} can be written by other users"):
        private_folder(mine / "cache")


def test_a_cache_reached_through_a_link_is_used_by_its_real_path(tmp_path):
    real = tmp_path / "real-cache"
    real.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(real)
    assert private_folder(link) == real.resolve()


@pytest.mark.slow
def test_new_folders_are_private(photo, tmp_path):
    cache, state = tmp_path / "new" / "cache", tmp_path / "new" / "state"
    compare(photo, cache, state)
    for folder in (cache, cache / "jax-compilation", state):
        assert folder.is_dir() and (folder.stat().st_mode & 0o777) == 0o700, folder


def test_an_older_readable_folder_is_made_private(tmp_path):
    folder = tmp_path / "from-an-earlier-version"
    folder.mkdir(mode=0o755)
    private_folder(folder)
    assert folder.stat().st_mode & 0o777 == 0o700


def test_a_sticky_shared_parent_like_tmp_is_fine(tmp_path):
    parent = tmp_path / "like-tmp"
    parent.mkdir()
    parent.chmod(0o1777)
    folder = private_folder(parent / "mine")
    assert folder.is_dir()


@pytest.mark.parametrize(
    ("variable", "function", "default"),
    [
        ("XDG_CACHE_HOME", paths.user_cache_dir, ".cache"),
        ("XDG_STATE_HOME", paths.user_state_dir, ".local/state"),
    ],
)
def test_relative_xdg_paths_are_ignored(monkeypatch, variable, function, default):
    monkeypatch.delenv("BLURAPP_CACHE_DIR", raising=False)
    monkeypatch.delenv("BLURAPP_STATE_DIR", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv(variable, "relative/folder")
    assert function() == Path.home() / default / "blurapp"
    monkeypatch.setenv(variable, "/absolute/folder")
    assert function() == Path("/absolute/folder/blurapp")


@pytest.mark.slow
def test_a_relative_cache_folder_is_ignored_with_a_warning(photo, tmp_path):
    # Relative, it would be a new cache in whatever folder BlurApp is started from.
    here, xdg_cache = tmp_path / "here", tmp_path / "xdg-cache"
    here.mkdir()
    env = {
        **os.environ,
        "BLURAPP_CACHE_DIR": "relative-cache",
        "XDG_CACHE_HOME": str(xdg_cache),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    run = subprocess.run(
        [sys.executable, "-m", "blurapp", "compare", str(photo), "--json", "--repeat", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=here,
    )
    assert run.returncode == 0, run.stderr
    assert list(here.iterdir()) == []
    assert (
        "warning: BLURAPP_CACHE_DIR=relative-cache is not an absolute path; it is ignored"
        in run.stderr.splitlines()
    )
    # The cache is where it would be without the variable.
    assert any((xdg_cache / "blurapp" / "jax-compilation").iterdir())
