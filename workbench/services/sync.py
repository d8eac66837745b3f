"""The one call front ends make: open a repository and analyse its sync.

Heavy modules (the engine, the stages, pygit2) are imported only when they
are needed: a cached document costs a few small git commands and one read.
"""

from __future__ import annotations

import gc
import hashlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from workbench.analysis.policy.presets import PRESETS
from workbench.cache import DiskCache, cache_key, default_cache_dir
from workbench.configfile import read_config
from workbench.git.identity import SyncIdentity, identify_sync
from workbench.git.runner import git_variables, git_version
from workbench.resolve.journal_files import keeps_journals

if TYPE_CHECKING:
    from workbench.analysis.memo import UnitMemo
    from workbench.analysis.model import SyncAnalysis
    from workbench.git.repo import GitRepo
    from workbench.git.types import SyncSnapshot

_YOUNG_THRESHOLD = 50_000
"""Allocations between young collections while an analysis is computed (Python's default: 700)."""
_threshold_lock = threading.Lock()
_computing = 0
_saved_threshold = gc.get_threshold()
CACHE_SUBDIR = "analyses"
"""Where under the user's cache directory analyses are kept."""
MEMO_SUBDIR = "units"
"""Where the analysis' unit memo lives (``cache/memo.py``), beside the analyses, under its own size bound."""


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


@dataclass(frozen=True)
class Lookup:
    """What the cache knows of a request, asked of the git binary once (``look_up``)."""

    request: SyncRequest
    identity: SyncIdentity | None
    """The sync's identity when it was looked up (None: never cached)."""
    cached: bool
    """Whether an analysis was stored under its key then (``open_sync`` still checks the commits through pygit2)."""


def look_up(request: SyncRequest) -> Lookup:
    """Whether the analysis ``request`` names is in the persistent cache, and the identity that says so.

    A hint for the front end choosing how to load (a cached analysis is read
    at once, no second process pays); handing the lookup to ``open_sync``
    moments later spares it reading the identity again (a merge in
    progress's takes a tenth of a second of an app's start).  Nothing is
    loaded.  The analysis served is the state's at lookup: hand it on only
    at once, never after a wait.
    """
    identity = _identity(request)
    inputs = _inputs(identity, request) if identity is not None else None
    cached = inputs is not None and _cache().holds(cache_key("analysis", inputs))
    return Lookup(request, identity, cached)


Later = list[Callable[[], None]]
"""Steps put off until an answer has been handed on: storing a computed analysis in the cache (pickling it
and reading the sync's identity again), which an analysis process does
after sending its answer to the app (``sync_process.py``)."""


def open_sync(
    request: SyncRequest, progress: Callable[[LoadProgress], None] | None = None, lookup: Lookup | None = None,
    later: Later | None = None,
) -> tuple[GitRepo, SyncAnalysis]:
    """Read the repository and analyse the sync it names (read-only).

    The sync is looked up in the persistent cache first and stored there
    after (a merge in progress keyed by the state of its index and work
    tree, see git/work_state.py).  A cached analysis arrives whole:
    ``progress`` hears nothing.  ``lookup``: the identity read moments ago
    by ``look_up(request)``, used instead of reading it again (an analysis
    is stored only if the identity read after it is still the same).
    ``later``: where the storing goes instead of being done before returning.
    """
    from workbench.git.repo import GitRepo

    if lookup is not None and lookup.request != request:
        raise ValueError("the lookup was made for another request")
    repo = GitRepo.open(request.repo)
    identity = lookup.identity if lookup is not None else _identity(request)
    return repo, _analysis(repo, request, identity, _verified_inputs(repo, request, identity), progress, later)


