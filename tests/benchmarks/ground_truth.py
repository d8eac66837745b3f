"""What the maintainers restored after a real sync: the ground truth the risk score is judged on.

For a sync whose bot merge is M (parents dev D, main N): replay the raw
``-X theirs`` merge of D and N (``git merge-tree`` for clean paths, the
engine's ``-X theirs`` rendering for conflicted ones), then look at what the
maintainers shipped: the committed merge (when fixes were folded into it) and
each later fix commit.  A *restored line* is a line the shipped version adds
to the replay that is on dev's parent and was lost (not on main's parent, or
on both but missing from the replay), and that the fix itself wrote (for fix
commits).  Blank and bracket-only lines are ignored.  Restored lines are
grouped into *regions* by the diff hunks of replay -> shipped.

The baseline is the maintainers' own audit: per file, the lines on dev, not
on main, not in the merge (sorted line sets, like ``comm``); a hunk is
flagged when one of its dev lines is in that set.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from workbench.analysis.hunks import theirs_layout
from workbench.analysis.model import FileAnalysis, Hunk, SyncAnalysis
from workbench.analysis.xdiff import Algorithm, diff_lines, split_lines
from workbench.git.repo import GitRepo
from workbench.git.types import SyncSnapshot

_ALNUM = re.compile(rb"[A-Za-z0-9]")

KEEP_DEV_FILES = frozenset({"pyproject.toml", "uv.lock", "docker/Dockerfile.ci.dev", ".github/CODEOWNERS"})
"""Megatron-LM's keep-dev policy files: restored wholesale by convention (the policy stage's job)."""


@dataclass(frozen=True)
class SyncCase:
    """One historical sync: the bot's merge commit and the fixes that followed it."""

    name: str
    merge: str
    fixes: tuple[str, ...]
    """The fix commits the issue names."""
    branch_head: str
    """The sync branch as shipped (second parent of the squash-merge into dev)."""


DEVELOPMENT = (
    SyncCase("#4291", "66e55f9884", ("817b2c4100", "2be925cabe", "2a68a9cc7c", "e56a6c0514"), "01b70a14cb"),
    SyncCase("#4716", "bfad45c8da", ("bfce39d267",), "e04e1c2d8b"),
)
"""The only syncs thresholds may be tuned on; every other sync is held out."""


def branch_fixes(repo: GitRepo, case: SyncCase) -> tuple[str, ...]:
    """Every commit on the sync branch after the bot's merge, oldest first (first parents)."""
    merge, head = repo.resolve(case.merge), repo.resolve(case.branch_head)
    found: list[str] = []
    while head != merge:
        found.append(head)
        parents = repo.parents(head)
        if not parents:
            raise ValueError(f"{case.branch_head} does not descend from {case.merge}")
        head = parents[0]
    return tuple(reversed(found))


@dataclass(frozen=True)
class Region:
    """Restored lines in one diff hunk of replay -> shipped (0-based lines of the replay)."""

    path: str
    source: str
    start: int
    end: int
    lines: tuple[bytes, ...]


def _norm(line: bytes) -> bytes:
    return b" ".join(line.split())


def _content(lines: Iterable[bytes]) -> set[bytes]:
    return {n for n in (_norm(line) for line in lines) if _ALNUM.search(n)}


class Replay:
    """The raw ``-X theirs`` merge of the sync's parents, file by file."""

    def __init__(self, repo: GitRepo, snapshot: SyncSnapshot, analysis: SyncAnalysis) -> None:
        self._repo = repo
        self._tree = snapshot.merge_tree.tree
        self._files = {f.path: f for f in analysis.files}

    def changed_in(self, rev: str) -> list[str]:
        """Paths whose committed version differs from the replay (conflicted paths always do)."""
        replayed = self._repo.tree_paths(self._tree)
        committed = self._repo.tree_paths(self._repo.tree_of(rev))
        return sorted(p for p in committed if p in self._files or replayed.get(p) != committed[p])

    def file(self, path: str) -> bytes | None:
        entry = self._files.get(path)
        if entry is not None:
            return entry.theirs_bytes
        found = self._repo.tree_entry_in_tree(self._tree, path)
        return self._repo.read_blob(found[0]) if found else None


def _blob(repo: GitRepo, rev: str, path: str) -> bytes | None:
    found = repo.tree_entry(repo.resolve(rev), path)
    return repo.read_blob(found[0]) if found else None


