"""``--format json``: the report's content, validated, under the analyze schema's names."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from helpers.reports import git, report_for
from helpers.syncs import open_analysis

from workbench.analysis.model import DeletedFile, Level, PolicyFinding
from workbench.analysis.serialize import (
    analysis_json_text,
    analysis_to_json,
    commit_to_json,
    deleted_file_to_json,
    finding_to_json,
    hunk_to_json,
)
from workbench.cli import main
from workbench.report.document import RecordedDecision
from workbench.report.jsonout import SCHEMA, report_to_json
from workbench.resolve.splice import Choice
from workbench.sample import SampleSync
from workbench.sample.dropped_lines import SPECS
from workbench.sample.policy import CODEOWNERS
from workbench.sample.structure import RMS_NORM, SHIM

STR, INT, BOOL, LIST, DICT, NONE = str, int, bool, list, dict, type(None)
Shape = dict[str, type | tuple[type, ...]]
"""A record's keys and the types (isinstance's second argument) of their values."""

TOP: Shape = {
    "schema": STR, "analysis_schema": STR, "mode": STR, "dev": STR, "main": STR, "base": (STR, NONE),
    "merge": (STR, NONE), "summary": DICT, "risky_hunks": LIST, "main_taken": LIST,
    "policy": (DICT, NONE), "policy_findings": LIST, "api_mismatches": LIST, "deleted_files": LIST, "file_events": LIST,
    "beyond_merge": LIST, "worklist": LIST, "decisions": LIST,
    "decisions_note": (STR, NONE), "gate": (DICT, NONE), "git_version": STR,
}
ENTRIES: dict[str, Shape] = {
    "main_taken": {"path": STR, "status": STR, "policy": (STR, NONE), "hunks": INT, "reason": STR},
    "file_events": {"path": STR, "event": STR, "reason": STR},
    "beyond_merge": {"path": STR, "status": STR, "edits": INT, "high": INT, "medium": INT, "changed_after_merge": BOOL},
    "decisions": {"path": STR, "index": (INT, NONE), "choice": (STR, NONE), "disposition": STR, "note": STR,
                  "decided_by": STR, "reason": (STR, NONE), "who": (STR, NONE), "at": (STR, NONE), "in_file": BOOL, "mark": (STR, NONE)},
}
RISKY_EXTRA: Shape = {"path": STR, "open": BOOL, "decision": (DICT, NONE), "commits": DICT, "text": DICT}
GATE: Shape = {"level": STR, "failed": BOOL, "open": LIST, "items": LIST}


def _check(record: dict[str, Any], shape: Shape, where: str) -> None:
    assert set(record) == set(shape), where
    for key, kind in shape.items():
        assert isinstance(record[key], kind), f"{where}.{key}: {record[key]!r}"


def validate(doc: dict[str, Any], names: tuple[set[str], set[str]]) -> None:
    """The ``workbench.report/1`` shape, entry by entry; ``names``: analyze's hunk and commit keys."""
    hunk_names, commit_names = names
    _check(doc, TOP, "report")
    assert doc["schema"] == SCHEMA
    for section, shape in ENTRIES.items():
        for i, entry in enumerate(doc[section] or ()):
            _check(entry, shape, f"{section}[{i}]")
    for i, risky in enumerate(doc["risky_hunks"]):
        assert set(risky) - set(RISKY_EXTRA) == hunk_names, f"risky_hunks[{i}]"
        _check({k: risky[k] for k in RISKY_EXTRA}, RISKY_EXTRA, f"risky_hunks[{i}]")
        assert set(risky["commits"]) == {"dev", "main"}
        for commit in (*risky["commits"]["dev"], *risky["commits"]["main"]):
            assert set(commit) == commit_names
        assert set(risky["text"]) == {"base", "dev", "main", "result"}
    for finding in doc["policy_findings"]:
        assert set(finding) == set(finding_to_json(PolicyFinding("p", "keep-dev", "coupled-split", "m")))
    for deleted in doc["deleted_files"]:
        assert set(deleted) == set(deleted_file_to_json(DeletedFile("p", "0", True, False, "check", "m")))
    if doc["gate"] is not None:
        _check(doc["gate"], GATE, "gate")