def sync_document(
    request: SyncRequest,
    kind: str,
    make: Callable[[GitRepo, SyncAnalysis], list[str]],
    *,
    options: dict[str, object] | None = None,
    reads_outside_commits: tuple[str, ...] = (),
) -> list[str]:
    """``make(repo, analysis)`` for the sync ``request`` names, cached as text under ``kind`` and ``options``.

    The text comes in pieces (a large document is never joined: its pieces
    are written out one after the other, to the cache and to stdout).

    What ``analyze --json`` and ``report`` print: a warm run reads the text
    back without opening the repository with pygit2 or loading the analysis
    (importing them alone takes longer than git's own merge).  Only while
    the repository keeps no journal of the app (whose decisions ``make`` may
    read).  ``reads_outside_commits``: work-tree files (relative to its top)
    that ``make`` reads when the result is not a commit (a preview's
    acknowledgements, a merge in progress's): their content is part of the
    key then, untracked as they may be.
    """
    identity = _identity(request)
    inputs = _inputs(identity, request) if identity is not None else None
    key = None
    read = _files_read(identity, reads_outside_commits)
    if identity is not None and inputs is not None and not keeps_journals(identity.gitdir):
        key = cache_key(kind, {**inputs, "document": options or {}, **({"files": read} if read else {})})
    cache = _cache()
    if key is not None and (found := cache.get(key)) is not None:
        try:
            return [bytes(found).decode("utf-8", "surrogatepass")]
        except UnicodeDecodeError:
            pass  # damaged beyond the checksum's reach: computed again
    from workbench.git.repo import GitRepo

    repo = GitRepo.open(request.repo)
    verified = _verified_inputs(repo, request, identity)
    pieces = make(repo, _analysis(repo, request, identity, verified, None))
    if (key is not None and verified is not None and _files_read(identity, reads_outside_commits) == read
            and _unchanged(request, identity, verified)):
        cache.put_with(key, partial(_write_encoded, pieces))
    return pieces


@dataclass(frozen=True)
class CacheSlot:
    """Where a document about the sync a request names is kept: the identity and key inputs read before it is
    made (``cache_slot``), and what must still hold when it is stored (``slot_holds``)."""

    request: SyncRequest
    identity: SyncIdentity
    inputs: dict[str, object]


def cache_slot(request: SyncRequest) -> CacheSlot | None:
    """The request's slot in the cache, read with the git binary only (None: the cache is off or cannot tell the
    sync surely)."""
    identity = _identity(request)
    inputs = _inputs(identity, request) if identity is not None else None
    return CacheSlot(request, identity, inputs) if identity is not None and inputs is not None else None


def slot_key(slot: CacheSlot, kind: str, extra: dict[str, object]) -> str:
    """The key of the document ``kind`` in ``slot``, with what it reads besides the analysis' inputs."""
    return cache_key(kind, {**slot.inputs, "document": extra})


def slot_holds(slot: CacheSlot, repo: GitRepo) -> bool:
    """Whether a document made since ``slot`` was read may be stored under its key: the opened repository
    reads the request as git did, and the identity and inputs read again are the same (and settled)."""
    return (_verified_inputs(repo, slot.request, slot.identity) == slot.inputs
            and _unchanged(slot.request, slot.identity, slot.inputs))


def document_cache() -> DiskCache:
    """The cache the analyses and the documents made from them share."""
    return _cache()


def _write_encoded(pieces: list[str], out: BinaryIO) -> None:
    for piece in pieces:
        out.write(piece.encode("utf-8", "surrogatepass"))


def _files_read(identity: SyncIdentity | None, paths: tuple[str, ...]) -> dict[str, str | None]:
    """SHA-256 of each work-tree file of ``paths`` (None: absent), when the result is not a commit."""
    if identity is None or identity.result is not None or not paths:
        return {}
    found: dict[str, str | None] = {}
    for path in paths:
        try:
            found[path] = hashlib.sha256(Path(identity.repo, path).read_bytes()).hexdigest()
        except FileNotFoundError:
            found[path] = None
        except OSError:
            found[path] = "unreadable"  # reading it in ``make`` fails with a clear error; nothing is stored
    return found


def _cache() -> DiskCache:
    return DiskCache(default_cache_dir() / CACHE_SUBDIR)


