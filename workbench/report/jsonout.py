"""The report as JSON (``workbench.report/1``): the Markdown's content for bots.

Entities keep the names of ``workbench.analysis/1`` (a hunk here is
``hunk_to_json`` plus its path, a commit is ``commit_to_json``); the
report's own sections get their own keys.  Extend, never rename.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.analysis.model import SCHEMA as ANALYSIS_SCHEMA
from workbench.analysis.serialize import (
    commit_to_json,
    deleted_file_to_json,
    finding_to_json,
    hunk_to_json,
    mismatch_to_json,
    policy_to_json,
    summary_to_json,
)
from workbench.analysis.worklist.serialized import item_to_json
from workbench.report.document import RecordedDecision, Report, RiskyHunk
from workbench.report.items import ReportItem
from workbench.textsafe import decode

SCHEMA = "workbench.report/1"


def report_to_json(report: Report) -> dict[str, Any]:
    analysis = report.analysis
    summary = summary_to_json(analysis)
    summary["theirs_hunks"] = report.theirs_hunks
    summary["unresolved_hunks"] = report.unresolved_hunks
    summary["resolver"] = analysis.resolver.value
    stats = report.stats
    summary["python_lines"] = {"added": stats.added, "deleted": stats.deleted, "files": stats.files} if stats else None
    return {
        "schema": SCHEMA,
        "analysis_schema": ANALYSIS_SCHEMA,
        "mode": analysis.mode.value,
        "dev": analysis.dev,
        "main": analysis.main,
        "base": analysis.base,
        "merge": analysis.merge,
        "summary": summary,
        "risky_hunks": [_risky(r) for r in report.risky],
        "main_taken": [
            {"path": t.path, "status": t.status.value, "policy": t.policy, "hunks": t.hunks, "reason": t.reason}
            for t in report.taken
        ],
        "policy": policy_to_json(analysis.policy) if analysis.policy is not None else None,
        "policy_findings": [finding_to_json(f) for f in report.policy_findings],
        "api_mismatches": [mismatch_to_json(m) for m in report.api_mismatches],
        "deleted_files": [deleted_file_to_json(d) for d in report.deleted_files],
        "file_events": [{"path": e.path, "event": e.event, "reason": e.reason} for e in report.file_events],
        "beyond_merge": [
            {"path": b.path, "status": b.status.value, "edits": b.edits, "high": b.high, "medium": b.medium,
             "changed_after_merge": b.later}
            for b in report.beyond
        ],
        "worklist": [_item(i, report) for i in report.items],
        "decisions": [_decision(d) for d in report.decisions],
        "decisions_note": report.decisions_note or None,
        "gate": _gate(report),
        "git_version": analysis.git_version,
    }


def _risky(risky: RiskyHunk) -> dict[str, Any]:
    hunk = risky.hunk
    return {
        "path": risky.path,
        **hunk_to_json(hunk),
        "open": risky.open,
        "decision": _decision(risky.decision) if risky.decision else None,
        "commits": {
            "dev": [commit_to_json(c) for c in risky.dev_commits],
            "main": [commit_to_json(c) for c in risky.main_commits],
        },
        "text": {
            "base": _text(hunk.base_text),
            "dev": _text(hunk.dev_text),
            "main": _text(hunk.main_text),
            "result": _text(hunk.result_text) if hunk.result_text is not None else None,
        },
    }


def _decision(decision: RecordedDecision) -> dict[str, Any]:
    return {
        "path": decision.path,
        "index": decision.index,
        "choice": decision.choice.value if decision.choice is not None else None,
        "disposition": decision.disposition,
        "note": decision.note,
        "decided_by": decision.decided_by,
        "reason": decision.reason or None,
        "who": decision.who or None,
        "at": decision.at or None,
        "in_file": decision.in_file,
        "mark": decision.mark or None,
    }


def _gate(report: Report) -> dict[str, Any] | None:
    if report.gate is None:
        return None
    return {
        "level": report.gate.level.value,
        "failed": report.gate.failed,
        "open": [
            {"path": o.path, "index": o.index, "level": o.level.value, "taken": o.taken.value}
            for o in report.gate.open
        ],
        "items": [i.item.id for i in report.gate.items],
    }


def _item(entry: ReportItem, report: Report) -> dict[str, Any]:
    """An item as ``analyze --json`` has it, its state from the report's decisions, and what it still waits for."""
    data = item_to_json(entry.item, entry.state)
    data["open"] = entry.open
    data["waiting"] = [{"path": m.path, "hunk": m.hunk} for m in entry.pending]
    data["changed_after_merge"] = entry.later
    data["choice_loses"] = {"dev": {"main": entry.take_dev}, "main": {"dev": entry.take_main}}
    data["blocks"] = entry.blocks(report.gate.level) if report.gate is not None else None
    return data


def _text(lines: Sequence[bytes]) -> str:
    return decode(b"".join(lines))
