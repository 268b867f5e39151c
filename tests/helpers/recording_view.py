"""A window that shows nothing and records what its controllers tell it: the one WindowView
(blurapp.app.window_view) of the controllers' tests, which need no Qt."""


class RecordingView:
    """The window, recording what it is told as (what, value) in order; its ticker on or off,
    and the looks it was asked to take again later."""

    def __init__(self):
        self.told = []
        self.ticking = False
        self.looks = []

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)

        def record(*args, **kwargs):
            self.told.append((name, args[0] if len(args) == 1 else args))

        return record

    def start_ticking(self):
        self.ticking = True

    def stop_ticking(self):
        self.ticking = False

    def look_again_later(self, look):
        self.looks.append(look)

    def said(self, what):
        return [value for name, value in self.told if name == what]
