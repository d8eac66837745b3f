"""The session's shared analyses: an unchanged copy of a sample gets exactly what analysing it would give."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from tui.analysed import SharedAnalyses

from workbench.sample import SampleSync
from workbench.services.sync import SyncRequest, open_sync


def _copy(template: SampleSync, dest: Path) -> Path:
    shutil.copytree(template.path, dest, symlinks=True)
    return dest


def test_an_unchanged_copy_shares_the_analysis_a_changed_one_does_not(
        sample_template: Callable[[str], SampleSync], tmp_path: Path) -> None:
    template = sample_template("in-progress")
    shared = SharedAnalyses()
    first, second, changed = (_copy(template, tmp_path / name) for name in ("first", "second", "changed"))
    edited = next(p for p in sorted(changed.rglob("*.py")) if ".git" not in p.parts)
    edited.write_bytes(edited.read_bytes() + b"# changed before the app opened it\n")

    for path, computed in ((first, 1), (second, 1), (changed, 2)):
        repo, analysis = shared.opener(path)(SyncRequest(repo=path), None)
        _, own = open_sync(SyncRequest(repo=path, cache=False))
        assert analysis == own
        assert repo.workdir is not None and repo.workdir.resolve() == path.resolve()
        assert shared.computed == computed
