"""The unit memo changes when an analysis is computed, never what it says.

A merge in progress of a small Python package is analysed, its work tree
changed (files resolved, re-resolved, left conflicted, staged or not), and
analysed again: with the memo of the earlier states the analysis must be
the one ``--no-cache`` computes, as JSON bytes and as the analysis itself.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.analysis.memo import UnitMemo
from workbench.cli import main
from workbench.sample import RepoBuilder
from workbench.services.sync import SyncRequest, open_sync

A = "pkg/a.py"
B = "pkg/b.py"
C = "pkg/c.py"
BASE = {"pkg/__init__.py": "", A: "X = 1\n", B: "def foo():\n    return 1\n\n\ndef keep():\n    return 0\n", C: "Y = 1\n"}
DEV = {A: "from pkg.b import foo\n\nX = foo()\n", B: "def foo():\n    return 2\n\n\ndef keep():\n    return 0\n",
       C: "Y = 2\n"}
MAIN = {A: "X = 2\n", B: "def foo():\n    return 3\n\n\ndef keep():\n    return 0\n", C: "Y = 3\n"}
WITHOUT_FOO = "def keep():\n    return 0\n"
"""``pkg/b.py`` resolved without ``foo``, which dev's ``pkg/a.py`` imports."""
CHOICES = ("dev", "main", "conflicted", "custom")


def _in_progress(path: Path) -> Path:
    repo = RepoBuilder.init(path)
    for rel, text in BASE.items():
        repo.write(rel, text)
    repo.commit("base")
    repo.branch("dev")
    repo.checkout("dev")
    for rel, text in DEV.items():
        repo.write(rel, text)
    repo.commit("dev's work")
    repo.checkout("main")
    for rel, text in MAIN.items():
        repo.write(rel, text)
    repo.commit("main's work")
    repo.checkout("dev")
    assert repo.merge("main") == 1
    return path


def _resolve(repo: Path, rel: str, choice: str, staged: bool) -> None:
    if choice == "conflicted":
        subprocess.run(["git", "-C", str(repo), "checkout", "-m", "--", rel], check=True, capture_output=True)
        return
    text = {"dev": DEV, "main": MAIN}[choice][rel] if choice != "custom" else (
        WITHOUT_FOO if rel == B else f"# resolved by hand\n{MAIN[rel]}")
    (repo / rel).write_text(text)
    if staged:
        subprocess.run(["git", "-C", str(repo), "add", "--", rel], check=True, capture_output=True)


def _json(capsys: pytest.CaptureFixture[str], repo: Path, *extra: str) -> str:
    capsys.readouterr()
    assert main(["analyze", "--repo", str(repo), "--json", *extra]) in (0, 1)
    return capsys.readouterr().out


@pytest.fixture
def hits(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bytes]]:
    """The fingerprints the memo answered (a unit reused)."""
    found: list[bytes] = []
    original = UnitMemo.get

    def get(self: UnitMemo, fingerprint: bytes) -> tuple[bool, object]:
        answer = original(self, fingerprint)
        if answer[0]:
            found.append(fingerprint)
        return answer

    monkeypatch.setattr(UnitMemo, "get", get)
    yield found


def _same_as_cold(capsys: pytest.CaptureFixture[str], repo: Path) -> str:
    warm = _json(capsys, repo)
    assert warm == _json(capsys, repo, "--no-cache")
    _, memoised = open_sync(SyncRequest(repo=repo))
    _, cold = open_sync(SyncRequest(repo=repo, cache=False))
    assert memoised == cold
    return warm


def test_a_module_that_stops_defining_a_name_changes_its_importers_audit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], hits: list[bytes]
) -> None:
    repo = _in_progress(tmp_path / "repo")
    for rel in (A, B):
        _resolve(repo, rel, "dev", staged=True)
    assert '"missing-import"' not in _json(capsys, repo)
    hits.clear()
    _resolve(repo, B, "custom", staged=True)  # pkg/a.py is as it was: only its audit's reads changed
    found = _same_as_cold(capsys, repo)
    assert '"missing-import"' in found and "module pkg.b has no `foo`" in found
    assert hits  # the units of pkg/a.py and pkg/c.py were reused; the audit of pkg/a.py was not


def test_an_analysis_of_some_paths_sees_the_modules_they_read_change(tmp_path: Path) -> None:
    """Asked about ``pkg/a.py`` alone, the audit still reads ``pkg/b.py``'s result, outside the paths asked."""
    repo = _in_progress(tmp_path / "repo")
    for rel in (A, B):
        _resolve(repo, rel, "dev", staged=True)
    _, before = open_sync(SyncRequest(repo=repo, paths=(A,)))
    assert not before.api_mismatches
    _resolve(repo, B, "custom", staged=True)
    _, memoised = open_sync(SyncRequest(repo=repo, paths=(A,)))
    _, cold = open_sync(SyncRequest(repo=repo, paths=(A,), cache=False))
    assert memoised == cold and cold.api_mismatches


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    first=st.tuples(*(st.sampled_from(CHOICES) for _ in range(3))),
    then=st.lists(st.tuples(st.sampled_from((A, B, C)), st.sampled_from(CHOICES), st.booleans()), min_size=1,
                  max_size=2),
    staged=st.booleans(),
)
def test_a_changed_work_tree_analysed_with_the_memo_is_the_cold_analysis(
    capsys: pytest.CaptureFixture[str], first: tuple[str, str, str], then: list[tuple[str, str, bool]],
    staged: bool,
) -> None:
    with tempfile.TemporaryDirectory(prefix="memo-") as scratch:
        repo = _in_progress(Path(scratch, "repo"))
        for rel, choice in zip((A, B, C), first, strict=True):
            _resolve(repo, rel, choice, staged)
        _json(capsys, repo)  # the memo of the first state
        for rel, choice, stage in then:
            _resolve(repo, rel, choice, stage)
        _same_as_cold(capsys, repo)
