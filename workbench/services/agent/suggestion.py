"""``decide --take suggested``: the engine's suggestion for a hunk, as a decision.

LEAD: the one call site for ``resolve/suggested.py`` (helper sugstage's: a
hunk's suggestion or candidate -> ``Decision``).  Until it is on main, the
take is refused as bad input, naming why.
"""

from __future__ import annotations

from workbench.errors import WorkbenchError
from workbench.resolve.splice import Decision
from workbench.services.agent.context import AgentSync
from workbench.services.agent.state import MemberView


def suggested_decision(sync: AgentSync, view: MemberView) -> Decision | None:
    """The decision the engine suggests for the member's hunk (None: it suggests nothing there)."""
    del sync, view  # LEAD: return resolve.suggested's decision for (sync.analysis, view.entry, view.hunk)
    raise WorkbenchError("--take suggested needs the engine's suggestions as decisions (resolve/suggested.py), "
                         "which this build does not have yet: take a side, merged or result")
