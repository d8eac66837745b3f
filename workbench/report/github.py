"""The report as GitHub Actions workflow commands: one annotation per worklist item.

Items the gate fails on are ``::error``, other open items ``::warning``,
the rest ``::notice`` (``worklist_github.py``); API failures, duplicate
definitions, deleted files and the policy's file findings are items too.
Policy findings that decide no file (notes, revisions) follow their
severity (high, medium, info: error, warning, notice), and modify/delete
conflicts outside the worklist are warnings.  Messages and properties are
percent-encoded by GitHub's rules.
"""

from __future__ import annotations

from workbench.analysis.model import PolicyFinding, Severity
from workbench.analysis.worklist.build import FILE_POLICY_KINDS
from workbench.report.document import Report
from workbench.report.escape import workflow_data, workflow_property
from workbench.report.phrases import gate_sentence, summary_facts
from workbench.report.worklist_github import Annotation, item_annotations

_POLICY_KIND: dict[Severity, Annotation] = {"high": "error", "medium": "warning", "info": "notice"}


def render_github(report: Report) -> str:
    lines = [_command(a.kind, a.message, file=a.file, line=a.line, end_line=a.end_line, title=a.title)
             for a in item_annotations(report)]
    lines += [_policy(f) for f in report.policy_findings if f.kind not in FILE_POLICY_KINDS]
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
