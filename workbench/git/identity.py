"""What a sync between fixed commits is, told by the git binary alone (no pygit2).

A cached analysis is found by its key: the commits, where the repository is,
and the settings outside any commit that change git's merge.  Importing
pygit2 alone takes longer than ``git merge-tree`` on a real sync, so the key
is read here with a few small git commands, started at once and run side by
side.  A merge in progress adds the state of its index and work tree
(work_state.py).  Anything unusual (an octopus merge, a revision spelled
in a way git and libgit2 might read differently, an error) gives None: the
caller opens the repository properly, which reports any error, and caches
nothing.
"""

from __future__ import annotations

import hashlib
import os
import re
import selectors
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.git.runner import git_env, git_executable
from workbench.git.work_state import WorkState, file_stamp, read_work_state

if TYPE_CHECKING:  # the records module takes longer to import than a warm run's whole key
    from workbench.git.types import SyncMode

_PLAIN_REV = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._/~^-]*")
"""Revisions both git and libgit2 read alike: names and ids with ``~N`` and ``^N``, no ranges or searches."""
_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_MERGE_HEAD = re.compile(rb"(?:[0-9a-f]{40}|[0-9a-f]{64})\n")


@dataclass(frozen=True)
class SyncIdentity:
    """The fixed commits of a sync and the repository state its analysis is a function of."""

    mode: SyncMode
    """``merge-commit``, ``preview`` or ``in-progress`` (its result is the index and work tree: ``work``)."""
    dev: str
    main: str
    merge: str | None
    result: str | None
    """The commit taken as the result (the merge, or ``--result``); None for a preview."""
    repo: str
    """The work tree, or the git directory of a bare repository."""
    gitdir: Path
    settings: str
    """SHA-256 of the configuration, replace refs and the attribute, graft and shallow files."""
    work: WorkState | None = None
    """A merge in progress: the state of its index and work tree (None otherwise)."""


def identify_sync(
    path: str | os.PathLike[str] | None, rev: str | None, dev: str | None, main: str | None, result: str | None
) -> SyncIdentity | None:
    """The identity of the sync the arguments name, or None when it cannot be told cheaply and surely."""
    cwd = Path(path) if path is not None else Path.cwd()
    revs = _revisions(rev, dev, main, result)
    if revs is None or not cwd.is_dir():
        return None
    try:
        where, commits, config, replaced = _run_all(
            cwd,
            [
                ["rev-parse", "--is-bare-repository", "--absolute-git-dir", "--path-format=absolute",
                 "--git-common-dir", "--show-toplevel"],
                ["rev-list", "--no-walk=unsorted", "--parents", "--end-of-options", *revs, "--"],
                ["config", "--list", "-z"],
                ["for-each-ref", "--format=%(refname)=%(objectname)", _replace_ref_base()],
            ],
        )
    except OSError:
        return None
    located = _location(where)
    lines = _commit_lines(commits, len(revs))
    if located is None or lines is None or config[0] != 0 or replaced[0] != 0:
        return None
    repo, gitdir, common = located
    settings = _settings_digest(config[1], replaced[1], common, Path(repo))
    if rev is None and dev is None and (gitdir / "MERGE_HEAD").exists():
        if result is not None:
            return None
        return _in_progress(repo, gitdir, lines[0][0], settings)  # without a revision, it is the sync
    if dev is not None:
        return SyncIdentity("preview", lines[0][0], lines[1][0], None, None, repo, gitdir, settings)
    merge, *parents = lines[0]
    if len(parents) != 2:
        return None
    return SyncIdentity(
        "merge-commit", parents[0], parents[1], merge, lines[1][0] if result is not None else merge, repo, gitdir,
        settings,
    )


