"""The suggestions graded against what shipped, as a trainee is graded: ``workbench train … --suggestions``.

A suggestion is right when its text is, byte for byte, what the shipped
result holds in the hunk's place; the menu holds what shipped when any
candidate's text does.  A costly suggestion is one other than main's text
where main's shipped: the bot's text was right and the suggestion would
have changed it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from workbench.analysis.answer_key import AnswerKey, QuizHunk
from workbench.analysis.model import FileSuggestion, Rung
from workbench.wording import plural

SUGGESTIONS_GRADE_SCHEMA = "workbench.suggestions-grade/1"


@dataclass(frozen=True, slots=True)
class RungTally:
    """How one rung did: suggestions it made, and how many were right."""

    rung: Rung
    suggested: int
    right: int


@dataclass(frozen=True)
class SuggestionGrade:
    """The suggestions and menus of one sync's quiz hunks against what shipped."""

    key: AnswerKey
    right: tuple[QuizHunk, ...]
    wrong: tuple[QuizHunk, ...]
    costly: tuple[QuizHunk, ...]
    """Wrong suggestions other than main's text where main's text shipped (a subset of ``wrong``)."""
    menu: tuple[QuizHunk, ...]
    """Hunks where a candidate (or the suggestion) is what shipped."""
    rungs: tuple[RungTally, ...]

    @property
    def suggested(self) -> int:
        return len(self.right) + len(self.wrong)

    @property
    def main_shipped(self) -> int:
        return sum(1 for q in self.key.hunks if q.shipped == "main")


def _shipped(quiz: QuizHunk) -> bytes:
    return b"".join(quiz.shipped_text)


def grade_suggestions(key: AnswerKey) -> SuggestionGrade:
    """Each quiz hunk's suggestion and menu against the lines that shipped in its place."""
    right: list[QuizHunk] = []
    wrong: list[QuizHunk] = []
    costly: list[QuizHunk] = []
    menu: list[QuizHunk] = []
    tally: dict[Rung, list[int]] = {}
    for quiz in key.hunks:
        shipped = _shipped(quiz)
        hunk = quiz.hunk
        if quiz.file_suggestion is not None and hunk.suggestion is None:
            _grade_file(quiz, quiz.file_suggestion, right, wrong, costly, menu)
            continue
        texts = [c.text for c in hunk.candidates]
        if hunk.suggestion is not None:
            texts.append(hunk.suggestion.candidate.text)
        if shipped in texts:
            menu.append(quiz)
        if hunk.suggestion is None:
            continue
        counts = tally.setdefault(hunk.suggestion.rung, [0, 0])
        counts[0] += 1
        if hunk.suggestion.candidate.text == shipped:
            right.append(quiz)
            counts[1] += 1
            continue
        wrong.append(quiz)
        if quiz.shipped == "main" and hunk.suggestion.candidate.text != b"".join(hunk.main_text):
            costly.append(quiz)
    rungs = tuple(RungTally(r, *tally[r]) for r in Rung if r in tally)
    return SuggestionGrade(key, tuple(right), tuple(wrong), tuple(costly), tuple(menu), rungs)


def _grade_file(quiz: QuizHunk, whole: FileSuggestion, right: list[QuizHunk], wrong: list[QuizHunk],
                costly: list[QuizHunk], menu: list[QuizHunk]) -> None:
    """A hunk of a file suggested whole (no menu of its own): right when the file's side is what shipped here;
    ``m``/``d`` stay offered, so the menu holds what shipped when either side's text did."""
    if quiz.shipped in ("main", "dev"):
        menu.append(quiz)
    if quiz.shipped == whole.side:
        right.append(quiz)
        return
    wrong.append(quiz)
    if quiz.shipped == "main":
        costly.append(quiz)


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.0%}" if whole else "-"


def grade_lines(result: SuggestionGrade) -> list[str]:
    """The scorecard in words: the totals, then each rung's precision."""
    total = len(result.key.hunks)
    lines = [
        f"{plural(total, 'hunk')}; suggested {result.suggested} ({_share(result.suggested, total)}), "
        f"right {len(result.right)} ({_share(len(result.right), result.suggested)}); "
        f"menu holds what shipped in {len(result.menu)} ({_share(len(result.menu), total)}); "
        f"costly {len(result.costly)} of {result.main_shipped} main-shipped"
    ]
    lines += [f"  {t.rung.value}: {t.right}/{t.suggested} right" for t in result.rungs]
    return lines


def _place(quiz: QuizHunk) -> dict[str, Any]:
    suggestion, whole = quiz.hunk.suggestion, quiz.file_suggestion
    return {
        "path": quiz.path,
        "index": quiz.index,
        "shipped": quiz.shipped,
        "take": suggestion.candidate.take.value if suggestion else whole.take.value if whole else None,
        "rung": suggestion.rung.value if suggestion else whole.rung.value if whole else None,
    }


def grade_suggestions_json(result: SuggestionGrade) -> dict[str, Any]:
    def places(found: Sequence[QuizHunk]) -> list[dict[str, Any]]:
        return [_place(q) for q in found]

    return {
        "schema": SUGGESTIONS_GRADE_SCHEMA,
        "merge": result.key.merge,
        "result": result.key.result,
        "total": len(result.key.hunks),
        "suggested": result.suggested,
        "right": len(result.right),
        "menu": len(result.menu),
        "main_shipped": result.main_shipped,
        "rungs": [{"rung": t.rung.value, "suggested": t.suggested, "right": t.right} for t in result.rungs],
        "wrong": places(result.wrong),
        "costly": places(result.costly),
    }
