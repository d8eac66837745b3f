"""The one-file analysis behind `git mergetool --tool=workbench`."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from workbench.analysis.model import Mode, SignalKind, Taken
from workbench.analysis.serialize import analysis_to_json
from workbench.errors import WorkbenchError
from workbench.resolve.session import Session
from workbench.resolve.splice import Choice, Decision
from workbench.resolve.writer import write_file
from workbench.sample import RepoBuilder
from workbench.services.mergetool_file import (
    analyse_mergetool,
    first_look,
    load_mergetool,
    mergetool_repo,
    read_mergetool,
    reads_history,
)
from workbench.services.sync_process import start_analysis_process
from workbench.services.workspace import Workspace, situation_of

BASE = "".join(f"v{i} = {i}\n" for i in range(10))


def _stages(b: RepoBuilder, path: str) -> dict[str, Path]:
    """What git mergetool hands a tool: BASE/LOCAL/REMOTE as temporary files."""
    out = b.git("checkout-index", "--stage=all", "--temp", "--", path).decode()
    names = out.split("\t")[0].split()
    return {role: b.path / name for role, name in zip(("BASE", "LOCAL", "REMOTE"), names, strict=True)}


def _sides(files: dict[str, Path]) -> tuple[str, str, str]:
    """BASE, LOCAL and REMOTE, as git mergetool passes them."""
    return str(files["BASE"]), str(files["LOCAL"]), str(files["REMOTE"])


@pytest.fixture
def conflict(builder: RepoBuilder) -> RepoBuilder:
    builder.write("x.py", BASE).commit("base")
    builder.branch("dev").checkout("dev").write("x.py", BASE.replace("v2 = 2", "v2 = 20").replace("v7 = 7", "v7 = 70")).commit("dev")
    builder.checkout("main").write("x.py", BASE.replace("v2 = 2", "v2 = 200").replace("v7 = 7", "v7 = 700")).commit("main")
    builder.checkout("dev").merge("main")
    return builder


def test_hunks_sit_on_the_conflict_markers(conflict: RepoBuilder) -> None:
    files = _stages(conflict, "x.py")
    repo, analysis = load_mergetool(*_sides(files), str(conflict.path / "x.py"))
    assert analysis.mode is Mode.MERGETOOL
    (entry,) = analysis.files
    assert [h.taken for h in entry.hunks] == [Taken.UNRESOLVED, Taken.UNRESOLVED]
    session = Session(analysis, read_blob=repo.read_blob)
    session.decide("x.py", 0, Decision(Choice.DEV))
    session.decide("x.py", 1, Decision(Choice.MAIN))
    outcome = write_file(repo, session, "x.py")
    assert outcome.written and not outcome.staged, outcome.message
    merged = (conflict.path / "x.py").read_text()
    assert "v2 = 20\n" in merged and "v7 = 700\n" in merged and "<<<<<<<" not in merged


def test_missing_inputs_are_a_clean_error(conflict: RepoBuilder, tmp_path: Path) -> None:
    with pytest.raises(WorkbenchError, match="LOCAL file not found"):
        load_mergetool(str(tmp_path / "b"), str(tmp_path / "l"), str(tmp_path / "r"), str(conflict.path / "x.py"))
    files = _stages(conflict, "x.py")
    with pytest.raises(WorkbenchError, match="no such directory"):
        load_mergetool(*_sides(files), str(tmp_path / "nowhere" / "x.py"))


@pytest.mark.parametrize("alone", [False, True], ids=["merge-stages", "three-versions-alone"])
def test_the_analysis_from_a_forked_process_is_the_analysis_computed_here(
    conflict: RepoBuilder, alone: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``workbench mergetool`` analyses in a forked process while Textual loads: its answer, opened with
    ``mergetool_repo``, reviews and writes MERGED exactly as the analysis computed in this process does."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    files = _stages(conflict, "x.py")
    if alone:  # a LOCAL that is no stage of the merge, nor any object of the repository
        files["LOCAL"].write_text(BASE.replace("v2 = 2", "v2 = 21"))
    given = read_mergetool(*_sides(files), str(conflict.path / "x.py"))
    here = analyse_mergetool(given)
    process = start_analysis_process(lambda _progress: analyse_mergetool(given))
    assert process is not None
    answer = process.receive(None)
    assert answer is not None
    assert json.dumps(analysis_to_json(answer), sort_keys=True) == json.dumps(analysis_to_json(here), sort_keys=True)
    assert any(s.kind is SignalKind.NO_HISTORY for s in answer.files[0].signals) is alone
    # BASE, LOCAL and REMOTE are temporary files: the repository reads them by blob id all the same.
    versions = {role: files[role].read_bytes() for role in files}
    for name in files.values():
        name.unlink()
    repo = mergetool_repo(given)
    (entry,) = answer.files
    oids = [side.oid for side in (entry.base, entry.dev, entry.main)]
    assert [repo.read_blob(oid) for oid in oids if oid is not None] == [
        versions[role] for role in ("BASE", "LOCAL", "REMOTE")]
    if alone:
        return  # MERGED's markers hold another LOCAL: the writer rightly refuses to splice this one into them
    workspace = Workspace.load(repo, answer)
    session = workspace.session
    session.decide("x.py", 0, Decision(Choice.DEV))
    session.decide("x.py", 1, Decision(Choice.MAIN))
    outcome = write_file(workspace.repo, session, "x.py")
    assert outcome.written, outcome.message
    merged = (conflict.path / "x.py").read_text()
    assert "v2 = 20\n" in merged and "v7 = 700\n" in merged and "<<<<<<<" not in merged


@pytest.mark.parametrize("alone", [False, True], ids=["merge-stages", "three-versions-alone"])
def test_a_first_look_is_the_complete_analysis_hunks_before_their_evidence(conflict: RepoBuilder, alone: bool) -> None:
    """What ``git mergetool`` shows while the merge's evidence is read: the same hunks on the same markers,
    under the same journal (decisions made in ``workbench open`` show at once), from its own repository object
    (its thread runs beside the complete analysis's). Outside the merge's stages there is nothing to wait for."""
    files = _stages(conflict, "x.py")
    if alone:
        files["LOCAL"].write_text(BASE.replace("v2 = 2", "v2 = 21"))
    given = read_mergetool(*_sides(files), str(conflict.path / "x.py"))
    assert reads_history(given) is not alone
    if alone:
        return
    repo, look = first_look(given)
    complete = analyse_mergetool(given)
    (seen,), (full,) = look.files, complete.files
    assert len(full.hunks) == 2
    assert [(h.dev, h.main, h.base, h.result, h.taken) for h in seen.hunks] == \
        [(h.dev, h.main, h.base, h.result, h.taken) for h in full.hunks]
    assert (seen.base, seen.dev, seen.main, seen.result_oid) == (full.base, full.dev, full.main, full.result_oid)
    assert (look.mode, look.dev, look.main, look.labels) == (complete.mode, complete.dev, complete.main, complete.labels)
    assert not seen.signals and all(not h.signals for h in seen.hunks), "no evidence is claimed, not even its absence"
    assert situation_of(repo, look) == situation_of(given.repo, complete)
    assert repo is not given.repo
    assert seen.dev.oid is not None and repo.read_blob(seen.dev.oid) == files["LOCAL"].read_bytes()


def test_a_merge_drawn_in_diff3_still_gets_the_merge_s_evidence(builder: RepoBuilder) -> None:
    """The analysis reads MERGED's conflicts in git's default style; MERGED itself (diff3) is still the file
    the merge left, so its history and risk are there (not the three versions alone)."""
    builder.git("config", "merge.conflictStyle", "diff3")
    builder.write("x.py", BASE).commit("base")
    builder.branch("dev").checkout("dev").write("x.py", BASE.replace("v2 = 2", "v2 = 20")).commit("dev")
    builder.checkout("main").write("x.py", BASE.replace("v2 = 2", "v2 = 200")).commit("main")
    builder.checkout("dev").merge("main")
    assert b"|||||||" in (builder.path / "x.py").read_bytes()
    files = _stages(builder, "x.py")
    _repo, analysis = load_mergetool(*_sides(files), str(builder.path / "x.py"))
    (entry,) = analysis.files
    assert not any(s.kind is SignalKind.NO_HISTORY for s in entry.signals), entry.signals
    assert entry.history.dev and entry.history.main
