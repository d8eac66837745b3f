"""Apply per-hunk choices to a conflicted file, byte-exact with git.

Two ways in:

* ``splice_merge`` rebuilds the file from the merge itself: taking dev in
  every hunk gives ``git merge -X ours``, main gives ``-X theirs``, both
  gives ``git merge-file --union``; an undecided hunk keeps its markers.
* ``splice_result`` edits the file as it is now (the bot's ``-X theirs``
  result, or a merge commit amended with fixes): each decided hunk's region
  is replaced and every other byte stays, so fixes outside hunks survive.
* ``splice_conflicted`` edits a file that still holds git's conflict blocks
  (a merge in progress): the blocks, in whatever style and marker size git
  wrote them, are read and the hunks found among them; when they cannot be
  matched, only a whole-side choice is written, from git's own blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from workbench.analysis.conflict_map import Located, locate
from workbench.analysis.conflict_text import Section
from workbench.analysis.model import FileAnalysis, FileStatus, Hunk, HunkKind, Taken
from workbench.analysis.xdiff import ChunkMode, MergeResult, joined, split_lines
from workbench.analysis.xdiff.result import needs_cr


class Choice(str, Enum):
    """What to put in a hunk."""

    MAIN = "main"
    DEV = "dev"
    BOTH = "both"
    """dev's lines, then main's (``git merge-file --union``)."""
    BOTH_MAIN_FIRST = "both-main-first"
    CUSTOM = "custom"
    """Text the user wrote (in $EDITOR or the in-app editor)."""
    RESULT = "result"
    """An edit beyond git's merge: keep what the result holds there."""
    MERGED = "merged"
    """An edit beyond git's merge: restore the text git's automatic merge put there."""


EDIT_ONLY = frozenset({Choice.RESULT, Choice.MERGED})
"""Choices that only mean something for an edit hunk (a conflict has no merged text to restore), but for
``RESULT`` on a conflict resolved by hand in a merge in progress (``keeps_result``)."""


def keeps_result(entry: FileAnalysis, hunk: Hunk) -> bool:
    """Whether ``RESULT`` (keep what the file holds) can decide ``hunk`` of ``entry``: an edit hunk, or a
    conflict of a file a merge in progress left conflicted whose markers someone replaced by text."""
    if hunk.kind is HunkKind.EDIT:
        return True
    return entry.status is FileStatus.CONFLICTED and hunk.result_text is not None and hunk.taken is not Taken.UNRESOLVED


@dataclass(frozen=True, slots=True)
class Decision:
    """A choice for one hunk; ``text`` only for CUSTOM (exact bytes)."""

    choice: Choice
    text: bytes | None = None

    def __post_init__(self) -> None:
        if (self.choice is Choice.CUSTOM) != (self.text is not None):
            raise ValueError("custom decisions, and only they, carry text")


def chosen_text(dev: Sequence[bytes], main: Sequence[bytes], decision: Decision, cr: bool) -> bytes:
    """The bytes a decision puts in place of a hunk (xdiff's newline rules)."""
    if decision.choice is Choice.DEV:
        return b"".join(dev)
    if decision.choice is Choice.MAIN:
        return b"".join(main)
    if decision.choice is Choice.BOTH:
        return _terminated(b"".join(dev), cr) + b"".join(main)
    if decision.choice is Choice.BOTH_MAIN_FIRST:
        return _terminated(b"".join(main), cr) + b"".join(dev)
    if decision.choice in EDIT_ONLY:
        raise ValueError(f"'{decision.choice.value}' decides an edit hunk, not a conflict")
    assert decision.text is not None
    return decision.text


def edit_text(hunk: Hunk, decision: Decision) -> bytes:
    """The bytes a decision puts in place of an edit hunk's result lines."""
    if decision.choice is Choice.RESULT:
        return b"".join(hunk.result_text or ())
    if decision.choice is Choice.MERGED:
        if hunk.merged_text is None:
            raise ValueError(f"hunk {hunk.index + 1}: git's merge of this region is not known")
        return b"".join(hunk.merged_text)
    return chosen_text(hunk.dev_text, hunk.main_text, decision, _uses_crlf((*hunk.dev_text, *hunk.main_text)))


