"""Writing git settings (the mergetool recipe): ``git config --global`` or one repository's, argument lists only."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from workbench.git.runner import run_git


def set_config(pairs: Sequence[tuple[str, str]], repo: Path | None = None) -> str:
    """Set each ``key = value``: in ``repo``'s config, or the user's global one; returns which file."""
    scope = ["--local"] if repo is not None else ["--global"]
    cwd = repo if repo is not None else Path.home()
    for key, value in pairs:
        run_git(cwd, ["config", *scope, key, value])
    where = run_git(cwd, ["config", *scope, "--show-origin", "--get", pairs[0][0]]).stdout.decode()
    return where.split("\t", 1)[0].removeprefix("file:") if where else "git config"
