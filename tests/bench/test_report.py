"""`blurapp bench --record`: the figures as a record (command, machine, versions, date, typed
rows) in strict JSON; the Markdown tables made from a record; and the performance page's
committed tables, which must be what the renderer makes of the committed records now."""

import html
import json
import os
import platform
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from helpers.command_line import blurapp
from helpers.performance_pages import renderer

import blurapp as blurapp_package
from blurapp.bench.record import read_record_document, record_document, record_json
from blurapp.bench.record_markdown import document_markdown, headline_markdown, record_markdown

ROW_KEYS = {"section", "what", "engine", "value", "unit", "low", "high", "how"}
PERFORMANCE = Path(__file__).resolve().parents[2] / "docs" / "performance"
QUICK = ("--sections", "engines", "--megapixels", "0.01", "--kernel-sizes", "3")


def strict_json(text: str):
    def refuse(constant):
        raise AssertionError(f"{constant} in what must be strict JSON")

    return json.loads(text, parse_constant=refuse)


def test_a_quick_bench_records_its_command_machine_versions_date_and_typed_rows(tmp_path):
    out = tmp_path / "record.json"
    start = datetime.now(UTC).replace(microsecond=0)
    # The user's own glibc settings, each of those the start would add among them, which it
    # keeps as they are: the record says them.
    own = (
        "glibc.malloc.hugetlb=0:glibc.malloc.mmap_threshold=65536:"
        "glibc.malloc.trim_threshold=131072:glibc.malloc.arena_max=2"
    )
    env = {**os.environ, "GLIBC_TUNABLES": own}
    run = blurapp(
        "bench", *QUICK, "--engines", "numpy,jax", "--record", out, "--note", "a test", env=env
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("machine: ") and lines[-1] == f"wrote {out}"
    assert len(lines) == 8  # the table as without --record, then the line above

    document = strict_json(out.read_text(encoding="utf-8"))
    assert document["format"] == "blurapp-bench-record" and document["format_version"] == 1
    [record] = document["records"]
    assert record["command"] == (
        f"blurapp bench {' '.join(QUICK)} --engines numpy,jax --record {out} --note 'a test'"
    )
    assert start <= datetime.fromisoformat(record["date"]) <= start + timedelta(minutes=5)
    assert record["note"] == "a test"
    machine = record["machine"]
    assert machine["cores"] >= 1 and machine["cpu"] and machine["device"]
    assert machine["memory_bytes"] > 2**28
    assert machine["glibc_tunables"] == own
    versions = record["versions"]
    assert versions["blurapp"] == blurapp_package.__version__
    assert versions["python"] == platform.python_version()
    assert versions["numpy"] == np.__version__
    assert versions["jax"] and versions["jaxlib"]
    assert versions["scipy"] is None and versions["opencv"] is None  # the engines use neither

    rows = record["rows"]
    for row in rows:
        assert set(row) == ROW_KEYS, row
        assert all(isinstance(row[key], str) and row[key] for key in ("section", "what", "how"))
        assert row["unit"] in ("ms", "×", "GFLOP/s", "GB/s")
        assert isinstance(row["value"], float) and row["value"] > 0, row
    steady = {(row["what"], row["engine"]) for row in rows if row["unit"] == "ms"}
    for algorithm in ("2d", "separable"):
        case = f"123×82 (0.01 MP), 3×3 {algorithm}"
        assert {(case, "NumPy"), (case, "JAX-jit"), (f"{case}, first call", "JAX-jit")} <= steady
        [speedup] = [row for row in rows if row["what"] == f"{case}, speed-up"]
        assert speedup["engine"] == "JAX-jit" and speedup["unit"] == "×"
        # Taken round by round, with the middle half of the rounds as its range.
        assert "in each round" in speedup["how"]
        assert speedup["low"] <= speedup["value"] <= speedup["high"]


def test_a_record_that_cannot_be_written_fails_before_measuring(tmp_path):
    out = tmp_path / "missing" / "record.json"
    run = blurapp("bench", *QUICK, "--record", out)
    assert run.returncode == 1
    assert run.stderr.splitlines() == [f"error: {out}: the folder {out.parent} does not exist"]
    assert run.stdout == ""


def test_no_nan_or_infinity_reaches_a_record():
    from blurapp.bench.record import figure_rows
    from blurapp.core.engines import get_engine

    engines = [get_engine("numpy"), get_engine("jax")]
    figures = {"seconds": 0.01, "seconds_all": [0.01] * 4, "seconds_quartiles": [0.009, 0.011]}
    result = {
        "megapixels": 0.01,
        "width": 123,
        "height": 82,
        "kernel": {"size": 3, "sigma": 2.5, "algorithm": "2d"},
        "numpy": figures,
        "jax": {**figures, "seconds": float("inf"), "speedup": float("nan")},
        "floor_seconds": float("nan"),
    }
    rows = figure_rows({"results": [result]}, engines)
    assert [row["value"] for row in rows if row["engine"] == "JAX-jit"] == [None, None]
    strict_json(record_json(record_document([{"rows": rows}])))
    with pytest.raises(ValueError):
        record_json({"value": float("nan")})
    with pytest.raises(ValueError, match=r"x\.json: NaN"):
        read_record_document('{"format": "blurapp-bench-record", "value": NaN}', "x.json")
    with pytest.raises(ValueError, match=r"x\.json: not a record"):
        read_record_document('{"results": []}', "x.json")


def test_a_record_keeps_the_end_to_end_speed_up_of_an_engine_on_a_device_and_how_it_was_made():
    from blurapp.bench.record import figure_rows
    from blurapp.core.engines import get_engine

    engines = [get_engine("numpy"), get_engine("jax"), get_engine("pallas")]
    figures = {"seconds": 0.01, "seconds_all": [0.01] * 4, "seconds_quartiles": [0.009, 0.011]}
    on_device = {**figures, "seconds": 0.001, "speedup": 10.0, "to_device_seconds": 0.002}
    result = {
        "megapixels": 24.0,
        "width": 6000,
        "height": 4000,
        "kernel": {"size": 9, "sigma": 2.5, "algorithm": "2d"},
        "numpy": figures,
        "jax": {**on_device, "speedup_end_to_end": 4.0, "end_to_end_bands": 4},
        "pallas": {**on_device, "speedup_end_to_end": 2.5, "end_to_end_bands": 1},
    }
    rows = [
        row for row in figure_rows({"results": [result]}, engines) if "end to end" in row["what"]
    ]
    assert [(row["engine"], row["value"], row["unit"]) for row in rows] == [
        ("JAX-jit", 4.0, "×"),
        ("JAX Pallas", 2.5, "×"),
    ]
    assert "in 4 bands, their copies overlapping the blur" in rows[0]["how"]
    assert "one copy each way, waited for in turn" in rows[1]["how"]


RECORD = {
    "command": "blurapp bench --sections yardsticks",
    "date": "2026-12-03T08:00:00+00:00",
    "machine": {
        "system": "Linux x86_64",
        "cpu": "AMD EPYC",
        "cores": 2,
        "memory_bytes": 24 * 2**30,
        "device": "cpu",
    },
    "versions": {"blurapp": "0.1.0", "python": "3.11.7", "numpy": "2.4.6", "opencv": None},
    "note": "under load",
    "rows": [
        {
            "section": "yardsticks",
            "what": "JAX-jit 2-D, grey",
            "engine": "JAX-jit",
            "value": 130.4,
            "unit": "ms",
            "low": 95.6,
            "high": 242.0,
            "how": "median of 5",
        },
        {
            "section": "yardsticks",
            "what": "a | b",
            "engine": None,
            "value": None,
            "unit": "ms",
            "low": None,
            "high": None,
            "how": "missing: no OpenCV",
        },
        {
            "section": "startup",
            "what": "window shown after launch",
            "engine": None,
            "value": 740.6,
            "unit": "ms",
            "low": None,
            "high": None,
            "how": "median of 5 launches",
        },
    ],
}


def test_the_markdown_of_a_record_has_its_command_machine_versions_and_rows():
    text = record_markdown(RECORD)
    lines = text.splitlines()
    assert "- **Command:** `blurapp bench --sections yardsticks`" in lines
    assert "- **Machine:** Linux x86_64, AMD EPYC, 2 cores, 24 GiB memory; JAX device: cpu" in lines
    assert "- **Versions:** BlurApp 0.1.0, Python 3.11.7, NumPy 2.4.6" in lines
    assert "- **Date:** 2026-12-03T08:00:00+00:00" in lines
    assert "- **Conditions:** under load" in lines
    assert lines.count("| what | engine | figure | how measured |") == 2  # a table a section
    assert "| JAX-jit 2-D, grey | JAX-jit | 130 (95.6–242) ms | median of 5 |" in lines
    assert "| a \\| b |  | — | missing: no OpenCV |" in lines
    assert "| window shown after launch |  | 741 ms | median of 5 launches |" in lines
    assert lines.index("**Yardsticks**") < lines.index("**Start-up**")
    two = document_markdown(record_document([RECORD, {**RECORD, "command": "blurapp bench"}]))
    assert two.count("| JAX-jit 2-D, grey |") == 2 and "- **Command:** `blurapp bench`" in two


def test_the_markdown_of_a_record_says_what_glibc_was_asked_for():
    machine = {
        **RECORD["machine"],
        "glibc_tunables": "glibc.malloc.hugetlb=1:glibc.malloc.trim_threshold=4294967296",
    }
    lines = record_markdown({**RECORD, "machine": machine}).splitlines()
    assert (
        "- **Machine:** Linux x86_64, AMD EPYC, 2 cores, 24 GiB memory; JAX device: cpu; glibc: "
        "`glibc.malloc.hugetlb=1:glibc.malloc.trim_threshold=4294967296`"
    ) in lines


def _engines_row(what, engine, value, unit="ms", spread=(None, None)):
    low, high = spread
    row = {"section": "engines", "what": what, "engine": engine, "value": value, "unit": unit}
    return {**row, "low": low, "high": high, "how": "median"}


ENGINES_RECORD = {
    **RECORD,
    "rows": [
        _engines_row("670×447 (0.3 MP), 9×9 2d", "NumPy", 11.4, spread=(9.05, 13.7)),
        _engines_row("670×447 (0.3 MP), 9×9 2d, first call", "JAX-jit", 214.0),
        _engines_row("670×447 (0.3 MP), 9×9 2d", "JAX-jit", 1.46, spread=(1.37, 2.19)),
        _engines_row("670×447 (0.3 MP), 9×9 2d, speed-up", "JAX-jit", 7.81, unit="×"),
        _engines_row("670×447 (0.3 MP), 9×9 2d, one copy of the image", "NumPy", 0.0273),
        _engines_row("6000×4000 (24 MP), 9×9 separable", "NumPy", 206.0),
        _engines_row("6000×4000 (24 MP), 9×9 separable", "JAX-jit", None),
        *RECORD["rows"],  # other sections: the page's, not the headline's
    ],
}


def test_the_headline_table_has_a_row_per_image_and_kernel_with_each_engines_figures():
    lines = headline_markdown(ENGINES_RECORD).splitlines()
    assert "- **Command:** `blurapp bench --sections yardsticks`" in lines
    assert "- **Date:** 2026-12-03T08:00:00+00:00" in lines
    assert "- **Conditions:** under load" in lines
    table = lines[
        lines.index(
            "| image | kernel | NumPy | JAX-jit | JAX-jit first call | JAX-jit speed-up |"
        ) :
    ]
    assert table[2:] == [
        "| 670×447 (0.3 MP) | 9×9 2d | 11.4 (9.05–13.7) ms | 1.46 (1.37–2.19) ms | 214 ms | 7.81× |",
        "| 6000×4000 (24 MP) | 9×9 separable | 206 ms | — |  |  |",
    ]
    with pytest.raises(ValueError, match="no engines figures"):
        headline_markdown(RECORD)


HOSTILE = {
    **RECORD,
    "command": "blurapp bench --note '`<script>alert(1)</script>`'",
    "machine": {**RECORD["machine"], "cpu": "<img src=x onerror=alert(1)>", "device": "<b>gpu"},
    "versions": {"blurapp": "<svg onload=alert(1)>"},
    "note": "<script>alert(1)</script>\n<p>hot & busy",
    "rows": [
        {
            **RECORD["rows"][0],
            "section": "<svg onload=alert(2)>",
            "what": "<img src=x onerror=alert(3)> | b",
            "engine": "<script>x</script>",
            "unit": "<i>",
            "how": "<a href=javascript:alert(4)>median</a>",
        }
    ],
}


def test_html_in_a_record_is_shown_as_text_not_passed_to_the_page():
    lines = record_markdown(HOSTILE).splitlines()
    note = "&lt;script&gt;alert(1)&lt;/script&gt; &lt;p&gt;hot &amp; busy"  # on one line
    assert f"- **Conditions:** {note}" in lines
    assert (
        "- **Machine:** Linux x86_64, &lt;img src=x onerror=alert(1)&gt;, 2 cores, 24 GiB memory; "
        "JAX device: &lt;b&gt;gpu"
    ) in lines
    assert "- **Versions:** BlurApp &lt;svg onload=alert(1)&gt;" in lines
    assert "**&lt;svg onload=alert(2)&gt;**" in lines
    assert (
        "| &lt;img src=x onerror=alert(3)&gt; \\| b | &lt;script&gt;x&lt;/script&gt; "
        "| 130 (95.6–242) &lt;i&gt; | &lt;a href=javascript:alert(4)&gt;median&lt;/a&gt; |"
    ) in lines
    # The command stays a code span, whatever backticks it holds: shown as typed.
    assert "- **Command:** ``blurapp bench --note '`<script>alert(1)</script>`'``" in lines


def test_a_hostile_record_renders_to_no_html_element_of_its_own():
    markdown_it = pytest.importorskip("markdown_it")  # the parser under MyST (the docs extra)
    html = markdown_it.MarkdownIt("commonmark").enable("table").render(record_markdown(HOSTILE))
    for tag in ("<script", "<img", "<svg", "<b>", "<i>", "<a ", "<p>hot"):
        assert tag not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<code>blurapp bench --note '`&lt;script&gt;alert(1)&lt;/script&gt;`'</code>" in html


MARKUP_NOTE = (
    "![chart](http://example.com/x.png) [see](http://example.com) *hot* _busy_ **bold** "
    "{code}`role` `span` \\ ~~gone~~ &amp; x86_64 2*3*4 [ref] <http://example.com>"
)


def test_markdown_and_myst_in_a_record_are_shown_as_typed():
    markdown_it = pytest.importorskip("markdown_it")
    myst_role = pytest.importorskip("mdit_py_plugins.myst_role")
    record = {**RECORD, "note": MARKUP_NOTE, "machine": {**RECORD["machine"], "cpu": "*fast*"}}
    parser = markdown_it.MarkdownIt("commonmark").enable(["table", "strikethrough"])
    page = parser.use(myst_role.myst_role_plugin).render(record_markdown(record))
    [conditions] = [line for line in page.splitlines() if "Conditions:" in line]
    shown = conditions.split("</strong> ", 1)[1].removesuffix("</li>")
    for tag in ("<img", "<a ", "<em", "<strong", "<code", "<s>", "<del"):
        assert tag not in shown
    assert html.unescape(shown) == MARKUP_NOTE  # the note as typed, character for character
    assert "<li><strong>Machine:</strong> Linux x86_64, *fast*, 2 cores" in page


def test_the_committed_performance_tables_are_what_the_renderer_makes_of_the_records():
    render = renderer()
    records = sorted(PERFORMANCE.glob("*.json"))
    assert len(records) >= 2  # this machine's CPU figures, and the GPU's
    page = (PERFORMANCE.parent / "performance.md").read_text(encoding="utf-8")
    for path in records:
        read_record_document(path.read_text(encoding="utf-8"), path.name)  # strict JSON
        markdown = path.with_suffix(".md")
        assert markdown.read_text(encoding="utf-8") == render.rendered(path), (
            f"{markdown} is stale: run python docs/performance/render.py"
        )
        assert f"performance/{markdown.name}" in page, f"the page does not include {markdown}"


def test_a_multiple_under_its_floor_is_marked_and_the_mark_explained():
    from blurapp.bench.report import BEATEN_MARK, _multiple, column_lines
    from blurapp.core.engines import get_engine

    cell = _multiple("jax", "compute_floor_multiple")
    assert cell({"jax": {"compute_floor_multiple": 0.42}}) == f"0.4×{BEATEN_MARK}"
    assert cell({"jax": {"compute_floor_multiple": 3.0}}) == "3.0×"
    words = " ".join(column_lines([get_engine("numpy"), get_engine("jax")]))
    assert f"{BEATEN_MARK}: quicker than the floor as it was timed, so no bound this time" in words


def test_the_memory_section_gives_its_floor_first_and_a_launch_that_failed_as_failed():
    from blurapp.bench.record import figure_rows
    from blurapp.bench.report import section_lines

    figures = {
        "photo": "photo.png",
        "jax_alone_peak_bytes": None,  # JAX could not open its device
        "compare_peak_bytes": 16_020_000_000,
        "big_megapixels": 100.0,
        "big_peak_bytes": 17_170_000_000,
    }
    lines = section_lines("memory", figures)
    assert [line.split("  ")[1].strip() for line in lines[2:]] == [
        "JAX alone, its device opened",
        "blurapp compare on the large photo",
        "a 100 MP comparison (core)",
    ]
    assert lines[2].endswith("— (failed)") and lines[3].endswith("16,020 MB")
    assert len({len(line) for line in lines[2:]}) == 1  # the figures in one column
    rows = figure_rows({"memory": figures}, [])
    assert [(row["what"], row["value"]) for row in rows] == [
        ("JAX alone, its device opened (the floor)", None),
        ("blurapp compare on the large photo", 16020.0),
        ("a 100 MP comparison (core)", 17170.0),
    ]
