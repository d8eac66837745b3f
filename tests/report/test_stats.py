"""Python line statistics against dev, checked against ``git diff --numstat`` itself."""

from __future__ import annotations

from helpers.reports import git
from helpers.syncs import open_analysis

from workbench.git.numstat import NumstatEntry, parse_numstat
from workbench.report.stats import LineStats, python_line_stats
from workbench.sample import SampleSync


def _git_numstat(sync: SampleSync, *revs: str) -> LineStats:
    """The sync procedure's own command, summed like its awk line (binary files count as 0)."""
    rows = git(sync, "diff", "--numstat", *revs, "--", "*.py").decode().splitlines()
    added = sum(int(r.split("\t")[0]) for r in rows if not r.startswith("-"))
    deleted = sum(int(r.split("\t")[1]) for r in rows if not r.startswith("-"))
    return LineStats(added, deleted, len(rows))


def test_merge_commit_stats_are_the_procedures_numbers(bot_merge: SampleSync) -> None:
    repo, analysis = open_analysis(bot_merge.path)
    assert python_line_stats(repo, analysis) == _git_numstat(bot_merge, f"{bot_merge.dev}...{bot_merge.merge}")


def test_a_preview_counts_what_the_bot_would_commit(bot_merge: SampleSync) -> None:
    repo, analysis = open_analysis(bot_merge.path, dev=bot_merge.dev, main=bot_merge.main)
    stats = python_line_stats(repo, analysis)
    assert stats == _git_numstat(bot_merge, bot_merge.dev, str(bot_merge.merge))
    assert stats.files > 0


def test_a_merge_in_progress_counts_the_work_tree(in_progress: SampleSync) -> None:
    repo, analysis = open_analysis(in_progress.path)
    assert python_line_stats(repo, analysis) == _git_numstat(in_progress, in_progress.dev)


def test_result_overrides_the_merge_commit(bot_merge: SampleSync) -> None:
    """A fix commit on the sync branch that puts dev's tree back leaves no Python change."""
    fix = git(bot_merge, "commit-tree", f"{bot_merge.dev}^{{tree}}", "-p", str(bot_merge.merge), "-m", "fix")
    repo, analysis = open_analysis(bot_merge.path, result=fix.decode().strip())
    assert python_line_stats(repo, analysis, fix.decode().strip()) == LineStats(0, 0, 0)


def test_parse_numstat_with_renames_and_binaries() -> None:
    out = b"3\t1\ta.py\x00-\t-\tlogo.py\x002\t0\t\x00old/b.py\x00new/b.py\x00"
    assert parse_numstat(out) == (
        NumstatEntry("a.py", 3, 1),
        NumstatEntry("logo.py", None, None),
        NumstatEntry("new/b.py", 2, 0, "old/b.py"),
    )
    assert parse_numstat(b"") == ()
