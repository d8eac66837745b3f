"""A fluent builder that makes real commits with the git binary.

Tests, the demo and the benchmarks need real repositories whose history reads
like Megatron-LM's (squash merges, PR numbers, several authors) and whose
commit ids are the same on every run.  Modelled on lazygit's integration
``Shell`` and dulwich's ``build_commit_graph``: one call per step, in the order
a person would do it.

Every git call runs isolated from the machine: no global or system config, no
``GIT_*`` variables inherited from the caller (a hook's ``GIT_INDEX_FILE``
would otherwise redirect the index), a fixed identity and a clock that moves
one minute per commit from 2026-01-01T00:00:00Z.  Only argument lists reach
``subprocess.run``; pygit2 stays out (only ``workbench.git`` may use it).
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from workbench.errors import WorkbenchError

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
"""When the first commit of every built repository is made."""

TICK = timedelta(minutes=1)
"""How far the clock moves per commit, so later commits sort later."""

REPO_CONFIG: tuple[tuple[str, str], ...] = (
    ("init.defaultBranch", "main"),
    ("commit.gpgsign", "false"),
    ("core.autocrlf", "false"),
    ("merge.conflictStyle", "merge"),
    ("user.name", "Workbench Sample"),
    ("user.email", "sample@example.com"),
)
"""Written into each repository's own config, so plain ``git`` in it behaves the same."""


class GitCommandError(WorkbenchError):
    """A git command the builder ran failed; the message carries git's own words."""

    @classmethod
    def of(cls, args: tuple[str, ...], proc: subprocess.CompletedProcess[bytes]) -> GitCommandError:
        """The error for a finished ``git ARGS`` (stderr, or stdout where git reports there)."""
        said = (proc.stderr or proc.stdout).decode("utf-8", "replace").strip()
        return cls(f"git {' '.join(args)} failed ({proc.returncode}): {said}")


@dataclass(frozen=True, slots=True)
class Author:
    """Who wrote a commit (the committer is always :data:`COMMITTER`, as on GitHub)."""

    name: str
    email: str


DEFAULT_AUTHOR = Author("Workbench Sample", "sample@example.com")
COMMITTER = Author("GitHub", "noreply@github.com")


