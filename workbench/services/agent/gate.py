"""The pre-push gate: facts that block a sync, and decisions a person should look at.

It blocks on facts, whoever decided what: conflict markers, Python that
does not parse, API-audit failures, duplicate definitions, policy
violations, files the result imports but lacks, a recorded claim the file
or history contradicts, and any high item losing either side's lines with
neither a decision the result holds nor the engine's evidence of intent.
It passes, but lists for a person, decisions whose claim is a judgement,
decisions of many members at once, and whole-file takes of files no policy
names.  Both directions count: a conflict that keeps dev and drops main's
lines is as open as one that keeps main and drops dev's.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from workbench.analysis.model import FileAnalysis, FileStatus, Hunk, Level, SignalKind, Taken, Whose
from workbench.analysis.worklist import ItemKind
from workbench.resolve.markers import conflict_markers
from workbench.resolve.python_check import check_python
from workbench.services.agent.context import AgentSync
from workbench.services.agent.findings import duplicates
from workbench.services.agent.state import ItemView, MemberView, Views

_SIDES: tuple[Whose, ...] = ("dev", "main")
GROUP_SIZE = 5
"""A decision of more members than this at once is listed for a person."""
BLOCKING_POLICY = frozenset({"main-text-in-keep-dev", "keep-dev-absent", "coupled-split", "uv-source-missing"})
_INTENT: dict[Whose, SignalKind] = {"dev": SignalKind.MAIN_REMOVED_INTENTIONALLY, "main": SignalKind.DEV_REMOVED_INTENTIONALLY}
"""The engine's evidence that a side's loss here was the other side's intent."""


class Rule(str, Enum):
    """Why the gate names something (``rule`` in JSON)."""

    CONFLICT_MARKERS = "conflict-markers"
    UNRESOLVED = "unresolved-conflict"
    """A conflict without text to mark (modify/delete, binary, ...) still unresolved in the index."""
    PYTHON_SYNTAX = "python-syntax"
    API_AUDIT = "api-audit"
    DUPLICATE_DEFINITION = "duplicate-definition"
    POLICY = "policy"
    MISSING_FILE = "missing-file"
    CONTRADICTED_CLAIM = "contradicted-claim"
    UNJUSTIFIED_LOSS = "unjustified-loss"
    JUDGEMENT = "judgement"
    GROUP_DECISION = "group-decision"
    WHOLE_FILE_TAKE = "whole-file-take"
    FORMATTING = "formatting"


LISTED = frozenset({Rule.JUDGEMENT, Rule.GROUP_DECISION, Rule.WHOLE_FILE_TAKE, Rule.FORMATTING})
"""Rules that pass but are listed for a person."""


@dataclass(frozen=True, slots=True)
class Finding:
    rule: Rule
    path: str
    detail: str
    item: str | None = None
    line: int | None = None
    callee: str | None = None
    """An API failure's callee (or where what should hold the name is): the file the fix may belong in."""

    @property
    def blocks(self) -> bool:
        return self.rule not in LISTED

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule.value, "item": self.item, "path": self.path, "line": self.line, "detail": self.detail,
                "callee_path": self.callee}


@dataclass
class Verdict:
    findings: list[Finding] = field(default_factory=list)
    items: int = 0

    @property
    def blocking(self) -> list[Finding]:
        return [f for f in self.findings if f.blocks]

    @property
    def listed(self) -> list[Finding]:
        return [f for f in self.findings if not f.blocks]

    @property
    def passed(self) -> bool:
        return not self.blocking


def gate(sync: AgentSync) -> Verdict:
    """The gate's verdict on the sync as its result holds it (the journal's decisions count once written)."""
    views = Views(sync, held_only=True)
    item_views = views.all()
    verdict = Verdict(items=len(item_views))
    found = verdict.findings
    analysis = sync.analysis
    for entry in analysis.files:
        found += _file_facts(entry)
    for m in analysis.api_mismatches:
        item = sync.worklist.of_hunk(m.path, m.hunk) if m.hunk is not None else None
        found.append(Finding(Rule.API_AUDIT, m.path, m.message, item.id if item is not None else _api_item(sync, m.path),
                             m.line, m.callee_path))
    for d in analysis.deleted_files:
        if d.verdict == "restore-file":
            found.append(Finding(Rule.MISSING_FILE, d.path, d.message))
    if analysis.policy is not None:
        for f in analysis.policy.findings:
            if f.kind in BLOCKING_POLICY:
                found.append(Finding(Rule.POLICY, f.path, f.message))
    for view in item_views:
        found += _item_findings(view)
    return verdict


def _api_item(sync: AgentSync, path: str) -> str | None:
    for item in sync.worklist.items:
        if item.kind is ItemKind.API_BREAK and path in item.paths:
            return item.id
    return None


