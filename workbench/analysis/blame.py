"""Which commit since the merge base last touched each line (blame, range-limited).

Lines are passed from a commit to its parents the way ``git blame`` does it:
to a parent with the same blob wholesale, otherwise through a line diff,
first parent first; lines no parent has were written by the commit.  Lines
that reach a commit outside the range came from the merge base (or from the
other branch through an earlier sync) and stay unattributed.
``attribute_hunks`` gives hunks (conflicts and edits alike) their commits.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from workbench.analysis.model import Hunk, Side
from workbench.analysis.xdiff import Edit, MergeResult, Script
from workbench.git.types import SideHistory, SyncSnapshot


def touching_commits(history: SideHistory, path: str) -> tuple[str, ...]:
    """Commits in range whose blob of ``path`` differs from every parent's, newest first."""
    blob = history.blobs.get(path, {}).get
    parents_of = history.parents
    found = []
    for sha in history.commits:  # every commit of the side, for every file: the one-parent case without a generator
        mine = blob(sha)
        parents = parents_of[sha]
        if len(parents) == 1:
            if blob(parents[0]) != mine:
                found.append(sha)
        elif not parents:
            if mine is not None:
                found.append(sha)
        elif all(blob(parent) != mine for parent in parents):
            found.append(sha)
    return tuple(found)


LineChanges = Callable[[str, str], Sequence[Edit]]


class LineMapper:
    """Where each line of a newer blob came from in an older one, cached per pair.

    ``line_changes(old, new)`` gives the diff as 0-based (i1, chg1, i2, chg2)
    runs; the git layer computes it in C, so blame over hundreds of versions
    never splits or diffs blobs in Python.
    """

    def __init__(self, line_changes: LineChanges) -> None:
        self._changes = line_changes
        self._cache: dict[tuple[str, str], _Alignment] = {}

    def alignment(self, old: str, new: str) -> _Alignment:
        key = (old, new)
        found = self._cache.get(key)
        if found is None:
            found = _Alignment(self._changes(old, new))
            self._cache[key] = found
        return found

    def alignments(self) -> dict[tuple[str, str], _Alignment]:
        """Every alignment made so far, by (old, new) blob id (what a forked child sends back)."""
        return dict(self._cache)

    def learn(self, alignments: dict[tuple[str, str], _Alignment]) -> None:
        """Keep alignments another process made (the same diffs: blobs never change)."""
        for key, found in alignments.items():
            self._cache.setdefault(key, found)


class _Alignment:
    """Maps new-line indexes to old ones through a list of changed runs."""

    __slots__ = ("_ends", "_runs", "_shifts")

    def __init__(self, runs: Sequence[Edit]) -> None:
        self._runs = runs
        self._ends = [i2 + chg2 for _, _, i2, chg2 in runs]
        self._shifts = [(i2 + chg2) - (i1 + chg1) for i1, chg1, i2, chg2 in runs]

    def old_line(self, new: int) -> int | None:
        """The old index of new line ``new``, or None if the diff changed it."""
        k = bisect_right(self._ends, new) - 1
        nxt = k + 1
        if nxt < len(self._runs):
            _, _, i2, chg2 = self._runs[nxt]
            if i2 <= new < i2 + chg2:
                return None
        return new - self._shifts[k] if k >= 0 else new


