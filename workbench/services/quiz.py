"""Training quiz state: the replay to decide, the answer key, and the trainee's saved progress.

The quiz is the app on the raw ``-X theirs`` replay of a shipped sync, so
deciding uses the same keys and the same ``Session``; only the journal
differs: every event goes into the trainee's progress file (under
``$XDG_DATA_HOME/workbench/training/``), never into the repository, so a
course can be taken over several days and reopening an exercise resumes.
A reveal records the answer given *before* seeing what shipped, and that
first answer is the one scored.  Nothing here imports Textual; the
workspace a quiz is decided in is ``Workspace.open_quiz`` (it visits only
the asked hunks and writes nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from workbench.analysis.answer_key import AnswerKey, Grade, QuizHunk, grade, normalise_choice
from workbench.analysis.model import Candidate, Commit, FileSuggestion, Suggestion
from workbench.resolve.events import Event, FileChoice
from workbench.resolve.journal import Situation
from workbench.resolve.session import Session
from workbench.services.exercises import Progress, save_progress

_FILE_ANSWER = {FileChoice.KEEP_DEV: "dev", FileChoice.TAKE_MAIN: "main", FileChoice.DELETE: "other"}


class Quiz:
    """One trainee on one exercise: the key, the saved progress, and the evidence commits."""

    def __init__(self, key: AnswerKey, progress: Progress, commits: dict[str, Commit], title: str) -> None:
        self.key = key
        self.progress = progress
        self.commits = commits
        """Evidence commits by sha (read once, while loading)."""
        self.title = title
        self._by_place = {(q.path, q.index): q for q in key.hunks}

    def asked(self) -> dict[str, tuple[int, ...]]:
        """The hunks the exercise asks, by path, in file order."""
        out: dict[str, list[int]] = {}
        for question in self.key.hunks:
            out.setdefault(question.path, []).append(question.index)
        return {path: tuple(sorted(indexes)) for path, indexes in out.items()}

    @property
    def entry(self) -> dict[str, object]:
        """This exercise's record in the trainee's progress (created on first use)."""
        entry = self.progress.exercises.setdefault(self.key.merge, {"answers": {}})
        entry.setdefault("result", self.key.result)
        entry.setdefault("title", self.title)
        return entry

    def question(self, path: str, index: int) -> QuizHunk | None:
        return self._by_place.get((path, index))

    @property
    def amended(self) -> bool:
        """The fixes were folded into the merge itself: no separate commit shows them."""
        return self.key.result == self.key.merge

    # -- answers ------------------------------------------------------------------------

    def events(self) -> list[Event]:
        """The session events saved for this exercise (to resume)."""
        raw = self.entry.get("journal", [])
        out = []
        for item in raw if isinstance(raw, list) else []:
            try:
                out.append(Event.from_json(item))
            except (ValueError, KeyError, TypeError, AttributeError):
                continue
        return out

    def answers(self, session: Session) -> dict[tuple[str, int], str]:
        """The session's current answer for every decided quiz hunk (main/dev/both/other...)."""
        out: dict[tuple[str, int], str] = {}
        for quiz in self.key.hunks:
            file_choice = session.file_choice(quiz.path)
            if file_choice is not None:
                out[(quiz.path, quiz.index)] = _FILE_ANSWER[file_choice]
                continue
            decision = session.decision(quiz.path, quiz.index)
            if decision is not None:
                out[(quiz.path, quiz.index)] = decision.choice.value
        return out

    def revealed(self) -> dict[tuple[str, int], str]:
        """Hunks already revealed, with the answer given before the reveal."""
        raw = self.entry.get("revealed", {})
        out = {}
        for key, choice in (raw.items() if isinstance(raw, dict) else ()):
            path, _, index = key.rpartition("\0")
            if index.isdigit():
                out[(path, int(index))] = choice
        return out

    def scored_answers(self, session: Session) -> dict[tuple[str, int], str]:
        """What is graded: the answer before a reveal where there was one, else the current one."""
        return {**self.answers(session), **self.revealed()}

    def record(self, event: Event, session: Session) -> None:
        """Keep one session event and the answers it leaves, durably."""
        entry = self.entry
        journal = entry.setdefault("journal", [])
        assert isinstance(journal, list)
        journal.append(event.to_json())
        entry["answers"] = {f"{path}\0{index}": choice for (path, index), choice in self.answers(session).items()}
        save_progress(self.progress)

    def reveal(self, path: str, index: int, session: Session) -> str | None:
        """Record the answer given before seeing what shipped; None when the hunk is undecided."""
        answer = self.answers(session).get((path, index))
        if answer is None:
            return None
        revealed = self.entry.setdefault("revealed", {})
        assert isinstance(revealed, dict)
        first = revealed.setdefault(f"{path}\0{index}", answer)
        save_progress(self.progress)
        return str(first)

    def grade(self, session: Session) -> Grade:
        return grade(self.key, self.scored_answers(session))

    def finish(self, session: Session) -> Grade:
        """Grade and keep the score in the trainee's progress."""
        result = self.grade(session)
        self.progress.finish(self.key.merge, round(result.score, 4), len(result.costly))
        self.entry["answered"] = result.answered
        self.entry["total"] = len(self.key.hunks)
        save_progress(self.progress)
        return result

    def all_answered(self, session: Session) -> bool:
        return len(self.answers(session)) == len(self.key.hunks)

    @staticmethod
    def agrees(answer: str, quiz: QuizHunk) -> bool:
        return normalise_choice(answer) == quiz.shipped


@dataclass(frozen=True, slots=True)
class WouldSuggest:
    """What the workbench would have suggested for a quiz hunk, set against what shipped (a reveal says it)."""

    suggestion: Suggestion | None
    shipped: Candidate | None
    """The candidate whose text is what shipped; None: no candidate's is."""
    candidates: int
    file: FileSuggestion | None = None
    """The suggestion for the hunk's whole file, when the file gets one (its hunks then have no menu)."""
    file_right: bool = False
    """The whole-file suggestion keeps the side that shipped in this hunk."""

    @property
    def right(self) -> bool:
        """There is a suggestion and it writes what shipped."""
        if self.file is not None:
            return self.file_right
        return self.suggestion is not None and self.shipped == self.suggestion.candidate


def would_suggest(question: QuizHunk) -> WouldSuggest:
    """The hunk's suggestion and candidates (or its file's suggestion) against the lines that shipped in its
    place."""
    hunk = question.hunk
    shipped = b"".join(question.shipped_text)
    found = next((c for c in hunk.candidates if c.text == shipped), None)
    whole = question.file_suggestion
    if whole is not None and hunk.suggestion is None:
        return WouldSuggest(None, found, len(hunk.candidates), whole, whole.side == question.shipped)
    return WouldSuggest(hunk.suggestion, found, len(hunk.candidates))


class QuizJournal:
    """Session events go to the trainee's progress file, not into the repository (an ``EventLog``)."""

    situation: Situation | None = None
    where = ""

    def __init__(self, quiz: Quiz) -> None:
        self.quiz = quiz
        self.session: Session | None = None

    def header(self) -> dict[str, Any]:
        return {}

    def claim(self) -> str | None:
        return None  # the trainee's progress file is theirs alone: nothing to lock

    def exists(self) -> bool:
        return bool(self.quiz.events())

    def load(self) -> list[Event]:
        return self.quiz.events()

    def append(self, event: Event) -> None:
        assert self.session is not None, "the workspace attaches its session first"
        self.quiz.record(event, self.session)
