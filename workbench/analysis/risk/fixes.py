"""Which commit after the sync merge wrote what the result holds at a hunk (``--result`` later than the merge).

The result's lines of each hunk are blamed over ``merge..result``; a hunk
whose lines were written by exactly one commit on the result's first-parent
line (the sync branch's fixes, not dev's work a later merge of dev brought
in) was fixed by that commit: its item is that fix, decided with it.
"""

from __future__ import annotations

from collections.abc import Iterable

from workbench.analysis.blame import LineMapper, attribute
from workbench.analysis.model import FileAnalysis
from workbench.git.types import SideHistory

HunkRef = tuple[str, int]


def first_parents(history: SideHistory) -> set[str]:
    """The commits on the result's first-parent line back to the merge."""
    chain: set[str] = set()
    sha: str | None = history.tip
    while sha is not None and history.in_range(sha):
        chain.add(sha)
        parents = history.parents[sha]
        sha = parents[0] if parents else None
    return chain


def fixed_by(files: Iterable[FileAnalysis], later: SideHistory, mapper: LineMapper) -> dict[HunkRef, str]:
    """For each hunk of a file changed after the merge, the one fix commit that wrote its result lines."""
    chain = first_parents(later)
    found: dict[HunkRef, str] = {}
    for entry in files:
        if not entry.later or later.blobs.get(entry.path, {}).get(later.tip) is None:
            continue
        spans = [(h.index, h.result.start - 1, h.result.end) for h in entry.all_hunks
                 if h.result is not None and not h.result.empty]
        if not spans:
            continue
        writers = attribute(later, entry.path, sorted({n for _, lo, hi in spans for n in range(lo, hi)}), mapper)
        for index, lo, hi in spans:
            shas = {writers[n] for n in range(lo, hi) if n in writers}
            if len(shas) == 1 and (sha := next(iter(shas))) in chain:
                found[(entry.path, index)] = sha
    return found
