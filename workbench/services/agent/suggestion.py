"""``decide --take suggested``: the engine's suggestion for a hunk, as a decision.

The decision is the one the app's accept key makes (``resolve/suggested.py``):
exactly the suggested candidate's lines, a plain choice where its text is the
plain choice's.  A hunk without a suggestion gets None, and the caller says so
for that member rather than guessing another take.
"""

from __future__ import annotations

from workbench.resolve.splice import Decision
from workbench.resolve.suggested import candidate_decision
from workbench.services.agent.context import AgentSync
from workbench.services.agent.state import MemberView


def suggested_decision(sync: AgentSync, view: MemberView) -> Decision | None:
    """The decision the engine suggests for the member's hunk (None: it suggests nothing there)."""
    del sync  # the member's hunk carries its suggestion
    hunk = view.hunk
    if hunk is None or hunk.suggestion is None:
        return None
    return candidate_decision(hunk, hunk.suggestion.candidate)
