"""The navigation cursor without an App: review order, where files open, moves, folds and toggles, a quiz's scope."""

from __future__ import annotations

import pytest

from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice, Decision
from workbench.sample import SampleSync
from workbench.services.cursor import (
    Cursor,
    Shown,
    is_open_risk,
    next_open_risk,
    next_undecided,
    opening_hunk,
    positions,
    step,
)
from workbench.services.sync import SyncRequest
from workbench.services.workspace import HunkScope, Position, Workspace

LAYER = "megatron/core/transformer/transformer_layer.py"


@pytest.fixture
def ws(sample_in_progress: SampleSync) -> Workspace:
    return Workspace.open(SyncRequest(repo=sample_in_progress.path))


def test_step_walks_hunks_in_review_order_and_stops_at_the_ends(ws: Workspace) -> None:
    order = list(positions(ws))
    assert len(order) == sum(max(1, len(f.all_hunks)) for f in ws.files)
    assert step(ws, None, +1) == order[0]
    assert step(ws, order[0], -1) is None and step(ws, order[-1], +1) is None
    assert step(ws, Position(LAYER, 0), +1) == Position(LAYER, 1)
    assert step(ws, Position(LAYER, 0), +1, paths=(LAYER,)) == Position(LAYER, 1)


def test_next_open_risk_visits_each_undecided_high_risk_hunk_and_wraps(ws: Workspace) -> None:
    risky = [p for p in positions(ws) if is_open_risk(ws, p)]
    assert len(risky) >= 2
    assert next_open_risk(ws, None, +1) == risky[0]
    assert next_open_risk(ws, risky[0], +1) == risky[1]
    assert next_open_risk(ws, risky[0], -1) == risky[-1]
    for position in risky[1:]:
        if position.hunk is None:  # a high-risk file without hunks (modify/delete): a whole-file answer
            ws.choose_file(position.path, FileChoice.KEEP_DEV)
        else:
            ws.decide(position.path, position.hunk, Decision(Choice.DEV))
    assert next_open_risk(ws, risky[0], +1) is None, "only the one we are on is left"
    assert opening_hunk(ws, risky[0].path) == risky[0].hunk


def test_a_file_opens_on_its_opening_hunk_or_where_a_move_asked(ws: Workspace) -> None:
    cursor = Cursor(ws)
    cursor.open(LAYER)
    assert cursor.hunk_target() is None, "nothing to decide while preparing"
    assert cursor.here() == Position(LAYER, opening_hunk(ws, LAYER)), "a move goes on from where it will open"
    assert cursor.opening == LAYER and cursor.noted_place() is None
    assert cursor.file_shown(LAYER, Shown.HUNKS) == Position(LAYER, opening_hunk(ws, LAYER))
    assert not cursor.take_pending(), "opened by the list: the view is not focused"
    cursor.laid_out()
    assert cursor.opening is None and cursor.hunk_target() == (LAYER, opening_hunk(ws, LAYER))

    assert cursor.go(Position(LAYER, 1)) and cursor.current == 1, "a hunk of the file on screen: no reopening"
    other = next(f.path for f in ws.files if f.path != LAYER and len(f.all_hunks) > 1)
    assert not cursor.go(Position(other, 1)), "another file: it must be opened first"
    cursor.open(other)
    assert cursor.here() == Position(other, 1), "while it is prepared, a move goes on from the hunk it opens on"
    assert cursor.file_shown(other, Shown.HUNKS) == Position(other, 1)
    assert cursor.take_pending() and not cursor.take_pending(), "the move asked for it: focus once"


def test_a_whole_file_choice_has_no_hunk_to_decide(ws: Workspace) -> None:
    cursor = Cursor(ws)
    cursor.open(LAYER)
    assert cursor.file_shown(LAYER, Shown.WHOLE_FILE) == Position(LAYER, None)
    assert cursor.whole_file and cursor.hunk_target() is None and cursor.noted_place() == (LAYER, None)
    assert cursor.opening is None


def test_folds_and_toggles_reset_where_they_should(ws: Workspace) -> None:
    cursor = Cursor(ws)
    cursor.open(LAYER)
    cursor.open_fold(3)
    cursor.open_fold(9)
    assert cursor.expanded == {3, 9}
    cursor.toggle_context()
    assert cursor.expand_all and cursor.expanded == frozenset()
    cursor.open_fold(3)
    cursor.open(LAYER)
    assert cursor.expanded == frozenset(), "a file opens with its folds closed"
    assert cursor.toggle_diffs() and cursor.show_diffs
    again = cursor.carried_to(ws)
    assert again.show_diffs and again.expand_all and again.path is None, "a reanalysis keeps the view, not the place"


def test_an_undo_shows_its_hunk_or_its_file(ws: Workspace) -> None:
    cursor = Cursor(ws)
    cursor.open(LAYER)
    assert cursor.place_to_show(Position(LAYER, 2)) == Position(LAYER, 2)
    assert cursor.place_to_show(Position(LAYER, None)) is None, "the file is on screen already"
    other = next(f for f in ws.files if f.path != LAYER)
    expected = opening_hunk(ws, other.path) if other.all_hunks else None
    assert cursor.place_to_show(Position(other.path, None)) == Position(other.path, expected)


def test_a_quiz_scope_visits_and_opens_only_the_asked_hunks(ws: Workspace) -> None:
    hunks = len(ws.entry(LAYER).all_hunks)
    assert hunks >= 3
    ws.scope = HunkScope({LAYER: (1, hunks - 1)})
    assert list(positions(ws)) == [Position(LAYER, 1), Position(LAYER, hunks - 1)], "other files are not asked"
    assert step(ws, Position(LAYER, 0), +1) == Position(LAYER, 1), "from a hunk not asked, to the next asked one"
    assert step(ws, Position(LAYER, 1), +1) == Position(LAYER, hunks - 1)
    assert opening_hunk(ws, LAYER) in (1, hunks - 1)
    ws.decide(LAYER, 1, Decision(Choice.DEV))
    assert next_undecided(ws, Position(LAYER, 1), +1) == Position(LAYER, hunks - 1)
    assert opening_hunk(ws, LAYER) == hunks - 1, "the undecided asked hunk"


def test_a_loaded_sync_opens_on_the_file_asked_for_else_where_the_user_moved_else_the_first(ws: Workspace) -> None:
    shown = tuple(f.path for f in ws.files)
    other = next(p for p in shown if p != LAYER)
    cursor = Cursor(ws)
    assert cursor.first_file(LAYER, other, shown) == LAYER and cursor.pending == opening_hunk(ws, LAYER), "--file"
    cursor = Cursor(ws)
    assert cursor.first_file(None, other, shown) == other and cursor.pending is None, "the row the user moved to"
    assert Cursor(ws).first_file("no/such/file.py", None, shown) == shown[0]
    assert Cursor(ws).first_file(None, other, (LAYER,)) == LAYER, "a row the filter hides is not reopened"
    assert Cursor(ws).first_file(None, None, ()) is None