def analyze_names(sync: SampleSync) -> tuple[set[str], set[str]]:
    """The names ``workbench.analysis/1`` gives a hunk and a commit, read off a real analysis."""
    _repo, analysis = open_analysis(sync.path)
    entry = next(f for f in analysis.files if f.hunks)
    return set(hunk_to_json(entry.hunks[0])), set(commit_to_json(entry.history.dev[0]))


def test_the_cli_writes_a_valid_document(bot_merge: SampleSync, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["report", "--repo", str(bot_merge.path), "--format", "json", "--fail-on", "high", "--policy", "megatron"]
    assert main(argv) in (0, 1)
    doc = json.loads(capsys.readouterr().out)
    validate(doc, analyze_names(bot_merge))
    _repo, analysis = open_analysis(bot_merge.path, policy="megatron")
    analyze = analysis_to_json(analysis)
    assert doc["policy_findings"] and doc["api_mismatches"]
    for key in ("mode", "dev", "main", "base", "merge", "git_version", "policy", "api_mismatches", "deleted_files"):
        assert doc[key] == analyze[key]
    assert set(analyze["summary"]) <= set(doc["summary"])
    assert doc["summary"]["python_lines"]["files"] > 0
    assert doc["gate"]["level"] == "high"


def test_the_analysis_json_in_pieces_is_the_whole_document_s_text(bot_merge: SampleSync) -> None:
    """``analyze --json`` writes the document a file at a time: the same text, byte for byte."""
    _repo, analysis = open_analysis(bot_merge.path, policy="megatron")
    pieces = analysis_json_text(analysis)
    assert len(pieces) == len(analysis.files) + 2 and len(analysis.files) > 3
    assert "".join(pieces) == json.dumps(analysis_to_json(analysis))
    assert "".join(analysis_json_text(replace(analysis, files=()))) == json.dumps(analysis_to_json(replace(analysis, files=())))


def test_the_same_content_as_the_markdown(bot_merge: SampleSync) -> None:
    marks = {(SPECS, 0): (Level.HIGH, ("dev's qk_l2_norm line is gone",))}
    decisions = [RecordedDecision(SPECS, 0, Choice.DEV, "restored by hand")]
    doc = json.loads(json.dumps(report_to_json(report_for(bot_merge, marks, decisions, Level.HIGH))))
    validate(doc, analyze_names(bot_merge))
    [risky] = doc["risky_hunks"]
    assert (risky["path"], risky["index"], risky["level"]) == (SPECS, 0, "high")
    assert risky["signals"][0]["message"] == "dev's qk_l2_norm line is gone"
    assert risky["decision"]["disposition"] == "restored dev" and risky["open"] is False
    assert "qk_l2_norm=qk_l2_norm" in risky["text"]["dev"]
    assert risky["text"]["result"] == risky["text"]["main"]
    dev_blob = git(bot_merge, "show", f"{bot_merge.dev}:{SPECS}").decode()
    assert risky["text"]["dev"] in dev_blob
    assert [c["subject"] for c in risky["commits"]["dev"]] == ["[dev] Add QK L2 norm to GPT layer specs (#121)"]
    assert {"path": CODEOWNERS, "status": "theirs-resolved", "policy": None, "hunks": 1,
            "reason": "-X theirs"} in doc["main_taken"]
    assert [(e["path"], e["event"]) for e in doc["file_events"]] == [(SHIM, "restored"), (RMS_NORM, "deleted")]
    assert doc["gate"] == {"level": "high", "failed": False, "open": [], "items": []}
    assert doc["decisions"] == [{"path": SPECS, "index": 0, "choice": "dev", "disposition": "restored dev",
                                 "note": "restored by hand", "decided_by": "app", "reason": None, "who": None,
                                 "at": None, "in_file": True, "mark": None}]
