"""``workbench mergetool``'s command line: bad input is one line and exit 2, before any screen."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from workbench.sample import RepoBuilder


def test_missing_inputs_are_one_line_exit_2(builder: RepoBuilder, tmp_path: Path) -> None:
    builder.write("x.py", "x = 1\n").commit("base")
    args = [str(tmp_path / n) for n in ("BASE", "LOCAL", "REMOTE")] + [str(builder.path / "x.py")]
    proc = subprocess.run([sys.executable, "-m", "workbench", "mergetool", *args], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [f"workbench: error: LOCAL file not found: {args[1]}"]
    usage = subprocess.run([sys.executable, "-m", "workbench", "mergetool", "only-one"], capture_output=True, text=True)
    assert usage.returncode == 2 and len(usage.stderr.strip().splitlines()) == 1


def test_an_unknown_policy_is_one_line_exit_2(builder: RepoBuilder, tmp_path: Path) -> None:
    builder.write("x.py", "x = 1\n").commit("base")
    for name in ("BASE", "LOCAL", "REMOTE"):
        (tmp_path / name).write_text("x = 1\n")
    args = [str(tmp_path / n) for n in ("BASE", "LOCAL", "REMOTE")] + [str(builder.path / "x.py")]
    proc = subprocess.run([sys.executable, "-m", "workbench", "mergetool", "--policy", "nosuch", *args],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "workbench: error: unknown policy 'nosuch': not a preset (megatron) and no such file"
    ]
