"""docs/architecture.md tells the house as it is: its picture of the packages is the one their
imports draw (helpers.architecture), and it gives each package its job."""

import re

from helpers.architecture import (
    PAGE,
    PARTS,
    floors,
    modules_on_no_part,
    part_graph,
    picture,
    picture_in_page,
)


def test_the_pages_picture_is_the_one_the_imports_draw():
    shown = picture_in_page(PAGE.read_text(encoding="utf-8"))
    assert shown == picture(), "redraw it: python tests/helpers/architecture.py --write"


def test_every_module_tied_to_another_is_on_a_part_of_the_picture():
    assert modules_on_no_part() == set()


def test_the_parts_import_one_way_down():
    edges = part_graph()
    floor = floors(edges)
    assert all(floor[other] < floor[part] for part in edges for other in edges[part])


def test_the_page_gives_each_part_its_job_in_a_line():
    text = PAGE.read_text(encoding="utf-8")
    table = text[text.index("| part | its job, in a line |") :].split("\n\n")[0]
    named = re.findall(r"^\| `([^`]+)` \| \S", table, re.MULTILINE)
    assert sorted(named) == sorted(PARTS)


def test_the_picture_finder_reads_the_block_after_the_marker():
    from helpers.architecture import MARKER

    text = f"before\n{MARKER}\n```text\nfloor 1   core/\n```\nafter"
    assert picture_in_page(text) == "floor 1   core/\n"