def _in_progress(repo: str, gitdir: Path, head: str, settings: str) -> SyncIdentity | None:
    """The identity of the merge in progress: HEAD, MERGE_HEAD and the state of the index and work tree.

    MERGE_HEAD is read as strictly as libgit2 reads it (one id and a
    newline, as git writes it): a file git reads and libgit2 refuses would
    have a warm run print what the cold run cannot.
    """
    try:
        written = (gitdir / "MERGE_HEAD").read_bytes()
    except OSError:
        return None
    if not _MERGE_HEAD.fullmatch(written) or gitdir == Path(repo):
        return None  # an octopus merge, an odd file, a bare repository: opening it properly says what it is
    main = written.decode("ascii").strip()
    bound = ["--git-dir", str(gitdir), "--work-tree", repo]  # the repository found, not one nested at the top
    try:
        found = _run_all(Path(repo), [
            [*bound, "ls-files", "-s", "-v", "-z"],
            [*bound, "ls-files", "-s", "--debug", "-z"],
            [*bound, "ls-tree", "-r", "--full-tree", "--name-only", "-z", head],
            [*bound, "ls-tree", "-r", "--full-tree", "--name-only", "-z", main],
            [*bound, "rev-parse", "--shared-index-path"],
        ])
    except OSError:
        return None
    if any(status != 0 for status, _ in found):
        return None
    listing, cached_stat, dev_paths, main_paths, shared = (out for _, out in found)
    if shared.strip():
        return None  # a split index: libgit2 cannot read it, and the cold run says so
    work = read_work_state(Path(repo), gitdir / "index", listing, cached_stat, [dev_paths, main_paths])
    if work is None:
        return None
    return SyncIdentity("in-progress", head, main, None, None, repo, gitdir, settings, work)


def _revisions(rev: str | None, dev: str | None, main: str | None, result: str | None) -> list[str] | None:
    """The revisions to resolve (the merge or dev and main, then the result), or None when not plain."""
    if (dev is None) != (main is None) or (dev is not None and (rev is not None or result is not None)):
        return None
    revs = [dev, main] if dev is not None and main is not None else [rev or "HEAD"]
    if result is not None:
        revs.append(result)
    if not all(_PLAIN_REV.fullmatch(r) and ".." not in r for r in revs):
        return None
    return [f"{r}^{{commit}}" for r in revs]


