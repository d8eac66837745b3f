"""Cached documents: a warm `analyze --json` or `report` prints exactly the cold run's text, without pygit2.

The warm path reads the sync's identity with the git binary and serves the
text stored under it; anything the text could depend on beyond the key (the
app's journals, a preview's work tree, an identity libgit2 reads otherwise)
keeps it from being served or stored.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.cache import DiskCache, cache_key
from workbench.cli import main
from workbench.git.identity import identify_sync
from workbench.git.repo import GitRepo
from workbench.resolve.journal import Journal, Situation
from workbench.resolve.journal_files import JOURNAL_DIR, JOURNAL_SUFFIX
from workbench.resolve.splice import Choice
from workbench.sample import RepoBuilder, SampleSync
from workbench.services.sync import SyncRequest, _identity, _verified_inputs, open_sync
from workbench.services.workspace import Workspace


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = main(list(args))
    return status, capsys.readouterr().out


def _documents(cache_dir: Path) -> int:
    root = cache_dir / "analyses"
    return len(list(root.glob("*.entry"))) if root.is_dir() else 0


@pytest.mark.parametrize("fmt", ["md", "json", "github"])
def test_a_warm_report_prints_exactly_the_cold_report_and_its_status(
    sample_merge_commit: SampleSync, isolated_cache: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    repo = str(sample_merge_commit.path)
    args = ("report", "--repo", repo, "--format", fmt, "--fail-on", "low")
    cold = _run(capsys, *args)
    assert cold[0] == 1 and cold[1]  # the sample leaves risky hunks open: the gate fails
    assert _documents(isolated_cache) == 2  # the analysis, and this report's text
    assert _run(capsys, *args) == cold
    assert _run(capsys, *args, "--no-cache") == cold
    plain = _run(capsys, "report", "--repo", repo, "--format", fmt)  # another document: its own entry
    assert plain[0] == 0 and _documents(isolated_cache) == 3
    assert _run(capsys, "report", "--repo", repo, "--format", fmt) == plain


def test_the_warm_run_serves_the_stored_text(sample_merge_commit: SampleSync, isolated_cache: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """What a warm run prints is the entry under the sync's key (planted here), not a recomputation."""
    request = SyncRequest(repo=sample_merge_commit.path)
    inputs = _verified_inputs(GitRepo.open(sample_merge_commit.path), request, _identity(request))
    assert inputs is not None
    key = cache_key("report", {**inputs, "document": {"format": "md", "fail_on": None}})
    assert DiskCache(isolated_cache / "analyses").put(key, b"1\nplanted\n")
    assert _run(capsys, "report", "--repo", str(sample_merge_commit.path)) == (1, "planted\n")
    assert _run(capsys, "report", "--repo", str(sample_merge_commit.path), "--no-cache")[1] != "planted\n"


_WARM = """
import sys
from workbench.cli import main
status = main(sys.argv[1:])
heavy = sorted(m for m in ("pygit2", "workbench.analysis.model", "workbench.git.repo", "rich") if m in sys.modules)
print("imported:", heavy, file=sys.stderr)
sys.exit(status)
"""