def _memo_cache() -> DiskCache:
    """The unit memo's cache: half the analyses' bound (a memo holds about one analysis per sync)."""
    analyses = _cache()
    return DiskCache(analyses.root.parent / MEMO_SUBDIR, analyses.max_bytes // 2)


def _analysis(
    repo: GitRepo,
    request: SyncRequest,
    identity: SyncIdentity | None,
    inputs: dict[str, object] | None,
    progress: Callable[[LoadProgress], None] | None,
    later: Later | None = None,
) -> SyncAnalysis:
    """The analysis from the cache when ``inputs`` (its key's inputs) has one, else computed and stored
    (now, or by the caller when it gives ``later``)."""
    if inputs is None:
        return _compute(repo, request, progress)[0]
    from workbench.cache.analyses import load_analysis, save_analysis

    cache, key = _cache(), cache_key("analysis", inputs)
    cached = load_analysis(cache, key)
    if cached is not None:
        return cached
    analysis, memo = _compute(repo, request, progress, inputs)

    def store() -> None:
        if memo is not None:  # the units are keyed by what they read, whatever the state is now
            from workbench.cache.memo import save_memo

            save_memo(_memo_cache(), memo)
        if _unchanged(request, identity, inputs):
            save_analysis(cache, key, analysis)

    if later is None:
        store()
    else:
        later.append(store)
    return analysis


def _unchanged(request: SyncRequest, identity: SyncIdentity | None, inputs: dict[str, object] | None) -> bool:
    """Whether an analysis computed since ``identity`` and ``inputs`` were read may be stored under their key.

    Both are read again and must be the same: a policy file, a setting or
    (during a merge) the index or a file changed while the analysis ran
    would be stored under the key of what was there before.  A merge in
    progress must also have been settled (no file too recent for its
    ``lstat`` to tell its bytes).
    """
    if identity is None or inputs is None:
        return False
    if identity.work is not None and not identity.work.settled:
        return False
    again = _identity(request)
    return again == identity and again is not None and _inputs(again, request) == inputs


def _compute(
    repo: GitRepo, request: SyncRequest, progress: Callable[[LoadProgress], None] | None,
    inputs: dict[str, object] | None = None,
) -> tuple[SyncAnalysis, UnitMemo | None]:
    """The analysis computed, and the unit memo it used (None: none): with ``inputs`` (the cache's key for it) of a
    work-tree result, its units are reused from the memo of the same scope, which holds the new ones to store."""
    from workbench.git.snapshot import start_sync

    with _rare_collections(), start_sync(
        repo, request.rev, request.dev, request.main, request.result, request.paths
    ) as started:
        with _interrupts_held():  # the analysis is imported while git merges
            from workbench.analysis.engine import analyze, outline
            from workbench.analysis.policy.rules import load_policy
            from workbench.git.repo_files import RepoFiles, read_policy_config

        def outlined(first: SyncSnapshot) -> None:
            if progress is not None:  # the file list, before the histories and scripts are read
                shown = outline(first, repo.read_blob)
                progress(LoadProgress("outline", 0, len(shown.files), shown))

        snapshot = started.snapshot(outlined)
        policy = load_policy(request.policy, lambda: read_policy_config(repo, snapshot))
        files = RepoFiles(repo, snapshot)

        def staged(phase: str, done: int, total: int) -> None:
            if progress is not None:
                progress(LoadProgress(phase, done, total))

        reuse = (_unit_memo(snapshot, policy, inputs, request.paths is not None)
                 if inputs is not None and inputs.get("work") is not None else None)
        return analyze(snapshot, repo.read_blob, repo.commit_info, repo.line_changes, policy=policy, repo_files=files,
                       progress=staged if progress is not None else None, memo=reuse), reuse


def _unit_memo(snapshot: SyncSnapshot, policy: object, inputs: dict[str, object], some_paths: bool) -> UnitMemo:
    """The unit memo of the analysis' scope from the cache: the key's inputs but the work tree's state
    (a unit's fingerprint holds its own file's result), with the snapshot but the results read.

    Only an analysis whose result is the work tree has one: there a decision
    changes one file under the same scope, and the next analysis reuses the
    rest.  A commit's analysis is kept whole (``save_analysis``); storing its
    units too would only slow its first run, since a scope holds the whole
    snapshot and another sync never shares it.

    An analysis of some paths keeps the work tree's state in its scope: its
    snapshot holds the work tree's changes to those paths only, and the
    audit reads the modules they import wherever they are.
    """
    from workbench.analysis.memo import scope_of
    from workbench.cache.memo import memo_of

    kept = inputs if some_paths else {k: v for k, v in inputs.items() if k != "work"}
    return memo_of(_memo_cache(), scope_of(snapshot, policy, kept))


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C until the block ends (in the main thread; elsewhere it never lands in it anyway).

    Imports build dataclass methods with ``exec`` of a string, and a
    KeyboardInterrupt raised inside such an ``exec`` makes CPython end the
    process by SIGINT even after ``main`` has returned 130 and cleaned up.
    Held, the signal is delivered when the imports are done, a moment later.
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


@contextmanager
def _rare_collections() -> Iterator[None]:
    """Run the cyclic garbage collector rarely while an analysis is computed.

    The analysis allocates millions of small objects that hold no cycles
    (lines, tuples, frozen records), and at the default threshold (a young
    collection every 700 allocations) the collector scans them again and
    again for nothing: a noticeable share of the CPU time on a real sync.
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


def _identity(request: SyncRequest) -> SyncIdentity | None:
    """The sync's identity from the git binary when the cache is in use (None: it cannot be told surely)."""
    if not request.cache:
        return None
    return identify_sync(request.repo, request.rev, request.dev, request.main, request.result)


def _verified_inputs(repo: GitRepo, request: SyncRequest, identity: SyncIdentity | None) -> dict[str, object] | None:
    """The key's inputs for ``identity``, when the opened repository reads the request exactly as git did.

    The analysis is computed from what pygit2 reads; an identity git reads
    otherwise (a revision libgit2 resolves elsewhere, replace refs libgit2
    does not follow) is never cached, so a warm run never serves another sync.
    """
    if identity is None:
        return None
    from workbench.git.snapshot import locate_sync

    mode, dev, main, merge = locate_sync(repo, request.rev, request.dev, request.main)
    result = repo.resolve(request.result) if request.result is not None else merge
    seen = (mode, dev, main, merge, result, str(repo.workdir or repo.gitdir), repo.gitdir)
    if seen != (identity.mode, identity.dev, identity.main, identity.merge, identity.result, identity.repo,
                identity.gitdir):
        return None
    return _inputs(identity, request)


def _inputs(identity: SyncIdentity, request: SyncRequest) -> dict[str, object] | None:
    """What the analysis ``request`` names is a function of, or None when it must not be cached.

    Everything the analysis reads is in it: the commits (content-addressed),
    where the repository is (the analysis names it), the paths asked about,
    the policy (a policy file by its bytes), git's version and the settings
    outside any commit that change git's merge (``cache_key`` adds the
    tool's version and source).  A merge in progress reads the work tree
    and the index, which change under the same commit ids: the digest of
    their state is in it.  An unreadable policy file gets None (loading the
    policy reports it).
    """
    policy: dict[str, str | None] = {"spec": request.policy, "bytes": None}
    if request.policy is not None and request.policy not in PRESETS:
        try:
            # Bounded and regular files only (a FIFO or /dev/zero is refused here as when loading it).
            policy["bytes"] = hashlib.sha256(read_config(request.policy, "policy file")).hexdigest()
        except OSError:
            return None
    return {
        "mode": identity.mode,
        "dev": identity.dev,
        "main": identity.main,
        "merge": identity.merge,
        "result": identity.result,
        "repo": identity.repo,
        "paths": sorted(request.paths) if request.paths is not None else None,
        "policy": policy,
        "git": list(git_version()),
        "settings": identity.settings,
        "work": identity.work.digest if identity.work is not None else None,
        "environment": git_variables(),
    }
