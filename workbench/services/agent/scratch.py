"""A scratch copy of the app's session to try a take on: what the files would hold, before anything is written."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from workbench.analysis.model import Mode
from workbench.resolve.events import FileChoice
from workbench.resolve.session import Session
from workbench.resolve.splice import Decision
from workbench.services.agent.context import AgentSync
from workbench.services.agent.takes import Action, FileAction, HunkAction


def scratch_session(sync: AgentSync) -> Session:
    """A copy of the app's session (its journal replayed) to try decisions on."""
    analysis = sync.analysis
    return Session(analysis, sync.workspace.journal.load(), read_blob=sync.repo.read_blob,
                   resumed_on_disk=analysis.mode is Mode.IN_PROGRESS)


class Decides(Protocol):
    """What ``apply_to`` drives: a session, or the workspace (which journals each command)."""

    def decide(self, path: str, index: int, decision: Decision) -> object: ...

    def choose_file(self, path: str, choice: FileChoice) -> object: ...


def apply_to(session: Decides, actions: Sequence[Action]) -> None:
    """The actions as session commands (the workspace's, or a scratch session's)."""
    chosen: set[str] = set()
    for done in actions:
        if isinstance(done, HunkAction):
            session.decide(done.path, done.index, done.decision)
        elif isinstance(done, FileAction) and done.path not in chosen:
            chosen.add(done.path)
            session.choose_file(done.path, done.choice)