def isolated_env(when: datetime, author: Author = DEFAULT_AUTHOR) -> dict[str, str]:
    """The caller's environment minus every ``GIT_*`` variable, plus a sealed git setup."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    stamp = f"{int(when.timestamp())} +0000"
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_TERMINAL_PROMPT="0",
        GIT_AUTHOR_NAME=author.name,
        GIT_AUTHOR_EMAIL=author.email,
        GIT_AUTHOR_DATE=stamp,
        GIT_COMMITTER_NAME=COMMITTER.name,
        GIT_COMMITTER_EMAIL=COMMITTER.email,
        GIT_COMMITTER_DATE=stamp,
        LC_ALL="C",
        LANGUAGE="C",
    )
    return env


class RepoBuilder:
    """A git repository under construction; edits touch the work tree, ``commit`` records them."""

    def __init__(self, path: Path, *, author: Author = DEFAULT_AUTHOR):
        self.path = path
        self.author = author
        self.now = EPOCH
        """The date the next commit gets; :meth:`_tick` moves it on."""

    # -- creation -------------------------------------------------------------------------

    @classmethod
    def init(cls, path: str | Path, *, author: Author = DEFAULT_AUTHOR) -> RepoBuilder:
        """Create an empty repository on branch ``main`` with the sealed config."""
        builder = cls(Path(path), author=author)
        builder.path.mkdir(parents=True, exist_ok=True)
        builder.git("init", "-q", "-b", "main")
        for key, value in REPO_CONFIG:
            builder.git("config", key, value)
        return builder

    @classmethod
    def open(cls, path: str | Path) -> RepoBuilder:
        """Work on an existing repository (e.g. a copied sample) with the same isolation."""
        return cls(Path(path))

    # -- running git ----------------------------------------------------------------------

    def run(
        self, *args: str, input: bytes | None = None, author: Author | None = None
    ) -> subprocess.CompletedProcess[bytes]:
        """Run ``git ARGS`` in the repository and return the finished process, whatever its status."""
        env = isolated_env(self.now, author or self.author)
        return subprocess.run(
            ["git", *args], cwd=self.path, input=input, capture_output=True, env=env, check=False
        )

    def git(self, *args: str, input: bytes | None = None, author: Author | None = None) -> bytes:
        """Run ``git ARGS`` and return its stdout; a non-zero status raises GitCommandError."""
        proc = self.run(*args, input=input, author=author)
        if proc.returncode != 0:
            raise GitCommandError.of(args, proc)
        return proc.stdout

    def _tick(self) -> None:
        """Move the clock one step, so every commit gets its own, increasing date."""
        self.now += TICK

    # -- the work tree --------------------------------------------------------------------

    def _file(self, rel: str) -> Path:
        """Where ``rel`` lives, refusing paths that would leave the repository."""
        full = (self.path / rel).resolve()
        if not full.is_relative_to(self.path.resolve()) or full == self.path.resolve():
            raise ValueError(f"{rel!r} is not a file path inside the repository")
        return self.path / rel

    def write(self, rel: str, content: str | bytes) -> RepoBuilder:
        """Write a file byte for byte (str as UTF-8, newlines untouched), creating its folders."""
        target = self._file(rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_symlink():
            target.unlink()
        target.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        return self

    def delete(self, rel: str) -> RepoBuilder:
        """Remove a file (or symlink) from the work tree; the next commit records it."""
        self._file(rel).unlink()
        return self

    def rename(self, old: str, new: str) -> RepoBuilder:
        """Move a file; git detects the rename when the next commit is compared."""
        target = self._file(new)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(self._file(old), target)
        return self

    def chmod(self, rel: str, *, executable: bool = True) -> RepoBuilder:
        """Set or clear the executable bit (git's 100755 vs 100644)."""
        self._file(rel).chmod(0o755 if executable else 0o644)
        return self

    def symlink(self, rel: str, target: str) -> RepoBuilder:
        """Create (or replace) a symbolic link pointing at ``target`` (git mode 120000)."""
        link = self._file(rel)
        link.parent.mkdir(parents=True, exist_ok=True)
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(target)
        return self

    def read(self, rel: str, rev: str | None = None) -> bytes:
        """A file's exact bytes: from the work tree, or from ``rev`` when given."""
        if rev is None:
            return self._file(rel).read_bytes()
        return self.git("cat-file", "blob", f"{rev}:{rel}")

    # -- history --------------------------------------------------------------------------

    def commit(self, subject: str, body: str = "", author: Author | None = None) -> str:
        """Stage everything (``git add -A``) and commit; returns the new commit id."""
        self._tick()
        self.git("add", "-A")
        message = f"{subject}\n\n{body}" if body else subject
        self.git("commit", "-q", "--no-verify", "-m", message, author=author)
        return self.rev("HEAD")

    def branch(self, name: str, start: str = "HEAD") -> RepoBuilder:
        """Create a branch at ``start`` without switching to it."""
        self.git("branch", name, start)
        return self

    def checkout(self, rev: str) -> RepoBuilder:
        """Switch to a branch (or detach at a commit) and update the work tree."""
        self.git("checkout", "-q", rev)
        return self

    def current_branch(self) -> str | None:
        """The checked-out branch's short name, or None on a detached HEAD."""
        proc = self.run("symbolic-ref", "-q", "--short", "HEAD")
        return proc.stdout.decode().strip() if proc.returncode == 0 else None

    def squash_merge(
        self, rev: str, subject: str, body: str = "", author: Author | None = None
    ) -> str:
        """Land ``rev`` as one new single-parent commit, the way GitHub's squash merge does."""
        self.git("merge", "-q", "--squash", rev)
        return self.commit(subject, body, author)

    def merge(
        self,
        rev: str,
        strategy_option: str | None = None,
        *,
        no_commit: bool = False,
        message: str | None = None,
        check: bool = False,
    ) -> int:
        """``git merge --no-edit [-X OPT] REV``; returns git's status (1: merge left in progress)."""
        self._tick()
        args = ["merge", "-q", "--no-edit"]
        if strategy_option:
            args += ["-X", strategy_option]
        if no_commit:
            args.append("--no-commit")
        if message is not None:
            args += ["-m", message]
        proc = self.run(*args, rev)
        if check and proc.returncode != 0:
            raise GitCommandError.of((*args, rev), proc)
        return proc.returncode

    def rev(self, rev: str) -> str:
        """The full commit id ``rev`` names."""
        return self.git("rev-parse", "--verify", "-q", f"{rev}^{{commit}}").decode().strip()
