"""Where each conflict of the model sits in a file: the ``-X theirs`` layout, mapped by a diff.

The pure ``-X theirs`` output has a known layout (each conflict's span holds
main's lines); diffing it against another file (the result, or the work
tree's conflict text with its blocks projected to main's side) carries every
span over.  Shared by the hunk builder and the reading of the work tree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from workbench.analysis.xdiff import Algorithm, ChunkMode, Edit, Favor, MergeResult, diff_lines, split_lines

MARKER = re.compile(rb"^(<{7}|>{7})( |\r?\n|$)")
SEPARATOR = re.compile(rb"^(={7}|\|{7})( |\r?\n|$)")


@dataclass(frozen=True, slots=True)
class Span:
    """Where a hunk's text sits in a rendered file: 0-based start, line count."""

    start: int
    count: int


def theirs_layout(merge: MergeResult) -> tuple[list[bytes], list[Span]]:
    """The pure ``-X theirs`` lines and each conflict's span in them."""
    rendered = split_lines(merge.render(Favor.THEIRS))
    spans: list[Span] = []
    if merge.whole is not None:
        return rendered, spans
    line = 0
    pos = 0
    for chunk in merge.chunks:
        if chunk.mode is ChunkMode.CONFLICT:
            line += chunk.i1 - pos
            spans.append(Span(line, chunk.chg2))
            line += chunk.chg2
        elif chunk.mode is ChunkMode.OURS_ONLY or chunk.mode is ChunkMode.THEIRS_ONLY:
            line += chunk.i1 - pos
            line += chunk.chg1 if chunk.mode is ChunkMode.OURS_ONLY else chunk.chg2
        else:
            continue
        pos = chunk.i1 + chunk.chg1
    return rendered, spans


def place_spans(
    theirs_lines: Sequence[bytes],
    spans: Sequence[Span],
    result_lines: Sequence[bytes],
    dev: Sequence[Sequence[bytes]] | None = None,
) -> list[tuple[int, int]]:
    """Map each span of the ``-X theirs`` output into ``result_lines``: [start, end) per span.

    ``dev`` is each span's hunk's dev text.  A region the result changed
    inside a span belongs to the hunk.  Lines the result *inserted* right at
    the edge of a span holding lines belong to it only when they are its own
    material (dev's lines of the hunk, or conflict markers), as when dev's
    text was kept before main's; any other line inserted there (a
    maintainer's fix next to the hunk) stays outside, so deciding the hunk
    never deletes it.  A span holding no lines (main deleted them) has no
    inside: what the result inserted at its place is the hunk's, whatever it
    is (a hand resolution of it), and a change beside it gives the hunk only
    its own material next to it (``_map_empty``).  Where the diff put a
    change a few equal lines from where it is the span's own, it is slid
    there first (``_slid_into_spans``).

    A result that is the ``-X theirs`` output with sides chosen in its
    spans is read as those choices (``_exact_reading``).  Otherwise a diff
    places the spans, and where sides share lines with their neighbours a
    diff against main's text in every span can align them across a span's
    edge (dev's kept text read as main's, with edits of the result's own
    beside it): where some hunk then reads neither side and the diff left
    changes outside the hunks, the spans are placed again on the output with dev's text
    where the result seems to hold it, and with dev's everywhere; such a
    placement is kept when the result differs less from its layout and it
    leaves no more changed lines outside the hunks (a hunk never takes in a
    line it would otherwise leave outside, such as a fix beside it).
    """
    if list(result_lines) == list(theirs_lines):
        return [(s.start, s.start + s.count) for s in spans]
    texts = [tuple(dev[k]) if dev is not None else () for k in range(len(spans))]
    exact = _exact_reading(tuple(theirs_lines), spans, tuple(result_lines), texts) if dev is not None else None
    if exact is not None:
        return exact
    (changed, outside), placed = _placed_on(theirs_lines, spans, result_lines, texts)
    mains = [tuple(theirs_lines[s.start : s.start + s.count]) for s in spans]
    read_dev = [tuple(result_lines[lo:hi]) == texts[k] for k, (lo, hi) in enumerate(placed)]
    if dev is None or not outside or all(d or tuple(result_lines[lo:hi]) == mains[k]
                                         for k, (d, (lo, hi)) in enumerate(zip(read_dev, placed, strict=True))):
        return placed  # every change is a hunk's, or every hunk reads a side: the diff did not misalign them
    for devs in dict.fromkeys((tuple(read_dev), (True,) * len(spans))):
        if not any(devs):
            continue
        layout, moved = _laid_out(theirs_lines, spans, [texts[k] if d else mains[k] for k, d in enumerate(devs)])
        others = [mains[k] if d else texts[k] for k, d in enumerate(devs)]
        (other_changed, other_outside), other_placed = _placed_on(layout, moved, result_lines, others)
        if other_changed < changed and other_outside <= outside:
            (changed, outside), placed = (other_changed, other_outside), other_placed
    return placed


