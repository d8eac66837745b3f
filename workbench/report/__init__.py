"""Sync reports for the PR body, a CI check and the terminal (``workbench report``).

``make_report`` gathers a :class:`Report` from an opened sync;
``write_report`` lays it out in one of :data:`FORMATS`.  Reports are read-only.
``listing.print_analysis`` is ``workbench analyze``'s listing of the analysis
itself, in the text report's styles (``styles.py``).
"""

from __future__ import annotations

from typing import TextIO

from workbench.analysis.model import Level, SyncAnalysis
from workbench.analysis.serialize import strict_json
from workbench.git.repo import GitRepo
from workbench.report.document import RecordedDecision, Report, build_report, is_open
from workbench.report.github import render_github
from workbench.report.jsonout import report_to_json
from workbench.report.links import commit_link_template
from workbench.report.markdown import render_markdown
from workbench.report.stats import LineStats, python_line_stats
from workbench.report.text import print_text
from workbench.resolve.provenance import with_provenance
from workbench.streams import pipe_console

FORMATS = ("md", "json", "text", "github")

__all__ = [
    "FORMATS",
    "LineStats",
    "RecordedDecision",
    "Report",
    "build_report",
    "is_open",
    "make_report",
    "write_report",
]


def make_report(
    repo: GitRepo, analysis: SyncAnalysis, *, result: str | None = None, fail_on: Level | None = None
) -> Report:
    """The report of an opened sync: line stats from git, decisions from the app's journal."""
    # Here, not at the top: ``workbench analyze`` imports this package for its listing, and the
    # decisions' readers bring tomlkit (~45 ms at every start) that only a report needs.
    from workbench.report.decisions import acknowledged, load_decisions, merged_decisions

    analysis = with_provenance(repo, analysis)
    stats = python_line_stats(repo, analysis, result)
    decisions, note = load_decisions(repo.gitdir, analysis)
    decisions += merged_decisions(repo, analysis, decisions)
    acks = acknowledged(repo, analysis)
    found = decisions + acks
    link = commit_link_template(repo.config_value("remote.origin.url"))
    return build_report(analysis, stats, found, fail_on, decisions_note="" if found else note, commit_url=link)


def write_report(report: Report, fmt: str, out: TextIO) -> None:
    """Write ``report`` to ``out`` as md, json, text or github."""
    if fmt == "md":
        out.write(render_markdown(report))
    elif fmt == "json":
        out.write(strict_json(report_to_json(report), indent=2))
        out.write("\n")
    elif fmt == "github":
        out.write(render_github(report))
    elif fmt == "text":
        terminal = out.isatty()
        print_text(report, pipe_console(file=out, highlight=False, soft_wrap=not terminal))
    else:
        raise ValueError(f"unknown report format {fmt!r}")
