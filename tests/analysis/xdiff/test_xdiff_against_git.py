"""The Python xdiff must give git's answers byte for byte (property tests).

Each example runs the git binary for the reference answer: ``git diff
--no-index`` for edit scripts, ``git merge-file`` (myers, zealous_alnum) for
every favour and marker style, and a real ``git merge`` (merge-ort: histogram,
zealous) for what a sync merge writes.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from helpers.git_reference import diff_no_index, merge_file, real_merges
from helpers.texts import edited, texts, triples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.analysis.hunks import build_hunks
from workbench.analysis.xdiff import (
    Algorithm,
    Favor,
    MergeLevel,
    Style,
    coalesce_alnum,
    diff_lines,
    merge_lines,
    split_lines,
)
from workbench.resolve.splice import EDIT_ONLY, Choice, Decision, splice_merge, splice_result

GIT_SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _script(a: bytes, b: bytes, algorithm: Algorithm) -> list[tuple[int, int, int, int]]:
    return [(c.i1, c.chg1, c.i2, c.chg2) for c in diff_lines(split_lines(a), split_lines(b), algorithm)]


@GIT_SETTINGS
@given(st.data())
def test_two_way_scripts_match_git_diff(data: st.DataObject) -> None:
    a = data.draw(texts())
    b = data.draw(edited(a))
    assert _script(a, b, Algorithm.MYERS) == diff_no_index(a, b, "myers")
    assert _script(a, b, Algorithm.HISTOGRAM) == diff_no_index(a, b, "histogram")


@GIT_SETTINGS
@given(triples())
def test_merge_file_every_favour_and_style(triple: tuple[bytes, bytes, bytes]) -> None:
    base, ours, theirs = triple
    labels = ("OURS", "THEIRS", "BASE")
    args = (split_lines(base), split_lines(ours), split_lines(theirs), Algorithm.MYERS, MergeLevel.ZEALOUS_ALNUM)
    merge = merge_lines(*args)
    assert merge.render(Favor.NONE, labels) == merge_file(base, ours, theirs)
    assert merge.render(Favor.OURS, labels) == merge_file(base, ours, theirs, "--ours")
    assert merge.render(Favor.THEIRS, labels) == merge_file(base, ours, theirs, "--theirs")
    assert merge.render(Favor.UNION, labels) == merge_file(base, ours, theirs, "--union")
    diff3 = merge_lines(*args, style=Style.DIFF3)
    assert diff3.render(Favor.NONE, labels) == merge_file(base, ours, theirs, "--diff3")
    zdiff3 = merge_lines(*args, style=Style.ZDIFF3)
    assert zdiff3.render(Favor.NONE, labels) == merge_file(base, ours, theirs, "--zdiff3")


@GIT_SETTINGS
@given(triples())
def test_splicing_one_choice_everywhere_is_git(triple: tuple[bytes, bytes, bytes]) -> None:
    """The hunk model (zealous + alnum coalescing) splices to git's favours."""
    base, ours, theirs = triple
    merge = merge_lines(split_lines(base), split_lines(ours), split_lines(theirs), Algorithm.MYERS, MergeLevel.ZEALOUS_ALNUM)
    n = len(merge.conflicts)
    for choice, option in ((Choice.DEV, "--ours"), (Choice.MAIN, "--theirs"), (Choice.BOTH, "--union")):
        assert splice_merge(merge, [Decision(choice)] * n) == merge_file(base, ours, theirs, option)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(triples())
def test_real_git_merge_histogram_zealous(triple: tuple[bytes, bytes, bytes]) -> None:
    """What `git merge` writes: conflicted blob, -X ours, -X theirs (merge-ort)."""
    base, ours, theirs = triple
    with tempfile.TemporaryDirectory() as tmp:
        git_out = real_merges(Path(tmp), base, ours, theirs)
    zealous = merge_lines(split_lines(base), split_lines(ours), split_lines(theirs), Algorithm.HISTOGRAM, MergeLevel.ZEALOUS)
    assert zealous.render(Favor.NONE, ("dev", "main", None)) == git_out["conflicted"]
    model = coalesce_alnum(zealous)
    n = len(model.conflicts)
    assert splice_merge(model, [Decision(Choice.MAIN)] * n) == git_out["theirs"]
    assert splice_merge(model, [Decision(Choice.DEV)] * n) == git_out["ours"]


@settings(max_examples=300, deadline=None)
@given(triples(), st.data())
def test_any_choice_vector_edits_only_its_hunks(triple: tuple[bytes, bytes, bytes], data: st.DataObject) -> None:
    """Rebuilding from the merge and editing the -X theirs result agree for any choices."""
    base, ours, theirs = triple
    merge = coalesce_alnum(merge_lines(split_lines(base), split_lines(ours), split_lines(theirs)))
    theirs_result = merge.render(Favor.THEIRS)
    hunks = build_hunks(merge, theirs_result)
    options = [Decision(c) for c in Choice if c is not Choice.CUSTOM and c not in EDIT_ONLY] + [Decision(Choice.CUSTOM, b"edited\n")]
    vector = [data.draw(st.sampled_from(options)) for _ in hunks]
    rebuilt = splice_merge(merge, vector)
    assert splice_result(theirs_result, hunks, vector, merge) == rebuilt
    for hunk, decision in zip(hunks, vector, strict=True):
        if decision.choice is Choice.MAIN:
            assert hunk.result is not None and hunk.result_text == hunk.main_text
