"""Bad input: one line on stderr, exit 2, no traceback, nothing changed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.odd_repos import tree_digest

from workbench.errors import WorkbenchError
from workbench.sample import RepoBuilder, SampleSync


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "workbench", *args], capture_output=True, text=True, cwd=cwd, check=False
    )


def _assert_clean_error(proc: subprocess.CompletedProcess[str], words: str) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert words in lines[0], lines[0]


@pytest.fixture
def linear(builder: RepoBuilder) -> RepoBuilder:
    builder.write("a.txt", "1\n").commit("one")
    builder.write("a.txt", "2\n").commit("two")
    return builder


@pytest.fixture
def synced(builder: RepoBuilder) -> RepoBuilder:
    """dev and main diverged and merged once (dev checked out at the merge)."""
    builder.write("a.txt", "a\nb\nc\n").commit("base")
    builder.branch("dev").checkout("dev").write("a.txt", "a\nB\nc\n").commit("dev (#2)")
    builder.checkout("main").write("a.txt", "a\nBB\nc\n").commit("main (#3)")
    builder.checkout("dev").merge("main", "theirs")
    return builder


def test_not_a_repository(tmp_path: Path) -> None:
    _assert_clean_error(_cli("analyze", cwd=tmp_path), "not a git repository")


def test_missing_repo_path(tmp_path: Path) -> None:
    _assert_clean_error(_cli("analyze", "--repo", str(tmp_path / "nope"), cwd=tmp_path), "no such directory")


def test_repository_without_commits(builder: RepoBuilder) -> None:
    _assert_clean_error(_cli("analyze", cwd=builder.path), "no commits")


def test_unknown_revision(linear: RepoBuilder) -> None:
    _assert_clean_error(_cli("analyze", "no-such-rev", cwd=linear.path), "unknown revision")
    _assert_clean_error(_cli("analyze", "--dev", "HEAD", "--main", "nope", cwd=linear.path), "unknown revision")


def test_option_looking_revision_is_not_an_option(linear: RepoBuilder) -> None:
    _assert_clean_error(_cli("analyze", "--dev=--upload-pack=x", "--main", "HEAD", cwd=linear.path), "unknown revision")


def test_not_a_merge_and_no_merge_in_progress(linear: RepoBuilder) -> None:
    _assert_clean_error(_cli("analyze", cwd=linear.path), "HEAD is not a merge commit")
    _assert_clean_error(_cli("analyze", "HEAD", cwd=linear.path), "not a merge commit")


def test_half_a_preview_or_both_forms(linear: RepoBuilder) -> None:
    _assert_clean_error(_cli("analyze", "--dev", "HEAD", cwd=linear.path), "--dev and --main go together")
    _assert_clean_error(_cli("analyze", "HEAD", "--dev", "HEAD", "--main", "HEAD~1", cwd=linear.path), "not both")


def test_unknown_option_is_one_line(linear: RepoBuilder) -> None:
    _assert_clean_error(_cli("analyze", "--frobnicate", cwd=linear.path), "unrecognized arguments")


def test_octopus_merge_is_refused_with_a_reason(builder: RepoBuilder) -> None:
    builder.write("a.txt", "a\n").commit("base")
    for name in ("x", "y"):
        builder.branch(name).checkout(name).write(f"{name}.txt", name).commit(name)
        builder.checkout("main")
    builder.write("m.txt", "m").commit("m")
    builder.git("merge", "-q", "--no-edit", "x", "y")
    _assert_clean_error(_cli("analyze", "HEAD", cwd=builder.path), "octopus")


def test_detached_head_at_a_merge_commit_works(synced: RepoBuilder) -> None:
    synced.checkout(synced.rev("HEAD"))
    proc = _cli("analyze", cwd=synced.path)
    assert proc.returncode == 0, proc.stderr
    assert "merge-commit" in proc.stdout


def test_bare_repository_reads_a_merge_commit(synced: RepoBuilder, tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(synced.path), str(bare)], check=True)
    proc = _cli("analyze", "dev", cwd=bare)
    assert proc.returncode == 0, proc.stderr
    assert _cli("analyze", cwd=bare).returncode == 0, "HEAD (dev) is the merge"
    _assert_clean_error(_cli("analyze", "main", cwd=bare), "not a merge commit")


@pytest.mark.parametrize("depth", ["1", "2"])
def test_shallow_clone_without_the_merge_base(synced: RepoBuilder, tmp_path: Path, depth: str) -> None:
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", depth, "--branch", "dev", f"file://{synced.path}", str(shallow)],
        check=True,
    )
    assert (shallow / ".git" / "shallow").is_file()
    _assert_clean_error(_cli("analyze", cwd=shallow), "shallow")


def test_errors_change_nothing(synced: RepoBuilder) -> None:
    before = tree_digest(synced.path)
    for args in (("analyze", "nope"), ("analyze", "--dev", "x"), ("analyze", "HEAD~1")):
        assert _cli(*args, cwd=synced.path).returncode == 2
    assert tree_digest(synced.path) == before


def test_debug_shows_the_traceback(linear: RepoBuilder) -> None:
    proc = _cli("--debug", "analyze", "no-such-rev", cwd=linear.path)
    assert proc.returncode != 0 and "Traceback" in proc.stderr


HEADLESS = "textual.drivers.headless_driver:HeadlessDriver"


def _app_cli(*args: str, cwd: Path, config_home: Path) -> subprocess.CompletedProcess[str]:
    """The CLI with the app, should it start, on Textual's headless driver (no terminal) and private
    settings; an app that starts and never exits fails the test by timing out."""
    env = {**os.environ, "TEXTUAL_DRIVER": HEADLESS, "XDG_CONFIG_HOME": str(config_home)}
    return subprocess.run([sys.executable, "-m", "workbench", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, stdin=subprocess.DEVNULL, timeout=90, check=False)


def test_open_on_a_file_the_sync_lacks(sample_in_progress: SampleSync, tmp_path: Path) -> None:
    before = tree_digest(sample_in_progress.path)
    proc = _app_cli("open", "--repo", str(sample_in_progress.path), "--file", "no/such/file.py", cwd=tmp_path,
                    config_home=tmp_path / "config")
    _assert_clean_error(proc, "--file no/such/file.py: not one of this sync's files (neither dev, main nor the result")
    assert tree_digest(sample_in_progress.path) == before


def test_a_file_no_commit_has_is_refused_before_the_analysis(sample_in_progress: SampleSync,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from workbench.services.sync import SyncRequest
    from workbench.tui import launch as launching

    def never(_request: SyncRequest) -> None:
        raise AssertionError("the analysis started")

    monkeypatch.setattr(launching, "start_loading", never)
    with pytest.raises(WorkbenchError, match="--file nope.py: not one of this sync's files"):
        launching.launch(SyncRequest(repo=sample_in_progress.path), start_file="nope.py")


def test_a_file_the_sync_did_not_touch_is_refused_once_analysed(sample_in_progress: SampleSync,
                                                                tmp_path: Path) -> None:
    from workbench.services.sync import SyncRequest
    from workbench.services.workspace import Workspace

    touched = {entry.path for entry in Workspace.open(SyncRequest(repo=sample_in_progress.path)).files}
    tracked = subprocess.run(["git", "ls-files"], cwd=sample_in_progress.path, capture_output=True, text=True,
                             check=True).stdout.split()
    untouched = next(path for path in tracked if path not in touched)
    proc = _app_cli("open", "--repo", str(sample_in_progress.path), "--file", untouched, cwd=tmp_path,
                    config_home=tmp_path / "config")
    _assert_clean_error(proc, f"--file {untouched}: not one of the 16 files of this sync")


def test_demo_on_a_file_the_sample_lacks_leaves_no_sample_behind(tmp_path: Path) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {**os.environ, "TEXTUAL_DRIVER": HEADLESS, "XDG_CONFIG_HOME": str(tmp_path / "config"), "TMPDIR": str(temp)}
    proc = subprocess.run([sys.executable, "-m", "workbench", "demo", "--file", "nope.py"], capture_output=True,
                          text=True, cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, timeout=90, check=False)
    _assert_clean_error(proc, "--file nope.py: not one of this sync's files")
    assert not any(temp.glob("workbench-demo-*")), "the temporary sample is removed"


def test_the_file_check_lets_a_file_of_the_sync_through(sample_in_progress: SampleSync) -> None:
    from workbench.services.sync import SyncRequest
    from workbench.services.workspace import Workspace
    from workbench.tui.launch import require_file

    workspace = Workspace.open(SyncRequest(repo=sample_in_progress.path))
    path = workspace.files[-1].path
    assert require_file(lambda _report: workspace, path)(lambda _progress: None) is workspace
    with pytest.raises(WorkbenchError, match="--file nope.py: not one of the 16 files"):
        require_file(lambda _report: workspace, "nope.py")(lambda _progress: None)


@pytest.mark.parametrize(("settings", "words"), [
    ('[keys]\ntake_main = "d"\n', "[keys] binds 'd' to both take_main and take_dev"),
    ('theme = "nosuch"\n', "no theme named 'nosuch' (themes: "),
])
def test_bad_settings_are_named_before_the_app_starts(synced: RepoBuilder, tmp_path: Path, settings: str,
                                                      words: str) -> None:
    config = tmp_path / "config" / "workbench" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(settings)
    before = tree_digest(synced.path)
    proc = _app_cli("open", "--repo", str(synced.path), cwd=tmp_path, config_home=tmp_path / "config")
    _assert_clean_error(proc, f"workbench: error: {config}: {words}")
    assert tree_digest(synced.path) == before and config.read_text() == settings


def test_mergetool_names_the_missing_input(tmp_path: Path) -> None:
    names = [str(tmp_path / name) for name in ("BASE", "LOCAL", "REMOTE", "MERGED")]
    _assert_clean_error(_cli("mergetool", *names, cwd=tmp_path), f"LOCAL file not found: {names[1]}")
    Path(names[1]).write_text("x = 1\n")
    _assert_clean_error(_cli("mergetool", *names, cwd=tmp_path), f"REMOTE file not found: {names[2]}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["LOCAL"]
