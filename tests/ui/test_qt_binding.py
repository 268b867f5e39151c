"""Guards against a Qt binding that would crash BlurApp, whatever the tests above do."""

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    changed = Signal(float)


def test_emitting_a_signal_keeps_pythons_reference_counts_intact():
    # PySide6 6.12.0 released a reference to True on every emit; Python 3.11 then aborts with
    # "bool_dealloc" at exit, after a window has emitted its signals a few thousand times.
    emitter = _Emitter()
    received = []
    emitter.changed.connect(received.append)
    before = sys.getrefcount(True)
    for _ in range(200):
        emitter.changed.emit(1.0)
    assert len(received) == 200
    assert sys.getrefcount(True) >= before - 5
