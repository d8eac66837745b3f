"""``decide``: apply a take to items (or members) with a claim, checked before anything is written.

The order is what makes "a contradicted claim writes nothing" true: the
take is applied to a scratch copy of the app's session (its journal
replayed), each member's loss is computed with the take applied, the claim
is checked against that, and every file the take changes is checked by the
writer (markers, Python syntax, the work tree unchanged, staging).  Only
then is the take applied for real through the app's workspace: the journal
(where the app resumes it), the writer (atomic writes, staged during a merge
in progress), and the decision record (``.workbench/acks.toml``, with
``by``, ``claim``, ``evidence`` and ``run``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from workbench.analysis.model import FileAnalysis, FileStatus, Hunk, HunkKind, Mode
from workbench.analysis.worklist import Item
from workbench.analysis.xdiff import split_lines
from workbench.errors import WorkbenchError
from workbench.resolve.acks import Ack, fingerprint, now_iso, record_acks, who_am_i
from workbench.resolve.claims import ClaimCheck, ClaimKind, ClaimStatus, verify
from workbench.resolve.events import FileChoice
from workbench.resolve.session import Session, SessionError
from workbench.resolve.splice import Choice, Decision
from workbench.resolve.write_plan import Refusal, check_writes, write_blocker
from workbench.services.agent.context import AgentSync
from workbench.services.agent.effect import Lost, count, decided_text
from workbench.services.agent.findings import Finding, new_findings
from workbench.services.agent.scratch import apply_to, scratch_session
from workbench.services.agent.state import FILE_KEY, MemberView, Views
from workbench.services.agent.suggestion import suggested_decision
from workbench.services.agent.takes import Action, FileAction, HunkAction, Take, action
from workbench.services.agent.views import find, lost_after, target_after


class Outcome(str, Enum):
    """What became of a request."""

    DECIDED = "decided"
    REFUSED = "refused"
    """The claim is contradicted, or the writer refused a file: nothing was written."""
    DRY_RUN = "dry-run"


@dataclass(frozen=True)
class DecideRequest:
    """One ``decide``: targets (``ID`` or ``ID:N``), the take, the claim and its evidence, the reason."""

    targets: tuple[str, ...]
    take: Take
    claim: ClaimKind
    reason: str
    evidence: tuple[str, ...] = ()
    text: bytes | None = None
    dry_run: bool = False
    run: str = ""


@dataclass(frozen=True)
class Decided:
    """One member with the take applied."""

    item: Item
    view: MemberView
    action: Action
    lost: Lost


@dataclass
class DecideAnswer:
    outcome: Outcome
    request: DecideRequest
    members: list[Decided] = field(default_factory=list)
    claim: ClaimCheck | None = None
    refusal: str = ""
    findings: list[Finding] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    """Files the take changes that still hold other undecided conflicts: journaled, written once they are decided."""
    staged: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    record: str = ""
    sync: dict[str, Any] = field(default_factory=dict)
    """The situation, as the documents name it (filled by the caller)."""

    @property
    def status(self) -> int:
        return 1 if self.outcome is Outcome.REFUSED else 0

    def to_json(self) -> dict[str, Any]:
        lost = {"dev": 0, "main": 0}
        for m in self.members:
            for side, n in count(m.lost).items():
                lost[side] += n
        items = list(dict.fromkeys(m.item.id for m in self.members))
        return {
            "outcome": self.outcome.value,
            "targets": list(self.request.targets),
            "items": items,
            "take": self.request.take.value,
            "claim": {"claim": self.request.claim.value, "status": self.claim.status.value, "reason": self.claim.reason,
                      "evidence": list(self.claim.cited or self.request.evidence)} if self.claim is not None else None,
            "refusal": self.refusal or None,
            "still_lost": lost,
            "members": [
                {"item": m.item.id, "member": m.view.number, "path": m.view.member.path, "hunk": m.view.member.hunk,
                 "lost_lines": count(m.lost)} for m in self.members
            ],
            "findings": [{"kind": f.kind, "path": f.path, "name": f.name, "lines": list(f.lines), "detail": f.detail}
                         for f in self.findings],
            "written": self.written,
            "staged": self.staged,
            "pending": self.pending,
            "message": self.messages,
            "record": self.record or None,
        }


def run_id() -> str:
    """The agent run a decision belongs to: ``WORKBENCH_RUN``, else a CI run (GitHub Actions), else none."""
    given = os.environ.get("WORKBENCH_RUN", "").strip()
    if given:
        return given
    github = os.environ.get("GITHUB_RUN_ID", "").strip()
    if github:
        attempt = os.environ.get("GITHUB_RUN_ATTEMPT", "").strip()
        return f"github:{github}" + (f".{attempt}" if attempt else "")
    return ""


def targets_of(sync: AgentSync, views: Views, wanted: Sequence[str]) -> list[tuple[Item, MemberView]]:
    """The members the targets name, each once, in order (``WorkbenchError`` naming a bad one)."""
    found: dict[tuple[str, int | str], tuple[Item, MemberView]] = {}
    for given in wanted:
        name, _sep, number = given.partition(":")
        item = find(sync, name)
        view = views.view(item, priced=False)
        if number:
            if not number.isdigit() or not 1 <= int(number) <= len(view.members):
                raise WorkbenchError(f"{item.id} has {len(view.members)} member(s): {given!r} names none")
            chosen = [view.members[int(number) - 1]]
        else:
            chosen = list(view.members)
        for member in chosen:
            key = member.member.hunk if member.member.hunk is not None else FILE_KEY + member.member.fingerprint
            found.setdefault((member.member.path, key), (item, member))  # whole-file members: one per fingerprint
    return list(found.values())


def plan(sync: AgentSync, views: Views, request: DecideRequest) -> list[tuple[Item, MemberView, Action]]:
    """Each named member's action (``WorkbenchError``: a target or take that does not fit, nothing decided)."""
    if not request.reason.strip():
        raise WorkbenchError("--reason must say why (it is what reviewers read)")
    members = targets_of(sync, views, request.targets)
    if not members:
        raise WorkbenchError("nothing to decide")
    if request.take is Take.CUSTOM:
        hunks = [m for _item, m in members if m.hunk is not None]
        if len(members) != 1 or len(hunks) != 1:
            raise WorkbenchError("--take custom decides one hunk: name one member (ID:N)")
    planned: list[tuple[Item, MemberView, Action]] = []
    files: dict[str, FileAction] = {}
    for item, view in members:
        suggested = suggested_decision(sync, view) if request.take is Take.SUGGESTED else None
        done = action(request.take, view.member, sync.analysis, request.text, suggested)
        if isinstance(done, str):
            raise WorkbenchError(f"--take {request.take.value} does not fit {item.id}:{view.number}: {done}")
        if isinstance(done, FileAction):
            files[done.path] = done
        planned.append((item, view, done))
    for _item, _view, done in planned:
        if isinstance(done, HunkAction) and done.path in files:
            raise WorkbenchError(f"{done.path} is taken whole and decided hunk by hunk in one request")
    return planned


