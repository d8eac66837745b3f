"""The policy stage on real repositories: findings, their fixes (run for real), signals, configs."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from helpers.histories import history
from helpers.syncs import analyze

from workbench.analysis.model import PolicyFinding, SyncAnalysis, Taken
from workbench.analysis.serialize import analysis_to_json
from workbench.sample import RepoBuilder
from workbench.sample.bot import finish_sync, start_sync
from workbench.sample.policy import CODEOWNERS, DOCKERFILE, PYPROJECT, TRAINING, UV_LOCK
from workbench.sample.scenarios import policy_files


def _analyze(path: Path | str, policy: str | None = "megatron", **request: str) -> SyncAnalysis:
    return analyze(path, policy=policy, **request)


def _by(analysis: SyncAnalysis, kind: str) -> dict[str, PolicyFinding]:
    assert analysis.policy is not None
    return {f.path: f for f in analysis.policy.findings if f.kind == kind}


def test_keep_dev_files_holding_mains_text_are_high_with_the_exact_fix(tmp_path: Path) -> None:
    scenario = policy_files(tmp_path / "repo")
    analysis = _analyze(scenario.path, dev="dev", main="main")
    assert analysis.policy is not None and analysis.policy.name == "megatron"
    keep = _by(analysis, "main-text-in-keep-dev")
    assert set(keep) == {PYPROJECT, UV_LOCK, DOCKERFILE, CODEOWNERS}
    for path, finding in keep.items():
        assert finding.severity == "high" and finding.fix == f"git checkout {scenario.dev} -- {path}"
        assert finding.fix in finding.message and finding.source.startswith("preset megatron:")
        entry = analysis.file(path)
        assert entry is not None and entry.policy == "keep-dev"
        signal = next(s for s in entry.signals if s.kind == "policy-keep-dev")
        assert signal.weight == 60


def test_git_sources_main_added_are_listed_for_devs_pyproject(tmp_path: Path) -> None:
    scenario = policy_files(tmp_path / "repo")
    (found,) = _by(_analyze(scenario.path, dev="dev", main="main"), "uv-source-missing").values()
    assert found.path == PYPROJECT and found.severity == "medium"
    assert '`nvidia-resiliency-ext = { git = "https://github.com/NVIDIA/nvidia-resiliency-ext"' in found.message


def test_override_file_is_marked_intended_and_its_main_hunks_lose_risk(tmp_path: Path) -> None:
    scenario = policy_files(tmp_path / "repo")
    analysis = _analyze(scenario.path, dev="dev", main="main")
    entry = analysis.file(TRAINING)
    assert entry is not None and entry.policy == "override-from-main"
    main_hunks = [h for h in entry.hunks if h.taken is Taken.MAIN]
    assert main_hunks and all(any(s.kind == "policy-override" and s.weight == -10 for s in h.signals) for h in main_hunks)
    assert TRAINING not in _by(analysis, "main-text-in-keep-dev")


def test_without_a_policy_nothing_is_said(tmp_path: Path) -> None:
    scenario = policy_files(tmp_path / "repo")
    analysis = _analyze(scenario.path, policy=None, dev="dev", main="main")
    assert analysis.policy is None and all(f.policy is None for f in analysis.files)
    assert analysis_to_json(analysis)["policy"] is None


def test_running_the_fixes_clears_the_findings(tmp_path: Path) -> None:
    """The fix commands work as written: after them only main's new git source is left to add."""
    scenario = policy_files(tmp_path / "repo")
    b = RepoBuilder.open(scenario.path)
    start_sync(b, "main2dev/sync", dev="dev", main="main")
    merge = finish_sync(b, "main2dev/sync", main="main")
    before = _analyze(b.path, rev=merge)
    for finding in _by(before, "main-text-in-keep-dev").values():
        assert finding.fix is not None
        b.git(*shlex.split(finding.fix)[1:])
    b.commit("fix: keep dev's versions of the keep-dev files")
    after = _analyze(b.path, rev=merge, result="HEAD")
    assert _by(after, "main-text-in-keep-dev") == {} and _by(after, "coupled-split") == {}
    assert set(_by(after, "uv-source-missing")) == {PYPROJECT}
    source = next(line for line in b.read(PYPROJECT, "main").decode().splitlines() if line.startswith("nvidia-resiliency-ext"))
    b.write(PYPROJECT, b.read(PYPROJECT).decode() + source + "\n")
    b.commit("fix: add main's nvidia-resiliency-ext source")
    done = _analyze(b.path, rev=merge, result="HEAD")
    assert _by(done, "uv-source-missing") == {} and _by(done, "main-text-in-keep-dev") == {}


def test_coupled_files_from_different_sides_are_reported(tmp_path: Path) -> None:
    scenario = policy_files(tmp_path / "repo")
    b = RepoBuilder.open(scenario.path)
    start_sync(b, "main2dev/sync", dev="dev", main="main")
    merge = finish_sync(b, "main2dev/sync", main="main")
    b.git("checkout", "dev", "--", UV_LOCK)
    b.commit("fix: dev's lock only")
    (split,) = _by(_analyze(b.path, rev=merge, result="HEAD"), "coupled-split").values()
    assert "uv.lock holds dev's" in split.message and "pyproject.toml holds main's" in split.message
    assert split.fix is not None and split.fix.endswith(f"-- {PYPROJECT} {UV_LOCK} {DOCKERFILE}")


