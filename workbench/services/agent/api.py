"""The agent's commands as functions from a request to their ``workbench.agent/1`` document.

The command line (``commands/queue.py``, ...) and the MCP server
(``commands/mcp.py``) both call these, so a tool's answer is the command's
``--json`` output, byte for byte once encoded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.errors import WorkbenchError
from workbench.services.agent.context import AgentSync, open_agent
from workbench.services.agent.decide import DecideAnswer, DecideRequest, decide, plan
from workbench.services.agent.gate import gate, verdict_json
from workbench.services.agent.jsonout import document
from workbench.services.agent.recall import recall, recall_json
from workbench.services.agent.state import State, Views
from workbench.services.agent.views import find, queue_json, show_json, situation_json
from workbench.services.sync import SyncRequest


def queue_doc(request: SyncRequest, every: bool = False) -> dict[str, Any]:
    """``queue``: the open (``every``: all) items, highest first."""
    return queue_of(open_agent(request), every)


def queue_of(sync: AgentSync, every: bool = False) -> dict[str, Any]:
    views = Views(sync).all()
    if not every:
        views = [v for v in views if v.state is not State.DECIDED]
    return queue_json(sync, views)


def show_doc(request: SyncRequest, item_id: str, rev_args: list[str]) -> dict[str, Any]:
    """``show ID``: one item in full, with ready ``decide`` lines (``rev_args`` repeat the situation)."""
    return show_of(open_agent(request), item_id, rev_args)


def show_of(sync: AgentSync, item_id: str, rev_args: list[str]) -> dict[str, Any]:
    views = Views(sync)
    return show_json(sync, views, views.view(find(sync, item_id)), rev_args)


def decide_docs(request: SyncRequest, requests: Sequence[DecideRequest], numbered: bool = False) -> list[DecideAnswer]:
    """``decide``: every request checked as input first (``WorkbenchError`` naming the first bad one, nothing
    decided), then each applied in turn."""
    sync = open_agent(request)
    views = Views(sync)
    for n, req in enumerate(requests, start=1):
        try:
            plan(sync, views, req)
        except WorkbenchError as exc:
            raise WorkbenchError(f"line {n}: {exc}" if numbered else str(exc)) from None
    answers = [decide(sync, views, req) for req in requests]
    for answer in answers:
        answer.sync = situation_json(sync)
    return answers


def decide_doc(answer: DecideAnswer, line: int | None = None) -> dict[str, Any]:
    extra: dict[str, Any] = {"line": line} if line is not None else {"sync": answer.sync}
    return document("decide", **extra, **answer.to_json())


def gate_doc(request: SyncRequest, advisory: bool = False, ref: str | None = None) -> dict[str, Any]:
    """``gate`` of one sync: the record read from the result (committed), never the work tree's draft."""
    sync = open_agent(request, worktree_record=False)
    return {"ref": ref, "sync": situation_json(sync), **verdict_json(gate(sync), advisory)}


def recall_doc(request: SyncRequest, rev_args: list[str]) -> dict[str, Any]:
    sync = open_agent(request)
    views = Views(sync)
    return document("recall", sync=situation_json(sync), recalled=recall_json(recall(sync, views), rev_args))