def decide(sync: AgentSync, views: Views, request: DecideRequest) -> DecideAnswer:
    """Check and apply ``request`` (see the module docstring); ``WorkbenchError`` for bad input."""
    planned = plan(sync, views, request)
    scratch = scratch_session(sync)
    try:
        apply_to(scratch, [done for _item, _view, done in planned])
    except SessionError as exc:
        raise WorkbenchError(str(exc)) from None
    members = [Decided(item, view, done, lost_after(views, view, done)) for item, view, done in planned]
    answer = DecideAnswer(Outcome.DRY_RUN if request.dry_run else Outcome.DECIDED, request, members)
    try:
        previews: dict[str, bytes | None] = {}
        targets = [target_after(views, m.view, m.action, scratch, previews) for m in members]
    except SessionError as exc:
        answer.outcome, answer.refusal = Outcome.REFUSED, f"the take cannot be written: {exc}"
        return answer
    answer.claim = verify(request.claim, request.evidence, targets, sync.analysis, views.history)
    if answer.claim.contradicted:
        answer.outcome, answer.refusal = Outcome.REFUSED, f"the claim is contradicted: {answer.claim.reason}"
        return answer
    blocker = write_blocker(sync.repo, sync.analysis)
    if blocker is not None:
        raise WorkbenchError(f"decisions are written and recorded in the sync's work tree, and {blocker}")
    dirty = [path for path in dict.fromkeys(m.view.member.path for m in members) if scratch.is_dirty(path)]
    held = [path for path in dirty if request.take is Take.RESULT and _resolved(scratch, path)]
    changed = [path for path in dirty if path not in held and not _still_conflicted(scratch, path)]
    answer.pending = [path for path in dirty if path not in changed and path not in held]
    answer.messages += [f"{path} already holds what `result` keeps: not written" for path in held]
    if changed:
        checks = check_writes(sync.repo, scratch, changed, stage=sync.analysis.mode is Mode.IN_PROGRESS)
        refused = [check for check in checks.values() if isinstance(check, Refusal)]
        if refused:
            answer.outcome, answer.refusal = Outcome.REFUSED, f"the writer refuses: {refused[0].message}"
            return answer
    for path in changed:
        entry = sync.analysis.file(path)
        before = entry.result_bytes if entry is not None and entry.result_present else None
        answer.findings += new_findings(path, before, previews[path] if path in previews else scratch.preview(path))
    if request.dry_run:
        return answer
    _apply(sync, planned, changed, answer)
    return answer


