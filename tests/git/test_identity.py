"""The identity's git commands, run side by side: each one's whole output and status, whatever its size."""

from __future__ import annotations

import subprocess
from pathlib import Path

from workbench.git.identity import _run_all
from workbench.git.runner import run_git


def test_outputs_larger_than_a_pipe_are_collected_whole_and_in_order(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    blobs = []
    for n in range(3):
        data = b"".join(b"%d: line %d of a blob larger than a pipe's buffer\n" % (n, k) for k in range(30_000))
        oid = run_git(tmp_path, ["hash-object", "-w", "--stdin"], input_bytes=data).stdout.decode().strip()
        blobs.append((oid, data))
    found = _run_all(tmp_path, [["cat-file", "blob", oid] for oid, _ in blobs] + [["rev-parse", "--verify", "nothing"]])
    assert found[:3] == [(0, data) for _, data in blobs]
    assert found[3][0] != 0 and found[3][1] == b""