def _run_all(cwd: Path, commands: list[list[str]]) -> list[tuple[int, bytes]]:
    """Run the git commands side by side in ``cwd``: (exit status, stdout) of each.

    Their output is drained as it comes: a listing outgrows a pipe's buffer,
    and a command waiting for its turn to be read would stop until then.
    """
    exe, env = git_executable(), git_env()
    procs = [
        subprocess.Popen([exe, *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
        for args in commands
    ]
    chunks: list[list[bytes]] = [[] for _ in procs]
    with selectors.DefaultSelector() as waiting:
        for k, proc in enumerate(procs):
            assert proc.stdout is not None
            waiting.register(proc.stdout, selectors.EVENT_READ, k)
        while waiting.get_map():
            for ready, _ in waiting.select():
                data = os.read(ready.fd, _CHUNK)
                if data:
                    chunks[ready.data].append(data)
                else:
                    waiting.unregister(ready.fileobj)
                    ready.fileobj.close()  # type: ignore[union-attr]
    return [(proc.wait(), b"".join(parts)) for proc, parts in zip(procs, chunks, strict=True)]


_CHUNK = 1 << 16


def _location(found: tuple[int, bytes]) -> tuple[str, Path, Path] | None:
    """(work tree or git dir, git dir, common dir) from ``rev-parse``; a bare repository has no top level."""
    status, stdout = found
    lines = stdout.decode("utf-8", "surrogateescape").splitlines()
    if len(lines) == 3 and lines[0] == "true":
        return lines[1], Path(lines[1]), Path(lines[2])
    if status != 0 or len(lines) != 4 or lines[0] != "false":
        return None
    return lines[3], Path(lines[1]), Path(lines[2])


def _commit_lines(found: tuple[int, bytes], count: int) -> list[list[str]] | None:
    """One ``commit parent...`` line per revision asked, or None (an unknown revision, a repeated commit)."""
    status, stdout = found
    lines = [line.split() for line in stdout.decode("ascii", "replace").splitlines()]
    if status != 0 or len(lines) != count or not all(line and all(_SHA.fullmatch(s) for s in line) for line in lines):
        return None
    return lines


def _outside_attributes() -> list[Path]:
    """The system's attributes file (``$(prefix)/etc/gitattributes``; ``/etc`` for a git installed in ``/usr``)."""
    found = [Path("/etc/gitattributes")]
    prefix = Path(git_executable()).resolve().parent.parent
    if prefix != Path("/usr"):
        found.append(prefix / "etc" / "gitattributes")
    return found


def _replace_ref_base() -> str:
    """Where git looks for replace refs (``GIT_REPLACE_REF_BASE``, else ``refs/replace/``)."""
    base = os.environ.get("GIT_REPLACE_REF_BASE") or "refs/replace/"
    return base if base.endswith("/") else base + "/"


def _settings_digest(config: bytes, replaced: bytes, common: Path, top: Path) -> str:
    """SHA-256 of the settings outside any commit that can change what git merges.

    Every configuration entry (all levels: merge drivers, conflict style,
    rename limits, eol), the attributes files that are not in a tree
    (``info/attributes``, ``core.attributesFile`` or its default under
    ``$XDG_CONFIG_HOME/git``, the system's), the configuration files libgit2
    reads, the programs configured as filters, merge drivers and file
    system monitor (by ``lstat``: a script edited in place), and
    what makes git see other history under the same commit ids (replace
    refs, grafts, the shallow boundary).  ``top``: where git runs, the work
    tree's top (a relative path in the configuration is read from there).
    """
    digest = hashlib.sha256()
    entries = [entry for entry in config.split(b"\0") if entry]
    for entry in sorted(entries):
        digest.update(entry + b"\0")
    for line in sorted(replaced.splitlines()):
        digest.update(line + b"\0")
    files = [common / "info" / "attributes", common / "info" / "grafts", common / "shallow", *_outside_attributes(),
             *_libgit2_config_files()]
    attributes = [entry.split(b"\n", 1)[1] for entry in entries if entry.lower().startswith(b"core.attributesfile\n")]
    if attributes:  # the last one set wins, as in git
        files.append(_config_path(os.fsdecode(attributes[-1]), top))
    else:  # git's default global attributes file
        xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
        files.append(Path(xdg, "git", "attributes"))
    digest.update(b"GIT_ATTR_NOSYSTEM=" + os.environb.get(b"GIT_ATTR_NOSYSTEM", b"\0") + b"\0")
    for path in files:
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"\0absent\0")
    for program in _programs(entries, top):
        digest.update(os.fsencode(program) + b"\0" + repr(file_stamp(program, follow_symlinks=True)).encode("ascii") + b"\0")
    return digest.hexdigest()


def _libgit2_config_files() -> list[Path]:
    """The global and system configuration files libgit2 reads whatever git's variables say.

    ``GIT_CONFIG_GLOBAL`` or ``GIT_CONFIG_NOSYSTEM`` hide them from
    ``config --list``, but the analysis reads some settings through pygit2
    (``core.fileMode``, ``merge.renormalize``, the remote a report links to).
    """
    home = Path(os.path.expanduser("~"))
    xdg = os.environ.get("XDG_CONFIG_HOME") or str(home / ".config")
    return [home / ".gitconfig", Path(xdg, "git", "config"), Path("/etc/gitconfig")]


def _config_path(value: str, top: Path) -> Path:
    """A path setting as git reads it: ``~`` and ``%(prefix)/`` expanded, relative to where git runs."""
    if value.startswith("%(prefix)/"):
        return Path(git_executable()).resolve().parent.parent / value.removeprefix("%(prefix)/")
    return top / os.path.expanduser(value)


_PROGRAM_KEYS = re.compile(rb"(?:filter\..*\.(?:clean|smudge|process)|merge\..*\.driver|core\.fsmonitor)\n",
                           re.IGNORECASE | re.DOTALL)


def _programs(entries: list[bytes], top: Path) -> list[str]:
    """The files the commands configured as content filters and merge drivers name.

    The first word is the program: a bare name is looked up on ``PATH``
    (a relative entry from ``top``, where git runs it), a path is read from
    ``top``.  Any later word with a slash is a file too (``sh ./clean.sh``).
    What a program reads beyond its command line (a Python module it
    imports, a key file) is not seen: ``--no-cache`` after changing that.
    """
    search = os.pathsep.join(str(top / entry) for entry in os.environ.get("PATH", os.defpath).split(os.pathsep))
    found = []
    for entry in entries:
        key, _, value = entry.partition(b"\n")
        if not _PROGRAM_KEYS.fullmatch(key + b"\n"):
            continue
        try:
            words = shlex.split(os.fsdecode(value))
        except ValueError:
            continue
        for k, word in enumerate(words):
            if "/" in word:
                found.append(str(top / os.path.expanduser(word)))
            elif k == 0:
                found.append(shutil.which(word, path=search) or word)
    return sorted(found)
