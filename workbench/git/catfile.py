"""Reading blobs through one long-lived ``git cat-file --batch`` process.

Why not libgit2: reading a file's historical versions walks pack delta
chains, and git's delta-base cache makes that several times faster than
libgit2's (docs/performance.md).
One process serves every read; requests are serialised by a lock so worker
threads can share it.

Its delta-base cache is the one ``GitRepo.reading_options`` asks for
(``runner.delta_cache_options`` says why).
"""

from __future__ import annotations

import os
import subprocess
import threading
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path

from workbench.errors import WorkbenchError
from workbench.git.runner import git_env, git_executable

_INHERITED: list[subprocess.Popen[bytes]] = []
"""The parent's cat-file processes, as a forked child found them: kept, never used or reaped."""


class CatFile:
    """A ``git cat-file --batch`` process for one repository."""

    def __init__(self, cwd: Path, extra_env: Mapping[str, str] | None = None, options: Sequence[str] = ()) -> None:
        self._cwd = cwd
        self._env = git_env()
        if extra_env:
            self._env.update(extra_env)
        self._lock = threading.Lock()
        self._command = [git_executable(), *options, "cat-file", "--batch"]
        self._start()

    def _start(self) -> None:
        self._owner = os.getpid()
        self._proc = subprocess.Popen(
            self._command,
            cwd=str(self._cwd),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=self._env,
        )
        weakref.finalize(self, _stop, self._proc, self._owner)

    def read(self, oid: str) -> tuple[str, bytes] | None:
        """(type, content) of an object, or None when it does not exist."""
        with self._lock:
            if self._owner != os.getpid():
                # A forked child (the analysis's concurrent stages): the process and its pipes
                # serve the parent, which may be reading at this very moment; the child starts its own
                # (and keeps the parent's object, whose collection would try to reap a process not its child).
                _INHERITED.append(self._proc)
                self._start()
            stdin, stdout = self._proc.stdin, self._proc.stdout
            if stdin is None or stdout is None or self._proc.poll() is not None:
                raise WorkbenchError("git cat-file stopped unexpectedly")
            stdin.write(oid.encode("ascii") + b"\n")
            stdin.flush()
            header = stdout.readline()
            if not header or header.endswith(b" missing\n"):
                return None
            _, kind, size = header.split()
            data = stdout.read(int(size))
            stdout.read(1)
            return kind.decode("ascii"), data


def _stop(proc: subprocess.Popen[bytes], owner: int) -> None:
    if owner == os.getpid() and proc.poll() is None:
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
