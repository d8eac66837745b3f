"""Line-loss signals: dev's own lines that the result no longer has.

The maintainers' audit compares sorted line sets per file, so a line that
happens to exist anywhere else in the file hides a loss, and a loss cannot
be pinned to a hunk.  Here each hunk's dev lines are looked for near the
hunk in the result (a window of lines around it), and only lines dev itself
wrote (changed since the merge base) count.

Two kinds of loss weigh differently.  A *contested* line replaced base
lines that main replaced too: the sides disagree and ``-X theirs`` picked
one.  A *collateral* line is dev's addition next to (not instead of) what
main changed: nothing on main argues against it, it only fell inside the
conflict, so losing it is much more likely an accident.

A loss is intentional when a main commit deleted the base lines dev had
edited; that commit is named as the evidence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from workbench.analysis.model import Hunk, Signal, SignalKind, Taken
from workbench.analysis.risk.dangling import FileNames
from workbench.analysis.risk.evidence import FileEvidence, labels
from workbench.analysis.risk.line_compare import content_lines, norm, shorten
from workbench.analysis.risk.lost import kept_near, missing, side_changed, window
from workbench.analysis.risk.script_index import holding, replaces_near
from workbench.analysis.risk.signals import kind_weight
from workbench.analysis.xdiff import MergeResult, Script

CONTESTED_WEIGHT = 35
"""Dev's replacement of lines main replaced too: the sides disagreed, and main's
change never saw dev's line (enough for ``high`` on a main-taken hunk)..."""
COLLATERAL_WEIGHT = kind_weight(SignalKind.DEV_ONLY_LINES_DROPPED)
"""...dev's addition beside main's change: nothing on main disagreed."""
PER_LINE = 3
"""Each further line of code dropped..."""
MAX_LINES_BONUS = 24
"""...up to this much."""
NAMES_BONUS = 30
"""The result still needs a name the dropped lines defined, or no longer uses one they used."""
MAX_NAME_LINES = 20
"""Bigger losses speak for themselves; names are looked at for the small ones."""
DATA_WEIGHT = 5
"""Only values (golden numbers, lock entries) or comments were dropped."""
REMOVED_WEIGHT = kind_weight(SignalKind.MAIN_REMOVED_INTENTIONALLY)



@dataclass(frozen=True)
class Dropped:
    """Dev lines of one hunk that are gone: 0-based indexes in dev's file, text, and kind."""

    lines: tuple[int, ...] = ()
    text: tuple[bytes, ...] = ()
    collateral: tuple[bool, ...] = ()
    """Per line: dev added it beside main's change rather than instead of it."""
    prose: frozenset[int] = frozenset()
    """The lines (of ``lines``) inside a docstring in dev's file: words, weighed like comments."""

    def only(self, keep: Sequence[int]) -> Dropped:
        """These dropped lines narrowed to ``keep`` (what no evidence explained)."""
        wanted = set(keep)
        if len(wanted) == len(self.lines):
            return self
        picked = [k for k, n in enumerate(self.lines) if n in wanted]
        return Dropped(tuple(self.lines[k] for k in picked), tuple(self.text[k] for k in picked),
                       tuple(self.collateral[k] for k in picked), self.prose & wanted)

    def code(self) -> list[tuple[int, bytes, bool]]:
        """Each dropped line's index, text and kind (in a code hunk a literal is code too: a flag, a default)."""
        return list(zip(self.lines, self.text, self.collateral, strict=True))


def dev_changed(script: Script, hunk: Hunk) -> list[int]:
    """0-based dev lines of the hunk that differ from the merge base (dev's own work)."""
    return side_changed(script, hunk.dev)


def collateral(own: Script, other: Script, line: int) -> bool:
    """Whether the change of one side (``own``) holding ``line`` leaves alone every base line the other side changed.

    Scripts are (base start, base count, side start, side count).  A
    replacement is contested when the other side replaced an overlapping
    base range; an insertion when it lands strictly inside such a range.
    """
    entry = holding(own, line)  # bisected: a scan per line was quadratic in the hunks
    return entry is None or not replaces_near(other, entry[0], entry[1])


