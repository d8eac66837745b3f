"""Each decision of a sync marked (``resolve.marks``), every recorded claim checked again against the result
(never trusted from the file): what the app's Why panel and the report's "what was decided" both read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from workbench.analysis.model import Decider, SyncAnalysis
from workbench.analysis.worklist import Item, ItemKind, Member
from workbench.analysis.worklist.whole_files import whole_file_fingerprint
from workbench.git.repo import GitRepo
from workbench.resolve.acks import Ack
from workbench.resolve.claims import ClaimCheck
from workbench.resolve.events import FileChoice
from workbench.resolve.marks import Mark, mark_of
from workbench.resolve.splice import Choice, Decision
from workbench.services.agent.context import AgentSync, record_of
from workbench.services.agent.state import MemberView, Views
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace


@dataclass(frozen=True, slots=True)
class Marked:
    """One decision's mark, with the record entry and the claim check behind it."""

    mark: Mark
    ack: Ack | None = None
    check: ClaimCheck | None = None


Where = tuple[str, int | None]
"""A hunk (path, index), or a whole file (path, None)."""


def decision_marks(repo: GitRepo, workspace: Workspace, record: Sequence[Ack] | None = None) -> dict[Where, Marked]:
    """Every hunk and whole file the record or the journal decided, marked, each recorded claim checked against
    the result.  ``record``: the decision record (None: the one that belongs to the result, the work tree's
    draft included)."""
    sync = _sync(repo, workspace, record)
    views = Views(sync)
    analysis = workspace.analysis
    wanted = {a.path for a in sync.record} | {f.path for f in analysis.files if _journaled(workspace, f.path)}
    found: dict[Where, Marked] = {}
    for path in sorted(wanted):
        entry = analysis.file(path)
        if entry is None:
            continue
        for index in (None, *(h.index for h in entry.all_hunks)):
            marked = _mark(sync, views, path, index)
            if marked is not None:
                found[(path, index)] = marked
    return found


def mark_at(repo: GitRepo, workspace: Workspace, path: str, index: int | None,
            record: Sequence[Ack] | None = None) -> Marked | None:
    """One hunk's (or whole file's) mark, its claim checked now; None when nobody decided it."""
    sync = _sync(repo, workspace, record)
    return _mark(sync, Views(sync), path, index)


def _mark(sync: AgentSync, views: Views, path: str, index: int | None) -> Marked | None:
    """The member at (path, index) viewed alone, marked: its item's member, else (or when that finds no record
    entry for a whole file) one made for it: a hunk decided and written needs no look any more, and a whole
    file's record names it by its kind and sides' blobs, as the whole-file item does."""
    entry = sync.analysis.file(path)
    if entry is None:
        return None
    level = entry.all_hunks[index].level if index is not None else entry.level
    made = Member(path, index, level, fingerprint="" if index is not None else whole_file_fingerprint(entry))
    item = sync.worklist.of_hunk(path, index) if index is not None else None
    if item is None:
        item = next((i for i in sync.worklist.items for m in i.members if m.path == path and m.hunk == index), None)
    candidates = [(item, m) for m in item.members if m.path == path and m.hunk == index][:1] if item else []
    alone = Item(id="", kind=ItemKind.HUNK if index is not None else ItemKind.WHOLE_FILE, level=level, why="",
                 members=(made,))
    candidates.append((alone, made))
    view = None
    for holder, member in candidates:
        seen = views.view(replace(holder, members=(member,)), priced=False).members[0]
        view = view or seen
        if seen.ack is not None:
            view = seen
            break
    assert view is not None
    if index is None and view.ack is None:
        if sync.workspace.session.file_choice(path) is None:
            return None
        if entry.all_hunks:  # a whole-file take of a file with hunks is recorded hunk by hunk
            return _mark(sync, views, path, entry.all_hunks[0].index)
    return _marked(sync.analysis, view)


def _sync(repo: GitRepo, workspace: Workspace, record: Sequence[Ack] | None) -> AgentSync:
    acks = tuple(record) if record is not None else tuple(record_of(repo, workspace.analysis, True))
    return AgentSync(repo, workspace, SyncRequest(repo=repo.workdir), acks)


def _marked(analysis: SyncAnalysis, member: MemberView) -> Marked | None:
    mark = mark_of(member.ack, member.claim, _journal_of(member.journal), _fixed(analysis, member.member.path))
    return Marked(mark, member.ack, member.claim) if mark is not None else None


def _journaled(workspace: Workspace, path: str) -> bool:
    session = workspace.session
    return session.file_choice(path) is not None or session.decided(path) > 0


def _journal_of(journal: Decision | FileChoice | None) -> Choice | FileChoice | None:
    return journal.choice if isinstance(journal, Decision) else journal


def _fixed(analysis: SyncAnalysis, path: str) -> bool:
    entry = analysis.file(path)
    return entry is not None and entry.decided_by is Decider.FIX_COMMIT
