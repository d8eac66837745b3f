"""Decisions saved by the app (its journal) in the report, and in ``--fail-on``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers.syncs import open_analysis

from workbench.cli import main
from workbench.resolve.events import FileChoice
from workbench.resolve.journal import Journal, Situation
from workbench.resolve.session import Session
from workbench.resolve.splice import Choice, Decision
from workbench.sample import SampleSync
from workbench.sample.dropped_lines import SPECS
from workbench.sample.structure import IMAGE


def _report(sync: SampleSync, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["report", "--repo", str(sync.path), "--format", "json", *args])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return code, report


def test_the_apps_journal_closes_hunks_and_lists_decisions(
    sample_merge_commit: SampleSync, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, analysis = open_analysis(sample_merge_commit.path)
    code, doc = _report(sample_merge_commit, capsys, "--fail-on", "low")
    assert (code, doc["decisions"]) == (1, [])
    assert doc["decisions_note"] == "no decisions saved in the app for this sync"

    session = Session(analysis)
    journal = Journal.for_situation(repo.gitdir, Situation.of(analysis))
    left = next(f for f in analysis.files if f.hunks and f.path != SPECS)
    for entry in analysis.files:
        for hunk in entry.hunks if entry is not left else ():
            journal.append(session.decide(entry.path, hunk.index, Decision(Choice.MAIN)))
    journal.append(session.decide(SPECS, 0, Decision(Choice.DEV)))
    journal.append(session.set_note(SPECS, 0, "restores #121's qk_l2_norm (ask @ada)"))
    journal.append(session.choose_file(IMAGE, FileChoice.KEEP_DEV))
    journal.append(session.set_note(left.path, None, "still looking"))

    # Kept main holds (the commit has main's text); restoring dev is decided, not in the file: still open.
    code, doc = _report(sample_merge_commit, capsys, "--fail-on", "low")
    assert code == 1
    assert {(o["path"], o["index"]) for o in doc["gate"]["open"]} == {(left.path, h.index) for h in left.hunks} | {
        (SPECS, 0)}
    decisions = {(d["path"], d["index"]): d for d in doc["decisions"]}
    made = decisions[(SPECS, 0)]
    assert made["at"] and made["at"].endswith("Z"), "when it was decided (ISO 8601 UTC)"
    assert {**made, "at": None} == {"path": SPECS, "index": 0, "choice": "dev", "disposition": "restored dev",
                                    "note": "restores #121's qk_l2_norm (ask @ada)", "decided_by": "app",
                                    "reason": None, "who": None, "at": None, "in_file": False, "mark": None}
    assert decisions[(IMAGE, None)]["disposition"] == "restored dev" and not decisions[(IMAGE, None)]["in_file"]
    assert decisions[(left.path, None)] == {"path": left.path, "index": None, "choice": None,
                                            "disposition": "undecided", "note": "still looking",
                                            "decided_by": "app", "reason": None, "who": None, "at": None,
                                            "in_file": True, "mark": None}
    assert all(d["in_file"] for (path, _), d in decisions.items() if d["choice"] == "main")

    for hunk in left.hunks:
        journal.append(session.decide(left.path, hunk.index, Decision(Choice.MAIN)))
    code, doc = _report(sample_merge_commit, capsys, "--fail-on", "low")
    assert (code, [(o["path"], o["index"]) for o in doc["gate"]["open"]]) == (1, [(SPECS, 0)])
    journal.append(session.decide(SPECS, 0, Decision(Choice.MAIN)))
    code, doc = _report(sample_merge_commit, capsys, "--fail-on", "low")
    assert (code, doc["gate"]["open"]) == (1, [])  # every hunk decided; what breaks the build outside them stays
    left_open = [i for i in doc["worklist"] if i["id"] in doc["gate"]["items"]]
    assert left_open and all(i["kind"] == "api-break" and {w["hunk"] for w in i["waiting"]} == {None}
                             for i in left_open)
    journal.append(session.decide(SPECS, 0, Decision(Choice.DEV)))

    assert main(["report", "--repo", str(sample_merge_commit.path)]) == 0
    markdown = capsys.readouterr().out
    section = markdown.split("### Decisions recorded in the app", 1)[1]
    assert (f"- `{SPECS}` hunk 1: restored dev (decided, not in the file) (note: restores #121's qk\\_l2\\_norm "
            "(ask @&#8203;ada))") in section
    assert f"- `{IMAGE}` whole file: restored dev (decided, not in the file)" in section
