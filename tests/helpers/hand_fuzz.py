"""A differential fuzz of conflicts someone already touched: blocks resolved, edited or emptied by hand, and
resolutions that edit next to a conflict, checked against git and against what each trial built.

Three kinds of trial, on random three-way files over a small alphabet (so lines repeat, and hunks sit
close together), with CRLF lines and missing final newlines now and then:

* ``hand``: ``git merge-file`` draws the conflict in a random style (merge, diff3, zdiff3) and marker
  size; some of the hunks' blocks are then resolved to a side, replaced by the user's own lines,
  edited, or deleted outright, all of a hunk's blocks or only some.  The file is read as the engine
  reads a file a merge in progress left conflicted, and every hunk decided: dev everywhere must write
  what ``git merge-file --ours`` writes, main everywhere ``--theirs``, a random mix what the model's
  own splice of those choices writes (the edits beyond git's merge, if any, restored to git's merge),
  and keeping what the file holds in every hunk resolved whole by hand, with dev elsewhere, keeps
  those hunks' text.  Each hunk's ``taken`` must say what the trial did to it.
* ``commit``: a merge commit whose resolution took a random side in each hunk and then edited next
  to the conflicts (dropped a clean change of one side, put its own lines where a side's text was,
  inserted a line, deleted a neighbour).  Deciding every conflict hunk one way and restoring git's
  merge in every edit hunk must write ``--ours``/``--theirs``; a clean change the resolution dropped
  must lie in some hunk that shows its side's lines (never vanish between a conflict and an edit).
* ``own``: the file the workbench itself writes from choices alone (dev, main, both either way)
  must read back as those choices, without any edit hunk.

``run`` returns the counts; a mismatch is a sentence naming the trial's seed, so it can be replayed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from helpers.git_reference import merge_file
from workbench.analysis.conflict_map import Located, edits_beside, in_default_style, locate
from workbench.analysis.edits import edit_hunks
from workbench.analysis.hunks import build_hunks
from workbench.analysis.model import ConflictKind, FileAnalysis, FileHistory, FileStatus, Hunk, Side, Taken
from workbench.analysis.xdiff import Algorithm, ChunkMode, Favor, MergeLevel, MergeResult, merge_lines, split_lines
from workbench.resolve.file_content import ContentError, conflict_blocks, spliced
from workbench.resolve.splice import Choice, Decision, keeps_result, splice_merge

LINES = [b"a\n", b"b\n", b"c\n", b"d\n", b"\n", b"}\n", b"x = 1\n", b"def f():\n", b"    pass\n", b"return y\n"]
STYLES = ["", "--diff3", "--zdiff3"]
SIDES = (Choice.DEV, Choice.MAIN)


@dataclass
class Counts:
    """What a run did: trials per kind, checks made, hunks touched by hand, refusals, and every mismatch."""

    trials: dict[str, int] = field(default_factory=lambda: {"hand": 0, "commit": 0, "own": 0})
    checks: int = 0
    touched: dict[str, int] = field(default_factory=dict)
    """Hunks a ``hand`` trial changed, by what it did (``ours``, ``theirs``, ``own lines``, ``edited``,
    ``emptied``, ``some blocks``)."""
    refused: dict[str, int] = field(default_factory=dict)
    """Decisions the workbench refused to write (each a sentence: never a wrong file, but counted)."""
    mismatches: list[str] = field(default_factory=list)

    def refuse(self, why: str) -> None:
        self.refused[why] = self.refused.get(why, 0) + 1

    def check(self, ok: bool, seed: int, what: str) -> None:
        self.checks += 1
        if not ok:
            self.mismatches.append(f"seed {seed}: {what}")

    def summary(self) -> str:
        trials = ", ".join(f"{n} {kind}" for kind, n in self.trials.items())
        touched = ", ".join(f"{n} {what}" for what, n in sorted(self.touched.items()))
        refused = sum(self.refused.values())
        return (f"{sum(self.trials.values())} trials ({trials}); {self.checks} checks; hunks touched by hand: "
                f"{touched or 'none'}; {refused} refused; {len(self.mismatches)} mismatches")


def run(seed: int, count: int, kinds: Sequence[str] = ("hand", "commit", "own")) -> Counts:
    """``count`` trials of each kind, from ``seed`` on (trial ``n`` uses seed ``seed + n``)."""
    counts = Counts()
    trial = {"hand": hand_trial, "commit": commit_trial, "own": own_trial}
    for n in range(count):
        for kind in kinds:
            trial[kind](seed + n, counts)
    return counts


def _triple(rng: random.Random) -> tuple[bytes, bytes, bytes]:
    base = [rng.choice(LINES) for _ in range(rng.randint(0, 16))]

    def edited() -> list[bytes]:
        lines = list(base)
        for _ in range(rng.randint(0, 5)):
            pos = rng.randint(0, len(lines))
            op = rng.choice("dir")
            if op == "i" or not lines:
                lines.insert(pos, rng.choice(LINES))
            elif op == "d":
                del lines[min(pos, len(lines) - 1)]
            else:
                lines[min(pos, len(lines) - 1)] = rng.choice(LINES)
        return lines

    crlf = rng.random() < 0.1
    cut = rng.random() < 0.15

    def text(lines: list[bytes]) -> bytes:
        data = b"".join(line.replace(b"\n", b"\r\n") if crlf and rng.random() < 0.7 else line for line in lines)
        return data[:-1] if cut and data.endswith(b"\n") and not data.endswith(b"\r\n") else data

    return text(base), text(edited()), text(edited())


def _model(base: bytes, ours: bytes, theirs: bytes) -> MergeResult:
    """The hunk model of what ``git merge-file`` merges (git 2.39's merge-file diffs with Myers)."""
    return merge_lines(split_lines(base), split_lines(ours), split_lines(theirs), Algorithm.MYERS, MergeLevel.ZEALOUS_ALNUM)


def analysed(merge: MergeResult, result: bytes, unmerged: bool) -> tuple[FileAnalysis, Located | None]:
    """``result`` read as the engine reads a conflicted file: in git's default style when a merge in progress
    left it conflicted, its hunks placed, and its edits beyond git's merge (``beyond._with_edits``)."""
    located = None
    if unmerged:
        result, located = in_default_style(result, merge)
    hunks = build_hunks(merge, result, unmerged, located)
    untouched = located is not None and located.agrees and list(located.theirs.lines) == split_lines(
        merge.render(Favor.THEIRS))
    held = [h.result for h in hunks if h.result is not None]
    edits: tuple[Hunk, ...] = ()
    beside = edits_beside(located, merge, len(hunks)) if located is not None and located.agrees else None
    if not untouched and len(held) == len(hunks):
        edits = beside if beside is not None else edit_hunks(merge, result, None, held, len(hunks))
    side = Side("f", "0" * 40, 0o100644)
    entry = FileAnalysis(
        path="f", status=FileStatus.CONFLICTED if unmerged else FileStatus.HAND_RESOLVED, kind=ConflictKind.CONTENT,
        base=side, dev=side, main=side, result_oid="1" * 40, result_present=True, hunks=hunks,
        history=FileHistory(), merge=merge, stored_result=result, edits=edits,
    )
    return entry, conflict_blocks(entry)


def _written(entry: FileAnalysis, located: Located | None, conflicts: Sequence[Decision | None],
             counts: Counts) -> bytes | None:
    """What deciding the conflict hunks so, and restoring git's merge in every edit hunk, writes (None: refused)."""
    if any(edit.merged_text is None for edit in entry.edits):
        counts.refuse("git's merge of an edit region is not known")
        return None
    decisions = [*conflicts, *(Decision(Choice.MERGED) for _ in entry.edits)]
    try:
        return spliced(entry, decisions, located)
    except ContentError as exc:
        counts.refuse(str(exc).split(": ", 1)[-1].split(":")[0])
        return None


# -- hand: blocks resolved, edited or emptied by hand -------------------------------------------------------

HAND_ACTS = ("ours", "theirs", "own lines", "edited", "emptied")


def hand_trial(seed: int, counts: Counts) -> None:
    rng = random.Random(seed)
    base, ours, theirs = _triple(rng)
    style, size = rng.choice(STYLES), rng.randint(3, 12)
    options = [*([style] if style else []), f"--marker-size={size}"]
    conflicted = merge_file(base, ours, theirs, *options)
    merge = _model(base, ours, theirs)
    blocks = locate(conflicted, merge) if merge.conflicts else None
    if blocks is None or not blocks.agrees:
        return
    counts.trials["hand"] += 1
    text = blocks.text
    owners = [[j for j, b in enumerate(text.blocks) if lo <= b.start and b.end <= hi] for lo, hi in blocks.ranges]
    shared = {j for mine in owners for j in mine if sum(j in other for other in owners) > 1}
    replaced: dict[int, list[bytes]] = {}
    expected: dict[int, Taken] = {}
    kept: dict[int, bool] = {}
    ends_file: set[int] = set()
    """Hunks resolved at the end of a file a side does not end with a newline: the hand keeps the newline git
    put in its block, which the placement may read as the hunk's (``other``) or as a change beside it."""
    for k, mine in enumerate(owners):
        if not mine or shared & set(mine) or rng.random() < 0.4:
            continue
        some = len(mine) > 1 and rng.random() < 0.4
        chosen = rng.sample(mine, rng.randint(1, len(mine) - 1)) if some else mine
        act = rng.choice(HAND_ACTS)
        for j in chosen:
            block = text.blocks[j]
            replaced[j] = _hand(act, block.ours, block.theirs, j, rng)
        what = "some blocks" if some else act
        counts.touched[what] = counts.touched.get(what, 0) + 1
        expected[k] = Taken.UNRESOLVED if some else {"ours": Taken.DEV, "theirs": Taken.MAIN}.get(act, Taken.OTHER)
        kept[k] = not some and act == "own lines"
        if text.blocks[mine[-1]].end == len(text.lines) and not (ours.endswith(b"\n") and theirs.endswith(b"\n")):
            ends_file.add(k)
    if not replaced:
        return
    lines: list[bytes] = []
    pos = 0
    for j, block in enumerate(text.blocks):
        lines.extend(text.lines[pos : block.start])
        lines.extend(replaced[j] if j in replaced else text.lines[block.start : block.end])
        pos = block.end
    lines.extend(text.lines[pos:])
    edited = b"".join(lines)
    entry, located = analysed(merge, edited, unmerged=True)
    for k, hunk in enumerate(entry.hunks):
        want = expected.get(k, Taken.UNRESOLVED)
        got = hunk.taken
        if want is Taken.OTHER and got in (Taken.DEV, Taken.MAIN, Taken.BOTH):
            continue  # the hand's lines happen to be a side's (an edit that changed nothing, ...)
        if want in (Taken.DEV, Taken.MAIN) and joined_eq(hunk.dev_text, hunk.main_text):
            continue
        side = b"".join(hunk.dev_text if want is Taken.DEV else hunk.main_text)
        if got in (Taken.OTHER, Taken.BOTH) and (k in ends_file or b"".join(hunk.result_text or ()) in (
                side + b"\n", side + b"\r\n")):
            continue  # the side's last line as git ended it in its block at the end of the file (a union with
            # an empty other side, byte for byte)
        counts.check(got is want, seed, f"hand: hunk {k + 1} reads {got.value}, the trial made it {want.value}")
    n = len(entry.hunks)
    for choice, option in ((Choice.DEV, "--ours"), (Choice.MAIN, "--theirs")):
        written = _written(entry, located, [Decision(choice)] * n, counts)
        if written is not None:
            counts.check(written == merge_file(base, ours, theirs, option), seed,
                         f"hand ({style or 'merge'}, size {size}): {choice.value} everywhere is not git's {option}")
    vector = [Decision(rng.choice(SIDES)) for _ in range(n)]
    written = _written(entry, located, vector, counts)
    if written is not None:
        counts.check(written == splice_merge(merge, vector), seed, f"hand: {[d.choice.value for d in vector]}")
    keeping = [Decision(Choice.RESULT) if kept.get(k) and keeps_result(entry, h) else Decision(Choice.DEV)
               for k, h in enumerate(entry.hunks)]
    written = _written(entry, located, keeping, counts)
    if written is not None:
        want_text = splice_merge(merge, [
            Decision(Choice.CUSTOM, b"".join(h.result_text or ())) if d.choice is Choice.RESULT else d
            for d, h in zip(keeping, entry.hunks, strict=True)])
        counts.check(written == want_text, seed, "hand: keeping the hunks resolved by hand")


def joined_eq(a: Sequence[bytes], b: Sequence[bytes]) -> bool:
    return b"".join(a) == b"".join(b)


def _hand(act: str, ours: Sequence[bytes], theirs: Sequence[bytes], j: int, rng: random.Random) -> list[bytes]:
    """The lines a person leaves in place of a block."""
    if act == "ours":
        return list(ours)
    if act == "theirs":
        return list(theirs)
    if act == "own lines":
        return [b"HAND %d.%d\n" % (j, n) for n in range(rng.randint(1, 2))]
    if act == "edited":
        side = list(ours if rng.random() < 0.5 else theirs)
        if side:
            side[rng.randrange(len(side))] = b"EDITED %d\n" % j
        return side or [b"EDITED %d\n" % j]
    return []


# -- commit: a resolution that edits next to the conflicts --------------------------------------------------

def commit_trial(seed: int, counts: Counts) -> None:
    rng = random.Random(seed)
    base, ours, theirs = _triple(rng)
    merge = _model(base, ours, theirs)
    if not merge.conflicts or merge.whole is not None:
        return
    counts.trials["commit"] += 1
    vector = [Decision(rng.choice(SIDES)) for _ in merge.conflicts]
    pieces = _pieces(merge, vector)
    lost: list[int] = []  # main's lines of a clean change the resolution dropped (0-based, in main)
    for _ in range(rng.randint(1, 3)):
        _edit_near_conflict(pieces, rng, lost)
    result = b"".join(line for piece in pieces for line in piece.lines)
    entry, located = analysed(merge, result, unmerged=False)
    for choice, option in ((Choice.DEV, "--ours"), (Choice.MAIN, "--theirs")):
        written = _written(entry, located, [Decision(choice)] * len(entry.hunks), counts)
        if written is not None:
            counts.check(written == merge_file(base, ours, theirs, option), seed,
                         f"commit: {choice.value} everywhere, git's merge restored in the edits, is not git's {option}")
    rendered, lines = split_lines(merge.render(Favor.THEIRS)), split_lines(result)
    for line in lost:
        text = merge.theirs[line]
        shown = any(h.main.start - 1 <= line < h.main.end for h in entry.all_hunks) or any(
            h.taken is not Taken.MAIN and list(h.main_text).count(text) > list(h.result_text or ()).count(text)
            for h in entry.all_hunks) or lines.count(text) >= rendered.count(text)
        # (an equal line of main's lost elsewhere, or kept elsewhere: the same file either way)
        counts.check(shown, seed, f"commit: main's line {line + 1}, dropped beside a conflict, is in no hunk")


@dataclass
class _Piece:
    """A run of the resolution: a stable run, a clean change (``side``, its main lines), or a conflict."""

    lines: list[bytes]
    conflict: bool
    main_lines: range = range(0)
    clean_main: bool = False


def _pieces(merge: MergeResult, vector: Sequence[Decision]) -> list[_Piece]:
    """The result of ``vector`` cut where git's merge has its chunks."""
    pieces: list[_Piece] = []
    pos = 0
    k = 0
    for chunk in merge.chunks:
        if chunk.mode is ChunkMode.IDENTICAL:
            continue
        pieces.append(_Piece(list(merge.ours[pos : chunk.i1]), False))
        if chunk.mode is ChunkMode.CONFLICT:
            side = vector[k].choice
            k += 1
            text = merge.ours[chunk.i1 : chunk.i1 + chunk.chg1] if side is Choice.DEV else \
                merge.theirs[chunk.i2 : chunk.i2 + chunk.chg2]
            pieces.append(_Piece(list(text), True))
        elif chunk.mode is ChunkMode.OURS_ONLY:
            pieces.append(_Piece(list(merge.ours[chunk.i1 : chunk.i1 + chunk.chg1]), False))
        else:
            main = range(chunk.i2, chunk.i2 + chunk.chg2)
            pieces.append(_Piece(list(merge.theirs[chunk.i2 : chunk.i2 + chunk.chg2]), False, main, True))
        pos = chunk.i1 + chunk.chg1
    pieces.append(_Piece(list(merge.ours[pos:]), False))
    return pieces


def _edit_near_conflict(pieces: list[_Piece], rng: random.Random, lost: list[int]) -> None:
    """One edit of the resolution next to a conflict (or of its text)."""
    conflicts = [n for n, piece in enumerate(pieces) if piece.conflict]
    n = rng.choice(conflicts)
    act = rng.choice(("drop clean", "own lines", "insert", "delete neighbour"))
    near = [m for m in (n - 1, n + 1, n - 2, n + 2) if 0 <= m < len(pieces)]
    if act == "drop clean":
        clean = [m for m in near if pieces[m].clean_main and pieces[m].lines]
        if clean:
            m = clean[0]
            if all(line.endswith(b"\n") for line in pieces[m].lines):
                lost.extend(pieces[m].main_lines)
                pieces[m].lines = []
                pieces[m].clean_main = False
        return
    if act == "own lines":
        pieces[n].lines = [b"RESOLVED %d\n" % n]
        return
    if act == "insert":
        pieces[n].lines.insert(rng.choice((0, len(pieces[n].lines))), b"ADDED %d\n" % n)
        return
    stable = [m for m in near if not pieces[m].conflict and pieces[m].lines and not pieces[m].clean_main]
    if stable:
        m = stable[0]
        victim = 0 if m > n else len(pieces[m].lines) - 1
        if pieces[m].lines[victim].endswith(b"\n"):
            del pieces[m].lines[victim]


# -- own: the workbench's own write, read back ----------------------------------------------------------------

OWN = (Choice.DEV, Choice.MAIN, Choice.BOTH, Choice.BOTH_MAIN_FIRST)


def own_trial(seed: int, counts: Counts) -> None:
    rng = random.Random(seed)
    base, ours, theirs = _triple(rng)
    merge = _model(base, ours, theirs)
    if not merge.conflicts or merge.whole is not None:
        return
    counts.trials["own"] += 1
    vector = [Decision(rng.choice(OWN)) for _ in merge.conflicts]
    if rng.random() < 0.3:
        vector = [Decision(Choice.DEV)] * len(vector)
    written = splice_merge(merge, vector)
    entry, _ = analysed(merge, written, unmerged=False)
    counts.check(not entry.edits, seed, f"own: {len(entry.edits)} edit hunk(s) in the file written from choices alone")
    for hunk, decision in zip(entry.hunks, vector, strict=True):
        counts.check(_reads_as(hunk, decision.choice), seed,
                     f"own: hunk {hunk.index + 1} written as {decision.choice.value} reads {hunk.taken.value}")


def _reads_as(hunk: Hunk, choice: Choice) -> bool:
    """Whether ``hunk``'s result holds what ``choice`` put there (sides whose texts are equal read either way)."""
    held = b"".join(hunk.result_text or ())
    dev, main = b"".join(hunk.dev_text), b"".join(hunk.main_text)
    want = {Choice.DEV: dev, Choice.MAIN: main}.get(choice)
    if want is not None:
        return held == want
    return hunk.taken is Taken.BOTH or held in (dev, main)  # a union with an empty side is the other side
