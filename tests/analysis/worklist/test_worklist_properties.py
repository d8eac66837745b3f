"""Properties of any worklist: each hunk that needs a look is in exactly one item, a high hunk's item is high,
ids are unique, and the same analysis gives the same worklist."""

from __future__ import annotations

from helpers.worklists import file, hunk, lost, sha, sync
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.analysis.model import HunkKind, Level, SyncAnalysis, Taken
from workbench.analysis.worklist import WorklistFacts, build_worklist
from workbench.analysis.worklist.causes import needs_look
from workbench.analysis.worklist.renames import swaps

PATHS = ["a.py", "b.py", "tests/test_a.py", "uv.lock"]
COMMITS = [sha(f"k{n}") for n in range(4)]


@st.composite
def analyses(draw: st.DrawFn) -> tuple[SyncAnalysis, WorklistFacts]:
    files = []
    layout = set()
    for path in draw(st.lists(st.sampled_from(PATHS), unique=True, max_size=4)):
        hunks = []
        for index in range(draw(st.integers(0, 4))):
            side = draw(st.sampled_from(["dev", "main", "both", "none"]))
            writers = draw(st.lists(st.sampled_from(COMMITS), max_size=2))
            signals = [lost(s, *writers) for s in ("dev", "main") if side in (s, "both") and writers]
            h = hunk(
                index,
                at=10 * (index + 1),
                level=draw(st.sampled_from(list(Level))),
                taken=draw(st.sampled_from(list(Taken))),
                lost_dev=[(0, 0)] if side in ("dev", "both") else [],
                lost_main=[(0, 0)] if side in ("main", "both") else [],
                signals=signals,
                kind=draw(st.sampled_from(list(HunkKind))),
            )
            if side == "none" and draw(st.booleans()):
                layout.add((path, index))
            hunks.append(h)
        files.append(file(path, hunks, policy=draw(st.sampled_from([None, None, "keep-dev"]))))
    facts = WorklistFacts(
        sync_commits=frozenset(draw(st.lists(st.sampled_from(COMMITS), max_size=1))), layout_only=frozenset(layout)
    )
    return sync(*files), facts


@settings(max_examples=150, deadline=None)
@given(analyses())
def test_every_hunk_needing_a_look_is_in_exactly_one_item(case: tuple[SyncAnalysis, WorklistFacts]) -> None:
    analysis, facts = case
    worklist = build_worklist(analysis, facts)
    seen = [(m.path, m.hunk) for i in worklist.items for m in i.members if m.hunk is not None]
    assert len(seen) == len(set(seen))
    wanted = {(f.path, h.index) for f in analysis.files for h in f.all_hunks if needs_look(h, (f.path, h.index), facts)}
    assert set(seen) == wanted
    for f in analysis.files:
        for h in f.all_hunks:
            item = worklist.of_hunk(f.path, h.index)
            if h.level is Level.HIGH:
                assert item is not None and item.level is Level.HIGH
    ids = [i.id for i in worklist.items]
    assert len(ids) == len(set(ids))
    assert build_worklist(analysis, facts) == worklist
    ranks = [(-i.level.rank, i.kind.rank) for i in worklist.items]
    assert [r[0] for r in ranks] == sorted(r[0] for r in ranks)


def test_a_swap_is_found_only_when_nothing_else_differs() -> None:
    assert swaps([b"x = tp_group.size()\n"], [b"x = pg_tp.size()\n"]) == {("tp_group", "pg_tp")}
    assert swaps([b"f(a, b)\n"], [b"g(a, c)\n"]) == {("f", "g"), ("b", "c")}
    assert swaps([b"x = tp_group.size()\n"], [b"x = pg_tp.size() + 1\n"]) == frozenset()
    assert swaps([b"x = 1\n"], [b"x = 2\n"]) == frozenset(), "a value is not a name"
    assert swaps([b"x = 1\n"], [b"x = 1\n"]) == frozenset()
