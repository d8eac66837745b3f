"""Training: what the maintainers shipped for each hunk, and grading a trainee.

The answer key is the analysis of a sync whose result is the maintainers'
final tree: every hunk ``-X theirs`` decided gets ``shipped`` (main, dev,
both, or other for a hand-made splice), with the commits that explain it.
A miss is *costly* when the maintainers had to bring dev's work back (they
shipped dev, both or a splice) and the trainee kept main's text: exactly
the mistake the sync bot makes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal, get_args

from workbench.analysis.model import ApiMismatch, FileSuggestion, Hunk, Level, Signal, SyncAnalysis, Taken

ANSWER_KEY_SCHEMA = "workbench.answer-key/1"
GRADE_SCHEMA = "workbench.services.exercises-grade/1"
Shipped = Literal["main", "dev", "both", "other"]
"""What the shipped result holds in a hunk, and what a trainee's answer comes to."""
SHIPPED: tuple[Shipped, ...] = get_args(Shipped)

# What a trainee may answer, folded onto the four shipped values.
_CHOICES: dict[str, Shipped] = {
    "main": "main",
    "dev": "dev",
    "both": "both",
    "both-main-first": "both",
    "custom": "other",
    "edit": "other",
    "other": "other",
}


def normalise_choice(choice: str) -> Shipped:
    """A trainee's answer as one of main/dev/both/other; ValueError if unknown."""
    try:
        return _CHOICES[choice.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown choice {choice!r} (use main, dev, both or other)") from None


class Caveat(str, Enum):
    """Why what shipped is not a clean answer for a hunk (a different answer is then not a plain miss)."""

    SHIPPED_FAILS_AUDIT = "shipped-fails-audit"
    """The shipped text here still fails the API audit: the maintainers shipped a broken call too."""
    FIXED_ELSEWHERE = "fixed-elsewhere"
    """The replay's API mismatch here was fixed in another file: this hunk's text was right only with that fix."""


@dataclass(frozen=True, slots=True)
class QuizHunk:
    """One hunk to decide, and what the maintainers shipped there."""

    path: str
    index: int
    hunk: Hunk
    shipped: Shipped
    evidence: tuple[str, ...]
    """Commits after the sync merge that wrote the shipped text (fix commits)."""
    shipped_text: tuple[bytes, ...] = ()
    """The lines the shipped result holds in the hunk's place (what a reveal shows)."""
    caveat: Caveat | None = None
    caveat_detail: str = ""
    """The audit's sentence behind the caveat (the mismatch still shipped, or the one fixed elsewhere)."""
    file_suggestion: FileSuggestion | None = None
    """The one choice the workbench suggests for the hunk's whole file (a lock file, golden values): such a
    file's hunks carry no menu of their own."""

    @property
    def changed_after_sync(self) -> bool:
        """The maintainers did not keep the bot's main text here."""
        return self.shipped != "main"

    @property
    def signals(self) -> tuple[Signal, ...]:
        return self.hunk.signals

    @property
    def level(self) -> Level:
        return self.hunk.level


@dataclass(frozen=True)
class AnswerKey:
    """Every quiz hunk of one shipped sync."""

    merge: str
    result: str
    dev: str
    main: str
    hunks: tuple[QuizHunk, ...]

    def find(self, path: str, index: int) -> QuizHunk | None:
        for quiz in self.hunks:
            if quiz.path == path and quiz.index == index:
                return quiz
        return None


def shipped_value(hunk: Hunk) -> Shipped:
    """main/dev/both/other for what the shipped result holds in the hunk."""
    return _SHIPPED_TAKEN.get(hunk.taken, "other")


_SHIPPED_TAKEN: dict[Taken, Shipped] = {Taken.MAIN: "main", Taken.DEV: "dev", Taken.BOTH: "both"}


def build_answer_key(
    replay: SyncAnalysis,
    shipped: SyncAnalysis,
    merge: str,
    result: str,
    evidence: Mapping[tuple[str, int], tuple[str, ...]],
) -> AnswerKey:
    """The key: hunks, risk and signals from the raw ``-X theirs`` replay (what a
    trainee sees), and what shipped from the analysis against the shipped result.

    Scoring the shipped result instead would give the answer away: hunks the
    maintainers restored already hold dev's text there and score low.
    """
    shipped_hunks = {(f.path, h.index): h for f in shipped.files for h in f.hunks}
    hunks = []
    for entry in replay.files:
        for hunk in entry.hunks:
            key = (entry.path, hunk.index)
            answer = shipped_hunks.get(key)
            if answer is None:
                continue
            caveat, detail = _caveat(entry.path, hunk.index, answer, replay.api_mismatches, shipped.api_mismatches)
            hunks.append(QuizHunk(entry.path, hunk.index, hunk, shipped_value(answer), evidence.get(key, ()),
                                  answer.result_text or (), caveat, detail, entry.suggestion))
    return AnswerKey(merge, result, replay.dev, replay.main, tuple(hunks))


def _caveat(path: str, index: int, shipped_hunk: Hunk, replay: Sequence[ApiMismatch],
            shipped: Sequence[ApiMismatch]) -> tuple[Caveat | None, str]:
    """Whether the API audit makes what shipped in this hunk a doubtful answer, and its sentence.

    The shipped text fails the audit when a mismatch of the shipped tree sits
    in the hunk's shipped lines, or names what a side had in this hunk and
    the shipped text lacks (an import the maintainers did not restore).  A mismatch of the replay in this hunk was
    fixed elsewhere when the shipped text still names its symbol but the
    shipped tree no longer has that mismatch in this file: another file
    (say, the callee's) was changed instead.
    """
    placed = shipped_hunk.result
    text = b"".join(shipped_hunk.result_text or ())
    dropped = b"".join(shipped_hunk.dev_text) + b"".join(shipped_hunk.main_text)
    for mismatch in shipped:
        inside = mismatch.hunk == index if mismatch.hunk is not None else (
            placed is not None and placed.start <= mismatch.line <= placed.end)
        # Or the hunk held what the broken line needs (an import, a definition) and what shipped lacks it.
        needed = mismatch.symbol.encode() in dropped and mismatch.symbol.encode() not in text
        if mismatch.path == path and (inside or needed):
            return Caveat.SHIPPED_FAILS_AUDIT, mismatch.message
    still = {(m.path, m.symbol) for m in shipped}
    for mismatch in replay:
        if (mismatch.path == path and mismatch.hunk == index and mismatch.symbol.encode() in text
                and (path, mismatch.symbol) not in still):
            return Caveat.FIXED_ELSEWHERE, mismatch.message
    return None, ""


@dataclass(frozen=True)
class Miss:
    """A hunk the trainee answered differently from what shipped."""

    quiz: QuizHunk
    answered: Shipped

    @property
    def costly(self) -> bool:
        return self.quiz.changed_after_sync and self.answered == "main" and not self.debatable

    @property
    def debatable(self) -> bool:
        """What shipped is not a clean answer here (``Caveat``): not scored as a miss."""
        return self.quiz.caveat is not None


@dataclass(frozen=True)
class Grade:
    """How a trainee's answers compare with the shipped sync."""

    key: AnswerKey
    agreed: tuple[QuizHunk, ...]
    misses: tuple[Miss, ...]
    unanswered: tuple[QuizHunk, ...]
    unmatched: tuple[tuple[str, int], ...] = ()
    """Answers naming no quiz hunk (a wrong path or index), as (path, index) in the order given:
    they are reported, never silently dropped."""

    @property
    def answered(self) -> int:
        return len(self.agreed) + len(self.misses)

    @property
    def score(self) -> float:
        """Share of scored answers that agree with the shipped sync (0..1; 0 when none is answered,
        which front ends say in words instead of showing a score).  Debatable misses (what shipped
        is itself doubtful, see ``Caveat``) are left out."""
        scored = self.answered - len(self.debatable)
        return len(self.agreed) / scored if scored else 0.0

    @property
    def costly(self) -> tuple[Miss, ...]:
        return tuple(m for m in self.misses if m.costly)

    @property
    def harmless(self) -> tuple[Miss, ...]:
        return tuple(m for m in self.misses if not m.costly and not m.debatable)

    @property
    def debatable(self) -> tuple[Miss, ...]:
        """Answers unlike what shipped where what shipped fails the audit or leans on a fix elsewhere."""
        return tuple(m for m in self.misses if m.debatable)


def grade(key: AnswerKey, answers: Mapping[tuple[str, int], str]) -> Grade:
    """Grade answers keyed by (path, hunk index); choices are normalised."""
    known = {(quiz.path, quiz.index) for quiz in key.hunks}
    agreed: list[QuizHunk] = []
    misses: list[Miss] = []
    unanswered: list[QuizHunk] = []
    for quiz in key.hunks:
        raw = answers.get((quiz.path, quiz.index))
        if raw is None:
            unanswered.append(quiz)
            continue
        choice = normalise_choice(raw)
        if choice == quiz.shipped:
            agreed.append(quiz)
        else:
            misses.append(Miss(quiz, choice))
    unmatched = tuple(where for where in answers if where not in known)
    return Grade(key, tuple(agreed), tuple(misses), tuple(unanswered), unmatched)


def parse_answers(data: Any, source: str) -> dict[tuple[str, int], str]:
    """Read ``{"hunks": [{"path", "index", "choice"}]}``; ValueError naming the entry."""
    if not isinstance(data, dict) or not isinstance(data.get("hunks"), list):
        raise ValueError(f'{source}: expected {{"hunks": [{{"path", "index", "choice"}}, ...]}}')
    answers: dict[tuple[str, int], str] = {}
    for n, item in enumerate(data["hunks"]):
        if not isinstance(item, dict) or not {"path", "index", "choice"} <= item.keys():
            raise ValueError(f"{source}: hunks[{n}] needs path, index and choice")
        if not isinstance(item["index"], int) or not isinstance(item["path"], str):
            raise ValueError(f"{source}: hunks[{n}] has a non-integer index or a non-string path")
        normalise_choice(str(item["choice"]))
        answers[(item["path"], item["index"])] = str(item["choice"])
    return answers


def answer_key_json(key: AnswerKey) -> dict[str, Any]:
    return {
        "schema": ANSWER_KEY_SCHEMA,
        "merge": key.merge,
        "result": key.result,
        "dev": key.dev,
        "main": key.main,
        "hunks": [_quiz_json(q) for q in key.hunks],
    }


def _quiz_json(quiz: QuizHunk) -> dict[str, Any]:
    hunk = quiz.hunk
    return {
        "path": quiz.path,
        "index": quiz.index,
        "base_lines": hunk.base.as_list(),
        "dev_lines": hunk.dev.as_list(),
        "main_lines": hunk.main.as_list(),
        "result_lines": hunk.result.as_list() if hunk.result else None,
        "shipped": quiz.shipped,
        "evidence": list(quiz.evidence),
        "dev_commits": list(hunk.dev_commits),
        "main_commits": list(hunk.main_commits),
        "risk": hunk.risk,
        "level": hunk.level.value,
        "signals": [{"kind": s.kind.value, "message": s.message, "commits": list(s.commits)} for s in hunk.signals],
        "caveat": quiz.caveat.value if quiz.caveat else None,
        "caveat_detail": quiz.caveat_detail,
        "file_suggestion": quiz.file_suggestion.take.value if quiz.file_suggestion else None,
    }


def grade_json(result: Grade) -> dict[str, Any]:
    def miss(m: Miss) -> dict[str, Any]:
        return {"path": m.quiz.path, "index": m.quiz.index, "answered": m.answered, "shipped": m.quiz.shipped,
                "evidence": list(m.quiz.evidence), "level": m.quiz.level.value}

    return {
        "schema": GRADE_SCHEMA,
        "merge": result.key.merge,
        "result": result.key.result,
        "total": len(result.key.hunks),
        "answered": result.answered,
        "agreed": len(result.agreed),
        "score": round(result.score, 4) if result.answered else None,
        "costly_misses": [miss(m) for m in result.costly],
        "harmless_misses": [miss(m) for m in result.harmless],
        "debatable_misses": [{**miss(m), "caveat": m.quiz.caveat.value if m.quiz.caveat else None,
                              "caveat_detail": m.quiz.caveat_detail} for m in result.debatable],
        "unanswered": [{"path": q.path, "index": q.index} for q in result.unanswered],
        "unmatched": [{"path": path, "index": index} for path, index in result.unmatched],
    }


def summary(key: AnswerKey) -> dict[str, int]:
    """How many hunks shipped as each value, and how many risky ones changed."""
    counts: dict[str, int] = {value: 0 for value in SHIPPED}
    for quiz in key.hunks:
        counts[quiz.shipped] += 1
    counts["changed_after_sync"] = sum(1 for q in key.hunks if q.changed_after_sync)
    counts["changed_and_high"] = sum(1 for q in key.hunks if q.changed_after_sync and q.level is Level.HIGH)
    return counts


RISKY_LOW_MIN = 10
"""The "risky hunks" exercise asks at least this many low-risk hunks (all of them, when fewer)."""


def risky_subset(key: AnswerKey) -> AnswerKey:
    """The "risky hunks" exercise: every high- and medium-risk hunk, and as many low-risk ones (at least
    ``RISKY_LOW_MIN``), drawn by a hash of their path and text.

    Which low-risk hunks are asked must not depend on the answer: asking
    exactly those the maintainers changed told the trainee what they had
    changed.  The draw is fixed for a sync (the same exercise every time).
    """
    risky = [q for q in key.hunks if q.level is not Level.LOW]
    low = sorted((q for q in key.hunks if q.level is Level.LOW), key=_draw)
    drawn = {(q.path, q.index) for q in low[: max(RISKY_LOW_MIN, len(risky))]}
    chosen = tuple(q for q in key.hunks if q.level is not Level.LOW or (q.path, q.index) in drawn)
    return AnswerKey(key.merge, key.result, key.dev, key.main, chosen)


def _draw(quiz: QuizHunk) -> str:
    """A low-risk hunk's place in the draw: a digest of what the trainee sees (its path and side texts)."""
    digest = hashlib.sha256(quiz.path.encode("utf-8", "surrogateescape"))
    for part in (*quiz.hunk.base_text, b"\0", *quiz.hunk.dev_text, b"\0", *quiz.hunk.main_text):
        digest.update(part)
    return digest.hexdigest()

