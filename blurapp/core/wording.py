"""Words the core shows to people, kept translatable without the core importing Qt.

Phrases are marked with QT_TRANSLATE_NOOP(context, text), the marker `pyside6-lupdate` looks
for; the window translates them when it shows them, the command line keeps English.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

# A text in the language the user reads: the window translates it in a context it chose (the
# command line and the log keep the English).
TranslateText = Callable[[str], str]


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """Marks `text` for translation in `context`; the translating happens where it is shown."""
    return text


def english(text: str) -> str:
    return text


def frames_words(count: int) -> str:
    """'1 frame', '48 frames'."""
    return "1 frame" if count == 1 else f"{count} frames"


def in_grey(keep: str) -> str:
    """What a result blurred in grey from a source with colour says of itself, with how to
    keep the colour: `keep` names the option that does (the command line's --color, the
    Python API's BlurSpec(color=True))."""
    return f"in grey ({keep} keeps the colour)"


def display_path(path: str | os.PathLike[str]) -> str:
    """A path as people read it, on one line and printable on any terminal.

    Bytes that are not UTF-8 (kept by Python as surrogate escapes) show as U+FFFD, and
    control characters such as a newline as their escape (\\n), so an `error:` line stays one
    line. The path itself is never changed: only what is shown.
    """
    text = os.fsencode(path).decode("utf-8", "replace")
    return "".join(
        character if character.isprintable() or character == " " else _escape(character)
        for character in text
    )


def _escape(character: str) -> str:
    return repr(character)[1:-1]


class FileProblem(Exception):
    """A file BlurApp cannot use. The message names the file and says what is wrong; the
    problem is kept as a template and its values, so it can be shown in the user's language."""

    CONTEXT = "FileProblem"

    def __init__(self, path: str | os.PathLike[str], template: str, **values: object) -> None:
        self.path = Path(path)
        self.template = template
        self.values = values
        self.problem = template.format(**values)
        super().__init__(f"{display_path(self.path)}: {self.problem}")

    def translated(self, translate: TranslateText) -> str:
        """The message with its problem put through `translate` (the path is not translated)."""
        return f"{display_path(self.path)}: {translate(self.template).format(**self.values)}"
