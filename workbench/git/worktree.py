"""Work-tree and index writes, done the way git does them.

Staging goes through ``git add`` / ``git rm --cached`` (with literal
pathspecs), so filters, index locking and the resolution of conflict stages
are git's own.  Nothing here ever resets, checks out or cleans.
"""

from __future__ import annotations

import hashlib
import os
import stat
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pygit2
from pygit2.enums import ObjectType

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


def checkout_form(repo: GitRepo, path: str, data: bytes, filtered: bool = True) -> bytes:
    """``data`` (a blob's content) as ``git checkout`` would write it at ``path`` (smudge).

    ``filtered`` False (``path_attributes``): nothing converts the path's bytes, and ``data`` is
    that form already.  The blob is stored where git cannot see the repository's objects (so it
    never freshens one of them that has the same bytes) and read back with them.
    """
    if not filtered:
        return data
    blob = store_blob(repo, data, repo.object_sink())
    return run_git(repo.run_dir, ["cat-file", "--filters", f"--path={path}", blob],
                   extra_env=repo.object_quarantine()).stdout


def store_blob(repo: GitRepo, data: bytes, env: Mapping[str, str] | None = None) -> str:
    """Write ``data`` as a blob, no filter applied, where ``env`` points git (the repository without it).

    Written in this process: a loose object is the same whoever writes it,
    and a ``git hash-object`` for each was a process per written file.
    """
    directory = (env or {}).get("GIT_OBJECT_DIRECTORY")
    odb = pygit2.Odb(directory) if directory else repo.raw.odb
    return str(odb.write(ObjectType.BLOB, data))


@dataclass(frozen=True, slots=True)
class PathAttributes:
    """What git's attributes (and ``core.autocrlf``) say about writing one path."""

    marker_size: int
    """``conflict-marker-size`` (7 when unset or not a number)."""
    filtered: bool
    """Checking the path out or adding it may change its bytes (line ends, a filter, ``ident``, an encoding)."""


_CONVERTING = ("text", "crlf", "eol", "filter", "ident", "working-tree-encoding")
_NEUTRAL = (b"unspecified", b"unset")


def path_attributes(repo: GitRepo, path: str) -> PathAttributes:
    """The path's marker size and whether its bytes are converted, from one ``git check-attr``."""
    proc = run_git(repo.run_dir, ["check-attr", "-z", "conflict-marker-size", *_CONVERTING, "--", path], check=False)
    if proc.returncode != 0:
        return PathAttributes(7, True)
    fields = proc.stdout.split(b"\0")
    values = {fields[k + 1].decode("ascii", "replace"): fields[k + 2] for k in range(0, len(fields) - 2, 3)}
    size = values.get("conflict-marker-size", b"")
    marker = int(size) if size.isdigit() and 0 < int(size) < 1024 else 7
    return PathAttributes(marker, _converted(repo, values))


def _converted(repo: GitRepo, values: Mapping[str, bytes]) -> bool:
    """Whether git converts the path's bytes between the blob and the work tree."""
    if any(values.get(name, b"unspecified") not in _NEUTRAL for name in ("filter", "working-tree-encoding")):
        return True
    if values.get("ident") == b"set":
        return True
    text, crlf, eol = (values.get(name, b"unspecified") for name in ("text", "crlf", "eol"))
    if text == b"unset" or crlf == b"unset":
        return False  # binary: no line-end conversion
    if text != b"unspecified" or crlf != b"unspecified" or eol != b"unspecified":
        return True
    autocrlf = (repo.config_value("core.autocrlf") or "false").lower()
    return autocrlf not in ("false", "no", "off", "0", "")


def raw_blob_id(repo: GitRepo, path: str) -> str | None:
    """The blob id of what is at ``path`` as it is (no filter): a file's bytes, a symlink's target; None otherwise."""
    full = worktree_path(repo, path)
    if os.path.islink(full):
        return repo.hash_bytes(os.fsencode(os.readlink(full)))
    try:
        return repo.hash_bytes(full.read_bytes()) if full.is_file() else None
    except OSError:
        return None


Seen = tuple[str, ...] | None
"""What a path of the work tree holds, cheap to compare (``seen``)."""


def seen(repo: GitRepo, path: str) -> Seen:
    """The path's kind, bytes' digest and executable bit as they are now (None: nothing there)."""
    full = worktree_path(repo, path)
    try:
        info = os.lstat(full)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISLNK(info.st_mode):
        return ("link", os.readlink(full))
    if stat.S_ISDIR(info.st_mode):
        return ("directory",)
    digest = hashlib.sha256(full.read_bytes()).hexdigest()
    return ("file", digest, str(bool(info.st_mode & stat.S_IXUSR)))


def stage_path(repo: GitRepo, path: str, expected: tuple[int, bytes] | None = None,
               gone: Sequence[str] = ()) -> None:
    """``git add`` the path (resolves its conflict stages, like a person would), and the removal of ``gone``.

    ``expected`` is (mode, bytes) the index must then hold.  ``git add``
    stores the file through its clean filters, and their round trip need
    not give back what was checked out (``core.autocrlf`` leaves CRs alone
    in a file whose blob in the index has some, so a blob without them
    comes back with them): then the expected blob goes into the index, as
    ``git merge`` puts its merged blob there.  ``gone``: paths already
    removed from the work tree whose index entries go too (one ``git add``).
    """
    with _INDEX:
        args = [LITERAL, "add", *(("--all",) if gone else ()), "--", path, *gone]
        proc = run_git(repo.run_dir, args, check=False)
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


def unstage_deleted(repo: GitRepo, path: str, gone: Sequence[str] = ()) -> None:
    """Record the path's deletion in the index (``git rm --cached``), and that of ``gone``."""
    with _INDEX:
        run_git(repo.run_dir, [LITERAL, "rm", "--cached", "--ignore-unmatch", "-q", "--", path, *gone])


def stage_gitlink(repo: GitRepo, path: str, oid: str, gone: Sequence[str] = ()) -> None:
    """Point a submodule entry at a commit without touching its checkout (``gone``: removed from the index)."""
    null = b"0 " + b"0" * 40 + b"\t"
    entries = [null + os.fsencode(path), f"{FileMode.GITLINK:o} {oid}\t".encode() + os.fsencode(path),
               *(null + os.fsencode(other) for other in gone)]
    with _INDEX:  # a mode-0 entry drops every stage of its path, conflict stages included
        run_git(repo.run_dir, ["update-index", "-z", "--index-info"], input_bytes=b"\0".join(entries) + b"\0")


def submodule_commit(repo: GitRepo, path: str) -> str | None:
    """The commit a submodule's checkout at ``path`` has out (what ``git add`` would record), or None."""
    full = worktree_path(repo, path)
    if os.path.islink(full) or not full.is_dir() or not (full / ".git").exists():
        return None
    try:
        inner = pygit2.Repository(str(full))
        return None if inner.head_is_unborn else str(inner.head.target)
    except (pygit2.GitError, KeyError, ValueError):
        return None
