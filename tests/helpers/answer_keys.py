"""A small hand-made answer key (four hunks, one whose shipped text fails the API audit), for grading tests."""

from __future__ import annotations

from workbench.analysis.answer_key import AnswerKey, Caveat, QuizHunk
from workbench.analysis.model import ApiMismatch, Hunk, Level, LineRange, Taken


def quiz_hunk(index: int, level: Level, result: tuple[bytes, ...], start: int = 10) -> Hunk:
    """A hunk that shipped ``result`` (main's side taken) at ``start``."""
    span = LineRange(start, start + len(result) - 1)
    return Hunk(index, span, span, span, span, Taken.MAIN, (), (b"dev\n",), result, result, level=level)


def mismatch(path: str, symbol: str, hunk: int | None, line: int = 10) -> ApiMismatch:
    """``symbol`` called but not defined, found on main's side."""
    return ApiMismatch(path, line, symbol, "undefined-name", f"`{symbol}` is called but not defined", "main", hunk=hunk)


def small_key() -> AnswerKey:
    """a.py: hunk 0 high, main shipped but it fails the audit (doubtful); 1 low, dev shipped; 2 low; 3 medium."""
    hunks = (
        QuizHunk("a.py", 0, quiz_hunk(0, Level.HIGH, (b"f()\n",)), "main", (), (b"f()\n",), Caveat.SHIPPED_FAILS_AUDIT,
                 "`f` is called but not defined"),
        QuizHunk("a.py", 1, quiz_hunk(1, Level.LOW, (b"g\n",), 20), "dev", ()),
        QuizHunk("a.py", 2, quiz_hunk(2, Level.LOW, (b"h\n",), 30), "main", ()),
        QuizHunk("a.py", 3, quiz_hunk(3, Level.MEDIUM, (b"i\n",), 40), "main", ()),
    )
    return AnswerKey("m" * 40, "r" * 40, "d" * 40, "n" * 40, hunks)
