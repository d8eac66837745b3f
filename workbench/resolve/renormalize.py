"""A decided file's bytes as git's merge would stage them under ``merge.renormalize``.

git renormalizes only in a content merge (both sides changed the file):
there, the merge of the renormalized sides is the model's result with the
same CRLF-to-LF pass, when that is all renormalizing does to every side
(``git/renormalize.py``).  A whole-file choice is that side's blob, and a
file git merged by taking one side's blob is never renormalized.
"""

from __future__ import annotations

from workbench.analysis.model import FileAnalysis
from workbench.git.renormalize import Renormalization, renormalization
from workbench.git.repo import GitRepo
from workbench.git.types import BLOB_MODES
from workbench.resolve.session import Session


def as_git_stages(repo: GitRepo, session: Session, path: str, data: bytes) -> bytes | None:
    """``data`` (the file's decided content) as the merge stages it; None when git's renormalization is not modelled."""
    entry = session.file(path)
    if session.file_choice(path) is not None or not _content_merged(entry):
        return data
    sides = [repo.read_blob(side.oid) for side in (entry.base, entry.dev, entry.main) if side.oid is not None]
    found = renormalization(repo, path, sides)
    if found is Renormalization.UNMODELLED:
        return None
    return data.replace(b"\r\n", b"\n") if found is Renormalization.CRLF_TO_LF else data


def _content_merged(entry: FileAnalysis) -> bool:
    """Whether git merged the file's text (both sides changed it), rather than taking one side's blob."""
    base, dev, main = entry.base, entry.dev, entry.main
    if dev.oid is None or main.oid is None or dev.oid == main.oid:
        return False
    if dev.mode not in BLOB_MODES or main.mode not in BLOB_MODES:
        return False
    return base.oid is None or (dev.oid != base.oid and main.oid != base.oid)
