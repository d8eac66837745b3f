"""Every scenario's ground truth, checked against what the git binary really does."""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import Path

import pytest

from workbench.sample import (
    RECIPES,
    Conflict,
    Pathology,
    RepoBuilder,
    Risk,
    SampleSync,
    Scenario,
    Verdict,
    build_large_sync,
    build_sample_sync,
    build_scenario,
    renamed_callee,
    squash_chain_dev_ahead,
    structural_conflicts,
)
from workbench.sample.bot import finish_sync, start_sync, unmerged

_MERGE_MESSAGE = re.compile(r"Merge remote-tracking branch 'origin/main' into main2dev/\d\d_\d\d_\d{4}")


def _blob(repo: RepoBuilder, rev: str, path: str) -> bytes | None:
    """A file's bytes at ``rev``, or None when it does not exist there."""
    proc = repo.run("cat-file", "blob", f"{rev}:{path}")
    return proc.stdout if proc.returncode == 0 else None


def _lines(data: bytes) -> set[str]:
    """The distinct lines of a text file, without line endings."""
    return set(data.decode().splitlines())


def _is_ancestor(repo: RepoBuilder, commit: str, tip: str) -> bool:
    return repo.run("merge-base", "--is-ancestor", commit, tip).returncode == 0


def _merge_tree_conflicts(repo: RepoBuilder, ours: str, theirs: str) -> dict[str, Conflict]:
    """What a plain ``git merge-tree`` of the tips reports, per conflicted path."""
    proc = repo.run("merge-tree", "--write-tree", "--name-only", ours, theirs)
    assert proc.returncode in (0, 1), proc.stderr
    head, _, messages = proc.stdout.decode().partition("\n\n")
    listed = set(head.splitlines()[1:])
    kinds: dict[str, Conflict] = {}
    binaries: set[str] = set()
    for line in messages.splitlines():
        if match := re.match(r"CONFLICT \((content|add/add)\): Merge conflict in (.+)$", line):
            kinds[match[2]] = Conflict.CONTENT if match[1] == "content" else Conflict.ADD_ADD
        elif match := re.match(r"CONFLICT \(modify/delete\): (\S+) deleted in", line):
            kinds[match[1]] = Conflict.MODIFY_DELETE
        elif match := re.match(r"warning: Cannot merge binary files: (\S+) \(", line):
            binaries.add(match[1])
    kinds.update({path: Conflict.BINARY for path in binaries})
    assert set(kinds) == listed
    return kinds


def _check_conflicts(repo: RepoBuilder, scenario: Scenario) -> None:
    """merge-tree reports exactly the conflicts the truth claims, of the claimed kinds."""
    claimed = {t.path: t.conflict for t in scenario.files if t.conflict is not Conflict.NONE}
    assert _merge_tree_conflicts(repo, scenario.dev, scenario.main) == claimed


def _check_result(repo: RepoBuilder, scenario: Scenario, result: str) -> None:
    """The bot's merge ``result`` loses, keeps and breaks exactly what the truth says."""
    for truth in scenario.files:
        merged = _blob(repo, result, truth.path)
        dev_version = _blob(repo, scenario.dev, truth.path)
        right_already = truth.verdict in (Verdict.ACCEPT, Verdict.TAKE_MAIN)
        assert (merged == truth.expected) is right_already, truth.path
        if merged is not None and dev_version is not None and truth.conflict is not Conflict.BINARY:
            base_lines = _lines(_blob(repo, scenario.base, truth.path) or b"")
            lost = _lines(dev_version) - base_lines - _lines(merged)
            assert lost == set(truth.lost_lines), truth.path
        else:
            assert truth.lost_lines == (), truth.path
        for name in truth.missing_names:
            assert merged is not None and name in merged.decode(), name
            assert name not in (truth.expected or b"").decode(), name
            defined = repo.run("grep", "-qE", f"(def|class) {name}[(:]", result)
            assert defined.returncode == 1, f"{name} is still defined in the merge"


def _check_commits(repo: RepoBuilder, scenario: Scenario) -> None:
    """Dropped commits are dev's, carriers main's, and all of them touched the file."""
    for truth in scenario.files:
        dev_log = repo.git("log", "--format=%H", scenario.dev, "--", truth.path).decode().split()
        main_log = repo.git("log", "--format=%H", scenario.main, "--", truth.path).decode().split()
        for sha in truth.dropped_commits:
            assert sha in dev_log and not _is_ancestor(repo, sha, scenario.main), truth.path
        for sha in truth.carriers:
            assert sha in main_log and not _is_ancestor(repo, sha, scenario.dev), truth.path
        if truth.evidence:
            assert truth.evidence in dev_log + main_log, truth.path
            diff = repo.git("show", "--format=", truth.evidence, "--", truth.path).decode()
            removed = [line for line in diff.splitlines() if line.startswith("-") and line[:3] != "---"]
            assert removed, f"{truth.evidence} removes nothing from {truth.path}"


