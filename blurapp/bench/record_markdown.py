"""The performance page's Markdown tables, made from the records `blurapp bench --record`
writes (blurapp.bench.record): a section per machine run, with its command, machine, versions
and date.

A record's words (a note, a CPU's name, a row) are escaped as text: MyST passes HTML through to
the page, and a record may come from anyone's machine."""

from __future__ import annotations

import html
import re

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


def _text(text: object) -> str:
    """`text` shown as itself on one line: no HTML element, no new Markdown block, no column
    of a table's row split off."""
    words = html.escape(str(text), quote=False).replace("|", "\\|")
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
    return f"{text}; JAX device: {_text(machine.get('device'))}"


def record_markdown(record: dict) -> str:
    """A record as Markdown: the command, machine, versions and date, then a table per
    section (what, engine, figure with its range, how measured), in the rows' order."""
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
