"""Which sync the agent's commands mean when no REV is given and no merge is in progress: the branch's sync merge.

On a sync branch after the merge was committed (and fixed, and perhaps had
dev merged in again), the sync is the newest merge of main reached along
HEAD's first parents, and the result is HEAD.  "Of main": its second parent
is on main (an ancestor of main's tip), so a later merge of dev into the
branch is passed over.
"""

from __future__ import annotations

from workbench.errors import WorkbenchError
from workbench.git.repo import GitRepo

MAIN_REFS = ("refs/remotes/origin/main", "refs/heads/main")
"""Where main's tip is looked for when ``--main`` does not name it."""
LIMIT = 10_000
"""First-parent commits walked before giving up."""


def main_tip(repo: GitRepo, given: str | None) -> str | None:
    """Main's tip: ``given`` (an error when it names nothing), else the first of ``MAIN_REFS`` that exists."""
    if given is not None:
        return repo.resolve(given)
    for ref in MAIN_REFS:
        try:
            return repo.resolve(ref)
        except WorkbenchError:
            continue
    return None


def sync_merge(repo: GitRepo, head: str, main: str | None) -> str | None:
    """The newest first-parent merge from ``head`` whose second parent is on ``main`` (any merge when main is
    unknown), or None."""
    sha: str | None = head
    for _ in range(LIMIT):
        if sha is None:
            return None
        parents = repo.parents(sha)
        if len(parents) >= 2 and (main is None or repo.merge_base(parents[1], main) == parents[1]):
            return sha
        sha = parents[0] if parents else None
    return None