def _check_expected(scenario: Scenario) -> None:
    """Every expected Python file is valid Python; truths name distinct paths."""
    assert len({t.path for t in scenario.files}) == len(scenario.files)
    for truth in scenario.files:
        if truth.expected is not None and truth.path.endswith(".py"):
            compile(truth.expected.decode(), truth.path, "exec")


def _bot_merge(scenario: Scenario) -> tuple[RepoBuilder, str]:
    """Run the bot's `-X theirs` sync on a standalone scenario; returns the repo and the merge."""
    repo = RepoBuilder.open(scenario.path)
    stopped = start_sync(repo, "main2dev/test", dev="dev", main="main")
    survivors = {t.path for t in scenario.files if t.conflict.survives_x_theirs}
    assert stopped is bool(survivors)
    assert set(unmerged(repo)) == survivors
    return repo, finish_sync(repo, "main2dev/test", main="main")


@pytest.mark.parametrize("name", list(RECIPES))
def test_scenario_truth_holds_against_git(name: str, tmp_path: Path) -> None:
    scenario = build_scenario(name, tmp_path / name)
    repo = RepoBuilder.open(scenario.path)
    assert repo.current_branch() == "dev"
    assert repo.git("merge-base", "dev", "main").decode().strip() == scenario.base
    assert (repo.rev("dev"), repo.rev("main")) == (scenario.dev, scenario.main)
    assert scenario.files
    _check_expected(scenario)
    _check_conflicts(repo, scenario)
    _check_commits(repo, scenario)
    repo, merge = _bot_merge(scenario)
    _check_result(repo, scenario, merge)


def test_scenarios_are_deterministic(tmp_path: Path) -> None:
    first = squash_chain_dev_ahead(tmp_path / "one")
    second = squash_chain_dev_ahead(tmp_path / "two")
    assert (first.base, first.dev, first.main) == (second.base, second.dev, second.main)
    assert first.files == second.files


def test_squash_chain_main_side_is_an_older_dev_state(tmp_path: Path) -> None:
    scenario = squash_chain_dev_ahead(tmp_path / "repo")
    repo = RepoBuilder.open(scenario.path)
    (truth,) = scenario.files
    pr1 = repo.git("log", "--format=%H", "--grep=(#101)", "dev").decode().split()
    assert len(pr1) == 1
    (squash,) = truth.carriers
    assert _blob(repo, squash, truth.path) == _blob(repo, pr1[0], truth.path)
    later = repo.git("log", "--format=%H", f"{pr1[0]}..dev", "--", truth.path).decode().split()
    assert set(later) == set(truth.dropped_commits)
    assert "dev PR: #101" in repo.git("log", "-1", "--format=%b", squash).decode()


def test_squash_chain_main_ahead_holds_every_dev_line(tmp_path: Path) -> None:
    scenario = build_scenario("squash-chain-main-ahead", tmp_path / "repo")
    repo = RepoBuilder.open(scenario.path)
    (truth,) = scenario.files
    dev_lines = _lines(_blob(repo, "dev", truth.path) or b"")
    main_lines = _lines(_blob(repo, "main", truth.path) or b"")
    assert dev_lines < main_lines


def _params(source: bytes, function: str) -> int:
    """How many parameters ``function`` takes in ``source``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return len(node.args.args)
    raise AssertionError(f"{function} is not defined")


def _call_args(source: bytes, attribute: str) -> int:
    """How many arguments the call to ``*.attribute(...)`` in ``source`` passes."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == attribute:
            return len(node.args) + len(node.keywords)
    raise AssertionError(f"no call to {attribute}")


def test_renamed_callee_merge_calls_a_three_argument_api_that_now_takes_six(tmp_path: Path) -> None:
    scenario = renamed_callee(tmp_path / "repo")
    repo, merge = _bot_merge(scenario)
    callee_path = "megatron/core/pipeline_parallel/fine_grained_activation_offload.py"
    callee = _blob(repo, merge, callee_path)
    caller = _blob(repo, merge, "megatron/core/transformer/transformer_layer.py")
    assert callee is not None and caller is not None
    assert _params(_blob(repo, scenario.base, callee_path) or b"", "group_commit") == 3
    assert _params(callee, "group_offload") == 6
    assert _call_args(caller, "group_commit") == 3
    assert b"import AttnBackend, AttnMaskType, CudaGraphScope" in caller
    assert b"class CudaGraphModule" in (_blob(repo, merge, "megatron/core/transformer/enums.py") or b"")


def test_structural_conflicts_keep_bytes_and_follow_the_rename(tmp_path: Path) -> None:
    scenario = structural_conflicts(tmp_path / "repo")
    repo = RepoBuilder.open(scenario.path)
    assert start_sync(repo, "main2dev/test", dev="dev", main="main")
    assert unmerged(repo) == {
        "megatron/legacy/model/rms_norm.py": {1, 2},
        "megatron/core/transformer/custom_layers/transformer_engine.py": {1, 3},
    }
    clip = repo.read("megatron/core/models/vision/clip_vit_model.py")
    assert clip.count(b"\r\n") == clip.count(b"\n") > 10
    assert not repo.read("examples/run_simple_mcore_train_loop.py").endswith(b"\n")
    assert b"\0" in repo.read("docs/source/images/moe/token_dispatch.png")
    assert not (repo.path / "megatron/core/inference/sampling.py").exists()
    assert b"min_p" in repo.read("megatron/core/inference/text_generation/sampling.py")


