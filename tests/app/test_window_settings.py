"""What the window remembers, checked without Qt (blurapp.app.window_settings): each stored value
that does not pass its check reads as its default, with one log line; what is written is plain
data the file can hold."""

import json
import logging

from helpers.window_settings import change_settings

from blurapp.app.settings_file import SettingsFile
from blurapp.app.window_settings import WindowSettings, read_settings, write_settings
from blurapp.core.kernel import DEFAULT_SIGMA


def test_a_value_that_is_not_plain_data_reads_as_its_default_with_one_log_line(tmp_path, caplog):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"sigma": {"__class__": "os.system"}, "kernel_size": "7"}))
    with caplog.at_level(logging.WARNING):
        settings = SettingsFile(path)
        assert read_settings(settings).sigma == DEFAULT_SIGMA
    assert read_settings(settings).kernel_size == 7
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 1 and "'sigma'" in lines[0] and str(path) in lines[0]


def test_settings_round_trip_with_the_geometry(tmp_path):
    path = tmp_path / "settings.json"
    settings = SettingsFile(path)
    geometry = b"\x01\xd9\xd0\xcb\x00\x03"  # as Qt's saveGeometry() begins
    change_settings(settings, geometry=geometry)
    change_settings(settings, recent_files=("/a.png", "/b, c.png"))
    settings.save()
    again = SettingsFile(path)
    assert read_settings(again).geometry == geometry
    assert read_settings(again).recent_files == ("/a.png", "/b, c.png")


def test_a_number_json_cannot_hold_is_left_out_and_the_file_stays_valid(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{"kernel_size": "9", "extra": 1e999, "sizes": [1, 1e999]}')
    settings = SettingsFile(path)
    change_settings(settings, sigma=3.5)
    settings.save()
    assert json.loads(path.read_text()) == {"kernel_size": "9", "sigma": 3.5}


def test_a_geometry_that_is_no_base64_reads_as_none_with_one_log_line(tmp_path, caplog):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"geometry": "not a saved geometry!", "sigma": 3.0}))
    with caplog.at_level(logging.WARNING):
        remembered = read_settings(SettingsFile(path))
    assert remembered.geometry == WindowSettings().geometry == b"" and remembered.sigma == 3.0
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 1 and "'geometry'" in lines[0]


def test_what_the_window_remembers_of_its_session_is_read_back_alike(tmp_path):
    from blurapp.app.session import Session
    from blurapp.app.window_settings import with_session
    from blurapp.core.spec import BlurSpec

    session = Session()
    session.set_parameters(BlurSpec(kernel_size=7, sigma=2.5, algorithm="separable", color=True))
    session.set_pane_engine(0, "numpy-loop")
    session.set_live(False)
    settings = SettingsFile(tmp_path / "settings.json")
    write_settings(settings, with_session(read_settings(settings), session))
    settings.save()
    again = read_settings(SettingsFile(tmp_path / "settings.json"))
    assert again.parameters() == session.parameters
    assert (
        again.pane_engines == tuple(session.pane_engines) and again.pane_engines[0] == "numpy-loop"
    )
    assert again.timed_engines == session.timed and not again.live_preview
