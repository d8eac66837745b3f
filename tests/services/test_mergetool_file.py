"""The one-file analysis behind `git mergetool --tool=workbench`."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.analysis.model import Mode, Taken
from workbench.errors import WorkbenchError
from workbench.resolve.session import Session
from workbench.resolve.splice import Choice, Decision
from workbench.resolve.writer import write_file
from workbench.sample import RepoBuilder
from workbench.services.mergetool_file import load_mergetool

BASE = "".join(f"v{i} = {i}\n" for i in range(10))


def _stages(b: RepoBuilder, path: str) -> dict[str, Path]:
    """What git mergetool hands a tool: BASE/LOCAL/REMOTE as temporary files."""
    out = b.git("checkout-index", "--stage=all", "--temp", "--", path).decode()
    names = out.split("\t")[0].split()
    return {role: b.path / name for role, name in zip(("BASE", "LOCAL", "REMOTE"), names, strict=True)}


@pytest.fixture
def conflict(builder: RepoBuilder) -> RepoBuilder:
    builder.write("x.py", BASE).commit("base")
    builder.branch("dev").checkout("dev").write("x.py", BASE.replace("v2 = 2", "v2 = 20").replace("v7 = 7", "v7 = 70")).commit("dev")
    builder.checkout("main").write("x.py", BASE.replace("v2 = 2", "v2 = 200").replace("v7 = 7", "v7 = 700")).commit("main")
    builder.checkout("dev").merge("main")
    return builder


def test_hunks_sit_on_the_conflict_markers(conflict: RepoBuilder) -> None:
    files = _stages(conflict, "x.py")
    repo, analysis = load_mergetool(*(str(files[r]) for r in ("BASE", "LOCAL", "REMOTE")), str(conflict.path / "x.py"))
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
        load_mergetool(*(str(files[r]) for r in ("BASE", "LOCAL", "REMOTE")), str(tmp_path / "nowhere" / "x.py"))
