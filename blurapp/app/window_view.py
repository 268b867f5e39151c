"""What the window's controllers tell the window to show, without Qt: WindowView, the one view
of a photo and of a clip. The WindowController (blurapp.app.window_controller), its
PhotoController (blurapp.app.photo_controller) and its ClipController
(blurapp.app.clip_controller) talk to the window through it alone; the window's display
(blurapp.ui.window_display) is it on screen, and the tests' recording views are it in memory.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from blurapp.core.spec import BlurSpec

if TYPE_CHECKING:  # the comparison itself is imported by the job that runs it
    from blurapp.app.clip_player import PlayerState
    from blurapp.app.jobs import LoadedPhoto
    from blurapp.core.measuring.clip_comparison import ClipComparisonResult
    from blurapp.core.media.clip import Clip
    from blurapp.core.media.photo_checks import PhotoError
    from blurapp.core.report.figures import Figure


class WindowView(Protocol):
    """What the window shows as its controllers tell: a photo's side, a clip's, and what both
    have (the status line, a run going, a file remembered, a warning)."""

    # --- Both a photo's and a clip's ----------------------------------------------------------

    def show_status(self, text: str) -> None: ...

    def show_running(self, running: bool) -> None:
        """A timed run is going (the photo's, or a Run on the clip): Cancel and the progress
        bar."""

    def show_open_failed(self, error: PhotoError) -> None:
        """A photo, or a clip's file, could not be opened."""

    def remember_file(self, path: Path) -> None:
        """A file the user opened: Open Recent and the folder the next Open starts in."""

    def warn(
        self, title: str, words: str, error: BaseException | None, *, in_status: bool = False
    ) -> None:
        """Tell the user `words` (a file's problem in the user's language where `error` is
        one), in the status line too when `in_status`."""

    def fit_to_window(self) -> None: ...

    # --- A photo's side and its runs ----------------------------------------------------------

    def show_progress(
        self, engine: str, done: int, total: int, words: tuple[str, str] | None
    ) -> None:
        """An engine's progress (total 0: busy, no count); `words` (the status, the bar's
        format) for a timed run, None for a live preview, whose taps are gone in a blink."""

    def show_photo(self, loaded: LoadedPhoto) -> None: ...

    def show_live(self, engine: str) -> None:
        """`engine`'s live-preview result is in its pane."""

    def show_run_stopped(self) -> None:
        """The runner has let go of a run cancelled or superseded."""

    def show_run_failed(self, error: BaseException, words: str) -> None: ...

    def show_run_cancelled(self) -> None:
        """A timed run was cancelled (by the user, or by a sweep starting): say so at once."""

    def show_nothing_to_run(self) -> None:
        """Run with no engine ticked: say so."""

    def take_typed_parameters(self) -> None:
        """Run pressed while a box is being typed in: take the text as it is."""

    def show_parameters(self) -> None:
        """The parameters' boxes and notes as the session has them (a typed text's notes
        change without the parameters)."""

    def record_parameters(self, before: BlurSpec, after: BlurSpec) -> None:
        """A step the user can undo: the parameters went from `before` to `after`."""

    # --- A clip's side ------------------------------------------------------------------------

    def show_clip_bar(self, frame_count: int | None) -> None:
        """The bar under the panes, for a clip of `frame_count` frames (None: a camera's)."""

    def hide_clip_bar(self) -> None: ...

    def enable_clip_actions(self, enabled: bool) -> None:
        """Play/Pause, Previous and Next Frame: enabled while a clip is open."""

    def show_playing(self, playing: bool) -> None: ...

    def show_position(self, index: int, words: str) -> None:
        """The frame the slider is at, and where the clip is in words."""

    def show_played(self, state: PlayerState, pane_words: list[tuple[Any, str]]) -> None:
        """What a look while playing found: each pane's newest frame (None: none new) and its
        words (its frames per second), in the panes' order."""

    def show_clip_stage(self, done: int, total: int, text: str) -> None: ...

    def show_clip_result(self, result: ClipComparisonResult, rows: list[Figure]) -> None:
        """A Run on the clip is done: its figures (`rows`, in the user's language) and chart."""

    def start_ticking(self) -> None:
        """Call the ClipController's `tick()` every few milliseconds until stop_ticking."""

    def stop_ticking(self) -> None: ...

    def look_again_later(self, look: Callable[[], bool]) -> None:
        """Call `look()` now and then until it returns True."""

    # What happened to the clip, once it is on screen: what the tests and the bench's probe
    # wait on.

    def opened_clip(self, clip: Clip) -> None: ...

    def showed_frame(self, index: int) -> None:
        """A paused frame is the window's photo."""

    def changed_playing(self, playing: bool) -> None: ...

    def stopped_clip(self, problem: str) -> None:
        """The clip stopped giving frames while playing, for this reason."""

    def compared_clip(self, result: ClipComparisonResult) -> None:
        """A Run on the clip is done and its figures are shown."""
