"""``workbench mergetool --install`` writes git's recipe with an absolute path, so it works off PATH."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.commands.mergetool import recipe
from workbench.sample import RepoBuilder


def test_install_writes_the_recipe_with_an_absolute_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    b = RepoBuilder.init(tmp_path / "repo")
    b.write("a.txt", "a\n").commit("a")
    assert main(["mergetool", "--install", "--repo", str(b.path)]) == 0
    cmd = b.git("config", "--local", "mergetool.workbench.cmd").decode().strip()
    assert b.git("config", "--local", "mergetool.workbench.trustExitCode").decode().strip() == "true"
    assert cmd.endswith('mergetool "$BASE" "$LOCAL" "$REMOTE" "$MERGED"')
    program = cmd.split(" mergetool", 1)[0]
    assert os.path.isabs(program.split()[0].strip("'")), cmd
    assert "now runs" in capsys.readouterr().out


def test_the_recipe_runs_without_workbench_on_path(tmp_path: Path) -> None:
    """The installed command, run by sh as git would, with a PATH that has git but no workbench."""
    command = recipe().replace('"$BASE" "$LOCAL" "$REMOTE" "$MERGED"', "--help")
    git_dir = Path(subprocess.run(["sh", "-c", "command -v git"], capture_output=True, text=True).stdout.strip()).parent
    proc = subprocess.run(["sh", "-c", command], capture_output=True, text=True, env={"PATH": str(git_dir), "HOME": str(tmp_path)})
    assert proc.returncode == 0 and "BASE LOCAL REMOTE MERGED" in proc.stdout.replace("[", "").replace("]", "")


def test_install_refuses_files_and_files_are_required_without_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mergetool", "--install", "a", "b", "c", "d"]) == 2
    assert "--install takes no files" in capsys.readouterr().err
    assert main(["mergetool", "a"]) == 2
    assert "give BASE LOCAL REMOTE MERGED" in capsys.readouterr().err


def test_recipe_quotes_a_path_with_spaces(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    script = tmp_path / "dir with space" / "workbench"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [str(script)])
    assert recipe("megatron").startswith(f"'{script}' mergetool --policy megatron ")
