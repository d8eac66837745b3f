"""The API audit in a forked child gives exactly the analysis of the stages run in order, in one process."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from workbench.analysis import forked, pipeline
from workbench.analysis.stages import audit_api
from workbench.analysis.stages.score_risk import RiskScorer
from workbench.cli import main
from workbench.sample import SampleSync


def _analyze_json(capsys: pytest.CaptureFixture[str], repo: Path) -> str:
    assert main(["analyze", "--json", "--no-cache", "--repo", str(repo)]) == 0
    return capsys.readouterr().out


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """What each forked child answered (None: it gave no answer and the parent computed it)."""
    seen: list[object] = []
    result = forked.Forked.result

    def recorded(self: forked.Forked[object]) -> object:
        value = result(self)
        seen.append(value)
        return value

    monkeypatch.setattr(forked.Forked, "result", recorded)
    monkeypatch.setattr(pipeline, "FORK_MIN_FILES", 1)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    return seen


def test_the_forked_audit_gives_the_serial_analysis(
    sample_merge_commit: SampleSync, answers: list[object], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(forked.JOBS_VARIABLE, "1")
    serial = _analyze_json(capsys, sample_merge_commit.path)
    assert answers == []
    monkeypatch.delenv(forked.JOBS_VARIABLE)
    assert _analyze_json(capsys, sample_merge_commit.path) == serial
    assert len(answers) == 1 and isinstance(answers[0], tuple)
    audit, _risk = answers[0]
    assert isinstance(audit, audit_api.AuditFindings)
    assert audit.mismatches  # the sample's audit finds something: the child's answer is not empty


@pytest.mark.parametrize("count", [0, 1, 5, 20_000])
def test_claims_give_each_index_to_exactly_one_process(count: int) -> None:
    claims = forked.Claims(count)
    child = forked.Forked(lambda: list(claims.take()))
    mine = list(claims.take())
    theirs = child.result()
    claims.close()
    assert theirs is not None
    assert sorted(mine + theirs) == list(range(count))


def test_a_child_that_fails_leaves_the_work_to_the_parent(
    sample_merge_commit: SampleSync, answers: list[object], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    expected = _analyze_json(capsys, sample_merge_commit.path)
    parent = os.getpid()
    audit = audit_api.audit_findings

    def dies_in_the_child(*args: object) -> object:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        return audit(*args)  # type: ignore[arg-type]

    monkeypatch.setattr("workbench.analysis.pipeline.audit_findings", dies_in_the_child)
    answers.clear()
    assert _analyze_json(capsys, sample_merge_commit.path) == expected
    assert answers == [None]


def test_no_child_while_another_thread_runs(sample_merge_commit: SampleSync, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    assert forked.can_fork()
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert not forked.can_fork()
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0}, raising=False)
    assert not forked.can_fork()


def test_risk_findings_the_child_computes_fold_in_the_same(
    sample_merge_commit: SampleSync, answers: list[object], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(forked.JOBS_VARIABLE, "1")
    serial = _analyze_json(capsys, sample_merge_commit.path)
    monkeypatch.delenv(forked.JOBS_VARIABLE)
    parent, score = os.getpid(), RiskScorer.file

    def slow_in_the_parent(self: RiskScorer, index: int) -> object:
        if os.getpid() == parent:
            time.sleep(0.5)  # the child, done auditing, claims the files left
        return score(self, index)

    monkeypatch.setattr(RiskScorer, "file", slow_in_the_parent)
    assert _analyze_json(capsys, sample_merge_commit.path) == serial
    (answer,) = answers
    assert isinstance(answer, tuple) and answer[1]  # the child scored some files
