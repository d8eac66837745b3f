"""A report from an opened sync, written in one of the formats of ``workbench.report.FORMATS``.

``make_report`` gathers a :class:`Report`; ``write_report`` lays it out.
Reports are read-only.
"""

from __future__ import annotations

from typing import TextIO, assert_never

from workbench.analysis.model import Level, SyncAnalysis
from workbench.analysis.serialize import strict_json
from workbench.git.repo import GitRepo
from workbench.report import ReportFormat
from workbench.report.document import Report, build_report
from workbench.report.github import render_github
from workbench.report.jsonout import report_to_json
from workbench.report.links import commit_link_template
from workbench.report.markdown import render_markdown
from workbench.report.stats import python_line_stats
from workbench.report.text import print_text
from workbench.report.worklist_text import ItemFilter
from workbench.resolve.provenance import with_provenance
from workbench.streams import pipe_console


def make_report(
    repo: GitRepo, analysis: SyncAnalysis, *, result: str | None = None, fail_on: Level | None = None
) -> Report:
    """The report of an opened sync: line stats from git, decisions from the app's journal."""
    # Here, not at the top: ``workbench analyze`` imports this package for its listing, and the
    # decisions' readers bring tomlkit (~45 ms at every start) that only a report needs.
    from workbench.report.decisions import acknowledged, load_decisions, merged_decisions, with_marks
    from workbench.resolve.acks import sync_acks

    analysis = with_provenance(repo, analysis)
    stats = python_line_stats(repo, analysis, result)
    decisions, note = load_decisions(repo.gitdir, analysis)
    decisions += merged_decisions(repo, analysis, decisions)
    record = sync_acks(repo, analysis)
    found = with_marks(repo, analysis, decisions + acknowledged(analysis, record), record)
    link = commit_link_template(repo.config_value("remote.origin.url"))
    return build_report(analysis, stats, found, fail_on, decisions_note="" if found else note, commit_url=link)


def write_report(report: Report, fmt: ReportFormat, out: TextIO, only: ItemFilter = ItemFilter.ALL) -> None:
    """Write ``report`` to ``out`` in ``fmt`` (``only``: which items the text format lists)."""
    if fmt is ReportFormat.MD:
        out.write(render_markdown(report))
    elif fmt is ReportFormat.JSON:
        out.write(strict_json(report_to_json(report), indent=2))
        out.write("\n")
    elif fmt is ReportFormat.GITHUB:
        out.write(render_github(report))
    elif fmt is ReportFormat.TEXT:
        terminal = out.isatty()
        print_text(report, pipe_console(file=out, highlight=False, soft_wrap=not terminal), only)
    else:
        assert_never(fmt)