def _resolved(session: Session, path: str) -> bool:
    """The file is resolved in the index, so ``--take result`` has nothing to write: the file holds the decision.
    (Writing it would splice the journal's other decisions over it, made before an edit that replaced them.)"""
    return session.file(path).status is not FileStatus.CONFLICTED


def _still_conflicted(session: Session, path: str) -> bool:
    """The file still has undecided conflicts once the take is applied: the decision is journaled and the file
    written by the decision that settles its last conflict (as the app writes a file once it is decided)."""
    entry = session.file(path)
    return entry.status is FileStatus.CONFLICTED and not session.is_decided(path)


def _apply(sync: AgentSync, planned: Sequence[tuple[Item, MemberView, Action]], changed: list[str],
           answer: DecideAnswer) -> None:
    workspace = sync.workspace
    blocker = workspace.write_blocker() if changed else None
    if blocker is not None:
        raise WorkbenchError(f"nothing decided: {blocker}")
    apply_to(workspace, [done for _item, _view, done in planned])
    for outcome in workspace.write_all(changed) if changed else []:
        answer.messages.append(outcome.message)
        if outcome.written:
            answer.written.append(outcome.path)
        if outcome.staged:
            answer.staged.append(outcome.path)
        if not outcome.written:
            answer.outcome, answer.refusal = Outcome.REFUSED, outcome.message
    assert sync.repo.workdir is not None
    acks = [_ack(sync, m, answer) for m in answer.members]
    target = record_acks(sync.repo.workdir, acks)
    answer.record = str(target.relative_to(sync.repo.workdir))


def _ack(sync: AgentSync, decided: Decided, answer: DecideAnswer) -> Ack:
    view, done, request = decided.view, decided.action, answer.request
    member = view.member
    if isinstance(done, HunkAction):
        key = fingerprint(member.path, _after(view.entry, view.hunk, done.decision))
        choice = done.decision.choice
    elif isinstance(done, FileAction):
        side = Choice.DEV if done.choice is FileChoice.KEEP_DEV else Choice.MAIN
        key = fingerprint(member.path, view.hunk) if view.hunk is not None else FILE_KEY + member.fingerprint
        choice = side
    else:
        key = FILE_KEY + member.fingerprint if view.hunk is None else fingerprint(member.path, view.hunk)
        choice = Choice.RESULT
    claim = answer.claim
    evidence = tuple(claim.cited) if claim is not None and claim.cited else request.evidence
    take = request.take.value if request.take.value != choice.value else ""
    return Ack(member.path, key, choice, request.reason.strip(), who_am_i(sync.repo), now_iso(), by="agent",
               claim=request.claim.value, evidence=evidence, run=request.run, item=decided.item.id,
               member=member.fingerprint, take=take)


def _after(entry: FileAnalysis | None, hunk: Hunk | None, decision: Decision) -> Hunk:
    """The hunk as the result will hold it: an edit's result text is what the decision writes."""
    assert hunk is not None
    if hunk.kind is not HunkKind.EDIT or entry is None:
        return hunk
    return replace(hunk, result_text=tuple(split_lines(decided_text(hunk, decision))))


def refused_status(answers: Sequence[DecideAnswer]) -> int:
    return 1 if any(a.outcome is Outcome.REFUSED for a in answers) else 0


__all__ = ["ClaimStatus", "DecideAnswer", "DecideRequest", "Outcome", "decide", "refused_status", "run_id"]
