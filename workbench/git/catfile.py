"""Reading blobs through one long-lived ``git cat-file --batch`` process.

Why not libgit2: reading a file's historical versions walks pack delta
chains, and git's delta-base cache makes that 4-10x faster than libgit2's
(measured: 1,149 blobs of Megatron-LM sync #4291 in 0.18 s vs 0.71 s).
One process serves every read; requests are serialised by a lock so worker
threads can share it.
"""

from __future__ import annotations

import subprocess
import threading
import weakref
from collections.abc import Mapping
from pathlib import Path

from workbench.errors import WorkbenchError
from workbench.git.runner import git_env, git_executable


class CatFile:
    """A ``git cat-file --batch`` process for one repository."""

    def __init__(self, cwd: Path, extra_env: Mapping[str, str] | None = None) -> None:
        env = git_env()
        if extra_env:
            env.update(extra_env)
        self._proc = subprocess.Popen(
            [git_executable(), "cat-file", "--batch"],
            cwd=str(cwd),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self._lock = threading.Lock()
        weakref.finalize(self, _stop, self._proc)

    def read(self, oid: str) -> tuple[str, bytes] | None:
        """(type, content) of an object, or None when it does not exist."""
        with self._lock:
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


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
