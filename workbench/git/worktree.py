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
    return paths_attributes(repo, [path])[path]


def paths_attributes(repo: GitRepo, paths: Sequence[str]) -> dict[str, PathAttributes]:
    """``path_attributes`` of every path, from one ``git check-attr`` (per 64 KB of paths)."""
    found: dict[str, dict[str, bytes]] = {path: {} for path in paths}
    for batch in path_batches(paths):
        proc = run_git(repo.run_dir, ["check-attr", "-z", "conflict-marker-size", *_CONVERTING, "--", *batch],
                       check=False)
        if proc.returncode != 0:
            return {path: PathAttributes(7, True) for path in paths}
        fields = proc.stdout.split(b"\0")
        for k in range(0, len(fields) - 2, 3):
            path = fields[k].decode("utf-8", "surrogateescape")
            found.setdefault(path, {})[fields[k + 1].decode("ascii", "replace")] = fields[k + 2]
    return {path: _attributes(repo, found[path]) for path in paths}


def _attributes(repo: GitRepo, values: Mapping[str, bytes]) -> PathAttributes:
    size = values.get("conflict-marker-size", b"")
    marker = int(size) if size.isdigit() and 0 < int(size) < 1024 else 7
    return PathAttributes(marker, _converted(repo, values))


_ARGS_BUDGET = 64 * 1024
"""Bytes of paths per git run, well under any system's argument limit."""


def path_batches(paths: Sequence[str]) -> list[list[str]]:
    """``paths`` cut into runs that fit one git command line each (``_ARGS_BUDGET`` bytes)."""
    batches: list[list[str]] = []
    size = _ARGS_BUDGET
    for path in paths:
        length = len(os.fsencode(path)) + 1
        if size + length > _ARGS_BUDGET:
            batches.append([])
            size = 0
        batches[-1].append(path)
        size += length
    return batches


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


@dataclass(frozen=True, slots=True)
class IndexUpdate:
    """What one written file asks of the index (during a merge in progress)."""

    path: str
    mode: int | None = None
    """The entry's mode; None: the path's entry goes (a deletion)."""
    blob: bytes | None = None
    """A file's bytes (or a symlink's target) as the index must hold them."""
    commit: str | None = None
    """A submodule's commit (mode ``GITLINK``)."""
    gone: tuple[str, ...] = ()
    """Entries removed with it (git's side copies, the other side's directory)."""
    own_entry: bool = True
    """False for a deletion that leaves the path's entries alone (the kept side's directory is there)."""


def update_index(repo: GitRepo, updates: Sequence[IndexUpdate]) -> dict[str, str]:
    """Stage every update in at most three git runs (an add, an ``--index-info``, an ``rm --cached``); path -> why
    its update failed.

    ``git add`` resolves a path's conflict stages, like a person would, and
    stores the file through its clean filters, whose round trip need not
    give back what was checked out (``core.autocrlf`` leaves CRs alone in a
    file whose blob in the index has some, so a blob without them comes back
    with them); then the expected blob goes into the index, as ``git merge``
    puts its merged blob there.  When a run fails for several paths, each
    path is staged on its own, to say which failed.
    """
    if len(updates) > 1:
        failed = _update_index(repo, updates)
        if not failed:
            return {}
        return {path: why for update in updates for path, why in _update_index(repo, [update]).items()}
    return _update_index(repo, updates)


def _update_index(repo: GitRepo, updates: Sequence[IndexUpdate]) -> dict[str, str]:
    added = [u for u in updates if u.blob is not None and u.mode is not None]
    linked = [u for u in updates if u.commit is not None]
    removed = [p for u in updates if u.mode is None for p in ((u.path,) if u.own_entry else ()) + u.gone]
    failed: dict[str, str] = {}
    null = b"0 " + b"0" * 40 + b"\t"
    info: list[bytes] = []
    with _INDEX:
        for batch in path_batches([p for u in added for p in (u.path, *u.gone)]):
            proc = run_git(repo.run_dir, [LITERAL, "add", "--all", "--", *batch], check=False)
            if proc.returncode != 0:
                return {u.path: f"git add failed: {_add_failure(proc.stderr)}" for u in updates}
        if added:
            index = repo.raw.index
            index.read()
            for update in added:
                assert update.blob is not None and update.mode is not None
                found = index[update.path] if update.path in index else None
                if found is None or (str(found.id), found.mode) != (repo.hash_bytes(update.blob), update.mode):
                    info.append(f"{update.mode:o} {store_blob(repo, update.blob)}\t".encode() + os.fsencode(update.path))
        for update in linked:  # a mode-0 entry drops every stage of its path, conflict stages included
            info += [null + os.fsencode(update.path),
                     f"{FileMode.GITLINK:o} {update.commit}\t".encode() + os.fsencode(update.path),
                     *(null + os.fsencode(other) for other in update.gone)]
        try:
            if info:
                run_git(repo.run_dir, ["update-index", "-z", "--index-info"], input_bytes=b"\0".join(info) + b"\0")
            for batch in path_batches(removed):
                run_git(repo.run_dir, [LITERAL, "rm", "--cached", "--ignore-unmatch", "-q", "--", *batch])
        except WorkbenchError as exc:
            failed = {u.path: str(exc) for u in updates}
    return failed


def stage_problem(repo: GitRepo, path: str) -> str | None:
    """Why ``git add`` of ``path`` would fail now (``--dry-run``: nothing changes), or None."""
    return stage_problems(repo, [path]).get(path)


def stage_problems(repo: GitRepo, paths: Sequence[str]) -> dict[str, str]:
    """Why ``git add`` would fail now for each path it would (``--dry-run``), asked of all at once first."""
    there = [path for path in paths if os.path.lexists(worktree_path(repo, path))]
    failed: dict[str, str] = {}
    for batch in path_batches(there):
        with _INDEX:
            proc = run_git(repo.run_dir, [LITERAL, "add", "--dry-run", "--", *batch], check=False)
        if proc.returncode == 0:
            continue
        if len(batch) == 1:
            failed[batch[0]] = _add_failure(proc.stderr)
            continue
        for path in batch:  # which of them: one at a time
            failed.update(stage_problems(repo, [path]))
    return failed


def _add_failure(stderr: bytes) -> str:
    """git's refusal in a few words: the lock and the sparse-checkout cone are named, else git's own line."""
    text = stderr.decode("utf-8", "replace")
    if "index.lock" in text and "File exists" in text:
        return "another git process holds the index lock (.git/index.lock)"
    if "sparse-checkout" in text:
        return "the path is outside the sparse-checkout cone (git add --sparse stages it)"
    lines = [line for line in text.strip().splitlines() if line.strip() and not line.startswith("hint:")]
    return lines[0].removeprefix("fatal: ").removeprefix("error: ") if lines else "git add failed"


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
