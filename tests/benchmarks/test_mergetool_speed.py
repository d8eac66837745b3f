"""Pytest's view of ``mergetool_speed.py``: skipped without MEGATRON_GIT; with it, on #4291's merge stopped on
its conflicts, what git mergetool shows for the largest conflicted Python file is what the whole sync's
analysis says of that file (the figures themselves are for people: run the script)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from mergetool_speed import DEV, FILES, MAIN

from workbench.analysis.serialize import file_to_json
from workbench.services.mergetool_file import load_mergetool
from workbench.services.sync import SyncRequest, open_sync

ENV = "MEGATRON_GIT"
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not os.environ.get(ENV), reason=f"{ENV} is not set (a Megatron-LM clone)")]


def test_one_files_analysis_is_the_whole_syncs_for_it(tmp_path: Path) -> None:
    repo = tmp_path / "mega"

    def git(*args: str, ok: tuple[int, ...] = (0,)) -> str:
        proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, check=False)
        assert proc.returncode in ok, proc.stderr.decode(errors="replace")
        return proc.stdout.decode()

    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", os.environ[ENV], str(repo)], check=True)
    git("checkout", "-q", DEV)
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "merge", "--no-edit", MAIN, ok=(1,))
    path = FILES[-1]
    base, local, remote = (str(repo / name) for name in
                           git("checkout-index", "--stage=all", "--temp", "--", path).split("\t")[0].split())
    _, whole = open_sync(SyncRequest(repo=repo, cache=False))
    _, one = load_mergetool(base, local, remote, str(repo / path))
    expected = whole.file(path)
    (entry,) = one.files
    assert expected is not None and entry.hunks and any(h.signals for h in entry.hunks)
    assert file_to_json(entry) == file_to_json(expected)
