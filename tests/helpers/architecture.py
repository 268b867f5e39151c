"""The picture of BlurApp's packages in docs/architecture.md, drawn from their imports.

Run `python tests/helpers/architecture.py` to print it, with `--write` to put it in the page;
tests/project/test_architecture.py fails while the page's picture and the imports differ."""

import re
import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script: tests/ holds the helpers
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from helpers.imports import graph

PAGE = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"

# Each part the picture shows: the modules it is made of (a package takes its submodules).
PARTS = {
    "start.py": ("blurapp.start", "blurapp.__main__"),
    "cli/": ("blurapp.cli", "blurapp.logs"),
    "bench/": ("blurapp.bench",),
    "ui/": ("blurapp.ui",),
    "app/": ("blurapp.app",),
    "scale/": ("blurapp.scale",),
    "api.py": (
        "blurapp",
        "blurapp.api",
        "blurapp.api_clips",
        "blurapp.notebook",
        "blurapp._arguments",
    ),
    "core/": ("blurapp.core",),
}
# Read by every part, and no part of the story: the version.
LEFT_OUT = {"blurapp._version"}
# The picture's place in the page: the text block after this line.
MARKER = "<!-- drawn from the imports by tests/helpers/architecture.py -->"


def part_of(module: str) -> str | None:
    for part, members in PARTS.items():
        for member in members:
            if module == member or (member != "blurapp" and module.startswith(member + ".")):
                return part
    return None


def part_graph() -> dict[str, set[str]]:
    """Which parts each part imports, from the modules' own imports (type checking aside)."""
    edges: dict[str, set[str]] = {part: set() for part in PARTS}
    for module, imported in graph().items():
        if module in LEFT_OUT:
            continue
        source = part_of(module)
        for other in imported - LEFT_OUT:
            target = part_of(other)
            if source is not None and target is not None and target != source:
                edges[source].add(target)
    return edges


def modules_on_no_part() -> set[str]:
    """blurapp's modules tied to another by an import that are on no part (nor LEFT_OUT)."""
    found = graph()
    tied = {module for module, imported in found.items() if imported}
    tied |= {other for imported in found.values() for other in imported}
    return {module for module in tied - LEFT_OUT if part_of(module) is None}


def floors(edges: dict[str, set[str]]) -> dict[str, int]:
    """Each part's floor: 1 for a part that imports no other, else one above the highest it
    imports (the parts import in one direction: no circle)."""
    found: dict[str, int] = {}

    def floor(part: str) -> int:
        if part not in found:
            found[part] = 1 + max((floor(other) for other in edges[part]), default=0)
        return found[part]

    for part in edges:
        floor(part)
    return found


def picture() -> str:
    """The parts, top floor first, each with the parts it imports, highest first."""
    edges = part_graph()
    floor = floors(edges)
    width = max(len(part) for part in PARTS)
    lines = []
    for part in sorted(PARTS, key=lambda p: (-floor[p], list(PARTS).index(p))):
        targets = sorted(edges[part], key=lambda p: (-floor[p], list(PARTS).index(p)))
        arrow = f" → {', '.join(targets)}" if targets else ""
        lines.append(f"floor {floor[part]}   {part.ljust(width)}{arrow}".rstrip())
    return "\n".join(lines) + "\n"


def picture_in_page(text: str) -> str:
    """The picture the page shows: the text block after MARKER."""
    match = re.search(re.escape(MARKER) + r"\n```text\n(.*?)```", text, re.DOTALL)
    if match is None:
        raise ValueError(f"{PAGE.name} has no picture after {MARKER}")
    return match.group(1)


def main(argv: list[str]) -> int:
    drawn = picture()
    if "--write" in argv:
        text = PAGE.read_text(encoding="utf-8")
        old = picture_in_page(text)
        marked = f"{MARKER}\n```text\n"
        PAGE.write_text(text.replace(marked + old, marked + drawn), encoding="utf-8")
    else:
        print(drawn, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
