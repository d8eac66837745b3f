"""The ``score_risk`` pipeline stage: signals on every hunk, then risk and level.

Its work reads only the engine's facts and the context (the policy's
keep-dev rule), so it is done beside the API audit; its fold comes after
the earlier stages', so it sees the signals they put on hunks and files
(policy, API audit, deleted files, ``score_files``' for files without
hunks) and folds their weights into the same score.  All evidence comes
from the snapshot and the shared readers in the context; each file's
versions and blobs are gathered once for all its hunks, and the only
repeated work per hunk is in memory.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from workbench.analysis.model import (
    ChoiceLoss,
    FileAnalysis,
    Hunk,
    LostLines,
    Signal,
    SignalKind,
    SyncAnalysis,
    Taken,
)
from workbench.analysis.risk.blame_through import attribute_through
from workbench.analysis.risk.chain import (
    MAIN_AHEAD_WEIGHT,
    dev_text_in_main_history,
    older_dev_state,
    squash_counterpart,
)
from workbench.analysis.risk.combine import explained_risk, file_risk, hunk_risk, level_of
from workbench.analysis.risk.dangling import FileNames
from workbench.analysis.risk.drops import (
    Dropped,
    comment_only,
    dev_changed,
    dev_only_lines_dropped,
    find_dropped,
    main_removed_intentionally,
    name_lines,
    still_needed,
)
from workbench.analysis.risk.evidence import FileEvidence, RunCache
from workbench.analysis.risk.explained import SideExplainer
from workbench.analysis.risk.line_compare import content_lines, is_data, meaningful, norm, regenerated
from workbench.analysis.risk.lost import choice_loss, lost_lines, lost_main
from workbench.analysis.risk.mainlost import (
    dev_removed_intentionally,
    keep_dev_policy,
    main_only,
    main_only_lines_dropped,
)
from workbench.analysis.risk.signals import kind_weight
from workbench.analysis.risk.sync_commits import SyncCommits, of_sync
from workbench.analysis.seam import AnalysisContext, Fact, Stage, Unit
from workbench.analysis.xdiff import split_lines


@dataclass(frozen=True)
class OwnRisk:
    """This stage's own findings on one file, before the earlier stages' signals are folded in.

    They read the file's hunks, merge, history and policy rule and the
    deleted files, never another stage's signals: plain data, so they may be
    found in any order or process.
    """

    hunks: tuple[tuple[tuple[Signal, ...], LostLines, ChoiceLoss], ...] | None
    """Per hunk: its signals, lost lines and what each choice would lose (None: the file's hunks, if any, get no
    evidence of their own)."""


class RiskScorer:
    """The stage's own findings file by file, in any order or process: each depends on its file alone
    and on what every file shares (the commit order, the policy)."""

    def __init__(self, analysis: SyncAnalysis, context: AnalysisContext) -> None:
        snapshot = context.snapshot
        self.analysis, self._context = analysis, context
        self._run = RunCache.build(
            context.read_blob, context.commit, snapshot.dev_history, snapshot.main_history, analysis.resolver
        )
        self._sync = of_sync(snapshot, context.policy, context.commit)

    def units(self) -> list[Unit[int]]:
        """Every file, by index; a file's hunks are most of its work."""
        return [Unit(k, 1 + len(entry.hunks)) for k, entry in enumerate(self.analysis.files)]

    def inputs(self, index: int) -> tuple[object, ...]:
        """What ``file(index)`` reads besides the scope: the file's engine facts and who resolved the sync
        (the histories, the policy and the sync's commits are the scope's)."""
        return (self.analysis.resolver, self.analysis.files[index])

    def file(self, index: int) -> OwnRisk:
        """The findings on ``analysis.files[index]``."""
        entry = self.analysis.files[index]
        if entry.hunks and entry.merge is not None:
            return OwnRisk(_score_hunks(FileEvidence.build(entry, self._run), self._context, self._sync))
        return OwnRisk(None)  # a file without hunks: its signals are ``score_files``'


def fold_risk(analysis: SyncAnalysis, found: Sequence[OwnRisk]) -> SyncAnalysis:
    """``analysis`` with each file's own findings added to the signals it has, and scored."""
    return replace(analysis, files=tuple(_fold(f, own) for f, own in zip(analysis.files, found, strict=True)))


STAGE = Stage(
    "score_risk", frozenset(), frozenset({Fact.SIGNALS, Fact.RISK}),
    RiskScorer, RiskScorer.units, RiskScorer.file, lambda analysis, found, _scorer: fold_risk(analysis, found),
    RiskScorer.inputs,
)
"""Signals on every hunk, then risk and level (its fold adds the weights of every earlier signal): its work reads
only the engine's facts and the context's policy, so it is done beside the audit."""


def _fold(entry: FileAnalysis, own: OwnRisk) -> FileAnalysis:
    if own.hunks is None:
        hunks = tuple(_scored(h, list(h.signals)) for h in entry.hunks)
    else:
        hunks = tuple(
            _scored(replace(h, lost_lines=lost, choice_loss=choices), [*h.signals, *mine])
            for h, (mine, lost, choices) in zip(entry.hunks, own.hunks, strict=True)
        )
    signals = entry.signals
    risk = file_risk((h.risk for h in hunks), signals)
    return replace(entry, hunks=hunks, signals=signals, risk=risk, level=level_of(risk))


