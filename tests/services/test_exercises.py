"""Training: answer keys from shipped syncs, grading, the CLI, progress."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers.agent import workbench

from workbench.analysis.answer_key import grade, normalise_choice, parse_answers
from workbench.sample import RepoBuilder
from workbench.services.exercises import (
    Progress,
    build_sample_exercise,
    load_answer_key,
    load_progress,
    resolve_exercise,
    save_progress,
)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``workbench ARGS`` in this process: a Python start per call would cost more than the command (the command
    line as a process, its exit status and its one line on stderr, is ``tests/cli``'s)."""
    ran = workbench(*args)
    return subprocess.CompletedProcess(["workbench", *args], ran.code, ran.stdout, ran.stderr)


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
    bad_choice = json.dumps({"hunks": [{"path": "x", "index": 0, "choice": "maybe"}]})
    for content in ("{not json", json.dumps({"hunks": [{"path": "x"}]}), bad_choice):
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


def _answers_file(tmp_path: Path, hunks: list[dict[str, object]]) -> Path:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps({"hunks": hunks}))
    return path


STRAYS = [{"path": "nope.py", "index": 0, "choice": "main"}, {"path": "x.py", "index": 99, "choice": "main"}]


def test_answers_matching_no_hunk_are_bad_input(dev_ahead: tuple[Path, str, str], tmp_path: Path) -> None:
    path, _merge, result = dev_ahead
    answers = _answers_file(tmp_path, STRAYS)
    for extra in ((), ("--json",)):
        proc = _cli("train", result, "--answers", str(answers), "--repo", str(path), *extra)
        assert proc.returncode == 2 and proc.stdout == "", (proc.returncode, proc.stdout)
        (line,) = proc.stderr.strip().splitlines()
        assert "none of its 2 answers matches a hunk" in line and "nope.py index 0" in line and "x.py index 99" in line


def test_answers_matching_no_hunk_are_named_beside_the_score(dev_ahead: tuple[Path, str, str], tmp_path: Path) -> None:
    path, merge, result = dev_ahead
    _repo, _analysis, key = load_answer_key(path, merge, result)
    first = key.hunks[0]
    answers = _answers_file(tmp_path, [{"path": first.path, "index": first.index, "choice": "dev"}, *STRAYS])
    text = _cli("train", result, "--answers", str(answers), "--repo", str(path))
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("score 100%: 1 of 1 answered hunk agrees with what shipped")
    assert "2 answers in" in text.stdout and "\n  nope.py index 0\n  x.py index 99\n" in text.stdout
    data = json.loads(_cli("train", result, "--answers", str(answers), "--repo", str(path), "--json").stdout)
    assert data["unmatched"] == [{"path": "nope.py", "index": 0}, {"path": "x.py", "index": 99}]
    assert data["answered"] == 1 and data["score"] == 1


def test_no_answers_is_not_a_zero_score(dev_ahead: tuple[Path, str, str], tmp_path: Path) -> None:
    path, _merge, result = dev_ahead
    answers = _answers_file(tmp_path, [])
    text = _cli("train", result, "--answers", str(answers), "--repo", str(path))
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("no answered hunks (") and "score" not in text.stdout
    data = json.loads(_cli("train", result, "--answers", str(answers), "--repo", str(path), "--json").stdout)
    assert data["answered"] == 0 and data["score"] is None and data["unmatched"] == []


def test_evidence_subjects_are_cut_at_a_word_with_an_ellipsis(builder: RepoBuilder) -> None:
    from workbench.sample.bot import finish_sync, start_sync

    builder.write("a.py", "a = 1\nb = 2\nc = 3\n").commit("base")
    builder.branch("dev").checkout("dev").write("a.py", "a = 1\nb = 20\nc = 3\n").commit("dev (#1)")
    builder.checkout("main").write("a.py", "a = 1\nb = 200\nc = 3\n").commit("main (#2)")
    start_sync(builder, "main2dev/x", "dev", "main")
    finish_sync(builder, "main2dev/x", "main")
    subject = "fix: restore missing CudaGraphScope import, take dev's gated_delta_net.py and tests"
    fix = builder.write("a.py", "a = 1\nb = 20\nc = 3\n").commit(subject)
    proc = _cli("train", fix, "--answer-key", "--repo", str(builder.path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("merge ") and ": 1 hunk; shipped main 0, dev 1" in proc.stdout
    evidence = proc.stdout.split("evidence: ", 1)[1].strip()
    assert evidence == f"{fix[:10]} fix: restore missing CudaGraphScope import, take dev's…"


def _one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2 and proc.stdout == "", (proc.returncode, proc.stdout, proc.stderr)
    (line,) = proc.stderr.strip().splitlines()
    return line


def test_an_unknown_exercise_is_named_with_the_catalogue(builder: RepoBuilder) -> None:
    builder.write("a.py", "a = 1\n").commit("base")
    for rev in ("nosuch:thing", "megatron:9999", "sample:nope"):
        line = _one_line_error(_cli("train", rev, "--answer-key", "--repo", str(builder.path)))
        assert f"unknown exercise '{rev}'" in line, line
        assert "sample:squash-chain-dev-ahead" in line and "megatron:4291" in line, line
    known = _one_line_error(_cli("train", "megatron:4291", "--answer-key", "--repo", str(builder.path)))
    assert known.startswith("workbench: error: megatron:4291 needs a Megatron-LM clone"), known


def test_a_commit_found_by_its_message_is_still_a_revision(dev_ahead: tuple[Path, str, str]) -> None:
    path, merge, result = dev_ahead
    proc = _cli("train", ":/fix: restore", "--answer-key", "--json", "--repo", str(path))
    assert proc.returncode == 0, proc.stderr
    assert (json.loads(proc.stdout)["merge"], json.loads(proc.stdout)["result"]) == (merge, result)
