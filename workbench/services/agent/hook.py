"""``gate --hook``: what git (or the pre-commit framework) says is being pushed, and the sync merge in each.

git runs a pre-push hook with one line per ref on stdin
(``<local ref> <local sha> <remote ref> <remote sha>``); the pre-commit
framework reads those lines itself and passes the pushed commit as
``PRE_COMMIT_TO_REF`` (and the remote as ``PRE_COMMIT_REMOTE_NAME``).  A
deleted ref (all zeros) pushes nothing to check.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from workbench.errors import WorkbenchError

_ZERO = re.compile(r"^0+$")
_SHA = re.compile(r"^[0-9a-fA-F]{40}([0-9a-fA-F]{24})?$")


@dataclass(frozen=True, slots=True)
class Pushed:
    """One ref being pushed: where from, and the commit."""

    local_ref: str
    sha: str


def pushed(stdin: str, environ: Mapping[str, str] = os.environ) -> list[Pushed]:
    """The refs a push updates (deletions left out); ``WorkbenchError`` for a line that is not git's."""
    to_ref = environ.get("PRE_COMMIT_TO_REF", "").strip()
    if to_ref and not stdin.strip():
        if not _SHA.match(to_ref) or _ZERO.match(to_ref):
            return []
        return [Pushed(environ.get("PRE_COMMIT_LOCAL_BRANCH", "HEAD"), to_ref)]
    found: list[Pushed] = []
    for number, line in enumerate(stdin.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 4 or not _SHA.match(parts[1]) or not _SHA.match(parts[3]):
            raise WorkbenchError(f"pre-push input line {number} is not '<local ref> <sha> <remote ref> <sha>'")
        if _ZERO.match(parts[1]):
            continue
        found.append(Pushed(parts[0], parts[1]))
    return found


def remote_name(environ: Mapping[str, str] = os.environ) -> str:
    """The remote pushed to, as the pre-commit framework names it (git's hook line passes none here)."""
    return environ.get("PRE_COMMIT_REMOTE_NAME", "").strip() or "origin"