@pytest.mark.parametrize("args", [("analyze", "--json"), ("report", "--format", "json")])
def test_a_warm_run_imports_neither_pygit2_nor_the_analysis(
    sample_merge_commit: SampleSync, capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    """Importing pygit2 alone takes longer than git's merge of a real sync (0.15 s against 0.13 s)."""
    cold = _run(capsys, *args, "--repo", str(sample_merge_commit.path))
    warm = subprocess.run([sys.executable, "-c", _WARM, *args, "--repo", str(sample_merge_commit.path)],
                          capture_output=True, text=True, check=False)
    assert (warm.returncode, warm.stdout) == cold
    assert warm.stderr == "imported: []\n"


def test_a_journal_keeps_the_document_from_being_served(sample_merge_commit: SampleSync,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Decisions the app saves for the merge commit after a cached report appear in the next report."""
    repo = str(sample_merge_commit.path)
    _status, before = _run(capsys, "report", "--repo", repo, "--format", "json")
    assert json.loads(before)["decisions"] == []
    ws = Workspace.open(SyncRequest(repo=sample_merge_commit.path))
    entry = next(f for f in ws.files if f.hunks)
    ws.decide_file(entry.path, Choice.DEV)
    _status, after = _run(capsys, "report", "--repo", repo, "--format", "json")
    assert {d["path"] for d in json.loads(after)["decisions"]} == {entry.path}


def test_the_journal_location_is_the_journals_own(sample_merge_commit: SampleSync) -> None:
    """sync.py tells a journal from its lock file through journal_files, without importing resolve.journal:
    the journal really lives under those names."""
    repo, analysis = open_sync(SyncRequest(repo=sample_merge_commit.path))
    journal = Journal.for_situation(repo.gitdir, Situation.of(analysis))
    assert journal.path.parent == repo.gitdir.joinpath(*JOURNAL_DIR)
    assert journal.path.name.endswith(JOURNAL_SUFFIX)
    assert not journal.path.with_suffix(".lock").name.endswith(JOURNAL_SUFFIX)


def test_an_identity_git_reads_otherwise_is_not_cached(sample_merge_commit: SampleSync, isolated_cache: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A replace ref git follows and libgit2 does not: the analysis (pygit2's) is not stored under git's key."""
    path = sample_merge_commit.path
    b = RepoBuilder.open(path)
    assert sample_merge_commit.merge is not None
    b.git("replace", "--graft", sample_merge_commit.merge, sample_merge_commit.main, sample_merge_commit.dev)
    identity = identify_sync(path, None, None, None, None)
    assert identity is not None and (identity.dev, identity.main) == (sample_merge_commit.main, sample_merge_commit.dev)
    assert _verified_inputs(GitRepo.open(path), SyncRequest(repo=path), identity) is None
    status, _out = _run(capsys, "analyze", "--json", "--repo", str(path))
    assert status == 0 and _documents(isolated_cache) == 0


@pytest.mark.parametrize(
    "args",
    [
        ("HEAD..HEAD",),  # a range
        (":/merge",),  # a search
        ("--dev", "HEAD"),  # half a preview
        ("-h",),
    ],
)
def test_unusual_revisions_have_no_identity(sample_merge_commit: SampleSync, args: tuple[str, ...]) -> None:
    rev = args[0] if len(args) == 1 else None
    dev = args[1] if len(args) == 2 else None
    assert identify_sync(sample_merge_commit.path, rev, dev, None, None) is None


def test_a_merge_commit_at_head_has_the_identity_pygit2_reads(sample_merge_commit: SampleSync) -> None:
    found = identify_sync(sample_merge_commit.path, None, None, None, None)
    assert found is not None and found.mode == "merge-commit" and found.merge == sample_merge_commit.merge
    repo = GitRepo.open(sample_merge_commit.path)
    assert (found.repo, found.gitdir) == (str(repo.workdir), repo.gitdir)
    assert _verified_inputs(repo, SyncRequest(repo=sample_merge_commit.path), found) is not None


def test_a_bare_clone_and_a_linked_work_tree_have_the_identity_pygit2_reads(sample_merge_commit: SampleSync,
                                                                           tmp_path: Path) -> None:
    """A bare repository has no top level (its git directory names it); a linked work tree has its own git dir."""
    bare = tmp_path / "bare.git"
    RepoBuilder.open(sample_merge_commit.path).git("clone", "-q", "--bare", str(sample_merge_commit.path), str(bare))
    linked = tmp_path / "linked"
    assert sample_merge_commit.merge is not None
    RepoBuilder.open(bare).git("worktree", "add", "-q", "--detach", str(linked), sample_merge_commit.merge)
    for path, rev in ((bare, sample_merge_commit.merge), (linked, None)):
        found = identify_sync(path, rev, None, None, None)
        repo = GitRepo.open(path)
        assert found is not None and (found.repo, found.gitdir) == (str(repo.workdir or repo.gitdir), repo.gitdir)
        assert _verified_inputs(repo, SyncRequest(repo=path, rev=rev), found) is not None


def test_a_previews_warm_report_follows_the_acknowledgements_in_the_work_tree(
    sample_branches: SampleSync, isolated_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A preview reads ``.workbench/acks.toml`` from the work tree, untracked as it is: its bytes are in the key."""
    sync = ["--repo", str(sample_branches.path), "--dev", "dev", "--main", "main"]
    report = ["report", *sync, "--format", "json", "--fail-on", "high"]
    cold = _run(capsys, *report)
    assert _run(capsys, *report) == cold and _documents(isolated_cache) == 2  # the analysis, the report
    gate = json.loads(cold[1])["gate"]
    assert cold[0] == 1 and gate["open"]
    hunk = gate["open"][0]
    assert _run(capsys, "ack", *sync, "--file", hunk["path"], "--hunk", str(hunk["index"] + 1),
                "--reason", "checked by hand")[0] == 0
    acked = _run(capsys, *report)
    assert acked != cold and len(json.loads(acked[1])["gate"]["open"]) == len(gate["open"]) - 1
    assert _run(capsys, *report) == acked == _run(capsys, *report, "--no-cache")