def test_sample_holds_every_scenario_and_reads_like_a_real_sync(sample_branches: SampleSync) -> None:
    sample = sample_branches
    kinds = {t.pathology for t in sample.files}
    assert kinds == set(Pathology)
    assert 8 <= len(sample.files) <= 20
    assert sum(t.risk is Risk.HIGH for t in sample.files) >= 3
    assert sum(t.risk is Risk.LOW for t in sample.files) >= 5
    repo = RepoBuilder.open(sample.path)
    assert repo.current_branch() == "dev"
    assert (repo.rev("origin/dev"), repo.rev("origin/main")) == (sample.dev, sample.main)
    assert repo.git("status", "--porcelain") == b""
    subjects = repo.git("log", "--format=%s", f"{sample.base}..dev").decode().splitlines()
    assert len(subjects) >= 10 and all(re.search(r"\(#\d+\)$", s) for s in subjects)
    assert all(s.lower().startswith("[dev]") for s in subjects)
    authors = set(repo.git("log", "--format=%an", "dev", "main").decode().splitlines())
    assert len(authors) >= 5
    _check_expected(sample)
    _check_conflicts(repo, sample)
    _check_commits(repo, sample)


def test_sample_is_the_same_every_build(sample_branches: SampleSync, tmp_path: Path) -> None:
    fresh = build_sample_sync(tmp_path / "fresh", "branches")
    assert fresh == replace(sample_branches, path=fresh.path)


def test_sample_in_progress_stops_where_the_bot_stops(sample_in_progress: SampleSync) -> None:
    sample = sample_in_progress
    repo = RepoBuilder.open(sample.path)
    assert sample.sync_branch is not None and repo.current_branch() == sample.sync_branch
    assert repo.rev("HEAD") == sample.dev
    assert (sample.path / ".git" / "MERGE_HEAD").read_text().strip() == sample.main
    assert unmerged(repo) == {
        "megatron/legacy/model/rms_norm.py": {1, 2},
        "megatron/core/transformer/custom_layers/transformer_engine.py": {1, 3},
    }
    for truth in sample.files:
        if truth.conflict in (Conflict.CONTENT, Conflict.ADD_ADD):
            assert b"<<<<<<<" not in repo.read(truth.path), truth.path


def test_sample_merge_commit_is_the_bots(sample_merge_commit: SampleSync) -> None:
    sample = sample_merge_commit
    repo = RepoBuilder.open(sample.path)
    assert sample.merge is not None and sample.sync_branch is not None
    assert repo.current_branch() == sample.sync_branch
    assert repo.rev("HEAD") == sample.merge
    parents = repo.git("rev-list", "--parents", "-1", "HEAD").decode().split()[1:]
    assert parents == [sample.dev, sample.main]
    assert _MERGE_MESSAGE.fullmatch(repo.git("log", "-1", "--format=%s").decode().strip())
    assert repo.git("status", "--porcelain") == b""
    assert not (sample.path / ".git" / "MERGE_HEAD").exists()
    _check_result(repo, sample, sample.merge)


def test_unknown_sample_state_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        build_sample_sync(tmp_path / "repo", "half-done")  # type: ignore[arg-type]


def test_large_sync_conflicts_exactly_where_it_says(tmp_path: Path) -> None:
    large = build_large_sync(tmp_path / "large", files=30, conflicting=6, dev_commits=10, main_commits=5)
    repo = RepoBuilder.open(large.path)
    assert repo.current_branch() == "dev" and repo.git("status", "--porcelain") == b""
    conflicts = _merge_tree_conflicts(repo, "dev", "main")
    assert conflicts == {path: Conflict.CONTENT for path in large.conflicting}
    tree = repo.run("merge-tree", "--write-tree", "dev", "main").stdout.decode().split()[0]
    markers = sum(
        repo.git("cat-file", "blob", f"{tree}:{path}").count(b"\n<<<<<<< ") for path in large.conflicting
    )
    assert markers == large.conflict_hunks >= 2 * len(large.conflicting)
    assert repo.git("rev-list", "--count", f"{large.base}..dev").strip() == b"10"
    assert repo.git("rev-list", "--count", f"{large.base}..main").strip() == b"5"
    subjects = repo.git("log", "--format=%s", f"{large.base}..dev").decode().splitlines()
    assert all(s.startswith("[dev] ") and re.search(r"\(#\d+\)$", s) for s in subjects)
    for path in repo.git("ls-files").decode().splitlines():
        source = repo.read(path)
        assert source.count(b"\n") >= 100, path
        compile(source, path, "exec")
    again = build_large_sync(tmp_path / "again", files=30, conflicting=6, dev_commits=10, main_commits=5)
    assert (again.dev, again.main) == (large.dev, large.main)
