"""Training quiz state: the replay to decide, the answer key, and the trainee's saved progress.

The quiz is the app on the raw ``-X theirs`` replay of a shipped sync, so
deciding uses the same keys and the same ``Session``; only the journal
differs: every event goes into the trainee's progress file (under
``$XDG_DATA_HOME/workbench/training/``), never into the repository, so a
course can be taken over several days and reopening an exercise resumes.
A reveal records the answer given *before* seeing what shipped, and that
first answer is the one scored.  Nothing here imports Textual.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from workbench.analysis.answer_key import AnswerKey, Grade, QuizHunk, grade, normalise_choice, risky_subset
from workbench.analysis.model import Commit, Level, SyncAnalysis
from workbench.git.repo import GitRepo
from workbench.resolve.events import Event, FileChoice
from workbench.resolve.journal import Situation
from workbench.resolve.session import Session
from workbench.services.exercises import Progress, load_answer_key, load_progress, save_progress
from workbench.services.sync import LoadProgress
from workbench.services.workspace import Position, Workspace

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


class QuizWorkspace(Workspace):
    """The replay opened for deciding; writing is refused (a quiz is a replay).

    Only the hunks the exercise asks count and are visited: a file of the
    replay also holds hunks that are not asked (low risk and shipped as the
    bot merged them, in the risky exercise; or with no counterpart in the
    shipped tree), shown for context but skipped by n/p/N/o and left out of
    every count.  The session itself still holds the whole file (it splices
    every hunk), so the restriction lives here.
    """

    def __init__(self, repo: GitRepo, analysis: SyncAnalysis, journal: QuizJournal, session: Session,
                 quiz: Quiz) -> None:
        super().__init__(repo, analysis, journal, session)
        self.quiz = quiz
        self._asked: dict[str, tuple[int, ...]] = {}
        for question in quiz.key.hunks:
            self._asked[question.path] = (*self._asked.get(question.path, ()), question.index)

    # -- what is asked --------------------------------------------------------------------

    def asked(self, path: str) -> tuple[int, ...]:
        """The hunks of ``path`` the exercise asks, in file order."""
        return tuple(sorted(self._asked.get(path, ())))

    def is_asked(self, path: str, index: int) -> bool:
        return index in self._asked.get(path, ())

    def decided_asked(self, path: str) -> int:
        """Asked hunks of ``path`` with an answer (all of them after a whole-file choice)."""
        if self.session.file_choice(path) is not None:
            return len(self.asked(path))
        return sum(1 for index in self.asked(path) if self.session.decision(path, index) is not None)

    def undecided_asked(self) -> int:
        """Asked hunks still without an answer: the quiz's "undecided" counter."""
        return sum(len(self.asked(path)) - self.decided_asked(path) for path in self._asked)

    def undecided_asked_high(self) -> int:
        return sum(1 for path in self._asked if self.session.file_choice(path) is None
                   for index in self.asked(path)
                   if self.hunk(path, index).level is Level.HIGH and self.session.decision(path, index) is None)

    # -- moving: only asked hunks -----------------------------------------------------------

    def positions(self, paths: tuple[str, ...] | None = None) -> Iterator[Position]:
        """Every asked hunk in review order."""
        for position in super().positions(paths):
            if position.hunk is not None and self.is_asked(position.path, position.hunk):
                yield position

    def step(self, here: Position | None, delta: int, paths: tuple[str, ...] | None = None) -> Position | None:
        return super().step(self._anchor(here, delta, paths), delta, paths)

    def next_open_risk(self, here: Position | None, delta: int) -> Position | None:
        return super().next_open_risk(self._anchor(here, delta, None), delta)

    def _anchor(self, here: Position | None, delta: int, paths: tuple[str, ...] | None) -> Position | None:
        """From a hunk that is not asked, the asked hunk just behind it (so a step lands on the next one)."""
        if here is None or (here.hunk is not None and self.is_asked(here.path, here.hunk)):
            return here
        every = list(super().positions(paths))
        if here not in every:
            return None
        behind = every[:every.index(here)] if delta > 0 else every[every.index(here) + 1:][::-1]
        return next((p for p in reversed(behind) if p.hunk is not None and self.is_asked(p.path, p.hunk)), None)

    def opening_hunk(self, path: str) -> int:
        """The riskiest unanswered asked hunk (the first of them), else the first asked one."""
        asked = [self.hunk(path, index) for index in self.asked(path)]
        if not asked:
            return super().opening_hunk(path)
        open_hunks = [h for h in asked if self.session.decision(path, h.index) is None] or asked
        return max(open_hunks, key=lambda h: (h.level.rank, h.risk, -h.index)).index

    def write_blocker(self) -> str | None:
        return "a training quiz is a replay and writes nothing to the work tree"

    @property
    def writes(self) -> bool:
        return False

    @property
    def saved_words(self) -> str:
        return "Your answers are saved."


def open_quiz(repo_path: str | os.PathLike[str] | None, merge: str, result: str, trainee: str, title: str,
              policy: str | None = None, progress: Callable[[LoadProgress], None] | None = None,
              risky: bool = False) -> QuizWorkspace:
    """Analyse the replay and the shipped result, and resume the trainee's answers (slow: run in a worker).

    ``progress`` hears the replay's outline first (the app shows the file list
    while the rest loads); ``risky`` asks only the "risky hunks" exercise: high
    and medium risk, and every hunk the maintainers changed.
    """
    repo, replay, key = load_answer_key(repo_path, merge, result, policy, progress)
    if risky:
        key = risky_subset(key)
    asked = {q.path for q in key.hunks}
    analysis = replace(replay, files=tuple(f for f in replay.files if f.path in asked))
    shas = {sha for q in key.hunks for sha in q.evidence}
    commits = {sha: repo.commit_info(sha) for sha in shas}
    quiz = Quiz(key, load_progress(trainee), commits, title)
    journal = QuizJournal(quiz)
    session = Session(analysis, journal.load(), read_blob=repo.read_blob)
    journal.session = session
    return QuizWorkspace(repo, analysis, journal, session, quiz)
