"""Running the git binary: argument lists only, never a shell."""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, ExitStack
from pathlib import Path

from workbench.errors import WorkbenchError

_VERSION = re.compile(r"git version (\d+)\.(\d+)(?:\.(\d+))?")


# Variables that would point git at another repository, index, object store or
# attribute source than the one workbench opened (e.g. inherited from a hook or
# `git mergetool`; GIT_ATTR_SOURCE is git 2.40's).
_LOCATING = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_PREFIX",
    "GIT_ATTR_SOURCE",
    # How git reads a pathspec: the tool's own (``*.py``, ``:(literal)PATH``) mean what they say only without these.
    "GIT_LITERAL_PATHSPECS",
    "GIT_GLOB_PATHSPECS",
    "GIT_NOGLOB_PATHSPECS",
    "GIT_ICASE_PATHSPECS",
    # Read by ``git config`` alone: ``config --list`` would show that file instead of the settings git merges with.
    "GIT_CONFIG",
)


NO_HOOKS = ("-c", "core.hooksPath=/dev/null")
"""For git writing a private index copy: the user's hooks (``post-index-change``) are for their own index."""


DELTA_BASE_CACHE = "256m"
"""``core.deltaBaseCacheLimit`` for git commands that read many objects, when the user's configuration sets none."""


