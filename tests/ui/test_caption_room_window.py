"""The photos stay where they are when a Run's longer captions come (what decides:
tests/app/test_caption_room.py)."""

import math

import pytest
from helpers.session import longest_run_caption
from helpers.window import RUN_TIMEOUT_MS, run, settle
from PySide6.QtCore import QEvent, QObject, QPoint
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget

from blurapp.ui.image_pane import ResultPane, caption_html
from blurapp.ui.text_fitting import WORD_JOINER


def photo_tops(window) -> list[int]:
    return [pane.view.mapTo(window, QPoint(0, 0)).y() for pane in window.widgets.panes]


@pytest.mark.slow
@pytest.mark.parametrize("size", [(800, 600), (1024, 640)], ids=["800x600", "1024x640"])
def test_a_runs_longer_caption_does_not_move_the_photos(make_window, qtbot, size):
    # The live preview on, as users have it: after the Run the JAX caption says how its first
    # call was paid, the longest caption of a run.
    window = make_window(live=True)
    previews = []
    window.display.live_shown.connect(previews.append)
    qtbot.waitUntil(lambda: {"numpy", "jax"} <= set(previews), timeout=RUN_TIMEOUT_MS)
    settle(window, *size)
    jax_pane = window.widgets.right_pane
    before_text, before = jax_pane.caption_text(), photo_tops(window)
    run(qtbot, window)
    settle(window, *size)
    assert jax_pane.caption_text() != before_text
    assert "steady" in jax_pane.caption_text()
    assert photo_tops(window) == before, (before_text, jax_pane.caption_text())
    # Whole: the caption is as tall as its wrapped text.
    assert jax_pane.caption.height() >= jax_pane.caption_height_needed()


@pytest.mark.parametrize("width", [200, 228, 240, 300, 420, 640, 900])
def test_the_room_kept_holds_the_longest_caption_at_any_width(qtbot, width):
    # Laid out as the label lays it out, unbreakable phrases and all: the room kept before a
    # Run is at least what the longest caption a run gives then needs, from a pane 200 px wide
    # (a window of 800 × 600 gives its panes 228) to a wide one.
    pane = ResultPane([("jax", "JAX-jit")], "jax")
    qtbot.addWidget(pane)
    pane.resize(width, 400)
    pane.show()
    qtbot.waitExposed(pane)
    pane.set_caption(caption_html(longest_run_caption(), "out of date"))
    assert pane.caption_height_needed() <= pane.caption_height_reserved()


def test_the_room_kept_follows_the_panes_width_and_type(qtbot):
    # Laid out once a width and type, and again at the next: a pane made narrower keeps more
    # room, and so does a larger type (the presentation's).
    pane = ResultPane([("jax", "JAX-jit")], "jax")
    qtbot.addWidget(pane)
    pane.resize(900, 400)
    pane.show()
    qtbot.waitExposed(pane)
    wide = pane.caption_height_reserved()
    pane.resize(228, 400)
    qtbot.waitUntil(lambda: pane.caption_width() < 300)
    narrow = pane.caption_height_reserved()
    assert narrow > wide
    pane.set_caption_scale(1.5)
    assert pane.caption_height_reserved() > narrow


class LayoutRequests(QObject):
    """Counts the layout passes asked of a widget."""

    def __init__(self, widget):
        super().__init__()
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.LayoutRequest:
            self.count += 1
        return False


def pane_in_a_window(qtbot, width=420):
    window = QWidget()
    qtbot.addWidget(window)
    pane = ResultPane([("jax", "JAX-jit")], "jax")
    QVBoxLayout(window).addWidget(pane)
    window.resize(width, 400)
    window.show()
    qtbot.waitExposed(window)
    return window, pane


