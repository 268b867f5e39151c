"""Make the performance page's tables: each record document here (NAME.json, written by
`blurapp bench --record`) as NAME.md, which docs/performance.md includes.

    python docs/performance/render.py          # write every NAME.md
    python docs/performance/render.py --check  # exit 1 if one differs from its JSON
"""

from __future__ import annotations

import sys
from pathlib import Path

from blurapp.bench.record import read_record_document
from blurapp.bench.record_markdown import document_markdown
from blurapp.core.media.saving import write_atomically

HERE = Path(__file__).resolve().parent


def rendered(json_path: Path) -> str:
    """The Markdown of the record document at `json_path`, as NAME.md must hold it."""
    document = read_record_document(json_path.read_text(encoding="utf-8"), json_path.name)
    source = json_path.relative_to(HERE.parent.parent).as_posix()
    warning = f"<!-- made by docs/performance/render.py from {source}: edit the JSON, not this -->"
    return f"{warning}\n\n{document_markdown(document)}"


def main(argv: list[str]) -> int:
    stale = []
    for json_path in sorted(HERE.glob("*.json")):
        markdown_path = json_path.with_suffix(".md")
        text = rendered(json_path)
        if "--check" in argv:
            if not markdown_path.exists() or markdown_path.read_text(encoding="utf-8") != text:
                stale.append(markdown_path)
        else:
            write_atomically(markdown_path, lambda file, text=text: file.write(text.encode()))
    for path in stale:
        print(f"{path} differs from {path.with_suffix('.json').name}: run {__file__}")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