def _conf_sync(b: RepoBuilder, config_name: str, config: str) -> None:
    b.write("conf/a.yaml", "x: 1\n")
    b.write("a.py", "A = 1\n")
    b.commit("Initial import")
    b.branch("dev").checkout("dev")
    b.write(config_name, config)
    b.write("conf/a.yaml", "x: 2\n")
    b.commit("[dev] Dev's config (#1)")
    b.checkout("main")
    b.write("conf/a.yaml", "x: 3\n")
    b.commit("Main's config (#2)")


def test_repository_config_is_read_from_devs_commit(builder: RepoBuilder) -> None:
    _conf_sync(builder, ".workbench.toml", 'keep_dev = ["conf/*.yaml"]\n\n[notes]\n"conf/**" = "Dev owns conf."\n')
    analysis = _analyze(builder.path, policy=None, dev="dev", main="main")
    dev = builder.rev("dev")
    assert analysis.policy is not None and analysis.policy.source == f"{dev[:10]}:.workbench.toml"
    finding = _by(analysis, "main-text-in-keep-dev")["conf/a.yaml"]
    assert finding.source == f"{dev[:10]}:.workbench.toml:1"
    assert analysis.policy.notes == ("conf/**: Dev owns conf.",)
    entry = analysis.file("conf/a.yaml")
    assert entry is not None and any(s.kind == "policy-note" for s in entry.signals)


def test_pyproject_tool_workbench_table_selects_a_preset(builder: RepoBuilder) -> None:
    _conf_sync(builder, "pyproject.toml", '[project]\nname = "x"\n\n[tool.workbench]\npreset = "megatron"\n')
    analysis = _analyze(builder.path, policy=None, dev="dev", main="main")
    assert analysis.policy is not None and analysis.policy.name == "megatron"


def test_a_merge_in_progress_reads_the_work_trees_config(builder: RepoBuilder) -> None:
    _conf_sync(builder, ".workbench.toml", 'keep_dev = ["conf/*.yaml"]\n')
    builder.checkout("dev")
    assert builder.merge("main", "theirs", no_commit=True) == 0
    assert _by(_analyze(builder.path, policy=None), "main-text-in-keep-dev").keys() == {"conf/a.yaml"}
    builder.write(".workbench.toml", 'keep_dev = ["a.py"]\n')
    analysis = _analyze(builder.path, policy=None)
    assert analysis.policy is not None and analysis.policy.source == ".workbench.toml"
    assert _by(analysis, "main-text-in-keep-dev") == {}


def test_a_file_only_touched_in_the_work_tree_is_no_change(builder: RepoBuilder, tmp_path: Path) -> None:
    """During a merge, ``diff-index`` alone trusts the index's file times: a touched file looked changed."""
    history(builder, base={"same.txt": "same\n", "conf.txt": "line1\nline2\nline3\n"},
            dev={"conf.txt": "line1\nDEV\nline3\n"}, main={"conf.txt": "line1\nMAIN\nline3\n"})
    builder.merge("main")  # stops on conf.txt
    policy = tmp_path / "policy.toml"
    policy.write_text('override_from_main = ["same.txt"]\n', encoding="utf-8")
    before = _by(_analyze(builder.path, policy=str(policy)), "override-not-main")
    touched = builder.path / "same.txt"
    stat = touched.stat()
    os.utime(touched, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    assert _by(_analyze(builder.path, policy=str(policy)), "override-not-main") == before == {}


def test_a_crlf_checkout_of_mains_file_is_mains_file(builder: RepoBuilder, tmp_path: Path) -> None:
    """During a merge the result is read as ``git add`` stores it: raw CRLF bytes under ``core.autocrlf`` are main's LF blob."""
    history(builder, base={"same.txt": "a\nb\n", "conf.txt": "line1\nline2\nline3\n"},
            dev={"conf.txt": "line1\nDEV\nline3\n"},
            main={"same.txt": "a\nMAIN\n", "conf.txt": "line1\nMAIN\nline3\n"})
    builder.git("config", "core.autocrlf", "true")
    builder.merge("main")  # stops on conf.txt; same.txt is checked out with CRLF
    assert (builder.path / "same.txt").read_bytes() == b"a\r\nMAIN\r\n"
    policy = tmp_path / "policy.toml"
    policy.write_text('override_from_main = ["same.txt"]\n', encoding="utf-8")
    assert _by(_analyze(builder.path, policy=str(policy)), "override-not-main") == {}
    builder.write("same.txt", b"a\r\nDEV\r\n")
    assert _by(_analyze(builder.path, policy=str(policy)), "override-not-main").keys() == {"same.txt"}


def test_an_untracked_file_is_not_in_the_merge_in_progress(builder: RepoBuilder, tmp_path: Path) -> None:
    """The result is the index's files: one taken out of the index but left on disk is not committed."""
    history(builder, base={"conf.txt": "line1\nline2\nline3\n"}, dev={"conf.txt": "line1\nDEV\nline3\n"},
            main={"new.txt": "from main\n", "conf.txt": "line1\nMAIN\nline3\n"})
    builder.merge("main")  # stops on conf.txt; new.txt is staged
    policy = tmp_path / "policy.toml"
    policy.write_text('override_from_main = ["new.txt"]\n', encoding="utf-8")
    assert _by(_analyze(builder.path, policy=str(policy)), "override-not-main") == {}
    builder.git("rm", "-q", "--cached", "--", "new.txt")
    assert (builder.path / "new.txt").is_file()
    assert _by(_analyze(builder.path, policy=str(policy)), "override-not-main").keys() == {"new.txt"}