def test_a_new_caption_is_shown_whole_without_laying_out_the_window(qtbot):
    # The live preview changes the panes' captions at every step of a slider: each change
    # is the label's alone, not a layout pass of the window around the pane (and the repaint
    # of everything it moves), which took a core from the blur the user waits for.
    window, pane = pane_in_a_window(qtbot)
    pane.set_caption("<b>JAX-jit</b> · previewing")
    qtbot.waitUntil(lambda: pane.caption.width() == pane.caption_width())
    for _ in range(3):  # the first caption's layout passes, the pane's then the window's
        QApplication.processEvents()
    requests = LayoutRequests(window)
    for details in ("σ 2.6 · 9 × 9 · 4.1 ms", "σ 2.7", "σ 2.8 · 9 × 9 · 4.1 ms · 2 MP · grey"):
        pane.set_caption(f"<b>JAX-jit</b> · {details} · previewing")
        QApplication.processEvents()
        assert pane.caption_text() == f"JAX-jit · {details} · previewing"
    QApplication.processEvents()
    assert requests.count == 0
    assert pane.caption.width() == pane.caption_width()  # wrapped at the pane's width
    assert pane.caption.height() >= pane.caption_height_needed()


def test_a_caption_that_cannot_wrap_keeps_its_pane_wide_enough_to_show_it(qtbot):
    # A run of words kept whole (a figure and its unit) is never cut off: the pane is at
    # least as wide as the caption's narrowest width, also after the text changes.
    _window, pane = pane_in_a_window(qtbot, width=120)
    long_run = WORD_JOINER.join(["steady", "call", "1234567", "ms", "end", "to", "end"])
    pane.set_caption(f"<b>JAX-jit</b> · {long_run}")
    qtbot.waitUntil(lambda: pane.width() >= pane.caption.minimumSizeHint().width())
    assert pane.caption.width() >= pane.caption.minimumSizeHint().width()
    assert pane.caption.minimumSizeHint().width() > 120


def test_captions_that_differ_in_their_figures_only_are_laid_out_once(qtbot, monkeypatch):
    # A live preview's every change brings captions whose words stay and whose figures change
    # ("live: 16.5 ms", then "live: 22.4 ms"): in type whose digits are all as wide, they wrap
    # alike, and the pane lays out the first only; each still shows whole.
    from PySide6.QtGui import QFontMetricsF

    from blurapp.ui import image_pane

    _window, pane = pane_in_a_window(qtbot, width=260)
    metrics = QFontMetricsF(pane.caption.font())
    assert len({metrics.horizontalAdvance(digit) for digit in "0123456789"}) == 1
    layouts, narrowest = [], []
    documents = image_pane.QTextDocument

    def counted_document(*arguments):
        layouts.append(1)
        return documents(*arguments)

    monkeypatch.setattr(image_pane, "QTextDocument", counted_document)
    label_narrowest = pane.caption.minimumSizeHint
    monkeypatch.setattr(
        pane.caption, "minimumSizeHint", lambda: narrowest.append(1) or label_narrowest()
    )
    words = (
        "<b>JAX-jit</b> · cpu · live: {} ms, one call · 9 × 9, σ {}, grey: Blur in colour is off"
    )
    pane.set_caption(words.format("16.5", "3.1"))
    pane.caption_height_needed()  # as CaptionLink asks at every change of caption
    first = (len(layouts), len(narrowest))
    assert first[0] >= 1 and first[1] >= 1  # the first is laid out
    for figures in (("22.4", "3.2"), ("15.3", "3.3"), ("6.77", "3.4")):
        pane.set_caption(words.format(*figures))
        needed = pane.caption_height_needed()
        QApplication.processEvents()
        assert (len(layouts), len(narrowest)) == first
        # Shown whole, as tall as the new text laid out afresh at the label's width.
        fresh = documents()
        fresh.setDocumentMargin(0)
        fresh.setDefaultFont(pane.caption.font())
        fresh.setHtml(pane.caption.text())
        fresh.setTextWidth(pane.caption.contentsRect().width())
        assert needed >= math.ceil(fresh.size().height())
        assert pane.caption.text() == words.format(*figures)
