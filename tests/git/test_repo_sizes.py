"""Object sizes: from their headers (what the snapshot decides to read before git's line scripts), and of remembered blobs."""

from __future__ import annotations

import subprocess
from pathlib import Path

from workbench.git.repo import GitRepo
from workbench.git.runner import run_git


def test_sizes_of_stored_objects_and_none_for_missing_ones(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    small, large = b"a\n", b"line\n" * 30_000
    oids = [run_git(tmp_path, ["hash-object", "-w", "--stdin"], input_bytes=data).stdout.decode().strip()
            for data in (small, large)]
    missing = "1" * 40
    repo = GitRepo.open(tmp_path)
    assert repo.stored_sizes([*oids, missing, oids[0]]) == {oids[0]: len(small), oids[1]: len(large)}
    assert repo.stored_sizes([]) == {}


def test_a_remembered_blob_has_its_size(tmp_path: Path) -> None:
    """git mergetool's temporary versions are no objects: the whole-file view showed them as 0 bytes."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    repo = GitRepo.open(tmp_path)
    data = b"B\0\1\2binary"
    oid = repo.hash_bytes(data)
    assert repo.blob_size(oid) == 0, "not in the repository"
    repo.remember_blobs([data])
    assert repo.blob_size(oid) == len(data)
