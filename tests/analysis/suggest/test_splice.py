"""The three-way splices keep every line their description promises, and agree with git where git merges cleanly."""

from __future__ import annotations

from helpers.texts import edited, texts
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.analysis.suggest.candidates import Edits, HunkTexts, spliced
from workbench.analysis.suggest.splice import Order, side_edits, splice
from workbench.analysis.xdiff import Favor, merge_lines, split_lines


@st.composite
def three(draw: st.DrawFn) -> HunkTexts:
    base = draw(texts())
    return HunkTexts(tuple(split_lines(base)), tuple(split_lines(draw(edited(base)))), tuple(split_lines(draw(edited(base)))))


def _is_subsequence(part: list[bytes], whole: list[bytes]) -> bool:
    it = iter(whole)
    return all(any(line == other for other in it) for line in part)


@settings(max_examples=300, deadline=None)
@given(three(), st.sampled_from(list(Order)))
def test_a_splice_keeps_each_side_s_lines_and_deletions(t: HunkTexts, order: Order) -> None:
    dev, main = side_edits(t.base, t.dev), side_edits(t.base, t.main)
    origins = splice(t.base, dev, main, order, t.dev, t.main)
    got = {(o.source, o.index) for o in origins}
    assert all(("dev", i) in got for i in dev.written), "every line dev wrote is kept"
    deleted = dev.deleted | main.deleted
    assert {i for s, i in got if s == "base"} == set(range(len(t.base))) - deleted, "each side's deletions are kept"
    lines = list(spliced(t, Edits(dev, main), order))
    shared = len(main.written) - sum(1 for s, _ in got if s == "main")
    assert shared >= 0 and len(lines) == len(t.base) - len(deleted) + len(dev.written) + len(main.written) - shared
    assert _is_subsequence([t.dev[i] for i in dev.written], lines), "dev's lines, in order"
    assert _is_subsequence([t.main[i] for i in main.written], lines), "main's new lines, in order (shared ones once)"
    for source in ("base", "dev", "main"):
        indexes = [o.index for o in origins if o.source == source]
        assert indexes == sorted(indexes), f"{source}'s lines stay in their order"


@settings(max_examples=300, deadline=None)
@given(three())
def test_where_the_merge_is_clean_both_splices_are_git_s_merge(t: HunkTexts) -> None:
    """xdiff's merge is git's (its own tests run git on random input): a clean merge there is each splice."""
    if not all(not lines or lines[-1].endswith(b"\n") for lines in (t.base, t.dev, t.main)):
        return  # a missing final newline: git's merge adds one between joined regions, a splice does not
    merged = merge_lines(t.base, t.dev, t.main)
    if merged.conflicts:
        return
    edits = Edits.of(t)
    assert b"".join(spliced(t, edits, Order.DEV_FIRST)) == merged.render()
    assert b"".join(spliced(t, edits, Order.MAIN_FIRST)) == merged.render()


def test_a_base_line_one_side_rewrote_does_not_come_back_through_the_other_side() -> None:
    t = HunkTexts((b"a\n", b"b\n", b"c\n"), (b"A\n", b"B\n", b"c\n"), (b"a\n", b"b2\n", b"C\n"))
    assert spliced(t, Edits.of(t), Order.DEV_FIRST) == (b"A\n", b"B\n", b"b2\n", b"C\n")
    union = split_lines(merge_lines(t.base, t.dev, t.main).render(Favor.UNION))
    assert b"a\n" in union and b"c\n" in union, "git's union of the hunk brings back base lines a side rewrote"


def test_where_both_sides_write_at_one_place_the_order_says_whose_lines_come_first() -> None:
    t = HunkTexts((b"a\n", b"c\n"), (b"a\n", b"X\n", b"c\n"), (b"a\n", b"Y\n", b"c\n"))
    assert spliced(t, Edits.of(t), Order.DEV_FIRST) == (b"a\n", b"X\n", b"Y\n", b"c\n")
    assert spliced(t, Edits.of(t), Order.MAIN_FIRST) == (b"a\n", b"Y\n", b"X\n", b"c\n")
