"""A decided file's bytes as git's merge would stage them under ``merge.renormalize``.

git renormalizes only in a content merge (both sides changed the file):
there, the merge of the renormalized sides is the model's result with the
same CRLF-to-LF pass, when that is all renormalizing does to every side
(``git/renormalize.py``) and git's merge of the renormalized sides has the
model's regions.  A whole-file choice is that side's blob, and a
file git merged by taking one side's blob is never renormalized.
"""

from __future__ import annotations

from workbench.analysis.model import FileAnalysis
from workbench.analysis.xdiff import text_model
from workbench.git.renormalize import Renormalization, renormalization, renormalizes
from workbench.git.repo import GitRepo
from workbench.git.runner import rediffs_shifted
from workbench.git.types import BLOB_MODES
from workbench.resolve.session import Session


def as_git_stages(repo: GitRepo, session: Session, path: str, data: bytes) -> bytes | None:
    """``data`` (the file's decided content) as the merge stages it; None when git's renormalization is not modelled."""
    entry = session.file(path)
    if session.file_choice(path) is not None or not _content_merged(entry) or not renormalizes(repo):
        return data
    sides = [repo.read_blob(side.oid) for side in (entry.base, entry.dev, entry.main) if side.oid is not None]
    found, merged = renormalization(repo, path, sides)
    if found is Renormalization.NONE:
        return data
    if found is Renormalization.UNMODELLED or not _same_regions(entry, merged):
        return None
    return data.replace(b"\r\n", b"\n")


def _same_regions(entry: FileAnalysis, merged: tuple[bytes, ...]) -> bool:
    """Whether git's merge of the renormalized sides has the model's regions (a line whose only change
    is its line end is a change to the model and none to git: then the hunks are not git's)."""
    if entry.merge is None:
        return False
    base, dev, main = (b"", *merged) if entry.base.oid is None else merged
    return text_model(base, dev, main, rediffs_shifted()).chunks == entry.merge.chunks


def _content_merged(entry: FileAnalysis) -> bool:
    """Whether git merged the file's text (both sides changed it), rather than taking one side's blob."""
    base, dev, main = entry.base, entry.dev, entry.main
    if dev.oid is None or main.oid is None or dev.oid == main.oid:
        return False
    if dev.mode not in BLOB_MODES or main.mode not in BLOB_MODES:
        return False
    return base.oid is None or (dev.oid != base.oid and main.oid != base.oid)