def _file_facts(entry: FileAnalysis) -> list[Finding]:
    """Markers, syntax and duplicate definitions in a file whose result is neither side's file."""
    found: list[Finding] = []
    if any(h.taken is Taken.UNRESOLVED for h in entry.hunks):
        found.append(Finding(Rule.CONFLICT_MARKERS, entry.path, f"{entry.path} still holds conflict markers"))
        return found
    if entry.status is FileStatus.CONFLICTED:
        found.append(Finding(Rule.UNRESOLVED, entry.path, f"{entry.path} is still conflicted in the index"))
    data = entry.result_bytes if entry.result_present else None
    if data is None or entry.result_oid in (entry.dev.oid, entry.main.oid):
        return found
    if conflict_markers(data):
        found.append(Finding(Rule.CONFLICT_MARKERS, entry.path, f"{entry.path} holds conflict markers"))
    if entry.path.endswith(".py"):
        python = check_python(data, entry.path)
        if python.error:
            found.append(Finding(Rule.PYTHON_SYNTAX, entry.path, f"{entry.path} does not parse: {python.error}"))
        elif entry.merge is not None:
            found += _made_twice(entry, data)
    return found


def _made_twice(entry: FileAnalysis, data: bytes) -> list[Finding]:
    """Names the result defines twice in one scope where dev and main each define them at most once."""
    merge = entry.merge
    assert merge is not None
    now = duplicates(data)
    if not now:
        return []
    dev, main = duplicates(b"".join(merge.ours)), duplicates(b"".join(merge.theirs))
    return [Finding(Rule.DUPLICATE_DEFINITION, entry.path,
                    f"{entry.path} defines {(scope + '.') if scope else ''}{name} twice (lines "
                    f"{', '.join(str(n) for n in lines)}); dev and main each define it once", line=lines[0])
            for (scope, name), lines in sorted(now.items()) if (scope, name) not in dev and (scope, name) not in main]


def _item_findings(view: ItemView) -> list[Finding]:
    item = view.item
    found: list[Finding] = []
    if item.kind is ItemKind.DUPLICATE_DEFINITION:
        found.append(Finding(Rule.DUPLICATE_DEFINITION, item.paths[0] if item.paths else "", item.why, item.id))
    if item.kind is ItemKind.FORMATTING:
        found.append(Finding(Rule.FORMATTING, item.paths[0] if item.paths else "", item.why, item.id))
    for m in view.members:
        if m.claim is not None and m.claim.contradicted:
            found.append(Finding(Rule.CONTRADICTED_CLAIM, m.member.path,
                                 f"the recorded claim {m.ack.claim if m.ack else ''} for {_where(m)} is contradicted: "
                                 f"{m.claim.reason}", item.id))
    if item.level is Level.HIGH:
        open_members = [m for m in view.members if _unjustified(m)]
        if open_members:
            m = open_members[0]
            lost = view.lost
            found.append(Finding(Rule.UNJUSTIFIED_LOSS, m.member.path,
                                 f"{item.why} ({len(open_members)} of {len(view.members)} members lose lines "
                                 f"undecided; {lost['dev']} of dev's and {lost['main']} of main's lines in all)", item.id))
    found += _listed(view)
    return found


def _where(m: MemberView) -> str:
    return m.member.path if m.member.hunk is None else f"hunk {m.member.hunk + 1} of {m.member.path}"


def _unjustified(m: MemberView) -> bool:
    """A member losing lines with no decision the result holds, no verified claim and no evidence of intent."""
    if m.ack is not None and (m.claim is None or not m.claim.contradicted):
        return False
    if m.journal is not None:
        return False
    losing = [side for side in _SIDES if m.lost.get(side)]
    return bool(losing) and not all(_intended(m.hunk, side) for side in losing)


def _intended(hunk: Hunk | None, side: Whose) -> bool:
    return hunk is not None and any(s.kind is _INTENT[side] and s.weight < 0 for s in hunk.signals)


def _listed(view: ItemView) -> list[Finding]:
    found: list[Finding] = []
    acks = [m.ack for m in view.members if m.ack is not None and m.ack.by_agent]
    if any(a.claim == "judgement" for a in acks):
        found.append(Finding(Rule.JUDGEMENT, view.item.paths[0] if view.item.paths else "",
                             f"decided on the agent's judgement: {acks[0].reason}", view.item.id))
    groups = Counter((a.item, a.take or a.decision.value, a.claim, a.reason) for a in acks)
    if any(n > GROUP_SIZE for n in groups.values()):
        found.append(Finding(Rule.GROUP_DECISION, view.item.paths[0] if view.item.paths else "",
                             f"one decision for {max(groups.values())} members", view.item.id))
    for m in view.members:
        ack = m.ack
        if ack is not None and ack.take in ("file-main", "file-dev") and (m.entry is None or m.entry.policy is None):
            found.append(Finding(Rule.WHOLE_FILE_TAKE, m.member.path,
                                 f"{m.member.path} taken whole ({ack.take}) though no policy names it", view.item.id))
            break
    return found


def verdict_json(verdict: Verdict, advisory: bool) -> dict[str, Any]:
    return {
        "verdict": "pass" if verdict.passed else "advisory" if advisory else "blocked",
        "items": verdict.items,
        "blocking": [f.to_json() for f in verdict.blocking],
        "for_human": [f.to_json() for f in verdict.listed],
    }
