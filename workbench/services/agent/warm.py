"""Warm answers of the agent's read-only commands: ``queue`` and ``show`` printed from the cache.

What they print is a function of the sync's analysis (its key's inputs, ``services/sync.py``), the app's
journals (the decisions made), the decision record in the work tree, HEAD (which record is read), the
command's options, and the work-tree files outside the analysis that a recorded claim's check read (``moved``
evidence).  The first five are the key; the files read are stored with the output and read again before it
is served.  A commit a recorded claim cites is resolved for good only when given in full and found: any other
citation (a short id, a ref, an id the repository lacks) may resolve otherwise tomorrow, so an output that
resolved one is not stored.  A warm answer costs the identity's git commands and a few reads, never pygit2
or the analysis model's imports.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.git.types import ACKS_PATH
from workbench.resolve.journal_files import JOURNAL_DIR, JOURNAL_SUFFIX
from workbench.services.sync import CacheSlot, SyncRequest, cache_slot, document_cache, slot_holds, slot_key

if TYPE_CHECKING:
    from workbench.git.repo import GitRepo

_KIND = "agent-output"


@dataclass
class Reads:
    """What making an output read beyond its key: work-tree files (their SHA-256, None: absent), and whether it
    resolved something that may resolve otherwise later (``volatile``: the output is not stored)."""

    files: dict[str, str | None] = field(default_factory=dict)
    volatile: bool = False

    def file(self, path: str, data: bytes | None) -> None:
        found = _digest(data)
        if self.files.setdefault(path, found) != found:
            self.volatile = True  # read twice, changed between: nothing about it can be stored


Make = Callable[[Reads], "tuple[str, GitRepo]"]
"""Makes the output (the slow way), recording its reads; returns it with the repository it opened."""


def warm_output(request: SyncRequest, command: str, options: dict[str, object], make: Make) -> str:
    """The output of ``command`` with ``options`` on the sync ``request`` names: from the cache when stored
    under everything it reads, else made by ``make`` and stored when nothing changed meanwhile."""
    slot = cache_slot(request)
    around = _around(slot) if slot is not None and _fixed(slot) else None
    if slot is None or around is None:
        return make(Reads())[0]
    cache = document_cache()
    key = slot_key(slot, _KIND, {"command": command, "options": options, **around})
    found = cache.get(key)
    if found is not None:
        served = _served(slot, bytes(found))
        if served is not None:
            return served
    reads = Reads()
    out, repo = make(reads)
    if not reads.volatile and slot_holds(slot, repo) and _around(slot) == around and _current(slot, reads.files):
        payload = json.dumps({"files": reads.files, "output": out}, ensure_ascii=False)
        cache.put(key, payload.encode("utf-8", "surrogatepass"))
    return out


def worktree_bytes(top: Path, path: str) -> bytes | None:
    """The regular file at ``path`` in the work tree ``top`` (None: absent, a symlink, unreadable, or a path that
    leads out of the work tree)."""
    try:
        root = top.resolve()
        candidate = root / path
        parent = candidate.parent.resolve()
        if parent != root and root not in parent.parents:
            return None
        target = parent / candidate.name
        return target.read_bytes() if target.is_file() and not target.is_symlink() else None
    except (OSError, ValueError):
        return None


def _fixed(slot: CacheSlot) -> bool:
    """Whether the request names its sync as the slot does: a merge in progress, or a revision given (the
    agent's commands otherwise look for the sync merge from HEAD with pygit2, ``context.located``)."""
    given = slot.request
    return slot.identity.mode == "in-progress" or any(v is not None for v in (given.rev, given.dev, given.main))


def _around(slot: CacheSlot) -> dict[str, object] | None:
    """What the output reads besides the analysis and its options: the journals, the record, HEAD (None: it
    cannot be told)."""
    identity = slot.identity
    head = None
    if identity.mode != "in-progress":  # HEAD at the result: the record is the work tree's (``record_of``)
        from workbench.errors import WorkbenchError
        from workbench.git.runner import run_git

        try:
            proc = run_git(identity.repo, ["rev-parse", "-q", "--verify", "HEAD"], ok_codes=(0, 1))
        except WorkbenchError:
            return None
        head = proc.stdout.decode("ascii", "replace").strip() or None
    return {"journals": _journals(identity.gitdir), "record": _digest(worktree_bytes(Path(identity.repo), ACKS_PATH)),
            "head": head}


def _journals(gitdir: Path) -> str:
    """SHA-256 over every journal's name and bytes (any decision made, undone or written changes it)."""
    digest = hashlib.sha256()
    folder = gitdir.joinpath(*JOURNAL_DIR)
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(JOURNAL_SUFFIX))
    except OSError:
        names = []
    for name in names:
        try:
            data = folder.joinpath(name).read_bytes()
        except OSError:
            data = b""
        digest.update(f"{name}\0{len(data)}\0".encode("utf-8", "surrogateescape"))
        digest.update(data)
    return digest.hexdigest()


def _served(slot: CacheSlot, payload: bytes) -> str | None:
    """The stored output, when every work-tree file it read still holds what it did (None: make it again)."""
    try:
        stored = json.loads(payload.decode("utf-8", "surrogatepass"))
        files, out = stored["files"], stored["output"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None
    if not isinstance(out, str) or not isinstance(files, dict) or not _current(slot, files):
        return None
    return out


def _current(slot: CacheSlot, files: dict[str, str | None]) -> bool:
    top = Path(slot.identity.repo)
    return all(_digest(worktree_bytes(top, path)) == digest for path, digest in files.items())


def _digest(data: bytes | None) -> str | None:
    return hashlib.sha256(data).hexdigest() if data is not None else None
