"""The documentation: the site builds cleanly, every command-line option is documented, the README
stays short and points into docs/, its headline figures are the performance page's record, user text speaks of BlurApp rather than of how it was made, and
the changelog names the current version."""

import argparse
import importlib.util
import re
import tomllib
from pathlib import Path

import pytest

import blurapp
from blurapp.cli import COMMANDS, build_command_parser, build_window_parser

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
CHANGELOG = ROOT / "CHANGELOG.md"
MAX_README_LINES = 150
# Words about how the project was worked on, which mean nothing to a user of it.
PROCESS_WORDS = re.compile(
    r"issue [0-9]+|this round|previous round|latest round|the campaign|was lent|not drawn"
    r"|the final code",
    re.IGNORECASE,
)


def _parsers(parser: argparse.ArgumentParser):
    """The parser and every subparser under it."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for subparser in action.choices.values():
                yield from _parsers(subparser)


def _documented_option_strings() -> set[str]:
    """Every option string of the window's parser and of each command's, except those hidden
    from --help (internal flags, such as the one `blurapp bench` uses to time start-up)."""
    roots = [build_window_parser(), *(build_command_parser(name) for name in COMMANDS)]
    return {
        option
        for root in roots
        for parser in _parsers(root)
        for action in parser._actions
        if action.help != argparse.SUPPRESS
        for option in action.option_strings
    }


# Sphinx warns of its own API's deprecations through Python's warnings, raised by its
# extensions' code (myst-parser's), not by these pages; -W still fails the build on every
# warning about the pages.
@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::PendingDeprecationWarning")
def test_docs_build_without_warnings(tmp_path):
    from sphinx.cmd.build import build_main

    status = build_main(["-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(tmp_path)])

    assert status == 0
    assert (tmp_path / "index.html").is_file()
    assert (tmp_path / "command-line.html").is_file()


def test_every_command_line_option_is_documented():
    page = (DOCS / "command-line.md").read_text(encoding="utf-8")
    options = _documented_option_strings()
    assert {"--engines", "--out-dir", "--scheduler", "--sweep", "--lang"} <= options

    # As written in the page's text: `--sigma`, never only as part of a longer option.
    missing = sorted(
        option for option in options if not re.search(rf"`{re.escape(option)}[` ]", page)
    )
    assert missing == [], f"options not in docs/command-line.md: {missing}"


def test_readme_is_short_and_links_to_the_docs():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_README_LINES

    links = re.findall(r"\]\((docs/[^)#]+)", text)
    assert "docs/index.md" in links
    assert "docs/command-line.md" in links
    assert [link for link in links if not (ROOT / link).exists()] == []


def _render_module():
    spec = importlib.util.spec_from_file_location("render", DOCS / "performance" / "render.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# A figure as a page prints one: a number and its unit.
FIGURE = re.compile(r"\d[\d,.]*\s?(?:ms\b|s\b|×|MB\b|GB\b|GiB\b|frames/s\b)")


def test_the_readme_headline_figures_are_what_the_renderer_makes_of_the_pages_record():
    render = _render_module()
    readme = README.read_text(encoding="utf-8")

    assert render.readme_headline(readme) == render.headline(), (
        "the README's headline figures differ from their record: "
        "run python docs/performance/render.py"
    )
    page = (DOCS / "performance.md").read_text(encoding="utf-8")
    assert f"performance/{render.HEADLINE_RECORD.with_suffix('.md').name}" in page
    # No figure typed by hand beside them: every one the README shows comes from the record.
    outside = readme.replace(render.readme_headline(readme), "")
    assert FIGURE.findall(outside) == []


def _user_text_files():
    yield README
    yield CHANGELOG
    for folder in (DOCS, ROOT / "blurapp"):
        for path in sorted(folder.rglob("*")):
            skipped = {"_build", "__pycache__"} & set(path.relative_to(folder).parts)
            if path.is_file() and not skipped:
                yield path


def test_user_text_does_not_speak_of_how_it_was_made():
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)!r}"
        for path in _user_text_files()
        for match in PROCESS_WORDS.finditer(path.read_bytes().decode("utf-8", errors="replace"))
    ]
    assert found == []


def test_changelog_names_the_current_version():
    text = CHANGELOG.read_text(encoding="utf-8")
    assert "## [Unreleased]" in text
    assert f"## [{blurapp.__version__}]" in text


def _extras_in_pyproject() -> set[str]:
    with open(ROOT / "pyproject.toml", "rb") as file:
        extras = tomllib.load(file)["project"]["optional-dependencies"]
    return set(extras) - {"test"}  # the test suite's, listed in Contributing


def test_every_extra_is_in_the_readme_and_getting_started():
    readme = README.read_text(encoding="utf-8")
    paragraph = readme[readme.index("\nExtras: ") :].split("\n\n", 1)[0]
    in_readme = set(re.findall(r"'\.\[(\w+)\]'", paragraph))
    page = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    table = page[page.index("| extra | install |") :].split("\n\n", 1)[0]
    in_table = set(re.findall(r"^\| `(\w+)` \| `pip install '\.\[\1\]'`", table, re.MULTILINE))
    extras = _extras_in_pyproject()
    assert extras - in_readme == set(), "extras the README's list leaves out"
    assert extras - in_table == set(), "extras docs/getting-started.md's table leaves out"
