"""The worklist as the app walks it (``services/worklist.py``), without an App: open items, moves, one decision."""

from __future__ import annotations

from dataclasses import replace

from workbench.analysis.model import Level
from workbench.analysis.worklist import Member, Worklist
from workbench.resolve.splice import Choice
from workbench.sample import SampleSync
from workbench.services import worklist
from workbench.services.cursor import Cursor
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace


def _open(sample: SampleSync) -> Workspace:
    return Workspace.open(SyncRequest(repo=sample.path))


def test_next_item_walks_open_high_items_in_order_and_skips_decided_ones(sample_in_progress: SampleSync) -> None:
    ws = _open(sample_in_progress)
    high = [i for i in worklist.items(ws) if i.level is Level.HIGH]
    assert len(high) >= 3
    walked, current = [], None
    for _ in high:
        current = worklist.next_item(ws, current, +1, high_only=True)
        walked.append(current)
    assert walked == high
    assert worklist.next_item(ws, high[0], -1, high_only=True) is high[-1], "wraps around"
    targets, _skipped = worklist.decide_item(ws, high[1], Choice.DEV)
    assert targets and not worklist.undecided_members(ws, high[1])
    assert worklist.next_item(ws, high[0], +1, high_only=True) is high[2], "a decided item is passed over"
    assert worklist.counts(ws)[0] == len(worklist.items(ws)) - 1


def test_deciding_an_item_is_one_undo_and_its_members_stay_decidable(sample_in_progress: SampleSync) -> None:
    ws = _open(sample_in_progress)
    item = next(i for i in worklist.items(ws) if len(i.paths) > 1)
    targets, skipped = worklist.item_targets(ws, item, Choice.MERGED)
    assert not targets and skipped == len(item.members), "git's merge decides edits, not git's conflicts"
    done, _ = worklist.decide_item(ws, item, Choice.MAIN)
    assert len(done) == len(item.members) and worklist.state_words(ws, item) == "decided"
    ws.undo()
    assert worklist.state_words(ws, item) == "open"
    cursor = Cursor(ws)
    start = cursor.to_item(item)
    assert start is not None and (start.path, start.hunk) == (item.members[0].path, item.members[0].hunk)
    assert cursor.item_id == item.id


def test_a_member_in_a_file_the_sync_does_not_list_is_never_a_place_to_go(sample_in_progress: SampleSync) -> None:
    ws = _open(sample_in_progress)
    first = worklist.items(ws)[0]
    outside = replace(first, id="api-break-0000000000", members=(Member("clean/merged.py", None, Level.HIGH),))
    assert ws.analysis.worklist is not None
    ws.analysis = replace(ws.analysis, worklist=Worklist((outside, *ws.analysis.worklist.items)))
    assert worklist.start_of(ws, outside) is None
    assert worklist.next_item(ws, None, +1, high_only=True) is first, "the item outside the sync is passed over"
    assert worklist.counts(ws)[2] == len(worklist.items(ws)), "but it is counted, and open"
    assert worklist.item_rows(ws, worklist.ItemFilter.OPEN)[0].item is outside
