"""Session: decisions, whole-file choices, undo/redo and replay, on a real sample."""

from __future__ import annotations

import pytest

from workbench.analysis.model import FileStatus
from workbench.resolve.events import Event, FileChoice, Op
from workbench.resolve.session import Session, SessionError
from workbench.resolve.splice import Choice, Decision
from workbench.sample import SampleSync
from workbench.sync import SyncRequest, open_sync


@pytest.fixture
def loaded(sample_in_progress: SampleSync) -> tuple[Session, object]:
    repo, analysis = open_sync(SyncRequest(repo=sample_in_progress.path))
    return Session(analysis, read_blob=repo.read_blob), repo


def _text_file(session: Session, hunks: int = 1) -> str:
    return next(f.path for f in session.analysis.files if len(f.hunks) >= hunks and f.merge is not None)


def test_deciding_counts_down_and_previews_the_choice(loaded: tuple[Session, object]) -> None:
    session, _ = loaded
    path = _text_file(session)
    entry = session.file(path)
    before = session.undecided()
    session.decide(path, 0, Decision(Choice.DEV))
    assert session.decision(path, 0) == Decision(Choice.DEV)
    assert session.undecided() == before - 1
    preview = session.preview(path)
    assert preview is not None and b"".join(entry.hunks[0].dev_text) in preview
    assert path in session.dirty_paths()


def test_undo_and_redo_walk_back_and_forth(loaded: tuple[Session, object]) -> None:
    session, _ = loaded
    path = _text_file(session)
    session.decide(path, 0, Decision(Choice.DEV))
    session.decide(path, 0, Decision(Choice.BOTH))
    assert session.undo() is not None
    assert session.decision(path, 0) == Decision(Choice.DEV)
    assert session.undo() is not None
    assert session.decision(path, 0) is None
    assert session.undo() is None
    assert session.redo() is not None and session.decision(path, 0) == Decision(Choice.DEV)
    session.decide(path, 0, Decision(Choice.MAIN))
    assert not session.can_redo, "a new decision clears the redo stack"


def test_whole_file_choice_decides_every_hunk_and_is_one_undo(loaded: tuple[Session, object]) -> None:
    session, _ = loaded
    path = _text_file(session, hunks=2)
    n = len(session.file(path).hunks)
    session.decide_file(path, Choice.DEV)
    assert session.decided(path) == n
    session.undo()
    assert session.decided(path) == 0


def test_replaying_events_rebuilds_the_same_state(loaded: tuple[Session, object]) -> None:
    session, _ = loaded
    path = _text_file(session, hunks=2)
    events: list[Event] = []
    events.append(session.decide_file(path, Choice.MAIN))
    events.append(session.decide(path, 1, Decision(Choice.CUSTOM, b"x = 1\r\nno newline")))
    events.append(session.set_note(path, 1, "kept by hand: see #102"))
    undone = session.undo()
    assert undone is not None
    events.append(undone)
    copy = Session(session.analysis, [Event.from_json(e.to_json()) for e in events])
    assert copy.decision(path, 1) == session.decision(path, 1) == Decision(Choice.CUSTOM, b"x = 1\r\nno newline")
    assert copy.note(path, 1) == "" and copy.can_redo
    copy.redo()
    assert copy.note(path, 1) == "kept by hand: see #102"


def test_non_text_files_take_a_whole_file_choice(loaded: tuple[Session, object]) -> None:
    session, _ = loaded
    entry = next(f for f in session.analysis.files if f.merge is None)
    assert session.undecided(entry.path) == 1
    session.choose_file(entry.path, FileChoice.TAKE_MAIN)
    assert session.is_decided(entry.path)
    preview = session.preview(entry.path)
    expected = None if entry.main.oid is None else session._read_blob(entry.main.oid)  # noqa: SLF001
    assert preview == expected
    with pytest.raises(SessionError):
        session.decide_file(entry.path, Choice.MAIN)


def test_conflicted_files_keep_markers_until_decided(loaded: tuple[Session, object]) -> None:
    session, _ = loaded
    conflicted = [f for f in session.analysis.files if f.status is FileStatus.CONFLICTED and f.merge is not None]
    for entry in conflicted:
        data = session.preview(entry.path)
        assert data is not None and b"<<<<<<<" in data


def test_written_marks_clean_until_the_next_change(loaded: tuple[Session, object]) -> None:
    session, _ = loaded
    path = _text_file(session)
    session.decide(path, 0, Decision(Choice.DEV))
    event = session.mark_written(path, "0" * 40)
    assert event.op is Op.WRITTEN and path not in session.dirty_paths()
    session.decide(path, 0, Decision(Choice.MAIN))
    assert path in session.dirty_paths()
