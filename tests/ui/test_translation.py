"""The window in Simplified Chinese, and translation files that are complete and current."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.window import RUN_TIMEOUT_MS

from blurapp.core.measuring.contention import Verdict
from blurapp.ui.translations import TRANSLATIONS, install_translations

ROOT = Path(__file__).resolve().parents[2]


def qt_tool(name):
    """Qt's `name` tool (lupdate, lrelease) as PySide6 ships it, inside its package: there
    wherever PySide6 is, console scripts or not (`pip install --target`, as on the TPU machine,
    puts no pyside6-lupdate on PATH)."""
    import PySide6

    return str(Path(PySide6.__file__).resolve().parent / name)


@pytest.fixture
def chinese(qapp):
    translators = install_translations(qapp, "zh_CN")
    assert translators, "the zh_CN translation did not load"
    yield
    for translator in translators:
        qapp.removeTranslator(translator)


@pytest.fixture
def window(chinese, make_window):
    # `chinese` first: a window takes its words when it is built.
    return make_window()


def test_menus_and_controls_are_in_chinese(window):
    menus = [action.text() for action in window.menuBar().actions()]
    assert menus == ["文件(&F)", "编辑(&E)", "视图(&V)", "运行(&R)", "片段(&C)", "帮助(&H)"]
    assert window.widgets.run_button.text() == "运行"
    assert window.actions.open.text() == "打开(&O)…"
    assert window.widgets.right_pane.engine_combo.itemText(3) == "不用 jit 的 JAX"
    assert window.widgets.engine_checks["numpy-loop"].text() == "NumPy，教程中的循环"
    assert window.widgets.engine_checks["jax-eager"].text() == "不用 jit 的 JAX"
    assert window.widgets.show_combo.itemText(2) == "差异"
    assert window.widgets.figures.title() == "测量数据"
    assert "尚未运行" in window.widgets.left_pane.caption_text()


def test_figure_labels_and_values_are_in_chinese(window, qtbot, monkeypatch):
    import blurapp.core.measuring.comparison

    # Timed as on a quiet machine: on a busy one (the suite's other workers) a row saying so
    # comes second, and the rows' order is what is checked here.
    monkeypatch.setattr(blurapp.core.measuring.comparison, "judge", Verdict)
    with qtbot.waitSignal(window.display.results_shown, timeout=RUN_TIMEOUT_MS):
        window.controller.run()

    def names(grid):
        return [
            grid.itemAtPosition(row, 0).widget().text()
            for row in range(grid.rowCount())
            if grid.itemAtPosition(row, 0)
        ]

    # The speed-up heads the figures; the steady times and the difference come under it, above
    # the chart; the other rows follow in their order.
    assert window.widgets.figures.headline_name.text() == "加速比"
    pinned = names(window.widgets.figures._pinned_grid)
    assert pinned[0] == "NumPy" and pinned[2] == "最大绝对误差"
    assert names(window.widgets.figures._grid)[:3] == ["图像", "卷积核", "JAX 首次调用"]
    assert "在 1e-05 以内" in window.widgets.figures.value("max_abs_diff")
    assert "的中位数，中间一半在" in window.widgets.figures.value("jit.steady")
    assert (
        window.widgets.right_pane.caption_text().startswith("JAX-jit · ")
        and "稳定" in window.widgets.right_pane.caption_text()
    )
    assert window.widgets.status_label.text().startswith("完成：")


def test_the_window_is_english_without_a_translation(make_window):
    window = make_window(wait=False)
    assert window.menuBar().actions()[0].text() == "&File"


def test_lang_en_installs_nothing(qapp):
    assert install_translations(qapp, "en") == []


def test_every_translatable_string_has_a_chinese_translation(tmp_path):
    ts = TRANSLATIONS / "blurapp_zh_CN.ts"
    assert 'type="unfinished"' not in ts.read_text(encoding="utf-8")
    copy = tmp_path / "check.ts"
    shutil.copy(ts, copy)
    # Every module that marks words for translation: the window, its Qt-free logic, the core's
    # and the scale layer's messages.
    sources = [
        str(path)
        for folder in ("ui", "app", "core", "scale")
        for path in sorted((ROOT / "blurapp" / folder).rglob("*.py"))
    ]
    run = subprocess.run(
        [qt_tool("lupdate"), *sources, "-ts", str(copy)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    # A new tr() string anywhere would show up here as "1 new" (and as unfinished).
    assert "(0 new " in run.stdout + run.stderr, run.stdout + run.stderr
    assert 'type="unfinished"' not in copy.read_text(encoding="utf-8")


def test_the_shipped_qm_is_built_from_the_ts(tmp_path):
    built = tmp_path / "check.qm"
    run = subprocess.run(
        [qt_tool("lrelease"), str(TRANSLATIONS / "blurapp_zh_CN.ts"), "-qm", str(built)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert built.read_bytes() == (TRANSLATIONS / "blurapp_zh_CN.qm").read_bytes()


@pytest.mark.slow
def test_lang_option_reaches_the_window(tmp_path):
    out = tmp_path / "zh.png"
    run = subprocess.run(
        [sys.executable, "-m", "blurapp", "--lang", "zh_CN", "--screenshot", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert out.stat().st_size > 10_000


def test_problems_with_a_file_are_told_in_chinese(window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    shown = []
    monkeypatch.setattr(
        QMessageBox, "warning", lambda parent, title, text, *a, **k: shown.append((title, text))
    )
    missing = tmp_path / "missing.png"
    with qtbot.waitSignal(window.message_shown, timeout=RUN_TIMEOUT_MS):
        window.open_file(missing)
    [(title, text)] = shown
    assert title == "无法打开照片"
    assert text == f"{missing}: 文件不存在"


def test_the_red_warning_does_not_depend_on_the_language(window):
    import numpy as np

    from blurapp.core import Compilation
    from blurapp.core.engines.runs import EngineRun
    from blurapp.core.measuring.comparison import ComparisonResult

    numpy_run = EngineRun(output=np.zeros((2, 2), np.float32), repeat_seconds=(0.1,))
    jax_run = EngineRun(
        output=np.full((2, 2), 0.01, np.float32),
        first_call_seconds=0.2,
        repeat_seconds=(0.01,),
        to_device_seconds=0.001,
        from_device_seconds=0.001,
        device="cpu",
        compilation=Compilation.COMPILED,
    )
    result = ComparisonResult(
        kernel=np.ones((1, 1), np.float32),
        sigma=1.0,
        runs={"numpy": numpy_run, "jax": jax_run},
    )
    assert result.within_tolerance is False
    window.widgets.figures.show_result(result, "x.png", 2, 2)
    assert "超出" in window.widgets.figures.value("max_abs_diff")
    assert "#c0392b" in window.widgets.figures._values["max_abs_diff"].styleSheet()
