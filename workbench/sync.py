"""The one call front ends make: open a repository and analyse its sync."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from workbench.analysis.engine import analyze, outline
from workbench.analysis.model import SyncAnalysis
from workbench.analysis.policy import load_policy
from workbench.git.repo import GitRepo
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
    paths: tuple[str, ...] | None = None
    """Only these repository paths (None: every conflicted path): the engine analyses the
    conflicts among them, and stages that look across the tree look at nothing else."""


@dataclass(frozen=True)
class LoadProgress:
    """How far loading got, for a front end that shows the sync while it loads.

    ``phase`` is "outline" (``analysis`` holds the paths and kinds, nothing
    else yet), "files" (hunks and history, ``done`` of ``total`` files), or
    the name of an enrichment stage (policy, audit, deleted files, risk).
    """

    phase: str
    done: int
    total: int
    analysis: SyncAnalysis | None = None


def open_sync(
    request: SyncRequest, progress: Callable[[LoadProgress], None] | None = None
) -> tuple[GitRepo, SyncAnalysis]:
    """Read the repository and analyse the sync it names (read-only)."""
    repo = GitRepo.open(request.repo)
    snapshot = load_sync(repo, request.rev, request.dev, request.main, request.result, request.paths)
    options: dict[str, object] = {
        "policy": load_policy(request.policy, lambda: read_policy_config(repo, snapshot)),
        "repo_files": RepoFiles(repo, snapshot),
    }
    if progress is None:
        return repo, analyze(snapshot, repo.read_blob, repo.commit_info, repo.line_changes, options)
    first = outline(snapshot, repo.read_blob)
    progress(LoadProgress("outline", 0, len(first.files), first))
    analysis = analyze(
        snapshot,
        repo.read_blob,
        repo.commit_info,
        repo.line_changes,
        options,
        progress=lambda phase, done, total: progress(LoadProgress(phase, done, total)),
    )
    return repo, analysis
