"""Reports of built syncs with risk put on chosen hunks, and Markdown rendered as GitHub does.

Risk levels come from ``with_risk`` so the report's tests do not depend on
how the scorer weighs evidence.
"""

from __future__ import annotations

import html
import re
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from markdown_it import MarkdownIt

from helpers.syncs import open_analysis
from workbench.analysis.model import Hunk, Level, Signal, SignalKind, SyncAnalysis
from workbench.report.document import RecordedDecision, Report, build_report
from workbench.report.stats import python_line_stats
from workbench.sample import RepoBuilder, SampleSync, Scenario


def git(sync: Scenario, *args: str) -> bytes:
    """``git ARGS`` in the sync's repository, sealed like the builder's; fails on a non-zero status."""
    return RepoBuilder.open(sync.path).git(*args)


def git_run(sync: Scenario, *args: str) -> subprocess.CompletedProcess[bytes]:
    """``git ARGS`` whatever its exit status."""
    return RepoBuilder.open(sync.path).run(*args)


def merged(b: RepoBuilder) -> SampleSync:
    """A small hand-built repository whose HEAD is a sync merge commit."""
    base = b.git("merge-base", "HEAD^1", "HEAD^2").decode().strip()
    return SampleSync("hand-built", b.path, b.rev("HEAD^1"), b.rev("HEAD^2"), base, (), "merge-commit",
                      merge=b.rev("HEAD"))


def with_risk(
    analysis: SyncAnalysis, marks: Mapping[tuple[str, int], tuple[Level, tuple[str, ...]]]
) -> SyncAnalysis:
    """The analysis with the hunks at ``(path, index)`` given a level and reasons (its worklist dropped: the
    report groups the marked hunks itself)."""
    files = []
    for entry in analysis.files:
        hunks = tuple(_marked(entry.path, h, marks) for h in entry.hunks)
        files.append(replace(entry, hunks=hunks))
    missing = set(marks) - {(f.path, h.index) for f in files for h in f.hunks}
    assert not missing, f"no such hunks: {missing}"
    return replace(analysis, files=tuple(files), worklist=None)


def _marked(path: str, hunk: Hunk, marks: Mapping[tuple[str, int], tuple[Level, tuple[str, ...]]]) -> Hunk:
    if (path, hunk.index) not in marks:
        return replace(hunk, level=Level.LOW, risk=0, signals=())
    level, reasons = marks[(path, hunk.index)]
    risk = {Level.HIGH: 90, Level.MEDIUM: 50, Level.LOW: 10}[level]
    signals = tuple(Signal(SignalKind.MAIN_AHEAD, reason, hunk.dev_commits, 10) for reason in reasons)
    return replace(hunk, level=level, risk=risk, signals=signals)


def render_html(markdown: str) -> str:
    """CommonMark with raw HTML passed through, as GitHub renders a PR body (before sanitising)."""
    html: str = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]).render(markdown)
    return html


def html_sections(rendered: str) -> dict[str, str]:
    """Each ``<h3>`` section's HTML by its heading, in order (the summary under ``""``, no footer)."""
    parts = re.split(r"<h3>(.*?)</h3>\n", rendered.split("<hr />")[0])
    sections = {"": parts[0]}
    for heading, body in zip(parts[1::2], parts[2::2], strict=True):
        sections[_unescape(heading)] = body
    return sections


def _unescape(text: str) -> str:
    return html.unescape(text)


def bare(analysis: SyncAnalysis) -> SyncAnalysis:
    """The engine's facts only: no risk, policy or API findings from later stages."""
    files = tuple(replace(f, policy=None, risk=0, level=Level.LOW, signals=()) for f in analysis.files)
    return with_risk(replace(analysis, files=files, api_mismatches=(), deleted_files=(), policy=None, duplicates=()), {})


def report_for(
    sync: Scenario,
    marks: Mapping[tuple[str, int], tuple[Level, tuple[str, ...]]] | None = None,
    decisions: Sequence[RecordedDecision] = (),
    fail_on: Level | None = None,
    change: Callable[[SyncAnalysis], SyncAnalysis] | None = None,
    **request: str,
) -> Report:
    """The report of a built sync, with only the given hunks risky (``change``: the analysis changed first)."""
    repo, analysis = open_analysis(sync.path, **request)
    analysis = with_risk(bare(analysis), marks or {})
    if change is not None:
        analysis = change(analysis)
    return build_report(analysis, python_line_stats(repo, analysis), decisions, fail_on)
