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

from workbench.analysis.conflict_map import Located, locate
from workbench.analysis.conflict_text import Section
from workbench.analysis.model import Hunk
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
"""Choices that only mean something for an edit hunk (a conflict has no merged text to restore)."""


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


Replacement = tuple[int, int, bytes]
"""Lines [start, end) of a file (0-based) and the bytes that replace them."""


def edit_replacements(edits: Sequence[Hunk], decisions: Sequence[Decision | None]) -> list[Replacement]:
    """Where each decided edit hunk sits in the result and what replaces it there."""
    return [_replacement(hunk, edit_text(hunk, decision))
            for hunk, decision in zip(edits, decisions, strict=True) if decision is not None]


def _replacement(hunk: Hunk, text: bytes) -> Replacement:
    """``text`` in place of the result lines the hunk holds."""
    if hunk.result is None:
        raise ValueError(f"hunk {hunk.index + 1} has no place in the result")
    return hunk.result.start - 1, hunk.result.end, text


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
        chunk = merge.conflicts[k]
        cr = needs_cr(merge.base, merge.ours, merge.theirs, chunk.i1, chunk.i2)
        edits.append(_replacement(hunk, chosen_text(hunk.dev_text, hunk.main_text, decision, cr)))
    return _apply(lines, edits)


class ConflictTextError(ValueError):
    """The conflict text in the work tree cannot be matched with the hunks: say why, write nothing."""


def splice_conflicted(
    result: bytes,
    hunks: Sequence[Hunk],
    decisions: Sequence[Decision | None],
    merge: MergeResult,
    extra: Sequence[Replacement] = (),
) -> bytes:
    """``result`` (holding git's conflict blocks) with the decisions applied; undecided hunks get markers.

    The hunks are found in the file with every block projected to main's
    side, so hand edits outside the blocks stay.  When the model and the
    blocks disagree, one choice for every hunk is written as git's own
    blocks projected to that side; anything else raises ``ConflictTextError``.
    ``extra`` (decided edit hunks, outside the blocks) is applied first: the
    blocks are then found in the text it leaves.
    """
    if len(decisions) != len(hunks):
        raise ValueError(f"{len(decisions)} decisions for {len(hunks)} hunks")
    found = _located(result, merge)
    if found is None:
        return splice_result(result, hunks, decisions, merge, extra)
    if extra:
        result = _apply(split_lines(result), list(extra))
        found = _located(result, merge)
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
    conflicts = merge.conflicts
    for (lo, hi), decision, chunk in zip(found.spans, decisions, conflicts, strict=True):
        if decision is None:
            text = merge.conflict_block(chunk, found.text.labels, found.text.marker_size)
        else:
            cr = needs_cr(merge.base, merge.ours, merge.theirs, chunk.i1, chunk.i2)
            dev = merge.ours[chunk.i1 : chunk.i1 + chunk.chg1]
            main = merge.theirs[chunk.i2 : chunk.i2 + chunk.chg2]
            text = chosen_text(dev, main, decision, cr)
        edits.append((lo, hi, text))
    return _apply(list(found.theirs.lines), edits)


def _whole_side(decisions: Sequence[Decision | None]) -> Section | None:
    """The section every hunk takes: main's (theirs) or dev's (ours); None when some hunk takes another."""
    if not decisions or any(d is None for d in decisions):
        return None
    chosen = {d.choice for d in decisions if d is not None}
    return {Choice.MAIN: Section.THEIRS, Choice.DEV: Section.OURS}.get(chosen.pop()) if len(chosen) == 1 else None


_LOCATED: dict[tuple[int, int], tuple[bytes, MergeResult, Located | None]] = {}
"""``locate`` memoised for the few files being decided: the app previews a file on every key."""


def _located(result: bytes, merge: MergeResult) -> Located | None:
    key = (id(result), id(merge))
    hit = _LOCATED.get(key)
    if hit is not None and hit[0] is result and hit[1] is merge:
        return hit[2]
    found = locate(result, merge)
    if len(_LOCATED) >= 16:
        _LOCATED.pop(next(iter(_LOCATED)), None)
    _LOCATED[key] = (result, merge, found)
    return found


def _apply(lines: Sequence[bytes], edits: list[Replacement]) -> bytes:
    """Replace lines [start, end) by each edit's text; a text ending mid-line before more lines gets a newline."""
    crlf_file = _uses_crlf(lines)
    out: list[bytes] = []
    pos = 0
    for start, end, text in sorted(edits):
        if start < pos:
            raise ValueError("hunks overlap in the result")
        if end < len(lines) and text and not text.endswith(b"\n"):
            text += b"\r\n" if crlf_file else b"\n"
        out.append(b"".join(lines[pos:start]))
        out.append(text)
        pos = end
    out.append(b"".join(lines[pos:]))
    return b"".join(out)


def _uses_crlf(lines: Sequence[bytes]) -> bool:
    terminated = [line for line in lines if line.endswith(b"\n")]
    return bool(terminated) and sum(line.endswith(b"\r\n") for line in terminated) * 2 > len(terminated)

