"""Who decided a hunk and whether the reason holds: the one decision record's marks.

The agent's decisions, a person's in the app, ``git mergetool``'s and ``workbench ack``'s are one record;
a reviewer tells them apart at a glance: an agent's decision whose claim checks out, one resting on its
judgement, one whose claim the file or history contradicts, a person's, and a commit after the merge.
``mark_of`` says which from the record entry and its claim check; the app and the report both ask it
(through ``services.agent.provenance``), so they count alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from workbench.resolve.acks import Ack
from workbench.resolve.claims import ClaimCheck, ClaimStatus
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice


class Mark(str, Enum):
    """Who decided, and for an agent whether its claim holds (``mark`` in JSON)."""

    AGENT_VERIFIED = "agent-verified"
    AGENT_UNVERIFIED = "agent-unverified"
    """The agent's judgement: nothing to check, a person confirms or overrides it."""
    AGENT_CONTRADICTED = "agent-contradicted"
    HUMAN = "human"
    FIX_COMMIT = "fix-commit"
    """A commit after the sync merge wrote what the result holds."""


MARK_WORDS = {
    Mark.AGENT_VERIFIED: "the agent decided; its claim checks out",
    Mark.AGENT_UNVERIFIED: "the agent decided on its judgement; a person should confirm or override it",
    Mark.AGENT_CONTRADICTED: "the agent decided, and its claim is contradicted",
    Mark.HUMAN: "a person decided",
    Mark.FIX_COMMIT: "a commit after the merge decided",
}


_FILE_SIDE: dict[Choice | FileChoice, Choice] = {FileChoice.KEEP_DEV: Choice.DEV, FileChoice.TAKE_MAIN: Choice.MAIN}
"""A whole-file choice as the record writes it (the side kept)."""


def mark_of(ack: Ack | None, check: ClaimCheck | None, journal: Choice | FileChoice | None = None,
            fix_commit: bool = False) -> Mark | None:
    """The mark of one hunk's (or file's) decision.

    ``ack``: the record's entry the result holds; ``check``: its claim checked now (None: not checked, or no
    claim); ``journal``: the app's journal decision there; ``fix_commit``: a commit after the merge wrote it.
    A journal decision other than the agent's recorded one is a person's override.  None: nobody decided."""
    overridden = journal is not None and ack is not None and _FILE_SIDE.get(journal, journal) != ack.decision
    if ack is not None and ack.by_agent and not overridden:
        if check is None or check.contradicted:
            return Mark.AGENT_CONTRADICTED
        return Mark.AGENT_VERIFIED if check.status is ClaimStatus.VERIFIED else Mark.AGENT_UNVERIFIED
    if ack is not None or journal is not None:
        return Mark.HUMAN
    return Mark.FIX_COMMIT if fix_commit else None


def count_marks(marks: Iterable[Mark]) -> dict[Mark, int]:
    """How many of each mark, in the enum's order, marks that occur only."""
    seen = list(marks)
    return {m: seen.count(m) for m in Mark if m in seen}


