"""The window read as it is drawn: presentation mode's figures all on screen at 1600 × 1000 and
1920 × 1080, the speed-up whole and in the largest type from the 800 × 600 minimum to 2560 ×
1440, the figures' column wider in a wider window, a status line that never runs into
its neighbours, progress words that fit their bar, and numbers never parted from their units."""

import itertools

import pytest
from helpers.window import RUN_TIMEOUT_MS, run
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics, QTextDocument
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea

from blurapp.core.engines.jax_eager_engine import JAX_EAGER
from blurapp.ui.text_fitting import keep_whole

DEMO_FIGURES = [
    "speedup",
    "speedup_end_to_end",
    "numpy.steady",
    "jit.first_call",
    "jit.steady",
    "max_abs_diff",
]


def settle(window, width, height):
    """`window` at width × height, laid out. (The tests' screen is 800 × 800: a full-screen
    window takes a projector's size only as a geometry set.)"""
    QApplication.processEvents()  # a full-screen window going full screen first
    window.setGeometry(0, 0, width, height)
    for _ in range(3):  # the captions' heights follow their widths a layout pass later
        QApplication.processEvents()
    assert (window.width(), window.height()) == (width, height)


def shown_lines(label: QLabel) -> list[str]:
    """The lines `label`'s text is drawn in at the label's width, as a reader sees them."""
    document = QTextDocument()
    document.setDocumentMargin(0)
    document.setDefaultFont(label.font())
    if label.textFormat() == Qt.TextFormat.PlainText:
        document.setPlainText(label.text())
    else:
        document.setHtml(label.text())
    if label.wordWrap():
        document.setTextWidth(label.contentsRect().width())
    document.size()  # lays it out
    lines = []
    block = document.begin()
    while block.isValid():
        layout = block.layout()
        for number in range(layout.lineCount()):
            line = layout.lineAt(number)
            text = block.text()[line.textStart() : line.textStart() + line.textLength()]
            lines.append(text.replace("\u00a0", " ").replace("\u2060", "").strip())
        block = block.next()
    return lines


def fully_on_screen(label: QLabel, scroll: QScrollArea) -> bool:
    """Whether all of `label`'s text is drawn inside the part of `scroll` one sees unscrolled."""
    viewport = scroll.viewport()
    place = QRect(label.mapTo(viewport, QPoint(0, 0)), label.size())
    whole = label.heightForWidth(label.width()) if label.wordWrap() else label.sizeHint().height()
    width_needed = (
        0 if label.wordWrap() else QFontMetrics(label.font()).horizontalAdvance(label.text())
    )
    return (
        label.isVisible()
        and scroll.verticalScrollBar().value() == 0
        and viewport.rect().contains(place)
        and whole <= label.height()
        and width_needed <= label.contentsRect().width()
    )


def figures_scroll(window) -> QScrollArea:
    return window.widgets.figures.findChild(QScrollArea)


@pytest.fixture
def compared(window, qtbot):
    run(qtbot, window)
    return window


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1600, 1000), (1920, 1080)], ids=["1600x1000", "1920x1080"])
def test_presentation_shows_every_figure_of_the_demo_without_scrolling(compared, qtbot, size):
    window = compared
    window.actions.presentation.trigger()
    settle(window, *size)  # the full screen of a projector this size
    scroll = figures_scroll(window)
    for name in DEMO_FIGURES:
        labels = window.widgets.figures.value_labels(name)
        assert labels, name
        for label in labels:
            assert fully_on_screen(label, scroll), (name, label.text())
    assert fully_on_screen(window.widgets.figures.chart_caption, scroll)
    chart = window.widgets.figures.chart
    assert QRect(chart.mapTo(scroll.viewport(), QPoint(0, 0)), chart.size()).bottom() <= (
        scroll.viewport().height()
    )
    # The speed-up is the largest figure on the screen.
    speedup = window.widgets.figures.value_labels("speedup")[0]
    for name in DEMO_FIGURES[1:]:
        figure = window.widgets.figures.value_labels(name)[0]
        assert speedup.font().pointSizeF() > figure.font().pointSizeF()