def _laid_out(
    theirs_lines: Sequence[bytes], spans: Sequence[Span], texts: Sequence[tuple[bytes, ...]]
) -> tuple[list[bytes], list[Span]]:
    """The ``-X theirs`` output with each span's lines replaced by ``texts``, and the spans there."""
    lines: list[bytes] = []
    moved: list[Span] = []
    pos = 0
    for span, text in zip(spans, texts, strict=True):
        lines.extend(theirs_lines[pos : span.start])
        moved.append(Span(len(lines), len(text)))
        lines.extend(text)
        pos = span.start + span.count
    lines.extend(theirs_lines[pos:])
    return lines, moved


def _placed_on(
    layout: Sequence[bytes], spans: Sequence[Span], result_lines: Sequence[bytes], others: Sequence[tuple[bytes, ...]]
) -> tuple[tuple[int, int], list[tuple[int, int]]]:
    """Each span of ``layout`` (a side's text in each, ``others`` the other side's) mapped into ``result_lines``
    by a diff, and how many lines that diff changes, in all and outside the spans."""
    diffed = diff_lines(list(layout), list(result_lines), Algorithm.MYERS)
    owns = [frozenset(text) for text in others]
    script = _slid_into_spans(diffed, layout, result_lines, spans, others, owns)
    placed: list[tuple[int, int]] = []
    for k, span in enumerate(spans):
        if span.count == 0:
            placed.append(_map_empty(script, span.start, result_lines, owns[k]))
            continue
        absorbs = partial(_inserts_own, owns[k], result_lines)
        lo = _map_start(script, span.start, absorbs)
        hi = max(_map_end(script, span.start + span.count, absorbs), lo)
        placed.append((lo, hi))
    return (sum(change.chg1 + change.chg2 for change in diffed), _outside(diffed, spans, placed)), placed


def _outside(script: Sequence[Edit], spans: Sequence[Span], placed: Sequence[tuple[int, int]]) -> int:
    """How many lines ``script`` changes outside the spans and their places (the edits a placement leaves);
    places that overlap (one change over two spans, both given all of it) count as leaving every line."""
    if any(lo < prev_hi for (_, prev_hi), (lo, _) in zip(placed, placed[1:], strict=False)):
        return sum(change.chg1 + change.chg2 for change in script)
    total = 0
    for change in script:
        total += change.chg1 + change.chg2
        for span, (lo, hi) in zip(spans, placed, strict=True):
            total -= _overlap(change.i1, change.chg1, span.start, span.count)
            total -= _overlap(change.i2, change.chg2, lo, hi - lo)
    return total


def _overlap(a: int, count: int, b: int, other: int) -> int:
    return max(0, min(a + count, b + other) - max(a, b))


def _exact_reading(
    theirs: tuple[bytes, ...], spans: Sequence[Span], result: tuple[bytes, ...], dev: Sequence[tuple[bytes, ...]]
) -> list[tuple[int, int]] | None:
    """Each span's place when ``result`` is the ``-X theirs`` output with each span's text replaced by a side's
    (main's, dev's, or both, either order), and nothing else changed; None when it is not.

    A file written from choices alone (the workbench's own write, ``-X ours``) reads back as those choices
    wherever a diff would align repeated lines across a span's edge.
    """
    if not spans:
        return None
    stable = [theirs[: spans[0].start]]
    stable += [theirs[a.start + a.count : b.start] for a, b in zip(spans, spans[1:], strict=False)]
    stable.append(theirs[spans[-1].start + spans[-1].count :])
    if result[: len(stable[0])] != stable[0]:
        return None
    routes: dict[int, list[tuple[int, int]]] = {len(stable[0]): []}
    """Each place in ``result`` the reading can have reached, with the spans placed on the way there."""
    for k, span in enumerate(spans):
        main = theirs[span.start : span.start + span.count]
        candidates = dict.fromkeys((main, dev[k], *_both(dev[k], main)))
        after = stable[k + 1]
        reached: dict[int, list[tuple[int, int]]] = {}
        for at, placed in routes.items():
            for text in candidates:
                end = at + len(text)
                onward = end + len(after)
                if onward in reached or result[at:end] != text or result[end:onward] != after:
                    continue
                if k + 1 == len(spans) and onward != len(result):
                    continue
                reached[onward] = [*placed, (at, end)]
        if not reached:
            return None
        routes = reached
    return next(iter(routes.values()))


