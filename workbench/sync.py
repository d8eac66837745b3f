"""The one call front ends make: open a repository and analyse its sync.

Heavy modules (the engine, the stages) are imported only when an analysis is
computed: a cached one costs little more than opening the repository.
"""

from __future__ import annotations

import gc
import hashlib
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from workbench.analysis.policy.presets import PRESETS
from workbench.cache import DiskCache, cache_key, default_cache_dir
from workbench.configfile import read_config
from workbench.git.repo import GitRepo
from workbench.git.runner import git_version
from workbench.git.snapshot import locate_sync

if TYPE_CHECKING:
    from workbench.analysis.model import SyncAnalysis

_YOUNG_THRESHOLD = 50_000
"""Allocations between young collections while an analysis is computed (Python's default: 700)."""
_threshold_lock = threading.Lock()
_computing = 0
_saved_threshold = gc.get_threshold()
CACHE_SUBDIR = "analyses"
"""Where under the user's cache directory analyses are kept."""


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
    cache: bool = True
    """Read and write the persistent cache (``--no-cache``: neither)."""


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
    """Read the repository and analyse the sync it names (read-only).

    A sync between fixed commits (a merge commit, a preview) is looked up in
    the persistent cache first and stored there after; a merge in progress
    (its result is the work tree) is always computed.  A cached analysis
    arrives whole: ``progress`` hears nothing.
    """
    repo = GitRepo.open(request.repo)
    inputs = _cache_inputs(repo, request) if request.cache else None
    return repo, _analysis(repo, request, inputs, progress)


def analysis_json(request: SyncRequest) -> str:
    """The sync's ``workbench.analysis/1`` document as compact JSON text, cached as text.

    What ``analyze --json`` prints: a warm run reads it back without loading
    the analysis at all.
    """
    repo = GitRepo.open(request.repo)
    inputs = _cache_inputs(repo, request) if request.cache else None
    if inputs is None:
        return _to_json(_analysis(repo, request, None, None))
    cache, key = _cache(), cache_key("analysis-json", inputs)
    found = cache.get(key)
    if found is not None and (cached := bytes(found)).isascii():
        return cached.decode("ascii")
    text = _to_json(_analysis(repo, request, inputs, None))
    cache.put(key, text.encode("ascii"))
    return text


def _to_json(analysis: SyncAnalysis) -> str:
    import json

    from workbench.analysis.serialize import analysis_to_json

    return json.dumps(analysis_to_json(analysis))


def _cache() -> DiskCache:
    return DiskCache(default_cache_dir() / CACHE_SUBDIR)


def _analysis(
    repo: GitRepo,
    request: SyncRequest,
    inputs: dict[str, object] | None,
    progress: Callable[[LoadProgress], None] | None,
) -> SyncAnalysis:
    """The analysis from the cache when ``inputs`` (its key's inputs) has one, else computed (and stored)."""
    if inputs is None:
        return _compute(repo, request, progress)
    from workbench.cache.analyses import load_analysis, save_analysis

    cache, key = _cache(), cache_key("analysis", inputs)
    cached = load_analysis(cache, key)
    if cached is not None:
        return cached
    analysis = _compute(repo, request, progress)
    save_analysis(cache, key, analysis)
    return analysis


def _compute(
    repo: GitRepo, request: SyncRequest, progress: Callable[[LoadProgress], None] | None
) -> SyncAnalysis:
    from workbench.analysis.engine import analyze, outline
    from workbench.analysis.policy import load_policy
    from workbench.git.repo_files import RepoFiles, read_policy_config
    from workbench.git.snapshot import load_sync

    with _rare_collections():
        snapshot = load_sync(repo, request.rev, request.dev, request.main, request.result, request.paths)
        policy = load_policy(request.policy, lambda: read_policy_config(repo, snapshot))
        files = RepoFiles(repo, snapshot)
        if progress is None:
            return analyze(
                snapshot, repo.read_blob, repo.commit_info, repo.line_changes, policy=policy, repo_files=files
            )
        first = outline(snapshot, repo.read_blob)
        progress(LoadProgress("outline", 0, len(first.files), first))
        return analyze(
            snapshot,
            repo.read_blob,
            repo.commit_info,
            repo.line_changes,
            policy=policy,
            repo_files=files,
            progress=lambda phase, done, total: progress(LoadProgress(phase, done, total)),
        )


@contextmanager
def _rare_collections() -> Iterator[None]:
    """Run the cyclic garbage collector rarely while an analysis is computed.

    The analysis allocates millions of small objects that hold no cycles
    (lines, tuples, frozen records), and at the default threshold (a young
    collection every 700 allocations) the collector scans them again and
    again for nothing: about a tenth of the CPU time on Megatron-LM #4291.
    Reference counting still frees everything at once; the threshold is
    restored when the last analysis running (the app may run two threads) ends.
    """
    global _computing, _saved_threshold
    with _threshold_lock:
        if _computing == 0:
            _saved_threshold = gc.get_threshold()
            gc.set_threshold(max(_saved_threshold[0], _YOUNG_THRESHOLD), *_saved_threshold[1:])
        _computing += 1
    try:
        yield
    finally:
        with _threshold_lock:
            _computing -= 1
            if _computing == 0:
                gc.set_threshold(*_saved_threshold)


def _cache_key(repo: GitRepo, request: SyncRequest) -> str | None:
    """The key of ``request``'s cached analysis, or None when it is not cached."""
    inputs = _cache_inputs(repo, request)
    return cache_key("analysis", inputs) if inputs is not None else None


def _cache_inputs(repo: GitRepo, request: SyncRequest) -> dict[str, object] | None:
    """What the analysis ``request`` names is a function of, or None when it must not be cached.

    Everything the analysis reads is in it: the commits (content-addressed),
    where the repository is (the analysis names it), the paths asked about,
    the policy (a policy file by its bytes), git's version and the settings
    outside any commit that change git's merge (``cache_key`` adds the
    tool's version and source).  A merge in progress reads the work tree
    and the index, which change under the same commit ids, so it has none.
    An unreadable policy file gets None (loading the policy reports it);
    other bad input raises the error the uncached path would.
    """
    mode, dev, main, merge = locate_sync(repo, request.rev, request.dev, request.main)
    if mode == "in-progress" or (request.result is not None and mode != "merge-commit"):
        return None
    policy: dict[str, str | None] = {"spec": request.policy, "bytes": None}
    if request.policy is not None and request.policy not in PRESETS:
        try:
            # Bounded and regular files only (a FIFO or /dev/zero is refused here as when loading it).
            policy["bytes"] = hashlib.sha256(read_config(request.policy, "policy file")).hexdigest()
        except OSError:
            return None
    return {
        "mode": mode,
        "dev": dev,
        "main": main,
        "merge": merge,
        "result": repo.resolve(request.result) if request.result is not None else merge,
        "repo": str(repo.workdir or repo.gitdir),
        "paths": sorted(request.paths) if request.paths is not None else None,
        "policy": policy,
        "git": list(git_version()),
        "settings": repo.settings_digest(),
        "environment": sorted((k, v) for k, v in os.environ.items() if k.startswith("GIT_CONFIG")),
    }
