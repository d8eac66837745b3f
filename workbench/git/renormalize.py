"""What ``merge.renormalize`` does to a merge's sides, as git itself computes it.

With it, git's content merge (a file both sides changed) first passes each
of the three blobs through a checkout and a fresh ``git add`` (smudge, then
clean, ignoring the index), merges those, and stages the merged bytes.  The
model merges the blobs as stored, so its result can be made git's only when
that pass maps every line the same way whatever side it came from: turning
CRLF into LF.  A side git leaves alone while another converts (auto-detected
as binary: a lone CR), a clean filter or ``ident`` is not modelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from workbench.git.repo import GitRepo
from workbench.git.runner import run_git
from workbench.git.worktree import checkout_form


class Renormalization(str, Enum):
    """How ``merge.renormalize`` changes the sides of one content merge."""

    NONE = "none"
    """Not set, or it leaves every side as it is."""
    CRLF_TO_LF = "crlf-to-lf"
    """Each side's CRLF line ends become LF and nothing else changes: so do the merged result's."""
    UNMODELLED = "unmodelled"
    """Anything else: the result git stages cannot be re-derived from the model's."""


def renormalizes(repo: GitRepo) -> bool:
    """Whether ``merge.renormalize`` is set (as git reads a boolean)."""
    return repo.config_flag("merge.renormalize")


def renormalization(repo: GitRepo, path: str, sides: Sequence[bytes]) -> tuple[Renormalization, tuple[bytes, ...]]:
    """How git's content merge of ``sides`` (base, dev, main: what exists) at ``path`` renormalizes them,
    and the sides as git merges them."""
    if not renormalizes(repo):
        return Renormalization.NONE, tuple(sides)
    merged = tuple(renormalized(repo, path, data) for data in sides)
    if all(after == data for after, data in zip(merged, sides, strict=True)):
        return Renormalization.NONE, merged
    if all(after == data.replace(b"\r\n", b"\n") for after, data in zip(merged, sides, strict=True)):
        return Renormalization.CRLF_TO_LF, merged
    return Renormalization.UNMODELLED, merged  # one side kept its CRLFs while another lost them, or a filter


def renormalized(repo: GitRepo, path: str, data: bytes) -> bytes:
    """``data`` checked out at ``path`` and cleaned again ignoring the index, as ``merge.renormalize`` does.

    git's safer autocrlf rule keeps CRs when the index's blob has some;
    renormalization ignores it, which ``hash-object`` over an empty index
    reproduces.
    """
    # written where git cannot see (so never freshens) the repository's objects, read back with them
    env = {**repo.object_sink(), "GIT_INDEX_FILE": str(repo.scratch_dir() / "renormalize.no-index")}
    proc = run_git(repo.run_dir, ["hash-object", "-w", f"--path={path}", "--stdin"],
                   input_bytes=checkout_form(repo, path, data), extra_env=env)
    oid = proc.stdout.decode("ascii").strip()
    return run_git(repo.run_dir, ["cat-file", "blob", oid], extra_env=repo.object_quarantine()).stdout
