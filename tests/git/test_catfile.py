"""The blob reader: what it reads, and the options it hands git."""

from __future__ import annotations

import subprocess
from pathlib import Path

from workbench.git.catfile import CatFile
from workbench.git.runner import run_git


def test_reads_blobs_and_says_when_one_is_missing(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    data = b"first\nsecond\n"
    oid = run_git(tmp_path, ["hash-object", "-w", "--stdin"], input_bytes=data).stdout.decode().strip()
    reader = CatFile(tmp_path, options=("-c", "core.deltaBaseCacheLimit=1m"))
    assert reader.read(oid) == ("blob", data)
    assert reader.read("0" * 40) is None

