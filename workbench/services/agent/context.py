"""One sync opened for the agent's commands: the analysis (cached), the app's session and journal, the worklist,
and the decision record."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from workbench.analysis.model import Mode, SyncAnalysis
from workbench.analysis.worklist import Worklist
from workbench.errors import WorkbenchError
from workbench.git.repo import GitRepo
from workbench.resolve.acks import Ack, commit_acks, worktree_acks
from workbench.services.agent.items import worklist_of
from workbench.services.agent.locate import main_tip, sync_merge
from workbench.services.agent.warm import Reads, worktree_bytes
from workbench.services.sync import SyncRequest, open_sync
from workbench.services.workspace import Workspace


@dataclass
class AgentSync:
    """What every agent command reads: ``analysis`` is the workspace's (with the app's provenance)."""

    repo: GitRepo
    workspace: Workspace
    request: SyncRequest
    record: tuple[Ack, ...]
    """The decision record (``.workbench/acks.toml``) that belongs to the result."""
    reads: Reads = field(default_factory=Reads)
    """What was read beyond the analysis' key (``warm.py``): a warm output is served only while it holds."""

    @property
    def analysis(self) -> SyncAnalysis:
        return self.workspace.analysis

    @cached_property
    def worklist(self) -> Worklist:
        return worklist_of(self.analysis)

    def result_bytes(self, path: str) -> bytes | None:
        """The result's file at ``path`` as it will be once the journal's decisions are written (None: absent)."""
        entry = self.analysis.file(path)
        session = self.workspace.session
        if entry is not None:
            if session.decided(path) or session.file_choice(path) is not None:
                return session.preview(path)
            return entry.result_bytes if entry.result_present else None
        return _outside(self.repo, self.analysis, path, self.reads)


def _outside(repo: GitRepo, analysis: SyncAnalysis, path: str, reads: Reads) -> bytes | None:
    """A file the sync's analysis does not hold: from the result commit, else the work tree (a read noted in
    ``reads``)."""
    if analysis.result_commit is not None:
        found = repo.tree_entry(analysis.result_commit, path)
        return repo.read_blob(found[0]) if found is not None else None
    if repo.workdir is None or analysis.mode is Mode.PREVIEW:
        return None
    data = worktree_bytes(repo.workdir, path)
    reads.file(path, data)
    return data


def located(request: SyncRequest, main: str | None = None) -> tuple[GitRepo, SyncRequest]:
    """The request with the sync merge filled in when it names none and no merge is in progress: the newest
    first-parent merge of main from HEAD, with HEAD as the result (``locate.py``)."""
    repo = GitRepo.open(request.repo)
    if request.rev is not None or request.dev is not None or request.main is not None or repo.merge_heads():
        return repo, request
    head = repo.head()
    if head is None:
        return repo, request
    merge = sync_merge(repo, head, main_tip(repo, main))
    if merge is None:
        return repo, request
    return repo, replace(request, rev=merge, result=request.result or (head if head != merge else None))


def open_agent(request: SyncRequest, *, worktree_record: bool = True, reads: Reads | None = None) -> AgentSync:
    """Open the sync for the agent: analysed (from the cache when it can be), the journal resumed.

    ``worktree_record``: read the record from the work tree when it belongs to the result (a merge in
    progress, or HEAD at the result commit: the decisions not committed yet); else only the committed one.
    ``reads``: where to note what is read beyond the analysis' key (``warm.py``)."""
    _repo, request = located(request)
    repo, analysis = open_sync(request)
    workspace = Workspace.load(repo, analysis)
    return AgentSync(repo, workspace, request, tuple(record_of(repo, analysis, worktree_record)),
                     reads if reads is not None else Reads())


def record_of(repo: GitRepo, analysis: SyncAnalysis, worktree: bool) -> list[Ack]:
    """The decision record of the sync's result (see ``open_agent``), less the entries dev's own record already
    held: those are earlier syncs' decisions, carried along in the file (``recall`` offers them), not this one's."""
    commit = analysis.result_commit
    at_result = repo.workdir is not None and (commit is None or repo.head() == commit)
    if worktree and at_result and analysis.mode is not Mode.PREVIEW:
        assert repo.workdir is not None
        found = worktree_acks(repo.workdir)
    elif commit is not None:
        found = commit_acks(repo, commit)
    else:
        found = worktree_acks(repo.workdir) if repo.workdir is not None else []
    if not found:
        return found
    try:
        earlier = set(commit_acks(repo, analysis.dev))
    except WorkbenchError:
        earlier = set()
    return [ack for ack in found if ack not in earlier]
