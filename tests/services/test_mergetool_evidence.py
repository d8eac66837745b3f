"""git mergetool during a real merge: the file gets the evidence ``workbench open`` shows for it.

The demo sample's dev runs a plain ``git merge main`` (no ``-X theirs``), so
every hunk stops with markers; BASE/LOCAL/REMOTE are written exactly as git
mergetool writes them (``git checkout-index --stage=all --temp``).  Without
a merge in progress, or with files that are not MERGED's stages, the tool
falls back to the three versions alone and says so.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from workbench.analysis.model import FileAnalysis, Level, Mode, SignalKind, SyncAnalysis
from workbench.resolve.session import Session
from workbench.resolve.splice import Choice, Decision
from workbench.sample import RepoBuilder, SampleSync
from workbench.sample.truth import Pathology
from workbench.services.mergetool_file import load_mergetool
from workbench.services.sync import SyncRequest, open_sync

BASE = "".join(f"v{i} = {i}\n" for i in range(10))
Template = Callable[[str], SampleSync]
Opened = dict[str | None, SyncAnalysis]
"""``workbench open``'s analysis of the merge, by policy."""


@pytest.fixture(scope="module")
def merging(sample_template: Template, tmp_path_factory: pytest.TempPathFactory) -> SampleSync:
    """The demo sample's dev with ``git merge main`` stopped on its conflicts (read-only in this module)."""
    source = sample_template("branches")
    dest = tmp_path_factory.mktemp("merging") / "repo"
    shutil.copytree(source.path, dest, symlinks=True)
    assert RepoBuilder.open(dest).merge("main") == 1, "the plain merge stops on conflicts"
    return replace(source, path=dest)


@pytest.fixture(scope="module")
def opened(merging: SampleSync) -> Opened:
    """``workbench open``'s whole analysis of that merge, without a policy and with the megatron preset."""
    return {policy: open_sync(SyncRequest(repo=merging.path, policy=policy))[1] for policy in (None, "megatron")}


def _stages(repo: Path, path: str) -> list[str]:
    """BASE, LOCAL and REMOTE as git mergetool writes them (temporary files; an empty one for a missing stage)."""
    out = RepoBuilder.open(repo).git("checkout-index", "--stage=all", "--temp", "--", path).decode()
    files = []
    for k, name in enumerate(out.split("\t")[0].split()):
        if name == ".":
            name = f".merge_file_empty{k}"
            (repo / name).write_bytes(b"")
        files.append(str(repo / name))
    return files


def _mergetool(repo: Path, path: str, policy: str | None = None, swap: bool = False) -> SyncAnalysis:
    base, local, remote = _stages(repo, path)
    if swap:
        local, remote = remote, local
    try:
        return load_mergetool(base, local, remote, str(repo / path), policy)[1]
    finally:
        for name in (base, local, remote):
            Path(name).unlink()


def _evidence(entry: FileAnalysis) -> tuple[object, ...]:
    """Everything ``workbench open`` says about a file: risk, signals, policy, history, each hunk's commits."""
    hunks = tuple(
        (h.index, h.result, h.taken, h.level, h.risk, h.signals, h.dev_commits, h.main_commits) for h in entry.hunks
    )
    return entry.level, entry.risk, entry.signals, entry.policy, entry.history, entry.exact, hunks


def _squash_chain(sample: SampleSync) -> str:
    return next(t.path for t in sample.files if t.pathology is Pathology.SQUASH_CHAIN_DEV_AHEAD)


def test_a_squash_chain_conflict_shows_what_open_shows(merging: SampleSync, opened: Opened) -> None:
    path = _squash_chain(merging)
    expected = opened[None].file(path)
    assert expected is not None and expected.level is Level.HIGH
    analysis = _mergetool(merging.path, path)
    assert analysis.mode is Mode.MERGETOOL and analysis.labels == ("LOCAL", "REMOTE")
    (entry,) = analysis.files
    assert _evidence(entry) == _evidence(expected)
    assert all("squash-counterpart" in {s.kind for s in h.signals} for h in entry.hunks)
    assert [c.subject for c in entry.history.dev][-1].endswith("(#101)") and entry.history.main
    assert all(h.dev_commits and h.main_commits for h in entry.hunks)


