"""``recall``: decisions of earlier syncs, from the record dev's history carries, matched to today's items.

Each sync PR commits its ``.workbench/acks.toml``; once merged, dev's
history holds every version.  An entry matches a member of today's queue by
the member's fingerprint (its path and lost text: the same rename or
duplicate lost again) or by the item's id (a cause that is the same in every
sync: a symbol, a name swap, a commit).  Each match comes back as a ready
``decide`` line whose claim is checked now, as any decision's is.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from workbench.analysis.model import ACKS_PATH
from workbench.errors import WorkbenchError
from workbench.resolve.acks import Ack, parse_acks
from workbench.resolve.claims import ClaimKind, verify
from workbench.services.agent.context import AgentSync
from workbench.services.agent.state import ItemView, MemberView, State, Views
from workbench.services.agent.takes import Take
from workbench.services.agent.views import targets_after

LIMIT = 5_000
"""Dev's first-parent commits read for earlier records."""


@dataclass(frozen=True)
class Earlier:
    """An entry of an earlier record, and the dev commit whose tree first held it (walking back)."""

    ack: Ack
    commit: str


@dataclass(frozen=True)
class Recalled:
    item: ItemView
    members: tuple[MemberView, ...]
    earlier: Earlier
    take: Take
    status: str

    def command(self, rev_args: list[str]) -> str:
        target = self.item.item.id if len(self.members) == len(self.item.members) else None
        targets = [target] if target else [f"{self.item.item.id}:{m.number}" for m in self.members]
        ack = self.earlier.ack
        parts = ["workbench", "decide", *targets, *rev_args, "--take", self.take.value, "--claim", ack.claim or "judgement"]
        for given in ack.evidence:
            parts += ["--evidence", given]
        parts += ["--reason", f"as decided in {self.earlier.commit[:10]}: {ack.reason}"]
        return shlex.join(parts)


def earlier_records(sync: AgentSync) -> list[Earlier]:
    """Every entry of the record in dev's first-parent history, newest first, each once."""
    repo = sync.repo
    seen: set[str] = set()
    found: list[Earlier] = []
    known: set[tuple[str, str, str]] = set()
    sha: str | None = sync.analysis.dev
    for _ in range(LIMIT):
        if sha is None:
            break
        entry = repo.tree_entry(sha, ACKS_PATH)
        if entry is not None and entry[0] not in seen:
            seen.add(entry[0])
            try:
                acks = parse_acks(repo.read_blob(entry[0]).decode("utf-8"), f"{ACKS_PATH} in {sha[:10]}")
            except (WorkbenchError, UnicodeDecodeError):
                acks = []
            for ack in acks:
                key = (ack.path, ack.hunk, ack.member)
                if key not in known:
                    known.add(key)
                    found.append(Earlier(ack, sha))
        parents = repo.parents(sha)
        sha = parents[0] if parents else None
    return found


def recall(sync: AgentSync, views: Views) -> list[Recalled]:
    """Today's open members that an earlier decision fits, grouped per item and decision."""
    earlier = earlier_records(sync)
    by_member = {(e.ack.path, e.ack.member): e for e in reversed(earlier) if e.ack.member}
    by_item: dict[str, Earlier] = {}
    for e in reversed(earlier):
        if e.ack.item:
            by_item[e.ack.item] = e
    out: list[Recalled] = []
    for view in views.all():
        if view.state is State.DECIDED:
            continue
        groups: dict[tuple[str, str], list[tuple[MemberView, Earlier]]] = {}
        for m in view.members:
            if m.decided:
                continue
            match = by_member.get((m.member.path, m.member.fingerprint)) or by_item.get(view.item.id)
            if match is None or _take(match.ack) is None:
                continue
            key = (match.commit, match.ack.member or match.ack.item)
            groups.setdefault(key, []).append((m, match))
        for pairs in groups.values():
            members = tuple(m for m, _e in pairs)
            match = pairs[0][1]
            take = _take(match.ack)
            assert take is not None
            targets = targets_after(views, members, take)
            if targets is None:
                continue
            claim = ClaimKind(match.ack.claim) if match.ack.claim else ClaimKind.JUDGEMENT
            check = verify(claim, match.ack.evidence, targets, sync.analysis, views.history)
            out.append(Recalled(view, members, match, take, check.status.value))
    return out


def _take(ack: Ack) -> Take | None:
    """The take an entry records (a custom text is not in the record: it cannot be replayed)."""
    name = ack.take or ack.decision.value
    try:
        take = Take(name)
    except ValueError:
        return None
    return None if take in (Take.CUSTOM, Take.SUGGESTED) else take


def recall_json(found: list[Recalled], rev_args: list[str]) -> list[dict[str, Any]]:
    return [
        {
            "item": r.item.item.id,
            "members": [m.number for m in r.members],
            "from_commit": r.earlier.commit,
            "at": r.earlier.ack.at,
            "by": r.earlier.ack.by or "human",
            "take": r.take.value,
            "claim": r.earlier.ack.claim or "judgement",
            "status": r.status,
            "evidence": list(r.earlier.ack.evidence),
            "reason": r.earlier.ack.reason,
            "command": r.command(rev_args),
        }
        for r in found
    ]
