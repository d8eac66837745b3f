"""Sync reports for the PR body, a CI check and the terminal (``workbench report``), and the one table of their
formats.

``FORMATS`` is what ``report --format`` offers, its ``--help``, which formats
the cache keeps, and the table in ``docs/report.md`` (a test holds the doc to
it).  The package itself imports nothing heavy, so the command reads the
table before it knows whether the report comes from the cache:
``make.make_report`` gathers a report and ``make.write_report`` lays it out.
``listing.print_analysis`` is ``workbench analyze``'s listing of the analysis
itself, in the text report's styles (``styles.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class ReportFormat(str, Enum):
    """A value of ``report --format`` (public: the flag's values)."""

    MD = "md"
    JSON = "json"
    TEXT = "text"
    GITHUB = "github"


@dataclass(frozen=True, slots=True)
class FormatSpec:
    """One format: who reads it and what it is (the docs' table), its ``--help`` words, whether it is cached."""

    format: ReportFormat
    reader: str
    what: str
    help: str
    cached: bool
    """Its text depends on nothing but the sync (``text`` follows the terminal and its settings)."""


FORMATS: tuple[FormatSpec, ...] = (
    FormatSpec(ReportFormat.MD, "the sync PR's body or a comment", "GitHub Markdown, paste-ready",
               "paste-ready PR body", cached=True),
    FormatSpec(ReportFormat.JSON, "bots", "`workbench.report/1`, the same content", "workbench.report/1", cached=True),
    FormatSpec(ReportFormat.TEXT, "a terminal", "Rich; colours only on a terminal without `NO_COLOR`",
               "for a terminal", cached=False),
    FormatSpec(ReportFormat.GITHUB, "a CI job on the sync PR", "one workflow annotation per finding",
               "workflow annotations", cached=True),
)
DEFAULT_FORMAT = ReportFormat.MD


def format_help() -> str:
    """``--format``'s help: each format and what it is for."""
    return "; ".join(f"{spec.format.value}: {spec.help}" + (" (default)" if spec.format is DEFAULT_FORMAT else "")
                     for spec in FORMATS)
