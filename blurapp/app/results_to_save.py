"""File ▸ Save Results' decisions, without Qt: which results there are to save, what the user is
asked first (results made with different parameters, or results out of date), and which are
saved for each answer. The window's dialogs (blurapp.ui.results_saving) ask; the
WindowController (blurapp.app.window_controller) names the files and writes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from blurapp.app.run_records import KeptResult
    from blurapp.app.session import Session


class Question(Enum):
    """What the user is asked before the results are saved."""

    NONE = "none"  # every result is what the window shows now: saved without a word
    # Made with different parameters: which parameters made each is the question then (each
    # file's name says it too); Save saves them all.
    MIXED_PARAMETERS = "mixed parameters"
    # Made alike, but some are not what the window shows now (another photo, the colour, a
    # later run): never saved without a word; Save keeps to the current ones, Save All saves
    # them all.
    OUT_OF_DATE = "out of date"


class Answer(Enum):
    SAVE = "save"  # the current results (all of them, when the question is of parameters)
    SAVE_ALL = "save all"
    CANCEL = "cancel"


@dataclass(frozen=True)
class ResultsToSave:
    """The results Save Results would save, and what to ask about them first."""

    results: dict[str, KeptResult]  # each engine's result that can be saved
    question: Question
    mixed_parameters: list[str]  # 'NumPy: 11 × 11, sigma 2.5' for each, when made differently
    out_of_date: dict[str, str]  # the engine of each result out of date: why, in words
    titles: dict[str, str]  # each engine's title, in the user's language

    @property
    def current(self) -> dict[str, KeptResult]:
        """The results that are what the window shows now."""
        return {e: kept for e, kept in self.results.items() if e not in self.out_of_date}

    def out_of_date_lines(self) -> list[str]:
        """'JAX-jit: another photo is open' for each result out of date."""
        return [f"{self.titles[engine]}: {why}" for engine, why in self.out_of_date.items()]

    def current_titles(self) -> list[str]:
        return [self.titles[engine] for engine in self.current]

    def chosen(self, answer: Answer) -> dict[str, KeptResult] | None:
        """The results to save for `answer`; None for none (Cancel, or Save with none
        current)."""
        if answer is Answer.CANCEL:
            return None
        if answer is Answer.SAVE_ALL or self.question is not Question.OUT_OF_DATE:
            return self.results
        return self.current or None


def results_to_save(session: Session) -> ResultsToSave | None:
    """What Save Results would save of `session`'s results and ask first; None with no photo or
    no result to save."""
    captions = session.captions
    results = captions.saved_results()
    if not results or session.photo is None:
        return None
    mixed = captions.mixed_parameters()
    out_of_date: dict[str, str] = {}
    if not mixed:
        for engine in results:
            why = captions.result_out_of_date(engine)
            if why:
                out_of_date[engine] = why
    if mixed:
        question = Question.MIXED_PARAMETERS
    elif out_of_date:
        question = Question.OUT_OF_DATE
    else:
        question = Question.NONE
    titles = {engine: captions.title(engine) for engine in results}
    return ResultsToSave(results, question, mixed, out_of_date, titles)
