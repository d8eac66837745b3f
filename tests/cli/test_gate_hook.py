"""``workbench gate --hook`` as git's pre-push hook: a push of the sync branch to a bare remote is refused while
an item is open and goes through once the agent decided everything; a later merge of dev into the sync branch
does not make it gate the wrong merge; the pre-commit framework's variables work as git's input does."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.agent import Agent, git, truth_fix, workbench

from workbench.sample import SampleSync

ROOT = Path(__file__).resolve().parents[2]


def _install_hook(repo: Path) -> None:
    """The documented plain hook line, calling this interpreter's workbench."""
    hook = repo / ".git" / "hooks" / "pre-push"
    hook.write_text(f"#!/bin/sh\nexec {sys.executable} -m workbench gate --hook\n")
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)


def _push(repo: Path, remote: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "push", remote, "HEAD"], cwd=repo, capture_output=True, text=True, check=False)


@pytest.fixture
def pushed_from(sample_merge_commit: SampleSync, tmp_path: Path) -> Path:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    repo = sample_merge_commit.path
    git(repo, "remote", "add", "pushto", str(remote))
    git(repo, "push", "-q", "pushto", "main", "dev")
    _install_hook(repo)
    return repo


def test_a_push_is_refused_while_an_item_is_open_and_passes_once_decided(
        pushed_from: Path, sample_merge_commit: SampleSync) -> None:
    refused = _push(pushed_from, "pushto")
    assert refused.returncode != 0
    assert "blocked" in refused.stdout + refused.stderr
    verdict = Agent(pushed_from, fix=truth_fix(sample_merge_commit)).finish(commit=True)
    assert verdict["verdict"] == "pass", verdict["blocking"]
    accepted = _push(pushed_from, "pushto")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert "pass" in accepted.stdout + accepted.stderr


def test_a_later_merge_of_dev_does_not_confuse_the_hook(pushed_from: Path, sample_merge_commit: SampleSync) -> None:
    Agent(pushed_from, fix=truth_fix(sample_merge_commit)).finish(commit=True)
    git(pushed_from, "checkout", "-q", "dev")
    git(pushed_from, "commit", "-q", "--allow-empty", "-m", "[dev] later dev work (#999)")
    git(pushed_from, "checkout", "-q", "-")
    git(pushed_from, "merge", "-q", "--no-edit", "dev")
    head = git(pushed_from, "rev-parse", "HEAD").strip()
    stdin = f"refs/heads/sync {head} refs/heads/sync {'0' * 40}\n"
    answer = workbench("gate", "--hook", "--json", "--repo", str(pushed_from), stdin=stdin)
    assert answer.code == 0, answer.stdout
    (ref,) = answer.json()["refs"]
    assert ref["sync"]["merge"] == sample_merge_commit.merge and ref["sync"]["result"] == head


def test_the_pre_commit_frameworks_variables_name_what_is_pushed(sample_merge_commit: SampleSync,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    repo = sample_merge_commit.path
    monkeypatch.setenv("PRE_COMMIT_TO_REF", git(repo, "rev-parse", "HEAD").strip())
    monkeypatch.setenv("PRE_COMMIT_REMOTE_NAME", "origin")
    blocked = workbench("gate", "--hook", "--json", "--repo", str(repo), stdin="")
    assert blocked.code == 1
    assert blocked.json()["refs"][0]["sync"]["merge"] == sample_merge_commit.merge
    advisory = workbench("gate", "--hook", "--advisory", "--repo", str(repo), stdin="")
    assert advisory.code == 0 and "advisory" in advisory.stdout


def test_nothing_to_gate_in_a_deletion_or_a_branch_without_a_sync(sample_merge_commit: SampleSync) -> None:
    repo = sample_merge_commit.path
    dev = git(repo, "rev-parse", "dev~3").strip()
    stdin = f"(delete) {'0' * 40} refs/heads/old {dev}\nrefs/heads/x {dev} refs/heads/x {'0' * 40}\n"
    ran = workbench("gate", "--hook", "--repo", str(repo), stdin=stdin)
    assert ran.code == 0 and "nothing to check" in ran.stdout


def test_bad_pre_push_input_is_one_line_and_exit_2(sample_merge_commit: SampleSync) -> None:
    ran = workbench("gate", "--hook", "--repo", str(sample_merge_commit.path), stdin="not git's input\n")
    assert ran.code == 2 and len(ran.stderr.strip().splitlines()) == 1


def _hooks(text: str) -> list[dict[str, str]]:
    """The hook list of a ``.pre-commit-hooks.yaml`` (flat ``- key: value`` entries, as this one is written)."""
    hooks: list[dict[str, str]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith("- "):
            hooks.append({})
            line = line[2:]
        key, _sep, value = line.strip().partition(":")
        hooks[-1][key] = value.strip()
    return hooks


def test_the_pre_commit_hook_definition_runs_the_gate_at_pre_push() -> None:
    hooks = _hooks((ROOT / ".pre-commit-hooks.yaml").read_text())
    gate = next(h for h in hooks if h["id"] == "workbench-gate")
    assert gate["entry"] == "workbench gate --hook"
    assert (gate["stages"], gate["pass_filenames"], gate["always_run"], gate["language"]) == (
        "[pre-push]", "false", "true", "python")
