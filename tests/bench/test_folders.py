"""Every process the bench launches (windows, commands, probes) gets settings, cache and
state folders of its own, BlurApp's and XDG's, none of them the user's, removed after."""

import os
import subprocess
from pathlib import Path

import pytest

FOLDER_VARIABLES = (
    "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
    "BLURAPP_CONFIG_DIR", "BLURAPP_CACHE_DIR", "BLURAPP_STATE_DIR",
)  # fmt: skip


@pytest.fixture
def user(tmp_path, monkeypatch):
    """The user's own folders, set as the bench's environment."""
    folders = {}
    for variable in FOLDER_VARIABLES:
        folders[variable] = tmp_path / "user" / variable
        folders[variable].mkdir(parents=True)
        monkeypatch.setenv(variable, str(folders[variable]))
    return folders


def launch_recorder(launches):
    """A stand-in for subprocess.run that keeps each launch's environment in `launches` and
    fails, as a launch that could not run does."""

    def launched(command, *args, env=None, **kwargs):
        launches.append(env)
        return subprocess.CompletedProcess(command, 1, "", "failed as the test asked")

    return launched


def assert_own_folders(launches, user):
    assert launches
    for env in launches:
        homes = set()
        for variable in FOLDER_VARIABLES:
            folder = Path(env[variable])
            assert folder not in user.values() and Path(os.environ[variable]) not in folder.parents
            homes.add(folder.parents[1] if variable.startswith("BLURAPP") else folder.parent)
        (home,) = homes  # all six in one folder of the launch's own
        assert not home.exists()  # removed after


def test_the_memory_sections_launches_have_folders_of_their_own(user, monkeypatch, tmp_path):
    import blurapp.bench as bench

    launches = []
    monkeypatch.setattr(bench, "peak_of", lambda arguments, env: launches.append(env) or 1)
    bench.memory(tmp_path / "photo.jpg", 1.0)
    assert len(launches) == 3
    assert_own_folders(launches, user)


def test_the_window_live_and_first_call_launches_have_folders_of_their_own(
    user, monkeypatch, tmp_path
):
    import blurapp.bench as bench

    launches = []
    monkeypatch.setattr(subprocess, "run", launch_recorder(launches))
    monkeypatch.setattr(bench, "_write_photo", lambda folder, megapixels: tmp_path / "photo.jpg")
    assert bench.window(tmp_path / "photo.jpg")["error"] == ["failed as the test asked"]
    assert all("error" in row for row in bench.live(tmp_path).values())
    monkeypatch.setattr(
        bench,
        "_blurapp",
        lambda *args, env=None: (
            launches.append(env)
            or ('{"jax": {"first_call_seconds": null, "error": "failed as asked"}}', 0.0)
        ),
    )
    assert bench.first_call(tmp_path / "photo.jpg")["error"] == "failed as asked"
    assert_own_folders(launches, user)


def test_the_playing_sections_launches_have_folders_of_their_own(user, monkeypatch):
    from blurapp.bench import clips

    launches = []
    monkeypatch.setattr(subprocess, "run", launch_recorder(launches))
    clips.playing(["64x36"], seconds=1.0)
    assert_own_folders(launches, user)
