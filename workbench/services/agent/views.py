"""``queue`` and ``show`` as data: the open work, highest first, and one item in full with a ready command per take."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from workbench.analysis.model import Commit, SignalKind
from workbench.analysis.worklist import Item
from workbench.analysis.worklist.facts import WorklistFacts
from workbench.analysis.worklist.finish import ALWAYS_HIGH, commit_index
from workbench.analysis.xdiff import split_lines
from workbench.errors import WorkbenchError
from workbench.resolve.claims import ClaimKind, ClaimStatus, Target, verify
from workbench.resolve.session import Session, SessionError
from workbench.services.agent.context import AgentSync
from workbench.services.agent.effect import Lost
from workbench.services.agent.jsonout import document, item_json
from workbench.services.agent.scratch import apply_to, scratch_session
from workbench.services.agent.state import KEEPS_BOTH, ItemView, MemberView, Views, missing_side
from workbench.services.agent.suggestion import suggested_decision
from workbench.services.agent.takes import Action, HunkAction, Keep, Take, action, applies

REMOVING = frozenset({SignalKind.MAIN_REMOVED_INTENTIONALLY, SignalKind.DEV_REMOVED_INTENTIONALLY})
DELETING = frozenset({SignalKind.MAIN_DELETED_FILE, SignalKind.DEV_DELETED_FILE})


def commits_of(sync: AgentSync, items: list[Item]) -> dict[str, Commit | None]:
    """Commit records for the items' commits: the analysis' histories, else read from the repository."""
    known = commit_index(sync.analysis, WorklistFacts())
    found: dict[str, Commit | None] = {}
    for item in items:
        for sha in item.commits:
            if sha not in found:
                commit = known.get(sha)
                if commit is None:
                    try:
                        commit = sync.repo.commit_info(sha)
                    except (KeyError, ValueError, WorkbenchError):
                        commit = None
                found[sha] = commit
    return found


def situation_json(sync: AgentSync) -> dict[str, Any]:
    analysis = sync.analysis
    return {"mode": analysis.mode.value, "dev": analysis.dev, "main": analysis.main, "base": analysis.base,
            "merge": analysis.merge, "result": analysis.result_commit}


def queue_json(sync: AgentSync, views: list[ItemView]) -> dict[str, Any]:
    commits = commits_of(sync, [v.item for v in views])
    states = {s: sum(1 for v in views if v.state.value == s) for s in ("open", "partly", "decided")}
    return document(
        "queue",
        sync=situation_json(sync),
        summary={"items": len(views), **states, "high": sum(1 for v in views if v.item.level.value == "high")},
        items=[item_json(v, sync.analysis, commits) for v in views],
    )


@dataclass(frozen=True)
class Ready:
    """A ready ``decide`` command for one take, with the claim that checks out for it."""

    take: Take
    claim: ClaimKind
    evidence: tuple[str, ...]
    reason: str
    status: ClaimStatus

    def command(self, target: str, rev_args: list[str]) -> str:
        parts = ["workbench", "decide", target, *rev_args, "--take", self.take.value, "--claim", self.claim.value]
        for given in self.evidence:
            parts += ["--evidence", given]
        parts += ["--reason", self.reason]
        return shlex.join(parts)


def lost_after(views: Views, view: MemberView, done: Action) -> Lost:
    """Each side's lines the member loses once ``done`` is applied."""
    if isinstance(done, Keep) or view.entry is None or view.hunk is None:
        return dict(view.lost)
    lines = views.result_lines(view.entry)
    if isinstance(done, HunkAction):
        return views.pricer.lost(view.entry, view.hunk, done.decision, None, lines)
    return views.pricer.lost(view.entry, view.hunk, None, done.choice, lines)


def target_after(views: Views, view: MemberView, done: Action, scratch: Session,
                 previews: dict[str, bytes | None] | None = None) -> Target:
    """The member as a claim's target once ``done`` is applied (``scratch`` holds the take; ``SessionError`` when
    a file cannot be rendered); ``previews``: each file's rendering, shared by the members of one take."""
    sync = views.sync
    path = view.member.path
    known = previews if previews is not None else {}
    if path not in known:
        known[path] = scratch.preview(path) if view.entry is not None else sync.result_bytes(path)
    data = known[path]
    both = isinstance(done, HunkAction) and done.decision.choice in KEEPS_BOTH
    return Target(path, view.entry, view.hunk, lost_after(views, view, done), missing_side(sync, view, data),
                  lambda: split_lines(data) if data is not None else None, both)


