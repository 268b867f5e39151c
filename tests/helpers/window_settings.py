"""The window's settings file changed as the window changes it, without Qt."""

import dataclasses

from blurapp.app.window_settings import read_settings, write_settings


def change_settings(settings, **changes):
    """Store `changes` (WindowSettings' fields) in the settings file `settings`, as the window
    does: the rest as the file holds it."""
    write_settings(settings, dataclasses.replace(read_settings(settings), **changes))