def _scored(hunk: Hunk, signals: list[Signal]) -> Hunk:
    risk = explained_risk(hunk_risk(hunk.taken, signals), signals, hunk.lost_lines)
    return replace(hunk, signals=tuple(signals), risk=risk, level=level_of(risk))


def _score_hunks(
    ev: FileEvidence, context: AnalysisContext, sync: SyncCommits
) -> tuple[tuple[tuple[Signal, ...], LostLines, ChoiceLoss], ...]:
    merge = ev.file.merge
    assert merge is not None
    result = split_lines(ev.file.result_bytes) if ev.file.result_bytes is not None else None
    data = [regenerated(ev.file.path) and _all_data(h) for h in ev.file.hunks]
    dropped = [find_dropped(h, merge, result, d) for h, d in zip(ev.file.hunks, data, strict=True)]
    main_lost = [lost_main(h, merge, result, d) for h, d in zip(ev.file.hunks, data, strict=True)]
    explained: list[tuple[Signal, ...]] = [()] * len(ev.file.hunks)
    if result is not None:
        dropped, main_lost, explained = _narrowed(ev, sync, result, dropped, main_lost, data)
    writers = _writers(ev, context, [lost for lost, d in zip(dropped, data, strict=True) if not d], sync)
    names = FileNames(ev.file, [name_lines(lost) for lost, d in zip(dropped, data, strict=True) if not d])
    names_for = names if ev.file.is_python else None
    kept = context.policy is not None and context.policy.keep_dev_rule(ev.file.path) is not None
    main_alone = [main_only(h, merge, gone) for h, gone in zip(ev.file.hunks, main_lost, strict=True)]
    main_writers = _main_writers(
        ev, context, [n for lines, d in zip(main_alone, data, strict=True) if not d for n in lines], sync
    )
    out = []
    for hunk, lost, alone, gone, d, why in zip(ev.file.hunks, dropped, main_alone, main_lost, data, explained, strict=True):
        found = [*_signals(hunk, lost, d, writers, ev, names_for), *_main_signals(hunk, alone, d, main_writers, ev, kept)]
        choices = choice_loss(hunk, merge, d, ev.file.is_python)
        out.append(((*found, *why), lost_lines(lost.lines, gone, merge), choices))
    return tuple(out)


def _narrowed(
    ev: FileEvidence, sync: SyncCommits, result: Sequence[bytes], dropped: list[Dropped], main_lost: list[list[int]],
    data: list[bool],
) -> tuple[list[Dropped], list[list[int]], list[tuple[Signal, ...]]]:
    """Each hunk's lost lines of both sides without what the evidence explains (rules R1-R3, ``explained.py``),
    and the signals that say what it explained.  A hunk still in conflict, or of values only, is left as is."""
    merge = ev.file.merge
    assert merge is not None
    dev = SideExplainer(ev, "dev", merge.ours, result, sync, merge.theirs)
    main = SideExplainer(ev, "main", merge.theirs, result, sync, merge.ours)
    out_dev: list[Dropped] = []
    out_main: list[list[int]] = []
    signals: list[tuple[Signal, ...]] = []
    for hunk, lost, gone, d in zip(ev.file.hunks, dropped, main_lost, data, strict=True):
        if d or hunk.taken is Taken.UNRESOLVED or hunk.result is None:
            out_dev.append(lost)
            out_main.append(gone)
            signals.append(())
            continue
        mine, theirs = dev.narrow(hunk, lost.lines), main.narrow(hunk, gone)
        out_dev.append(lost.only(mine.lost))
        out_main.append(list(theirs.lost))
        signals.append((*mine.signals, *theirs.signals))
    return out_dev, out_main, signals


def _signals(
    hunk: Hunk,
    lost: Dropped,
    data: bool,
    writers: dict[int, str],
    ev: FileEvidence,
    names: FileNames | None,
) -> list[Signal]:
    """This package's signals for dev's side of one hunk, each already weighted."""
    if hunk.taken in (Taken.DEV, Taken.BOTH):
        return []
    found = _present(_still_conflicted(hunk))
    if data:  # regenerated values: the loss is all there is to say, and it is cheap to redo
        return found + _present(dev_only_lines_dropped(hunk, lost, hunk.dev_commits, ev, None, data=True))
    chain = _present(older_dev_state(hunk, ev), squash_counterpart(hunk, ev, bool(lost.code())))
    found += _counted_once(chain, lost, hunk)
    if not any(s.weight for s in found):
        found += _present(dev_text_in_main_history(hunk, ev))
    hunk_writers = ev.dev.oldest_first([writers[n] for n in lost.lines if n in writers])[::-1]
    dropped = dev_only_lines_dropped(hunk, lost, hunk_writers, ev, names)
    if dropped is None:
        if not any(s.kind == SignalKind.MAIN_AHEAD for s in found):
            found += _present(_main_has_dev_lines(hunk, ev))
        return found
    if not any(s.weight > 0 for s in found):  # a squash chain outweighs main's deletion
        found += _present(main_removed_intentionally(hunk, lost, ev, bool(still_needed(hunk, lost, names))))
    return [*found, dropped]


