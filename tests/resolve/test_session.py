"""Session: decisions, whole-file choices, undo/redo and replay, on a real sample."""

from __future__ import annotations

import pytest
from helpers.syncs import open_session

from workbench.analysis.model import FileStatus
from workbench.git.repo import GitRepo
from workbench.resolve.events import Event, FileChoice, Op
from workbench.resolve.session import Session, SessionError
from workbench.resolve.splice import Choice, Decision
from workbench.sample import SampleSync


@pytest.fixture
def loaded(sample_in_progress: SampleSync) -> tuple[Session, GitRepo]:
    repo, session = open_session(sample_in_progress.path)
    return session, repo


def _text_file(session: Session, hunks: int = 1) -> str:
    return next(f.path for f in session.analysis.files if len(f.hunks) >= hunks and f.merge is not None)


def test_deciding_counts_down_and_previews_the_choice(loaded: tuple[Session, GitRepo]) -> None:
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


def test_undo_and_redo_walk_back_and_forth(loaded: tuple[Session, GitRepo]) -> None:
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


def test_whole_file_choice_decides_every_hunk_and_is_one_undo(loaded: tuple[Session, GitRepo]) -> None:
    session, _ = loaded
    path = _text_file(session, hunks=2)
    n = len(session.file(path).hunks)
    session.decide_file(path, Choice.DEV)
    assert session.decided(path) == n
    session.undo()
    assert session.decided(path) == 0


def test_replaying_events_rebuilds_the_same_state(loaded: tuple[Session, GitRepo]) -> None:
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


def test_non_text_files_take_a_whole_file_choice(loaded: tuple[Session, GitRepo]) -> None:
    session, repo = loaded
    entry = next(f for f in session.analysis.files if f.merge is None)
    assert session.undecided(entry.path) == 1
    session.choose_file(entry.path, FileChoice.TAKE_MAIN)
    assert session.is_decided(entry.path)
    preview = session.preview(entry.path)
    expected = None if entry.main.oid is None else repo.read_blob(entry.main.oid)
    assert preview == expected
    with pytest.raises(SessionError):
        session.decide_file(entry.path, Choice.MAIN)


def test_conflicted_files_keep_markers_until_decided(loaded: tuple[Session, GitRepo]) -> None:
    session, _ = loaded
    conflicted = [f for f in session.analysis.files if f.status is FileStatus.CONFLICTED and f.merge is not None]
    for entry in conflicted:
        data = session.preview(entry.path)
        assert data is not None and b"<<<<<<<" in data


def test_written_marks_clean_until_the_next_change(loaded: tuple[Session, GitRepo]) -> None:
    session, _ = loaded
    path = _text_file(session)
    session.decide(path, 0, Decision(Choice.DEV))
    event = session.mark_written(path, "0" * 40)
    assert event.op is Op.WRITTEN and path not in session.dirty_paths()
    session.decide(path, 0, Decision(Choice.MAIN))
    assert path in session.dirty_paths()


def test_undoing_back_to_nothing_leaves_nothing_to_write(loaded: tuple[Session, GitRepo]) -> None:
    session, _ = loaded
    path = _text_file(session, hunks=2)
    session.decide_file(path, Choice.DEV)
    session.decide(path, 0, Decision(Choice.BOTH))
    assert session.dirty_paths() == [path]
    session.undo()
    session.undo()
    assert session.decided(path) == 0
    assert session.dirty_paths() == [] and not session.is_dirty(path)
    session.redo()
    assert session.dirty_paths() == [path], "redo brings the pending write back"


def test_choosing_what_the_file_already_holds_writes_nothing(loaded: tuple[Session, GitRepo]) -> None:
    session, _ = loaded
    took_main = next(f for f in session.analysis.files
                     if f.hunks and f.status is FileStatus.THEIRS_RESOLVED and session.preview(f.path) == f.result_bytes
                     and all(h.result_text == h.main_text for h in f.hunks))
    session.decide_file(took_main.path, Choice.MAIN)
    assert session.is_decided(took_main.path) and not session.is_dirty(took_main.path)
    session.decide_file(took_main.path, Choice.DEV)
    assert session.is_dirty(took_main.path)
    binary = next(f for f in session.analysis.files if f.status is FileStatus.BINARY)
    assert binary.result_oid == binary.main.oid
    session.choose_file(binary.path, FileChoice.TAKE_MAIN)
    assert not session.is_dirty(binary.path), "main's image is already in the work tree"
    session.choose_file(binary.path, FileChoice.KEEP_DEV)
    assert session.is_dirty(binary.path)


def test_a_decided_conflict_of_a_merge_in_progress_waits_to_be_staged(loaded: tuple[Session, GitRepo]) -> None:
    session, _ = loaded
    entry = next(f for f in session.analysis.files if f.status is FileStatus.CONFLICTED and not f.hunks
                 and f.dev.oid is not None and f.result_oid == f.dev.oid)
    session.choose_file(entry.path, FileChoice.KEEP_DEV)
    assert session.is_dirty(entry.path), "the bytes are in place, but the index entry is still conflicted"
    session.mark_written(entry.path, entry.dev.oid)
    assert not session.is_dirty(entry.path)
    session.choose_file(entry.path, FileChoice.DELETE)
    session.undo()
    assert not session.is_dirty(entry.path), "back to what was written"


def test_undoing_a_written_decision_is_a_change_to_write(loaded: tuple[Session, GitRepo]) -> None:
    session, _ = loaded
    path = _text_file(session)
    session.decide(path, 0, Decision(Choice.DEV))
    written = session.mark_written(path, "0" * 40)
    session.undo()
    assert session.is_dirty(path), "the work tree holds dev's side; the decisions now say otherwise"
    session.redo()
    assert not session.is_dirty(path)
    replayed = Session(session.analysis, [*_events_so_far(session, written)])
    assert replayed.dirty_paths() == session.dirty_paths() == []


def _events_so_far(session: Session, written: Event) -> list[Event]:
    """The journal a workspace would have kept: the decision, the write, an undo and a redo."""
    (decision,) = session._undo  # noqa: SLF001
    return [decision, written, Event(Op.UNDO), Event(Op.REDO)]


def test_notes_are_not_something_to_write(loaded: tuple[Session, GitRepo]) -> None:
    session, _ = loaded
    path = _text_file(session)
    session.set_note(path, 0, "checked with the author")
    assert session.dirty_paths() == []


def test_next_undo_and_redo_say_where_the_change_is(loaded: tuple[Session, GitRepo]) -> None:
    session, _ = loaded
    path = _text_file(session, hunks=2)
    assert session.next_undo() is None and session.next_redo() is None
    session.decide(path, 1, Decision(Choice.DEV))
    target = session.next_undo()
    assert target is not None and [(c.path, c.index) for c in target.changes] == [(path, 1)]
    session.undo()
    assert session.next_redo() is target and session.next_undo() is None
