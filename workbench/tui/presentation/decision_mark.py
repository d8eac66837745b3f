"""The Why pane's first words on a decided hunk: who decided it and, for the agent, its claim and the check.

A decision the agent made is read first for its claim: whether the file and history bear it out
(agent-verified), it rests on the agent's judgement (agent-unverified), or they contradict it
(agent-contradicted).  A person confirms it with ``K`` (their name replaces the agent's, the claim kept) or
overrides it by deciding the hunk otherwise.  The mark comes from ``services.agent.provenance``, as the
report's count does.  Repository and record text goes through ``visible``.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from rich.style import Style
from rich.text import Text

from workbench.analysis.model import ACKS_PATH, Level
from workbench.errors import WorkbenchError
from workbench.resolve.acks import Ack
from workbench.resolve.marks import MARK_WORDS, Mark
from workbench.services.workspace import Workspace

if TYPE_CHECKING:
    from workbench.services.agent.provenance import Marked
from workbench.textsafe import visible
from workbench.tui.palette import Palette

MARK_LABEL = {
    Mark.AGENT_VERIFIED: "Agent, verified",
    Mark.AGENT_UNVERIFIED: "Agent, unverified",
    Mark.AGENT_CONTRADICTED: "Agent, contradicted",
    Mark.HUMAN: "Human",
    Mark.FIX_COMMIT: "Fix commit",
}
"""The mark as the pane's heading says it (with ``MARK_WORDS`` beside it: never colour alone)."""

_AGENT = frozenset({Mark.AGENT_VERIFIED, Mark.AGENT_UNVERIFIED, Mark.AGENT_CONTRADICTED})


def marked(ws: Workspace, path: str, index: int | None) -> Marked | None:
    """The decision's mark once the record names the agent (None: no agent in the record, or not decided)."""
    if not any(ack.by_agent for ack in ws.acks.values()):
        return None
    from workbench.services.agent.provenance import mark_at  # the claim checker: only once the agent has decided

    try:
        return mark_at(ws.repo, ws, path, index, _record(ws))
    except WorkbenchError:  # an unreadable record: the announcement says so, the pane goes on without it
        return None


_RECORDS: WeakKeyDictionary[Workspace, tuple[tuple[int, int], tuple[Ack, ...]]] = WeakKeyDictionary()
"""The record each open sync last read, with the acks.toml stamp it was read at: read again once it changes."""


def _record(ws: Workspace) -> tuple[Ack, ...]:
    from workbench.services.agent.context import record_of

    stamp = (0, 0)
    if ws.repo.workdir is not None:
        with contextlib.suppress(OSError):
            found = (ws.repo.workdir / ACKS_PATH).stat()
            stamp = (found.st_mtime_ns, found.st_size)
    cached = _RECORDS.get(ws)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    record = tuple(record_of(ws.repo, ws.analysis, True))
    _RECORDS[ws] = (stamp, record)
    return record


def mark_lines(text: Text, ws: Workspace, path: str, index: int | None, palette: Palette) -> None:
    """The mark, and for the agent its take, claim, the check's sentence, evidence and reason."""
    found = marked(ws, path, index)
    if found is None:
        return
    mark = found.mark
    style = {Mark.AGENT_VERIFIED: palette.risk[Level.LOW], Mark.AGENT_UNVERIFIED: palette.risk[Level.MEDIUM],
             Mark.AGENT_CONTRADICTED: palette.risk[Level.HIGH]}.get(mark, palette.muted)
    text.append(f"{MARK_LABEL[mark]}", style=Style.combine([style, Style(bold=True)]))
    text.append(f": {MARK_WORDS[mark]}\n")
    ack, check = found.ack, found.check
    if mark not in _AGENT or ack is None:
        return
    take = ack.take or ack.decision.value
    text.append(f"  took {visible(take)}, claim {visible(ack.claim or 'none')}")
    text.append(f" (run {visible(ack.run)})\n" if ack.run else "\n")
    if check is not None:
        text.append(f"  check: {visible(check.reason)}\n")
    evidence = check.cited if check is not None and check.cited else ack.evidence
    if evidence:
        text.append(f"  evidence: {visible(', '.join(evidence))}\n")
    text.append(f"  reason: {visible(ack.reason)}\n")
    text.append("  K confirms it as yours (the claim kept); deciding the hunk otherwise overrides it.\n",
                style=palette.muted)
