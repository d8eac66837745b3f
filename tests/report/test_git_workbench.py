"""``git workbench ...``: git finds the ``git-workbench`` console script on PATH."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.sample import SampleSync

SCRIPTS = Path(sys.executable).parent
pytestmark = pytest.mark.skipif(
    shutil.which("git-workbench", path=str(SCRIPTS)) is None,
    reason="the package's console scripts are not installed next to this Python",
)


def _env() -> dict[str, str]:
    """PATH with the virtual environment's scripts first, as after ``source .venv/bin/activate``."""
    return dict(os.environ, PATH=f"{SCRIPTS}{os.pathsep}{os.environ.get('PATH', '')}")


@pytest.mark.parametrize("command", [["analyze", "--json"], ["report", "--format", "json"]])
def test_git_runs_the_dashed_command(bot_merge: SampleSync, command: list[str]) -> None:
    env = _env()
    through_git = subprocess.run(
        ["git", "-C", str(bot_merge.path), "workbench", *command],
        capture_output=True, env=env, check=False,
    )
    direct = subprocess.run(
        [sys.executable, "-m", "workbench", *command, "--repo", str(bot_merge.path)],
        capture_output=True, env=env, check=False,
    )
    assert (through_git.returncode, through_git.stderr) == (0, b"")
    assert through_git.stdout == direct.stdout
    assert b'"merge": "' + str(bot_merge.merge).encode() in through_git.stdout


def test_git_passes_bad_input_through_as_exit_2(bot_merge: SampleSync) -> None:
    env = _env()
    proc = subprocess.run(
        ["git", "-C", str(bot_merge.path), "workbench", "report", "no-such-rev"],
        capture_output=True, env=env, check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr == b"workbench: error: unknown revision: no-such-rev\n"
