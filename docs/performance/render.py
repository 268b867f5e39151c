"""Make the performance page's tables: each record document here (NAME.json, written by
`blurapp bench --record`) as NAME.md, which docs/performance.md includes; and the README's
headline table, between its headline-figures markers, from the record the page shows first.

    python docs/performance/render.py          # write every NAME.md and the README's table
    python docs/performance/render.py --check  # exit 1 if one differs from its JSON
"""

from __future__ import annotations

import sys
from pathlib import Path

from blurapp.bench.record import read_record_document
from blurapp.bench.record_markdown import document_markdown, headline_markdown
from blurapp.core.media.saving import write_atomically

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
README = ROOT / "README.md"
# The README's headline figures are this record's engines, which the page shows too: one
# measurement in both places, never figures of their own.
HEADLINE_RECORD = HERE / "cpu-2-core-vm.json"
HEADLINE_START = "<!-- headline-figures -->"
HEADLINE_END = "<!-- /headline-figures -->"
# The README's accelerator figures beside them: this record's engines, between their own markers.
ACCELERATOR_RECORD = HERE / "tpu-v5e.json"
ACCELERATOR_START = "<!-- accelerator-figures -->"
ACCELERATOR_END = "<!-- /accelerator-figures -->"
# Each table the README holds: its record and its markers.
README_TABLES = (
    (HEADLINE_RECORD, HEADLINE_START, HEADLINE_END),
    (ACCELERATOR_RECORD, ACCELERATOR_START, ACCELERATOR_END),
)


def _read(json_path: Path) -> dict:
    return read_record_document(json_path.read_text(encoding="utf-8"), json_path.name)


def _warning(json_path: Path) -> str:
    source = json_path.relative_to(ROOT).as_posix()
    return f"<!-- made by docs/performance/render.py from {source}: edit the JSON, not this -->"


def rendered(json_path: Path) -> str:
    """The Markdown of the record document at `json_path`, as NAME.md must hold it."""
    return f"{_warning(json_path)}\n\n{document_markdown(_read(json_path))}"


def headline(json_path: Path = HEADLINE_RECORD) -> str:
    """The README's headline table, as it must stand between the markers: the engines of the
    first record at `json_path` that has them, with that record's command, machine, versions,
    date and conditions."""
    records = _read(json_path)["records"]
    with_engines = [r for r in records if any(row["section"] == "engines" for row in r["rows"])]
    if not with_engines:
        raise ValueError(f"{json_path.name}: no record has engines figures for the README")
    return f"{_warning(json_path)}\n\n{headline_markdown(with_engines[0])}"


def readme_headline(
    readme: str, start_marker: str = HEADLINE_START, end_marker: str = HEADLINE_END
) -> str:
    """What stands between two of the README's markers (the headline figures' by default);
    ValueError naming the README when they are missing."""
    start, end = readme.find(start_marker), readme.find(end_marker)
    if start < 0 or end < start:
        raise ValueError(f"{README}: no {start_marker} … {end_marker} markers")
    return readme[start + len(start_marker) : end].removeprefix("\n")


def with_headline(
    readme: str, table: str, start_marker: str = HEADLINE_START, end_marker: str = HEADLINE_END
) -> str:
    """The README with `table` between two of its markers (the headline figures' by default)."""
    readme_headline(readme, start_marker, end_marker)  # the markers are there
    start = readme.index(start_marker) + len(start_marker)
    return f"{readme[:start]}\n{table}{readme[readme.index(end_marker) :]}"


def main(argv: list[str]) -> int:
    wanted = {
        json_path.with_suffix(".md"): rendered(json_path) for json_path in HERE.glob("*.json")
    }
    readme = README.read_text(encoding="utf-8")
    for record, start_marker, end_marker in README_TABLES:
        readme = with_headline(readme, headline(record), start_marker, end_marker)
    wanted[README] = readme
    stale = []
    for path, text in sorted(wanted.items()):
        if "--check" in argv:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path)
        else:
            write_atomically(path, lambda file, text=text: file.write(text.encode()))
    for path in stale:
        print(f"{path} differs from the records: run {__file__}")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
