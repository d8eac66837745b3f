"""A hunk's suggestion, or one of its candidates, as a decision that writes exactly the candidate's lines.

The text comes from the analysis's own records (the stage computed it from
the three texts), never from a JSON document.  A plain take whose text is
what the plain choice writes stays that choice, so the journal and undo
name it as the keys do; a computed one is custom text.  The decision goes
through the session and the writer like any other, so a candidate whose
text holds a conflict marker or a syntax error is refused by the write plan.
"""

from __future__ import annotations

from workbench.analysis.model import Candidate, Hunk, Take
from workbench.resolve.events import Event
from workbench.resolve.session import Session, SessionError
from workbench.resolve.splice import Choice, Decision, chosen_text

_SIDE_CHOICES = (Choice.MAIN, Choice.DEV, Choice.BOTH, Choice.BOTH_MAIN_FIRST)


def candidate_decision(hunk: Hunk, candidate: Candidate) -> Decision:
    """The decision that puts exactly ``candidate``'s lines in place of ``hunk``: a plain choice where one writes
    the same text (so the journal and undo name it as the keys do), else its exact bytes as custom text."""
    text = candidate.text
    cr = any(line.endswith(b"\r\n") for line in (*hunk.dev_text, *hunk.main_text))
    for choice in _SIDE_CHOICES:
        if chosen_text(hunk.dev_text, hunk.main_text, Decision(choice), cr) == text:
            return Decision(choice)
    return Decision(Choice.CUSTOM, text)


def take_decision(hunk: Hunk, take: Take | None) -> Decision:
    """The decision for the hunk's candidate ``take`` (None: its suggestion); SessionError when it has none."""
    if take is None:
        if hunk.suggestion is None:
            raise SessionError(f"hunk {hunk.index + 1} has no suggestion")
        return candidate_decision(hunk, hunk.suggestion.candidate)
    found = next((c for c in hunk.candidates if c.take is take), None)
    if found is None:
        offered = ", ".join(c.take.value for c in hunk.candidates) or "none"
        raise SessionError(f"hunk {hunk.index + 1} has no '{take.value}' candidate (offered: {offered})")
    return candidate_decision(hunk, found)


def accept(session: Session, path: str, index: int, take: Take | None = None) -> Event:
    """Decide hunk ``index`` of ``path`` by its suggestion (``take`` None) or its candidate ``take``."""
    hunk = next((h for h in session.file(path).hunks if h.index == index), None)
    if hunk is None:
        raise SessionError(f"{path} has no conflict hunk {index + 1}")
    return session.decide(path, index, take_decision(hunk, take))
