"""The performance page's Markdown tables, made from the records `blurapp bench --record`
writes (blurapp.bench.record): a section per machine run, with its command, machine, versions
and date.

A record's words (a note, a CPU's name, a row) are escaped as text, Markdown, MyST and HTML
alike: MyST passes HTML through to the page, and a record may come from anyone's machine."""

from __future__ import annotations

import html
import re

from blurapp.bench.record import FIRST_CALL, FLOOR_KINDS, SPEED_UP

_SECTION_TITLES = {
    "engines": "Engines",
    "sweep": "Scaling sweep",
    "yardsticks": "Yardsticks",
    "first-call": "First call across launches",
    "startup": "Start-up",
    "window": "Window",
    "live": "Live preview",
    "memory": "Memory",
    "scale": "Batch and blur by blocks",
}

_VERSION_NAMES = {
    "blurapp": "BlurApp",
    "python": "Python",
    "numpy": "NumPy",
    "jax": "JAX",
    "jaxlib": "jaxlib",
    "scipy": "SciPy",
    "opencv": "OpenCV",
}


def _number(value: float, unit: str) -> str:
    if unit == "×" and abs(value) < 10:
        return f"{value:.2f}"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def _figure_cell(row: dict) -> str:
    if row["value"] is None:
        return "—"
    unit = row["unit"]
    text = _number(row["value"], unit)
    if row.get("low") is not None and row.get("high") is not None:
        text += f" ({_number(row['low'], unit)}–{_number(row['high'], unit)})"
    return f"{text}{unit}" if unit in ("×", "%") else f"{text} {unit}"


# What can start Markdown's or MyST's inline markup: the escape itself, code spans and roles
# (`, {}), emphasis (*, and _ unless within a word, as in x86_64, where it cannot), strikethrough
# (~), links and images ([, ], !), a table's columns (|). HTML's <, > and & become entities.
_MARKUP = re.compile(r"[\\`*{}\[\]!~|]|(?<!\w)_|_(?!\w)")


def _text(text: object) -> str:
    """`text` shown as itself on one line: no HTML element, no link, image, emphasis, code or
    MyST role, no new Markdown block, no column of a table's row split off."""
    words = html.escape(_MARKUP.sub(lambda mark: "\\" + mark[0], str(text)), quote=False)
    return " ".join(words.splitlines())


def _cell(text: object) -> str:
    return "" if text is None else _text(text)


def _code(text: str) -> str:
    """`text` as a Markdown code span, shown as typed whatever backticks it holds: fenced by
    one more backtick than its longest run, and spaced off a backtick at either end."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    text = " ".join(text.splitlines())
    padded = f" {text} " if text.startswith("`") or text.endswith("`") else text
    return f"{fence}{padded}{fence}"


def _machine_line(machine: dict) -> str:
    memory = machine.get("memory_bytes")
    parts = [machine.get("system"), machine.get("cpu"), f"{machine.get('cores')} cores"]
    if memory:
        parts.append(f"{memory / 2**30:.0f} GiB memory")
    text = ", ".join(_text(part) for part in parts if part)
    tunables = machine.get("glibc_tunables")
    settings = f"; glibc: {_code(str(tunables))}" if tunables else ""
    return f"{text}; JAX device: {_text(machine.get('device'))}{settings}"


def _header_lines(record: dict) -> list[str]:
    """The record's command, machine, versions, date and conditions, a bullet each."""
    versions = ", ".join(
        _text(f"{_VERSION_NAMES.get(name, name)} {version}")
        for name, version in record["versions"].items()
        if version is not None
    )
    lines = [
        f"- **Command:** {_code(record['command'])}",
        f"- **Machine:** {_machine_line(record['machine'])}",
        f"- **Versions:** {versions}",
        f"- **Date:** {_text(record['date'])}",
    ]
    if record.get("note"):
        lines.append(f"- **Conditions:** {_text(record['note'])}")
    return lines


def record_markdown(record: dict) -> str:
    """A record as Markdown: the command, machine, versions and date, then a table per
    section (what, engine, figure with its range, how measured), in the rows' order."""
    lines = _header_lines(record)
    sections: dict[str, list[dict]] = {}
    for row in record["rows"]:
        sections.setdefault(row["section"], []).append(row)
    for section, rows in sections.items():
        lines += [
            "",
            f"**{_text(_SECTION_TITLES.get(section, section))}**",
            "",
            "| what | engine | figure | how measured |",
            "| --- | --- | --- | --- |",
        ]
        lines += [
            f"| {_cell(row['what'])} | {_cell(row['engine'])} | {_cell(_figure_cell(row))} "
            f"| {_cell(row['how'])} |"
            for row in rows
        ]
    return "\n".join(lines) + "\n"


def document_markdown(document: dict) -> str:
    """Every record of a document as Markdown, one after the other, a rule between."""
    return "\n---\n\n".join(record_markdown(record) for record in document["records"])


# The headline table's columns: each engine's steady median, then the first calls, then the
# speed-ups, so that the figures a reader compares stand side by side.
_HEADLINE_KINDS = (None, FIRST_CALL, SPEED_UP)


def _engines_what(what: str) -> tuple[str, str | None]:
    """An engines row's image and kernel, and which of its figures it is (None: the median)."""
    base, _, kind = what.rpartition(", ")
    if kind in (FIRST_CALL, SPEED_UP, *FLOOR_KINDS):
        return base, kind
    return what, None


def headline_markdown(record: dict) -> str:
    """A record's engines figures as one short table, the README's: a row per image and
    kernel, each engine's median (with its range), the first call and the speed-up of the
    engines that have them; above it, the record's command, machine, versions, date and
    conditions, as the performance page shows them. ValueError if it has no engines figures."""
    table: dict[str, dict[tuple[str | None, str | None], dict]] = {}
    columns: list[tuple[str | None, str | None]] = []
    for row in record["rows"]:
        if row["section"] != "engines":
            continue
        what, kind = _engines_what(row["what"])
        if kind in FLOOR_KINDS:  # the page's; the headline compares the engines
            continue
        table.setdefault(what, {})[row["engine"], kind] = row
        if (row["engine"], kind) not in columns:
            columns.append((row["engine"], kind))
    if not table:
        raise ValueError(f"the record of `{record['command']}` has no engines figures")
    columns.sort(key=lambda column: _HEADLINE_KINDS.index(column[1]))  # stable: engines' order
    titles = [_text(" ".join(part for part in column if part)) for column in columns]
    lines = [
        *_header_lines(record),
        "",
        f"| image | kernel | {' | '.join(titles)} |",
        f"| --- | --- |{' ---: |' * len(columns)}",
    ]
    for what, figures in table.items():
        image, _, kernel = what.rpartition(", ")
        cells = [
            _cell(_figure_cell(figures[column])) if column in figures else "" for column in columns
        ]
        lines.append(
            f"| {_text(image or kernel)} | {_text(kernel if image else '')} | {' | '.join(cells)} |"
        )
    return "\n".join(lines) + "\n"
