"""Splicing into git's conflict text in every style, marker size and final-newline state (property tests).

The conflict text is what ``git merge-file`` writes with ``--diff3``,
``--zdiff3`` or neither and a random ``--marker-size``; the reference for
one choice everywhere is git's own ``--ours``/``--theirs`` of the same files.
"""

from __future__ import annotations

from helpers.git_reference import merge_file
from helpers.texts import MARKER_LIKE, triples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.analysis.conflict_map import locate
from workbench.analysis.hunks import build_hunks
from workbench.analysis.xdiff import Algorithm, MergeLevel, MergeResult, merge_lines, split_lines
from workbench.resolve.markers import conflict_markers
from workbench.resolve.splice import EDIT_ONLY, Choice, ConflictTextError, Decision, splice_conflicted, splice_merge

STYLES = [(), ("--diff3",), ("--zdiff3",)]
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _model(base: bytes, ours: bytes, theirs: bytes, packed: bool) -> MergeResult:
    """The hunk model of what ``git merge-file`` merges (myers, zealous_alnum): as computed (tuples, as
    ``git mergetool`` keeps it) or packed (as a sync's analysis keeps it)."""
    merge = merge_lines(split_lines(base), split_lines(ours), split_lines(theirs), Algorithm.MYERS, MergeLevel.ZEALOUS_ALNUM)
    return merge.packed() if packed else merge


@SETTINGS
@given(triples(), st.sampled_from(STYLES), st.integers(3, 12), st.data())
def test_choices_spliced_into_any_conflict_text_are_gits_merge(
    triple: tuple[bytes, bytes, bytes], style: tuple[str, ...], size: int, data: st.DataObject
) -> None:
    base, ours, theirs = triple
    conflicted = merge_file(base, ours, theirs, *style, f"--marker-size={size}")
    model = _model(base, ours, theirs, data.draw(st.booleans(), label="packed"))
    hunks = build_hunks(model, conflicted, unmerged=True)
    n = len(hunks)
    if not n:
        return
    for choice, option in ((Choice.MAIN, "--theirs"), (Choice.DEV, "--ours")):
        written = splice_conflicted(conflicted, hunks, [Decision(choice)] * n, model)
        assert written == merge_file(base, ours, theirs, option)
    found = locate(conflicted, model)
    assert found is not None and found.text.marker_size == size
    if not found.agrees:
        return
    options = [Decision(c) for c in Choice if c is not Choice.CUSTOM and c not in EDIT_ONLY] + [Decision(Choice.CUSTOM, b"edited\n"), None]
    vector = [data.draw(st.sampled_from(options)) for _ in hunks]
    written = splice_conflicted(conflicted, hunks, vector, model)
    if None not in vector:
        assert written == splice_merge(model, vector)
        assert not conflict_markers(written, size)
    else:
        labels = found.text.labels
        assert written == splice_merge(model, vector, labels, size), "undecided hunks keep git's markers"


@SETTINGS
@given(triples(MARKER_LIKE), st.sampled_from(STYLES), st.booleans())
def test_text_that_looks_like_a_separator_is_never_written_as_one(
    triple: tuple[bytes, bytes, bytes], style: tuple[str, ...], packed: bool
) -> None:
    """Sides holding ``=======`` and ``|||||||`` lines: one side everywhere writes git's merge for that side,
    or is refused when the blocks read two ways (never a side cut short at a line taken for a marker)."""
    base, ours, theirs = triple
    conflicted = merge_file(base, ours, theirs, *style)
    model = _model(base, ours, theirs, packed)
    hunks = build_hunks(model, conflicted, unmerged=True)
    if not hunks:
        return
    for choice, option in ((Choice.MAIN, "--theirs"), (Choice.DEV, "--ours")):
        try:
            written = splice_conflicted(conflicted, hunks, [Decision(choice)] * len(hunks), model)
        except ConflictTextError:
            continue
        assert written == merge_file(base, ours, theirs, option)