def _both(dev: tuple[bytes, ...], main: tuple[bytes, ...]) -> tuple[tuple[bytes, ...], ...]:
    """Both sides' lines, dev's first and main's first, as a union writes them (the first side's unended last
    line ended, with either newline)."""
    return (*_after(dev, main), *_after(main, dev))


def _after(first: tuple[bytes, ...], second: tuple[bytes, ...]) -> tuple[tuple[bytes, ...], ...]:
    if not first or not second:
        return ()
    if first[-1].endswith(b"\n"):
        return (first + second,)
    return tuple((*first[:-1], first[-1] + eol, *second) for eol in (b"\n", b"\r\n"))


def _is_own(own: frozenset[bytes], line: bytes) -> bool:
    """A line of the hunk's own material: one of its other side's lines (dev's, on main's text), or a marker."""
    return line in own or bool(MARKER.match(line) or SEPARATOR.match(line))


def _inserts_own(own: frozenset[bytes], result_lines: Sequence[bytes], change: Edit) -> bool:
    return all(_is_own(own, line) for line in result_lines[change.i2 : change.i2 + change.chg2])


def _slid_into_spans(
    script: Sequence[Edit],
    theirs_lines: Sequence[bytes],
    result_lines: Sequence[bytes],
    spans: Sequence[Span],
    texts: Sequence[tuple[bytes, ...]],
    owns: Sequence[frozenset[bytes]],
) -> list[Edit]:
    """``script`` with each pure insertion or deletion slid over equal lines to where it is a span's own.

    Where inserted or deleted lines repeat the lines beside them (a block
    that starts with a blank line, inserted after a blank line; one of
    three blank lines deleted), a diff may put them a line or more away
    from the span: dev's block kept in place of an empty main side then read
    as main's side with an edit beside it.  Sliding over equal lines gives
    an equally valid script, so an insertion is put at the edge of a span
    where it is the span's own material, and a deletion inside a span whose
    text it then makes the other side's, when there is one.  A deletion that
    cuts into a span otherwise is slid out of every span where it can be: a
    side's text kept whole with a neighbouring line deleted (one of two
    equal lines, the side's last and the next) reads as that side.
    """
    edges: dict[int, list[int]] = {}
    for k, span in enumerate(spans):
        for edge in {span.start, span.start + span.count}:
            edges.setdefault(edge, []).append(k)
    slid = list(script)

    def fits(n: int, change: Edit) -> bool:
        if not change.chg1:
            return any(_inserts_own(owns[k], result_lines, change) for k in edges.get(change.i1, ()))
        return any(_deletes_to_other(slid, n, change, span, text, theirs_lines) for span, text in zip(spans, texts, strict=True))

    for n, change in enumerate(slid):
        if (change.chg1 and change.chg2) or fits(n, change):
            continue
        if not change.chg1 and any(spans[k].count == 0 for k in edges.get(change.i1, ())):
            continue  # already at an empty span's place: the hunk's (``_map_empty``)
        floor = slid[n - 1].i1 + slid[n - 1].chg1 + 1 if n else 0
        ceiling = slid[n + 1].i1 - 1 if n + 1 < len(slid) else len(theirs_lines)
        slides = _slides(change, theirs_lines, result_lines, floor, ceiling)
        moves = [Edit(change.i1 + delta, change.chg1, change.i2 + delta, change.chg2) for delta in slides]
        moved = next((m for m in moves if fits(n, m)), None)
        if moved is None and change.chg1 and _cuts(change, spans):
            moved = next((m for m in moves if not _cuts(m, spans)), None)
        if moved is not None:
            slid[n] = moved
    return slid


def _cuts(change: Edit, spans: Sequence[Span]) -> bool:
    """Whether a deletion takes lines of a span."""
    return any(span.start < change.i1 + change.chg1 and change.i1 < span.start + span.count for span in spans)


