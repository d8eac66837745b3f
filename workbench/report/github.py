"""The report as GitHub Actions workflow commands: one annotation per finding.

Open high-risk hunks are ``::error``, open medium-risk hunks ``::warning``;
a risky hunk somebody already addressed (decided in the app, or fixed in the
result) is a ``::notice`` so the PR still shows it.  Policy findings follow
their severity (high, medium, info: error, warning, notice); API mismatches
and deleted files are warnings, except files dev deleted on purpose
(notices).  Messages and properties are percent-encoded by GitHub's rules.
"""

from __future__ import annotations

from typing import Literal

from workbench.analysis.model import Level, PolicyFinding, Severity
from workbench.report.document import Report, RiskyHunk
from workbench.report.escape import workflow_data, workflow_property
from workbench.report.phrases import (
    commit_label,
    decided_where,
    decision_label,
    gate_sentence,
    hunk_facts,
    suggested_words,
    summary_facts,
)

Annotation = Literal["error", "warning", "notice"]
"""A workflow command's level (how GitHub shows the annotation)."""
_POLICY_KIND: dict[Severity, Annotation] = {"high": "error", "medium": "warning", "info": "notice"}
LEAVE_DELETED = "leave-deleted"
"""The deleted-file audit's verdict for a file dev deleted on purpose: nothing to do."""


def render_github(report: Report) -> str:
    lines = [_hunk(r) for r in report.risky]
    lines += [_policy(f) for f in report.policy_findings]
    for mismatch in report.api_mismatches:
        lines.append(_command("warning", mismatch.message, file=mismatch.path, line=mismatch.line, title="API mismatch"))
    lines += [
        _command("notice" if d.verdict == LEAVE_DELETED else "warning", d.message, file=d.path,
                 title=f"file deleted: {d.verdict}")
        for d in report.deleted_files
    ]
    lines += [
        _command("warning", f"{e.event}: {e.reason}", file=e.path, title=f"file {e.event}")
        for e in report.file_events
    ]
    gate = gate_sentence(report)
    if report.gate is not None and report.gate.failed and gate:
        lines.append(_command("error", gate, title="workbench report"))
    lines.append("workbench report: " + "; ".join(summary_facts(report)) + (f"; {gate}" if gate else ""))
    return "\n".join(lines) + "\n"


def _policy(finding: PolicyFinding) -> str:
    message = finding.message
    if finding.fix and finding.fix not in message:
        message += f"\nFix: {finding.fix}"
    kind = _POLICY_KIND[finding.severity]
    return _command(kind, message, file=finding.path, title=f"sync policy: {finding.rule}")


def _hunk(risky: RiskyHunk) -> str:
    hunk = risky.hunk
    kind: Annotation
    if not risky.open:
        kind = "notice"
    else:
        kind = "error" if risky.level is Level.HIGH else "warning"
    reasons = [s.message for s in hunk.signals] or ["no reasons recorded"]
    message = "\n".join(reasons)
    if (suggested := suggested_words(risky)) is not None:
        message += f"\n{suggested}"
    for side, commits in (("dev", risky.dev_commits), ("main", risky.main_commits)):
        if commits:
            message += f"\n{side}: " + "; ".join(commit_label(c) for c in commits)
    if risky.decision is not None:
        message += f"\n{decided_where(risky.decision)}: " + decision_label(risky.decision)
        if risky.decision.note.strip():
            message += f" (note: {risky.decision.note})"
    line = end = None
    if hunk.result is not None:
        line = max(hunk.result.start if not hunk.result.empty else hunk.result.start - 1, 1)
        end = max(hunk.result.end, line)
    return _command(
        kind,
        message,
        file=risky.path,
        line=line,
        end_line=end,
        title=f"{risky.level.value}-risk hunk ({hunk_facts(hunk)})",
    )


def _command(
    kind: Annotation,
    message: str,
    *,
    file: str | None = None,
    line: int | None = None,
    end_line: int | None = None,
    title: str | None = None,
) -> str:
    props = []
    if file is not None:
        props.append(f"file={workflow_property(file)}")
    if line is not None:
        props.append(f"line={line}")
    if end_line is not None:
        props.append(f"endLine={end_line}")
    if title:
        props.append(f"title={workflow_property(title)}")
    head = f"::{kind} {','.join(props)}" if props else f"::{kind}"
    return f"{head}::{workflow_data(message)}"
