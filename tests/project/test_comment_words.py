"""A comment says why the code is as it is now: no comment or docstring in blurapp/ carries a
date or names the one machine a figure came from. Figures, their dates and their machines live
with the records in docs/performance/; history lives in git and the changelog.

Only comments (`#`) and docstrings are read: a message the program shows a user may name a
device, and is no comment."""

import ast
import io
import re
import tokenize
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "blurapp"

MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December"
    "|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
)
# What makes a comment a lab notebook's line: a date, the one machine it was measured on, or
# what happened once.
NOTEBOOK = {
    "a date": re.compile(
        rf"\b(?:(?:19|20)\d\d-[01]\d-[0-3]\d|(?:{MONTHS})\.? (?:[0-3]?\d,? )?(?:19|20)\d\d"
        rf"|[0-3]?\d (?:{MONTHS})\.? (?:19|20)\d\d)\b"
    ),
    # "this machine" alone is the user's (the engines offered on it); a number of cores or a
    # model is the one a figure came from.
    "a machine": re.compile(
        r"\b(?:TPU v\d|v\d+[ep]\b|[HA]100\b|H200\b|EPYC|Xeon|Ryzen|M[1-4] (?:Pro|Max)\b"
        r"|\d+-core\b|[2-9]\d* cores\b|this (?:CPU|VM|laptop|host)\b)"
    ),
    # What the code once measured, or a run that once went wrong: git and the changelog keep
    # those (an earlier version's settings that a reader must still accept are a reason now).
    "history": re.compile(
        r"\b(?:an earlier version (?:measured|ran|took)|a CI run|before the \w+ (?:were|was) )",
        re.IGNORECASE,
    ),
}
# A quoted example of what a device is called ('tpu: TPU v5 lite') is a sample of a string the
# code reads or writes, not a claim about one machine.
QUOTED = re.compile(r"\"[^\"]*\"|(?<!\w)'[^']*'(?!\w)|“[^”]*”")


def comments_and_docstrings(path: Path):
    """Each comment and docstring of a module, with the line it starts on."""
    source = path.read_text(encoding="utf-8")
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                text = body[0].value.value
                if isinstance(text, str):
                    text = QUOTED.sub(lambda quote: "\n" * quote.group(0).count("\n"), text)
                    for offset, line in enumerate(text.splitlines()):
                        yield body[0].lineno + offset, line


def notebook_lines(path: Path, root: Path = PACKAGE.parent) -> list[str]:
    found = []
    for line, text in sorted(comments_and_docstrings(path)):
        for what, pattern in NOTEBOOK.items():
            match = pattern.search(QUOTED.sub("", text) if text.startswith("#") else text)
            if match:
                where = path.relative_to(root).as_posix()
                found.append(f"{where}:{line}: {what} ({match.group(0)!r}): {text.strip()}")
    return found


def test_no_comment_is_a_lab_notebook():
    found = [line for path in sorted(PACKAGE.rglob("*.py")) for line in notebook_lines(path)]
    assert found == [], (
        "say why the code is so now; figures live in docs/performance:\n" + "\n".join(found)
    )


def test_the_scan_reads_comments_and_docstrings_only(tmp_path):
    module = tmp_path / "blurapp" / "engine.py"
    module.parent.mkdir()
    module.write_text(
        '"""A 2-D kernel on a TPU, measured on 3 March 2026."""\n'
        "WORDS = 'JAX opened the TPU v5e'  # shown to the user\n"
        "# Chosen on a 2-core CPU.\n"
        "def run():\n"
        '    """Named as JAX names it: \'tpu: TPU v5 lite\'; an H200 ran it faster."""\n',
        encoding="utf-8",
    )
    found = notebook_lines(module, root=tmp_path)
    assert [line.split(": ")[0:2] for line in found] == [
        ["blurapp/engine.py:1", "a date ('3 March 2026')"],
        ["blurapp/engine.py:3", "a machine ('2-core')"],
        ["blurapp/engine.py:5", "a machine ('H200')"],
    ]
