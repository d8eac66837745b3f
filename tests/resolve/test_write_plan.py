"""The write plan: each file checked and spliced once, a handful of git processes, and kept until decisions change.

``w`` checks a file (``Workspace.check``) then writes it (``Workspace.write``);
before the plan, the write checked it all again: 12 git processes and three
splices per file.  Every written file is compared with ``git merge -X
ours``/``-X theirs`` of the same commits.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.syncs import open_analysis

import workbench.resolve.file_content as file_content
from workbench.resolve.splice import Choice, Decision
from workbench.resolve.writer import Blocked, WritePlan
from workbench.sample import RepoBuilder
from workbench.services.workspace import Workspace

FILES = 4
MOST_PROCESSES = 7


def _base(n: int) -> str:
    return "".join(f"value_{n}_{i} = {i}\n" for i in range(20))


def _merge(b: RepoBuilder, config: dict[str, str], attributes: str = "") -> list[str]:
    """A merge in progress stopped on ``FILES`` conflicted Python files, two conflicts each."""
    for key, value in config.items():
        b.git("config", key, value)
    if attributes:
        b.write(".gitattributes", attributes)
    paths = [f"pkg/m{n}.py" for n in range(FILES)]
    for n, path in enumerate(paths):
        b.write(path, _base(n))
    b.commit("base")
    for branch, word in (("dev", "dev"), ("main", "main")):
        if branch == "dev":
            b.branch("dev").checkout("dev")
        else:
            b.checkout("main")
        for n, path in enumerate(paths):
            text = _base(n).replace(f"value_{n}_3 = 3", f"value_{n}_3 = '{word}'")
            b.write(path, text.replace(f"value_{n}_15 = 15", f"value_{n}_15 = '{word}'"))
        b.commit(f"{word} (#{2 if word == 'dev' else 3})")
    b.checkout("dev")
    assert b.merge("main") == 1
    return paths


def _favoured(b: RepoBuilder, favour: str, paths: list[str]) -> dict[str, bytes]:
    """What ``git merge -X favour`` of the same commits writes, in a worktree of its own."""
    where = b.path.parent / f"merge-{favour}"
    b.git("worktree", "add", "-q", "--detach", str(where), "HEAD")
    other = RepoBuilder.open(where)
    other.merge("main", favour, check=True)
    return {path: other.read(path) for path in paths}


@pytest.fixture
def git_processes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[str]]]:
    """Every git process started while the test runs (its arguments)."""
    started: list[list[str]] = []
    real = subprocess.Popen

    class Counting(real):  # type: ignore[misc, valid-type]
        def __init__(self, args: Any, *rest: Any, **options: Any) -> None:
            if isinstance(args, (list, tuple)) and args and str(args[0]).endswith("git"):
                started.append([str(a) for a in args[1:]])
            super().__init__(args, *rest, **options)

    monkeypatch.setattr(subprocess, "Popen", Counting)
    yield started


CONFIGS = {
    "plain": ({}, ""),
    "autocrlf": ({"core.autocrlf": "true"}, ""),
    "eol-attribute": ({}, "*.py text eol=crlf\n"),
}


@pytest.mark.parametrize(("config", "attributes"), CONFIGS.values(), ids=CONFIGS.keys())
def test_each_written_file_takes_at_most_seven_git_processes_and_one_splice(
    builder: RepoBuilder, monkeypatch: pytest.MonkeyPatch, config: dict[str, str], attributes: str,
    git_processes: list[list[str]],
) -> None:
    paths = _merge(builder, config, attributes)
    expected = _favoured(builder, "theirs", paths)
    repo, analysis = open_analysis(builder.path)
    ws = Workspace.load(repo, analysis)
    for path in paths:
        ws.decide_file(path, Choice.MAIN)
    splices: list[str] = []
    real = file_content.spliced

    def counting(entry: Any, decisions: Any, located: Any = None) -> bytes:
        splices.append(entry.path)
        return real(entry, decisions, located)

    monkeypatch.setattr("workbench.resolve.session.spliced", counting)
    git_processes.clear()
    for path in paths:
        assert ws.check(path).ok
        outcome = ws.write(path)
        assert outcome.written and outcome.staged, outcome.message
    assert len(git_processes) <= MOST_PROCESSES * len(paths), git_processes
    assert sorted(splices) == sorted(paths), "one splice per file"
    for path in paths:
        assert builder.read(path) == expected[path], path
    staged = builder.git("diff", "--cached", "--name-only").decode().split()
    assert builder.git("diff", "--cached", "main", "--", *paths) == b"", staged


def test_a_plain_repository_needs_three_git_processes_per_file(
    builder: RepoBuilder, git_processes: list[list[str]]
) -> None:
    """No attribute or ``core.autocrlf`` converts the files: the disk check and checkout form need no git."""
    paths = _merge(builder, {})
    expected = _favoured(builder, "ours", paths)
    repo, analysis = open_analysis(builder.path)
    ws = Workspace.load(repo, analysis)
    for path in paths:
        for hunk in ws.entry(path).hunks:
            ws.decide(path, hunk.index, Decision(Choice.DEV))
    git_processes.clear()
    for path in paths:
        ws.check(path)
        assert ws.write(path).staged
    assert len(git_processes) == 3 * len(paths), git_processes
    assert all(builder.read(path) == expected[path] for path in paths)


def test_the_plan_is_kept_until_the_decisions_change(builder: RepoBuilder) -> None:
    paths = _merge(builder, {})
    path = paths[0]
    repo, analysis = open_analysis(builder.path)
    ws = Workspace.load(repo, analysis)
    ws.decide(path, 0, Decision(Choice.DEV))
    ws.decide(path, 1, Decision(Choice.DEV))
    first = ws.check(path)
    assert isinstance(first, WritePlan) and ws.check(path) is first, "kept while nothing changed"
    ws.decide(path, 1, Decision(Choice.MAIN))
    second = ws.check(path)
    assert second is not first and isinstance(second, WritePlan)
    ws.undo()
    assert ws.write(path).staged, "a plan made before the undo is not carried out"
    assert b"value_0_3 = 'dev'" in builder.read(path) and b"value_0_15 = 'dev'" in builder.read(path)


def test_a_file_changed_between_check_and_write_is_left_alone(builder: RepoBuilder) -> None:
    paths = _merge(builder, {})
    path = paths[0]
    repo, analysis = open_analysis(builder.path)
    ws = Workspace.load(repo, analysis)
    ws.decide_file(path, Choice.MAIN)
    assert ws.check(path).ok
    edited = builder.read(path) + b"# mine\n"
    Path(builder.path, path).write_bytes(edited)
    outcome = ws.write(path)
    assert not outcome.written and "changed on disk" in outcome.message
    assert builder.read(path) == edited
    assert ws.check(path).blocked is Blocked.CHANGED_ON_DISK


@pytest.mark.parametrize(("config", "attributes"), CONFIGS.values(), ids=CONFIGS.keys())
def test_many_files_written_at_once_take_a_few_git_processes_in_all(
    builder: RepoBuilder, config: dict[str, str], attributes: str, git_processes: list[list[str]]
) -> None:
    """What ``w`` does: every file checked (git asked about all at once), then written and staged together."""
    paths = _merge(builder, config, attributes)
    expected = _favoured(builder, "ours", paths)
    repo, analysis = open_analysis(builder.path)
    ws = Workspace.load(repo, analysis)
    for path in paths:
        ws.decide_file(path, Choice.DEV)
    git_processes.clear()
    assert all(check.ok for check in ws.check_all(paths).values())
    outcomes = ws.write_all(paths)
    assert all(o.written and o.staged for o in outcomes), [o.message for o in outcomes]
    converting = 3 * len(paths) if config or attributes else 0  # a private index add and its listing, a smudge
    assert len(git_processes) <= 3 + converting, git_processes
    assert all(builder.read(path) == expected[path] for path in paths)
    assert builder.git("diff", "--name-only", "--diff-filter=U") == b""