def delta_cache_options(cwd: str | Path, extra_env: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """``-c core.deltaBaseCacheLimit=DELTA_BASE_CACHE``, or nothing when the user's configuration sets it.

    git rebuilds a deltified object from its base, and keeps recent bases in
    a cache of 96 MB by default.  The analysis reads each conflicted file's
    history in several passes, and a pack's delta chains can cross files:
    with the default, the bases one read needs are gone by the next
    (docs/performance.md has the measurement).
    """
    found = run_git(cwd, ["config", "--get", "core.deltaBaseCacheLimit"], check=False, extra_env=extra_env)
    return () if found.returncode == 0 else ("-c", f"core.deltaBaseCacheLimit={DELTA_BASE_CACHE}")


def git_variables() -> list[tuple[str, str]]:
    """The caller's ``GIT_*`` variables that reach git (replace refs, config, grafts...), sorted: part of a cache key."""
    return sorted((k, v) for k, v in os.environ.items() if k.startswith("GIT_") and k not in _LOCATING)


def git_env() -> dict[str, str]:
    """The caller's environment, made parseable, prompt-free and bound to cwd's repository."""
    env = {k: v for k, v in os.environ.items() if k not in _LOCATING}
    env["LC_ALL"] = "C"
    env["LANGUAGE"] = "C"
    env["GIT_TERMINAL_PROMPT"] = "0"
    return env


_NAMING = ("GIT_DIR", "GIT_WORK_TREE")
"""The variables with which a user (or a hook) names the repository and work tree git works on."""


def honoured_repository(given: str | os.PathLike[str] | None) -> str | os.PathLike[str] | None:
    """Where the repository git would work on is, given ``--repo`` (``given``) and ``GIT_DIR``/``GIT_WORK_TREE``.

    Without those variables: ``given``, unchanged.  With them, git's own
    answer (``rev-parse`` with them, relative ones read from the current
    directory, as git does): the top of that work tree (the git directory of
    a bare repository), which every later step opens by path with the
    variables left out.  When that path does not lead back to the same git
    directory and work tree (``GIT_DIR`` alone makes git take the current
    directory as the work tree of another repository), nothing could be
    analysed or written as git would: ``WorkbenchError``.
    """
    named = {k: os.path.abspath(os.environ[k]) for k in _NAMING if os.environ.get(k)}
    if not named:
        return given
    start = str(given) if given is not None else os.getcwd()
    if not os.path.isdir(start):
        return given  # opening it says what is wrong
    words = " and ".join(f"{k}={named[k]}" for k in _NAMING if k in named)
    asked = ["rev-parse", "--absolute-git-dir", "--is-bare-repository", "--show-toplevel"]
    found = run_git(start, asked, check=False, extra_env=named)
    lines = found.stdout.decode("utf-8", "surrogateescape").splitlines()
    if found.returncode != 0 or len(lines) < 2:
        detail = found.stderr.decode("utf-8", "replace").strip().splitlines()
        raise WorkbenchError(f"{words}: git finds no repository there ({detail[-1] if detail else 'unknown error'})")
    gitdir, bare, top = lines[0], lines[1] == "true", (lines[2] if len(lines) > 2 else "")
    where = gitdir if bare or not top else top
    again = run_git(where, asked, check=False)
    if found.returncode != again.returncode or again.stdout != found.stdout:
        raise WorkbenchError(f"{words}: git would pair the git directory {gitdir} with the work tree "
                             f"{top or '(none)'}, which is not how that repository is laid out; unset them, or run "
                             "workbench in the repository's own work tree")
    return where


def run_git(
    cwd: str | Path,
    args: Sequence[str],
    *,
    check: bool = True,
    input_bytes: bytes | None = None,
    ok_codes: Sequence[int] = (0,),
    extra_env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run ``git ARGS`` in ``cwd`` and capture bytes; raise WorkbenchError on failure."""
    exe = git_executable()
    env = git_env()
    if extra_env:
        env.update(extra_env)
    proc = subprocess.run(
        [exe, *args],
        cwd=str(cwd),
        input=input_bytes,
        capture_output=True,
        env=env,
        check=False,
    )
    return _checked(args, proc, check, ok_codes)


def _checked(
    args: Sequence[str], proc: subprocess.CompletedProcess[bytes], check: bool, ok_codes: Sequence[int]
) -> subprocess.CompletedProcess[bytes]:
    if check and proc.returncode not in ok_codes:
        message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        detail = message[-1] if message else f"exit status {proc.returncode}"
        raise WorkbenchError(f"git {_command_name(args)} failed: {detail}")
    return proc


class StartedGit:
    """``git ARGS`` started in ``cwd`` to run beside this process; ``wait`` gives what ``run_git`` would.

    Its output goes to unnamed temporary files, not pipes: git never stalls
    on a full pipe while this process does other work.  ``around`` (e.g. the
    object times kept) is entered before git starts and left once it is
    done.  Used as a context manager, a command nobody waited for is killed
    on the way out (an error in the work done meanwhile leaves no git
    process behind).
    """

    def __init__(self, cwd: str | Path, args: Sequence[str], extra_env: Mapping[str, str] | None = None,
                 around: AbstractContextManager[object] | None = None) -> None:
        env = git_env()
        if extra_env:
            env.update(extra_env)
        self._args = args
        self._command = [git_executable(), *args]
        with ExitStack() as opening:
            if around is not None:
                opening.enter_context(around)
            self._out = opening.enter_context(tempfile.TemporaryFile())
            self._err = opening.enter_context(tempfile.TemporaryFile())
            self._proc: subprocess.Popen[bytes] | None = subprocess.Popen(
                self._command, cwd=str(cwd), stdin=subprocess.DEVNULL, stdout=self._out, stderr=self._err,
                env=env,
            )
            self._open = opening.pop_all()

    def wait(self, *, check: bool = True, ok_codes: Sequence[int] = (0,)) -> subprocess.CompletedProcess[bytes]:
        """Wait for the command; its output, or WorkbenchError on failure (as ``run_git``)."""
        if self._proc is None:
            raise RuntimeError("git command already waited for or cancelled")
        code = self._proc.wait()  # interrupted, the command runs on until ``cancel`` kills it
        self._proc = None
        with self._open:
            self._out.seek(0)
            self._err.seek(0)
            proc = subprocess.CompletedProcess(self._command, code, self._out.read(), self._err.read())
        return _checked(self._args, proc, check, ok_codes)

    def cancel(self) -> None:
        """Kill the command if it is still running (its output is dropped)."""
        if self._proc is not None:
            with self._open:
                self._proc.kill()
                self._proc.wait()
                self._proc = None

    def __enter__(self) -> StartedGit:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.cancel()


def _command_name(args: Sequence[str]) -> str:
    """The git subcommand in ``args`` (skipping ``-c key=value`` and global flags)."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "-c":
            skip = True
        elif not arg.startswith("-"):
            return arg
    return args[0] if args else "git"


@functools.cache
def git_executable() -> str:
    """Path of the git binary, or a clear error when there is none."""
    exe = shutil.which("git")
    if exe is None:
        raise WorkbenchError("git is not installed or not on PATH")
    return exe


@functools.cache
def git_version() -> tuple[int, int, int]:
    """The installed git's version, e.g. (2, 39, 5)."""
    out = subprocess.run(
        [git_executable(), "--version"], capture_output=True, check=False
    ).stdout.decode("ascii", "replace")
    match = _VERSION.search(out)
    if not match:
        raise WorkbenchError(f"cannot tell the git version from {out.strip()!r}")
    return int(match[1]), int(match[2]), int(match[3] or 0)


def rediffs_shifted() -> bool:
    """Whether the installed git re-diffs histogram groups that grew while sliding (its merges do)."""
    from workbench.git.types import REDIFF_SHIFTED_SINCE  # here: a warm run imports this module, not the records

    return git_version() >= REDIFF_SHIFTED_SINCE


def require_merge_tree() -> None:
    """``git merge-tree --write-tree`` appeared in git 2.38."""
    if git_version() < (2, 38, 0):
        major, minor, patch = git_version()
        raise WorkbenchError(
            f"git {major}.{minor}.{patch} is too old: workbench needs git 2.38 or newer"
        )
