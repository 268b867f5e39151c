"""The performance page's Markdown tables, made from the records `blurapp bench --record`
writes (blurapp.bench.record): a section per machine run, with its command, machine, versions
and date."""

from __future__ import annotations

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


def _cell(text: str | None) -> str:
    return "" if text is None else str(text).replace("|", "\\|").replace("\n", " ")


def _machine_line(machine: dict) -> str:
    memory = machine.get("memory_bytes")
    parts = [machine.get("system"), machine.get("cpu"), f"{machine.get('cores')} cores"]
    if memory:
        parts.append(f"{memory / 2**30:.0f} GiB memory")
    text = ", ".join(str(part) for part in parts if part)
    return f"{text}; JAX device: {machine.get('device')}"


def record_markdown(record: dict) -> str:
    """A record as Markdown: the command, machine, versions and date, then a table per
    section (what, engine, figure with its range, how measured), in the rows' order."""
    versions = ", ".join(
        f"{_VERSION_NAMES.get(name, name)} {version}"
        for name, version in record["versions"].items()
        if version is not None
    )
    lines = [
        f"- **Command:** `{record['command']}`",
        f"- **Machine:** {_machine_line(record['machine'])}",
        f"- **Versions:** {versions}",
        f"- **Date:** {record['date']}",
    ]
    if record.get("note"):
        lines.append(f"- **Conditions:** {record['note']}")
    sections: dict[str, list[dict]] = {}
    for row in record["rows"]:
        sections.setdefault(row["section"], []).append(row)
    for section, rows in sections.items():
        lines += [
            "",
            f"**{_SECTION_TITLES.get(section, section)}**",
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
