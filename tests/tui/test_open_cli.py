"""``workbench open`` and ``workbench demo`` on bad input: one line on stderr, exit 2, nothing built or changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.cli import main
from workbench.sample import SampleSync
from workbench.tui.launch import repo_relative


def _one_error(capsys: pytest.CaptureFixture[str], words: str) -> None:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("workbench: error: ") and words in err, err


def test_open_refuses_a_missing_repository(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["open", "--repo", str(tmp_path / "nowhere")]) == 2
    _one_error(capsys, "no such directory")


def test_open_refuses_an_unknown_revision(sample_merge_commit: SampleSync, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nope", "--repo", str(sample_merge_commit.path)]) == 2
    _one_error(capsys, "unknown revision: nope")


def test_open_refuses_an_unknown_theme(sample_merge_commit: SampleSync, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["open", "--repo", str(sample_merge_commit.path), "--theme", "nope"]) == 2
    _one_error(capsys, "no theme named 'nope'")


def test_a_broken_config_file_is_one_line(sample_merge_commit: SampleSync, private_config: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    private_config.parent.mkdir(parents=True)
    private_config.write_text("[keys]\nfly = 'f'\n")
    assert main(["open", "--repo", str(sample_merge_commit.path)]) == 2
    _one_error(capsys, "unknown action(s) in [keys]: fly")


def test_demo_checks_its_options_before_building(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--theme", "nope", "--path", str(tmp_path / "demo")]) == 2
    _one_error(capsys, "no theme named")
    assert not (tmp_path / "demo").exists()


def test_demo_print_keeps_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--print", "--path", str(tmp_path / "demo")]) == 0
    out = capsys.readouterr().out
    assert "transformer_layer.py" in out and f"Sample repository: {tmp_path / 'demo'}" in out


@pytest.mark.parametrize(("given", "cwd", "expected"), [
    ("megatron/x.py", "/repo", "megatron/x.py"),  # as the sync names it, from anywhere
    ("./megatron/x.py", "/repo", "megatron/x.py"),
    ("./x.py", "/repo/megatron", "megatron/x.py"),  # from the current directory, as git reads paths
    ("../uv.lock", "/repo/megatron", "uv.lock"),
    ("/repo/megatron/x.py", "/elsewhere", "megatron/x.py"),
    ("/elsewhere/x.py", "/repo", "/elsewhere/x.py"),  # outside the work tree: left for the one-line error
])
def test_file_is_read_from_the_work_tree_root_or_the_current_directory(
    given: str, cwd: str, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("os.getcwd", lambda: cwd)
    assert repo_relative(given, Path("/repo")) == expected
