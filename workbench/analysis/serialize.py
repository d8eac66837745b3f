"""The ``workbench.analysis/1`` JSON document (a public contract: extend, never rename)."""

from __future__ import annotations

import json
import re
import time
from enum import Enum
from typing import Any

from workbench.analysis.model import (
    SCHEMA,
    ApiMismatch,
    ChoiceLoss,
    Commit,
    DeletedFile,
    DuplicateDefinition,
    FileAnalysis,
    Hunk,
    LineRange,
    PolicyFinding,
    PolicyReport,
    Signal,
    SyncAnalysis,
    SyncChange,
)
from workbench.analysis.suggest.serialized import candidate_json, file_suggestion_json, suggestion_json
from workbench.analysis.worklist.serialized import add_items, worklist_summary, worklist_to_json


def analysis_to_json(analysis: SyncAnalysis, *, files: bool = True) -> dict[str, Any]:
    """The whole analysis as plain JSON data (``files=False``: with an empty list of files)."""
    return {
        "schema": SCHEMA,
        "mode": analysis.mode.value,
        "dev": analysis.dev,
        "main": analysis.main,
        "base": analysis.base,
        "merge": analysis.merge,
        "files": [file_to_json(f, analysis) for f in analysis.files] if files else [],
        "api_mismatches": [mismatch_to_json(m) for m in analysis.api_mismatches],
        "summary": summary_to_json(analysis),
        "git_version": analysis.git_version,
        "deleted_files": [deleted_file_to_json(d) for d in analysis.deleted_files],
        "policy": policy_to_json(analysis.policy) if analysis.policy is not None else None,
        "resolver": analysis.resolver.value,
        "worklist": worklist_to_json(analysis),
        "duplicate_definitions": [duplicate_to_json(d) for d in analysis.duplicates],
    }


_NO_FILES = '"files": []'


def analysis_json_text(analysis: SyncAnalysis) -> list[str]:
    """``strict_json(analysis_to_json(analysis))`` in pieces, a file's JSON data made and dropped one at a time.

    The whole document's data and the encoder's output held at once took four
    times the text's size: 37 MB for the 9.3 MB of a 2,000-file sync's JSON.
    (Only plain strings come before the files, and no string holds
    ``"files": []`` with its quotes unescaped, so the first one is the key.)
    """
    head, tail = strict_json(analysis_to_json(analysis, files=False)).split(_NO_FILES, 1)
    pieces = [head + '"files": [']
    for n, entry in enumerate(analysis.files):
        pieces.append((", " if n else "") + strict_json(file_to_json(entry, analysis)))
    pieces.append("]" + tail)
    return pieces


_NOT_UTF8 = re.compile("[\udc80-\udcff]")
"""A byte that is not UTF-8, as Python keeps it in a string (``surrogateescape``)."""
_C_ESCAPES = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r",
              '"': '\\"', "\\": "\\\\"}


def strict_json(data: Any, indent: int | None = None) -> str:
    """``json.dumps(data)`` that strict readers accept: a string holding bytes that are not UTF-8 (a file
    name git stores as bytes) would be a lone surrogate; it is given as git quotes such a name instead
    (``quote_name``), and so is any string that starts with a double quote, so the quoted form is never
    ambiguous.  Costs one scan of the text when no such string is there."""
    text = json.dumps(data, indent=indent)
    if "\\udc" not in text and '"\\"' not in text:
        return text
    return json.dumps(_quoted(data), indent=indent)


def _quoted(value: Any) -> Any:
    if isinstance(value, str):
        return quote_name(value) if value.startswith('"') or _NOT_UTF8.search(value) else value
    if isinstance(value, dict):
        return {_quoted(k): _quoted(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_quoted(v) for v in value]
    return value


def quote_name(text: str) -> str:
    """``text`` as git quotes a path (``core.quotePath=false``): in double quotes, ``"`` and backslash
    escaped, control characters as C escapes (``\\t``) or three octal digits, and each byte that is not
    UTF-8 as three octal digits (``"caf\\351.txt"``); other characters as they are."""
    out = ['"']
    for char in text:
        code = ord(char)
        if char in _C_ESCAPES:
            out.append(_C_ESCAPES[char])
        elif 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\{code - 0xDC00:03o}")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\{code:03o}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def summary_to_json(analysis: SyncAnalysis) -> dict[str, Any]:
    """Counts a bot or a PR comment wants at a glance."""
    hunks = [h for f in analysis.files for h in f.hunks]
    levels = {"high": 0, "medium": 0, "low": 0}
    for hunk in hunks:
        levels[hunk.level.value] += 1
    return {
        "main_commits": analysis.main_commits,
        "dev_commits": analysis.dev_commits,
        "files": len(analysis.files),
        "hunks": len(hunks),
        "levels": levels,
        "statuses": _count(f.status.value for f in analysis.files),
        "exact_files": sum(1 for f in analysis.files if f.exact),
        "checked_files": sum(1 for f in analysis.files if f.exact is not None),
        "api_mismatches": len(analysis.api_mismatches),
        "deleted_files": len(analysis.deleted_files),
        "policy_findings": len(analysis.policy.findings) if analysis.policy is not None else 0,
        "edit_hunks": sum(len(f.edits) for f in analysis.files),
        "edit_levels": _count(h.level.value for f in analysis.files for h in f.edits),
        "worklist": worklist_summary(analysis),
    }


def file_to_json(entry: FileAnalysis, analysis: SyncAnalysis | None = None) -> dict[str, Any]:
    data = {
        "path": entry.path,
        "status": entry.status.value,
        "policy": entry.policy,
        "risk": entry.risk,
        "level": entry.level.value,
        "hunks": [hunk_to_json(h) for h in entry.all_hunks],
        "signals": [signal_to_json(s) for s in entry.signals],
        "history": {
            "dev": [commit_to_json(c) for c in entry.history.dev],
            "main": [commit_to_json(c) for c in entry.history.main],
            "sync": [sync_change_to_json(c) for c in entry.history.sync],
        },
        "kind": entry.kind.value,
        "sides": {
            "base": _side(entry.base),
            "dev": _side(entry.dev),
            "main": _side(entry.main),
            "result": {"oid": entry.result_oid, "present": entry.result_present},
        },
        "exact": entry.exact,
        "messages": list(entry.messages),
        "decided_by": _value(entry.settled_by),
        "decided_at": _iso(entry.decided_at),
        "changed_after_merge": entry.later,
        "suggestion": file_suggestion_json(entry.suggestion),
    }
    return add_items(data, entry, analysis.worklist if analysis is not None else None)  # worklist/: its own field


def _value(member: Enum | None) -> Any:
    return member.value if member is not None else None


def _iso(at: float | None) -> str | None:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at)) if at else None


