"""Accepting a suggestion or a candidate writes exactly its lines, through the writer's checks."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers.syncs import open_session

from workbench.analysis.model import Hunk, Rung, Take
from workbench.resolve.session import Session, SessionError
from workbench.resolve.splice import Choice
from workbench.resolve.suggested import accept, take_decision
from workbench.resolve.writer import Blocked, check_write, write_file
from workbench.sample import RepoBuilder

TOP = "import os\n\n\ndef keep():\n    return os.sep\n\n\n"


def _conflict(b: RepoBuilder, base: str, dev: str, main: str) -> RepoBuilder:
    b.write("x.py", TOP + base).commit("base")
    b.branch("dev").checkout("dev").write("x.py", TOP + dev).commit("dev (#2)")
    b.checkout("main").write("x.py", TOP + main).commit("main (#3)")
    b.checkout("dev").merge("main")
    return b


def _hunk(session: Session) -> Hunk:
    (hunk,) = session.file("x.py").hunks
    return hunk


def test_a_computed_candidate_writes_exactly_its_text(builder: RepoBuilder) -> None:
    _conflict(builder, "value = f(a, b)\n", "value = f(a2, b)\n", "value = f(a, b2)\n")
    repo, session = open_session(builder.path)
    words = next(c for c in _hunk(session).candidates if c.take is Take.WORDS)
    assert words.text == b"value = f(a2, b2)\n"
    accept(session, "x.py", 0, Take.WORDS)
    decision = session.decision("x.py", 0)
    assert decision is not None and decision.choice is Choice.CUSTOM
    assert write_file(repo, session, "x.py").written
    assert builder.read("x.py") == (TOP + "value = f(a2, b2)\n").encode()


def test_a_suggestion_of_a_side_is_that_side_s_choice(builder: RepoBuilder) -> None:
    """The word merge of the three texts is main's text: main is suggested, and journalled as 'take main'."""
    _conflict(builder, "value = f(a, b)\n", "value = f(A, b)\n", "value = f(A, b, c)\n")
    repo, session = open_session(builder.path)
    suggestion = _hunk(session).suggestion
    assert suggestion is not None and suggestion.rung is Rung.ONE_SIDE_IS_MERGE
    assert suggestion.candidate.take is Take.MAIN
    accept(session, "x.py", 0)
    decision = session.decision("x.py", 0)
    assert decision is not None and decision.choice is Choice.MAIN
    assert write_file(repo, session, "x.py").written
    assert builder.read("x.py") == (TOP + "value = f(A, b, c)\n").encode()


def test_no_suggestion_or_no_such_candidate_is_refused(builder: RepoBuilder) -> None:
    _conflict(builder, "value = f(a, b)\n", "value = f(a2, b)\n", "value = f(a, b2)\n")
    _, session = open_session(builder.path)
    hunk = replace(_hunk(session), suggestion=None)
    with pytest.raises(SessionError, match="no suggestion"):
        take_decision(hunk, None)
    with pytest.raises(SessionError, match="no 'main-formatted' candidate"):
        take_decision(hunk, Take.MAIN_FORMATTED)
    with pytest.raises(SessionError, match="no conflict hunk 2"):
        accept(session, "x.py", 1)


@pytest.mark.parametrize(
    ("text", "blocked"),
    [
        (b"<<<<<<< ours\nvalue = 1\n=======\nvalue = 2\n>>>>>>> theirs\n", Blocked.MARKERS),
        (b"value = f(a2,, b2)\n", Blocked.SYNTAX),
    ],
    ids=["markers", "syntax"],
)
def test_a_candidate_the_writer_would_refuse_is_never_written(builder: RepoBuilder, text: bytes, blocked: Blocked) -> None:
    """Whatever a candidate holds, the write plan's checks stand between it and the file."""
    _conflict(builder, "value = f(a, b)\n", "value = f(a2, b)\n", "value = f(a, b2)\n")
    repo, session = open_session(builder.path)
    before = builder.read("x.py")
    hunk = _hunk(session)
    bad = next(c for c in hunk.candidates if c.take is Take.WORDS)
    bad = replace(bad, lines=tuple(text.splitlines(keepends=True)))
    entry = replace(session.file("x.py"), hunks=(replace(hunk, candidates=(bad,)),))
    analysis = replace(session.analysis, files=(entry,))
    session = Session(analysis, read_blob=repo.read_blob)
    accept(session, "x.py", 0, Take.WORDS)
    assert check_write(repo, session, "x.py").blocked is blocked
    assert not write_file(repo, session, "x.py").written
    assert builder.read("x.py") == before
