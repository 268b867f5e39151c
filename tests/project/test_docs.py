"""The documentation: the site builds cleanly, the API reference shows the docstrings' sections as
fields with the everyday calls first, the pages read on GitHub as on the site, every command-line
option is documented, the README stays short and points into docs/, its headline figures are the
performance page's record, user text speaks of BlurApp rather than of how it was made, and the
changelog names the current version."""

import argparse
import re
import tomllib
import warnings
from html.parser import HTMLParser
from pathlib import Path

import pytest
from helpers.performance_pages import renderer

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
# The NumPy-style docstring sections, which the API reference shows as fields of each entry.
DOCSTRING_SECTIONS = {"Parameters", "Returns", "Raises", "Attributes", "Notes", "Examples"}
# The API reference's entries in the order a reader meets them: the everyday calls and what they
# return before the errors, and what a plugin needs last.
EVERYDAY = ["compare", "blur", "open_photo", "compare_clip", "open_clip", "BlurSpec"]
RESULTS = ["Comparison", "ClipComparison", "Figure", "Photo", "Clip"]
FOR_PLUGINS = ["get_engine", "register", "Engine"]
# A MyST role (`{download}`, `{class}`) in a page's prose: GitHub shows it as it is written.
MYST_ROLE = re.compile(r"(?<!`)\{[a-z:-]+\}`")


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


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site, built once for this file's tests; its build's exit status. Sphinx, MyST and
    the theme come with the docs extra; a machine without them (the TPU machine) skips these
    tests, saying which."""
    for module in ("sphinx", "myst_parser", "furo"):
        pytest.importorskip(module)
    from sphinx.cmd.build import build_main

    folder = tmp_path_factory.mktemp("site")
    # Sphinx warns of its own API's deprecations through Python's warnings, raised by its
    # extensions' code (myst-parser's), not by these pages; -W still fails the build on every
    # warning about the pages.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        status = build_main(["-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(folder)])
    return folder, status


class _Entries(HTMLParser):
    """An API page's headings, its entries' ids in order, and the fields each property shows."""

    def __init__(self):
        super().__init__()
        self.headings: list[str] = []
        self.ids: list[str] = []
        self.property_fields: dict[str, list[str]] = {}
        self._heading: list[str] | None = None
        self._field: list[str] | None = None
        self._properties: list[tuple[str | None, int]] = []  # (its id, the <dl> depth inside it)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in {"h1", "h2", "h3", "h4", "h5", "h6"}:
            self._heading = []
        elif tag == "dl":
            if "py property" in (attrs.get("class") or ""):
                self._properties.append((None, 0))
            elif self._properties:
                name, depth = self._properties[-1]
                self._properties[-1] = (name, depth + 1)
        elif tag == "dt":
            if attrs.get("id", "").startswith("blurapp."):
                self.ids.append(attrs["id"])
                if self._properties and self._properties[-1][0] is None:
                    self._properties[-1] = (attrs["id"], 0)
                    self.property_fields[attrs["id"]] = []
            elif (attrs.get("class") or "").startswith("field-") and self._properties:
                self._field = []

    def handle_data(self, data):
        for words in (self._heading, self._field):
            if words is not None:
                words.append(data)

    def handle_endtag(self, tag):
        if tag.startswith("h") and tag[1:].isdigit() and self._heading is not None:
            self.headings.append("".join(self._heading).strip("¶ \n"))
            self._heading = None
        elif tag == "dt" and self._field is not None:
            self.property_fields[self._properties[-1][0]].append("".join(self._field).strip(": "))
            self._field = None
        elif tag == "dl" and self._properties:
            name, depth = self._properties[-1]
            if depth:
                self._properties[-1] = (name, depth - 1)
            else:
                self._properties.pop()


def _api_page(site) -> _Entries:
    folder, _ = site
    entries = _Entries()
    entries.feed((folder / "api.html").read_text(encoding="utf-8"))
    return entries


def test_docs_build_without_warnings(site):
    folder, status = site
    assert status == 0
    assert (folder / "index.html").is_file()
    assert (folder / "command-line.html").is_file()


def test_the_api_reference_shows_docstring_sections_as_fields(site):
    folder, _ = site
    page = _api_page(site)
    # napoleon makes them fields of each entry; read as plain reStructuredText they are headings.
    assert DOCSTRING_SECTIONS & set(page.headings) == set()
    html = (folder / "api.html").read_text(encoding="utf-8")
    for field in ("Parameters", "Returns", "Return type", "Raises"):
        assert (
            f'<dt class="field-odd">{field}<' in html or f'<dt class="field-even">{field}<' in html
        )
    # A property shows its type in its signature; a "Type" field under one is a docstring whose
    # first line napoleon read as "type: description".
    assert page.property_fields
    assert {name: fields for name, fields in page.property_fields.items() if fields} == {}


def test_the_api_reference_has_every_public_name_and_the_everyday_calls_first(site):
    ids = _api_page(site).ids
    assert {f"blurapp.{name}" for name in blurapp.__all__} - set(ids) == set()
    order = [ids.index(f"blurapp.{name}") for name in EVERYDAY + RESULTS + FOR_PLUGINS]
    assert order == sorted(order)
    errors = [ids.index(f"blurapp.{name}") for name in ("PhotoError", "ClipError")]
    assert ids.index("blurapp.Clip") < min(errors) and max(errors) < ids.index("blurapp.get_engine")


def test_the_pages_read_on_github_as_on_the_site(site):
    folder, _ = site
    roles = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(DOCS.glob("*.md"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if MYST_ROLE.search(line)
    ]
    assert roles == []
    # A plain link to the notebook is a download on the site, and the file is there.
    for page in ("api.html", "getting-started.html"):
        html = (folder / page).read_text(encoding="utf-8")
        links = re.findall(r'<a class="reference download internal"[^>]* href="([^"]+)"', html)
        assert [link for link in links if link.endswith("/example.ipynb")], page
        assert all((folder / link).is_file() for link in links)


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


# A figure as a page prints one: a number and its unit.
FIGURE = re.compile(r"\d[\d,.]*\s?(?:ms\b|s\b|×|MB\b|GB\b|GiB\b|frames/s\b)")


def test_the_readme_headline_figures_are_what_the_renderer_makes_of_the_pages_record():
    render = renderer()
    readme = README.read_text(encoding="utf-8")

    assert render.readme_headline(readme) == render.headline(), (
        "the README's headline figures differ from their record: "
        "run python docs/performance/render.py"
    )
    page = (DOCS / "performance.md").read_text(encoding="utf-8")
    assert f"performance/{render.HEADLINE_RECORD.with_suffix('.md').name}" in page
    # No figure typed by hand beside them: every one the README shows comes from a record.
    outside = readme
    for record, start, end in render.README_TABLES:
        table = render.readme_headline(readme, start, end)
        assert table == render.headline(record), "run python docs/performance/render.py"
        assert f"performance/{record.with_suffix('.md').name}" in page
        outside = outside.replace(table, "")
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


def test_every_xla_dump_command_compiles_afresh():
    """A program loaded from the compilation cache is not compiled, and XLA dumps no machine
    code for it: a dump command in the docs runs with an empty cache."""
    commands = [
        line
        for path in [README, *sorted(DOCS.rglob("*.md"))]
        if "_build" not in path.parts
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.lstrip("$ ").startswith(("XLA_FLAGS=--xla_dump_to", "BLURAPP_CACHE_DIR="))
    ]
    assert commands
    for command in commands:
        assert "BLURAPP_CACHE_DIR=$(mktemp -d)" in command and "--xla_dump_to" in command, command