def find_dropped(
    hunk: Hunk,
    merge: MergeResult,
    result_lines: Sequence[bytes] | None,
    data: bool = False,
) -> Dropped:
    """Dev's own content lines in the hunk that the result's text near it lacks.

    Main having the line matters only through the result: a line dev moved
    and main kept in place is lost just the same when the result drops it.
    Without a decided result (the file is gone, or the hunk still has
    conflict markers) main's text stands in for it.  Code
    is compared whitespace-blind; ``data`` (values only) just stripped, as
    good for generated files and much cheaper on large ones.
    """
    key = bytes.strip if data else norm
    kept = kept_near(hunk, result_lines, key)
    if kept is None:  # no result yet (or still conflict markers): what taking main's side would keep
        kept = window(merge.theirs, hunk.main, key)
    lines = missing(merge.ours, dev_changed(merge.ours_script, hunk), kept, key)
    text = tuple(merge.ours[index] for index in lines)
    if data:
        return Dropped(tuple(lines), text, (False,) * len(lines))
    return Dropped(tuple(lines), text, tuple(collateral(merge.ours_script, merge.theirs_script, index) for index in lines),
                   docstring_lines(merge.ours, lines) if any(_QUOTES in line for line in merge.ours[
                       max(0, min(lines, default=0) - DOCSTRING_REACH): max(lines, default=0) + 1]) else frozenset())


def dev_only_lines_dropped(
    hunk: Hunk,
    dropped: Dropped,
    writers: Sequence[str],
    ev: FileEvidence,
    names: FileNames | None,
    data: bool = False,
) -> Signal | None:
    """The hunk loses lines only dev had; more so beside main's change, or when the result needs them.

    A hunk still in conflict has lost nothing yet: the sentence says what
    taking main's side would lose.
    """
    if not dropped.lines:
        return None
    pending = hunk.taken is Taken.UNRESOLVED
    commits = [ev.commit(sha) for sha in writers]
    source = f" (from dev's {labels(commits)})" if commits else ""
    count = len(dropped.lines)
    what, verb = (f"{count} line", "is") if count == 1 else (f"{count} lines", "are")
    gone = f"{verb} lost" if pending else f"{verb} not in the result"
    lead = "if main's side is taken, " if pending else ""
    code = [] if data else _code(dropped, hunk)
    if not code:
        return Signal(
            SignalKind.DEV_ONLY_LINES_DROPPED,
            f"{lead}{what} of values or comments dev wrote here{source} {gone}, "
            f"e.g. \u201c{shorten(dropped.text[0])}\u201d",
            tuple(writers),
            DATA_WEIGHT,
        )
    beside = any(side for _, _, side in code)
    weight = (COLLATERAL_WEIGHT if beside else CONTESTED_WEIGHT) + min(MAX_LINES_BONUS, PER_LINE * (len(code) - 1))
    how = "beside main's change" if beside else "where main changed the same lines"
    message = f"{lead}{what} dev wrote here{source}, {how}, {gone}, e.g. \u201c{shorten(code[0][1])}\u201d"
    needed = still_needed(hunk, dropped, names)
    if needed:
        weight += NAMES_BONUS
        message += "; " + needed
    return Signal(SignalKind.DEV_ONLY_LINES_DROPPED, message, tuple(writers), weight)


def _code(dropped: Dropped, hunk: Hunk) -> list[tuple[int, bytes, bool]]:
    return [(n, line, side) for n, line, side in dropped.code()
            if n not in dropped.prose and not _comment_only(line, hunk)]


_QUOTES = b'"""'
DOCSTRING_REACH = 400
"""How far above a dropped line its docstring may open: a cheap test before any line is read more closely."""
_OPENER = re.compile(rb"""[rRuU]?("{3}|'{3})""")


def docstring_lines(lines: Sequence[bytes], wanted: Sequence[int]) -> frozenset[int]:
    """Which of ``wanted`` (0-based) lie in a docstring: a triple-quoted string that is a statement of its
    own, opening a line right after a line ending in ``:`` (a ``def`` or ``class``) or at the top of the file.

    A line-based reading from ``DOCSTRING_REACH`` lines above the first (no parser: the risk stage asks it
    only near dropped lines), good for the docstrings people write; a string that is an argument or a value
    never counts.
    """
    want = set(wanted)
    found: set[int] = set()
    index = max(0, min(want, default=0) - DOCSTRING_REACH)
    after_header = index == 0
    last = max(want, default=-1)
    while index <= last and index < len(lines):
        stripped = lines[index].strip()
        opener = _OPENER.match(stripped) if after_header else None
        if opener is not None:
            quote = opener.group(1)
            end = index if quote in stripped[opener.end():] else _closing(lines, index + 1, quote)
            if end is None:
                break
            found.update(n for n in range(index, end + 1) if n in want)
            index, after_header = end + 1, False
            continue
        if stripped and not stripped.startswith(b"#"):
            after_header = stripped.endswith(b":")
        index += 1
    return frozenset(found)


