"""``workbench demo``'s shared sample is per user: a second user of the machine gets their own."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import pytest

from workbench.services.demo_repo import shared_demo


@pytest.fixture
def temp_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "tmp"
    home.mkdir()
    home.chmod(0o1777)  # like /tmp: every user can make directories here
    monkeypatch.setenv("TMPDIR", str(home))
    monkeypatch.setattr(tempfile, "tempdir", None)
    return home


def test_the_shared_sample_is_in_a_private_directory_named_for_the_user(temp_dir: Path) -> None:
    path, reused = shared_demo("merge-commit")
    assert not reused and path.parent.parent == temp_dir
    assert str(os.geteuid()) in path.parent.name
    info = path.parent.stat()
    assert info.st_uid == os.geteuid() and stat.S_IMODE(info.st_mode) & 0o077 == 0
    assert shared_demo("merge-commit") == (path, True)


def test_a_directory_someone_else_can_write_is_never_used(temp_dir: Path) -> None:
    """Squatted: the user's own name made by another, or opened to everyone: a private sample instead."""
    path, _ = shared_demo("merge-commit")
    squatted = path.parent
    squatted.chmod(0o777)
    other, reused = shared_demo("merge-commit")
    assert not reused and other.parent != squatted and (path / ".git").is_dir(), "left alone"
    assert stat.S_IMODE(other.parent.stat().st_mode) & 0o077 == 0