def attribute(
    history: SideHistory,
    path: str,
    lines: Iterable[int],
    mapper: LineMapper,
) -> dict[int, str]:
    """0-based line index in the tip's blob -> commit that introduced it.

    Lines missing from the answer predate the range (base or other side).
    """
    blobs = history.blobs.get(path, {})
    pending: dict[str, dict[int, set[int]]] = {history.tip: {n: {n} for n in lines}}
    found: dict[int, str] = {}
    for sha in history.commits:
        current = pending.pop(sha, None)
        if not current:
            continue
        mine = blobs.get(sha)
        parents = history.parents[sha]
        same = next((p for p in parents if blobs.get(p) == mine), None)
        if same is not None:
            _pass(history, pending, same, current)
            continue
        remaining = current
        for parent in parents:
            theirs = blobs.get(parent)
            if not remaining or theirs is None or mine is None:
                continue
            alignment = mapper.alignment(theirs, mine)
            moved: dict[int, set[int]] = {}
            rest: dict[int, set[int]] = {}
            for line, targets in remaining.items():
                old = alignment.old_line(line)
                if old is None:
                    rest[line] = targets
                else:
                    moved.setdefault(old, set()).update(targets)
            _pass(history, pending, parent, moved)
            remaining = rest
        for targets in remaining.values():
            for target in targets:
                found[target] = sha
    return found


def _pass(
    history: SideHistory,
    pending: dict[str, dict[int, set[int]]],
    parent: str,
    lines: dict[int, set[int]],
) -> None:
    if not lines or not history.in_range(parent):
        return
    into = pending.get(parent)
    if into is None:
        pending[parent] = lines
        return
    for line, targets in lines.items():
        existing = into.get(line)
        if existing is None:
            into[line] = targets
        else:
            existing.update(targets)


def attribute_hunks(
    hunks: tuple[Hunk, ...],
    merge: MergeResult | None,
    snapshot: SyncSnapshot,
    dev: Side,
    main: Side,
    mapper: LineMapper,
) -> tuple[Hunk, ...]:
    """Fill each hunk's dev_commits/main_commits from range-limited blame.

    Only lines that differ from the merge base are chased: a line the side
    kept from the base (same place, same text) predates the range, and
    following it back to the boundary would cost a walk through every
    version of the file for no answer.
    """
    if not hunks or merge is None:
        return hunks
    dev_lines = _changed_lines(merge.ours_script, [(h.dev.start - 1, h.dev.end) for h in hunks])
    main_lines = _changed_lines(merge.theirs_script, [(h.main.start - 1, h.main.end) for h in hunks])
    dev_found = _blame(snapshot.dev_history, dev.path, dev_lines, mapper)
    main_found = _blame(snapshot.main_history, main.path, main_lines, mapper)
    dev_order, main_order = _order(snapshot.dev_history, dev_found), _order(snapshot.main_history, main_found)
    return tuple(
        replace(
            hunk,
            dev_commits=_ordered(dev_order, dev_found, hunk.dev.start - 1, hunk.dev.end),
            main_commits=_ordered(main_order, main_found, hunk.main.start - 1, hunk.main.end),
        )
        for hunk in hunks
    )


def _changed_lines(
    script: Script, spans: list[tuple[int, int]]
) -> list[int]:
    """Lines inside ``spans`` that the base->side script marks as changed."""
    changed: set[int] = set()
    for _, _, start, count in script:
        changed.update(range(start, start + count))
    return sorted({n for lo, hi in spans for n in range(lo, hi) if n in changed})


def _blame(history: SideHistory, path: str, lines: list[int], mapper: LineMapper) -> dict[int, str]:
    if not lines or history.blobs.get(path, {}).get(history.tip) is None:
        return {}
    return attribute(history, path, lines, mapper)


def _order(history: SideHistory, found: dict[int, str]) -> dict[str, int]:
    """The position of each commit ``found`` names in the side's history (newest first; a commit outside
    it after all), once per file: a table of the whole history per hunk was most of blame's own time."""
    wanted = set(found.values())
    order = {sha: i for i, sha in enumerate(history.commits) if sha in wanted} if wanted else {}
    return {sha: order.get(sha, len(history.commits)) for sha in wanted}


def _ordered(order: dict[str, int], found: dict[int, str], start: int, end: int) -> tuple[str, ...]:
    """The commits behind lines [start, end), newest first (``order``: see ``_order``)."""
    shas = {found[n] for n in range(start, end) if n in found}
    return tuple(sorted(shas, key=order.__getitem__))