def _closing(lines: Sequence[bytes], start: int, quote: bytes) -> int | None:
    for index in range(start, len(lines)):
        if quote in lines[index]:
            return index
    return None


def still_needed(hunk: Hunk, dropped: Dropped, names: FileNames | None) -> str:
    """What the result still needs from the dropped code lines, as a clause ('' when nothing, or not Python)."""
    if names is None or not name_lines(dropped):
        return ""
    code = {n for n, _, _ in _code(dropped, hunk)}
    return names.clause(code, hunk.taken is Taken.UNRESOLVED) if code else ""


def _comment_only(line: bytes, hunk: Hunk) -> bool:
    """Whether dev only reworded a comment: a comment line, or one whose code is already in the base's lines here."""
    return comment_only(line, hunk.base_text)


def comment_only(line: bytes, base: Sequence[bytes]) -> bool:
    """A whole-line comment, or a line whose code (before ``#``) the base already has here: only words changed."""
    if b"#" not in line:
        return False
    code = norm(line.split(b"#", 1)[0])
    if not code:  # "# words", not a C preprocessor line ("#include")
        return line.strip()[1:2] in (b"", b" ", b"#", b"!", b":")
    return any(norm(other.split(b"#", 1)[0]) == code for other in base)


def name_lines(dropped: Dropped) -> tuple[int, ...]:
    """The dropped lines whose names are worth parsing the file for (see ``MAX_NAME_LINES``)."""
    return dropped.lines if len(dropped.lines) <= MAX_NAME_LINES else ()


REMOVAL_WORDS = re.compile(
    r"\b(?:remov\w*|delet\w*|drop\w*|deprecat\w*|clean\w*|refactor\w*|renam\w*|mov(?:e|es|ed|ing)|"
    r"convert\w*|migrat\w*|replac\w*|revert\w*|unused|obsolete|legacy)\b",
    re.I,
)
"""A commit title that says it removes or restructures code: its deletions are its purpose."""


def main_removed_intentionally(hunk: Hunk, dropped: Dropped, ev: FileEvidence, needed: bool) -> Signal | None:
    """Main deleted the base lines dev had edited here; the deleting commit is the evidence.

    The deletion counts as intent when the commit says it removes or
    restructures code (``REMOVAL_WORDS``), and when the result does not
    still need the dropped lines (``needed``: a name they defined is still
    used): a commit adding a feature that deleted these lines in passing,
    or a removal the rest of the result contradicts, is named with weight 0.
    """
    base = content_lines(hunk.base_text)
    if not base or not dropped.lines:
        return None
    if len(content_lines(hunk.main_text)) * 4 > len(base):
        return None  # main rewrote these lines rather than deleting them
    deleters = ev.main_deleters(hunk)
    if not deleters:
        return None
    commits = [ev.commit(sha) for sha in deleters]
    go = "would go" if hunk.taken is Taken.UNRESOLVED else "go"
    subject = shorten(commits[0].subject, 70)
    if needed:
        message = f"main's {labels(commits)} deleted this code (\u201c{subject}\u201d), but the result still needs it"
        return Signal(SignalKind.MAIN_REMOVED_INTENTIONALLY, message, tuple(deleters), 0)
    if not any(REMOVAL_WORDS.search(c.subject) for c in commits):
        message = (
            f"main's {labels(commits)} deleted this code while doing something else (\u201c{subject}\u201d): "
            "no sign it meant to drop dev's edits"
        )
        return Signal(SignalKind.MAIN_REMOVED_INTENTIONALLY, message, tuple(deleters), 0)
    return Signal(
        SignalKind.MAIN_REMOVED_INTENTIONALLY,
        f"main's {labels(commits)} deleted this code on purpose (\u201c{subject}\u201d); dev's edits to it {go} with it",
        tuple(deleters),
        REMOVED_WEIGHT,
    )