@pytest.mark.parametrize(
    "size",
    [(800, 600), (1024, 640), (1920, 1080), (2560, 1440)],
    ids=["800x600", "1024x640", "1920x1080", "2560x1440"],
)
def test_the_speedup_is_the_largest_type_and_shows_whole_at_every_size(compared, size):
    window = compared
    settle(window, *size)
    figure, detail = window.widgets.figures.value_labels("speedup")
    assert figure.text().endswith("×") and "NumPy" in detail.text()
    for label in (figure, detail):
        place = QRect(label.mapTo(window, QPoint(0, 0)), label.size())
        assert label.isVisible() and window.rect().contains(place), (size, label.text())
    assert QFontMetrics(figure.font()).horizontalAdvance(figure.text()) <= figure.width()
    assert detail.heightForWidth(detail.width()) <= detail.height(), detail.text()
    others = [
        label
        for label in window.findChildren(QLabel)
        if label.isVisible() and label.text() and label is not figure
    ]
    largest = max(QFontMetrics(label.font()).height() for label in others)
    assert QFontMetrics(figure.font()).height() >= 1.7 * largest


# What a reader looks for after a Run: the speed-up, the two steady times it divides, and how far
# the results differ.
KEY_FIGURES = ["speedup", "numpy.steady", "jit.steady", "max_abs_diff"]


def seen_unscrolled(label: QLabel, window) -> bool:
    """Whether `label` is drawn whole in the figures panel with the rows' scrolling at its top:
    inside the scroll area's viewport when it is one of the rows, else inside the panel."""
    figures, scroll = window.widgets.figures, figures_scroll(window)
    inside = scroll.viewport() if scroll.widget().isAncestorOf(label) else figures
    place = QRect(label.mapTo(inside, QPoint(0, 0)), label.size())
    text_width = QFontMetrics(label.font()).horizontalAdvance(label.text())
    return (
        label.isVisible()
        and scroll.verticalScrollBar().value() == 0
        and inside.rect().contains(place)
        and QRect(label.mapTo(window, QPoint(0, 0)), label.size()).bottom() < window.height()
        and (label.wordWrap() or text_width <= label.contentsRect().width())
    )


@pytest.mark.parametrize("size", [(1024, 640), (1366, 768)], ids=["1024x640", "1366x768"])
def test_the_key_figures_show_after_a_run_without_scrolling(make_window, qtbot, size):
    # As users have it: the live preview on, which names the first call's bar by who paid it
    # ("JAX first call (live preview)"), the longest bar name.
    window = make_window(live=True)
    previews = []
    window.display.live_shown.connect(previews.append)
    qtbot.waitUntil(lambda: {"numpy", "jax"} <= set(previews), timeout=RUN_TIMEOUT_MS)
    settle(window, *size)
    run(qtbot, window)
    figures = window.widgets.figures
    chart = figures.chart
    # The new rows laid out, and the chart as tall as its names' lines need.
    qtbot.waitUntil(lambda: chart.height() >= chart.heightForWidth(chart.width()))
    for name in KEY_FIGURES:
        labels = figures.value_labels(name)
        assert labels, name
        assert seen_unscrolled(labels[0], window), (size, name, labels[0].text())
    # The chart names every bar whole, on two lines where its column is narrow.
    layout = chart.layout_for_width(chart.width())
    # Named by who paid it: the live preview, or a compile before it in this process.
    assert any(bar.name.startswith("JAX first call (") for bar in layout.bars)
    metrics = QFontMetrics(chart.font())
    for bar in layout.bars:
        assert " ".join(bar.name_lines) == bar.name
        room = layout.name_width - 6
        assert all(metrics.horizontalAdvance(line) <= room for line in bar.name_lines)


def test_the_figures_column_takes_a_share_of_a_wider_window(compared):
    window = compared
    widths = {}
    for size in [(1024, 640), (1920, 1080), (2560, 1440)]:
        settle(window, *size)
        widths[size[0]] = window.widgets.side_panel.width()
    assert widths[1024] < widths[1920] < widths[2560]
    assert widths[2560] >= 0.2 * 2560
    # The pictures keep most of the window.
    assert all(width <= 0.5 * window_width for window_width, width in widths.items())


