"""Boolean settings read as git reads them (``merge.renormalize`` decides what the writer stages)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from workbench.git.repo import GitRepo


@pytest.mark.parametrize(("value", "expected"), [
    ("true", True), ("yes", True), ("on", True), ("1", True),
    ("false", False), ("no", False), ("0", False), ("", False), ("maybe", False), (None, False),
])
def test_a_boolean_setting_reads_as_git_reads_it(tmp_path: Path, value: str | None, expected: bool) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    repo = GitRepo.open(tmp_path)
    assert repo.config_flag("merge.renormalize") is False
    if value is not None:
        subprocess.run(["git", "-C", str(tmp_path), "config", "merge.renormalize", value], check=True)
    assert repo.config_flag("merge.renormalize") is expected  # a change made after opening is seen
