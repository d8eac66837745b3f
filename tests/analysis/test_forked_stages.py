"""Work shared with a forked child (the engine's files, then each wave of stages: the audit's paths and
the deleted files, then risk's files) gives exactly the analysis of one process, whoever claims what, and
whatever the child fails to answer.  Each stage alone: ``test_stage_seam.py``."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from workbench.analysis import engine, forked
from workbench.analysis.api.audit import Auditor
from workbench.analysis.stages.audit_api import Audited
from workbench.analysis.stages.score_risk import OwnRisk
from workbench.analysis.stages.suggest_resolutions import FileMenus
from workbench.cli import main
from workbench.sample import RepoBuilder, SampleSync


def _analyze_json(capsys: pytest.CaptureFixture[str], repo: Path, *rev: str) -> str:
    assert main(["analyze", *rev, "--json", "--no-cache", "--repo", str(repo)]) == 0
    return capsys.readouterr().out


@pytest.fixture
def serial(sample_merge_commit: SampleSync, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    """The sample's analysis computed in one process."""
    monkeypatch.setenv(forked.JOBS_VARIABLE, "1")
    text = _analyze_json(capsys, sample_merge_commit.path)
    monkeypatch.delenv(forked.JOBS_VARIABLE)
    return text


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """What each forked child answered, in order (None: it gave no answer and the parent computed it)."""
    seen: list[object] = []
    result = forked.Forked.result

    def recorded(self: forked.Forked[object]) -> object:
        value = result(self)
        seen.append(value)
        return value

    monkeypatch.setattr(forked.Forked, "result", recorded)
    monkeypatch.setattr(forked, "FORK_MIN_FILES", 1)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    return seen


def _only_claimed_by(monkeypatch: pytest.MonkeyPatch, who: str) -> None:
    """Let only the parent or only the child claim work (the other finds every pool empty)."""
    parent, take = os.getpid(), forked.Claims.take

    def claimed(self: forked.Claims) -> Iterator[int]:
        if (os.getpid() == parent) == (who == "parent"):
            yield from take(self)

    monkeypatch.setattr(forked.Claims, "take", claimed)


def test_the_shared_analysis_gives_the_serial_one(
    sample_merge_commit: SampleSync, serial: str, answers: list[object], capsys: pytest.CaptureFixture[str]
) -> None:
    assert _analyze_json(capsys, sample_merge_commit.path) == serial
    assert len(answers) == 4 and all(isinstance(a, tuple) for a in answers)  # the engine's child, each wave's


def test_everything_done_by_the_child_gives_the_serial_analysis(
    sample_merge_commit: SampleSync, serial: str, answers: list[object], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _only_claimed_by(monkeypatch, "child")
    assert _analyze_json(capsys, sample_merge_commit.path) == serial
    files, first, second, last = answers
    assert isinstance(files, tuple) and isinstance(first, tuple) and isinstance(second, tuple) and isinstance(last, tuple)
    analysed, alignments = files
    assert analysed and alignments  # every file, and the blame alignments that came back with them
    found, _ = first
    audited = [part.found for part in found.values() if isinstance(part, Audited)]
    assert any(part.mismatches for part in audited)  # the sample's audit finds something in the child
    assert any(isinstance(part, OwnRisk) for part in found.values())  # risk's files, beside the audit
    menus = [part for part in found.values() if isinstance(part, FileMenus) and part.menus]
    assert menus  # the suggestions' menus of conflicted files, beside the audit
    assert {part for part in found.values() if isinstance(part, tuple) and not part} == {()}  # deleted files, duplicates: none
    signals, _ = second
    assert any(signals.values())  # the signals of the files without hunks, once the deleted files are folded
    worklist, _ = last
    assert any(isinstance(part, tuple) for part in worklist.values())  # the files' sync changes, beside the worklist


def test_everything_done_by_the_parent_gives_the_serial_analysis(
    sample_merge_commit: SampleSync, serial: str, answers: list[object], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _only_claimed_by(monkeypatch, "parent")
    assert _analyze_json(capsys, sample_merge_commit.path) == serial
    assert answers == [({}, {}), ({}, None), ({}, None), ({}, None)]  # the engine's child sent its (empty) alignments cache


@pytest.mark.parametrize("failing", ["engine", "audit"])
def test_a_child_that_fails_leaves_the_work_to_the_parent(
    sample_merge_commit: SampleSync, serial: str, answers: list[object], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch, failing: str,
) -> None:
    _only_claimed_by(monkeypatch, "child")  # the child claims everything, then fails: the parent does it all
    parent = os.getpid()
    target, name = (engine, "_analyze_file") if failing == "engine" else (Auditor, "found_in")
    original = getattr(target, name)

    def dies_in_the_child(*args: object) -> object:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        return original(*args)

    monkeypatch.setattr(target, name, dies_in_the_child)
    assert _analyze_json(capsys, sample_merge_commit.path) == serial
    assert answers[0 if failing == "engine" else 1] is None


def test_shared_out_answers_in_order_with_the_childs_state() -> None:
    seen: list[int] = []

    def square(k: int) -> int:
        seen.append(k)
        return k * k

    values, state = forked.shared_out(50, square, lambda: len(seen))
    assert values == [k * k for k in range(50)]
    assert state is not None and state + len(seen) == 50  # each index computed once, in one process


@pytest.mark.parametrize("count", [0, 1, 5, 20_000])
def test_claims_give_each_index_to_exactly_one_process(count: int) -> None:
    claims = forked.Claims(count)
    child = forked.Forked(lambda: list(claims.take()))
    mine = list(claims.take())
    theirs = child.result()
    claims.close()
    assert theirs is not None
    assert sorted(mine + theirs) == list(range(count))


def test_no_child_while_another_thread_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    assert forked.can_fork()
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert not forked.can_fork()
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0}, raising=False)
    assert not forked.can_fork()
    monkeypatch.setattr(forked, "FORK_MIN_FILES", 16)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    assert forked.worth_forking(16) and not forked.worth_forking(15)


