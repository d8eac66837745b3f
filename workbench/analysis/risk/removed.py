"""Lost lines the other side removed on purpose: rule R3.

A line one side has and the result lost is the other side's intent when the
other side once had it too and one of its own commits removed it (the
commit's parent's version of the file holds the line, its own does not, and
the other side's tip still lacks it).  That commit, with its subject, is the
evidence.  A removal made only by the sync's own commits (an earlier sync's
resolution, the bot's fixes) is nobody's intent and explains nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from workbench.analysis.risk.evidence import Blobs, SideFile
from workbench.analysis.risk.line_compare import weight_of
from workbench.analysis.risk.sync_commits import SyncCommits

MIN_WEIGHT = 8
"""Letters and digits a line needs before its removal elsewhere in the file says anything (``return x`` is
removed somewhere in most histories)."""


def removed_by(other: SideFile, blobs: Blobs, tip_blob: str | None, side: Sequence[bytes], lost: Iterable[int],
               sync: SyncCommits) -> dict[int, str]:
    """For each ``lost`` line (0-based in ``side``) the other side removed on purpose, the newest commit of the
    other side (never the sync's) that did."""
    wanted: dict[bytes, list[int]] = {}
    for n in lost:
        line = side[n].strip()
        if weight_of([line]) >= MIN_WEIGHT:
            wanted.setdefault(line, []).append(n)
    if not wanted:
        return {}
    still = blobs.stripped_lines(tip_blob)
    wanted = {line: ns for line, ns in wanted.items() if line not in still}
    found: dict[int, str] = {}
    for version in other.versions:  # newest first
        if not wanted:
            break
        if version.parent_blob is None or version.commit in sync:
            continue
        before = blobs.stripped_lines(version.parent_blob)
        after = blobs.stripped_lines(version.blob)
        for line in [line for line in wanted if line in before and line not in after]:
            for n in wanted.pop(line):
                found[n] = version.commit
    return found
