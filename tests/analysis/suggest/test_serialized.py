"""Suggestions in ``analyze --json``: on real built syncs, each hunk's suggestion and menu as the stage put them
in the analysis, nothing else changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.syncs import analyze_preview

from workbench.analysis.model import Rung, Take
from workbench.analysis.serialize import analysis_json_text
from workbench.sample import build_scenario

OLD_HUNK_KEYS = {"index", "base_lines", "dev_lines", "main_lines", "result_lines", "taken", "kind", "risk", "level",
                 "signals", "dev_commits", "main_commits", "lost_lines", "choice_loses", "item"}


def document(tmp_path: Path, name: str) -> dict[str, Any]:
    scenario = build_scenario(name, tmp_path / name)
    analysis = analyze_preview(scenario.path, dev=scenario.dev, main=scenario.main)
    parsed: dict[str, Any] = json.loads("".join(analysis_json_text(analysis)))
    return parsed


@pytest.mark.parametrize(("name", "take", "rung"), [
    ("squash-chain-dev-ahead", "dev", "squash-chain"),
    ("intentional-removal", "main", "main-removed"),
])
def test_a_scenario_s_hunk_carries_the_suggestion_its_evidence_stands_behind(tmp_path: Path, name: str, take: str, rung: str) -> None:
    data = document(tmp_path, name)
    suggested = [h["suggestion"] for f in data["files"] for h in f["hunks"] if h["suggestion"]]
    assert suggested and all(s["take"] == take and s["rung"] == rung for s in suggested), suggested
    for f in data["files"]:
        assert "suggestion" in f
        for h in f["hunks"]:
            assert set(h) == OLD_HUNK_KEYS | {"suggestion", "candidates"}
            assert 1 <= len(h["candidates"]) <= 4 if h["kind"] == "conflict" and not f["suggestion"] else h["candidates"] == []
            for c in h["candidates"]:
                assert ("text" in c) == (c["take"] not in ("main", "dev", "both", "both-main-first"))
                assert set(c["keeps"]) == set(c["drops"]) == {"dev", "main"}


def test_a_suggestion_names_lines_of_its_sides_blobs(tmp_path: Path) -> None:
    data = document(tmp_path, "squash-chain-dev-ahead")
    hunk = next(h for f in data["files"] for h in f["hunks"] if h["suggestion"])
    (start, end), kept = hunk["dev_lines"], hunk["suggestion"]["keeps"]["dev"]
    assert kept and all(start <= a <= b <= end for a, b in kept), "dev's kept lines lie in dev's range of the hunk"
    assert hunk["suggestion"]["drops"]["dev"] == []


def test_the_analysis_itself_carries_what_the_json_prints(tmp_path: Path) -> None:
    scenario = build_scenario("intentional-removal", tmp_path / "s")
    analysis = analyze_preview(scenario.path, dev=scenario.dev, main=scenario.main)
    suggested = [(h, h.suggestion) for f in analysis.files for h in f.hunks if h.suggestion is not None]
    assert suggested and all(s.rung is Rung.MAIN_REMOVED and s.candidate.take is Take.MAIN for _, s in suggested)
    assert all(h.candidates[0] == s.candidate for h, s in suggested), "the suggestion heads the menu"
    assert all(not e.candidates and e.suggestion is None for f in analysis.files for e in f.edits)


def test_a_file_with_one_choice_as_a_whole_gets_no_menu_per_hunk(tmp_path: Path) -> None:
    data = document(tmp_path, "policy-files")
    lock = next(f for f in data["files"] if f["path"] == "uv.lock")
    assert lock["suggestion"]["take"] == "file-dev" and lock["suggestion"]["rung"] == "lock-file"
    conflicts = [h for h in lock["hunks"] if h["kind"] == "conflict"]
    assert conflicts and all(h["suggestion"] is None and h["candidates"] == [] for h in conflicts), \
        "the file's choice decides its hunks"
