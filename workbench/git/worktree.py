"""Work-tree and index writes, done the way git does them.

Staging goes through ``git add`` / ``git rm --cached`` (with literal
pathspecs), so filters, index locking and the resolution of conflict stages
are git's own.  Nothing here ever resets, checks out or cleans.
"""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Mapping
from pathlib import Path

from workbench.errors import WorkbenchError
from workbench.git.repo import GitRepo
from workbench.git.runner import run_git
from workbench.git.types import FileMode

LITERAL = "--literal-pathspecs"
"""Paths given to git as they are (no glob or magic read into them)."""
_INDEX = threading.Lock()
"""Held while git locks the index for this process (``git add``, even ``--dry-run``, takes .git/index.lock):
two of the app's threads asking at once made one fail as if another program held the lock."""


def worktree_path(repo: GitRepo, path: str) -> Path:
    """The absolute work-tree path for ``path``, refusing anything that escapes it.

    A path whose parent directories lead out of the work tree through a
    symlink (or with ``..``) is refused: nothing is ever written outside.
    """
    root = repo.workdir
    if root is None:
        raise WorkbenchError("a bare repository has no work tree to write to")
    root = root.resolve()
    candidate = root / path
    parent = candidate.parent.resolve()
    if parent != root and root not in parent.parents:
        raise WorkbenchError(f"refusing to write outside the work tree: {path}")
    return parent / candidate.name


def worktree_mode(repo: GitRepo, path: str, st_mode: int) -> FileMode:
    """The mode ``git add`` records for the regular file at ``path``, whose stat gives ``st_mode``.

    The owner's executable bit, as git reads it (``os.access`` says yes to
    root for a file anyone may run).  Under ``core.fileMode=false`` git
    ignores the bit on disk (a file system that sets it on every file) and
    keeps the index's mode: stage 0, or for a conflicted path dev's stage,
    then base's, then main's.
    """
    if repo.config_value("core.filemode") is None or repo.config_flag("core.filemode"):
        return FileMode.EXECUTABLE if st_mode & stat.S_IXUSR else FileMode.REGULAR
    entry = repo.index_entry(path)
    if entry is None:
        stages = repo.index_unmerged().get(path, {})
        found = next((stages[n] for n in (2, 1, 3) if n in stages), None)
        entry = (found[1], found[2]) if found is not None else None
    return FileMode.EXECUTABLE if entry is not None and entry[1] == FileMode.EXECUTABLE else FileMode.REGULAR


def checkout_form(repo: GitRepo, path: str, data: bytes) -> bytes:
    """``data`` (a blob's content) as ``git checkout`` would write it at ``path`` (smudge).

    The blob is stored where git cannot see the repository's objects (so it
    never freshens one of them that has the same bytes) and read back with them.
    """
    blob = store_blob(repo, data, repo.object_sink())
    return run_git(repo.run_dir, ["cat-file", "--filters", f"--path={path}", blob],
                   extra_env=repo.object_quarantine()).stdout


def store_blob(repo: GitRepo, data: bytes, env: Mapping[str, str] | None = None) -> str:
    """Write ``data`` as a blob, no filter applied, where ``env`` points git (the repository without it)."""
    proc = run_git(repo.run_dir, ["hash-object", "-w", "--no-filters", "--stdin"], input_bytes=data, extra_env=env)
    return proc.stdout.decode("ascii").strip()


def stage_path(repo: GitRepo, path: str, expected: tuple[int, bytes] | None = None) -> None:
    """``git add`` the path (resolves its conflict stages, like a person would).

    ``expected`` is (mode, bytes) the index must then hold.  ``git add``
    stores the file through its clean filters, and their round trip need
    not give back what was checked out (``core.autocrlf`` leaves CRs alone
    in a file whose blob in the index has some, so a blob without them
    comes back with them): then the expected blob goes into the index, as
    ``git merge`` puts its merged blob there.
    """
    with _INDEX:
        proc = run_git(repo.run_dir, [LITERAL, "add", "--", path], check=False)
        if proc.returncode != 0:
            raise WorkbenchError(f"git add failed: {_add_failure(proc.stderr)}")
        if expected is None:
            return
        mode, data = expected
        oid = repo.hash_bytes(data)
        if repo.index_entry(path) != (oid, mode):
            run_git(repo.run_dir, ["update-index", "--cacheinfo", f"{mode:o},{store_blob(repo, data)},{path}"])


def stage_problem(repo: GitRepo, path: str) -> str | None:
    """Why ``git add`` of ``path`` would fail now (``--dry-run``: nothing changes), or None."""
    if not os.path.lexists(worktree_path(repo, path)):
        return None
    with _INDEX:
        proc = run_git(repo.run_dir, [LITERAL, "add", "--dry-run", "--", path], check=False)
    return _add_failure(proc.stderr) if proc.returncode != 0 else None


def _add_failure(stderr: bytes) -> str:
    """git's refusal in a few words: the lock and the sparse-checkout cone are named, else git's own line."""
    text = stderr.decode("utf-8", "replace")
    if "index.lock" in text and "File exists" in text:
        return "another git process holds the index lock (.git/index.lock)"
    if "sparse-checkout" in text:
        return "the path is outside the sparse-checkout cone (git add --sparse stages it)"
    lines = [line for line in text.strip().splitlines() if line.strip() and not line.startswith("hint:")]
    return lines[0].removeprefix("fatal: ").removeprefix("error: ") if lines else "git add failed"


def unstage_deleted(repo: GitRepo, path: str) -> None:
    """Record the path's deletion in the index (``git rm --cached``)."""
    with _INDEX:
        run_git(repo.run_dir, [LITERAL, "rm", "--cached", "--ignore-unmatch", "-q", "--", path])


def stage_gitlink(repo: GitRepo, path: str, oid: str) -> None:
    """Point a submodule entry at a commit without touching its checkout."""
    with _INDEX:
        run_git(repo.run_dir, ["update-index", "--add", "--cacheinfo", f"{FileMode.GITLINK:o},{oid},{path}"])


def marker_size(repo: GitRepo, path: str) -> int:
    """The ``conflict-marker-size`` attribute git applies to ``path`` (7 when unset or not a number)."""
    proc = run_git(repo.run_dir, ["check-attr", "-z", "conflict-marker-size", "--", path], check=False)
    fields = proc.stdout.split(b"\0")
    value = fields[2] if proc.returncode == 0 and len(fields) > 2 else b""
    return int(value) if value.isdigit() and 0 < int(value) < 1024 else 7