def targets_after(views: Views, members: Sequence[MemberView], take: Take) -> list[Target] | None:
    """The members as a claim's targets once ``take`` is applied to each (None: it does not apply to one)."""
    analysis = views.sync.analysis
    actions: list[Action] = []
    for m in members:
        suggested = suggested_decision(views.sync, m) if take is Take.SUGGESTED else None
        done = action(take, m.member, analysis, suggested=suggested)
        if isinstance(done, str):
            return None
        actions.append(done)
    scratch = scratch_session(views.sync)
    try:
        apply_to(scratch, actions)
        previews: dict[str, bytes | None] = {}
        return [target_after(views, m, done, scratch, previews) for m, done in zip(members, actions, strict=True)]
    except SessionError:
        return None


def ready_commands(views: Views, view: ItemView) -> list[Ready]:
    """For each take that applies to every member (``suggested`` first, where the engine suggests something for
    each): the claim that verifies once it is applied (``judgement`` when none does), its evidence, and a reason
    in words."""
    analysis = views.sync.analysis
    out: list[Ready] = []
    removers = tuple(dict.fromkeys(
        [sha for m in view.members if m.hunk is not None for s in m.hunk.signals
         if s.kind in REMOVING and s.weight < 0 for sha in s.commits]
        + [sha for m in view.members if m.hunk is None and m.entry is not None for s in m.entry.signals
           if s.kind in DELETING for sha in s.commits]))
    allowed = {claim.value for claim in view.item.claims}
    takes = [cost.take for cost in view.choices if cost.applies]
    if all(applies(Take.SUGGESTED, m.member, analysis) for m in view.members):
        takes.insert(0, Take.SUGGESTED)
    for take in takes:
        targets = targets_after(views, view.members, take)
        if targets is None:
            continue
        tries: list[tuple[ClaimKind, tuple[str, ...]]] = [(ClaimKind.RESTORED, ())]
        if removers:
            tries.append((ClaimKind.INTENTIONAL_REMOVAL, removers))
        tries += [(ClaimKind.SUPERSEDED, ()), (ClaimKind.POLICY, ())]
        if view.item.kind in ALWAYS_HIGH:  # what breaks the build is no loss: only the claims the item allows
            tries = [(claim, evidence) for claim, evidence in tries if claim.value in allowed]
        chosen = Ready(take, ClaimKind.JUDGEMENT, (), "needs a person's judgement", ClaimStatus.NEEDS_HUMAN)
        for claim, evidence in tries:
            if claim is ClaimKind.POLICY and analysis.policy is None:
                continue
            check = verify(claim, evidence, targets, analysis, views.history)
            if check.status is ClaimStatus.VERIFIED:
                chosen = Ready(take, claim, tuple(check.cited) or evidence, check.reason, check.status)
                break
        out.append(chosen)
    return out


def show_json(sync: AgentSync, views: Views, view: ItemView, rev_args: list[str]) -> dict[str, Any]:
    commits = commits_of(sync, [view.item])
    data = item_json(view, sync.analysis, commits, full=True)
    data["commands"] = [{"take": r.take.value, "claim": r.claim.value, "status": r.status.value,
                         "command": r.command(view.item.id, rev_args)} for r in ready_commands(views, view)]
    data["member_commands"] = [
        {"member": m.number, "takes": [t for t in data["members"][m.number - 1]["takes"]],
         "command": f"workbench decide {view.item.id}:{m.number} {' '.join(shlex.quote(a) for a in rev_args)} "
                    "--take TAKE --claim CLAIM --reason TEXT".replace("  ", " ")}
        for m in view.members if len(view.members) > 1
    ]
    return document("show", sync=situation_json(sync), item=data)


def find(sync: AgentSync, wanted: str) -> Item:
    """The item ``wanted`` names (its id, or a unique prefix of at least 8 characters); else bad input."""
    items = sync.worklist.items
    exact = sync.worklist.item(wanted)
    if exact is not None:
        return exact
    matches = [i for i in items if len(wanted) >= 8 and i.id.startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    raise WorkbenchError(f"no item {wanted!r} in this sync's queue: once decisions are written, an item's settled "
                         "members leave it and the rest may regroup under other ids (see `workbench queue`)")
