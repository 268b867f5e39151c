"""The status bar's progress of a run: at most one count every PROGRESS_INTERVAL_MS, a new
stage at once, the last count always, each painted with the rest of the window."""

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QProgressBar

from blurapp.ui.run_progress import RunProgress

TAPS = ("NumPy: {done} of 1000 kernel taps", "NumPy %p%")
TIMING = ("timing the engines: {done} of 40 calls", "timing %p%")
# Time enough for a timer of the progress interval, or a paint, on a busy machine.
WAIT_MS = 30_000


def words(stage, done):
    return stage[0].format(done=done), stage[1]


def make_progress(qtbot, running):
    bar, status = QProgressBar(), QLabel()
    qtbot.addWidget(bar)
    qtbot.addWidget(status)
    painted = []
    bar.valueChanged.connect(painted.append)
    return RunProgress(bar, status, lambda: running[0], bar), bar, status, painted


def test_a_burst_of_counts_shows_a_few_and_ends_on_the_last(qtbot):
    progress, bar, status, painted = make_progress(qtbot, [True])
    for done in range(1, 1001):
        progress.show(done, 1000, words(TAPS, done))
    # The first count of the stage at once; those that came within the interval wait.
    assert painted == [1] and status.text() == "NumPy: 1 of 1000 kernel taps"
    qtbot.waitUntil(lambda: bar.value() == 1000, timeout=WAIT_MS)
    assert painted == [1, 1000] and status.text() == "NumPy: 1000 of 1000 kernel taps"
    # A new stage shows at once, however soon after the last count.
    progress.show(1, 40, words(TIMING, 1))
    assert bar.format() == "timing %p%" and bar.maximum() == 40 and bar.value() == 1
    assert status.text() == "timing the engines: 1 of 40 calls"
    # The timing refines its total of calls as it goes: a count like any other.
    progress.show(2, 41, words(TIMING, 2))
    assert bar.value() == 1 and bar.maximum() == 40
    qtbot.waitUntil(lambda: bar.value() == 2, timeout=WAIT_MS)
    assert bar.maximum() == 41


def test_a_count_due_when_the_run_has_ended_is_not_shown(qtbot):
    running = [True]
    progress, _, status, painted = make_progress(qtbot, running)
    progress.show(1, 1000, words(TAPS, 1))
    progress.show(2, 1000, words(TAPS, 2))  # due after the interval
    running[0] = False  # the run ends: the status line says how it went
    status.setText("Done")
    # The moment the count was due, whenever a busy machine gets to it.
    with qtbot.waitSignal(progress.findChild(QTimer).timeout, timeout=WAIT_MS):
        pass
    assert painted == [1] and status.text() == "Done"


def test_a_count_is_painted_with_the_rest_of_the_window_not_at_once(qtbot):
    # QProgressBar.setValue alone repaints there and then, and with the bar whatever else
    # waits to be painted in the window: a cost paid for every count in the middle of a run.
    from PySide6.QtCore import QEvent, QObject

    class PaintCounter(QObject):
        paints = 0

        def eventFilter(self, watched, event):
            if event.type() == QEvent.Type.Paint:
                self.paints += 1
            return False

    progress, bar, _, _ = make_progress(qtbot, [True])
    counter = PaintCounter()
    bar.installEventFilter(counter)
    bar.show()
    qtbot.waitUntil(lambda: counter.paints >= 1, timeout=WAIT_MS)  # its first paint
    counter.paints = 0
    progress.show(500, 1000, words(TAPS, 500))
    assert bar.value() == 500 and counter.paints == 0
    qtbot.waitUntil(lambda: counter.paints >= 1, timeout=WAIT_MS)
