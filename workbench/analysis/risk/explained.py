"""Evidence that a side's lost lines are not lost after all, or are lost on purpose: rules R1-R3 together.

For one file and one side, the lines a hunk lost are narrowed to those no
evidence explains, each explanation said in a signal with what shows it:

* ``layout-only`` (R1, Python): the result holds the same tokens laid out
  anew, or still imports every name an import line imported (``layout.py``);
* ``moved-in-result`` (R2): a run of them is elsewhere in the result, as
  often as the side's file has it (``moved.py``);
* ``removed-on-purpose`` (R3): the other side once had the line and one of
  its own commits, never the sync's, removed it (``removed.py``).

Then statement closure (Python): a statement that still loses any line keeps
every lost line it has, explained or not, so a reviewer reads it whole.
The signals weigh nothing: the lines they explain are simply no longer lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from workbench.analysis.model import Hunk, Signal, SignalKind, Whose
from workbench.analysis.readers import git_blob_id
from workbench.analysis.risk.evidence import FileEvidence, labels
from workbench.analysis.risk.layout import kept_imports, kept_positional
from workbench.analysis.risk.line_compare import shorten
from workbench.analysis.risk.moved import Elsewhere
from workbench.analysis.risk.removed import removed_by
from workbench.analysis.risk.statements import statement_starts
from workbench.analysis.risk.sync_commits import SyncCommits
from workbench.analysis.xdiff import joined
from workbench.wording import plural


@dataclass(frozen=True)
class Narrowed:
    """One side's lost lines of a hunk after the evidence, and the signals that say what it explained."""

    lost: tuple[int, ...]
    signals: tuple[Signal, ...] = ()


@dataclass
class SideExplainer:
    """One side of one file, asked about each hunk's lost lines (what it reads is read once per file)."""

    ev: FileEvidence
    whose: Whose
    lines: Sequence[bytes]
    """The side's file, line by line."""
    result: Sequence[bytes]
    sync: SyncCommits
    other: Sequence[bytes] = ()
    """The other side's file: what it already holds near the hunk, or elsewhere, explains nothing of this side's."""
    _statements: dict[int, int] = field(default_factory=dict, repr=False)

    @property
    def _other(self) -> Whose:
        return "main" if self.whose == "dev" else "dev"

    @cached_property
    def _elsewhere(self) -> Elsewhere:
        return Elsewhere(self.lines, self.result)

    @cached_property
    def _other_elsewhere(self) -> Elsewhere:
        return Elsewhere(self.lines, self.other)

    def _other_lays_out(self, hunk: Hunk, lines: list[int]) -> set[int]:
        """Of ``lines``, those the other side's own file already holds laid out anew near the hunk (or imports):
        a result holding them holds the other side's text, and this side's lines, layout and all, are lost
        with it (a reviewer restores them), so the layout explains nothing."""
        if not self.other:
            return set()
        where = hunk.dev if self.whose == "dev" else hunk.main
        there = hunk.main if self.whose == "dev" else hunk.dev
        found = kept_positional(self.lines, where, lines, self.other, there)
        rest = [n for n in lines if n not in found]
        if rest:
            other_data = joined(self.other)
            found |= kept_imports(self.ev.file.path, self._oid, self._data, self.lines, rest,
                                  git_blob_id(other_data), other_data)
        return found

    @cached_property
    def _data(self) -> bytes:
        return joined(self.lines)

    @cached_property
    def _oid(self) -> str:
        side = self.ev.file.dev if self.whose == "dev" else self.ev.file.main
        return side.oid or git_blob_id(self._data)

    @cached_property
    def _result_data(self) -> bytes:
        return joined(self.result)

    @cached_property
    def _result_oid(self) -> str:
        return git_blob_id(self._result_data)

    def narrow(self, hunk: Hunk, lost: Sequence[int]) -> Narrowed:
        """``lost`` (0-based lines of the side's file) without what the evidence explains."""
        if not lost:
            return Narrowed(tuple(lost))
        python = self.ev.file.is_python
        where = hunk.dev if self.whose == "dev" else hunk.main
        layout: set[int] = set()
        if python:
            layout = kept_positional(self.lines, where, lost, self.result, hunk.result)
            rest = [n for n in lost if n not in layout]
            if rest:
                layout |= kept_imports(self.ev.file.path, self._oid, self._data, self.lines, rest,
                                       self._result_oid, self._result_data)
            if layout:
                layout -= self._other_lays_out(hunk, sorted(layout))
        rest = [n for n in lost if n not in layout]
        moved = self._elsewhere.kept(rest) if rest else set()
        if moved:
            moved -= self._other_elsewhere.kept(sorted(moved))
        rest = [n for n in rest if n not in moved]
        removed = self._removed(rest) if rest else {}
        left = {n for n in rest if n not in removed}
        if python and left and len(left) < len(lost):
            left = self._closed(set(lost), left)
        return Narrowed(tuple(n for n in lost if n in left), self._signals(
            [n for n in lost if n in layout and n not in left],
            [n for n in lost if n in moved and n not in left],
            {n: sha for n, sha in removed.items() if n not in left},
        ))

    def _removed(self, rest: list[int]) -> dict[int, str]:
        other = self.ev.main if self.whose == "dev" else self.ev.dev
        tip = (self.ev.file.main if self.whose == "dev" else self.ev.file.dev).oid
        return removed_by(other, self.ev.blobs, tip, self.lines, rest, self.sync)

    def _closed(self, lost: set[int], left: set[int]) -> set[int]:
        """Every lost line of a statement that still loses one."""
        wanted = [n for n in lost if n not in self._statements]
        if wanted:
            self._statements.update(statement_starts(self._oid, self._data, self.lines, wanted))
        hot = {self._statements[n] for n in left}
        return {n for n in lost if n in left or self._statements[n] in hot}

    def _signals(self, layout: list[int], moved: list[int], removed: dict[int, str]) -> tuple[Signal, ...]:
        whose, found = self.whose, []
        if layout:
            found.append(Signal(
                SignalKind.LAYOUT_ONLY,
                f"{_lines(layout, self.lines)} of {whose}'s {_are(layout)} in the result laid out anew "
                "(the same tokens, or an import it still makes: what black and isort change)",
            ))
        if moved:
            found.append(Signal(
                SignalKind.MOVED_IN_RESULT,
                f"{_lines(moved, self.lines)} of {whose}'s {_are(moved)} elsewhere in the result, "
                f"as often as {whose}'s file has {'it' if len(moved) == 1 else 'them'}",
            ))
        if removed:
            shas = tuple(dict.fromkeys(removed[n] for n in sorted(removed)))
            commits = [self.ev.commit(sha) for sha in shas]
            what = list(removed)
            found.append(Signal(
                SignalKind.REMOVED_ON_PURPOSE,
                f"{self._other}'s {labels(commits)} removed {_lines(what, self.lines)} of {whose}'s "
                f"(\u201c{shorten(commits[0].subject, 70)}\u201d): losing {'it' if len(what) == 1 else 'them'} "
                f"follows {self._other}'s change",
                shas,
            ))
        return tuple(found)


def _lines(numbers: Sequence[int], text: Sequence[bytes]) -> str:
    """``3 lines (e.g. “x = f(a)”)``."""
    first = min(numbers)
    return f"{plural(len(numbers), 'line')} (e.g. \u201c{shorten(text[first])}\u201d)"


def _are(numbers: Sequence[int]) -> str:
    return "is" if len(numbers) == 1 else "are"

