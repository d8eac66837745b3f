"""The ``score_edits`` stage: risk for the edits beyond git's merge.

Edit hunks go through the same risk stage as conflict hunks (``score_risk``
runs on a view of each file whose hunks are its edits, so every signal, and
whatever it computes per hunk, applies to them too).  Two things differ for
an edit and are settled here:
* "the result already holds dev's text" means nothing reassuring on an edit:
  git had merged main's change cleanly and the resolution put dev's text back
  over it, which is how main's work gets lost; that signal is dropped;
* what the resolution undid is said plainly: the lines each side wrote since
  the base (git merged them cleanly) that the result no longer has, with the
  commits that wrote them (``resolution-dropped-dev``/``-main``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from workbench.analysis.model import FileAnalysis, Hunk, HunkKind, Signal, SignalKind, SyncAnalysis, Whose
from workbench.analysis.risk.combine import explained_risk, file_risk, hunk_risk, level_of
from workbench.analysis.risk.line_compare import content_lines, is_data
from workbench.analysis.risk.signals import kind_weight
from workbench.analysis.seam import AnalysisContext, Fact, Stage, Unit
from workbench.analysis.stages.score_risk import OwnRisk, RiskScorer, fold_risk

CODE_WEIGHT = kind_weight(SignalKind.RESOLUTION_DROPPED_DEV)
"""Code one side wrote, merged cleanly by git, removed by the resolution (either side's weighs the same)."""
PER_LINE = 2
MAX_LINES_BONUS = 20
DATA_WEIGHT = 5
"""Only values (lock entries, golden numbers) or comments."""
OVERRIDE_WEIGHT = 15
"""When the risk stage's own loss signal already weighs the lost lines (with its
evidence of intent), this says only that the resolution overrode git's clean
merge: the same 15 a conflict starts from when ``-X theirs`` chose blindly."""
_TWIN: dict[Whose, SignalKind] = {"dev": SignalKind.DEV_ONLY_LINES_DROPPED, "main": SignalKind.MAIN_ONLY_LINES_DROPPED}
"""The risk stage's loss signal for the same side's lines."""
_DROPPED: dict[Whose, SignalKind] = {"dev": SignalKind.RESOLUTION_DROPPED_DEV, "main": SignalKind.RESOLUTION_DROPPED_MAIN}


def _prepare(analysis: SyncAnalysis, context: AnalysisContext) -> RiskScorer | None:
    """The risk stage's scorer over ``edits_view(analysis)`` (None: no edit lost a side's lines)."""
    view = _edits_view(analysis)
    return RiskScorer(view, context) if view is not None else None


def _units(scorer: RiskScorer | None) -> list[Unit[int]]:
    return scorer.units() if scorer is not None else []


def _find(scorer: RiskScorer | None, index: int) -> OwnRisk:
    assert scorer is not None
    return scorer.file(index)


def _inputs(scorer: RiskScorer | None, index: int) -> tuple[object, ...]:
    assert scorer is not None
    return scorer.inputs(index)


def _edits_view(analysis: SyncAnalysis) -> SyncAnalysis | None:
    """The files with edits that lost some side's own lines, those edits as their hunks (None: no such edit).

    Only those go through the risk stage: the rest add text, or rewrite
    text nobody wrote since the base (nothing of either side's work is at
    stake there, and scoring them is most of the cost on a PR that
    reformats files).
    """
    with_edits = [f for f in analysis.files if any(_loses(h) for h in f.edits)]
    if not with_edits:
        return None
    return replace(
        analysis,
        files=tuple(replace(f, hunks=tuple(h for h in f.edits if _loses(h)), signals=()) for f in with_edits),
    )


def _fold(analysis: SyncAnalysis, found: Sequence[OwnRisk], scorer: RiskScorer | None) -> SyncAnalysis:
    """``analysis`` with its edits scored from the risk findings on the view, folded into each file's risk."""
    scored: dict[tuple[str, int], Hunk] = {}
    if scorer is not None:
        scored = {(f.path, h.index): h for f in fold_risk(scorer.analysis, found).files for h in f.hunks}
    return replace(analysis, files=tuple(_folded(f, scored) for f in analysis.files))


STAGE = Stage(
    "score_edits", frozenset(), frozenset({Fact.SIGNALS, Fact.RISK}),
    _prepare, _units, _find, _fold, _inputs,
)
"""Edit hunks scored like conflicts; its fold raises a file's risk to its riskiest edit's."""


def _loses(hunk: Hunk) -> bool:
    return _dropped(hunk, "dev") is not None or _dropped(hunk, "main") is not None


def _folded(entry: FileAnalysis, scored: dict[tuple[str, int], Hunk]) -> FileAnalysis:
    if not entry.edits:
        return entry
    edits = tuple(_rescored(scored.get((entry.path, h.index), h)) for h in entry.edits)
    risk = max(entry.risk, file_risk((h.risk for h in edits), ()))
    return replace(entry, edits=edits, risk=risk, level=level_of(risk))


def _rescored(hunk: Hunk) -> Hunk:
    assert hunk.kind is HunkKind.EDIT
    signals = [s for s in hunk.signals if s.kind != SignalKind.RESULT_HAS_DEV]
    for side in ("dev", "main"):
        if not hunk.lost_lines.side(side):
            continue  # the result keeps this side's lines near the edit, or the evidence explained them
        found = _dropped(hunk, side)
        if found is not None and any(s.kind == _TWIN[side] for s in signals):
            found = replace(found, weight=OVERRIDE_WEIGHT)
        if found is not None:
            signals.append(found)
    risk = explained_risk(hunk_risk(hunk.taken, signals), signals, hunk.lost_lines)
    return replace(hunk, signals=tuple(signals), risk=risk, level=level_of(risk))


def _dropped(hunk: Hunk, side: Whose) -> Signal | None:
    """Lines ``side`` wrote since the base that git merged here and the result dropped."""
    text = hunk.dev_text if side == "dev" else hunk.main_text
    other = hunk.main_text if side == "dev" else hunk.dev_text
    before = set(content_lines(hunk.base_text)) | set(content_lines(other))
    kept = set(content_lines(hunk.result_text or ()))
    lost = [line for line in dict.fromkeys(content_lines(text)) if line not in before and line not in kept]
    if not lost:
        return None
    commits = hunk.dev_commits if side == "dev" else hunk.main_commits
    data = all(is_data(line) or line.lstrip().startswith((b"#", b"//")) for line in lost)
    weight = DATA_WEIGHT if data else CODE_WEIGHT + min(MAX_LINES_BONUS, PER_LINE * (len(lost) - 1))
    what = "a line" if len(lost) == 1 else f"{len(lost)} lines"
    who = f" (written by {', '.join(c[:10] for c in commits)})" if commits else ""
    message = (
        f"git merged {side}'s change here cleanly; the resolution dropped {what} of it{who}: "
        f"{lost[0].decode('utf-8', 'replace').strip()[:80]!r}"
    )
    return Signal(_DROPPED[side], message, tuple(commits), weight)
