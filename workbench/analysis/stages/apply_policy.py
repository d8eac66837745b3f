"""The ``apply_policy`` pipeline stage: what the sync policy says about this sync.

Runs first.  A keep-dev file that does not hold dev's version is a
high-risk finding with the command that fixes it; an override-from-main
file is marked as intended (its main-taken hunks lose risk) and the API
audit then checks everything in it against dev's code; coupled files must
all come from the same side; for a keep-dev ``pyproject.toml``, git sources
main added to ``[tool.uv.sources]`` are listed, as the procedure asks.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from workbench.analysis.model import FileAnalysis, PolicyFinding, PolicyReport, Signal, SignalKind, SyncAnalysis, Taken
from workbench.analysis.policy.rules import COUPLED, KEEP_DEV, OVERRIDE_FROM_MAIN, Policy, Rule
from workbench.analysis.policy.uv import uv_source_findings
from workbench.analysis.readers import RepoFiles, Trees
from workbench.analysis.risk.signals import kind_weight
from workbench.analysis.seam import AnalysisContext, Fact, Stage, Unit

_SEVERITY_SIGNAL = {KEEP_DEV: SignalKind.POLICY_KEEP_DEV, COUPLED: SignalKind.POLICY_COUPLED, "uv": SignalKind.POLICY_UV_SOURCE}


Holds = Literal["dev", "main", "absent", "mix"]


@dataclass(frozen=True)
class _State:
    """A path's blob on each side and in the result (None: absent)."""

    dev: str | None
    main: str | None
    result: str | None

    @property
    def holds(self) -> Holds:
        """``dev``, ``main``, ``absent`` or ``mix``: what the result holds."""
        if self.result == self.dev:
            return "dev"
        if self.result == self.main:
            return "main"
        return "absent" if self.result is None else "mix"


def _prepare(analysis: SyncAnalysis, context: AnalysisContext) -> _Evaluation | None:
    policy, files = context.policy, context.repo_files
    if policy is None:
        return None
    entries = {f.path: f for f in analysis.files}
    trees = Trees(files, entries, context.held) if files is not None else None
    return _Evaluation(policy, analysis, entries, trees, files, context.paths)


def _units(evaluation: _Evaluation | None) -> tuple[Unit[None], ...]:
    return () if evaluation is None else (Unit(None),)


def _find(evaluation: _Evaluation | None, _key: None) -> PolicyReport:
    """The policy's report: its findings and the notes on the paths it looked at."""
    assert evaluation is not None
    findings = evaluation.run()
    return PolicyReport(evaluation.policy.name, evaluation.policy.source, tuple(findings), evaluation.notes())


def _fold(analysis: SyncAnalysis, found: Sequence[PolicyReport], evaluation: _Evaluation | None) -> SyncAnalysis:
    """Fill ``policy`` on the analysis and its files, with the findings' signals."""
    if evaluation is None or not found:
        return analysis
    (report,) = found
    updated = tuple(evaluation.annotate(entry, report.findings) for entry in analysis.files)
    return replace(analysis, files=updated, policy=report)


STAGE = Stage("apply_policy", frozenset(), frozenset({Fact.POLICY, Fact.SIGNALS}), _prepare, _units, _find, _fold)
"""What the sync policy says: reads only the engine's facts and the context's policy."""