def _changed_paths(repo: GitRepo, old: str, new: str) -> list[str]:
    before = repo.tree_paths(repo.tree_of(repo.resolve(old)))
    after = repo.tree_paths(repo.tree_of(repo.resolve(new)))
    return sorted(p for p in after if before.get(p) != after[p])


def restored_regions(repo: GitRepo, case: SyncCase, replay: Replay, fixes: tuple[str, ...]) -> list[Region]:
    """Every region the maintainers restored, from the committed merge and each of ``fixes``."""
    merge = repo.resolve(case.merge)
    dev, main = repo.parents(merge)
    regions: list[Region] = []
    shipped = [(merge, None)] + [(repo.resolve(fix), repo.parents(repo.resolve(fix))[0]) for fix in fixes]
    for rev, before in shipped:
        paths = replay.changed_in(rev) if before is None else _changed_paths(repo, before, rev)
        for path in paths:
            regions.extend(_regions(repo, path, rev, before, dev, main, replay))
    return _dedupe(regions)


def _regions(
    repo: GitRepo, path: str, rev: str, before: str | None, dev: str, main: str, replay: Replay
) -> list[Region]:
    shipped = _blob(repo, rev, path)
    dev_text = _blob(repo, dev, path)
    if shipped is None or dev_text is None:
        return []
    replayed = split_lines(replay.file(path) or b"")
    lines = split_lines(shipped)
    on_dev = _content(split_lines(dev_text))
    on_main = _content(split_lines(_blob(repo, main, path) or b""))
    in_replay = _content(replayed)
    written: set[bytes] | None = None
    if before is not None:
        old = split_lines(_blob(repo, before, path) or b"")
        written = {_norm(line) for c in diff_lines(old, lines) for line in lines[c.i2 : c.i2 + c.chg2]}
    found = []
    for change in diff_lines(replayed, lines, Algorithm.MYERS):
        kept = tuple(
            line
            for line in lines[change.i2 : change.i2 + change.chg2]
            if (n := _norm(line)) in on_dev
            and (n not in on_main or n not in in_replay)
            and (written is None or n in written)
        )
        if kept:
            found.append(Region(path, rev, change.i1, change.i1 + change.chg1, kept))
    return found


def _dedupe(regions: list[Region]) -> list[Region]:
    """A region restored by the merge and again by a fix counts once (the first)."""
    kept: list[Region] = []
    for region in regions:
        if not any(r.path == region.path and _overlap(r.start, r.end, region.start, region.end) for r in kept):
            kept.append(region)
    return kept


def _overlap(a0: int, a1: int, b0: int, b1: int) -> bool:
    """Half-open ranges overlap; an empty range touches a range that contains or borders it."""
    if a0 == a1 or b0 == b1:
        return a0 <= b1 and b0 <= a1
    return a0 < b1 and b0 < a1


def hunks_of(region: Region, entry: FileAnalysis | None) -> list[Hunk]:
    """The ``-X theirs`` hunks a region sits in (by their span in the replay)."""
    if entry is None or entry.merge is None:
        return []
    _, spans = theirs_layout(entry.merge)
    return [
        hunk
        for hunk, span in zip(entry.hunks, spans, strict=True)
        if _overlap(region.start, region.end, span.start, span.start + span.count)
    ]


def shipped_version(repo: GitRepo, shipped: str, entry: FileAnalysis) -> str:
    """Which version of a file the shipped sync holds: ``deleted``, ``dev's``, ``main's`` or ``other``."""
    found = repo.tree_entry(shipped, entry.path)
    if found is None:
        return "deleted"
    if found[0] == entry.dev.oid:
        return "dev's"
    return "main's" if found[0] == entry.main.oid else "other"


def audit_counts(analysis: SyncAnalysis, replay: Replay) -> dict[tuple[str, int], int]:
    """The maintainers' line-set audit, per hunk: dev lines not on main and not in the merge."""
    counts: dict[tuple[str, int], int] = {}
    for entry in analysis.files:
        if entry.merge is None:
            continue
        merged = _content(split_lines(replay.file(entry.path) or b""))
        suspects = _content(entry.merge.ours) - _content(entry.merge.theirs) - merged
        for hunk in entry.hunks:
            counts[(entry.path, hunk.index)] = sum(1 for line in hunk.dev_text if _norm(line) in suspects)
    return counts
