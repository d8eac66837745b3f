"""Answer keys: a shipped hunk that is itself doubtful is a caveat, not a miss; the risky exercise's subset."""

from __future__ import annotations

from dataclasses import replace

from helpers.answer_keys import mismatch, quiz_hunk, small_key

from workbench.analysis.answer_key import Caveat, _caveat, grade, grade_json, risky_subset
from workbench.analysis.model import Level


def test_a_mismatch_still_shipped_or_fixed_elsewhere_is_a_caveat() -> None:
    shipped = quiz_hunk(0, Level.HIGH, (b"configure_nvtx_profiling()\n",))
    still = _caveat("a.py", 0, shipped, [mismatch("a.py", "configure_nvtx_profiling", 0)],
                    [mismatch("a.py", "configure_nvtx_profiling", 0)])
    assert still[0] is Caveat.SHIPPED_FAILS_AUDIT and "configure_nvtx_profiling" in still[1]
    moved = quiz_hunk(0, Level.HIGH, (b"x.group_commit()\n",))
    elsewhere = _caveat("b.py", 0, moved, [mismatch("b.py", "group_commit", 0)], [])
    assert elsewhere[0] is Caveat.FIXED_ELSEWHERE
    fixed_here = quiz_hunk(0, Level.HIGH, (b"x.commit()\n",))
    assert _caveat("b.py", 0, fixed_here, [mismatch("b.py", "group_commit", 0)], []) == (None, ""), \
        "the shipped text no longer calls it: fixed in this hunk"
    assert _caveat("c.py", 0, shipped, [], []) == (None, "")
    import_dropped = replace(quiz_hunk(0, Level.HIGH, (b"import os\n",)),
                             dev_text=(b"from m import os, configure_nvtx_profiling\n",))
    called_below = mismatch("d.py", "configure_nvtx_profiling", None, line=90)
    assert _caveat("d.py", 0, import_dropped, [], [called_below])[0] is Caveat.SHIPPED_FAILS_AUDIT, \
        "the call far below still fails because this hunk's import was not restored"


def test_a_doubtful_hunk_is_not_scored_as_a_miss() -> None:
    result = grade(small_key(), {("a.py", 0): "dev", ("a.py", 1): "dev", ("a.py", 2): "dev"})
    assert [m.quiz.index for m in result.debatable] == [0]
    assert [m.quiz.index for m in result.harmless] == [2] and not result.costly
    assert result.score == 0.5, "one of the two scored answers agrees"
    data = grade_json(result)
    assert data["debatable_misses"][0]["caveat"] == "shipped-fails-audit" and len(data["harmless_misses"]) == 1


def test_the_risky_exercise_keeps_high_medium_and_changed_hunks() -> None:
    kept = risky_subset(small_key())
    assert [q.index for q in kept.hunks] == [0, 1, 2, 3], "high, medium, and every low one while there are few"


def test_which_low_risk_hunks_the_risky_exercise_asks_does_not_depend_on_the_answer() -> None:
    """Asking exactly the low-risk hunks the maintainers changed gave the answers away (issue 42)."""
    key = small_key()
    lows = tuple(replace(key.hunks[1], index=n, shipped="dev" if n % 2 else "main",
                         hunk=replace(key.hunks[1].hunk, index=n, main_text=(f"m{n}\n".encode(),)))
                 for n in range(4, 64))
    many = replace(key, hunks=key.hunks + lows)
    flipped = replace(many, hunks=tuple(replace(q, shipped="main" if q.shipped != "main" else "dev")
                                        for q in many.hunks))
    asked = [(q.path, q.index) for q in risky_subset(many).hunks]
    assert asked == [(q.path, q.index) for q in risky_subset(flipped).hunks]
    low = [q for q in risky_subset(many).hunks if q.level is Level.LOW]
    assert len(low) == 10 < 62
    assert {q.shipped for q in low} == {"main", "dev"}, "changed and unchanged ones alike"
