"""The differential fuzz of conflicts someone already touched, with a fixed seed (``helpers.hand_fuzz``).

Hand-resolved, hand-edited and emptied blocks in every conflict style and marker size, merge commits
that edit next to the conflicts, and the workbench's own writes read back: every write compared with
``git merge-file --ours``/``--theirs`` (or the model's splice of the same choices), every hunk's reading
with what the trial did.  ``tests/benchmarks/hand_resolved_fuzz.py`` runs it longer.
"""

from __future__ import annotations

from helpers.hand_fuzz import run

SEED = 37_000
TRIALS = 120


def test_conflicts_touched_by_hand_are_read_and_written_as_git_would() -> None:
    counts = run(SEED, TRIALS)
    assert counts.mismatches == [], counts.summary() + "\n" + "\n".join(counts.mismatches)
    assert not counts.refused, counts.refused
    assert min(counts.trials.values()) >= TRIALS // 3, counts.summary()
    assert sum(counts.touched.values()) >= TRIALS // 4 and "some blocks" in counts.touched, counts.summary()
