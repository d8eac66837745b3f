"""The nightly sync bot's merge, as Megatron-LM ran it until May 2026.

    git checkout -b main2dev/DATE origin/dev
    git merge origin/main -X theirs --no-edit

then, where conflicts remain (modify/delete), "resolve by favouring main":
keep main's file where main has one, delete it where main deleted it.
"""

from __future__ import annotations

from workbench.sample.builder import RepoBuilder
from workbench.sample.recipe import BOT


def sync_branch_name(b: RepoBuilder) -> str:
    """``main2dev/DD_MM_YYYY`` for the builder's current date."""
    return "main2dev/" + b.now.strftime("%d_%m_%Y")


def start_sync(b: RepoBuilder, branch: str, dev: str = "origin/dev", main: str = "origin/main") -> bool:
    """Branch from dev and merge main with ``-X theirs``; True when the merge stopped on conflicts."""
    b.git("checkout", "-q", "-b", branch, dev)
    return b.merge(main, "theirs") != 0


def unmerged(b: RepoBuilder) -> dict[str, set[int]]:
    """Each path still conflicted in the index, with the stages (1 base, 2 dev, 3 main) it has."""
    stages: dict[str, set[int]] = {}
    for record in b.git("ls-files", "-u", "-z").split(b"\0"):
        if record:
            info, _, path = record.partition(b"\t")
            stages.setdefault(path.decode(), set()).add(int(info.split()[2]))
    return stages


def finish_sync(b: RepoBuilder, branch: str, main: str = "origin/main") -> str:
    """Favour main on every remaining conflict and commit the merge the way the bot words it.

    Returns the merge commit (already made by git when nothing was left to resolve).
    """
    if b.run("rev-parse", "-q", "--verify", "MERGE_HEAD").returncode != 0:
        return b.rev("HEAD")
    for path, stages in sorted(unmerged(b).items()):
        if 3 in stages:
            b.git("checkout", "--theirs", "--", path)
            b.git("add", "--", path)
        else:
            b.git("rm", "-q", "--", path)
    return b.commit(f"Merge remote-tracking branch '{main}' into {branch}", author=BOT)