@pytest.mark.parametrize("count", [0, 3, 20_000])
def test_claims_count_what_is_claimed(count: int) -> None:
    claims = forked.Claims(count)
    assert claims.claimed() == 0
    taken = claims.take()
    first = next(taken, None)
    assert claims.claimed() == (0 if first is None else min(count, -(-count // 8192)))  # one run claimed
    rest = list(taken)
    assert claims.claimed() == count == len(rest) + (first is not None)
    claims.close()


def test_shared_out_reports_what_is_claimed_as_it_goes() -> None:
    heard: list[int] = []
    values, _ = forked.shared_out(40, lambda k: k, lambda: None, heard.append)
    assert values == list(range(40))
    assert heard == sorted(heard) and all(0 < n <= 40 for n in heard)


def _bot_kept_devs_files(b: RepoBuilder) -> str:
    """A merge commit whose resolution took dev's version of files git merged cleanly, dropping main's additions."""
    paths = [f"pkg/m{k}.py" for k in range(3)]
    for path in paths:
        b.write(path, "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(6)))
    b.write("pkg/conflict.py", "value = 0\n").commit("Initial import")
    b.branch("dev").checkout("dev")
    for path in paths:
        b.write(path, b.read(path).decode().replace("return 1\n", "return compute_dev_value(1)\n"))
    b.write("pkg/conflict.py", "value = 1\n").commit("[dev] Dev work (#11)")
    b.checkout("main")
    for path in paths:
        b.write(path, b.read(path).decode() + "def restore_offload(buffers):\n    return buffers.flush()\n")
    b.write("pkg/conflict.py", "value = 2\n").commit("Main work (#21)")
    b.checkout("dev")
    assert b.merge("main", no_commit=True) == 1
    b.write("pkg/conflict.py", "value = 1\n").git("checkout", "dev", "--", *paths)
    b.git("add", "-A")
    return b.commit("Merge main into dev (bot resolution)")


@pytest.mark.parametrize("who", ["parent", "child", "both"])
def test_edits_beyond_the_merge_are_scored_the_same_in_either_process(
    builder: RepoBuilder, answers: list[object], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    who: str,
) -> None:
    merge = _bot_kept_devs_files(builder)
    monkeypatch.setenv(forked.JOBS_VARIABLE, "1")
    serial = _analyze_json(capsys, builder.path, merge)
    monkeypatch.delenv(forked.JOBS_VARIABLE)
    assert serial.count('"resolution-dropped-main"') == 3  # the edits' own scoring ran
    if who != "both":
        _only_claimed_by(monkeypatch, who)
    assert _analyze_json(capsys, builder.path, merge) == serial
    files, first = answers[:2]
    assert isinstance(files, tuple) and isinstance(first, tuple)
    if who == "child":
        analysed, _ = files
        assert len(analysed) == 4  # the conflicted file and the three the resolution changed
        found, _ = first
        assert sum(isinstance(part, OwnRisk) for part in found.values()) == 4 + 3  # every file's risk, the edits'


def test_shared_out_claims_in_the_order_given_and_answers_in_index_order(monkeypatch: pytest.MonkeyPatch) -> None:
    _only_claimed_by(monkeypatch, "parent")
    seen: list[int] = []

    def recorded(k: int) -> int:
        seen.append(k)
        return -k

    values, _ = forked.shared_out(5, recorded, lambda: None, pools=[[3, 1, 4, 0, 2]])
    assert seen == [3, 1, 4, 0, 2]  # the largest first, as the engine orders them
    assert values == [0, -1, -2, -3, -4]