class Replacement(NamedTuple):
    """Lines [start, end) of a file (0-based) and the bytes that replace them."""

    start: int
    end: int
    text: bytes
    order: tuple[int, int] = (0, 0)
    """Where the hunk starts in dev's and main's files: of two insertions at one place (an edit region the
    result emptied beside a conflict it emptied), the one git's merge has first is written first."""


def edit_replacements(edits: Sequence[Hunk], decisions: Sequence[Decision | None]) -> list[Replacement]:
    """Where each decided edit hunk sits in the result and what replaces it there."""
    return [_replacement(hunk, edit_text(hunk, decision))
            for hunk, decision in zip(edits, decisions, strict=True) if decision is not None]


def _replacement(hunk: Hunk, text: bytes) -> Replacement:
    """``text`` in place of the result lines the hunk holds."""
    if hunk.result is None:
        raise ValueError(f"hunk {hunk.index + 1} has no place in the result")
    return Replacement(hunk.result.start - 1, hunk.result.end, text, (hunk.dev.start, hunk.main.start))


def _terminated(data: bytes, cr: bool) -> bytes:
    """Add a newline to a non-empty text that lacks one, as union merges do."""
    if data and not data.endswith(b"\n"):
        return data + (b"\r\n" if cr else b"\n")
    return data


def splice_merge(
    merge: MergeResult,
    decisions: Sequence[Decision | None],
    labels: tuple[str | None, str | None, str | None] = ("dev", "main", "base"),
    marker_size: int = 7,
) -> bytes:
    """The merged file with ``decisions[i]`` applied to conflict i (None: markers)."""
    conflicts = merge.conflicts
    if len(decisions) != len(conflicts):
        raise ValueError(f"{len(decisions)} decisions for {len(conflicts)} hunks")
    if merge.whole is not None:
        return merge.render()
    out: list[bytes] = []
    pos = 0
    k = 0
    for chunk in merge.chunks:
        if chunk.mode is ChunkMode.IDENTICAL:
            continue
        out.append(joined(merge.ours, pos, chunk.i1))
        if chunk.mode is ChunkMode.CONFLICT:
            decision = decisions[k]
            k += 1
            if decision is None:
                out.append(merge.conflict_block(chunk, labels, marker_size))
            else:
                cr = needs_cr(merge.base, merge.ours, merge.theirs, chunk.i1, chunk.i2)
                dev = merge.ours[chunk.i1 : chunk.i1 + chunk.chg1]
                main = merge.theirs[chunk.i2 : chunk.i2 + chunk.chg2]
                out.append(chosen_text(dev, main, decision, cr))
        elif chunk.mode is ChunkMode.OURS_ONLY:
            out.append(joined(merge.ours, chunk.i1, chunk.i1 + chunk.chg1))
        else:
            out.append(joined(merge.theirs, chunk.i2, chunk.i2 + chunk.chg2))
        pos = chunk.i1 + chunk.chg1
    out.append(joined(merge.ours, pos))
    return b"".join(out)


def splice_result(
    result: bytes,
    hunks: Sequence[Hunk],
    decisions: Sequence[Decision | None],
    merge: MergeResult,
    extra: Sequence[Replacement] = (),
) -> bytes:
    """``result`` with each decided hunk's region replaced (and ``extra``, the decided edit hunks'); all else kept."""
    if len(decisions) != len(hunks):
        raise ValueError(f"{len(decisions)} decisions for {len(hunks)} hunks")
    lines = split_lines(result)
    edits: list[Replacement] = list(extra)
    for k, (hunk, decision) in enumerate(zip(hunks, decisions, strict=True)):
        if decision is None:
            continue
        edits.append(_replacement(hunk, _chosen(merge, k, hunk, decision)))
    return _apply(lines, edits)


def _chosen(merge: MergeResult, k: int, hunk: Hunk, decision: Decision) -> bytes:
    """The bytes a decision puts in place of conflict ``k``: a side's, both, the user's, or what the result holds."""
    if decision.choice is Choice.RESULT:
        return b"".join(hunk.result_text or ())
    chunk = merge.conflicts[k]
    cr = needs_cr(merge.base, merge.ours, merge.theirs, chunk.i1, chunk.i2)
    return chosen_text(merge.ours[chunk.i1 : chunk.i1 + chunk.chg1], merge.theirs[chunk.i2 : chunk.i2 + chunk.chg2],
                       decision, cr)