@pytest.mark.parametrize("policy", [None, "megatron"])
def test_every_conflicted_text_file_gets_opens_evidence(merging: SampleSync, opened: Opened, policy: str | None) -> None:
    compared: set[str] = set()
    for expected in opened[policy].files:
        if not expected.hunks:
            continue  # binary, modify/delete: git mergetool does not hand these to a tool as three texts
        (entry,) = _mergetool(merging.path, expected.path, policy).files
        assert _evidence(entry) == _evidence(expected), expected.path
        compared.update(s.kind for s in (*entry.signals, *(s for h in entry.hunks for s in h.signals)))
    assert "api-mismatch" in compared, "a finding of the API audit was among the files compared"
    if policy == "megatron":
        assert {"policy-keep-dev", "policy-coupled", "policy-note"} <= compared


def test_hunks_sit_on_gits_markers_in_merged(merging: SampleSync) -> None:
    path = _squash_chain(merging)
    base, local, remote = (Path(p).read_bytes().splitlines(keepends=True) for p in _stages_kept(merging.path, path))
    merged = (merging.path / path).read_bytes()
    lines = merged.splitlines(keepends=True)
    analysis = _mergetool(merging.path, path)
    (entry,) = analysis.files
    for hunk in entry.hunks:
        assert hunk.result is not None
        block = lines[hunk.result.start - 1 : hunk.result.end]
        assert block[0].startswith(b"<<<<<<< ") and block[-1].startswith(b">>>>>>> ")
        assert hunk.dev_text == tuple(local[hunk.dev.start - 1 : hunk.dev.end])
        assert hunk.main_text == tuple(remote[hunk.main.start - 1 : hunk.main.end])
        assert hunk.base_text == tuple(base[hunk.base.start - 1 : hunk.base.end])
    session = Session(analysis)
    for hunk in entry.hunks:
        session.decide(path, hunk.index, Decision(Choice.DEV))
    ours = subprocess.run(
        ["git", "merge-file", "-p", "--ours", *_stages_kept(merging.path, path, order=(1, 0, 2))],
        capture_output=True, check=True,
    ).stdout
    assert session.preview(path) == ours


def _stages_kept(repo: Path, path: str, order: tuple[int, int, int] = (0, 1, 2)) -> list[str]:
    """The stages as temporary files that stay (under the test's own directory, outside the work tree)."""
    files = _stages(repo, path)
    kept = []
    for k, name in enumerate(files):
        target = repo.parent / f"stage{k}"
        shutil.move(name, target)
        kept.append(str(target))
    return [kept[k] for k in order]


@pytest.fixture
def picking(builder: RepoBuilder) -> RepoBuilder:
    """``git cherry-pick main`` on dev stopped on x.py: conflicted, but no merge in progress."""
    builder.write("x.py", BASE).commit("base")
    builder.branch("dev").checkout("dev").write("x.py", BASE.replace("v2 = 2", "v2 = 20")).commit("dev")
    builder.checkout("main").write("x.py", BASE.replace("v2 = 2", "v2 = 200")).commit("main")
    builder.checkout("dev")
    assert builder.run("cherry-pick", "main").returncode != 0
    assert (builder.path / ".git" / "CHERRY_PICK_HEAD").exists()
    return builder


def test_without_a_merge_in_progress_the_three_versions_are_all_and_it_says_so(picking: RepoBuilder) -> None:
    analysis = _mergetool(picking.path, "x.py")
    assert analysis.mode is Mode.MERGETOOL and analysis.base is None
    (entry,) = analysis.files
    assert len(entry.hunks) == 1 and entry.history.dev == entry.history.main == ()
    assert entry.hunks[0].result is not None and entry.hunks[0].dev_commits == ()
    (note,) = entry.signals
    assert note.kind == SignalKind.NO_HISTORY and note.weight == 0
    assert note.message.startswith("no history: not a merge in progress")


def test_files_that_are_not_mergeds_stages_fall_back(merging: SampleSync) -> None:
    path = _squash_chain(merging)
    (entry,) = _mergetool(merging.path, path, swap=True).files
    assert entry.history.dev == () and all(not h.signals for h in entry.hunks)
    (note,) = entry.signals
    assert note.kind == SignalKind.NO_HISTORY
    assert note.message.startswith("no history: LOCAL differs from MERGED's stage 2 in the merge in progress")
