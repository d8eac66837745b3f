"""Where each item stands: which members are decided (in the journal, or in the record the file holds), what
they still lose, what each take would lose, and each recorded claim checked again."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property

from workbench.analysis.model import Decider, FileAnalysis, Hunk, Mode, SyncAnalysis, Whose
from workbench.analysis.worklist import Item, Member
from workbench.analysis.xdiff import split_lines
from workbench.resolve.acks import Ack, fingerprint, hunk_holds
from workbench.resolve.claims import ClaimCheck, ClaimKind, ClaimStatus, RepoHistory, Target, verify
from workbench.resolve.events import FileChoice
from workbench.resolve.session import Session
from workbench.resolve.splice import Choice, Decision
from workbench.services.agent.context import AgentSync
from workbench.services.agent.effect import Lost, Pricer, count
from workbench.services.agent.items import sync_commits_of
from workbench.services.agent.takes import HunkAction, Take, action


class State(str, Enum):
    """An item's (or a member's) state: nothing decided, everything, or some."""

    OPEN = "open"
    DECIDED = "decided"
    PARTLY = "partly"


_UNPRICED = frozenset({Take.CUSTOM, Take.SUGGESTED})
"""Takes whose text is not known before they are made."""
_WHOLE_FILE = frozenset({Take.FILE_MAIN, Take.FILE_DEV})
"""Priced only where the worklist offers them (a policy's file, a deleted one): whole files are not a default."""
KEEPS_BOTH = frozenset({Choice.BOTH, Choice.BOTH_MAIN_FIRST})
"""Decisions that put both sides' text in a hunk's place (``restored`` then checks they are not the same work)."""
FILE_KEY = "file:"
"""Prefix of a whole-file member's ``hunk`` in the record (the member's fingerprint follows)."""


def record_key(member: Member, hunk: Hunk | None) -> str:
    """The ``hunk`` field naming a member in the record: its hunk's fingerprint, or ``file:`` and its own."""
    return fingerprint(member.path, hunk) if hunk is not None else FILE_KEY + member.fingerprint


@dataclass(frozen=True)
class MemberView:
    """One member as it stands now."""

    number: int
    """1-based, as ``show`` lists it and ``ID:N`` names it."""
    member: Member
    entry: FileAnalysis | None
    hunk: Hunk | None
    lost: Lost
    """Each side's lines still lost (journal decisions applied)."""
    journal: Decision | FileChoice | None = None
    """The app's journal's decision for it (this sync, this situation)."""
    ack: Ack | None = None
    """Its entry in the decision record, when the result holds what the entry says."""
    claim: ClaimCheck | None = None
    """The recorded claim, checked now."""

    @property
    def decided(self) -> bool:
        return self.journal is not None or self.ack is not None

    @property
    def state(self) -> State:
        return State.DECIDED if self.decided else State.OPEN

    @property
    def decided_by(self) -> str | None:
        """``agent``/``human`` (the record's ``by``; a record entry without one is a person's), ``journal``, or None."""
        if self.ack is not None:
            return self.ack.by or "human"
        return "journal" if self.journal is not None else None


@dataclass(frozen=True)
class ChoiceCost:
    """What one take of an item would leave lost on each side (``applies``: it applies to every member)."""

    take: Take
    applies: bool
    lost: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class ItemView:
    item: Item
    members: tuple[MemberView, ...]
    choices: tuple[ChoiceCost, ...]

    @cached_property
    def state(self) -> State:
        decided = sum(1 for m in self.members if m.decided)
        if decided == 0:
            return State.OPEN
        return State.DECIDED if decided == len(self.members) else State.PARTLY

    @property
    def lost(self) -> dict[str, int]:
        return {side: sum(len(m.lost.get(side, ())) for m in self.members) for side in ("dev", "main")}

    @property
    def contradicted(self) -> tuple[MemberView, ...]:
        return tuple(m for m in self.members if m.claim is not None and m.claim.contradicted)


class Views:
    """Item views of one opened sync, built on demand (``queue`` builds them all, ``show`` one)."""

    def __init__(self, sync: AgentSync, *, held_only: bool = False) -> None:
        """``held_only``: a journal decision counts only where the result holds it (written during the merge in
        progress, or the app's file in a merge commit): what the gate judges."""
        self.sync = sync
        self.held_only = held_only
        self._by_key: dict[tuple[str, str], Ack] = {}
        for ack in sync.record:
            self._by_key[(ack.path, ack.hunk)] = ack
            if ack.member:
                self._by_key.setdefault((ack.path, "member:" + ack.member), ack)
        self._paths = frozenset(ack.path for ack in sync.record)
        self._lines: dict[str, Sequence[bytes]] = {}
        self.pricer = Pricer()
        self.history = _Citing(sync)

    def all(self) -> list[ItemView]:
        return [self.view(item) for item in self.sync.worklist.items]

    def view(self, item: Item, *, priced: bool = True) -> ItemView:
        """The item as it stands; ``priced``: with what each take would leave lost (``choices``)."""
        members = tuple(self._member(n, m, item) for n, m in enumerate(item.members, start=1))
        return ItemView(item, members, tuple(self._choices(item, members)) if priced else ())

    def result_lines(self, entry: FileAnalysis) -> Sequence[bytes]:
        path = entry.path
        if path not in self._lines:
            data = entry.result_bytes if entry.result_present else None
            self._lines[path] = split_lines(data) if data is not None else ()
        return self._lines[path]

    def _member(self, number: int, member: Member, item: Item) -> MemberView:
        analysis = self.sync.analysis
        entry = analysis.file(member.path)
        hunk = _hunk(entry, member)
        session = self.sync.workspace.session
        journal: Decision | FileChoice | None = None
        lost: Lost = {}
        if entry is not None:
            choice = session.file_choice(entry.path)
            decision = session.decision(entry.path, hunk.index) if hunk is not None else None
            journal = choice or decision
            if journal is not None and (self.held_only and not self._held(entry) or _stale(session, entry)):
                journal, choice, decision = None, None, None
            if hunk is not None:
                lost = self.pricer.lost(entry, hunk, decision, choice, self.result_lines(entry))
        ack = self._ack(member, hunk)
        view = MemberView(number, member, entry, hunk, lost, journal, ack)
        if ack is not None and (ack.claim or ack.by_agent):
            check = (verify(ClaimKind(ack.claim), ack.evidence, [self.target(view)], analysis, self.history) if ack.claim
                     else ClaimCheck(ClaimStatus.CONTRADICTED, "an agent's decision must carry a claim, and this one has none"))
            view = MemberView(number, member, entry, hunk, lost, journal, ack, check)
        return view

    def _held(self, entry: FileAnalysis) -> bool:
        """Whether the result holds the journal's decisions for the file."""
        session = self.sync.workspace.session
        if entry.decided_by is Decider.APP:
            return True
        return (self.sync.analysis.mode is Mode.IN_PROGRESS and session.was_written(entry.path)
                and not session.is_dirty(entry.path))

    def _ack(self, member: Member, hunk: Hunk | None) -> Ack | None:
        """The record's entry for the member, when the result holds the decision it records."""
        if member.path not in self._paths:
            return None
        ack = self._by_key.get((member.path, record_key(member, hunk)))
        if ack is None:
            ack = self._by_key.get((member.path, "member:" + member.fingerprint))
        if ack is None:
            return None
        if hunk is not None and not hunk_holds(hunk, ack.decision):
            return None
        return ack

    def target(self, view: MemberView) -> Target:
        """The member as a claim's target, as the result holds it now."""
        data = self.sync.result_bytes(view.member.path)
        both = view.ack is not None and view.ack.decision in KEEPS_BOTH
        return Target(view.member.path, view.entry, view.hunk, dict(view.lost), missing_side(self.sync, view, data),
                      lambda: split_lines(data) if data is not None else None, both)

    def _choices(self, item: Item, members: Sequence[MemberView]) -> list[ChoiceCost]:
        analysis: SyncAnalysis = self.sync.analysis
        out: list[ChoiceCost] = []
        offered = {d.value for d in item.decisions}
        takes = [t for t in Take if t not in _UNPRICED and (t.value in offered or t not in _WHOLE_FILE)]
        for take in takes:
            applies = True
            lost = {"dev": 0, "main": 0}
            for view in members:
                done = action(take, view.member, analysis)
                if isinstance(done, str):
                    applies = False
                    continue
                if view.entry is None or view.hunk is None:
                    continue
                if isinstance(done, HunkAction):
                    after = self.pricer.lost(view.entry, view.hunk, done.decision, None, self.result_lines(view.entry))
                else:
                    after = self.pricer.lost(view.entry, view.hunk, None, getattr(done, "choice", None),
                                             self.result_lines(view.entry))
                for side, n in count(after).items():
                    lost[side] += n
            if applies or take.value in offered:
                out.append(ChoiceCost(take, applies, lost))
        return out


_HEX = re.compile(r"^[0-9a-fA-F]+$")


class _Citing(RepoHistory):
    """The repository's history as claims read it, noting in the sync's ``reads`` a citation that may resolve
    otherwise later (anything but a full commit id the repository holds): such an answer is not kept."""

    def __init__(self, sync: AgentSync) -> None:
        super().__init__(sync.repo, sync.analysis, sync.result_bytes, sync_commits_of(sync.analysis))
        self._reads = sync.reads

    def commit(self, rev: str) -> str | None:
        sha = super().commit(rev)
        if sha != rev.lower() and _HEX.match(rev):  # looked up, and not for good
            self._reads.volatile = True
        return sha


def _stale(session: Session, entry: FileAnalysis) -> bool:
    """During a merge in progress (the result is the work tree), whether the work tree no longer holds what the
    file's journaled decisions were made over or written as: an edit replaced them, so they decide nothing the
    result holds and the member is open again.  (On a checked-out merge commit the result is the commit, which a
    decision's write changes only once committed.)"""
    if session.analysis.mode is not Mode.IN_PROGRESS:
        return False
    return session.disk_oid(entry.path) != (entry.result_oid if entry.result_present else None)


def missing_side(sync: AgentSync, view: MemberView, data: bytes | None) -> Whose | None:
    """For a whole-file member the result lacks (``data`` None): the side whose file it is."""
    if view.hunk is not None or data is not None:
        return None
    entry = view.entry
    if entry is not None:
        return "main" if entry.main.oid is not None else "dev" if entry.dev.oid is not None else None
    return "main" if any(d.path == view.member.path for d in sync.analysis.deleted_files) else None


def _hunk(entry: FileAnalysis | None, member: Member) -> Hunk | None:
    if entry is None or member.hunk is None or not 0 <= member.hunk < len(entry.all_hunks):
        return None
    return entry.all_hunks[member.hunk]