def test_a_long_status_message_is_cut_short_before_the_zoom(make_window, tmp_path):
    from helpers.photos import photo_file

    folder = tmp_path / ("a folder with a very long name for the photos of the holiday " * 3)
    folder.mkdir()
    window = make_window(photo_file(folder, "beach.png"))
    settle(window, 800, 600)
    status, zoom = window.widgets.status_label, window.widgets.zoom_label
    assert str(folder.name)[:30] in status.text()  # the whole message is still its text
    shown = status.shown_text()
    assert shown.endswith("…") and len(shown) < len(status.text())
    assert QFontMetrics(status.font()).horizontalAdvance(shown) <= status.contentsRect().width()
    assert status.geometry().right() < zoom.geometry().left()
    assert status.toolTip() == status.text()  # the rest is a hover away
    assert zoom.text().startswith("Zoom ") and zoom.width() >= zoom.sizeHint().width()


def test_the_progress_words_fit_their_bar(make_window, qtbot):
    window = make_window()
    settle(window, 800, 600)
    window.controller.set_timed(JAX_EAGER.name, True)
    window.set_parameters(kernel_size=41)
    bar = window.widgets.progress_bar
    with qtbot.waitSignal(
        window.display.progress_shown,
        timeout=RUN_TIMEOUT_MS,
        check_params_cb=lambda engine, done, total: engine == JAX_EAGER.name and done > 0,
    ):
        window.controller.run()
    QApplication.processEvents()
    try:
        assert bar.isVisible() and bar.text().startswith("JAX without jit ")
        widest = QFontMetrics(bar.font()).horizontalAdvance("JAX without jit 100%")
        assert bar.text_rect_width() >= widest
        assert bar.geometry().right() < window.widgets.zoom_label.geometry().left()
    finally:
        with qtbot.waitSignal(window.display.run_stopped, timeout=RUN_TIMEOUT_MS):
            window.controller.cancel_by_user()


WHOLE = ["9 × 9", "σ 2.5", "0.24 MP", "600 × 400", "sigma 2.5", "GB/s"]


def parted(label: QLabel) -> list[str]:
    """The phrases of WHOLE that `label` draws split over two lines."""
    lines = shown_lines(label)
    return [
        phrase
        for first, second in itertools.pairwise(lines)
        for phrase in WHOLE
        if any(
            phrase[:cut].strip()
            and phrase[cut:].strip()
            and first.endswith(phrase[:cut].rstrip())
            and second.startswith(phrase[cut:].lstrip())
            for cut in range(1, len(phrase))
        )
    ]


def test_numbers_keep_their_units_in_the_captions_and_figures(compared):
    window = compared
    settle(window, 800, 600)
    labels = [pane.caption for pane in window.widgets.panes]
    labels += [
        label
        for name in window.widgets.figures.names()
        for label in window.widgets.figures.value_labels(name)
    ]
    assert any("9 × 9" in " ".join(shown_lines(label)) for label in labels)
    assert any("0.24 MP" in " ".join(shown_lines(label)) for label in labels)
    assert any("GB/s" in " ".join(shown_lines(label)) for label in labels)
    for label in labels:
        assert parted(label) == [], shown_lines(label)
    # At every width a pane's caption can have, too.
    caption = window.widgets.left_pane.caption
    for width in range(120, 400, 9):
        caption.setFixedWidth(width)
        assert parted(caption) == [], (width, shown_lines(caption))


@pytest.mark.slow
def test_the_words_keep_plain_spaces_for_the_command_line_and_json(compared):
    """Only the window's rendering joins them: the figures' own words are unchanged."""
    window = compared
    assert window.widgets.figures.value("kernel") == "9 × 9, sigma 2.5"
    assert "\u00a0" not in window.widgets.left_pane.caption_text()
    assert keep_whole("0.24 MP, 9 × 9, σ 2.5, 10 ms") == (
        "0.24\u00a0MP, 9\u00a0×\u00a09, σ\u00a02.5, 10\u00a0ms"
    )
    assert keep_whole("2 samples, 3 s") == "2 samples, 3\u00a0s"
    assert keep_whole("27.9 GB/s") == "27.9\u00a0GB/\u2060s"


