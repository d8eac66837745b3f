"""``workbench report``: the sync analysis for a PR body, a CI check or the terminal."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from workbench.commands import add_sync_options, sync_request
from workbench.report import DEFAULT_FORMAT, FORMATS, ReportFormat, format_help

if TYPE_CHECKING:
    from workbench.analysis.model import SyncAnalysis
    from workbench.git.repo import GitRepo
    from workbench.report.document import Report


def configure(parser: argparse.ArgumentParser) -> None:
    add_sync_options(parser)
    parser.add_argument(
        "--format",
        choices=[spec.format.value for spec in FORMATS],
        default=DEFAULT_FORMAT.value,
        help=format_help(),
    )
    parser.add_argument(
        "--fail-on",
        choices=("low", "medium", "high"),
        metavar="LEVEL",
        help="exit 1 when a hunk at or above LEVEL (low, medium, high) is still open: "
        "undecided in the app and main's text still in the result",
    )


CACHED_FORMATS = frozenset(spec.format.value for spec in FORMATS if spec.cached)
"""Formats whose text depends on nothing but the sync (``FormatSpec.cached``)."""


def run(args: argparse.Namespace) -> int:
    import sys

    from workbench.git.types import ACKS_PATH
    from workbench.services.sync import open_sync, sync_document
    from workbench.streams import stop_writing, write_document

    request = sync_request(args)
    try:
        if args.format in CACHED_FORMATS:
            # The exit status (the gate's verdict) is the document's first line.  Acknowledgements come from
            # the result commit, or from the work tree (a preview): that file is in the key.
            document = sync_document(
                request,
                "report",
                lambda repo, analysis: _document(repo, analysis, args),
                options={"format": args.format, "fail_on": args.fail_on},
                reads_outside_commits=(ACKS_PATH,),
            )
            first_line = document[0].index("\n")  # the first piece holds the status line (alone, or all the text)
            status = int(document[0][:first_line])
            write_document(document, first_line + 1, end="")
        else:
            from workbench.report.make import write_report

            report = _report(*open_sync(request), args)
            status = _status(report)
            write_report(report, ReportFormat(args.format), sys.stdout)  # straight to the terminal, which the text follows
        sys.stdout.flush()
    except BrokenPipeError:
        stop_writing()  # the reader (`| head`) stopped: the gate's verdict stands, said quietly
    return status


def _document(repo: GitRepo, analysis: SyncAnalysis, args: argparse.Namespace) -> list[str]:
    """The exit status on the first line, then the report's text."""
    import io

    from workbench.report.make import write_report

    report = _report(repo, analysis, args)
    out = io.StringIO()
    write_report(report, ReportFormat(args.format), out)
    return [f"{_status(report)}\n", out.getvalue()]


def _report(repo: GitRepo, analysis: SyncAnalysis, args: argparse.Namespace) -> Report:
    from workbench.analysis.model import Level
    from workbench.report.make import make_report

    result = repo.resolve(args.result) if args.result else None
    fail_on = Level(args.fail_on) if args.fail_on else None
    return make_report(repo, analysis, result=result, fail_on=fail_on)


def _status(report: Report) -> int:
    return 1 if report.gate is not None and report.gate.failed else 0

