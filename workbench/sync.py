"""The one call front ends make: open a repository and analyse its sync."""

from __future__ import annotations

import os
from dataclasses import dataclass

from workbench.analysis.engine import analyze
from workbench.analysis.model import SyncAnalysis
from workbench.git.repo import GitRepo
from workbench.analysis.policy import load_policy
from workbench.git.repo_files import RepoFiles, read_policy_config
from workbench.git.snapshot import load_sync


@dataclass(frozen=True)
class SyncRequest:
    """Which sync to analyse: a merge in progress, a merge commit, or a preview."""

    repo: str | os.PathLike[str] | None = None
    rev: str | None = None
    dev: str | None = None
    main: str | None = None
    result: str | None = None
    policy: str | None = None
    """Policy preset name or file (None: the repository's own configuration)."""


def open_sync(request: SyncRequest) -> tuple[GitRepo, SyncAnalysis]:
    """Read the repository and analyse the sync it names (read-only)."""
    repo = GitRepo.open(request.repo)
    snapshot = load_sync(repo, request.rev, request.dev, request.main, request.result)
    options: dict[str, object] = {
        "policy": load_policy(request.policy, lambda: read_policy_config(repo, snapshot)),
        "repo_files": RepoFiles(repo, snapshot),
    }
    return repo, analyze(snapshot, repo.read_blob, repo.commit_info, repo.line_changes, options)