class ConflictTextError(ValueError):
    """The conflict text in the work tree cannot be matched with the hunks: say why, write nothing."""


def splice_conflicted(
    result: bytes,
    hunks: Sequence[Hunk],
    decisions: Sequence[Decision | None],
    merge: MergeResult,
    extra: Sequence[Replacement] = (),
    located: Located | None = None,
) -> bytes:
    """``result`` (holding git's conflict blocks) with the decisions applied; undecided hunks as the file holds them.

    The hunks are found in the file with every block projected to main's
    side, so hand edits outside the blocks stay, and a decision replaces all
    a hunk holds (its blocks, and what was resolved by hand among them); an
    undecided hunk keeps git's markers (drawn in git's default style) or
    what a hand resolution put there.  When the model and the blocks
    disagree, one choice for every hunk is written as git's own blocks
    projected to that side; anything else raises ``ConflictTextError``.
    ``extra`` (decided edit hunks, outside the blocks) is applied first: the
    blocks are then found in the text it leaves.  ``located``: the hunks
    already found in ``result`` (``locate``), when the caller holds them.
    """
    if len(decisions) != len(hunks):
        raise ValueError(f"{len(decisions)} decisions for {len(hunks)} hunks")
    found = located if located is not None else locate(result, merge)
    if found is None:
        return splice_result(result, hunks, decisions, merge, extra)
    if extra:
        result = _apply(split_lines(result), list(extra))
        found = locate(result, merge)
        if found is None:
            raise ConflictTextError("the conflict blocks were not found again after the edits outside them")
    if not found.agrees:
        whole = _whole_side(decisions)
        if whole is not None:
            if whole not in found.sure:  # text inside the blocks looks like a marker: which lines are whose?
                raise ConflictTextError(
                    f"{found.problem}, and a line inside git's conflict blocks looks like a marker, so which "
                    "lines are whose is not sure: resolve it in an editor"
                )
            return b"".join((found.theirs if whole is Section.THEIRS else found.ours).lines)
        raise ConflictTextError(
            f"{found.problem}: take main or dev for the whole file (M/D) to write git's own text, "
            "or resolve it in an editor"
        )
    edits: list[Replacement] = []
    for k, ((lo, hi), decision, hunk) in enumerate(zip(found.spans, decisions, hunks, strict=True)):
        if decision is None or decision.choice is Choice.RESULT:
            edits.append(Replacement(*found.held_at(k), found.held(k, merge)))
        else:
            edits.append(Replacement(lo, hi, _chosen(merge, k, hunk, decision)))
    return _apply(list(found.theirs.lines), edits)


def _whole_side(decisions: Sequence[Decision | None]) -> Section | None:
    """The section every hunk takes: main's (theirs) or dev's (ours); None when some hunk takes another."""
    if not decisions or any(d is None for d in decisions):
        return None
    chosen = {d.choice for d in decisions if d is not None}
    return {Choice.MAIN: Section.THEIRS, Choice.DEV: Section.OURS}.get(chosen.pop()) if len(chosen) == 1 else None


def _apply(lines: Sequence[bytes], edits: list[Replacement]) -> bytes:
    """Replace lines [start, end) by each edit's text; a text ending mid-line before more text gets a newline."""
    crlf_file = _uses_crlf(lines)
    pieces: list[bytes] = []
    pos = 0
    for start, end, text, _order in sorted(edits, key=lambda edit: (edit.start, edit.end, edit.order)):
        if start < pos:
            raise ValueError("hunks overlap in the result")
        pieces.append(b"".join(lines[pos:start]))
        pieces.append(text)
        pos = end
    pieces.append(b"".join(lines[pos:]))
    after = False  # whether any text follows the piece at hand
    for n in range(len(pieces) - 1, -1, -1):
        if after and pieces[n] and not pieces[n].endswith(b"\n"):
            pieces[n] += b"\r\n" if crlf_file else b"\n"
        after = after or bool(pieces[n])
    return b"".join(pieces)


def _uses_crlf(lines: Sequence[bytes]) -> bool:
    terminated = [line for line in lines if line.endswith(b"\n")]
    return bool(terminated) and sum(line.endswith(b"\r\n") for line in terminated) * 2 > len(terminated)