def hunk_to_json(hunk: Hunk) -> dict[str, Any]:
    return {
        "index": hunk.index,
        "base_lines": hunk.base.as_list(),
        "dev_lines": hunk.dev.as_list(),
        "main_lines": hunk.main.as_list(),
        "result_lines": _range(hunk.result),
        "taken": hunk.taken.value,
        "kind": hunk.kind.value,
        "risk": hunk.risk,
        "level": hunk.level.value,
        "signals": [signal_to_json(s) for s in hunk.signals],
        "dev_commits": list(hunk.dev_commits),
        "main_commits": list(hunk.main_commits),
        "lost_lines": {
            "dev": [r.as_list() for r in hunk.lost_lines.dev],
            "main": [r.as_list() for r in hunk.lost_lines.main],
        },
        "choice_loses": choice_loss_to_json(hunk.choice_loss),
        "suggestion": suggestion_json(hunk.suggestion, hunk) if hunk.suggestion is not None else None,
        "candidates": [candidate_json(c, hunk) for c in hunk.candidates],
    }


def choice_loss_to_json(loss: ChoiceLoss) -> dict[str, Any]:
    """What taking each side here would lose of the other's lines: ``{"dev": {"main": ranges}, "main": {"dev": ranges}}``."""
    return {
        "dev": {"main": [r.as_list() for r in loss.take_dev]},
        "main": {"dev": [r.as_list() for r in loss.take_main]},
    }


def signal_to_json(signal: Signal) -> dict[str, Any]:
    return {
        "kind": signal.kind.value,
        "message": signal.message,
        "commits": list(signal.commits),
        "weight": signal.weight,
    }


def commit_to_json(commit: Commit) -> dict[str, Any]:
    return {
        "sha": commit.sha,
        "subject": commit.subject,
        "author": commit.author,
        "date": commit.date,
        "pr": commit.pr,
    }


def sync_change_to_json(change: SyncChange) -> dict[str, Any]:
    """A commit of the sync itself that changed the file on one side (``history.sync``)."""
    return {**commit_to_json(change.commit), "side": change.side, "reason": change.reason.value, "lines": change.lines}


def duplicate_to_json(d: DuplicateDefinition) -> dict[str, Any]:
    return {"path": d.path, "scope": d.scope, "name": d.name, "lines": list(d.lines), "dev_line": d.dev_line,
            "main_line": d.main_line}


def _side(side: Any) -> dict[str, Any]:
    return {"path": side.path, "oid": side.oid, "mode": f"{side.mode:06o}" if side.mode else None}


def _range(value: LineRange | None) -> list[int] | None:
    return value.as_list() if value is not None else None


def _count(values: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for value in values:
        out[value] = out.get(value, 0) + 1
    return out


def mismatch_to_json(mismatch: ApiMismatch) -> dict[str, Any]:
    return {
        "path": mismatch.path,
        "line": mismatch.line,
        "symbol": mismatch.symbol,
        "kind": mismatch.kind,
        "message": mismatch.message,
        "side": mismatch.side,
        "callee_path": mismatch.callee_path,
        "callee_line": mismatch.callee_line,
        "commits": list(mismatch.commits),
        "hunk": mismatch.hunk,
    }


def deleted_file_to_json(deleted: DeletedFile) -> dict[str, Any]:
    by = deleted.deleted_by
    return {
        "path": deleted.path,
        "main_oid": deleted.main_oid,
        "in_base": deleted.in_base,
        "dev_present": deleted.dev_present,
        "verdict": deleted.verdict,
        "message": deleted.message,
        "importers": [{"path": i.path, "line": i.line} for i in deleted.importers],
        "deleted_by": None if by is None else {"sha": by.sha, "subject": by.subject, "pr": by.pr},
    }


def finding_to_json(finding: PolicyFinding) -> dict[str, Any]:
    return {
        "path": finding.path,
        "rule": finding.rule,
        "kind": finding.kind,
        "message": finding.message,
        "severity": finding.severity,
        "fix": finding.fix,
        "source": finding.source,
    }


def policy_to_json(policy: PolicyReport) -> dict[str, Any]:
    return {
        "name": policy.name,
        "source": policy.source,
        "findings": [finding_to_json(f) for f in policy.findings],
        "notes": list(policy.notes),
    }