def _deletes_to_other(
    script: Sequence[Edit], n: int, change: Edit, span: Span, text: tuple[bytes, ...], theirs: Sequence[bytes]
) -> bool:
    """Whether deletion ``change`` (the ``n``th of ``script``) lies inside ``span``, no other change touches the
    span, and the span's lines without the deleted ones are exactly the other side's ``text``."""
    end = span.start + span.count
    if not span.start <= change.i1 or change.i1 + change.chg1 > end:
        return False
    if any(m != n and other.i1 <= end and span.start <= other.i1 + other.chg1 for m, other in enumerate(script)):
        return False
    kept = (*theirs[span.start : change.i1], *theirs[change.i1 + change.chg1 : end])
    return kept == text


def _slides(change: Edit, theirs: Sequence[bytes], result: Sequence[bytes], floor: int, ceiling: int) -> list[int]:
    """How far a pure insertion or deletion can move over equal lines without touching another change,
    nearest first (``floor``/``ceiling``: the lowest and highest start it may take)."""
    up, down = 0, 0
    if change.chg1:  # a deletion of theirs[i1:i1+chg1]: its first and last lines rotate over equal neighbours
        last = change.i1 + change.chg1
        while change.i1 - up - 1 >= floor and theirs[change.i1 - up - 1] == theirs[last - up - 1]:
            up += 1
        while change.i1 + down + 1 <= ceiling - change.chg1 and theirs[change.i1 + down] == theirs[last + down]:
            down += 1
    else:
        end = change.i2 + change.chg2
        while change.i1 - up - 1 >= floor and theirs[change.i1 - up - 1] == result[end - up - 1]:
            up += 1
        while change.i1 + down + 1 <= ceiling and theirs[change.i1 + down] == result[change.i2 + down]:
            down += 1
    return sorted([-d for d in range(1, up + 1)] + list(range(1, down + 1)), key=abs)


def _map_empty(script: Sequence[Edit], pos: int, result_lines: Sequence[bytes], own: frozenset[bytes]) -> tuple[int, int]:
    """Result lines [start, end) of a span holding no lines, at ``pos`` of the ``-X theirs`` output.

    An insertion at ``pos``, or a change over it, is the hunk's.  A change
    of the lines just after (or before) it gives the hunk the run of its own
    material the change put first (or last): main deleted dev's edited line
    and changed the next, and the result holds dev's line where the next
    was; the next line's change stays outside, an edit of its own.
    """
    shift = 0
    for change in script:
        if change.i1 > pos:
            break
        start, end = change.i2, change.i2 + change.chg2
        last = change.i1 + change.chg1
        if change.i1 == pos and not change.chg1 or change.i1 < pos < last:
            return start, end
        if change.i1 == pos:
            mine = 0
            while start + mine < end and _is_own(own, result_lines[start + mine]):
                mine += 1
            return start, start + mine
        if last == pos:
            mine = 0
            while end - mine > start and _is_own(own, result_lines[end - mine - 1]):
                mine += 1
            return end - mine, end
        shift = end - last
    return pos + shift, pos + shift


def _map_start(script: Sequence[Edit], pos: int, absorbs: Callable[[Edit], bool]) -> int:
    """Result index for the start of a span, widened over edits that belong to it."""
    shift = 0
    for change in script:
        if change.i1 > pos:
            break
        inside = change.i1 <= pos < change.i1 + change.chg1
        if inside or (change.chg1 == 0 and change.i1 == pos and absorbs(change)):
            return change.i2
        if change.i1 + change.chg1 <= pos:
            shift = (change.i2 + change.chg2) - (change.i1 + change.chg1)
    return pos + shift


def _map_end(script: Sequence[Edit], pos: int, absorbs: Callable[[Edit], bool]) -> int:
    """Result index for the (exclusive) end of a span, widened likewise."""
    shift = 0
    for change in script:
        if change.i1 > pos:
            break
        inside = change.i1 < pos <= change.i1 + change.chg1
        at_edge = change.chg1 == 0 and change.i1 == pos
        if inside or (at_edge and absorbs(change)):
            return change.i2 + change.chg2
        if at_edge or change.i1 == pos:
            break  # lines inserted, deleted or replaced just after the span stay outside it
        shift = (change.i2 + change.chg2) - (change.i1 + change.chg1)
    return pos + shift
