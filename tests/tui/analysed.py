"""One analysis per distinct sample repository for the whole session: app tests share it.

Analysing the demo sample costs far more than driving the app over it, and
most app tests open an untouched copy of the same sample.  Each test still
gets its own copy (so a test that writes, or keeps a journal, changes only
its own), but the analysis is looked up by what the analysis is a function
of: every byte under the repository (work tree and ``.git`` alike) and the
``GIT_*`` variables that reach git.  A test that changed its copy before
the app opens it gets a fresh analysis of its own.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import replace
from pathlib import Path

from workbench.analysis.model import SyncAnalysis
from workbench.git.repo import GitRepo
from workbench.git.runner import git_variables
from workbench.services.sync import SyncRequest, open_sync
from workbench.services.sync_process import Opener, Progress


def repository_bytes(path: Path) -> str:
    """A digest of every file and symlink under ``path`` (names, kinds and contents), in a fixed order."""
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files + [d for d in dirs if os.path.islink(os.path.join(root, d))]):
            full = os.path.join(root, name)
            digest.update(os.path.relpath(full, path).encode("utf-8", "surrogateescape") + b"\0")
            if os.path.islink(full):
                digest.update(b"link\0" + os.readlink(full).encode("utf-8", "surrogateescape") + b"\0")
            else:
                digest.update(b"file\0%o\0" % (os.stat(full).st_mode & 0o111))
                digest.update(Path(full).read_bytes() + b"\0")
    digest.update(repr(git_variables()).encode())
    return digest.hexdigest()


class SharedAnalyses:
    """Analyses of the sample repositories the session's app tests opened, by ``repository_bytes``."""

    def __init__(self) -> None:
        self._by_bytes: dict[str, SyncAnalysis] = {}
        self.computed = 0
        """How many analyses were computed (the rest were shared)."""

    def opener(self, path: Path) -> Opener:
        """What ``Workspace.open`` analyses with: the shared analysis of ``path``'s bytes, computed on first use.

        Loading hears no progress either way (as with an analysis the persistent cache holds), so a test sees
        the same app whether it came first or not; tests of the loading itself open without sharing."""

        def open_shared(request: SyncRequest, _progress: Progress) -> tuple[GitRepo, SyncAnalysis]:
            assert request == SyncRequest(repo=path), "only a plain request for the sample is shared"
            key = repository_bytes(path)
            known = self._by_bytes.get(key)
            if known is None:
                repo, analysis = open_sync(request)
                self._by_bytes[key] = analysis
                self.computed += 1
                return repo, analysis
            repo = GitRepo.open(path)
            return repo, replace(known, repo_path=str(repo.workdir or repo.gitdir))

        return open_shared