def _counted_once(chain: list[Signal], lost: Dropped, hunk: Hunk) -> list[Signal]:
    """Squash-chain signals, their evidence counted once.

    ``older-dev-state`` and ``squash-counterpart`` often name the same
    dropped follow-ups: both are said, the second adds nothing to the risk.
    When all dev would lose here is comment text, the chain weighs nothing
    either: a reworded comment is not lost work.
    """
    rising = [s for s in chain if s.weight > 0]
    only_comments = bool(lost.lines) and all(comment_only(line, hunk.base_text) for line in lost.text)
    out = []
    for signal in chain:
        if signal.weight > 0 and (only_comments or signal is not rising[0]):
            note = "only comments would change" if only_comments else "the same evidence, counted once"
            signal = replace(signal, message=f"{signal.message} ({note})", weight=0)
        out.append(signal)
    return out


def _main_signals(
    hunk: Hunk, alone: list[int], data: bool, writers: dict[int, str], ev: FileEvidence, kept: bool
) -> list[Signal]:
    """The main twin: main's own lines the result lost here, and what would make that intentional
    (``kept``: the policy keeps dev's version of the file).

    A hunk whose result holds dev's text and loses nothing of main's says
    so (``result-has-dev``) and scores 0.
    """
    merge = ev.file.merge
    assert merge is not None
    if not alone:
        if hunk.taken in (Taken.DEV, Taken.BOTH):
            held = "dev's text" if hunk.taken is Taken.DEV else "both sides' text"
            message = f"the result already holds {held} here (resolved by hand)"
            return [Signal(SignalKind.RESULT_HAS_DEV, message, (), kind_weight(SignalKind.RESULT_HAS_DEV))]
        return []
    hunk_writers = ev.main.oldest_first([writers[n] for n in alone if n in writers])[::-1]
    dropped = main_only_lines_dropped(hunk, alone, hunk_writers, merge, ev, data)
    if dropped is None:
        return []
    return [*_present(keep_dev_policy(kept), dev_removed_intentionally(hunk, ev)), dropped]


def _still_conflicted(hunk: Hunk) -> Signal | None:
    """A hunk with conflict markers has lost nothing yet; the other signals say what main's side would do."""
    if hunk.taken is not Taken.UNRESOLVED:
        return None
    return Signal(SignalKind.STILL_CONFLICTED, "the hunk is still conflicted: nobody has chosen a side yet", (), 0)


def _present(*signals: Signal | None) -> list[Signal]:
    return [s for s in signals if s is not None]


SAMPLE = 32
"""Lines per side looked at to tell a values-only hunk (they are uniform)."""


def _all_data(hunk: Hunk) -> bool:
    """Both sides only state values here (regenerated numbers, lock entries)."""
    text = b"".join((*_sample(hunk.dev_text), *_sample(hunk.main_text)))
    return meaningful(text) and is_data(text)


def _sample(lines: Sequence[bytes]) -> tuple[bytes, ...]:
    return tuple(lines[:: len(lines) // SAMPLE + 1])


def _main_has_dev_lines(hunk: Hunk, ev: FileEvidence) -> Signal | None:
    """Every line dev wrote here is also on main's side of the hunk: main has dev's change, and more."""
    merge = ev.file.merge
    assert merge is not None
    own = {norm(merge.ours[n]) for n in dev_changed(merge.ours_script, hunk) if meaningful(merge.ours[n])}
    if not own or hunk.taken is not Taken.MAIN or not own <= set(content_lines(hunk.main_text)):
        return None
    return Signal(
        SignalKind.MAIN_AHEAD,
        f"main's side already has {'the line' if len(own) == 1 else f'all {len(own)} lines'} dev wrote here, and more",
        (),
        MAIN_AHEAD_WEIGHT,
    )


def _writers(ev: FileEvidence, context: AnalysisContext, dropped: list[Dropped], sync: SyncCommits) -> dict[int, str]:
    """The dev commit that wrote each dropped line (one blame walk for the whole file, through the sync's own)."""
    lines = sorted({n for lost in dropped for n in lost.lines})
    history = context.snapshot.dev_history
    if not lines or history.blobs.get(ev.file.dev.path, {}).get(history.tip) is None:
        return {}
    return attribute_through(history, ev.file.dev.path, lines, context.mapper, sync, _reader(ev))


def _main_writers(ev: FileEvidence, context: AnalysisContext, lost: list[int], sync: SyncCommits) -> dict[int, str]:
    """The main commit that wrote each lost main line (one blame walk for the whole file, through the sync's own)."""
    history = context.snapshot.main_history
    if not lost or history.blobs.get(ev.file.main.path, {}).get(history.tip) is None:
        return {}
    return attribute_through(history, ev.file.main.path, sorted(set(lost)), context.mapper, sync, _reader(ev))


def _reader(ev: FileEvidence) -> Callable[[str], Sequence[bytes]]:
    return lambda oid: split_lines(ev.blobs.read(oid))