class _Evaluation:
    def __init__(
        self, policy: Policy, analysis: SyncAnalysis, entries: dict[str, FileAnalysis],
        trees: Trees | None, files: RepoFiles | None, only: frozenset[str] | None = None,
    ) -> None:
        self.policy = policy
        self.analysis = analysis
        self.entries = entries
        self.trees = trees
        self.files = files
        self.only = only
        self.seen: set[str] = set(entries)
        self._changed: set[str] | None = None

    def changed(self) -> set[str]:
        """Paths whose result differs from dev's or main's version (read once)."""
        if self._changed is None:
            self._changed = set()
            if self.files is not None:
                for side in ("dev", "main"):
                    self._changed.update(c.path for c in self.files.changes(side, "result"))
        return self._changed

    def paths(self) -> list[str]:
        """Conflicted paths plus those the result changed (asked about some paths only: the conflicted ones)."""
        found = set(self.entries) if self.only is not None else set(self.entries) | self.changed()
        self.seen |= found
        return sorted(found)

    def concerns(self, group: tuple[Rule, ...]) -> bool:
        """Whether a coupled group bears on what the caller asked about."""
        return self.only is None or any(rule.matches(path) for rule in group for path in self.only)

    def state(self, path: str) -> _State:
        if self.trees is not None:
            return _State(*(self.trees.blob_id(role, path) for role in ("dev", "main", "result")))
        entry = self.entries[path]
        return _State(entry.dev.oid, entry.main.oid, entry.result_oid if entry.result_present else None)

    def run(self) -> list[PolicyFinding]:
        findings: list[PolicyFinding] = []
        for path in self.paths():
            keep = self.policy.keep_dev_rule(path)
            if keep is not None:
                findings.extend(self.keep_dev(path, keep))
            elif (override := self.policy.override_rule(path)) is not None:
                findings.extend(self.override(path, override))
        for group in self.policy.coupled:
            if self.concerns(group):
                findings.extend(self.coupled(group))
        return findings

    def keep_dev(self, path: str, rule: Rule) -> list[PolicyFinding]:
        state = self.state(path)
        found: list[PolicyFinding] = []
        if path.rsplit("/", 1)[-1] == "pyproject.toml" and self.trees is not None:
            uv, acceptable = uv_source_findings(self.trees, path, rule)
            found.extend(uv)
            if acceptable:
                return found
        if state.holds == "dev":
            return found
        dev = self.analysis.dev
        fix = f"git rm -- {shlex.quote(path)}" if state.dev is None else f"git checkout {dev} -- {shlex.quote(path)}"
        what = {
            "main": "the result holds main's version",
            "absent": "the result deleted it",
            "mix": self._mix(path),
        }[state.holds]
        if state.dev is None:
            what = "dev does not have this file, the result does"
        found.insert(0, PolicyFinding(
            path, KEEP_DEV, "main-text-in-keep-dev" if state.holds in ("main", "mix") else "keep-dev-absent",
            f"{path} must keep dev's version ({rule.source}), but {what}. Fix: {fix}",
            "high", fix, rule.source,
        ))
        return found

    def _mix(self, path: str) -> str:
        entry = self.entries.get(path)
        if entry is None:
            return "the result mixes both sides' changes"
        taken = sum(1 for h in entry.hunks if h.taken is Taken.MAIN)
        if taken:
            if taken == len(entry.hunks):
                return "its hunk holds main's text" if taken == 1 else f"all {taken} of its hunks hold main's text"
            return f"{taken} of its {len(entry.hunks)} hunks hold main's text"
        return "the result mixes both sides' changes"

    def override(self, path: str, rule: Rule) -> list[PolicyFinding]:
        state = self.state(path)
        if state.holds in ("main", "absent") or state.main is None:
            return []
        main = self.analysis.main
        fix = f"git checkout {main} -- {shlex.quote(path)}"
        return [PolicyFinding(
            path, OVERRIDE_FROM_MAIN, "override-not-main",
            f"{path} is taken from main by policy ({rule.source}), but the result is not main's version; "
            f"if the override applies, run {fix} and check the API audit's findings for it",
            "info", fix, rule.source,
        )]

    def coupled(self, group: tuple[Rule, ...]) -> list[PolicyFinding]:
        known = sorted(self.seen | self.changed())
        members = [p for rule in group for p in known if rule.matches(p)] or [r.pattern for r in group]
        states = {path: self.state(path) for path in dict.fromkeys(members)}
        moved = {path: s.holds for path, s in states.items() if s.dev != s.main}
        if set(moved.values()) in (set(), {"dev"}, {"main"}):
            return []
        listed = ", ".join(f"{path} holds {'a mix' if holds == 'mix' else holds + chr(39) + 's'}" for path, holds in moved.items())
        keep = all(self.policy.keep_dev_rule(p) for p in states)
        fix = f"git checkout {self.analysis.dev} -- " + " ".join(shlex.quote(p) for p in states) if keep else None
        return [PolicyFinding(
            next(iter(moved)), COUPLED, "coupled-split",
            f"{', '.join(states)} must come from the same side ({group[0].source}): {listed}"
            + (f". Fix: {fix}" if fix else ""),
            "medium", fix, group[0].source,
        )]

    def notes(self) -> tuple[str, ...]:
        return tuple(
            f"{rule.pattern}: {text}" for rule, text in self.policy.notes if any(rule.matches(p) for p in self.seen)
        )

    def annotate(self, entry: FileAnalysis, findings: Sequence[PolicyFinding]) -> FileAnalysis:
        """The file's rule, and signals for its findings, its intended main hunks and its notes."""
        name = self.policy.rule_name(entry.path)
        if name is None and not self.policy.notes_for(entry.path):
            return entry
        signals = list(entry.signals)
        for finding in (f for f in findings if f.path == entry.path):
            kind = _SEVERITY_SIGNAL.get("uv" if finding.kind == "uv-source-missing" else finding.rule)
            if finding.kind == "uv-source-revision":
                kind = SignalKind.POLICY_UV_REVISION
            if finding.rule == OVERRIDE_FROM_MAIN:
                kind = SignalKind.POLICY_OVERRIDE_DIVERGED
            if kind is not None:
                signals.append(Signal(kind, finding.message, (), kind_weight(kind)))
        note = SignalKind.POLICY_NOTE
        signals.extend(Signal(note, text, (), kind_weight(note)) for text in self.policy.notes_for(entry.path))
        hunks = entry.hunks
        if name == OVERRIDE_FROM_MAIN:
            rule = self.policy.override_rule(entry.path)
            assert rule is not None
            intended = Signal(
                SignalKind.POLICY_OVERRIDE,
                f"main's text is intended here: the file is on the override list ({rule.source})",
                (), kind_weight(SignalKind.POLICY_OVERRIDE),
            )
            hunks = tuple(replace(h, signals=h.signals + (intended,)) if h.taken is Taken.MAIN else h for h in hunks)
        return replace(entry, policy=name, signals=tuple(signals), hunks=hunks)
