"""A plugin engine (tests/helpers/plugin.py) in the registry of this process: found once,
forgotten, and each broken one a warning."""

import logging
import sys
from dataclasses import replace

from helpers.plugin import PLUGIN_COLOUR, write_distribution

from blurapp.bench.report import column_label
from blurapp.core.engines import Shown, engine_names, forget_plugins, get_engine
from blurapp.core.measuring.comparison import json_key
from blurapp.core.report.chart_bars import FALLBACK_COLOURS, chart_colour


def test_the_plugin_is_discovered_once_and_forgotten_after(installed):
    assert engine_names()[-1] == "scipy" and engine_names()[:1] == ("numpy",)
    engine = get_engine("scipy")
    assert engine.title == "SciPy" and chart_colour(engine) == PLUGIN_COLOUR
    assert get_engine("scipy") is engine  # not loaded again
    forget_plugins()
    sys.modules.pop("blurapp_scipy_plugin", None)
    assert "scipy" in engine_names()  # the next use found it again
    assert get_engine("scipy") is not engine


def test_plugins_that_cannot_be_registered_are_each_one_warning(tmp_path, monkeypatch, caplog):
    folder = write_distribution(
        tmp_path,
        "blurapp_odd_plugins",
        {
            "clash": "blurapp_odd_plugins:CLASH",
            "number": "blurapp_odd_plugins:NUMBER",
            "several": "blurapp_odd_plugins:several",
        },
        module="blurapp_odd_plugins",
        code="""
            from dataclasses import replace

            from blurapp.core.engines.numpy_engine import NUMPY

            CLASH = replace(NUMPY, title="Another NumPy")  # the name "numpy" is BlurApp's
            NUMBER = 42

            def several():
                return [replace(NUMPY, name="numpy-a", title="A"),
                        replace(NUMPY, name="numpy-b", title="B")]
        """,
    )
    monkeypatch.syspath_prepend(str(folder))
    forget_plugins()
    try:
        with caplog.at_level(logging.WARNING, logger="blurapp.core.engines"):
            names = engine_names()
        assert names[-2:] == ("numpy-a", "numpy-b")  # a function may give several engines
        assert get_engine("numpy").title == "NumPy"  # the built-in one stays
        warnings = [record.getMessage() for record in caplog.records]
        assert len(warnings) == 2, warnings
        clash, number = sorted(warnings)
        assert (
            "'clash = blurapp_odd_plugins:CLASH'" in clash and "'numpy' is BlurApp's own" in clash
        )
        assert "blurapp-odd-plugins 0.1" in clash
        assert "'number = blurapp_odd_plugins:NUMBER'" in number and "int" in number
        caplog.clear()
        engine_names()
        assert caplog.records == []  # found once: no second warning
    finally:
        monkeypatch.undo()  # the distribution leaves sys.path
        forget_plugins()
        sys.modules.pop("blurapp_odd_plugins", None)
    assert "numpy-a" not in engine_names()  # discovered again: it is gone


def test_a_plugin_written_for_engines_own_keywords_is_told_where_each_went(
    tmp_path, monkeypatch, caplog
):
    # BlurApp 0.1's Engine took colour=, strip_rows=, … itself; such a plugin is left out with
    # a warning that says where each keyword now goes, and every other engine stays.
    folder = write_distribution(
        tmp_path,
        "blurapp_old_plugin",
        {"old": "blurapp_old_plugin:OLD"},
        module="blurapp_old_plugin",
        code="""
            from blurapp.core.engines import Engine
            from blurapp.core.engines.numpy_engine import NUMPY

            OLD = Engine("old", "Old", NUMPY.first_call, colour="#17becf", strip_rows=64)
        """,
    )
    monkeypatch.syspath_prepend(str(folder))
    forget_plugins()
    try:
        with caplog.at_level(logging.WARNING, logger="blurapp.core.engines"):
            names = engine_names()
        assert "old" not in names and "numpy" in names
        (warning,) = [record.getMessage() for record in caplog.records]
        assert "'old = blurapp_old_plugin:OLD'" in warning
        assert "colour= goes in shown=Shown(colour=…)" in warning
        assert "strip_rows= goes in blocks=Blocks(strip_rows=…)" in warning
    finally:
        monkeypatch.undo()
        forget_plugins()
        sys.modules.pop("blurapp_old_plugin", None)


def test_the_chart_and_the_bench_table_show_a_plugins_engine_as_it_asks(installed):
    scipy = get_engine("scipy")
    assert chart_colour(scipy) == PLUGIN_COLOUR  # the colour its Engine asks for
    assert column_label(scipy) == "scipy"  # it asks for no heading: its name
    assert column_label(replace(scipy, shown=Shown(column="SciPy"))) == "SciPy"
    # One that asks for no colour: one of the fallbacks, chosen by its name alone.
    plain = replace(scipy, name="scipy-plain", shown=Shown())
    assert chart_colour(plain) in FALLBACK_COLOURS
    assert chart_colour(replace(plain, title="Other")) == chart_colour(plain)
    assert json_key("scipy-plain") == "scipy_plain"
