"""``train --suggestions``: the suggestions graded against what shipped, by text, per rung."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

import pytest

from workbench.analysis.answer_key import AnswerKey
from workbench.analysis.model import FileRung, FileSuggestion, FileTake, Rung, Take
from workbench.analysis.suggest.graded import grade_lines, grade_suggestions, grade_suggestions_json
from workbench.services.exercises import build_sample_exercise, load_answer_key
from workbench.services.quiz import would_suggest


@pytest.fixture(scope="module")
def main_ahead(tmp_path_factory: pytest.TempPathFactory) -> AnswerKey:
    """A sync where main's text shipped, and the workbench suggests main's text (main is ahead)."""
    path, merge, result = build_sample_exercise("squash-chain-main-ahead", tmp_path_factory.mktemp("ex") / "repo")
    return load_answer_key(path, merge, result)[2]


def test_a_right_suggestion_is_counted_under_its_rung(main_ahead: AnswerKey) -> None:
    result = grade_suggestions(main_ahead)
    assert len(main_ahead.hunks) == 1 and result.suggested == 1
    assert len(result.right) == 1 and not result.wrong and not result.costly and len(result.menu) == 1
    assert [(t.rung, t.suggested, t.right) for t in result.rungs] == [(Rung.MAIN_AHEAD, 1, 1)]
    assert grade_lines(result) == [
        "1 hunk; suggested 1 (100%), right 1 (100%); menu holds what shipped in 1 (100%); costly 0 of 1 main-shipped",
        "  main-ahead: 1/1 right",
    ]


def test_dev_where_main_shipped_is_wrong_and_costly(main_ahead: AnswerKey) -> None:
    (quiz,) = main_ahead.hunks
    suggestion = quiz.hunk.suggestion
    dev = next(c for c in quiz.hunk.candidates if c.take is Take.DEV)
    assert suggestion is not None and dev.text != b"".join(quiz.shipped_text)
    hunk = replace(quiz.hunk, suggestion=replace(suggestion, candidate=dev, rung=Rung.SQUASH_CHAIN))
    result = grade_suggestions(replace(main_ahead, hunks=(replace(quiz, hunk=hunk),)))
    assert not result.right and len(result.wrong) == 1 and len(result.costly) == 1 and len(result.menu) == 1
    data = grade_suggestions_json(result)
    assert data["schema"] == "workbench.suggestions-grade/1"
    assert data["rungs"] == [{"rung": "squash-chain", "suggested": 1, "right": 0}]
    assert data["costly"] == [{"path": quiz.path, "index": quiz.index, "shipped": "main", "take": "dev",
                               "rung": "squash-chain"}]


def test_no_suggestion_is_neither_right_nor_wrong(main_ahead: AnswerKey) -> None:
    (quiz,) = main_ahead.hunks
    quiet = replace(main_ahead, hunks=(replace(quiz, hunk=replace(quiz.hunk, suggestion=None, candidates=())),))
    result = grade_suggestions(quiet)
    assert result.suggested == 0 and not result.menu and not result.rungs
    assert grade_lines(result)[0].startswith("1 hunk; suggested 0 (0%), right 0 (-); menu holds what shipped in 0 (0%)")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "workbench", *args], capture_output=True, text=True)


def test_the_cli_grades_the_suggestions_and_refuses_mixed_modes() -> None:
    proc = _cli("train", "sample:squash-chain-dev-ahead", "--suggestions", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["total"] == 2 and data["suggested"] == 2 and data["right"] == 2 and not data["costly"]
    assert data["rungs"] == [{"rung": "squash-chain", "suggested": 2, "right": 2}]
    mixed = _cli("train", "sample:squash-chain-dev-ahead", "--suggestions", "--answer-key")
    assert mixed.returncode == 2 and len(mixed.stderr.strip().splitlines()) == 1, mixed.stderr


def test_a_hunk_of_a_file_suggested_whole_is_graded_by_the_files_side(main_ahead: AnswerKey) -> None:
    """Lock files and golden values get one choice per file and no per-hunk menu: their hunks are graded (and
    revealed to a trainee) by the side the file's suggestion keeps."""
    (quiz,) = main_ahead.hunks
    bare = replace(quiz.hunk, suggestion=None, candidates=())
    keep_main = FileSuggestion(FileTake.FILE_MAIN, FileRung.LOCK_FILE, "a lock file: main's, then regenerate", None)
    for take, right in ((FileTake.FILE_MAIN, True), (FileTake.FILE_DEV, False)):
        whole = replace(keep_main, take=take)
        question = replace(quiz, hunk=bare, file_suggestion=whole)
        result = grade_suggestions(replace(main_ahead, hunks=(question,)))
        assert (len(result.right), len(result.wrong), len(result.costly), len(result.menu)) == (
            (1, 0, 0, 1) if right else (0, 1, 1, 1))
        would = would_suggest(question)
        assert would.file is whole and would.right is right and would.suggestion is None
    data = grade_suggestions_json(result)
    assert data["costly"] == [{"path": quiz.path, "index": quiz.index, "shipped": "main", "take": "file-dev",
                               "rung": FileRung.LOCK_FILE.value}]