def test_the_sweep_labels_this_photo_inside_the_chart_at_its_largest_size(qtbot):
    from blurapp.core.measuring.sweep import SweepPoint
    from blurapp.ui.sweep_chart import SweepChart

    chart = SweepChart()
    qtbot.addWidget(chart)
    chart.resize(420, 320)
    photo = 2400 * 1600 / 1e6  # the photo is the largest size swept, at the chart's right edge
    chart.set_engines(["numpy", "jax"], photo)
    points = [
        SweepPoint(w, h, ("numpy", "jax"), {"numpy": s, "jax": s / 8}, {}, {"jax": 8.0})
        for w, h, s in [(387, 258, 0.01), (1200, 800, 0.08), (2400, 1600, 0.3)]
    ]
    chart.set_points(points)
    chart.show()
    qtbot.waitExposed(chart)
    chart.grab()
    box = chart.photo_label_rect
    assert box is not None
    assert box.left() >= 0 and box.right() <= chart.width() - 4


@pytest.mark.slow
def test_presentation_shows_every_figure_after_the_live_preview_compiled_jax(
    make_window, qtbot, tmp_path
):
    # As users have it: the live preview on, so the JAX figure's first call says it was paid
    # during the live preview, the longest wording of the demo's figures. A photo size of its
    # own, so that no other test has compiled JAX-jit's program for it.
    from helpers.photos import photo_file

    window = make_window(photo_file(tmp_path, size=(211, 149)), live=True)
    previews = []
    window.display.live_shown.connect(previews.append)
    qtbot.waitUntil(lambda: {"numpy", "jax"} <= set(previews), timeout=RUN_TIMEOUT_MS)
    run(qtbot, window)
    assert "compiled during the live preview" in window.widgets.figures.value("jit.first_call")
    window.actions.presentation.trigger()
    settle(window, 1600, 1000)
    scroll = figures_scroll(window)
    for name in DEMO_FIGURES:
        for label in window.widgets.figures.value_labels(name):
            assert fully_on_screen(label, scroll), (name, label.text())
    # The figure in presentation type, how it was paid beside it in the smaller type.
    figure, paid = window.widgets.figures.value_labels("jit.first_call")
    assert figure.text().endswith("ms") and "live preview" in paid.text()


def test_a_rate_keeps_its_unit_whole_at_every_width(qtbot):
    # "74.7 GB/ s" was split after its slash where the copy's row wrapped.
    label = QLabel(
        keep_whole(
            "0.026 ms on cpu, 74.7 GB/s (the image read once and written once: the least any "
            "blur can take)"
        )
    )
    label.setWordWrap(True)
    qtbot.addWidget(label)
    for width in range(100, 400, 3):
        label.setFixedWidth(width)
        assert parted(label) == [], (width, shown_lines(label))


def test_a_status_cut_short_by_larger_type_has_its_whole_text_a_hover_away(qtbot):
    """The same words, set again or not, in type that no longer fits: the tooltip follows
    the type as it follows the width."""
    from blurapp.ui.text_fitting import ElidedLabel

    label = ElidedLabel()
    qtbot.addWidget(label)
    words = "Playing: JAX-jit 35.6 frames/s, NumPy 1.2 frames/s"
    label.setText(words)
    label.resize(QFontMetrics(label.font()).horizontalAdvance(words) + 20, 30)
    label.show()
    qtbot.waitExposed(label)
    assert label.shown_text() == words and label.toolTip() == ""
    normal = label.font()
    large = QFont(normal)
    large.setPointSizeF(normal.pointSizeF() * 3)
    label.setFont(large)
    label.setText(words)  # a playing clip's status, set again at its next look
    assert label.shown_text() != words and label.toolTip() == words
    label.setFont(normal)
    assert label.shown_text() == words and label.toolTip() == ""
