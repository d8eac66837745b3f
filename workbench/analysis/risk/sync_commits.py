"""The sync's own commits, recognised from history: never dev's or main's intent.

An earlier sync's merge of main into dev, the fixes on its branch (a bot's
black run, a commit that deleted files main had added) and the bot's own
commits sit in dev's history like any dev commit, so a rule that reads
"dev deleted it" or "dev wrote it" would read the sync's own work as dev's.
They are told from the shape of history alone, per side:

* a merge on the side whose second parent the side's walk never reached:
  that parent is an ancestor of the merge base, so of the other side's tip
  too (an earlier merge of the other side into this one);
* the commits on such a merge's branch after it, up to where the branch
  joined the side's first-parent line (``git rev-list --ancestry-path
  M..J^2``, J the first-parent merge that brought M in: the sync PR's fixes);
* commits whose author is one of the policy's configured bot identities
  (an exact name: a generic ``[bot]`` would take a release bot's updates,
  which are a side's intent, for the sync's).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field

from workbench.analysis.model import SyncReason
from workbench.analysis.policy.rules import Policy
from workbench.git.types import CommitLookup, SideHistory, SyncSnapshot


@dataclass(frozen=True)
class SyncCommits:
    """The sync's own commits on both sides, each with why."""

    reasons: Mapping[str, SyncReason] = field(default_factory=dict)

    def __contains__(self, sha: object) -> bool:
        return sha in self.reasons

    def reason(self, sha: str) -> SyncReason | None:
        return self.reasons.get(sha)

    @property
    def shas(self) -> frozenset[str]:
        return frozenset(self.reasons)


AuthorOf = Callable[[str], str]
"""A commit's author name by sha."""


def sync_commits(
    dev: SideHistory, main: SideHistory, bots: Collection[str] = (), author: AuthorOf | None = None
) -> SyncCommits:
    """Both sides' sync commits (bots matched by exact author name, case-insensitively, when ``author`` is given)."""
    found: dict[str, SyncReason] = {}
    for side in (dev, main):
        for sha, reason in side_sync_commits(side, bots, author).items():
            found.setdefault(sha, reason)
    return SyncCommits(found)


def of_sync(snapshot: SyncSnapshot, policy: Policy | None, commit: CommitLookup) -> SyncCommits:
    """The sync commits of a snapshot's two histories, the policy naming the bots (if it has one)."""
    bots = policy.sync_bots if policy is not None else ()
    return sync_commits(snapshot.dev_history, snapshot.main_history, bots, lambda sha: commit(sha).author)


def side_sync_commits(history: SideHistory, bots: Collection[str] = (), author: AuthorOf | None = None) -> dict[str, SyncReason]:
    """One side's sync commits: its merges of the other side, their branches' commits, its bots' commits."""
    parents = history.parents
    found: dict[str, SyncReason] = {}
    merges = [sha for sha in history.commits if len(parents[sha]) > 1 and parents[sha][1] not in parents]
    if merges:
        chain = _first_parents(history)
        children = _children(history)
        for sha in merges:
            found[sha] = SyncReason.MERGE
        for sha in merges:
            if sha in chain:
                continue
            for branch in _branch_after(sha, chain, children, parents):
                found.setdefault(branch, SyncReason.BRANCH)
    wanted = {name.casefold() for name in bots}
    if wanted and author is not None:
        for sha in history.commits:
            if sha not in found and author(sha).casefold() in wanted:
                found[sha] = SyncReason.BOT
    return found


def _first_parents(history: SideHistory) -> list[str]:
    """The side's first-parent line from its tip, newest first (within the range)."""
    chain: list[str] = []
    sha: str | None = history.tip
    while sha is not None and sha in history.parents:
        chain.append(sha)
        first = history.parents[sha]
        sha = first[0] if first else None
    return chain


def _children(history: SideHistory) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for sha in history.commits:
        for parent in history.parents[sha]:
            found.setdefault(parent, []).append(sha)
    return found


def _branch_after(merge: str, chain: list[str], children: Mapping[str, list[str]],
                  parents: Mapping[str, tuple[str, ...]]) -> set[str]:
    """The commits after ``merge`` on its branch until the first-parent merge J that joined it: the ancestry
    path from ``merge`` to J's second parent."""
    later = _reach([merge], children)
    on_chain = [sha for sha in chain if sha in later]
    if not on_chain:
        return set()
    joined = on_chain[-1]  # the oldest first-parent commit that has the merge: where its branch came in
    if len(parents[joined]) < 2:
        return set()
    before = _reach([parents[joined][1]], parents)
    return (later & before) - {merge}


def _reach(start: Iterable[str], edges: Mapping[str, Iterable[str]]) -> set[str]:
    """Every commit reachable from ``start`` along ``edges`` (``start`` included)."""
    seen: set[str] = set()
    todo = list(start)
    while todo:
        sha = todo.pop()
        if sha in seen:
            continue
        seen.add(sha)
        todo.extend(edges.get(sha, ()))
    return seen
