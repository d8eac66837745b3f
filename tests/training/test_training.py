"""Training: answer keys from shipped syncs, grading, the CLI, progress."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.analysis.training import grade, normalise_choice, parse_answers
from workbench.training import (
    Progress,
    build_sample_exercise,
    load_answer_key,
    load_progress,
    resolve_exercise,
    save_progress,
)


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "workbench", *args], capture_output=True, text=True, cwd=cwd)


@pytest.fixture(scope="module")
def dev_ahead(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    return build_sample_exercise("squash-chain-dev-ahead", tmp_path_factory.mktemp("ex") / "repo")


def test_a_squash_chain_ships_dev_with_the_fix_as_evidence(dev_ahead: tuple[Path, str, str]) -> None:
    path, merge, result = dev_ahead
    _repo, _analysis, key = load_answer_key(path, merge, result)
    assert key.hunks, "the -X theirs merge decided hunks"
    assert all(q.shipped == "dev" for q in key.hunks)
    assert all(q.evidence == (result,) for q in key.hunks)


def test_grading_counts_costly_misses(dev_ahead: tuple[Path, str, str]) -> None:
    path, merge, result = dev_ahead
    _repo, _analysis, key = load_answer_key(path, merge, result)
    keep_main = grade(key, {(q.path, q.index): "main" for q in key.hunks})
    assert keep_main.score == 0 and len(keep_main.costly) == len(key.hunks)
    restore = grade(key, {(q.path, q.index): "dev" for q in key.hunks})
    assert restore.score == 1 and not restore.misses
    partial = grade(key, {(key.hunks[0].path, key.hunks[0].index): "both"})
    assert len(partial.harmless) == 1 and len(partial.unanswered) == len(key.hunks) - 1


def test_a_sync_where_main_was_right_ships_main(tmp_path: Path) -> None:
    path, merge, result = build_sample_exercise("squash-chain-main-ahead", tmp_path / "repo")
    _repo, _analysis, key = load_answer_key(path, merge, result)
    assert key.hunks and all(q.shipped == "main" for q in key.hunks)
    assert not grade(key, {(q.path, q.index): "main" for q in key.hunks}).misses


def test_a_branch_head_resolves_to_its_merge(dev_ahead: tuple[Path, str, str]) -> None:
    from workbench.git.repo import GitRepo

    path, merge, result = dev_ahead
    assert resolve_exercise(GitRepo.open(path), result, None) == (merge, result)
    assert resolve_exercise(GitRepo.open(path), merge, None) == (merge, merge)


def test_cli_answer_key_and_grade_json(dev_ahead: tuple[Path, str, str], tmp_path: Path) -> None:
    path, merge, result = dev_ahead
    key = _cli("train", merge, "--result", result, "--answer-key", "--json", "--repo", str(path))
    assert key.returncode == 0, key.stderr
    data = json.loads(key.stdout)
    assert data["schema"] == "workbench.answer-key/1" and data["merge"] == merge
    assert {"path", "index", "shipped", "evidence", "dev_lines", "main_lines"} <= data["hunks"][0].keys()
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"hunks": [{"path": h["path"], "index": h["index"], "choice": "main"} for h in data["hunks"]]}))
    graded = _cli("train", result, "--answers", str(answers), "--json", "--repo", str(path))
    assert graded.returncode == 0, graded.stderr
    report = json.loads(graded.stdout)
    assert report["score"] == 0 and len(report["costly_misses"]) == len(data["hunks"])


def test_cli_bad_answers_file_is_one_line_exit_2(dev_ahead: tuple[Path, str, str], tmp_path: Path) -> None:
    path, _merge, result = dev_ahead
    bad = tmp_path / "bad.json"
    for content in ("{not json", json.dumps({"hunks": [{"path": "x"}]}), json.dumps({"hunks": [{"path": "x", "index": 0, "choice": "maybe"}]})):
        bad.write_text(content)
        proc = _cli("train", result, "--answers", str(bad), "--repo", str(path))
        assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert _cli("train", result, "--answers", str(tmp_path / "nope.json"), "--repo", str(path)).returncode == 2


def test_sample_exercise_from_the_cli_and_the_list() -> None:
    proc = _cli("train", "sample:dev-line-dropped", "--answer-key", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["hunks"]
    listing = json.loads(_cli("train", "--list", "--json").stdout)
    assert any(e["id"] == "megatron:4291" for e in listing["megatron"])
    assert len(listing["samples"]) >= 6


def test_choices_and_answers_parsing() -> None:
    assert normalise_choice("BOTH-main-first") == "both" and normalise_choice("edit") == "other"
    with pytest.raises(ValueError):
        normalise_choice("maybe")
    assert parse_answers({"hunks": [{"path": "a.py", "index": 2, "choice": "dev"}]}, "f") == {("a.py", 2): "dev"}
    with pytest.raises(ValueError):
        parse_answers({"hunks": [{"path": "a.py", "index": "2", "choice": "dev"}]}, "f")


def test_progress_survives_a_restart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    progress = Progress("ana ../x")
    progress.record("abc", "a/b.py", 3, "dev")
    progress.finish("abc", 0.5, 1)
    written = save_progress(progress)
    assert written.parent == tmp_path / "data" / "workbench" / "training"
    again = load_progress("ana ../x")
    assert again.answers("abc") == {("a/b.py", 3): "dev"}
    assert again.exercises["abc"]["score"] == 0.5
