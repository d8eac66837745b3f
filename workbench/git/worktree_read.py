"""Reading work-tree files the way ``git add`` would store them (clean filters applied).

Paths go to git as arguments after ``--``, never as lines on stdin:
``--stdin-paths`` C-unquotes a name that starts with ``"`` (``"quoted".txt``
becomes the file ``quoted``), drops a trailing ``\\r`` and cannot carry a
newline.  The cleaned blobs go to the object quarantine alone (see
quarantine.py), so ``.git`` is neither written nor freshened.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence

from workbench.git.repo import GitRepo
from workbench.git.runner import NO_HOOKS, StartedGit, run_git
from workbench.git.worktree import LITERAL, path_batches, store_blob, worktree_path


def disk_oid(repo: GitRepo, path: str) -> str | None:
    """The blob id ``git add`` would record for ``path`` now (None: nothing there).

    Clean filters apply (``core.autocrlf``, ``eol``/``text`` attributes, LFS),
    so the id compares with the index and the commits, not with raw bytes.
    """
    full = worktree_path(repo, path)
    if os.path.islink(full):
        return repo.hash_bytes(os.fsencode(os.readlink(full)))
    found = clean_contents(repo, [path]).get(path)
    return found[0] if found is not None else None


def clean_contents(repo: GitRepo, paths: Sequence[str]) -> dict[str, tuple[str, bytes]]:
    """What ``git add`` would store for each regular file: (blob id, bytes).

    Paths that are not regular files are left out.
    """
    with PendingContents(repo, paths) as pending:
        return pending.contents()


def stored_oids(repo: GitRepo, path: str, files: Sequence[str | os.PathLike[str]]) -> list[str]:
    """The blob id each file would get stored at ``path`` (its attributes and clean filter; no index is asked,
    nothing is written)."""
    if not files:
        return []
    proc = run_git(repo.run_dir, ["hash-object", f"--path={path}", "--", *(os.fspath(f) for f in files)])
    return proc.stdout.decode("ascii").split()


def stored_forms(repo: GitRepo, path: str, files: Sequence[str | os.PathLike[str]]) -> list[bytes]:
    """Each file's bytes as git would store them at ``path`` (``stored_oids``), through the object quarantine."""
    if not files:
        return []
    proc = run_git(repo.run_dir, ["hash-object", "-w", f"--path={path}", "--", *(os.fspath(f) for f in files)],
                   extra_env=repo.object_sink())
    return [repo.read_blob(oid) for oid in proc.stdout.decode("ascii").split()]


class PendingContents:
    """``clean_contents(repo, paths)``, git adding the files beside this process until ``contents()``.

    The files are added to a private copy of the index (objects to the
    quarantine), not hashed with ``git hash-object``: what ``git add``
    stores depends on the index too (``core.autocrlf`` leaves a file's CRs
    alone when its blob in the index, or dev's during a merge, has some),
    and ``hash-object`` reads no index.  Where git refuses the add, the
    batch is hashed instead.  The first batch of paths (every path, below
    about a thousand) starts at once; the others run in ``contents()``, one
    after another.  Used as a context manager, leaving early stops git.
    """

    def __init__(self, repo: GitRepo, paths: Sequence[str]) -> None:
        self._repo = repo
        self.paths = frozenset(paths)
        """The paths asked about (those that are not regular files are left out of ``contents()``)."""
        self._batches = path_batches([p for p in paths if _is_regular(repo, p)])
        self._env = {**repo.object_quarantine(), **repo.private_index("index-clean")} if self._batches else {}
        self._unmerged: dict[str, dict[int, tuple[str, str, int]]] | None = None
        self._first = self._adding(self._batches[0]) if self._batches else None

    def contents(self) -> dict[str, tuple[str, bytes]]:
        """(blob id, bytes) by path (waits for git)."""
        out: dict[str, tuple[str, bytes]] = {}
        for k, batch in enumerate(self._batches):
            run = self._first if k == 0 and self._first is not None else self._adding(batch)
            with run:
                added = run.wait(check=False).returncode == 0
            oids = self._staged(batch) if added else self._hashed(batch)
            for path in batch:
                out[path] = self._merged_crs_kept(path, oids[path])
        return out

    def _merged_crs_kept(self, path: str, oid: str) -> tuple[str, bytes]:
        """(blob id, bytes) of ``path``: as ``git add`` stored it, unless that only dropped CRs git's merge wrote.

        During a merge ``core.autocrlf`` keeps a file's CRs only when dev's
        blob has some; main's CRLF lines in git's conflict text then lose
        their CRs, though ``git merge`` stored them as they are (it never
        runs the clean filter on blobs).  For a file the index has unmerged,
        the file as it is on disk is what git stored when checking it out
        changed nothing: when its line ends are mixed (converting them would
        have made them all alike), or when a blob of the conflict has CRs.
        """
        data = self._repo.read_blob(oid)
        try:
            raw = worktree_path(self._repo, path).read_bytes()
        except OSError:
            return oid, data
        if raw == data or b"\r" not in raw or raw.replace(b"\r\n", b"\n") != data:
            return oid, data
        blobs = self._stage_blobs(path)  # none: not git's conflict text, but a file someone changed
        mixed = raw.count(b"\n") != raw.count(b"\r\n")
        if not blobs or not (mixed or any(b"\r" in self._repo.read_blob(blob) for blob in blobs)):
            return oid, data
        return store_blob(self._repo, raw, self._repo.object_sink()), raw

    def _stage_blobs(self, path: str) -> list[str]:
        if self._unmerged is None:
            self._unmerged = self._repo.index_unmerged()
        return [oid for _, oid, _ in self._unmerged.get(path, {}).values()]

    def _adding(self, batch: list[str]) -> StartedGit:
        args = ["-c", "core.safecrlf=false", *NO_HOOKS, LITERAL, "add", "--sparse", "--", *batch]
        # git freshens the repository's objects it would write and has: their times are put back
        return StartedGit(self._repo.run_dir, args, self._env, around=self._repo.object_times_kept())

    def _staged(self, batch: list[str]) -> dict[str, str]:
        listing = run_git(self._repo.run_dir, [LITERAL, "ls-files", "-s", "-z", "--", *batch], extra_env=self._env)
        found = {path: oid for _, oid, stage, path in index_records(listing.stdout) if stage == 0}
        return found if set(batch) <= found.keys() else self._hashed(batch)

    def _hashed(self, batch: list[str]) -> dict[str, str]:
        proc = run_git(self._repo.run_dir, ["hash-object", "-w", "--", *batch], extra_env=self._repo.object_sink())
        return dict(zip(batch, proc.stdout.decode("ascii").split(), strict=True))

    def __enter__(self) -> PendingContents:
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._first is not None:
            self._first.cancel()


def index_records(listing: bytes) -> Iterator[tuple[int, str, int, str]]:
    """(mode, blob id, stage, path) of each entry of an ``ls-files -s -z`` listing."""
    for record in listing.split(b"\0"):
        head, _, raw = record.partition(b"\t")
        fields = head.split()
        if len(fields) == 3:
            yield int(fields[0], 8), fields[1].decode("ascii"), int(fields[2]), raw.decode("utf-8", "surrogateescape")


def _is_regular(repo: GitRepo, path: str) -> bool:
    """A regular file in the work tree (not a symlink to one): what ``git add`` reads through the clean filter."""
    full = worktree_path(repo, path)
    return full.is_file() and not full.is_symlink()
